/* Stepped continuous detection: a comparison baseline for carom's engine,
 * not part of the library.
 *
 * What game engines call continuous collision detection: time still
 * advances in steps of dt, but within each step every pair that could
 * meet gets its exact contact time. A pair can meet within a step only if
 * it is closer at the step's start than its contact distance plus the
 * distance the two can close in dt, at most 2 v_max dt (v_max the largest
 * speed), so the broad phase (broad_phase.h) runs once per step with that
 * margin, and each pair it offers that approaches gets the time it first
 * touches, if that falls within the step. On straight paths without
 * response (a report-only carom world's motion) this finds exactly
 * carom's contacts; its cost is the steps' broad phases, which wider
 * margins make dearer as dt grows, and the pairs they offer.
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_SWEPT_H
#define CAROM_SWEPT_H

#include <stddef.h>
#include <stdint.h>

#include "broad_phase.h"
#include "carom/carom.h"
#include "carom/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carom_swept_def {
    double dt;    /* step, > 0; the last step ends at t_end */
    double t_end; /* >= 0 */
    carom_broad_kind broad;
} carom_swept_def;

/* A contact: spheres i < j (scene order) touch at t while approaching. */
typedef void (*carom_swept_fn)(void *user_data, uint32_t i, uint32_t j, double t);

typedef struct carom_swept_stats {
    uint64_t steps;
    uint64_t candidates; /* pairs offered by the broad phase */
    uint64_t contacts;
} carom_swept_stats;

/* Runs the scene (periodic on every axis; its radii and velocities) from
 * t = 0 to def->t_end, calling on_contact (may be NULL) for each contact
 * in time order (within a step; steps in order). Pairs touching or
 * overlapping at t = 0 are not contacts. The box must be wider than
 * twice the largest contact distance plus 2 v_max dt on every axis, so
 * that the nearest images at a step's start are the ones that can meet
 * in it. stats may be NULL. */
carom_status carom_swept_run(const carom_scene *scene, const carom_swept_def *def,
                             carom_swept_fn on_contact, void *user_data, carom_swept_stats *stats,
                             carom_error *error);

#ifdef __cplusplus
}
#endif

#endif
