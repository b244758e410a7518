/* When a driven sphere's bound meets a fixed triangle (3D): the bound is
 * a ball about the nominal centre x + v tau whose radius r + growth(tau)
 * grows as a quadratic in tau (world_driven.h). As for ballistic spheres
 * (world_triangle_time.c), it meets the triangle first on a face while
 * the centre is over the triangle, on an edge's cylinder while the
 * centre is alongside the edge, or at a corner:
 * - the face on the centre's side is the first upcrossing of (r +
 *   growth) - height; the far face, reached after the centre passed the
 *   plane beyond an edge, is the larger root of (r + growth) + height
 *   (the bound grows as a square, the height only linearly);
 * - an edge is the quartic (r + growth)^2 = |the centre's offset across
 *   the edge's line|^2, the corner's quartic with the part along the
 *   edge taken out; an entry beyond the edge's ends is followed to the
 *   bound's leaving the cylinder and its next entry (a quartic rises
 *   through zero twice at most);
 * - a corner is the quartic (r + growth)^2 = |corner - centre|^2.
 * Touching bounds that separate fast enough meet later, as for walls and
 * pairs (world_driven_point_time, world_driven_surface_time). The meeting
 * itself is world_driven_wall's (world_driven_meet.c). */
#include <math.h>

#include "roots.h"
#include "vec.h"
#include "world_driven.h"

/* t if the nominal centre x + v (t - now) is then over the triangle,
 * else INFINITY. */
static double over_at(const double x[3], const double v[3], const world_triangle *g, double t,
                      double now)
{
    if (!isfinite(t))
        return INFINITY;
    double y[3];
    for (int k = 0; k < 3; k++)
        y[k] = x[k] + v[k] * (t - now);
    return world_triangle_over(g, y) ? t : INFINITY;
}

/* c(tau + shift) of the quartic c(tau), in powers of tau. */
static void shift_quartic(const double c[5], double shift, double out[5])
{
    static const double binom[5][5] = {
        {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};
    for (int k = 0; k <= 4; k++) {
        double sum = 0.0, power = 1.0;
        for (int j = k; j <= 4; j++) {
            sum += binom[j][k] * c[j] * power;
            power *= shift;
        }
        out[k] = sum;
    }
}

/* After an entry into an edge's cylinder at `entered` (beyond the edge's
 * ends), the bound's next entry, once it has left the cylinder, before
 * its reset; INFINITY if none. h = (r + growth)^2 - |p0 + p1 tau|^2. */
static double next_entry(const carom_world *w, const sphere *s, const double p0[3],
                         const double p1[3], double now, double entered)
{
    const driven_bound *b = &w->bounds[s - w->spheres];
    double g[3];
    bound_growth(b, now, g);
    double q0 = s->radius + g[0];
    double h[5] = {q0 * q0 - vec_dot(p0, p0), 2.0 * (q0 * g[1] - vec_dot(p0, p1)),
                   g[1] * g[1] + 2.0 * q0 * g[2] - vec_dot(p1, p1), 2.0 * g[1] * g[2], g[2] * g[2]};
    double H = b->t_reset - now, at = entered - now, c[5], minus[5];
    shift_quartic(h, at, c);
    for (int k = 0; k <= 4; k++)
        minus[k] = -c[k];
    double out = roots_first_upcrossing_poly_before(minus, 4, H - at);
    if (!isfinite(out))
        return INFINITY;
    at += out;
    shift_quartic(h, at, c);
    double in = roots_first_upcrossing_poly_before(c, 4, H - at);
    return isfinite(in) ? now + at + in : INFINITY;
}

/* The bound entering edge k's cylinder while its centre is alongside. */
static double edge_time(const carom_world *w, const sphere *s, const double x[3], const double v[3],
                        const world_triangle *g, int k, double now)
{
    const double *e = g->dir[k];
    double rel[3], p0[3], p1[3];
    vec_sub(rel, x, g->p[k]);
    double along0 = vec_dot(rel, e), speed = vec_dot(v, e);
    for (int m = 0; m < 3; m++) {
        p0[m] = along0 * e[m] - rel[m]; /* from the centre to its foot on the line */
        p1[m] = speed * e[m] - v[m];
    }
    double t = world_driven_point_time(w, s, p0, p1, world_plane_scale(x), now);
    for (int entry = 0; entry < 2 && isfinite(t); entry++) {
        double along = along0 + (t - now) * speed;
        if (along >= 0.0 && along <= g->length[k])
            return t;
        t = next_entry(w, s, p0, p1, now, t);
    }
    return INFINITY;
}

double world_driven_triangle_time(const carom_world *w, const sphere *s, const double x[3],
                                  const double v[3], const world_triangle *g, double now)
{
    /* The centre's height above the plane (along n), seen from its side. */
    double rel[3];
    vec_sub(rel, x, g->p[0]);
    double e = vec_dot(rel, g->n), side = e >= 0.0 ? 1.0 : -1.0;
    double rate = side * vec_dot(g->n, v), scale = world_plane_scale(x);
    double t = over_at(x, v, g, world_driven_surface_time(w, s, -side * e, -rate, scale, now), now);
    double growth[3];
    bound_growth(&w->bounds[s - w->spheres], now, growth);
    double far =
        world_segment_far_face_time(s->radius + growth[0] + side * e, growth[1] + rate, growth[2]);
    t = fmin(t, over_at(x, v, g, now + far, now));
    for (int k = 0; k < 3; k++) { /* those a lower triangle shares, it solves */
        if (!(g->shared & TRIANGLE_EDGE_SHARED(k)))
            t = fmin(t, edge_time(w, s, x, v, g, k, now));
        if (g->shared & TRIANGLE_CORNER_SHARED(k))
            continue;
        double p0[3], p1[3] = {-v[0], -v[1], -v[2]};
        vec_sub(p0, g->p[k], x);
        t = fmin(t, world_driven_point_time(w, s, p0, p1, scale, now));
    }
    return t;
}
