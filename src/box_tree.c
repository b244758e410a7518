/* Building a bounding-box tree (box_tree.h): median splits, top down. */
#include <math.h>
#include <stdlib.h>

#include "box_tree.h"

typedef struct keyed {
    double key; /* the box's centre along the split axis */
    uint32_t item;
} keyed;

static int by_key(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->item < b->item ? -1 : a->item > b->item;
}

typedef struct builder {
    box_tree *tree;
    const double (*lo)[3], (*hi)[3];
    keyed *scratch;
} builder;

/* Node `at` over order[first .. first + count). */
static void build_node(builder *b, uint32_t at, uint32_t first, uint32_t count)
{
    box_tree *t = b->tree;
    box_tree_node *n = &t->nodes[at];
    double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int m = 0; m < 3; m++) {
        n->lo[m] = INFINITY;
        n->hi[m] = -INFINITY;
    }
    for (uint32_t e = first; e < first + count; e++) {
        uint32_t i = t->order[e];
        for (int m = 0; m < 3; m++) {
            double c = 0.5 * (b->lo[i][m] + b->hi[i][m]);
            n->lo[m] = fmin(n->lo[m], b->lo[i][m]);
            n->hi[m] = fmax(n->hi[m], b->hi[i][m]);
            clo[m] = fmin(clo[m], c);
            chi[m] = fmax(chi[m], c);
        }
    }
    if (count <= BOX_TREE_LEAF) {
        n->first = first;
        n->count = count;
        return;
    }
    int axis = 0;
    for (int m = 1; m < 3; m++)
        if (chi[m] - clo[m] > chi[axis] - clo[axis])
            axis = m;
    for (uint32_t e = 0; e < count; e++) {
        uint32_t i = t->order[first + e];
        b->scratch[e] = (keyed){0.5 * (b->lo[i][axis] + b->hi[i][axis]), i};
    }
    qsort(b->scratch, count, sizeof *b->scratch, by_key);
    for (uint32_t e = 0; e < count; e++)
        t->order[first + e] = b->scratch[e].item;
    uint32_t child = (uint32_t)t->nnodes, half = count / 2;
    t->nnodes += 2;
    n->first = child;
    n->count = 0;
    build_node(b, child, first, half);
    build_node(b, child + 1, first + half, count - half);
}

int box_tree_build(box_tree *t, const double (*lo)[3], const double (*hi)[3], size_t count)
{
    box_tree_free(t);
    if (count == 0)
        return 0;
    if (count > UINT32_MAX / 2)
        return -1;
    /* A median split into leaves of up to BOX_TREE_LEAF makes fewer than
     * 2 count nodes. */
    t->nodes = malloc(2 * count * sizeof *t->nodes);
    t->order = malloc(count * sizeof *t->order);
    keyed *scratch = malloc(count * sizeof *scratch);
    if (!t->nodes || !t->order || !scratch) {
        free(scratch);
        box_tree_free(t);
        return -1;
    }
    for (size_t i = 0; i < count; i++)
        t->order[i] = (uint32_t)i;
    builder b = {t, lo, hi, scratch};
    t->nnodes = 1;
    build_node(&b, 0, 0, (uint32_t)count);
    free(scratch);
    t->count = count;
    return 0;
}

void box_tree_free(box_tree *t)
{
    free(t->nodes);
    free(t->order);
    *t = (box_tree){NULL, NULL, 0, 0};
}

void box_tree_walk_start_box(box_tree_walk *k, const box_tree *t, const double x[3], double reach,
                             const double lo[3], const double hi[3])
{
    k->tree = t;
    for (int m = 0; m < 3; m++) {
        k->x[m] = x[m];
        k->lo[m] = lo[m];
        k->hi[m] = hi[m];
    }
    k->reach2 = reach * reach;
    k->depth = 0;
    if (t->nnodes)
        k->stack[k->depth++] = 0;
}

void box_tree_walk_start(box_tree_walk *k, const box_tree *t, const double x[3], double reach)
{
    const double lo[3] = {-INFINITY, -INFINITY, -INFINITY}, hi[3] = {INFINITY, INFINITY, INFINITY};
    box_tree_walk_start_box(k, t, x, reach, lo, hi);
}
