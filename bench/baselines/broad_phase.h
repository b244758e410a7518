/* Candidate pairs among spheres in a periodic box: the broad phases of the
 * time-stepped baselines (stepped.c, swept.c); not part of the library.
 *
 * Given the spheres' positions (each inside the box, [0, L) on every
 * axis) carom_broad_phase_pairs offers every pair i < j whose
 * nearest-image separation is under r_i + r_j + margin on every axis to a
 * callback, at least once; it may offer a pair more than once, and pairs
 * further apart. Three ways, each of them seed 002's or seed 004's:
 * - a grid of cells at least as wide as the largest contact distance plus
 *   the margin, so that such pairs lie in the same or neighbouring cells;
 *   each sphere is tested against the spheres of higher index in its
 *   3^dim neighbourhood. With fewer than three cells on an axis the
 *   neighbourhood would hold a cell twice, so such boxes offer every pair;
 * - a point octree of the centres (octree.h), rebuilt at every call and
 *   queried for each sphere i with the box of half-width r_i + (largest
 *   radius) + margin around its centre, and with each periodic image of
 *   that box that reaches into the cell;
 * - every pair.
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_BROAD_PHASE_H
#define CAROM_BROAD_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "octree.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum carom_broad_kind {
    CAROM_BROAD_GRID,     /* a cell grid (the default) */
    CAROM_BROAD_OCTREE,   /* a point octree (quadtree in 2D): seed 002's
                             spatial partition */
    CAROM_BROAD_ALL_PAIRS /* every pair: seed 002's O(n^2) algorithms */
} carom_broad_kind;

typedef struct carom_broad_phase {
    carom_broad_kind kind;
    int dim;
    size_t n;
    double box[3];
    const double *radius;
    double largest; /* largest radius */
    double margin;
    int cells[3];   /* grid: per axis; 0: offer every pair */
    double cell[3]; /* grid: cell widths */
    int32_t *head;  /* grid: first sphere of each cell, -1: none */
    int32_t *next;  /* grid: next sphere in the same cell */
    carom_octree tree;
} carom_broad_phase;

/* Sets up for the scene's spheres (its dim, box and radii, which must
 * outlive the broad phase; every axis periodic) and a margin >= 0. */
carom_status carom_broad_phase_init(carom_broad_phase *b, carom_broad_kind kind,
                                    const carom_scene *scene, double margin, carom_error *error);
void carom_broad_phase_free(carom_broad_phase *b);

/* Called with a candidate pair i < j; a nonzero return stops the search,
 * which then returns it. */
typedef int (*carom_broad_pair_fn)(void *user_data, uint32_t i, uint32_t j);

/* Offers the candidate pairs of positions x (in the box). Returns 0, the
 * callback's nonzero value, or -1 if the octree could not be built (out of
 * memory). */
int carom_broad_phase_pairs(carom_broad_phase *b, const double (*x)[3], carom_broad_pair_fn fn,
                            void *user_data);

/* The scene's spheres flown straight from their positions for time t,
 * folded into the box: x[i] in [0, L) on every axis of its dim, 0 on the
 * others. */
void carom_broad_straight_positions(const carom_scene *scene, double t, double (*x)[3]);

/* The nearest-image separation of b from a on an axis of length L, both
 * in [0, L). */
static inline double carom_broad_separation(double a, double b, double L)
{
    double d = b - a;
    return d > 0.5 * L ? d - L : d < -0.5 * L ? d + L : d;
}

#ifdef __cplusplus
}
#endif

#endif
