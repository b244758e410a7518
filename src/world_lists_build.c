/* Building every neighbour list at once (contract of the lists in
 * world_lists.c).
 *
 * Each sphere i gathers the spheres within reach with lower index, and
 * each such pair joins both lists, so every pair is found once. Two
 * things make it faster than one world_lists_insert after another:
 *  - the cells are walked as ranges of one array sorted by cell
 *    (cell_ranges), whose loads do not wait for one another as loads
 *    along a cell's list do, and whose walk of a cell stops at the first
 *    sphere not below i;
 *  - the spheres are split in two halves, built on two threads when the
 *    world may use them (world_split.c). A half writes in place only the
 *    lists of its own spheres, within their own blocks; an entry for the
 *    other half's list, or one that would need the shared pool of
 *    continuation blocks, is deferred and added after both halves are
 *    done (the first half's, then the second's). With spheres in space
 *    order, few pairs straddle the halves.
 * The lists are the same on one thread or two, entry for entry. Out of
 * memory for the cell ranges, the cells' lists are walked instead; for
 * the deferred entries, the lists are incomplete and list_failed says so
 * (the event loop then goes back to cells, as when a list outgrows its
 * room). The cell ranges borrow the room of the event times, which a
 * build sets after the lists, so that a build's peak memory does not
 * grow. */
#include <math.h>
#include <stdlib.h>

#include "world_internal.h"

/* Cell ranges for the spheres linked into the grid (0), or -1 if out of
 * memory. They are made in the room of the event times when it is large
 * enough: a build sets every event time after the lists (and sets them
 * all to INFINITY here, after), so a build needs no memory for them; else
 * they are allocated (*allocated set). */
static int cell_ranges_make(carom_world *w, cell_ranges *r, int *allocated)
{
    const grid *g = &w->levels.level[0];
    size_t need = (g->ncells + 1) + (size_t)w->count;
    *allocated = need * sizeof(uint32_t) > w->capacity * sizeof *w->event_time;
    if (*allocated) {
        r->first = calloc(g->ncells + 1, sizeof *r->first);
        r->order = malloc((w->count ? w->count : 1) * sizeof *r->order);
    } else {
        r->first = (uint32_t *)(void *)w->event_time; /* allocated storage: no declared type */
        r->order = r->first + g->ncells + 1;
        for (size_t c = 0; c <= g->ncells; c++)
            r->first[c] = 0;
    }
    if (!r->first || !r->order) {
        free(r->first);
        free(r->order);
        return -1;
    }
    for (uint32_t i = 0; i < w->count; i++)
        if (w->info[i].alive)
            r->first[w->info[i].cell + 1]++;
    for (size_t c = 0; c < g->ncells; c++)
        r->first[c + 1] += r->first[c];
    /* Each sphere at its cell's next place, lowest index first; each
     * first[c] ends at the start of cell c + 1, and is moved back. */
    for (uint32_t i = 0; i < w->count; i++)
        if (w->info[i].alive)
            r->order[r->first[w->info[i].cell]++] = i;
    for (size_t c = g->ncells; c > 0; c--)
        r->first[c] = r->first[c - 1];
    r->first[0] = 0;
    return 0;
}

static void cell_ranges_free(carom_world *w, cell_ranges *r, int allocated)
{
    if (allocated) {
        free(r->first);
        free(r->order);
        return;
    }
    for (size_t i = 0; i < w->capacity; i++)
        w->event_time[i] = INFINITY;
}

void world_lists_defer(list_deferral *d, uint32_t owner, uint32_t entry)
{
    if (d->count == d->room) {
        size_t room = d->room ? 2 * d->room : 4096;
        uint32_t(*more)[2] = d->failed ? NULL : realloc(d->entry, room * sizeof *more);
        if (!more) {
            d->failed = 1;
            return;
        }
        d->entry = more;
        d->room = room;
    }
    d->entry[d->count][0] = owner;
    d->entry[d->count][1] = entry;
    d->count++;
}

typedef struct lists_build {
    const cell_ranges *ranges; /* NULL: walk the cells' lists */
    list_deferral part[2];
} lists_build;

static void build_part(carom_world *w, void *ctx, int part, uint32_t from, uint32_t to)
{
    lists_build *b = ctx;
    list_deferral *d = &b->part[part];
    d->from = from;
    d->to = to;
    for (uint32_t i = from; i < to; i++)
        if (w->info[i].alive)
            world_lists_gather(w, i, i, b->ranges, d);
}

void world_lists_build(carom_world *w)
{
    world_lists_pool_clear(w);
    for (uint32_t i = 0; i < w->count; i++)
        if (w->info[i].alive)
            w->list_count[i] = 0;
    cell_ranges ranges;
    int allocated;
    int walk_ranges = cell_ranges_make(w, &ranges, &allocated) == 0;
    lists_build b = {walk_ranges ? &ranges : NULL, {{0}, {0}}};
    world_split_run(w, build_part, &b);
    for (int part = 0; part < 2; part++) {
        const list_deferral *d = &b.part[part];
        for (size_t m = 0; m < d->count; m++)
            world_lists_add(w, d->entry[m][0], d->entry[m][1]);
        if (d->failed)
            w->list_failed = 1;
        free(d->entry);
    }
    if (walk_ranges)
        cell_ranges_free(w, &ranges, allocated);
}
