/* The Morton sort (src/morton.c) against qsort with morton_by_key, on keys
 * shaped like the callers': 3D keys using all 63 bits, 2D keys (42 bits),
 * lattice-like keys whose top digits are all alike, many exact ties,
 * input already sorted and in reverse, and the smallest sizes. The order
 * must be the same entry for entry (key and index). Fails if a pass is
 * not stable (ties out of index order), if a digit is skipped that is not
 * alike in every key, or if the result is left in the scratch buffer. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "morton.h"
#include "rng.h"

enum shape { FULL_3D, FULL_2D, NARROW, TIES, SORTED, REVERSED, SHAPES };

static uint64_t key_of_shape(rng *r, enum shape shape, size_t i, size_t n)
{
    switch (shape) {
    case FULL_3D:
        return rng_next(r) >> 1;
    case FULL_2D:
        return rng_next(r) >> 22;
    case NARROW: /* a lattice in a corner of the key space: top digits alike */
        return (UINT64_C(5) << 50) | (rng_next(r) & 0x3fffff);
    case TIES:
        return rng_next(r) % 7 << 40;
    case SORTED:
        return (uint64_t)i * 3 / 2;
    case REVERSED:
        return (uint64_t)(n - i) << 20;
    default:
        return 0;
    }
}

static void check_against_qsort(uint64_t seed, enum shape shape, size_t n)
{
    rng r;
    rng_seed(&r, seed);
    morton_keyed *k = malloc((n ? n : 1) * sizeof *k), *ref = malloc((n ? n : 1) * sizeof *ref);
    if (!k || !ref) {
        CHECK(!"out of memory");
        free(k);
        free(ref);
        return;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = ref[i] = (morton_keyed){key_of_shape(&r, shape, i, n), i};
    qsort(ref, n, sizeof *ref, morton_by_key);
    CHECK(morton_sort(k, n) == 0);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += k[i].key != ref[i].key || k[i].index != ref[i].index;
    if (wrong)
        fprintf(stderr, "shape %d, n %zu: %zu entries out of place\n", (int)shape, n, wrong);
    CHECK(wrong == 0);
    free(k);
    free(ref);
}

int main(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 100, 4097, 200000};
    for (int shape = 0; shape < SHAPES; shape++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            check_against_qsort(1 + (uint64_t)shape * 10 + s, (enum shape)shape, sizes[s]);
    return CHECK_REPORT();
}
