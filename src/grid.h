/* The uniform cell grid. Cells are at least one largest contact distance
 * wide (plus a margin for round-off), so spheres in cells that are not
 * neighbours cannot touch. Spheres are kept in doubly linked lists per
 * cell (links stored in the sphere records by the world), so moving one
 * sphere to a neighbouring cell is O(1). A sphere's cell is tracked by
 * cell-crossing events, never recomputed from its position, so round-off
 * cannot make the grid and the events disagree. A periodic axis must be
 * at least two cell widths long (no sphere touches two images of another
 * at once); with fewer than 3 cells on it, a neighbour cell appears once
 * per image, with its own shift. */
#ifndef CAROM_GRID_H
#define CAROM_GRID_H

#include <stddef.h>
#include <stdint.h>

typedef struct grid {
    int dim;
    int32_t n[3];        /* cells per axis (1 on z in 2D) */
    double width[3];
    double length[3];    /* box lengths */
    int periodic[3];
    uint32_t *head;      /* first sphere in each cell, or UINT32_MAX; NULL
                            when the cells are in a hash table */
    size_t ncells;
    /* Neighbourhood of a cell away from every boundary: index offsets, in
     * the order grid_neighbourhood_of lists them. */
    int ninterior;
    int64_t interior_offset[27];
} grid;

/* Chooses the cell counts for the box, the largest contact distance and
 * the number of spheres: cells at least one contact distance wide, and
 * for dilute systems no more than about 2 per sphere, unless that would
 * make them more than max_coarsening times wider than needed along an
 * axis (then *too_many is set and the counts are the natural ones).
 * Returns 0, or -1 if a periodic axis is shorter than two contact
 * distances. */
int grid_choose_counts(int dim, const double length[3], const int periodic[3],
                       double contact_distance, size_t nspheres, double max_coarsening,
                       int32_t n[3], int *too_many);
/* Sets up a grid of n cells per axis (widths length / n); with dense, an
 * array of every cell's list head (-2 if out of memory), else head is
 * NULL and the cells live elsewhere (cell_table.h). Returns 0 or -2. */
int grid_layout(grid *g, int dim, const double length[3], const int periodic[3],
                const int32_t n[3], int dense);
void grid_free(grid *g);

static inline uint32_t grid_index(const grid *g, const int32_t c[3])
{
    return (uint32_t)((c[2] * g->n[1] + c[1]) * g->n[0] + c[0]);
}

/* The cells around a cell (itself included), each with the shift to add
 * to the position of a sphere in that cell to get its image next to the
 * centre cell (nonzero only across a periodic boundary). */
typedef struct grid_neighbourhood {
    int count;
    uint32_t cell[27];
    double shift[27][3];
} grid_neighbourhood;

void grid_neighbourhood_of(const grid *g, const int32_t c[3], grid_neighbourhood *out);

/* Cell coordinate along an axis for a coordinate value, clamped. */
int32_t grid_coordinate(const grid *g, int axis, double x);

#endif
