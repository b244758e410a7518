/* When a ballistic sphere meets a fixed triangle (3D).
 *
 * Contract: world_triangles_time returns the earliest time >= now, and
 * before `before`, at which the centre of sphere s (its own state: x + v
 * tau + g tau^2 / 2 under gravity, straight when growing) comes within
 * its radius r of a fixed triangle, and which (the first in index order
 * at a tie), or INFINITY. "Already touching and not
 * approaching" is no meeting (roots.h), so a sphere leaving a triangle
 * it touches never meets it again at once.
 *
 * The centres within r of a triangle make a solid: a slab of half-width
 * r over the triangle, a cylinder of radius r along each edge (between
 * its corners), a ball of radius r around each corner. A centre enters
 * the solid first through one of these pieces, each entered through its
 * own surface:
 * - a face of the slab, while the centre's foot on the plane lies in the
 *   triangle (the slab's sides lie inside the cylinders): the height
 *   above the plane is a quadratic in time. The face on the centre's
 *   side is the first upcrossing of r - height; the far face, reached
 *   after the centre passed the plane beyond an edge and curved back
 *   under gravity, is the larger root (as for segments,
 *   world_segment_far_face_time);
 * - the side of an edge's cylinder, while the centre is alongside the
 *   edge (the cylinder's ends lie inside the corners' balls): the
 *   distance from the edge's line is a quartic under gravity. A parabola
 *   may enter the infinite cylinder twice, the first time beyond a
 *   corner, so an entry beyond the corners is followed to the centre's
 *   leaving and the next entry;
 * - a corner's ball: the quartic |x(tau) - corner|^2 = r^2.
 * Quartic roots are polished about their own state (roots_polish_contact).
 * A growing sphere (no gravity then) meets a face when r + grow tau -
 * height rises through zero, an edge or a corner when (r + grow tau)^2 -
 * distance^2 does (a quadratic with one upcrossing at most); growing
 * spheres moving straight cannot come back to a far face.
 *
 * Cost: each prediction looks for triangles after the walls and cell
 * faces (`before` is the earliest of those). A bound on how far the
 * sphere travels before then, computed once, and the box its path
 * sweeps limit the walk of the triangles' box tree (world_triangles.c)
 * to the boxes within reach that meet the swept box, then the triangles
 * there to those whose own boxes meet it; it skips for a few
 * multiplications each (no square roots) a triangle whose ball around
 * it is out of reach, or whose plane is (by the motion along its
 * normal), and each edge and corner out of reach. */
#include <math.h>
#include <stdlib.h>

#include "roots.h"
#include "vec.h"
#include "sweep.h"
#include "world_internal.h"

/* The smaller of two times (never NaN here; libm's fmin is a call). */
static inline double earlier(double a, double b)
{
    return a < b ? a : b;
}

/* tau if the centre (x + v tau + a tau^2 / 2) is then over the triangle,
 * else INFINITY. */
static double over_at(const world_triangle *g, const double x[3], const double v[3],
                      const double a[3], double tau)
{
    if (!isfinite(tau))
        return INFINITY;
    double y[3];
    for (int k = 0; k < 3; k++)
        y[k] = x[k] + tau * (v[k] + 0.5 * a[k] * tau);
    return world_triangle_over(g, y) ? tau : INFINITY;
}

/* The first tau in [0, horizon] at which y(tau) = d + u tau + a tau^2 / 2
 * comes within r of the origin (rising through zero: r^2 - |y|^2), else
 * INFINITY. */
static double approach_time(const double d[3], const double u[3], const double a[3], double r,
                            double horizon)
{
    double c[5] = {r * r - vec_dot(d, d), -2.0 * vec_dot(d, u), -(vec_dot(u, u) + vec_dot(d, a)),
                   -vec_dot(u, a), -0.25 * vec_dot(a, a)};
    double tau = roots_first_upcrossing_poly_before(c, 4, horizon);
    if (!isfinite(tau))
        return tau;
    double half_a[3] = {0.5 * a[0], 0.5 * a[1], 0.5 * a[2]};
    return roots_polish_contact(d, u, half_a, r, tau);
}

