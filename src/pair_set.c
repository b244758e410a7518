/* A set of unordered pairs of sphere ids (pair_set.h). */
#include "pair_set.h"

#include <stdlib.h>

/* The key of {a, b}: the smaller id in the high half; never 0 for a != b. */
static uint64_t key_of(uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return (uint64_t)lo << 32 | hi;
}

static size_t home_of(const pair_set *s, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing */
    return (size_t)(h >> 32) & (s->capacity - 1);
}

/* The place of key, or of the empty entry where it would go. */
static size_t place_of(const pair_set *s, uint64_t key)
{
    size_t p = home_of(s, key);
    while (s->keys[p] != 0 && s->keys[p] != key)
        p = (p + 1) & (s->capacity - 1);
    return p;
}

void pair_set_free(pair_set *s)
{
    free(s->keys);
    *s = (pair_set){NULL, 0, 0};
}

int pair_set_contains(const pair_set *s, uint32_t a, uint32_t b)
{
    if (s->count == 0 || a == b)
        return 0;
    uint64_t key = key_of(a, b);
    return s->keys[place_of(s, key)] == key;
}

static int grow(pair_set *s)
{
    size_t capacity = s->capacity ? 2 * s->capacity : 16;
    uint64_t *keys = calloc(capacity, sizeof *keys);
    if (!keys)
        return -1;
    pair_set old = *s;
    *s = (pair_set){keys, capacity, old.count};
    for (size_t k = 0; k < old.capacity; k++)
        if (old.keys[k] != 0)
            s->keys[place_of(s, old.keys[k])] = old.keys[k];
    free(old.keys);
    return 0;
}

int pair_set_insert(pair_set *s, uint32_t a, uint32_t b)
{
    if (a == b)
        return 0;
    if (2 * (s->count + 1) > s->capacity && grow(s) != 0) /* load <= 1/2 */
        return -1;
    uint64_t key = key_of(a, b);
    size_t p = place_of(s, key);
    if (s->keys[p] == 0) {
        s->keys[p] = key;
        s->count++;
    }
    return 0;
}

/* Empties place p and moves back the entries after it that would no
 * longer be found (their home lies cyclically at or before p). */
static void remove_at(pair_set *s, size_t p)
{
    size_t mask = s->capacity - 1, q = p;
    for (;;) {
        q = (q + 1) & mask;
        if (s->keys[q] == 0)
            break;
        size_t home = home_of(s, s->keys[q]);
        if (((q - home) & mask) >= ((q - p) & mask)) {
            s->keys[p] = s->keys[q];
            p = q;
        }
    }
    s->keys[p] = 0;
    s->count--;
}

void pair_set_remove(pair_set *s, uint32_t a, uint32_t b)
{
    if (s->count == 0 || a == b)
        return;
    uint64_t key = key_of(a, b);
    size_t p = place_of(s, key);
    if (s->keys[p] == key)
        remove_at(s, p);
}

void pair_set_remove_with_if(pair_set *s, uint32_t a,
                             int (*drop)(const void *ctx, uint32_t a, uint32_t b),
                             const void *ctx)
{
    for (size_t k = 0; k < s->capacity;) {
        uint64_t key = s->keys[k];
        uint32_t hi = (uint32_t)(key >> 32), lo = (uint32_t)key;
        if (key != 0 && (hi == a || lo == a) && (!drop || drop(ctx, a, hi == a ? lo : hi)))
            remove_at(s, k); /* k again: an entry may have moved here */
        else
            k++;
    }
}

void pair_set_remove_if(pair_set *s, int (*drop)(const void *ctx, uint32_t a, uint32_t b),
                        const void *ctx)
{
    for (size_t k = 0; k < s->capacity;) {
        uint64_t key = s->keys[k];
        if (key != 0 && drop(ctx, (uint32_t)(key >> 32), (uint32_t)key))
            remove_at(s, k); /* k again: an entry may have moved here */
        else
            k++;
    }
}

void pair_set_visit_with(const pair_set *s, uint32_t a,
                         void (*visit)(void *ctx, uint32_t a, uint32_t b), void *ctx)
{
    for (size_t k = 0; k < s->capacity; k++) {
        uint64_t key = s->keys[k];
        uint32_t hi = (uint32_t)(key >> 32), lo = (uint32_t)key;
        if (key != 0 && (hi == a || lo == a))
            visit(ctx, a, hi == a ? lo : hi);
    }
}

void pair_set_visit(const pair_set *s, void (*visit)(void *ctx, uint32_t a, uint32_t b),
                    void *ctx)
{
    for (size_t k = 0; k < s->capacity; k++)
        if (s->keys[k] != 0)
            visit(ctx, (uint32_t)(s->keys[k] >> 32), (uint32_t)s->keys[k]);
}

void pair_set_drain(pair_set *s, void (*visit)(void *ctx, uint32_t a, uint32_t b), void *ctx)
{
    for (size_t k = 0; k < s->capacity; k++) {
        uint64_t key = s->keys[k];
        if (key == 0)
            continue;
        s->keys[k] = 0;
        s->count--;
        visit(ctx, (uint32_t)(key >> 32), (uint32_t)key);
    }
}

void pair_set_remove_all_with(pair_set *s, uint32_t a)
{
    pair_set_remove_with_if(s, a, NULL, NULL);
}
