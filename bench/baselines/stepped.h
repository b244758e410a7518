/* Time-stepped collision detection: a comparison baseline for carom's
 * engine, not part of the library.
 *
 * The alternative that seed 004 calls static detection and seed 003
 * retroactive detection: the positions are looked at only every dt, and a
 * collision is whatever overlaps at such a sample. Here the spheres fly
 * straight through a periodic box without any response, exactly as in a
 * report-only carom world (CAROM_RESPONSE_NONE) with the same scene, so
 * that the two see the same motion and their contacts can be compared one
 * by one. At every sample t = k dt (k = 0, 1, ..., up to t_end) a broad
 * phase (a cell grid, an octree, or every pair) finds the pairs that
 * overlap (as spheres, or as bounding boxes); a pair that overlaps there
 * and did not at the sample before is a detected contact, found late (up
 * to dt after it began) and at a depth. A contact that begins and ends
 * between two samples is never seen: a fast or small sphere tunnels
 * through.
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_STEPPED_H
#define CAROM_STEPPED_H

#include <stddef.h>
#include <stdint.h>

#include "broad_phase.h"
#include "carom/carom.h"
#include "carom/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What counts as an overlap: the narrow phase. */
typedef enum carom_stepped_shape {
    CAROM_STEPPED_SPHERES, /* the spheres themselves (for a sphere, seed
                              002's bounding sphere is exact) */
    CAROM_STEPPED_BOXES    /* their bounding boxes, cubes of side 2 r:
                              seed 002's bounding-box algorithm, which
                              also reports boxes that meet at a corner
                              where the spheres do not */
} carom_stepped_shape;

typedef struct carom_stepped_def {
    double dt;              /* time between samples, > 0 */
    double t_end;           /* samples at k dt for k = 0 .. floor(t_end / dt) (the
                               last is t_end when t_end is a multiple of dt, up to
                               round-off of 1e-9 of a step) */
    carom_broad_kind broad; /* how a sample finds its overlapping pairs;
                               each kind finds the same, at its own cost */
    carom_stepped_shape shape;
} carom_stepped_def;

/* A grid, spheres. */
carom_stepped_def carom_stepped_default_def(double dt, double t_end);

/* A detected contact: spheres i < j (scene order) overlap at sample time t
 * and did not at the sample before. depth is the spheres' contact
 * distance minus their distance: > 0 for spheres; for boxes, <= 0 when
 * only the boxes meet there (the spheres may meet later, or never). */
typedef void (*carom_stepped_fn)(void *user_data, uint32_t i, uint32_t j, double t, double depth);

typedef struct carom_stepped_stats {
    uint64_t samples;          /* positions looked at */
    uint64_t pair_tests;       /* overlap tests computed */
    uint64_t contacts;         /* detected contacts */
    uint64_t touched_contacts; /* contacts whose spheres overlapped at one
                                  of the samples while the pair overlapped
                                  (for spheres: all) */
    uint64_t false_contacts;   /* boxes only: contacts whose boxes stopped
                                  overlapping before their spheres
                                  overlapped at any sample (a contact still
                                  going on at the end is neither) */
    double max_depth;          /* largest depth of a detected contact, relative
                                  to its contact distance */
} carom_stepped_stats;

/* Runs the scene (periodic on every axis; its radii and velocities) from
 * t = 0 to def->t_end, sampling every def->dt, calling on_contact (may be
 * NULL) for each detected contact in time order (within a sample, by i
 * then j). Pairs overlapping at t = 0 are not contacts. stats may be
 * NULL. */
carom_status carom_stepped_run(const carom_scene *scene, const carom_stepped_def *def,
                               carom_stepped_fn on_contact, void *user_data,
                               carom_stepped_stats *stats, carom_error *error);

#ifdef __cplusplus
}
#endif

#endif
