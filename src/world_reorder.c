/* Keeping the spheres' records in spatial order. A prediction reads the
 * records of a sphere's neighbours; when spheres near each other in space
 * sit near each other in memory, those reads share pages and cache
 * lines. A scene sorted along a space-filling curve (carom_scene_sort_
 * spatially) starts that way, but spheres wander and the order decays.
 * At N = 10^6 a shuffled order is 10-20% slower than a sorted one, and a
 * dilute gas (packing 0.1) run for 20 time units gains 8-15% from a sort
 * (docs/performance-notes.md, twelfth pass).
 *
 * Sorting moves every sphere's record to the slot of its place along a
 * Morton curve (morton.h) of its position now, and builds the world again
 * at its current time: every sphere is brought to that time and every
 * event is predicted again, exactly as at the end of an advance followed
 * by a first build (so results stay exact; event times may differ from
 * the old predictions in the last bits). Ids never change: id_of and
 * slot_of translate at every place an id enters or leaves the library.
 * What a sphere carries from one event to the next moves with it: its
 * record, its counter, a report-only world's memory of reported pairs and
 * a driven sphere's bound (their partners renamed to the new slots).
 *
 * When (CAROM_REORDER_AUTO): a world of at least REORDER_MIN_SPHERES at
 * its build sorts then, and watches its collisions (a report-only
 * world's contacts). A window of
 * collisions (half the number of spheres) measures the share of pairs
 * whose slots are REORDER_FAR_SLOTS or more apart; the first window after
 * a sort is the baseline, and a later window that has lost REORDER_DECAY
 * of what separated the baseline from a shuffled order sorts again. The
 * event loop sorts between two events. Driven worlds do not sort
 * themselves (a sort probes every driven sphere); carom_world_sort_
 * spatially sorts any world on demand. */
#include <stdlib.h>
#include <string.h>

#include "morton.h"
#include "world_driven.h"
#include "world_helper.h"

/* Worlds smaller than this fit the caches well enough not to sort
 * themselves. */
#define REORDER_MIN_SPHERES 50000
/* The share of the way from sorted to shuffled (as measured by far
 * pairs) after which a world sorts again. A quarter sorted a fluid of
 * 10^6 spheres at packing 0.3 about every 7 time units for no gain that
 * showed; a sort costs about one second there. */
#define REORDER_DECAY 0.5

/* The key of the sphere in slot i: its position now, in the box. Removed
 * spheres go after every live one, in their order. */
static uint64_t key_of(const carom_world *w, uint32_t i)
{
    if (!w->info[i].alive)
        return UINT64_MAX;
    double x[3], v[3];
    world_sphere_at(w, &w->spheres[i], w->time, x, v);
    return morton_key(x, w->def.box, w->def.dim);
}

/* The arrays indexed by slot that carry state from one event to the
 * next (at most SLOT_ARRAYS_MAX of them), and the size of one element. */
#define SLOT_ARRAYS_MAX 8
typedef struct slot_array {
    void *base;
    size_t size;
} slot_array;

static int slot_arrays(carom_world *w, slot_array out[SLOT_ARRAYS_MAX])
{
    int n = 0;
    out[n++] = (slot_array){w->spheres, sizeof *w->spheres};
    out[n++] = (slot_array){w->info, sizeof *w->info};
    out[n++] = (slot_array){w->events, sizeof *w->events};
    out[n++] = (slot_array){w->event_time, sizeof *w->event_time};
    out[n++] = (slot_array){w->id_of, sizeof *w->id_of};
    if (w->reported)
        out[n++] = (slot_array){w->reported, sizeof *w->reported};
    if (w->bounds) {
        out[n++] = (slot_array){w->bounds, sizeof *w->bounds};
        out[n++] = (slot_array){w->floors, sizeof *w->floors};
    }
    return n;
}

/* Puts into slot k what slot from[k] held, for every array, following
 * each cycle of the permutation with one element of room per array. */
static int permute(carom_world *w, const uint32_t *from)
{
    slot_array a[SLOT_ARRAYS_MAX];
    int na = slot_arrays(w, a);
    size_t room = 0;
    for (int m = 0; m < na; m++)
        room += a[m].size;
    unsigned char *held = malloc(room);
    unsigned char *done = calloc(w->count, 1);
    if (!held || !done) {
        free(held);
        free(done);
        return -1;
    }
    for (uint32_t start = 0; start < w->count; start++) {
        if (done[start] || from[start] == start)
            continue;
        unsigned char *h = held;
        for (int m = 0; m < na; m++) {
            memcpy(h, (char *)a[m].base + start * a[m].size, a[m].size);
            h += a[m].size;
        }
        uint32_t k = start;
        while (from[k] != start) {
            for (int m = 0; m < na; m++)
                memcpy((char *)a[m].base + k * a[m].size,
                       (char *)a[m].base + from[k] * a[m].size, a[m].size);
            done[k] = 1;
            k = from[k];
        }
        h = held;
        for (int m = 0; m < na; m++) {
            memcpy((char *)a[m].base + k * a[m].size, h, a[m].size);
            h += a[m].size;
        }
        done[k] = 1;
    }
    free(held);
    free(done);
    return 0;
}

