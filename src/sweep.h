/* A ballistic sphere's sweep up to a horizon, for skipping fixed things
 * (triangles, segments) in a bounding-box tree that it cannot reach
 * before an event it already has (world_triangle_time.c,
 * world_segments.c).
 *
 * Contract: reach_by bounds how far the sphere's surface can come towards
 * anything by the horizon, with the round-off of the distances it is
 * compared with, so that a test against it only ever skips what cannot be
 * met; swept_box is an axis-aligned box that holds the sphere over the
 * horizon, with the same slack. Both from the sphere's own state (x, v,
 * acceleration a, radius r growing at grow) at its own time.
 * sphere_sweep_start gathers them for a sphere of the world and starts a
 * walk of a tree of fixed things' boxes over what it can reach. */
#ifndef CAROM_SWEEP_H
#define CAROM_SWEEP_H

#include <math.h>

#include "vec.h"
#include "world_internal.h"

/* How far the sphere's surface can come towards anything by tau =
 * horizon: its centre moves at most |v| horizon + |a| horizon^2 / 2, its
 * surface grows by grow horizon (INFINITY: no horizon). With the
 * round-off of the distances it is compared with (scale: the size of the
 * coordinates), so that a test against it only ever skips what cannot
 * be met. */
typedef struct reach {
    double travel, slack;
} reach;

static inline reach reach_by(const double x[3], const double v[3], const double a[3],
                             double r, double grow, double horizon)
{
    reach q = {INFINITY, 0.0};
    if (horizon < INFINITY)
        q.travel = horizon * (sqrt(vec_dot(v, v)) + 0.5 * sqrt(vec_dot(a, a)) * horizon + grow) *
                   (1.0 + 1e-12);
    q.slack = 1e-12 * (world_plane_scale(x) + r);
    return q;
}

/* The box that holds the sphere by tau = horizon: its centre's path (a
 * parabola: the ends, and the turning point on each axis where it lies
 * between them) widened by the radius it grows to, with the slack of
 * the reach q (and of the path's own round-off). Unbounded without a
 * horizon. */
static inline void swept_box(const double x[3], const double v[3], const double a[3],
                             double r, double grow, double horizon, const reach *q,
                             double lo[3], double hi[3])
{
    double wide = r + grow * horizon + q->slack + 1e-12 * q->travel;
    for (int m = 0; m < 3; m++) {
        if (!(horizon < INFINITY)) {
            lo[m] = -INFINITY;
            hi[m] = INFINITY;
            continue;
        }
        double end = x[m] + horizon * (v[m] + 0.5 * a[m] * horizon);
        lo[m] = fmin(x[m], end);
        hi[m] = fmax(x[m], end);
        if (a[m] != 0.0) {
            double turn = -v[m] / a[m];
            if (turn > 0.0 && turn < horizon) {
                double at = x[m] + turn * (v[m] + 0.5 * a[m] * turn);
                lo[m] = fmin(lo[m], at);
                hi[m] = fmax(hi[m], at);
            }
        }
        lo[m] -= wide;
        hi[m] += wide;
    }
}


/* Sphere s of the world up to time `before`: its acceleration (gravity,
 * when it falls and does not grow), its radius at its own time and its
 * growth speed, what it can reach and the box it sweeps. */
typedef struct sphere_sweep {
    double a[3], r, grow;
    reach q;
    double lo[3], hi[3];
} sphere_sweep;

/* Fills *sw for s up to `before` and starts walk k of tree over the
 * leaves within its reach that meet its swept box. */
static inline void sphere_sweep_start(const carom_world *w, const sphere *s, double before,
                                      const box_tree *tree, sphere_sweep *sw, box_tree_walk *k)
{
    for (int m = 0; m < 3; m++)
        sw->a[m] = w->has_gravity && INFO(s)->falls && !(w->growth_rate > 0.0) ? w->gravity[m]
                                                                              : 0.0;
    sw->r = s->radius;
    sw->grow = 0.0;
    if (w->growth_rate > 0.0) {
        sw->r *= growth_factor(w, s->t);
        sw->grow = growth_speed(w, s->radius);
    }
    double horizon = before - s->t;
    sw->q = reach_by(s->x, s->v, sw->a, sw->r, sw->grow, horizon);
    swept_box(s->x, s->v, sw->a, sw->r, sw->grow, horizon, &sw->q, sw->lo, sw->hi);
    box_tree_walk_start_box(k, tree, s->x, sw->r + sw->q.travel + sw->q.slack, sw->lo, sw->hi);
}

#endif
