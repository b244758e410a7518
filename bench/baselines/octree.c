/* A point octree (contract in octree.h).
 *
 * The build splits nodes in the order they were made (breadth first), so
 * the node array is its own work queue: a node with more than
 * CAROM_OCTREE_LEAF points above the depth limit sorts its range of
 * points by child (a counting sort through a scratch buffer) and appends
 * its 2^dim children, empty ones included. Queries walk the tree with an
 * explicit stack and skip every node whose cell misses the query box. */
#include "octree.h"
#include "baseline_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void carom_octree_init(carom_octree *tree)
{
    memset(tree, 0, sizeof *tree);
}

void carom_octree_free(carom_octree *tree)
{
    free(tree->order);
    free(tree->point);
    free(tree->scratch);
    free(tree->node);
    carom_octree_init(tree);
}

static int reserve_points(carom_octree *t, size_t n)
{
    if (n <= t->point_capacity)
        return 0;
    uint32_t *order = realloc(t->order, n * sizeof *order);
    if (order)
        t->order = order;
    double(*point)[3] = realloc(t->point, n * sizeof *point);
    if (point)
        t->point = point;
    uint32_t *scratch = realloc(t->scratch, n * sizeof *scratch);
    if (scratch)
        t->scratch = scratch;
    if (!order || !point || !scratch)
        return -1;
    t->point_capacity = n;
    return 0;
}

#define NO_NODE UINT32_MAX

/* Appends a node; returns its index, or NO_NODE when out of memory. */
static uint32_t add_node(carom_octree *t)
{
    if (t->nodes == t->node_capacity) {
        size_t capacity = t->node_capacity ? 2 * t->node_capacity : 64;
        if (capacity >= NO_NODE)
            return NO_NODE;
        carom_octree_node *grown = realloc(t->node, capacity * sizeof *grown);
        if (!grown)
            return NO_NODE;
        t->node = grown;
        t->node_capacity = capacity;
    }
    memset(&t->node[t->nodes], 0, sizeof t->node[t->nodes]);
    return (uint32_t)t->nodes++;
}

static int child_of(const carom_octree_node *node, const double p[3], int dim)
{
    int code = 0;
    for (int k = 0; k < dim; k++)
        if (p[k] >= 0.5 * (node->lo[k] + node->hi[k]))
            code |= 1 << k;
    return code;
}

/* Sorts node `at`'s points by child and appends its children. */
static int split(carom_octree *t, uint32_t at)
{
    int dim = t->dim, children = 1 << dim;
    uint32_t start = t->node[at].start, count = t->node[at].count;
    uint32_t offset[8] = {0};
    for (uint32_t m = start; m < start + count; m++)
        offset[child_of(&t->node[at], t->point[m], dim)]++;
    for (int c = 0, sum = 0; c < children; c++) {
        uint32_t size = offset[c];
        offset[c] = (uint32_t)sum;
        sum += (int)size;
    }
    uint32_t first[8];
    memcpy(first, offset, sizeof first);
    for (uint32_t m = start; m < start + count; m++)
        t->scratch[start + offset[child_of(&t->node[at], t->point[m], dim)]++] = t->order[m];
    memcpy(&t->order[start], &t->scratch[start], count * sizeof *t->order);
    uint32_t base = 0;
    for (int c = 0; c < children; c++) {
        uint32_t k = add_node(t);
        if (k == NO_NODE)
            return -1;
        if (c == 0)
            base = k;
        carom_octree_node *parent = &t->node[at], *child = &t->node[k];
        child->start = start + first[c];
        child->count = (c + 1 < children ? first[c + 1] : count) - first[c];
        child->depth = parent->depth + 1;
        for (int a = 0; a < 3; a++) {
            double mid = 0.5 * (parent->lo[a] + parent->hi[a]);
            int upper = a < dim && (c >> a) & 1;
            child->lo[a] = a < dim && upper ? mid : parent->lo[a];
            child->hi[a] = a < dim && !upper ? mid : parent->hi[a];
        }
    }
    t->node[at].child = base;
    return 0;
}

carom_status carom_octree_build(carom_octree *tree, int dim, const double (*x)[3], size_t n,
                                const double lo[3], const double hi[3], carom_error *error)
{
    if (dim != 2 && dim != 3)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "dim is %d (2 or 3)", dim);
    if (n > UINT32_MAX)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "%zu points: at most %u", n,
                             (unsigned)UINT32_MAX);
    for (int k = 0; k < dim; k++)
        if (!(lo[k] < hi[k]) || !isfinite(lo[k]) || !isfinite(hi[k]))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "axis %c: the cell [%g, %g] is empty or not finite", "xyz"[k],
                                 lo[k], hi[k]);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < dim; k++)
            if (!(x[i][k] >= lo[k] && x[i][k] <= hi[k]))
                return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                     "point %zu: %c = %g is outside [%g, %g]", i, "xyz"[k], x[i][k],
                                     lo[k], hi[k]);
    if (reserve_points(tree, n ? n : 1) != 0)
        return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu points", n);
    tree->dim = dim;
    tree->n = n;
    tree->nodes = 0;
    if (add_node(tree) == NO_NODE)
        return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the tree");
    carom_octree_node *root = &tree->node[0];
    memset(root, 0, sizeof *root);
    root->count = (uint32_t)n;
    for (int k = 0; k < 3; k++) {
        root->lo[k] = k < dim ? lo[k] : 0.0;
        root->hi[k] = k < dim ? hi[k] : 0.0;
    }
    for (size_t i = 0; i < n; i++)
        tree->order[i] = (uint32_t)i;
    for (size_t at = 0; at < tree->nodes; at++) {
        carom_octree_node *node = &tree->node[at];
        if (node->count <= CAROM_OCTREE_LEAF || node->depth >= CAROM_OCTREE_DEPTH)
            continue;
        /* The points of this node in their current order, for child_of. */
        for (uint32_t m = node->start; m < node->start + node->count; m++)
            memcpy(tree->point[m], x[tree->order[m]], sizeof tree->point[m]);
        if (split(tree, (uint32_t)at) != 0)
            return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the tree");
    }
    for (size_t m = 0; m < n; m++)
        memcpy(tree->point[m], x[tree->order[m]], sizeof tree->point[m]);
    return CAROM_OK;
}

static int box_meets(const carom_octree_node *node, const double qlo[3], const double qhi[3],
                     int dim)
{
    for (int k = 0; k < dim; k++)
        if (qhi[k] < node->lo[k] || qlo[k] > node->hi[k])
            return 0;
    return 1;
}

int carom_octree_query(const carom_octree *tree, const double qlo[3], const double qhi[3],
                       carom_octree_visit_fn visit, void *user_data)
{
    if (tree->nodes == 0)
        return 0;
    int dim = tree->dim, children = 1 << dim;
    /* Each level leaves at most 2^dim - 1 siblings waiting. */
    uint32_t stack[8 * (CAROM_OCTREE_DEPTH + 1)];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const carom_octree_node *node = &tree->node[stack[--top]];
        if (node->count == 0 || !box_meets(node, qlo, qhi, dim))
            continue;
        if (node->child) {
            for (int c = children - 1; c >= 0; c--)
                stack[top++] = node->child + (uint32_t)c;
            continue;
        }
        for (uint32_t m = node->start; m < node->start + node->count; m++) {
            const double *p = tree->point[m];
            int inside = 1;
            for (int k = 0; k < dim && inside; k++)
                inside = p[k] >= qlo[k] && p[k] <= qhi[k];
            if (inside) {
                int stop = visit(user_data, tree->order[m]);
                if (stop)
                    return stop;
            }
        }
    }
    return 0;
}