/* Partners named in what moved, renamed to their new slots. */
static void rename_partners(carom_world *w, const uint32_t *to)
{
    for (uint32_t i = 0; i < w->count; i++) {
        if (w->reported)
            for (int k = 0; k < REPORTED_MAX; k++)
                if (w->reported[i].e[k].partner != SPHERE_NONE)
                    w->reported[i].e[k].partner = to[w->reported[i].e[k].partner];
        if (w->floors && w->floors[i].partner != SPHERE_NONE)
            w->floors[i].partner = to[w->floors[i].partner];
    }
}

static int make_maps(carom_world *w)
{
    if (w->id_of)
        return 0;
    w->id_of = malloc(w->capacity * sizeof *w->id_of);
    w->slot_of = malloc(w->capacity * sizeof *w->slot_of);
    if (!w->id_of || !w->slot_of) {
        free(w->id_of);
        free(w->slot_of);
        w->id_of = w->slot_of = NULL;
        return -1;
    }
    for (uint32_t i = 0; i < w->capacity; i++)
        w->id_of[i] = w->slot_of[i] = i;
    return 0;
}

/* Sorts the slots (the world not built). */
static carom_status sort_slots(carom_world *w)
{
    size_t n = w->count;
    if (n < 2)
        return CAROM_OK;
    morton_keyed *k = malloc(n * sizeof *k);
    uint32_t *from = malloc(n * sizeof *from);
    if (k && from)
        for (uint32_t i = 0; i < n; i++)
            k[i] = (morton_keyed){key_of(w, i), i};
    if (!k || !from || morton_sort(k, n) != 0) {
        free(k);
        free(from);
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory sorting the spheres");
    }
    int moved = 0;
    for (uint32_t i = 0; i < n; i++) {
        from[i] = (uint32_t)k[i].index;
        moved |= from[i] != i;
    }
    free(k);
    if (moved) { /* (a scene sorted by carom_scene_sort_spatially is not) */
        uint32_t *to = malloc(n * sizeof *to);
        if (!to || make_maps(w) != 0 || permute(w, from) != 0) {
            free(to);
            free(from);
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory sorting the spheres");
        }
        for (uint32_t i = 0; i < n; i++)
            to[from[i]] = i;
        rename_partners(w, to);
        free(to);
        for (uint32_t i = 0; i < n; i++)
            w->slot_of[w->id_of[i]] = i;
    }
    free(from);
    w->query_epoch++; /* slots moved: the queries' index goes */
    w->stats.reorders++;
    return CAROM_OK;
}

carom_status world_reorder(carom_world *w)
{
    w->reorder.due = 0;
    int built = w->built;
    world_unbuild(w); /* the lists and queue go first: less memory at once */
    carom_status st = sort_slots(w);
    if (st == CAROM_OK && built)
        st = world_build(w, 1);
    return st;
}

static int wanted(const carom_world *w)
{
    return w->def.reorder == CAROM_REORDER_AUTO && !w->has_driven &&
           w->alive_count >= REORDER_MIN_SPHERES;
}

carom_status world_reorder_at_build(carom_world *w)
{
    return wanted(w) ? sort_slots(w) : CAROM_OK;
}

void world_reorder_watch_start(carom_world *w)
{
    reorder_watch *r = &w->reorder;
    r->window = wanted(w) ? w->alive_count / 2 : 0;
    r->seen = r->far = 0;
    r->base = -1.0;
    r->due = 0;
}

void world_reorder_window_end(carom_world *w)
{
    reorder_watch *r = &w->reorder;
    double share = (double)r->far / (double)r->seen;
    r->seen = r->far = 0;
    if (r->base < 0.0)
        r->base = share;
    else if (share > r->base + REORDER_DECAY * (1.0 - r->base))
        r->due = 1;
}

int world_reorder_reserve(carom_world *w, size_t old_capacity, size_t n)
{
    if (!w->id_of)
        return 0;
    uint32_t *a = realloc(w->id_of, n * sizeof *a);
    if (a)
        w->id_of = a;
    uint32_t *b = a ? realloc(w->slot_of, n * sizeof *b) : NULL;
    if (b)
        w->slot_of = b;
    if (!a || !b)
        return -1;
    for (size_t i = old_capacity; i < n; i++)
        w->id_of[i] = w->slot_of[i] = (uint32_t)i;
    return 0;
}

carom_status carom_world_sort_spatially(carom_world *w)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_sort_spatially");
    world_helper_stop(w);
    return world_reorder(w); /* a build starts the watch again */
}
