/* A hash table of occupied grid cells, for grids too large (or too empty)
 * for an array of every cell: a huge box with a few spheres, or the fine
 * levels of a hierarchy. A cell is a 64-bit key (level and coordinates,
 * see grid_levels.h) with two list heads. Open addressing with linear
 * probing; removal shifts later entries back (no tombstones), so lookups
 * stay short however long the table is used. The table never grows by
 * itself: the caller reserves room for every key it may hold at once
 * (cell_table_reserve), so inserting never allocates and never fails. */
#ifndef CAROM_CELL_TABLE_H
#define CAROM_CELL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define CELL_TABLE_EMPTY UINT64_MAX

typedef struct cell_slot {
    uint64_t key;    /* CELL_TABLE_EMPTY: free */
    uint32_t own;    /* first sphere of the cell's own level, or UINT32_MAX */
    uint32_t finer;  /* first sphere of a finer level centred in it, or UINT32_MAX */
} cell_slot;

typedef struct cell_table {
    cell_slot *slot;
    size_t capacity; /* a power of two, or 0 */
    size_t used;
} cell_table;

void cell_table_init(cell_table *t);
void cell_table_free(cell_table *t);
/* Makes room for `keys` keys at once (load at most 1/2); 0 on success, -1
 * out of memory (the table is unchanged). */
int cell_table_reserve(cell_table *t, size_t keys);
/* The cell's slot, or NULL if it is not in the table. */
cell_slot *cell_table_find(const cell_table *t, uint64_t key);
/* The cell's slot, inserted with empty lists if absent (room reserved). */
cell_slot *cell_table_insert(cell_table *t, uint64_t key);
/* Removes the cell if both its lists are empty. */
void cell_table_release(cell_table *t, cell_slot *s);

#endif
