/* When a driven sphere's bound meets a fixed segment (2D): the bound is a
 * disk about the nominal centre x + v tau whose radius r + growth(tau)
 * grows as a quadratic in tau (world_driven.h); it meets the segment
 * first either on a face, while the centre is alongside the segment, or
 * at an end. As for ballistic spheres (world_segments.c): the face on
 * the centre's side is the first upcrossing of (r + growth) - height;
 * the far face, reached after the centre passes the segment's line
 * beyond an end, is the larger root of (r + growth) + height (the bound
 * grows as a square, the height only linearly, so the bound may reach
 * back over the line); an end is the quartic (r + growth)^2 =
 * |end - centre|^2. Touching bounds that separate fast enough meet
 * later, as for walls and pairs (world_driven_predict.c). The meeting
 * itself is world_driven_wall's (world_driven_meet.c). */
#include <math.h>

#include "roots.h"
#include "vec.h"
#include "world_driven.h"

/* t if the nominal centre x + v (t - now) is then alongside the segment,
 * else INFINITY. */
static double alongside(const double x[3], const double v[3], const world_segment *g, double t,
                        double now)
{
    if (!isfinite(t))
        return INFINITY;
    double tau = t - now, u = 0.0;
    for (int k = 0; k < 2; k++)
        u += (x[k] + v[k] * tau - g->a[k]) * g->dir[k];
    return u >= 0.0 && u <= g->length ? t : INFINITY;
}

/* (world_driven.h) */
double world_driven_point_time(const carom_world *w, const sphere *s, const double p0[3],
                               const double p1[3], double scale, double now)
{
    const driven_bound *b = &w->bounds[s - w->spheres];
    double H = b->t_reset - now;
    if (H < INFINITY) {
        double e = b->t_reset - b->t0;
        if (paths_stay_apart(p0, p1, H, s->radius + 0.5 * b->accel * e * e))
            return INFINITY;
    }
    double g[3];
    bound_growth(b, now, g);
    /* (r + growth)^2 - |p0 + p1 tau|^2: rises through 0 at the meeting. */
    double q0 = s->radius + g[0];
    double c[5] = {q0 * q0 - vec_dot(p0, p0), 2.0 * (q0 * g[1] - vec_dot(p0, p1)),
                   g[1] * g[1] + 2.0 * q0 * g[2] - vec_dot(p1, p1), 2.0 * g[1] * g[2], g[2] * g[2]};
    double t = now + roots_first_upcrossing_poly_before(c, 4, H);
    /* Touching without approaching: put off unless the meeting is a
     * pressed contact (world_driven_meet.c). */
    double apart = vec_dot(p0, p1);
    if (g[1] == 0.0 && b->accel > 0.0 && apart >= 0.0) {
        double tol = CONTACT_TOLERANCE * s->radius + 1e-14 * scale;
        double dist = sqrt(vec_dot(p0, p0));
        if (dist - s->radius <= tol && apart >= 0.5 * keep_apart_speed(b->accel, tol) * dist) {
            double later = now + sqrt(2.0 * tol / b->accel);
            if (t < later)
                t = later;
        }
    }
    return t;
}

/* The first time >= now at which the bound (centre x + v tau) comes
 * within its radius of point p. */
static double end_time(const carom_world *w, const sphere *s, const double x[3], const double v[3],
                       const double p[3], double now)
{
    double p0[3] = {p[0] - x[0], p[1] - x[1], 0.0}, p1[3] = {-v[0], -v[1], 0.0};
    return world_driven_point_time(w, s, p0, p1, world_plane_scale(x), now);
}

double world_driven_segment_time(const carom_world *w, const sphere *s, const double x[3],
                                 const double v[3], const world_segment *g, double now)
{
    /* The centre's height above the line (along n), seen from its side. */
    double e = (x[0] - g->a[0]) * g->n[0] + (x[1] - g->a[1]) * g->n[1];
    double side = e >= 0.0 ? 1.0 : -1.0, rate = side * vec_dot(g->n, v);
    double scale = world_plane_scale(x);
    double t =
        alongside(x, v, g, world_driven_surface_time(w, s, -side * e, -rate, scale, now), now);
    double growth[3];
    bound_growth(&w->bounds[s - w->spheres], now, growth);
    double far =
        world_segment_far_face_time(s->radius + growth[0] + side * e, growth[1] + rate, growth[2]);
    t = fmin(t, alongside(x, v, g, now + far, now));
    t = fmin(t, end_time(w, s, x, v, g->a, now));
    return fmin(t, end_time(w, s, x, v, g->b, now));
}
