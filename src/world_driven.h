/* What the driven-sphere files share (the overview is at the top of
 * world_driven.c): world_driven.c follows the bounds and probes the
 * driver, world_driven_predict.c predicts when bounds meet,
 * world_driven_meet.c decides what a meeting is and does. */
#ifndef CAROM_WORLD_DRIVEN_H
#define CAROM_WORLD_DRIVEN_H

#include <math.h>

#include "world_internal.h"

/* Touching means a gap within this fraction of the contact distance (plus
 * the round-off of the coordinates). */
#define CONTACT_TOLERANCE 1e-10
/* A contact's time is found to within this (relative to max(1, t)), or as
 * well as round-off allows (ROUND_OFF_SHARE of CONTACT_TOLERANCE). */
#define CONTACT_TIME_TOLERANCE 1e-11
#define ROUND_OFF_SHARE 1e-3

static inline double contact_tolerance(double sigma, const double xa[3], const double xb[3])
{
    double big = 0.0;
    for (int k = 0; k < 3; k++) {
        if (fabs(xa[k]) > big)
            big = fabs(xa[k]);
        if (fabs(xb[k]) > big)
            big = fabs(xb[k]);
    }
    return CONTACT_TOLERANCE * sigma + 1e-14 * big;
}

/* The speed at which a contact of driven spheres (or of a driven sphere
 * and a wall) leaves them separating at least, when accelerations of up
 * to accel (both bounds') may press them together and tol is the
 * contact's tolerance: the speed that accel gives in the time it takes
 * to sink tol. Rules in world_driven_meet.c; world_driven_predict.c puts
 * off the next meeting of touching bounds separating at least half as
 * fast. */
static inline double keep_apart_speed(double accel, double tol)
{
    return sqrt(2.0 * accel * tol);
}

/* The largest acceleration that may press spheres i and j together:
 * both bounds' and, where one of them falls and the other does not
 * (driven spheres do not), gravity's. */
static inline double pair_press_accel(const carom_world *w, uint32_t i, uint32_t j)
{
    double a = w->bounds[i].accel + w->bounds[j].accel;
    if (w->has_gravity && w->info[i].falls != w->info[j].falls)
        a += sqrt(w->gravity[0] * w->gravity[0] + w->gravity[1] * w->gravity[1] +
                  w->gravity[2] * w->gravity[2]);
    return a;
}

/* The bound's extra radius at now + tau as c0 + c1 tau + c2 tau^2, for
 * any sphere (a ballistic one has accel 0). */
static inline void bound_growth(const driven_bound *b, double now, double g[3])
{
    double A = b->accel, e = now - b->t0;
    g[0] = 0.5 * A * e * e;
    g[1] = A * e;
    g[2] = 0.5 * A;
}

/* When the bound of driven sphere s, whose centre is `past` beyond a
 * surface (< 0: on its free side) and moving towards it at `approach`,
 * touches it; scale: the size of the coordinates (for round-off).
 * Touching bounds that separate fast enough meet later, as pairs do
 * (world_driven_predict.c). */
double world_driven_surface_time(const carom_world *w, const sphere *s, double past,
                                 double approach, double scale, double now);
/* When the bound of driven sphere s first comes within its radius of a
 * point at p0 + p1 tau from its nominal centre (a segment's end, a
 * triangle's corner; the part across an edge's line, for the edge's
 * cylinder), before its reset; touching without approaching is put off
 * as for surfaces (world_driven_segments.c). */
double world_driven_point_time(const carom_world *w, const sphere *s, const double p0[3],
                               const double p1[3], double scale, double now);

/* Both spheres of the pair can be moved by the response (not so in a
 * report-only world, or for two spheres neither of which it can move). */
int world_driven_pair_responds(const carom_world *w, uint32_t i, uint32_t j);

/* How far apart the centres of two bounds (one of them may be a
 * ballistic sphere's, which never grows) can be and the bounds still
 * touch, at t_end: sigma plus both bounds' growth by then. */
static inline double bounds_reach_at(const driven_bound *ba, const driven_bound *bb, double sigma,
                                     double t_end)
{
    double ea = t_end - ba->t0, eb = t_end - bb->t0;
    return sigma + 0.5 * (ba->accel * ea * ea + bb->accel * eb * eb);
}

/* The straight relative path p0 + p1 tau stays farther than reach over
 * [0, H]. Its closest approach, without dividing: at 0 if they separate,
 * at H if still closing then, else |p0|^2 - (p0.p1)^2 / |p1|^2. */
static inline int paths_stay_apart(const double p0[3], const double p1[3], double H, double reach)
{
    double v2 = p1[0] * p1[0] + p1[1] * p1[1] + p1[2] * p1[2];
    double b = p0[0] * p1[0] + p0[1] * p1[1] + p0[2] * p1[2];
    double d2 = p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2], r2 = reach * reach;
    if (b >= 0.0)
        return d2 > r2;
    if (-b >= H * v2) {
        double e2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = p0[k] + p1[k] * H;
            e2 += d * d;
        }
        return e2 > r2;
    }
    return d2 * v2 - b * b > r2 * v2;
}

/* Cheaply: the bounds of a (centre xa, velocity va now; bound ba) and
 * b (seen through shift; bound bb) cannot meet before the first of their
 * resets, in a world without gravity. The test world_driven_pair_time
 * starts with, so that a scan may skip the call. */
static inline int bounds_stay_apart(const driven_bound *ba, const sphere *a, const double xa[3],
                                    const double va[3], const driven_bound *bb, const sphere *b,
                                    const double shift[3], double now)
{
    double t_end = ba->t_reset < bb->t_reset ? ba->t_reset : bb->t_reset;
    if (t_end == INFINITY)
        return 0;
    double dt = now - b->t, p0[3], p1[3];
    for (int k = 0; k < 3; k++) {
        p0[k] = b->x[k] + b->v[k] * dt + shift[k] - xa[k];
        p1[k] = b->v[k] - va[k];
    }
    return paths_stay_apart(p0, p1, t_end - now,
                            bounds_reach_at(ba, bb, a->radius + b->radius, t_end));
}

/* The true state of sphere i at t, for the event loop: a driven sphere's
 * probe must give finite numbers, else the world records the error (the
 * loop then stops and returns it) and 0 is returned. */
int world_driven_true_state_checked(carom_world *w, uint32_t i, double t, double x[3],
                                    double v[3]);
/* Puts sphere i's record at the current time with its true state x, v: a
 * driven sphere's bound restarts there. Returns 1 if it changed cell. */
int world_driven_settle(carom_world *w, uint32_t i, const double x[3], const double v[3]);
/* The pair is remembered as in contact (reported, not yet apart). */
int world_driven_in_contact(const carom_world *w, uint32_t i, uint32_t j);

#endif
