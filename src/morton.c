/* Sorting keyed entries by Morton key; contract in morton.h.
 *
 * A least-significant-digit radix sort: 11-bit digits, one pass per digit
 * that is not the same in every key (a lattice's keys, or a 2D world's,
 * leave the top digits alike), each pass a stable counting sort into the
 * other buffer. Stable passes keep equal keys in their input order, which
 * is the order of their indices in every caller, so the result is the
 * order morton_by_key gives. A sorted input (a scene sorted already) is
 * found in one pass and left alone. */
#include "morton.h"

#include <stdlib.h>
#include <string.h>

#define DIGIT_BITS 11
#define DIGIT_VALUES (1u << DIGIT_BITS)
#define DIGITS ((64 + DIGIT_BITS - 1) / DIGIT_BITS)

static int sorted_already(const morton_keyed *k, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (morton_by_key(&k[i - 1], &k[i]) > 0)
            return 0;
    return 1;
}

int morton_sort(morton_keyed *k, size_t n)
{
    if (n < 2 || sorted_already(k, n))
        return 0;
    size_t(*count)[DIGIT_VALUES] = calloc(DIGITS, sizeof *count);
    morton_keyed *other = malloc(n * sizeof *other);
    if (!count || !other) {
        free(count);
        free(other);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < DIGITS; d++)
            count[d][(k[i].key >> (d * DIGIT_BITS)) & (DIGIT_VALUES - 1)]++;
    morton_keyed *from = k, *to = other;
    for (int d = 0; d < DIGITS; d++) {
        size_t *c = count[d];
        unsigned first = (unsigned)((from[0].key >> (d * DIGIT_BITS)) & (DIGIT_VALUES - 1));
        if (c[first] == n)
            continue; /* every key has this digit */
        size_t start = 0;
        for (unsigned v = 0; v < DIGIT_VALUES; v++) {
            size_t here = c[v];
            c[v] = start;
            start += here;
        }
        for (size_t i = 0; i < n; i++)
            to[c[(from[i].key >> (d * DIGIT_BITS)) & (DIGIT_VALUES - 1)]++] = from[i];
        morton_keyed *t = from;
        from = to;
        to = t;
    }
    if (from != k)
        memcpy(k, from, n * sizeof *k);
    free(count);
    free(other);
    return 0;
}