/* The first tau in [0, horizon] at which y(tau) goes out beyond r again
 * (|y|^2 - r^2 rising through zero), else INFINITY. */
static double leave_time(const double d[3], const double u[3], const double a[3], double r,
                         double horizon)
{
    double c[5] = {vec_dot(d, d) - r * r, 2.0 * vec_dot(d, u), vec_dot(u, u) + vec_dot(d, a),
                   vec_dot(u, a), 0.25 * vec_dot(a, a)};
    return roots_first_upcrossing_poly_before(c, 4, horizon);
}

/* y(tau), y'(tau) of y = d + u tau + a tau^2 / 2. */
static void move_along(double d[3], double u[3], const double a[3], double tau)
{
    for (int k = 0; k < 3; k++) {
        d[k] += tau * (u[k] + 0.5 * a[k] * tau);
        u[k] += a[k] * tau;
    }
}

/* Nothing at distance sqrt(distance2) from the centre can be touched by
 * the horizon (r: the sphere's radius, and whatever else the distance
 * may be less). */
static int beyond(const reach *q, double distance2, double r)
{
    double most = r + q->travel + q->slack;
    return distance2 > most * most;
}

/* The centre x + v tau + a tau^2 / 2 entering edge k's cylinder while
 * alongside the edge, at tau <= horizon (never while farther from the
 * edge's line than q allows). */
static double edge_time(const world_triangle *g, int k, const double x[3], const double v[3],
                        const double a[3], double r, double horizon, const reach *q)
{
    const double *e = g->dir[k];
    double rel[3];
    vec_sub(rel, x, g->p[k]);
    double along0 = vec_dot(rel, e), speed = vec_dot(v, e), pull = vec_dot(a, e);
    /* The parts across the edge's line. */
    double d[3], u[3], across[3];
    for (int m = 0; m < 3; m++) {
        d[m] = rel[m] - along0 * e[m];
        u[m] = v[m] - speed * e[m];
        across[m] = a[m] - pull * e[m];
    }
    if (beyond(q, vec_dot(d, d), r))
        return INFINITY;
    int straight = vec_dot(across, across) == 0.0;
    double from = 0.0;
    for (int entry = 0; entry < 2; entry++) { /* a parabola enters a cylinder twice at most */
        double tau = approach_time(d, u, across, r, horizon - from);
        if (!isfinite(tau))
            return INFINITY;
        double t = from + tau;
        double along = along0 + t * (speed + 0.5 * pull * t);
        if (along >= 0.0 && along <= g->length[k])
            return t;
        if (straight)
            return INFINITY; /* a line enters a cylinder once */
        move_along(d, u, across, tau);
        double out = leave_time(d, u, across, r, horizon - t);
        if (!isfinite(out))
            return INFINITY;
        move_along(d, u, across, out);
        from = t + out;
    }
    return INFINITY;
}

static double corner_time(const world_triangle *g, int k, const double x[3], const double v[3],
                          const double a[3], double r, double horizon, const reach *q)
{
    double d[3];
    vec_sub(d, x, g->p[k]);
    return beyond(q, vec_dot(d, d), r) ? INFINITY : approach_time(d, v, a, r, horizon);
}

/* triangle_time for growing spheres: surfaces move out at `grow`. */
static double growing_time(const world_triangle *g, const double x[3], const double v[3], double r,
                           double grow)
{
    const double none[3] = {0.0, 0.0, 0.0};
    double rel[3];
    vec_sub(rel, x, g->p[0]);
    double e = vec_dot(rel, g->n), side = e >= 0.0 ? 1.0 : -1.0;
    double rate = side * vec_dot(g->n, v);
    double tau =
        over_at(g, x, v, none, roots_first_upcrossing_quadratic(r - side * e, grow - rate, 0.0));
    for (int k = 0; k < 3; k++) {
        const double *dir = g->dir[k];
        double d[3], u[3];
        vec_sub(d, x, g->p[k]);
        double along0 = vec_dot(d, dir), speed = vec_dot(v, dir);
        for (int m = 0; m < 3; m++) {
            d[m] -= along0 * dir[m];
            u[m] = v[m] - speed * dir[m];
        }
        if (!(g->shared & TRIANGLE_EDGE_SHARED(k))) {
            double t = roots_first_upcrossing_quadratic(r * r - vec_dot(d, d),
                                                        2.0 * (r * grow - vec_dot(d, u)),
                                                        grow * grow - vec_dot(u, u));
            double along = along0 + t * speed;
            if (along >= 0.0 && along <= g->length[k])
                tau = earlier(tau, t);
        }
        if (g->shared & TRIANGLE_CORNER_SHARED(k))
            continue;
        vec_sub(d, x, g->p[k]);
        tau = earlier(tau, roots_first_upcrossing_quadratic(r * r - vec_dot(d, d),
                                                            2.0 * (r * grow - vec_dot(d, v)),
                                                            grow * grow - vec_dot(v, v)));
    }
    return tau;
}

