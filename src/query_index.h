/* The scene queries' index (world_query_index.c): where the ballistic
 * spheres are at one time, in a uniform grid of their own, so that a
 * query visits the cells near it instead of every sphere.
 *
 * Contract: built on demand by the third query at a world time (the
 * first two test every sphere: a build costs about four such queries,
 * so a lone query never pays for one, and many pay for it once) and
 * kept for the queries that follow at that time; any change of time, or of
 * the spheres' positions, slots or radii then (the world's query_epoch,
 * which add, remove, set_position, set_growth and reordering advance),
 * makes the next query build it again (O(N)). It holds the spheres whose
 * position the world knows without asking anyone (ballistic ones) and
 * whose radius is at most its cells' width; the others (driven spheres,
 * which the driver places, and large ones) are in a list every query
 * tests in full. Positions on periodic axes are wrapped into the box.
 * Out of memory, it is not built and the queries test every sphere. */
#ifndef CAROM_QUERY_INDEX_H
#define CAROM_QUERY_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct query_index {
    int valid;
    double time;     /* the world time it holds */
    uint64_t epoch;  /* the world's query_epoch then */
    int32_t n[3];    /* cells per axis */
    double width[3]; /* cell widths */
    double inv_width[3];
    double max_radius; /* of the spheres in the cells */
    uint32_t *start;   /* by cell: where its spheres begin in slot/x; ncells + 1 */
    size_t ncells, cells_room;
    uint32_t *slot; /* the spheres in the cells, cell by cell */
    double (*x)[4]; /* their positions (wrapped) and radii, in that order */
    size_t count, room;
    uint32_t *others; /* slots tested by every query: driven and large spheres */
    size_t nothers, others_room;
    double asked_time; /* the queries asked at this time and epoch */
    uint64_t asked_epoch;
    int asked;
} query_index;

struct carom_world;
/* The index for the world now, built if needed; NULL before the third
 * query at this time, or when memory ran out (the caller then tests
 * every sphere). Call once per query. */
const query_index *query_index_now(struct carom_world *w);
void query_index_free(query_index *q);

#endif
