/* A hierarchy of nested uniform grids ("levels") for spheres whose sizes
 * differ by large factors (seed 000 §3.1). Level l's cells are 2^l times
 * as wide as level 0's along every axis and nested in them exactly (on a
 * periodic axis n_l = n_0 / 2^l; along walls the last coarse cell may
 * reach past the box), so a sphere's cell at a coarser level follows from
 * its own cell coordinates by a shift: c >> (L - l). A sphere lives at the
 * finest level whose cells are at least one reach-diameter wide (with the
 * round-off margin of grid.h), so two spheres that touch are in
 * neighbouring cells of the coarser one's level.
 *
 * Each cell has two lists: the spheres of its own level whose centre is
 * in it ("own"), and the spheres of every finer level whose centre is in
 * it ("finer"). Own lists link through the world's cell_next/cell_prev;
 * the finer lists of level L through finer_next[L]/finer_prev[L].
 *
 * A level's cells are an array (dense) when there are not many more
 * cells than spheres; otherwise only the occupied cells exist, in one
 * hash table shared by the sparse levels (cell_table.h), so the box may
 * be huge. With one level of near-equal radii the grid is exactly the
 * old uniform grid (dense when cheap, coarsened for dilute systems). */
#ifndef CAROM_GRID_LEVELS_H
#define CAROM_GRID_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#include "cell_table.h"
#include "grid.h"

#define GRID_LEVELS_MAX 12
#define GRID_COORD_BITS 20 /* cell coordinates of sparse levels: < 2^20 */

typedef struct grid_levels {
    int count;                    /* levels in use, >= 1 */
    int simple;                   /* one dense level: the plain uniform grid */
    grid level[GRID_LEVELS_MAX];  /* level[l].head: own lists if dense, else NULL */
    uint32_t *finer_head[GRID_LEVELS_MAX]; /* dense levels >= 1 */
    uint32_t *finer_next[GRID_LEVELS_MAX]; /* per sphere, levels >= 1 */
    uint32_t *finer_prev[GRID_LEVELS_MAX];
    size_t link_capacity;         /* spheres the finer links have room for */
    size_t own_count[GRID_LEVELS_MAX];   /* spheres linked at each level */
    size_t finer_count[GRID_LEVELS_MAX]; /* spheres linked at finer levels */
    cell_table table;             /* the cells of the sparse levels */
    size_t table_keys;            /* bound on the keys the table may hold */
} grid_levels;

/* Chooses the levels for the box and the range of reaches [reach_min,
 * reach_max] of nspheres spheres occupying about `volume` (at most the
 * box's): a hierarchy only when cells for the largest would hold many
 * spheres, level 0 no finer than about 2 cells a sphere there. With
 * one_dense_level, the plain uniform grid whatever the sizes and the
 * density (its cells as wide as need be for about 2 a sphere): what
 * Lees-Edwards boundaries need. Links for sphere_capacity spheres.
 * Returns 0, -1 if a periodic axis is shorter than two largest
 * reach-diameters, -2 if out of memory. */
int grid_levels_init(grid_levels *gl, int dim, const double length[3], const int periodic[3],
                     double reach_min, double reach_max, size_t nspheres, double volume,
                     size_t sphere_capacity, int one_dense_level);
/* The volume of the cells of width `width` that hold at least one of the
 * n points x (stride doubles apart), at most the box's: where the spheres
 * are, for grid_levels_init. 0 if out of memory. */
double grid_levels_occupied_volume(int dim, const double length[3], double width,
                                   const double *x, size_t stride, size_t n);
void grid_levels_free(grid_levels *gl);
/* Room for the finer links of `capacity` spheres (0, or -2). */
int grid_levels_reserve_links(grid_levels *gl, size_t capacity);
/* Room in the hash table for one more sphere of the given level: call
 * before linking a sphere added after the build (0, or -2). */
int grid_levels_reserve_sphere(grid_levels *gl, int level);

/* The finest level whose cells are wide enough for the reach (the
 * coarsest if none is). */
int grid_levels_level_of(const grid_levels *gl, double reach);

/* The key of a sparse cell in the table: its level above its coordinates
 * (each in [0, 2^GRID_COORD_BITS)), and back. */
static inline uint64_t grid_levels_cell_key(int L, const int32_t c[3])
{
    return ((uint64_t)L << (3 * GRID_COORD_BITS)) |
           ((uint64_t)(uint32_t)c[2] << (2 * GRID_COORD_BITS)) |
           ((uint64_t)(uint32_t)c[1] << GRID_COORD_BITS) | (uint64_t)(uint32_t)c[0];
}

static inline int grid_levels_key_level(uint64_t key)
{
    return (int)(key >> (3 * GRID_COORD_BITS));
}

static inline void grid_levels_key_cell(uint64_t key, int32_t c[3])
{
    uint64_t mask = ((uint64_t)1 << GRID_COORD_BITS) - 1;
    for (int k = 0; k < 3; k++)
        c[k] = (int32_t)((key >> (k * GRID_COORD_BITS)) & mask);
}

/* Coordinate at level `to` of cell coordinate c at level `from` <= to. */
static inline int32_t grid_levels_coarsen(int32_t c, int from, int to)
{
    return c >> (to - from);
}

/* The own (finer = 0) or finer (finer = 1) list head of cell c of level
 * L; with create, a sparse cell is inserted if absent, else NULL is
 * returned for an absent one. The pointer is valid until the next insert
 * or release. */
uint32_t *grid_levels_head(grid_levels *gl, int L, const int32_t c[3], int finer, int create);
/* The head, or UINT32_MAX for an empty or absent cell. */
uint32_t grid_levels_first(const grid_levels *gl, int L, const int32_t c[3], int finer);
/* Forgets a sparse cell whose lists have both become empty. */
void grid_levels_release(grid_levels *gl, int L, const int32_t c[3]);

#endif
