/* Kinetic sweep-and-prune: a comparison baseline for carom's engine, not
 * part of the library.
 *
 * Seed 001 (Abam, de Berg, Poon, Speckmann) keeps, for free-flying objects
 * of similar size, the sorted lists of their bounding boxes' endpoints on
 * each axis as a kinetic data structure: the certificate of two
 * neighbouring endpoints is their order, and it fails when they swap. A
 * pair whose boxes overlap on every axis is a candidate, and its spheres'
 * contact time is computed exactly. Here the spheres fly straight through
 * open space without response (the motion of a report-only carom world
 * whose walls nobody reaches), and every event is processed in time
 * order from a binary heap with lazy invalidation: endpoint swaps, and
 * contacts of candidate pairs (still valid when popped if the pair's boxes
 * have overlapped on every axis all along).
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_KSAP_H
#define CAROM_KSAP_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"
#include "carom/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A contact: spheres i < j (scene order) touch at t while approaching. */
typedef void (*carom_ksap_fn)(void *user_data, uint32_t i, uint32_t j, double t);

typedef struct carom_ksap_stats {
    uint64_t swaps;      /* certificate failures: two endpoints swapped */
    uint64_t candidates; /* pairs whose boxes came to overlap on every axis */
    uint64_t contacts;
    uint64_t stale;      /* events popped after they had become invalid */
} carom_ksap_stats;

/* Runs the scene's spheres (positions, velocities, radii; its box and
 * boundaries are ignored: space is open) from t = 0 to t_end, calling
 * on_contact (may be NULL) for every contact in time order. Pairs touching
 * or overlapping at t = 0 are not contacts. stats may be NULL. */
carom_status carom_ksap_run(const carom_scene *scene, double t_end, carom_ksap_fn on_contact,
                            void *user_data, carom_ksap_stats *stats, carom_error *error);

#ifdef __cplusplus
}
#endif

#endif