/* The sphere (centre x, velocity v, acceleration a, radius r growing at
 * grow) meets triangle g at tau <= horizon, else INFINITY. */
static double triangle_time(const world_triangle *g, const double x[3], const double v[3],
                            const double a[3], double r, double grow, double horizon,
                            const reach *q)
{
    /* Cheaply first: out of reach of the ball around the triangle, or of
     * its plane. */
    double d[3];
    vec_sub(d, x, g->centre);
    if (beyond(q, vec_dot(d, d), r + g->reach))
        return INFINITY;
    /* The height above the plane changes at most by |v.n| tau + |a.n|
     * tau^2 / 2. */
    vec_sub(d, x, g->p[0]);
    double e = vec_dot(d, g->n), vn = vec_dot(v, g->n), an = vec_dot(a, g->n);
    if (horizon < INFINITY &&
        fabs(e) - r >
            horizon * (fabs(vn) + 0.5 * fabs(an) * horizon + grow) * (1.0 + 1e-12) + q->slack)
        return INFINITY;
    if (grow > 0.0)
        return growing_time(g, x, v, r, grow);
    /* The faces: the centre's height above the plane, and its rate and
     * half its acceleration, seen from the centre's side. */
    double side = e >= 0.0 ? 1.0 : -1.0;
    double rate = side * vn, half = 0.5 * side * an;
    double tau = over_at(g, x, v, a, roots_first_upcrossing_quadratic(r - side * e, -rate, -half));
    tau = earlier(tau, over_at(g, x, v, a, world_segment_far_face_time(r + side * e, rate, half)));
    for (int k = 0; k < 3; k++) { /* those a lower triangle shares, it solves */
        if (!(g->shared & TRIANGLE_EDGE_SHARED(k)))
            tau = earlier(tau, edge_time(g, k, x, v, a, r, earlier(tau, horizon), q));
        if (!(g->shared & TRIANGLE_CORNER_SHARED(k)))
            tau = earlier(tau, corner_time(g, k, x, v, a, r, earlier(tau, horizon), q));
    }
    return tau;
}

double world_triangles_time(const carom_world *w, const sphere *s, double now, double before,
                            uint32_t *which)
{
#ifdef CAROM_VALIDATE
    if (w->triangle_tree.count != w->ntriangles)
        abort(); /* the world builds the tree before any prediction */
#endif
    double best = before - s->t; /* from the sphere's own time */
    uint32_t found = UINT32_MAX;
    /* The boxes within the reach of its centre and meeting its swept box:
     * the tree's, then each triangle's. */
    sphere_sweep sw;
    box_tree_walk k;
    sphere_sweep_start(w, s, before, &w->triangle_tree, &sw, &k);
    const uint32_t *items;
    uint32_t n;
    while ((n = box_tree_walk_next(&k, &items)))
        for (uint32_t e = 0; e < n; e++) {
            uint32_t g = items[e];
            if (!box_tree_walk_meets(&k, w->triangles[g].lo, w->triangles[g].hi))
                continue;
            double tau =
                triangle_time(&w->triangles[g], s->x, s->v, sw.a, sw.r, sw.grow, best, &sw.q);
            /* At a tie, the first in index order. */
            if (tau < best || (tau == best && found != UINT32_MAX && g < found)) {
                best = tau;
                found = g;
            }
        }
    *which = found;
    if (found == UINT32_MAX)
        return INFINITY;
    double t = s->t + best;
    return t > now ? t : now;
}
