/* A bounding-box tree over fixed items (the triangles of a mesh), asked
 * for the items whose boxes come within a distance of a point.
 *
 * Contract: box_tree_build takes each item's axis-aligned box and builds
 * a binary tree whose leaves hold up to BOX_TREE_LEAF items, split at
 * the median of the boxes' centres along the longest side of the node's
 * centres (ties by index, so the tree depends only on the boxes). A walk
 * visits every leaf whose box lies within `reach` of x (INFINITY: all)
 * and, when given one, meets the query box [lo, hi]; it may visit more.
 * Each item sits in exactly one leaf, so a walk yields each item at
 * most once. The tree keeps no pointer to the boxes
 * and holds no state a walk changes: walks of one tree may run at once.
 * The boxes must be finite. */
#ifndef CAROM_BOX_TREE_H
#define CAROM_BOX_TREE_H

#include <stddef.h>
#include <stdint.h>

#define BOX_TREE_LEAF 4
#define BOX_TREE_DEPTH 64 /* more than a median split of 2^32 items needs */

typedef struct box_tree_node {
    double lo[3], hi[3];
    uint32_t first; /* a leaf's first entry in order; an inner node's first child (+ 1: next) */
    uint32_t count; /* a leaf's items (> 0); 0 for an inner node */
} box_tree_node;

typedef struct box_tree {
    box_tree_node *nodes; /* the root first */
    uint32_t *order;      /* the items, leaf by leaf */
    size_t nnodes;
    size_t count; /* the items it was built for */
} box_tree;

/* 0, or -1 out of memory (the tree is then empty). Builds anew. */
int box_tree_build(box_tree *t, const double (*lo)[3], const double (*hi)[3], size_t count);
void box_tree_free(box_tree *t);

typedef struct box_tree_walk {
    const box_tree *tree;
    double x[3], reach2;
    double lo[3], hi[3]; /* the query box */
    int depth;
    uint32_t stack[BOX_TREE_DEPTH];
} box_tree_walk;

void box_tree_walk_start(box_tree_walk *k, const box_tree *t, const double x[3], double reach);
/* The same, for the boxes that also meet [lo, hi]. */
void box_tree_walk_start_box(box_tree_walk *k, const box_tree *t, const double x[3], double reach,
                             const double lo[3], const double hi[3]);

/* Whether box [lo, hi] meets the walk's query box. */
static inline int box_tree_walk_meets(const box_tree_walk *k, const double lo[3],
                                      const double hi[3])
{
    return lo[0] <= k->hi[0] && hi[0] >= k->lo[0] && lo[1] <= k->hi[1] && hi[1] >= k->lo[1] &&
           lo[2] <= k->hi[2] && hi[2] >= k->lo[2];
}

/* The next leaf within reach: its items in (*items)[0 .. return - 1]; 0
 * when the walk is done. */
static inline uint32_t box_tree_walk_next(box_tree_walk *k, const uint32_t **items)
{
    while (k->depth > 0) {
        const box_tree_node *n = &k->tree->nodes[k->stack[--k->depth]];
        double d2 = 0.0;
        for (int m = 0; m < 3; m++) {
            double below = n->lo[m] - k->x[m], above = k->x[m] - n->hi[m];
            double e = below > above ? below : above;
            if (e > 0.0)
                d2 += e * e;
        }
        if (d2 > k->reach2 || !box_tree_walk_meets(k, n->lo, n->hi))
            continue;
        if (n->count) {
            *items = &k->tree->order[n->first];
            return n->count;
        }
        k->stack[k->depth++] = n->first + 1;
        k->stack[k->depth++] = n->first;
    }
    return 0;
}

#endif
