/* A point octree (quadtree in 2D): the spatial partitioning of seed 002
 * (Young's BSP/octree), as a broad phase for the time-stepped baseline;
 * not part of the library.
 *
 * carom_octree_build sorts n points of a box [lo, hi] into a tree whose
 * nodes split their cell at its middle on every axis (2^dim children),
 * down to leaves of at most CAROM_OCTREE_LEAF points or to depth
 * CAROM_OCTREE_DEPTH (where any number of equal or nearly equal points
 * stay together). carom_octree_query visits every point inside a closed
 * query box [qlo, qhi] exactly once, by its index in the input, and
 * nothing else. A tree can be rebuilt in place with new points; its
 * buffers are reused. Points outside [lo, hi] are an error, since no cell
 * would contain them.
 *
 * Same conventions as the library: no globals, nothing printed, errors as
 * a carom_status with a message.
 */
#ifndef CAROM_OCTREE_H
#define CAROM_OCTREE_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CAROM_OCTREE_LEAF 8
#define CAROM_OCTREE_DEPTH 24

typedef struct carom_octree_node {
    double lo[3], hi[3]; /* the node's cell */
    uint32_t child;      /* first of 2^dim consecutive children; 0: a leaf */
    uint32_t start;      /* its points: order[start .. start + count) */
    uint32_t count;
    uint32_t depth; /* the root's is 0 */
} carom_octree_node;

typedef struct carom_octree {
    int dim;
    size_t n;
    uint32_t *order;         /* point indices, each node's points together */
    double (*point)[3];      /* points in that order */
    uint32_t *scratch;       /* partition buffer */
    carom_octree_node *node; /* node[0] is the root */
    size_t nodes, node_capacity, point_capacity;
} carom_octree;

/* An empty tree, to build. */
void carom_octree_init(carom_octree *tree);
void carom_octree_free(carom_octree *tree);

/* Builds the tree of x[0 .. n) (dim 2 or 3; a 2D point's third coordinate
 * is ignored) in the cell [lo, hi]. */
carom_status carom_octree_build(carom_octree *tree, int dim, const double (*x)[3], size_t n,
                                const double lo[3], const double hi[3], carom_error *error);

/* Called for each point inside the query box; a nonzero return stops the
 * query, which then returns that value. */
typedef int (*carom_octree_visit_fn)(void *user_data, uint32_t index);

/* Visits the points p with qlo[k] <= p[k] <= qhi[k] on every axis of the
 * tree's dim. Returns 0, or the visit's nonzero value. */
int carom_octree_query(const carom_octree *tree, const double qlo[3], const double qhi[3],
                       carom_octree_visit_fn visit, void *user_data);

#ifdef __cplusplus
}
#endif

#endif
