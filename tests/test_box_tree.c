/* The box tree (src/box_tree.c) against a plain scan of the boxes: for
 * random boxes (scattered, piled on one spot, all equal, thin, a few
 * thousand) and random points and distances, a walk must yield every
 * item whose box lies within the distance, each item at most once, and
 * with an infinite distance every item exactly once. The tree must have
 * leaves of at most BOX_TREE_LEAF items and each node's box must hold
 * its items' boxes. Fails on a lost item, a repeat, a box that does not
 * hold its children, and (under AddressSanitizer) on a bad access. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "box_tree.h"
#include "check.h"
#include "rng.h"

#define MAX_ITEMS 3000

static double lo[MAX_ITEMS][3], hi[MAX_ITEMS][3];

static double box_distance2(const double l[3], const double h[3], const double x[3])
{
    double d2 = 0.0;
    for (int m = 0; m < 3; m++) {
        double e = fmax(l[m] - x[m], x[m] - h[m]);
        if (e > 0.0)
            d2 += e * e;
    }
    return d2;
}

/* Node `at` holds the boxes of everything below it; its leaves' items
 * counted into seen[]. */
static int check_node(const box_tree *t, uint32_t at, int *seen, int depth)
{
    const box_tree_node *n = &t->nodes[at];
    if (depth > BOX_TREE_DEPTH / 2 || at >= t->nnodes)
        return 0;
    if (n->count) {
        if (n->count > BOX_TREE_LEAF)
            return 0;
        for (uint32_t e = n->first; e < n->first + n->count; e++) {
            uint32_t i = t->order[e];
            seen[i]++;
            for (int m = 0; m < 3; m++)
                if (lo[i][m] < n->lo[m] || hi[i][m] > n->hi[m])
                    return 0;
        }
        return 1;
    }
    for (uint32_t c = n->first; c < n->first + 2; c++)
        for (int m = 0; m < 3; m++)
            if (t->nodes[c].lo[m] < n->lo[m] || t->nodes[c].hi[m] > n->hi[m])
                return 0;
    return check_node(t, n->first, seen, depth + 1) && check_node(t, n->first + 1, seen, depth + 1);
}

static void make_boxes(rng *r, int kind, size_t count)
{
    for (size_t i = 0; i < count; i++)
        for (int m = 0; m < 3; m++) {
            double c = kind == 1   ? 5.0 + 1e-3 * rng_uniform(r) /* piled up */
                       : kind == 2 ? 5.0                         /* all the same */
                                   : 10.0 * rng_uniform(r);
            double w = kind == 3 && m == 2 ? 0.0 : rng_uniform(r); /* thin: flat in z */
            lo[i][m] = c - 0.5 * w;
            hi[i][m] = c + 0.5 * w;
        }
}

static void test_against_scan(void)
{
    rng r;
    rng_seed(&r, 20261127);
    static int seen[MAX_ITEMS], want[MAX_ITEMS];
    const size_t counts[] = {1, 2, 4, 5, 9, 17, 100, 1000, MAX_ITEMS};
    long walks = 0, wanted = 0, yielded = 0;
    for (int kind = 0; kind < 4; kind++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
            size_t count = counts[c];
            make_boxes(&r, kind, count);
            box_tree t = {0};
            CHECK(box_tree_build(&t, (const double(*)[3])lo, (const double(*)[3])hi, count) == 0);
            CHECK(t.count == count && t.nnodes >= 1 && t.nnodes < 2 * count + 1);
            memset(seen, 0, sizeof seen);
            CHECK(check_node(&t, 0, seen, 0));
            for (size_t i = 0; i < count; i++)
                CHECK(seen[i] == 1);
            for (int q = 0; q < 200; q++) {
                double x[3], reach = q == 0 ? INFINITY : q % 7 == 0 ? 0.0 : 3.0 * rng_uniform(&r);
                for (int m = 0; m < 3; m++)
                    x[m] = -2.0 + 14.0 * rng_uniform(&r);
                memset(seen, 0, sizeof seen);
                box_tree_walk k;
                box_tree_walk_start(&k, &t, x, reach);
                const uint32_t *items;
                uint32_t n;
                while ((n = box_tree_walk_next(&k, &items)))
                    for (uint32_t e = 0; e < n; e++) {
                        CHECK(items[e] < count);
                        seen[items[e]]++;
                        yielded++;
                    }
                for (size_t i = 0; i < count; i++) {
                    want[i] = box_distance2(lo[i], hi[i], x) <= reach * reach;
                    wanted += want[i];
                    CHECK(seen[i] <= 1);
                    CHECK(seen[i] >= want[i]);
                    if (reach == INFINITY)
                        CHECK(seen[i] == 1);
                }
                walks++;
            }
            box_tree_free(&t);
            CHECK(t.nodes == NULL && t.nnodes == 0);
        }
    /* The walk must skip most boxes out of reach, or it is no index. */
    fprintf(stderr, "  %ld walks: %ld items within reach, %ld yielded\n", walks, wanted, yielded);
    CHECK(yielded < 3 * wanted);
}

static void test_empty(void)
{
    box_tree t = {0};
    CHECK(box_tree_build(&t, NULL, NULL, 0) == 0);
    box_tree_walk k;
    const double x[3] = {0.0, 0.0, 0.0};
    box_tree_walk_start(&k, &t, x, INFINITY);
    const uint32_t *items;
    CHECK(box_tree_walk_next(&k, &items) == 0);
    box_tree_free(&t);
}

int main(void)
{
    RUN(test_against_scan);
    RUN(test_empty);
    return CHECK_REPORT();
}
