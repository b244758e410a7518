/* Frame-by-frame detection with response: seed 003's algorithms, a
 * comparison baseline for carom's engine, not part of the library.
 *
 * Leong's paper (seed 003) compares ways of moving many circles through
 * frames of fixed length h while detecting and answering their
 * collisions. Three are built here, for spheres in a box with elastic
 * walls, impulse response with masses and a restitution:
 * - retroactive: every sphere moves by v h; then every overlapping pair
 *   that approaches gets its impulse and every overlapping pair is pushed
 *   apart along its normal (by inverse masses) until it touches; a sphere
 *   past a wall is put back against it and its velocity reflected. Fast
 *   or small spheres pass through each other between frames;
 * - single collision (Leong's first algorithm): every pair's and wall's
 *   first contact time in the frame is computed from the frame's start;
 *   in time order, each sphere takes its first one, and spheres that
 *   collided stay where they collided until the frame ends (they lose
 *   the rest of the frame's travel);
 * - multiple collision (Leong's second): as single, but spheres that
 *   collided go on with their new velocities for the rest of the frame,
 *   and the search runs again in passes, each pass checking only the
 *   pairs with a sphere changed in the pass before (pairs of unchanged
 *   spheres were found not to meet), until a pass finds nothing. Within a
 *   pass each sphere takes at most its first event, so an event accepted
 *   in a pass may be one that an earlier collision of the same pass
 *   should have pre-empted.
 * Every pair is tested (O(n^2) per frame or pass), as in the paper.
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_FRAMES_H
#define CAROM_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"
#include "carom/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum carom_frames_method {
    CAROM_FRAMES_RETROACTIVE,
    CAROM_FRAMES_SINGLE,
    CAROM_FRAMES_MULTIPLE
} carom_frames_method;

typedef struct carom_frames_def {
    carom_frames_method method;
    double frame;       /* frame length h, > 0 */
    uint64_t frames;    /* how many */
    double restitution; /* sphere-sphere, in [0, 1]; walls are elastic */
    int max_passes;     /* multiple: passes per frame at most (>= 1) */
    int measure;        /* nonzero: measure overlaps at every frame's end
                           (an extra O(n^2) test per frame) */
} carom_frames_def;

/* seed 003's 600 frames of 1/60, elastic, 64 passes, measured. */
carom_frames_def carom_frames_default_def(carom_frames_method method);

/* A sphere collision answered: spheres i < j at time t (for the
 * retroactive method, the end of the frame in which the overlap was
 * found). */
typedef void (*carom_frames_fn)(void *user_data, uint32_t i, uint32_t j, double t);

typedef struct carom_frames_stats {
    uint64_t collisions;             /* sphere-sphere impulses */
    uint64_t wall_hits;              /* wall reflections */
    uint64_t passes;                 /* multiple: passes run, over all frames */
    uint64_t pass_limits;            /* multiple: frames that stopped at max_passes */
    double max_depth;                /* largest overlap at which a collision was
                                        answered, relative to the contact distance */
    double max_overlap;              /* largest overlap left at a frame's end,
                                        relative to the contact distance (measure) */
    double lost_travel;              /* single: the share of the spheres' frame time
                                        spent stopped at a collision */
    double energy_start, energy_end; /* kinetic energy */
} carom_frames_stats;

/* Runs the scene (walls on every axis; positions, velocities, radii,
 * masses; spheres inside the box and apart) for def->frames frames and
 * leaves the final positions and velocities in it. on_collision (may be
 * NULL) hears each answered sphere collision; stats may be NULL. */
carom_status carom_frames_run(carom_scene *scene, const carom_frames_def *def,
                              carom_frames_fn on_collision, void *user_data,
                              carom_frames_stats *stats, carom_error *error);

#ifdef __cplusplus
}
#endif

#endif
