/* The point octree (bench/baselines/octree.c) against a plain scan.
 *
 * For random points (uniform, clustered, all equal, on the cell's faces)
 * in 2D and 3D, every query box must visit exactly the points inside it,
 * each once: the visits are compared with a loop over all points. The
 * tree must split (nodes above the leaf size), stop at its depth limit
 * for equal points, stop a query when the visit says so, rebuild in place
 * with other points, and refuse points outside its cell. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "octree.h"

typedef struct visits {
    uint32_t *count; /* per point */
    size_t total;
    size_t stop_after; /* 0: never stop */
} visits;

static int on_visit(void *user, uint32_t index)
{
    visits *v = user;
    v->count[index]++;
    v->total++;
    return v->stop_after && v->total == v->stop_after ? 7 : 0;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *state)
{
    return (double)(next_random(state) >> 11) * 0x1.0p-53;
}

enum layout { UNIFORM, CLUSTERED, EQUAL, ON_FACES };

static void make_points(double (*x)[3], size_t n, int dim, const double hi[3], enum layout layout,
                        uint64_t *state)
{
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double u = uniform(state);
            if (k >= dim)
                u = 0.0;
            else if (layout == CLUSTERED)
                u = 0.3 + 1e-6 * u; /* far below any cell the split makes early */
            else if (layout == EQUAL)
                u = 0.5;
            else if (layout == ON_FACES)
                u = u < 0.3 ? 0.0 : u < 0.6 ? 1.0 : 0.5;
            x[i][k] = u * hi[k];
        }
}

/* Random queries against a scan of all points; returns mismatches. */
static int compare_queries(const carom_octree *tree, const double (*x)[3], size_t n, int dim,
                           const double hi[3], uint64_t *state)
{
    int bad = 0;
    visits v = {calloc(n ? n : 1, sizeof(uint32_t)), 0, 0};
    for (int q = 0; q < 200; q++) {
        double qlo[3] = {0, 0, 0}, qhi[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++) {
            double c = (1.4 * uniform(state) - 0.2) * hi[k], w = 0.3 * uniform(state) * hi[k];
            qlo[k] = c - w;
            qhi[k] = c + w;
        }
        if (q % 20 == 0) /* a box reaching exactly the faces and the middle */
            for (int k = 0; k < dim; k++) {
                qlo[k] = q % 40 ? 0.5 * hi[k] : 0.0;
                qhi[k] = hi[k];
            }
        memset(v.count, 0, (n ? n : 1) * sizeof *v.count);
        v.total = 0;
        CHECK(carom_octree_query(tree, qlo, qhi, on_visit, &v) == 0);
        for (size_t i = 0; i < n; i++) {
            int inside = 1;
            for (int k = 0; k < dim; k++)
                inside = inside && x[i][k] >= qlo[k] && x[i][k] <= qhi[k];
            if (v.count[i] != (uint32_t)inside)
                bad++;
        }
    }
    free(v.count);
    return bad;
}

static void test_layouts(int dim)
{
    const double hi[3] = {10.0, 7.0, 3.0}, lo[3] = {0.0, 0.0, 0.0};
    const size_t n = 3000;
    double(*x)[3] = malloc(n * sizeof *x);
    uint64_t state = 99 + (uint64_t)dim;
    carom_octree tree;
    carom_octree_init(&tree);
    const char *names[] = {"uniform", "clustered", "equal", "on faces"};
    for (int layout = UNIFORM; layout <= ON_FACES; layout++) {
        make_points(x, n, dim, hi, (enum layout)layout, &state);
        carom_error e;
        CHECK_OK(carom_octree_build(&tree, dim, (const double(*)[3])x, n, lo, hi, &e));
        uint32_t deepest = 0, largest_leaf = 0;
        for (size_t m = 0; m < tree.nodes; m++)
            if (!tree.node[m].child) {
                if (tree.node[m].depth > deepest)
                    deepest = tree.node[m].depth;
                if (tree.node[m].count > largest_leaf)
                    largest_leaf = tree.node[m].count;
            }
        CHECK(tree.nodes > 1);
        if (layout == EQUAL) {
            CHECK(deepest == CAROM_OCTREE_DEPTH);
            CHECK(largest_leaf == n);
        } else if (layout == UNIFORM) {
            CHECK(largest_leaf <= CAROM_OCTREE_LEAF);
        }
        int bad = compare_queries(&tree, (const double(*)[3])x, n, dim, hi, &state);
        CHECK(bad == 0);
        printf("%dD %s: %zu nodes, depth %u, largest leaf %u, %d mismatched\n", dim,
               names[layout], tree.nodes, deepest, largest_leaf, bad);
    }
    carom_octree_free(&tree);
    free(x);
}

static void test_stop_and_edges(void)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    double x[100][3];
    uint64_t state = 5;
    make_points(x, 100, 3, hi, UNIFORM, &state);
    carom_octree tree;
    carom_octree_init(&tree);
    carom_error e;
    uint32_t count[100] = {0};
    visits v = {count, 0, 10};
    /* Before any build, and with no points: nothing to visit. */
    CHECK(carom_octree_query(&tree, lo, hi, on_visit, &v) == 0);
    CHECK_OK(carom_octree_build(&tree, 3, (const double(*)[3])x, 0, lo, hi, &e));
    CHECK(carom_octree_query(&tree, lo, hi, on_visit, &v) == 0);
    CHECK(v.total == 0);
    CHECK_OK(carom_octree_build(&tree, 3, (const double(*)[3])x, 100, lo, hi, &e));
    CHECK(carom_octree_query(&tree, lo, hi, on_visit, &v) == 7);
    CHECK(v.total == 10);
    x[42][1] = 1.5;
    CHECK(carom_octree_build(&tree, 3, (const double(*)[3])x, 100, lo, hi, &e) ==
          CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "point 42") != NULL);
    x[42][1] = NAN;
    CHECK(carom_octree_build(&tree, 3, (const double(*)[3])x, 100, lo, hi, &e) ==
          CAROM_ERR_INVALID_ARGUMENT);
    x[42][1] = 0.5;
    CHECK(carom_octree_build(&tree, 4, (const double(*)[3])x, 100, lo, hi, &e) ==
          CAROM_ERR_INVALID_ARGUMENT);
    const double flat[3] = {1, 0, 1};
    CHECK(carom_octree_build(&tree, 3, (const double(*)[3])x, 100, lo, flat, &e) ==
          CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "axis y") != NULL);
    carom_octree_free(&tree);
}

int main(void)
{
    test_layouts(3);
    test_layouts(2);
    test_stop_and_edges();
    return CHECK_REPORT();
}
