/* Time-stepped collision detection: a comparison baseline for carom's
 * engine, not part of the library.
 *
 * The alternative that seed 004 calls static detection and seed 003
 * retroactive detection: the positions are looked at only every dt, and a
 * collision is whatever overlaps at such a sample. Here the spheres fly
 * straight through a periodic box without any response, exactly as in a
 * report-only carom world (CAROM_RESPONSE_NONE) with the same scene, so
 * that the two see the same motion and their contacts can be compared one
 * by one. At every sample t = k dt (k = 0, 1, ..., up to t_end) a cell
 * grid finds the pairs that overlap; a pair that overlaps there and did
 * not at the sample before is a detected contact, found late (up to dt
 * after it began) and at a depth. A contact that begins and ends between
 * two samples is never seen: a fast or small sphere tunnels through.
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_STEPPED_H
#define CAROM_STEPPED_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"
#include "carom/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A detected contact: spheres i < j (scene order) overlap at sample time t
 * and did not at the sample before, by depth (contact distance minus
 * distance, > 0). */
typedef void (*carom_stepped_fn)(void *user_data, uint32_t i, uint32_t j, double t,
                                 double depth);

typedef struct carom_stepped_stats {
    uint64_t samples;    /* positions looked at */
    uint64_t pair_tests; /* distances computed */
    uint64_t contacts;   /* detected contacts */
    double max_depth;    /* largest depth of a detected contact, relative to
                            its contact distance */
} carom_stepped_stats;

/* Runs the scene (periodic on every axis; its radii and velocities) from
 * t = 0 to t_end with samples at k dt for k = 0 .. floor(t_end / dt) (the
 * last is t_end when t_end is a multiple of dt, up to round-off of 1e-9
 * of a step), calling on_contact (may be NULL)
 * for each detected contact in time order. Pairs overlapping at t = 0 are
 * not contacts. stats may be NULL. */
carom_status carom_stepped_run(const carom_scene *scene, double dt, double t_end,
                               carom_stepped_fn on_contact, void *user_data,
                               carom_stepped_stats *stats, carom_error *error);

#ifdef __cplusplus
}
#endif

#endif
