/* The pair set (src/pair_set.c) against a plain matrix of flags over a
 * few ids, under long random runs of inserts, removals, removals of every
 * pair with an id, removals of every pair a rule picks, and lookups, so that the table grows, its chains wrap
 * round its end, and deletions shift entries back across it. After every
 * operation the set must answer as the matrix does for every pair, and
 * its count must match. Fails on a lost or phantom pair after a shift, on
 * a miscount, and (under AddressSanitizer) on a leak or a bad access. */
#include <string.h>

#include "check.h"
#include "pair_set.h"
#include "rng.h"

#define IDS 40

/* A rule for pair_set_remove_if: pairs whose ids sum to a multiple of
 * *modulus. */
static int sum_divisible(const void *ctx, uint32_t a, uint32_t b)
{
    return (a + b) % *(const uint32_t *)ctx == 0;
}

static int agrees(const pair_set *s, unsigned char in[IDS][IDS])
{
    size_t count = 0;
    for (uint32_t a = 0; a < IDS; a++)
        for (uint32_t b = 0; b < IDS; b++) {
            if (pair_set_contains(s, a, b) != in[a][b])
                return 0;
            count += a < b && in[a][b];
        }
    return count == s->count;
}

static void test_against_matrix(void)
{
    static unsigned char in[IDS][IDS];
    memset(in, 0, sizeof in);
    pair_set s = {0};
    rng r;
    rng_seed(&r, 7);
    int disagreements = 0;
    size_t largest = 0;
    for (int op = 0; op < 20000; op++) {
        uint32_t a = (uint32_t)(rng_next(&r) % IDS), b = (uint32_t)(rng_next(&r) % IDS);
        unsigned what = (unsigned)(rng_next(&r) % 100);
        /* Phases that fill the set and phases that empty it. */
        int filling = (op / 2000) % 2 == 0;
        if (what < (filling ? 70u : 30u)) {
            CHECK(pair_set_insert(&s, a, b) == 0);
            in[a][b] = in[b][a] = a != b;
        } else if (what < 97) {
            pair_set_remove(&s, a, b);
            in[a][b] = in[b][a] = 0;
        } else if (what < 98) {
            uint32_t modulus = 2 + a % 5;
            pair_set_remove_if(&s, sum_divisible, &modulus);
            for (uint32_t x = 0; x < IDS; x++)
                for (uint32_t y = 0; y < IDS; y++)
                    if ((x + y) % modulus == 0)
                        in[x][y] = 0;
        } else {
            pair_set_remove_all_with(&s, a);
            for (int k = 0; k < IDS; k++)
                in[a][k] = in[k][a] = 0;
        }
        if (s.count > largest)
            largest = s.count;
        if (!agrees(&s, in))
            disagreements++;
    }
    CHECK(disagreements == 0);
    CHECK(largest > 300); /* the table grew well past its first size */
    pair_set_free(&s);
    CHECK(s.count == 0 && s.keys == NULL);
}

static void test_large_ids(void)
{
    pair_set s = {0};
    CHECK(pair_set_insert(&s, 0, UINT32_MAX) == 0);
    CHECK(pair_set_insert(&s, UINT32_MAX - 1, UINT32_MAX) == 0);
    CHECK(pair_set_contains(&s, UINT32_MAX, 0));
    CHECK(pair_set_contains(&s, UINT32_MAX, UINT32_MAX - 1));
    CHECK(!pair_set_contains(&s, 0, UINT32_MAX - 1));
    CHECK(!pair_set_contains(&s, 0, 0));
    pair_set_remove_all_with(&s, UINT32_MAX);
    CHECK(s.count == 0);
    pair_set_free(&s);
}

int main(void)
{
    test_against_matrix();
    test_large_ids();
    return CHECK_REPORT();
}
