/* Morton keys: a position's place along a space-filling curve (Z order),
 * so that sorting by key puts spheres near each other in space near each
 * other in memory. Each coordinate is quantised to 2^21 steps of its box
 * edge and the bits of the axes are interleaved. Shared by the scene's
 * ordering (scene_order.c) and the world's own re-sorting
 * (world_reorder.c), which must agree: a world sorting a scene that was
 * sorted already leaves it as it is. */
#ifndef CAROM_MORTON_H
#define CAROM_MORTON_H

#include <stddef.h>
#include <stdint.h>

#define MORTON_BITS 21

/* The low 21 bits of v spread to every third bit. */
static inline uint64_t morton_spread3(uint64_t v)
{
    v &= 0x1fffff;
    v = (v | v << 32) & 0x1f00000000ffffULL;
    v = (v | v << 16) & 0x1f0000ff0000ffULL;
    v = (v | v << 8) & 0x100f00f00f00f00fULL;
    v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
    v = (v | v << 2) & 0x1249249249249249ULL;
    return v;
}

/* Coordinate x of an edge of this length, in steps (clamped to the box). */
static inline uint64_t morton_quantise(double x, double length)
{
    double f = length > 0.0 ? x / length : 0.0;
    f = f < 0.0 ? 0.0 : f >= 1.0 ? 1.0 - 1e-12 : f;
    return (uint64_t)(f * (double)(1u << MORTON_BITS));
}

static inline uint64_t morton_key(const double x[3], const double box[3], int dim)
{
    uint64_t key = 0;
    for (int d = 0; d < dim; d++)
        key |= morton_spread3(morton_quantise(x[d], box[d])) << d;
    return key;
}

/* A key and what it belongs to, and their order for qsort: by key, ties
 * by index (so equal keys keep their order). */
typedef struct morton_keyed {
    uint64_t key;
    size_t index;
} morton_keyed;

static inline int morton_by_key(const void *a, const void *b)
{
    const morton_keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts k[0..n) by morton_by_key, for entries whose indices increase
 * with their position (as every caller fills them): stable, O(n).
 * Returns 0, or -1 if out of memory (k then unchanged). */
int morton_sort(morton_keyed *k, size_t n);

#endif
