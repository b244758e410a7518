/* When a driven sphere's bound meets another sphere's (bound) or a wall,
 * and when it resets: the quartic of seed 000's equation (10) and the
 * quadratics of (7), with the cheap tests that spare most candidates the
 * quartic. Contract in world_internal.h; rules at the top of
 * world_driven.c. */
#include <math.h>

#include "roots.h"
#include "vec.h"
#include "world_driven.h"

/* sign * (Q(tau)^2 - |P(tau)|^2), with P = p0 + p1 tau + p2 tau^2 (vectors)
 * and Q = q0 + q1 tau + q2 tau^2, as quartic coefficients. */
static void square_difference(const double p0[3], const double p1[3], const double p2[3],
                              const double q[3], double sign, double c[5])
{
    c[0] = sign * (q[0] * q[0] - vec_dot(p0, p0));
    c[1] = sign * (2.0 * q[0] * q[1] - 2.0 * vec_dot(p0, p1));
    c[2] = sign * (q[1] * q[1] + 2.0 * q[0] * q[2] - vec_dot(p1, p1) - 2.0 * vec_dot(p0, p2));
    c[3] = sign * (2.0 * q[1] * q[2] - 2.0 * vec_dot(p1, p2));
    c[4] = sign * (q[2] * q[2] - vec_dot(p2, p2));
}

double world_driven_pair_time(const carom_world *w, const sphere *a, const double xa[3],
                              const double va[3], const sphere *b, const double shift[3],
                              double now)
{
    uint32_t i = (uint32_t)(a - w->spheres), j = (uint32_t)(b - w->spheres);
    double p0[3], p1[3], p2[3] = {0.0, 0.0, 0.0};
    if (!w->has_gravity) {
        double dt = now - b->t;
        for (int k = 0; k < 3; k++) {
            p0[k] = b->x[k] + b->v[k] * dt + shift[k] - xa[k];
            p1[k] = b->v[k] - va[k];
        }
    } else {
        double xb[3], vb[3];
        world_sphere_at(w, b, now, xb, vb);
        double fall = (double)w->info[j].falls - (double)w->info[i].falls;
        for (int k = 0; k < 3; k++) {
            p0[k] = xb[k] + shift[k] - xa[k];
            p1[k] = vb[k] - va[k];
            p2[k] = 0.5 * fall * w->gravity[k];
        }
    }
    const driven_bound *ba = &w->bounds[i], *bb = &w->bounds[j];
    double ga[3], gb[3], grow[3];
    bound_growth(ba, now, ga);
    bound_growth(bb, now, gb);
    for (int k = 0; k < 3; k++)
        grow[k] = ga[k] + gb[k];
    double sigma = a->radius + b->radius, c[5], q[3];
    if (w->contacts_linger && world_driven_in_contact(w, i, j)) {
        if (!world_is_nearest_image(w, p0))
            return INFINITY; /* in contact through another image */
        /* They may have come apart once |P| + growth >= sigma. */
        q[0] = sigma - grow[0];
        q[1] = -grow[1];
        q[2] = -grow[2];
        square_difference(p0, p1, p2, q, -1.0, c);
        return now + roots_first_upcrossing_poly(c, 4);
    }
    /* Nothing later than a reset (section 3.3 of the paper). A cheap test
     * first: the straight path's closest approach before then, less what
     * p2 can bend it by, beyond the largest the bounds get: no meeting. */
    double t_end = ba->t_reset < bb->t_reset ? ba->t_reset : bb->t_reset;
    double H = t_end - now;
    if (H < INFINITY) {
        double reach = bounds_reach_at(ba, bb, sigma, t_end);
        if (w->has_gravity)
            reach += H * H * sqrt(vec_dot(p2, p2));
        if (paths_stay_apart(p0, p1, H, reach))
            return INFINITY;
    }
    q[0] = sigma + grow[0];
    q[1] = grow[1];
    q[2] = grow[2];
    square_difference(p0, p1, p2, q, 1.0, c);
    double t = now + roots_first_upcrossing_poly_before(c, 4, H);
    /* Two fresh bounds touching without approaching: put off unless the
     * meeting is a pressed contact (world_driven_meet.c). */
    double accel = pair_press_accel(w, i, j), apart = vec_dot(p0, p1);
    if (grow[1] == 0.0 && accel > 0.0 && apart >= 0.0) {
        double xb[3];
        for (int k = 0; k < 3; k++)
            xb[k] = xa[k] + p0[k];
        double tol = contact_tolerance(sigma, xa, xb), dist = sqrt(vec_dot(p0, p0));
        if (dist - sigma <= tol &&
            (apart >= 0.5 * keep_apart_speed(accel, tol) * dist ||
             !world_driven_pair_responds(w, i, j))) {
            double later = now + sqrt(2.0 * tol / accel);
            if (t < later)
                t = later;
        }
    }
    return t;
}

