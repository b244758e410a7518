/* Hash table of occupied cells; contract in cell_table.h. */
#include "cell_table.h"

#include <stdlib.h>

static size_t home_of(const cell_table *t, uint64_t key)
{
    /* Fibonacci hashing: the high bits of key times 2^64 / phi. */
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (t->capacity - 1);
}

void cell_table_init(cell_table *t)
{
    t->slot = NULL;
    t->capacity = 0;
    t->used = 0;
}

void cell_table_free(cell_table *t)
{
    free(t->slot);
    cell_table_init(t);
}

int cell_table_reserve(cell_table *t, size_t keys)
{
    size_t want = 16;
    while (want < 2 * keys)
        want *= 2;
    if (want <= t->capacity)
        return 0;
    cell_slot *slot = malloc(want * sizeof *slot);
    if (!slot)
        return -1;
    for (size_t k = 0; k < want; k++)
        slot[k].key = CELL_TABLE_EMPTY;
    cell_table old = *t;
    t->slot = slot;
    t->capacity = want;
    t->used = 0;
    for (size_t k = 0; k < old.capacity; k++) {
        if (old.slot[k].key == CELL_TABLE_EMPTY)
            continue;
        cell_slot *s = cell_table_insert(t, old.slot[k].key);
        s->own = old.slot[k].own;
        s->finer = old.slot[k].finer;
    }
    free(old.slot);
    return 0;
}

cell_slot *cell_table_find(const cell_table *t, uint64_t key)
{
    if (t->capacity == 0)
        return NULL;
    size_t mask = t->capacity - 1;
    for (size_t k = home_of(t, key);; k = (k + 1) & mask) {
        if (t->slot[k].key == key)
            return &t->slot[k];
        if (t->slot[k].key == CELL_TABLE_EMPTY)
            return NULL;
    }
}

cell_slot *cell_table_insert(cell_table *t, uint64_t key)
{
    size_t mask = t->capacity - 1;
    for (size_t k = home_of(t, key);; k = (k + 1) & mask) {
        if (t->slot[k].key == key)
            return &t->slot[k];
        if (t->slot[k].key == CELL_TABLE_EMPTY) {
            t->slot[k].key = key;
            t->slot[k].own = t->slot[k].finer = UINT32_MAX;
            t->used++;
            return &t->slot[k];
        }
    }
}

void cell_table_release(cell_table *t, cell_slot *s)
{
    if (s->own != UINT32_MAX || s->finer != UINT32_MAX)
        return;
    /* Backward-shift deletion: move up every later entry of the probe run
     * whose home is not between the hole and itself. */
    size_t mask = t->capacity - 1;
    size_t hole = (size_t)(s - t->slot);
    for (size_t k = (hole + 1) & mask; t->slot[k].key != CELL_TABLE_EMPTY; k = (k + 1) & mask) {
        size_t home = home_of(t, t->slot[k].key);
        /* Can the entry at k move to the hole? Only if its home is not in
         * the cyclic range (hole, k]. */
        int home_after_hole = hole <= k ? (home > hole && home <= k) : (home > hole || home <= k);
        if (!home_after_hole) {
            t->slot[hole] = t->slot[k];
            hole = k;
        }
    }
    t->slot[hole].key = CELL_TABLE_EMPTY;
    t->used--;
}
