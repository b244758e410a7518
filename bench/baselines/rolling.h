/* Balls rolling on a plane: seed 001's kinetic data structure (Abam, de
 * Berg, Poon, Speckmann, §2), a comparison baseline for carom's engine,
 * not part of the library.
 *
 * Balls of any radii stay tangent to a plane and move on it; balls i and
 * j touch when their points of tangency are 2 sqrt(r_i r_j) apart. The
 * collision tree splits the balls by size: a node's smaller half S and
 * larger half L, each again split below it, so that every pair is split
 * at exactly one node. At a node, each ball i of L has a threshold box:
 * the square of half-width 2 sqrt(r_i r_min) (r_min, the smallest radius
 * of L) around its tangency point, which every ball of S must enter
 * before touching it, and which holds a bounded number of S's tangency
 * points at a time. Two kinetic sorted lists per node (x and y) hold S's
 * tangency points and L's box faces; a swap of a point with a face is a
 * point entering or leaving a box on that axis; a point inside a box on
 * both axes makes the pair a candidate, whose contact time is computed
 * exactly. One event heap with lazy invalidation serves every node.
 *
 * Here the balls move on straight lines through the open plane, without
 * response: the motion of a report-only carom world in 3D whose spheres
 * sit at height r_i above a plane and move parallel to it.
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_ROLLING_H
#define CAROM_ROLLING_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carom_rolling_ball {
    double position[2]; /* tangency point at t = 0 */
    double velocity[2];
    double radius; /* > 0 */
} carom_rolling_ball;

/* A contact: balls i < j touch at t while approaching. */
typedef void (*carom_rolling_fn)(void *user_data, uint32_t i, uint32_t j, double t);

typedef struct carom_rolling_stats {
    uint64_t nodes;      /* nodes of the collision tree that split a set */
    uint64_t entries;    /* points and box faces in all sorted lists, per axis */
    uint64_t swaps;      /* certificate failures: neighbours swapped */
    uint64_t candidates; /* pairs whose point came inside the box on both axes */
    uint64_t contacts;
    uint64_t stale; /* events popped after they had become invalid */
} carom_rolling_stats;

/* Runs the balls from t = 0 to t_end, calling on_contact (may be NULL) for
 * every contact in time order. Balls touching or overlapping at t = 0
 * make no contact. stats may be NULL. */
carom_status carom_rolling_run(const carom_rolling_ball *balls, size_t n, double t_end,
                               carom_rolling_fn on_contact, void *user_data,
                               carom_rolling_stats *stats, carom_error *error);

#ifdef __cplusplus
}
#endif

#endif