/* (world_driven.h) */
double world_driven_surface_time(const carom_world *w, const sphere *s, double past,
                                 double approach, double scale, double now)
{
    const driven_bound *b = &w->bounds[s - w->spheres];
    double g[3];
    bound_growth(b, now, g);
    /* Signed distance by which the bound passes the surface: rises to 0. */
    double c0 = past + s->radius + g[0];
    double c1 = approach + g[1];
    double c2 = g[2];
    /* Nothing later than the reset: cheaply, can it get there by then? */
    double H = b->t_reset - now;
    if (H < INFINITY && c0 + H * (fabs(c1) + H * c2) < 0.0)
        return INFINITY;
    double t = now + roots_first_upcrossing_quadratic(c0, c1, c2);
    if (g[1] == 0.0 && c2 > 0.0 && c1 <= 0.0) {
        /* Touching the surface without approaching: put off unless the
         * meeting is a pressed contact (world_driven_meet.c). */
        double tol = CONTACT_TOLERANCE * s->radius + 1e-14 * scale;
        if (c0 >= -tol && -c1 >= 0.5 * keep_apart_speed(2.0 * c2, tol)) {
            double later = now + sqrt(tol / c2);
            if (t < later)
                t = later;
        }
    }
    return t;
}

double world_driven_wall_time(const carom_world *w, const sphere *s, const double x[3],
                              const double v[3], int wall, double now)
{
    if ((uint32_t)wall >= TRIANGLE_WALL)
        return world_driven_triangle_time(w, s, x, v,
                                          &w->triangles[(uint32_t)wall - TRIANGLE_WALL], now);
    if ((uint32_t)wall >= SEGMENT_WALL)
        return world_driven_segment_time(w, s, x, v, &w->segments[(uint32_t)wall - SEGMENT_WALL],
                                         now);
    if ((uint32_t)wall >= PLANE_WALL) {
        const world_plane *p = &w->planes[(uint32_t)wall - PLANE_WALL];
        return world_driven_surface_time(w, s, p->d - vec_dot(p->n, x), -vec_dot(p->n, v),
                                  world_plane_scale(x), now);
    }
    int axis = wall / 2, high = wall % 2;
    double sign = high ? 1.0 : -1.0;
    double face = high ? w->def.box[axis] : 0.0;
    return world_driven_surface_time(w, s, sign * (x[axis] - face), sign * v[axis], fabs(x[axis]),
                                     now);
}

/* The walk of a tree of fixed things' boxes (triangles, segments) over
 * those the bound can reach by its reset: its centre moves along v by
 * |v| H, its radius grows to r + accel (t_reset - t0)^2 / 2. */
static void bound_walk_start(const carom_world *w, const sphere *s, const double x[3],
                             const double v[3], double now, const box_tree *tree,
                             box_tree_walk *k)
{
    const driven_bound *b = &w->bounds[s - w->spheres];
    double H = b->t_reset - now, e = b->t_reset - b->t0;
    double reach = INFINITY, lo[3], hi[3];
    for (int m = 0; m < 3; m++) {
        lo[m] = -INFINITY;
        hi[m] = INFINITY;
    }
    if (H < INFINITY) {
        double slack = 1e-12 * (world_plane_scale(x) + s->radius);
        double radius = (s->radius + 0.5 * b->accel * e * e) * (1.0 + 1e-12) + slack;
        double travel = sqrt(vec_dot(v, v)) * H * (1.0 + 1e-12);
        reach = radius + travel;
        for (int m = 0; m < 3; m++) { /* the box the bound sweeps */
            double end = x[m] + v[m] * H;
            lo[m] = fmin(x[m], end) - radius - 1e-12 * travel;
            hi[m] = fmax(x[m], end) + radius + 1e-12 * travel;
        }
    }
    box_tree_walk_start_box(k, tree, x, reach, lo, hi);
}

