/* Hubbard's broad phase (space-time bounds) for driven spheres: a
 * comparison baseline for carom's engine, not part of the library.
 *
 * Hubbard (1995; seed 002 §2.4) bounds an object whose acceleration never
 * exceeds A by the parabolic horn |x(t) - x0 - v0 (t - t0)| <= A (t - t0)^2 / 2
 * and encloses the horn over a time window [t0, t0 + H] in a 4D
 * hypertrapezoid: the convex hull of the cube of half-width r around x0 at
 * t0 and the cube of half-width r + A H^2 / 2 around x0 + v0 H at t0 + H.
 * Its faces normal to axis a project onto the (a, t)-plane as two line
 * segments (lower and upper face). Two hypertrapezoids start to intersect
 * when, on some axis, an upper face of one crosses a lower face of the
 * other while their cross-sections overlap on the other axes. Kim, Guibas
 * and Shin (seed 000, §4.2, Table 1) compare their time-varying bounds
 * with this broad phase, "modified so that it can also detect collisions
 * between spheres and box faces", rebuilding all bounds after each
 * collision. This module does the same for spheres driven through a
 * carom_driver (carom.h), so that both can run on the same driven scene.
 * hubbard.c explains the choices (window, sweep, narrow phase).
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_HUBBARD_H
#define CAROM_HUBBARD_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carom_hubbard_def {
    int dim;                     /* 2 or 3 (default 3) */
    double box[3];               /* walls on every axis: the box is [0, L] (default 200^3) */
    double horizon;              /* H, the window of every space-time bound; 0 (default):
                                    adaptive, twice the mean length of the recent windows,
                                    within [horizon_min, horizon_max] */
    double horizon_min;          /* default 1e-3 */
    double horizon_max;          /* default 1 */
    int eager_sweep;             /* 1: every rebuild sweeps its whole window at once (all
                                    segment intersections, O((n + k) log n) per rebuild, as
                                    seed 000 describes the broad phase); 0 (default): the
                                    sweep advances in time only as far as the next contact
                                    (same contacts, fewer intersections) */
    double restitution;          /* sphere-sphere, in [0, 1] (default 1) */
    double wall_restitution;     /* default 1 */
    carom_driver driver;         /* probe and kick are required */
    carom_sphere_id first_id;    /* driver id of sphere 0 (default 0) */
    carom_contact_fn on_contact; /* optional: every contact, after the response
                                    (changes to velocity_after are ignored) */
    void *user_data;
} carom_hubbard_def;

carom_hubbard_def carom_hubbard_default_def(void);

typedef struct carom_hubbard_stats {
    uint64_t rebuilds;       /* all bounds rebuilt (after a contact, or at a window's end) */
    uint64_t horizon_ends;   /* rebuilds because a window ran out */
    uint64_t swaps;          /* segment intersections swept (all three axes) */
    uint64_t candidates;     /* hypertrapezoid intersections found (pairs and walls), incl.
                                pairs already intersecting when the bounds are built */
    uint64_t narrow_checks;  /* probes of a candidate pair (or sphere and wall) */
    uint64_t collisions;     /* sphere-sphere contacts */
    uint64_t wall_hits;
    uint64_t late_contacts;  /* contact found already overlapping by more than round-off
                                (an acceleration bound was broken) */
    double max_depth;        /* largest overlap found at a contact (absolute) */
    double window_sum;       /* sum of the windows' used lengths (simulated time) */
} carom_hubbard_stats;

typedef struct carom_hubbard carom_hubbard;

/* n spheres; from each carom_sphere_def only radius, mass and accel_bound
 * are used (positions and velocities are probed from the driver at
 * start_time; driven is not looked at: every sphere is driven). NULL and
 * *error filled on failure. */
carom_hubbard *carom_hubbard_create(const carom_hubbard_def *def, size_t n,
                                    const carom_sphere_def *spheres, double start_time,
                                    carom_error *error);
void carom_hubbard_free(carom_hubbard *h);
const char *carom_hubbard_error_message(const carom_hubbard *h);

/* Processes every contact up to time t (inclusive). Checks the start
 * (overlaps, spheres outside the box) on the first call. */
carom_status carom_hubbard_advance_to(carom_hubbard *h, double t);
double carom_hubbard_time(const carom_hubbard *h);
void carom_hubbard_get_stats(const carom_hubbard *h, carom_hubbard_stats *out);

#ifdef __cplusplus
}
#endif
#endif
