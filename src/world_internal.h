/* The world's private state, shared by the files that make up the world:
 *   world.c         creation, spheres in and out, queries, statistics
 *   world_build.c   the grid and the first predictions (on first advance)
 *   world_predict.c each sphere's next event (collision, wall, cell crossing)
 *   world_events.c  the event loop
 *   world_limited.c advancing to a time under an event budget (frames)
 *   world_big.c     the few spheres far larger than the rest, out of the grid
 *   world_cells.c   the spheres in the grid levels: links, cell crossings,
 *                   the lists of the cells around a sphere
 *   world_check.c   largest overlap now; invariants in validation builds
 *   response.c      what a contact does to velocities
 *
 * Invariants (checked in validation builds, see world_validate):
 * - each live sphere has exactly one pending event in the queue: the
 *   earliest of its predicted events when it was last predicted;
 * - a collision event stores its partner's counter; the event is stale
 *   (and only re-predicted) if the partner's counter moved since;
 * - a sphere's counter moves whenever its velocity changes;
 * - for every pair that will meet next, at least one of the two has a
 *   pending event no later than that meeting (possibly a stale one);
 * - a sphere's stored position is at its own time t; nothing touches a
 *   sphere that no event involves.
 */
#ifndef CAROM_WORLD_INTERNAL_H
#define CAROM_WORLD_INTERNAL_H

#include <stdint.h>

#include "carom/carom.h"
#include "event_queue.h"
#include "grid.h"
#include "grid_levels.h"

enum event_kind {
    EVENT_NONE = 0,
    EVENT_COLLISION = 1, /* partner: sphere index */
    EVENT_WALL = 2,      /* partner: 2*axis + (0 low, 1 high) */
    EVENT_CELL = 3,      /* partner: 2*axis + (0 down, 1 up) */
    EVENT_RESCAN = 4     /* a big sphere has moved a margin since it last
                            scanned its surroundings (world_big.c) */
};

#define SPHERE_NONE UINT32_MAX

/* A hint to start loading what will be read soon (no effect on results). */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

/* A sphere's record is split by use. The hot part is exactly what the
 * pair loop of world_predict reads for every candidate, one 64-byte cache
 * line per sphere (the array is 64-byte aligned); the cold part is read
 * once per event at most. The cell lists' forward links are a separate
 * array (4 bytes per sphere), so walking a cell touches no cold data. */
typedef struct sphere {
    _Alignas(64) double x[3]; /* position at time t */
    double v[3];       /* velocity at time t */
    double t;          /* the sphere's own clock */
    double radius;
} sphere;

typedef struct sphere_info {
    double inv_mass;   /* 0 for infinite mass */
    uint32_t cell;     /* linear index of its grid cell (dense levels) */
    int32_t cc[3];     /* cell coordinates at its own level */
    uint32_t cell_prev;
    uint8_t alive;
    uint8_t falls;     /* gravity acts on it (finite mass) */
    uint8_t big;       /* kept out of the grid (world_big.c) */
    uint8_t level;     /* its grid level (grid_levels.h) */
} sphere_info;

typedef struct sphere_event {
    double time;       /* also the sphere's key in the queue */
    uint32_t kind;
    uint32_t partner;
    uint32_t partner_counter;
    /* Not part of the event: the sphere's own counter, bumped at every
     * velocity change. It lives here because whoever reads a sphere's
     * event time (validating an event, telling a partner) reads it too. */
    uint32_t counter;
} sphere_event;

/* Report-only mode: the pairs a sphere was last reported with, each
 * remembered until the two have separated again (for the velocities they
 * had then): until that time a re-prediction of their meeting is the
 * contact already reported, whatever its last bits (frames, periodic
 * wraps and the two sides of a pair round the same time differently). A
 * pair is remembered by both spheres; when a sphere is in contact with
 * more than REPORTED_MAX others, the entry that expires first goes. */
