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