/* The bound's first meeting with a fixed triangle, if before `best`
 * (then *wall names it; ties: the first in index order): those the
 * tree's walk reaches. */
static double triangles_time(const carom_world *w, const sphere *s, const double x[3],
                             const double v[3], double now, double best, int *wall)
{
    uint32_t found = UINT32_MAX;
    box_tree_walk k;
    bound_walk_start(w, s, x, v, now, &w->triangle_tree, &k);
    const uint32_t *items;
    uint32_t n;
    while ((n = box_tree_walk_next(&k, &items)))
        for (uint32_t m = 0; m < n; m++) {
            uint32_t g = items[m];
            if (!box_tree_walk_meets(&k, w->triangles[g].lo, w->triangles[g].hi))
                continue;
            double t = world_driven_triangle_time(w, s, x, v, &w->triangles[g], now);
            if (t < best || (t == best && found != UINT32_MAX && g < found)) {
                best = t;
                found = g;
            }
        }
    if (found != UINT32_MAX)
        *wall = (int)(TRIANGLE_WALL + found);
    return best;
}

/* The same for fixed segments (stored images too). */
static double segments_time(const carom_world *w, const sphere *s, const double x[3],
                            const double v[3], double now, double best, int *wall)
{
    uint32_t found = UINT32_MAX;
    box_tree_walk k;
    bound_walk_start(w, s, x, v, now, &w->segment_tree, &k);
    const uint32_t *items;
    uint32_t n;
    while ((n = box_tree_walk_next(&k, &items)))
        for (uint32_t m = 0; m < n; m++) {
            uint32_t g = items[m];
            double t = world_driven_segment_time(w, s, x, v, &w->segments[g], now);
            if (t < best || (t == best && found != UINT32_MAX && g < found)) {
                best = t;
                found = g;
            }
        }
    if (found != UINT32_MAX)
        *wall = (int)(SEGMENT_WALL + found);
    return best;
}

double world_driven_walls_time(const carom_world *w, const sphere *s, const double x[3],
                               const double v[3], double now, int *wall)
{
    const driven_bound *b = &w->bounds[s - w->spheres];
    double H = b->t_reset - now, e = b->t_reset - b->t0;
    /* Cheaply, per axis: the bound stays clear of both faces until its
     * reset (a looser form of the test world_driven_wall_time starts
     * with, so skipping changes nothing). */
    double reach = s->radius + 0.5 * b->accel * e * e;
    double best = INFINITY;
    for (int k = 0; k < w->def.dim; k++) {
        if (w->def.boundary[k] != CAROM_BOUNDARY_WALLS)
            continue;
        if (H < INFINITY) {
            double sweep = fabs(v[k]) * H + reach;
            if (x[k] - sweep > 0.0 && x[k] + sweep < w->def.box[k])
                continue;
        }
        for (int side = 0; side < 2; side++) {
            double t = world_driven_wall_time(w, s, x, v, 2 * k + side, now);
            if (t < best) {
                best = t;
                *wall = 2 * k + side;
            }
        }
    }
    for (uint32_t p = 0; p < w->nplanes; p++) {
        double t = world_driven_wall_time(w, s, x, v, (int)(PLANE_WALL + p), now);
        if (t < best) {
            best = t;
            *wall = (int)(PLANE_WALL + p);
        }
    }
    if (w->nsegments)
        best = segments_time(w, s, x, v, now, best, wall);
    if (w->ntriangles)
        best = triangles_time(w, s, x, v, now, best, wall);
    return best;
}