#define REPORTED_MAX 8
typedef struct reported_contact {
    uint32_t partner;         /* SPHERE_NONE: empty */
    uint32_t counter;         /* this sphere's counter at the report */
    uint32_t partner_counter; /* the partner's */
    double until;             /* separation time */
} reported_contact;
typedef struct reported_contacts {
    reported_contact e[REPORTED_MAX];
} reported_contacts;

struct carom_world {
    carom_world_def def;
    double gravity[3];
    int has_gravity;
    double time;
    char error[CAROM_ERROR_MESSAGE_SIZE];

    size_t count;         /* ids handed out */
    size_t alive_count;
    size_t capacity;
    sphere *spheres;      /* hot records, 64-byte aligned */
    sphere_info *info;    /* cold records */
    uint32_t *cell_next;  /* next sphere in the same cell, or SPHERE_NONE */
    sphere_event *events;
    reported_contacts *reported; /* report-only mode only */

    grid_levels levels;   /* the grid: one level, or a hierarchy */
    event_queue queue;
    int built;            /* grid and predictions exist */
    double grid_radius;   /* largest radius the grid allows */
    uint32_t *big;        /* spheres kept out of the grid (world_big.c) */
    size_t nbig;
    double big_margin;    /* how far a big sphere moves between scans */

    carom_stats stats;
};

/* The cold record of the sphere whose hot record is s (needs a world w in
 * scope: INFO(s) is sphere_info_of(w, s)). */
static inline sphere_info *sphere_info_of(const carom_world *w, const sphere *s)
{
    return &w->info[s - w->spheres];
}
#define INFO(s) sphere_info_of(w, (s))
/* The counter of the sphere whose hot record is s (see sphere_event). */
#define COUNTER(s) (w->events[(s) - w->spheres].counter)

/* How far sphere i's surface may reach from its centre: what chooses its
 * grid level. */
static inline double sphere_reach(const carom_world *w, uint32_t i)
{
    return w->spheres[i].radius;
}

/* The grid level sphere i lives in (its cells, widths, counts). */
static inline const grid *sphere_grid(const carom_world *w, uint32_t i)
{
    return &w->levels.level[w->info[i].level];
}

/* world_cells.c: the general case of the three functions below (a
 * hierarchy of levels, or sparse cells). */
void world_cells_link(carom_world *w, uint32_t id);
void world_cells_unlink(carom_world *w, uint32_t id);
void world_cells_cross(carom_world *w, uint32_t id, int axis, int up);

/* Puts sphere id into the lists of its cell (info cc and level set). */
static inline void cell_link(carom_world *w, uint32_t id)
{
    if (!w->levels.simple) {
        world_cells_link(w, id);
        return;
    }
    grid *g = &w->levels.level[0];
    sphere_info *s = &w->info[id];
    s->cell = grid_index(g, s->cc);
    s->cell_prev = SPHERE_NONE;
    uint32_t next = g->head[s->cell];
    w->cell_next[id] = next;
    if (next != SPHERE_NONE)
        w->info[next].cell_prev = id;
    g->head[s->cell] = id;
}

static inline void cell_unlink(carom_world *w, uint32_t id)
{
    if (!w->levels.simple) {
        world_cells_unlink(w, id);
        return;
    }
    sphere_info *s = &w->info[id];
    uint32_t next = w->cell_next[id];
    if (s->cell_prev != SPHERE_NONE)
        w->cell_next[s->cell_prev] = next;
    else
        w->levels.level[0].head[s->cell] = next;
    if (next != SPHERE_NONE)
        w->info[next].cell_prev = s->cell_prev;
    w->cell_next[id] = s->cell_prev = SPHERE_NONE;
}

/* Sphere id crosses its cell's face along axis (up or down) at its own
 * level: moves it to the next cell, wrapping a periodic axis (the stored
 * position moves by the box length, the clock does not change). */
static inline void cell_cross(carom_world *w, uint32_t id, int axis, int up)
{
    if (!w->levels.simple) {
        world_cells_cross(w, id, axis, up);
        return;
    }
    const grid *g = &w->levels.level[0];
    sphere_info *s = &w->info[id];
    cell_unlink(w, id);
    s->cc[axis] += up ? 1 : -1;
    /* Only a periodic axis lets a sphere leave the grid: wrap it. */
    if (s->cc[axis] == g->n[axis]) {
        s->cc[axis] = 0;
        w->spheres[id].x[axis] -= g->length[axis];
    } else if (s->cc[axis] < 0) {
        s->cc[axis] = g->n[axis] - 1;
        w->spheres[id].x[axis] += g->length[axis];
    }
    cell_link(w, id);
}

