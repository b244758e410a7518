/* A set of unordered pairs of sphere ids, as a hash table that grows
 * (open addressing, linear probing, deletion by shifting back; no
 * tombstones). The world keeps in one the driven pairs in contact that
 * the response cannot separate (world_driven_meet.c): as many as there
 * are, however many spheres one driven sphere overlaps at once. Ids, not
 * slots, so that sorting the records changes nothing here. */
#ifndef CAROM_PAIR_SET_H
#define CAROM_PAIR_SET_H

#include <stddef.h>
#include <stdint.h>

typedef struct pair_set {
    uint64_t *keys; /* 0: empty (a pair of two equal ids is never stored) */
    size_t capacity; /* a power of two, or 0 */
    size_t count;
} pair_set;

void pair_set_free(pair_set *s);
int pair_set_contains(const pair_set *s, uint32_t a, uint32_t b);
/* Returns 0, or -1 when out of memory (the set is unchanged). */
int pair_set_insert(pair_set *s, uint32_t a, uint32_t b);
void pair_set_remove(pair_set *s, uint32_t a, uint32_t b);
/* Removes every pair that has id a. */
void pair_set_remove_all_with(pair_set *s, uint32_t a);
/* Removes every pair {a, b} for which drop(ctx, a, b) is nonzero. */
void pair_set_remove_with_if(pair_set *s, uint32_t a,
                             int (*drop)(const void *ctx, uint32_t a, uint32_t b),
                             const void *ctx);
/* Calls visit(ctx, a, b) for every pair {a, b} of the set that has id a
 * (visit must not change the set). */
void pair_set_visit_with(const pair_set *s, uint32_t a,
                         void (*visit)(void *ctx, uint32_t a, uint32_t b), void *ctx);
/* Calls visit(ctx, a, b) for every pair {a, b} of the set (visit must
 * not change the set). */
void pair_set_visit(const pair_set *s, void (*visit)(void *ctx, uint32_t a, uint32_t b),
                    void *ctx);
/* Empties the set, calling visit(ctx, a, b) for each pair it held (in
 * the table's order: the same for the same inserts). */
void pair_set_drain(pair_set *s, void (*visit)(void *ctx, uint32_t a, uint32_t b), void *ctx);
/* Removes every pair {a, b} of the set for which drop(ctx, a, b) is
 * nonzero. */
void pair_set_remove_if(pair_set *s, int (*drop)(const void *ctx, uint32_t a, uint32_t b),
                        const void *ctx);

#endif