/* The lists of candidate spheres around sphere id (general case): at its
 * level the own lists of the 3^d cells around it, and their finer lists
 * when finer levels hold spheres; at every coarser level holding spheres
 * the own lists of the 3^d cells around its cell there. Each list with
 * the shift to add to its spheres' positions (periodic images). Only
 * non-empty lists are given, always in the same order. */
typedef struct cell_list {
    uint32_t head;
    const uint32_t *next; /* the links of this list */
    double shift[3];
} cell_list;
#define NEIGHBOUR_LISTS_MAX (27 * (GRID_LEVELS_MAX + 1))
typedef struct neighbour_lists {
    int count;
    cell_list list[NEIGHBOUR_LISTS_MAX];
} neighbour_lists;
void world_neighbour_lists(const carom_world *w, uint32_t id, neighbour_lists *out);
/* The spheres of every level within `reach` of x along every axis (their
 * centres; periodic images included), a batch of at most `max` at a time:
 * visit is called with the batch; shifts point into storage valid for the
 * call. For the few big spheres (world_big.c). */
typedef void (*sphere_batch_fn)(const carom_world *w, void *ctx, const uint32_t *ids,
                                const double *const *shifts, int n);
void world_cells_in_region(const carom_world *w, const double x[3], double reach,
                           sphere_batch_fn visit, void *ctx);

/* Sets the world's error message (printf-style) and returns status. */
carom_status world_fail(carom_world *w, carom_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Position and velocity of sphere s extrapolated to time t. */
void world_sphere_at(const carom_world *w, const sphere *s, double t, double x[3],
                     double v[3]);
/* Moves sphere s's stored state to time t. */
void world_advance_sphere(carom_world *w, sphere *s, double t);

/* world_build.c */
carom_status world_build(carom_world *w);
void world_unbuild(carom_world *w);
/* Puts sphere s into the built grid after checking it lies in the box and
 * overlaps no other sphere; on failure it stays out and the message names
 * the problem. */
carom_status world_place_sphere(carom_world *w, uint32_t s);

/* world_big.c: a few spheres much larger than the rest are kept out of
 * the grid, so that the grid's cells can stay as small as the others. */
/* Chooses them at build time, before the grid: returns the largest radius
 * of the spheres left in the grid. */
double world_big_choose(carom_world *w);
/* After the grid is built: 1 if the periodic axes are long enough for the
 * big spheres (else the caller builds without them). */
int world_big_fits_grid(const carom_world *w);
void world_big_clear(carom_world *w);
void world_big_remove(carom_world *w, uint32_t id);
/* Fails if sphere id overlaps a big sphere (or, if big, any sphere). */
carom_status world_big_check_overlaps(carom_world *w, uint32_t id);
/* Shift to add to xb to get the image of b nearest to xa. */
void world_min_image_shift(const carom_world *w, const double xa[3], const double xb[3],
                           double shift[3]);

/* world_predict.c: predict sphere s's next event at the current time,
 * store it and update the queue (and tell a partner with a later event). */
void world_predict(carom_world *w, uint32_t s);
/* Report-only mode: when spheres i and j (j seen through shift), in
 * contact now, will have separated again. */
double world_pair_separation_time(const carom_world *w, uint32_t i, uint32_t j,
                                  const double shift[3]);

/* world_events.c */
carom_status world_process_until(carom_world *w, double t_end, uint64_t max_events,
                                 uint64_t *processed);

/* response.c */
void response_collide(carom_world *w, uint32_t i, uint32_t j, const double shift[3]);
void response_wall(carom_world *w, uint32_t i, int wall);

#ifdef CAROM_VALIDATE
void world_validate(carom_world *w);
#endif

#endif
