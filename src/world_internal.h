/* The world's private state, shared by the files that make up the world:
 *   world.c         creation, spheres in and out, queries, statistics
 *   world_build.c   the grid and the first predictions (on first advance)
 *   world_predict.c each sphere's next event (collision, wall, cell crossing)
 *   world_events.c  the event loop
 *   world_limited.c advancing to a time under an event budget (frames)
 *   world_big.c     the few spheres far larger than the rest, out of the grid
 *   world_driven.c  driven spheres: time-varying bounds, probing, resets
 *   world_driven_predict.c  when driven spheres' bounds meet
 *   world_driven_meet.c     what such a meeting does
 *   world_lists.c   neighbour lists with a skin (dense uniform scenes)
 *   world_cells.c   the spheres in the grid levels: links, cell crossings,
 *                   the lists of the cells around a sphere
 *   world_check.c   largest overlap now; invariants in validation builds
 *   world_reorder.c the spheres' records kept in spatial order (ids and
 *                   the slots that hold them)
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
 * - a sphere's pending event only moves later when the sphere itself
 *   predicts (being told of a partner's earlier collision moves it
 *   earlier), which is what lets a prediction leave a meeting to a
 *   partner whose event comes first (world_predict.c, scan_straight);
 * - a sphere's stored position is at its own time t; nothing touches a
 *   sphere that no event involves.
 */
#ifndef CAROM_WORLD_INTERNAL_H
#define CAROM_WORLD_INTERNAL_H

#include <stdint.h>

#include "carom/carom.h"
#include "box_tree.h"
#include "event_queue.h"
#include "grid.h"
#include "grid_levels.h"
#include "query_index.h"
#include "pair_set.h"

enum event_kind {
    EVENT_NONE = 0,
    EVENT_COLLISION = 1, /* partner: sphere index */
    EVENT_WALL = 2,      /* partner: 2*axis + (0 low, 1 high), PLANE_WALL + plane,
                            or SEGMENT_WALL + segment */
    EVENT_CELL = 3,      /* partner: 2*axis + (0 down, 1 up) */
    EVENT_RESCAN = 4,    /* a big sphere has moved a margin since it last
                            scanned its surroundings (world_big.c) */
    EVENT_RESET = 5,     /* a driven sphere's bound has grown to its limit
                            (world_driven.c) */
    EVENT_FLOOR = 6,     /* a driven sphere predicted lazily has reached the
                            lower bound of the meetings it did not compute:
                            it predicts that pair, or in full (world_driven.c) */
    EVENT_RELIST = 7     /* a sphere has moved the skin away from its list
                            centre, or (under shear, partner 1 + up) left
                            the grid along y: it makes its list again
                            (world_lists.c) */
};

#define SPHERE_NONE UINT32_MAX

/* A hint to start loading what will be read (or written) soon (no
 * effect on results). */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#define PREFETCH_FOR_WRITE(p) __builtin_prefetch(p, 1)
#else
#define PREFETCH(p) ((void)0)
#define PREFETCH_FOR_WRITE(p) ((void)0)
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
    uint8_t alive : 1;
    uint8_t falls : 1;  /* gravity acts on it (finite mass) */
    uint8_t big : 1;    /* kept out of the grid (world_big.c) */
    uint8_t driven : 1; /* moved by the application (world_driven.c) */
    uint8_t unchecked : 1; /* added while the world was not built: the next
                              build checks it (in the box, no overlap) */
    uint8_t level;      /* its grid level (grid_levels.h) */
    uint8_t species;    /* which pairs meet (world_species.c) */
} sphere_info;
_Static_assert(sizeof(sphere_info) == 32, "a cold record is half a cache line");

/* A driven sphere's time-varying bound (once any sphere is driven, every
 * sphere has one: a ballistic sphere's has accel 0 and t_reset INFINITY).
 * Its hot record holds the bound's centre, which moves in a straight line (x, v at time t, like a ballistic
 * sphere that does not fall); the bound's radius is
 * radius + accel (t - t0)^2 / 2, from the last time t0 it was probed,
 * until it has grown by driven_growth (then it is reset). The array is
 * 64-byte aligned. */
typedef struct driven_bound {
    double t0;
    double accel;
    double t_reset;    /* when it will have grown by driven_growth */
    double pair_floor; /* no meeting with a sphere other than its event's
                          partner comes before this (world_driven.c) */
} driven_bound;
_Static_assert(sizeof(driven_bound) == 32, "two bound records a cache line");

/* What a driven sphere's pair floor is made of, read only when the floor
 * is lowered or reached: the floor is the earliest meeting with partner
 * (SPHERE_NONE: not known whose), and next bounds the meetings with every
 * sphere but that one and the event's partner. Reaching a floor whose
 * partner is known then costs one pair's prediction, not a full one
 * (world_predict_at_floor). */
typedef struct floor_detail {
    double next;
    uint32_t partner;
    uint32_t unused;
} floor_detail;

/* A bound is reset when it has grown by the world's bound_growth, the
 * same for every sphere: BOUND_GROWTH_OF_GAP of the typical gap between
 * spheres, (box volume / N)^(1/dim) - 2 mean radius, kept between
 * BOUND_GROWTH_MIN and BOUND_GROWTH_MAX times the mean radius. More
 * growth means fewer resets but more bound meetings: what pays depends
 * on the room between spheres, not on a sphere's own size (a dilute gas
 * wants large bounds, a dense one small). Chosen by instruction counts on
 * seed 000's scenes (docs/performance-notes.md, sixth pass). Before the
 * first build, BOUND_GROWTH_UNBUILT of the sphere's radius. */
#define BOUND_GROWTH_OF_GAP 0.07
#define BOUND_GROWTH_MIN 0.05
#define BOUND_GROWTH_MAX 1.0
#define BOUND_GROWTH_UNBUILT 0.2

/* A sphere's pending event. Its time is in an array of its own
 * (carom_world.event_time, also the queue's keys): a prediction reads the
 * event times of the spheres it scans, and eight of them share a cache
 * line there. */
typedef struct sphere_event {
    uint32_t kind;
    uint32_t partner;
    uint32_t partner_counter;
    /* Not part of the event: the sphere's own counter, bumped at every
     * velocity change. It lives here because whoever reads a sphere's
     * counter (validating an event, predicting with it as the partner)
     * reads or writes its event too. */
    uint32_t counter;
} sphere_event;

/* A sphere's neighbour list (world_lists.c) starts in its own block of
 * LIST_BLOCK entries (one cache line), which holds a list of up to
 * LIST_BLOCK; a longer list continues in blocks of a shared pool: every
 * block but the last then holds LIST_BLOCK - 1 entries and, in its last
 * word, the pool index of the next block. At most LIST_MAX entries. */
#define LIST_BLOCK 16
#define LIST_MAX 255 /* counts are bytes */

/* Report-only mode (and sensing pairs, world_species.c): the pairs a
 * sphere was last reported with, each
 * remembered until the two have separated again (for the velocities they
 * had then): until that time a re-prediction of their meeting is the
 * contact already reported, whatever its last bits (frames, periodic
 * wraps and the two sides of a pair round the same time differently). A
 * pair is remembered by both spheres; when a sphere is in contact with
 * more than REPORTED_MAX others, the entry that expires first goes (a
 * repeat is then possible only within round-off of the contact). Pairs
 * with a driven sphere are kept in the world's lingering set instead. */
#define REPORTED_MAX 8
typedef struct reported_contact {
    uint32_t partner;         /* SPHERE_NONE: empty */
    uint32_t counter;         /* this sphere's counter at the report */
    uint32_t partner_counter; /* the partner's */
    double until;             /* separation time */
    double at;                /* the report's time */
} reported_contact;
typedef struct reported_contacts {
    reported_contact e[REPORTED_MAX];
} reported_contacts;

/* Spatial order (world_reorder.c). Sorting moves the spheres' records to
 * other slots, and every array indexed by sphere is indexed by slot; the
 * ids the application holds never change. Until the first sort that
 * moves anything, slot and id are the same and the maps are NULL. */
typedef struct reorder_watch {
    uint64_t window;  /* collisions a measurement spans; 0: never sorts itself */
    uint64_t seen;    /* collisions in the current window */
    uint64_t far;     /* of them, between slots far apart */
    double base;      /* share of far pairs right after the last sort; < 0: not measured */
    int due;          /* the event loop stops to sort */
} reorder_watch;

/* A fixed plane: spheres keep n . x >= d + radius (n unit length). */
/* How a contact responds (world_contact_laws.c): normal restitution e,
 * tangential restitution beta (-1: smooth) and Coulomb's mu. */
typedef struct contact_law {
    double restitution;
    double tangential_restitution;
    double friction;
} contact_law;

typedef struct world_plane {
    double n[3];
    double d;
} world_plane;

/* EVENT_WALL partners from PLANE_WALL on name plane (partner - PLANE_WALL);
 * below, a face of the box. */
#define PLANE_WALL 6u

/* A fixed segment (2D): spheres keep their centre at least their radius
 * from every point of it, on either side and around its ends. */
typedef struct world_segment {
    double a[3], b[3]; /* ends (z = 0) */
    double dir[3];     /* unit, from a to b */
    double n[3];       /* unit normal: dir turned left */
    double length;
    uint32_t given;    /* the index carom_world_add_segment gave it: its images
                          across periodic axes share it (world_segments.c) */
} world_segment;

/* EVENT_WALL partners from SEGMENT_WALL on name a segment (partner -
 * SEGMENT_WALL); planes stay below it. */
#define SEGMENT_WALL 0x40000000u

/* A fixed triangle (3D): spheres keep their centre at least their radius
 * from every point of it, on either side, around its edges and corners.
 * Edge k runs from corner k to corner k + 1 (mod 3). */
typedef struct world_triangle {
    double p[3][3];      /* corners */
    double n[3];         /* unit normal, (p1 - p0) x (p2 - p0) normalised */
    double dir[3][3];    /* edge k's unit direction */
    double inward[3][3]; /* n x dir[k]: in the plane, across edge k into the triangle */
    double length[3];    /* edge k's length */
    double centre[3];    /* the centroid, and the largest distance from it */
    double reach;        /* to a corner: a cheap first test */
    double lo[3], hi[3]; /* its bounding box */
    uint8_t shared;      /* bit k: edge k, bit 3 + k: corner k is a lower triangle's
                            (world_triangle_mesh.c) */
    uint32_t given;      /* the index carom_world_add_triangle gave it: its images
                            across periodic axes share it (world_triangles.c) */
} world_triangle;

/* EVENT_WALL partners from TRIANGLE_WALL on name a triangle (partner -
 * TRIANGLE_WALL); segments stay below it. */
#define TRIANGLE_WALL 0x60000000u

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
    double *event_time;   /* when each sphere's pending event comes: the queue's keys */
    reported_contacts *reported; /* report-only mode only */

    grid_levels levels;   /* the grid: one level, or a hierarchy */
    event_queue queue;
    int built;            /* grid and predictions exist */
    double grid_radius;   /* largest radius the grid allows */
    uint32_t *big;        /* spheres kept out of the grid (world_big.c) */
    size_t nbig;
    double big_margin;    /* how far a big sphere moves between scans */
    int has_driven;       /* some sphere is or was driven */
    driven_bound *bounds; /* per sphere, allocated once one is driven */
    floor_detail *floors; /* per sphere, with bounds */
    int bounds_broken;    /* validation builds: a probe found a driven sphere
                             outside its bound */
    double mean_radius;   /* of the spheres at the last build */
    double bound_growth;  /* driven spheres' (world_driven.c), at the last
                             build; 0 before */
    double level_reach[GRID_LEVELS_MAX]; /* largest reach at each level */
    carom_status callback_failed; /* a driver's probe or the contact
                             callback gave non-finite numbers, or memory
                             ran out: the event loop stops after this
                             event and returns this error */
    carom_contact *recorded; /* def.record_contacts: this advance's
                             contacts (world_contacts.c) */
    size_t recorded_count, recorded_room;
    int recorded_kept;    /* > 0: a call made of several advances (the heat
                             bath's) runs; it emptied the record once, and
                             its advances add to it */
    int contacts_linger;  /* contacts that the response cannot resolve
                             can happen (world_driven.c) */
    pair_set lingering;   /* the pairs with a driven sphere in such a
                             contact, by id (world_driven_meet.c) */
    pair_set sensed;      /* the sensing pairs in contact: reported as they
                             came to touch from outside, not yet parted
                             (world_events.c), by id */
    pair_set sense_placed; /* sensing pairs found overlapping where they
                             were placed, to be reported (world_sensing.c) */
    pair_set sense_parted; /* sensing pairs in contact moved apart, their
                             partings to be reported (world_sensing.c) */
    carom_contact *sense_ended; /* contacts ended without parting (a sphere
                             removed, a pair that stopped sensing), to be
                             reported with parting = 2 (world_sensing.c) */
    size_t sense_ended_count, sense_ended_room;

    /* Neighbour-list mode (world_lists.c); list_skin 0: cells. */
    double list_skin;     /* how far a sphere may move from its centre */
    float (*list_centre)[4]; /* centre, and the radius (as a float) */
    uint32_t *list_entry; /* a block of LIST_BLOCK entries per sphere:
                             partner << 5 | image */
    uint8_t *list_count;
    uint32_t (*list_more)[LIST_BLOCK]; /* blocks continuing longer lists */
    uint32_t list_more_used, list_more_room, list_more_free;
    double list_image[27][3]; /* the shifts the image codes name */
    int list_failed;      /* out of memory growing a list: the event loop
                             stops, and the next advance rebuilds */
    int lists_refused;    /* memory ran out once: cells from then on */

    /* Growing spheres (world_growth.c): the stored radii are the radii at
     * growth_base; at time t each is radius * (1 + growth_rate (t -
     * growth_base)). growth_rate 0: not growing. */
    double growth;        /* the rate asked, relative to the radii at growth_start */
    double growth_start;
    double growth_rate;   /* the same growth, relative to the stored radii */
    double growth_base;
    double regrow_time;   /* the grid's room for growth is used up: rebuild */

    world_plane *planes;  /* fixed planes (world_planes.c) */
    size_t nplanes, planes_room;
    world_segment *segments; /* fixed segments (world_segments.c) */
    size_t nsegments, segments_room; /* the segments and their images */
    uint32_t *segment_given;          /* given index -> where that segment (not an image) is */
    size_t nsegments_given, segments_given_room;
    box_tree segment_tree;            /* their boxes, for nsegments once indexed */
    world_triangle *triangles; /* fixed triangles and their images (world_triangles.c) */
    size_t ntriangles, triangles_room;
    uint32_t *triangle_given;  /* given index -> where that triangle (not an image) is */
    size_t ntriangles_given, triangles_given_room;
    box_tree triangle_tree; /* their boxes, for ntriangles once indexed */

    int64_t (*image)[3];  /* def.count_images: by id, the periodic faces
                             each sphere has crossed (world_images.c) */
    double (*spin)[3];    /* by id, the spheres' angular velocities, or NULL
                             while all are zero (world_spin.c) */
    double inertia_factor; /* I = inertia_factor m r^2 (def's, resolved) */

    /* Species that pass through each other (world_species.c): bit b of
     * pass_through[a], symmetric: the pairs set to pass through
     * (pass_set) and, in a world that responds, the pairs set to sense
     * each other (sense); species_filter: some bit of pass_through is
     * set; sensing: some pair senses in a world that responds. */
    uint32_t pass_through[CAROM_SPECIES_MAX];
    uint32_t pass_set[CAROM_SPECIES_MAX];
    uint32_t sense[CAROM_SPECIES_MAX];
    int species_filter;
    int sensing;
    /* Lees-Edwards shear (world_shear.c): 0, or the rate; shear_speed =
     * rate Ly, the speed of the image above; the offset at time t is
     * shear_base + shear_speed t (mod Lx); shear_wraps, so that the
     * count of its wraps (world_shear_wraps) goes on through changes. */
    double shear_rate, shear_speed, shear_base;
    int64_t shear_wraps;
    /* Contact laws by species (world_contact_laws.c): def's, and the
     * tables, NULL until a pair (a species) is set, then every entry;
     * whether some law in force is rough. */
    contact_law pair_law_default, wall_law_default;
    contact_law (*pair_law)[CAROM_SPECIES_MAX];
    contact_law *wall_law;
    int rough_pairs, rough_walls;

    query_index query;    /* the scene queries' grid (world_query_index.c) */
    uint64_t query_epoch; /* advanced whenever positions change other than
                             by time: spheres added, removed, moved or
                             reordered, growth set */

    uint32_t *id_of;      /* by slot: the id the application knows (or NULL) */
    uint32_t *slot_of;    /* by id: the slot holding it (or NULL) */
    reorder_watch reorder;

    /* The loading helper thread (world_helper.c): NULL until first used. */
    struct world_helper *helper;
    int helper_running;
    int helper_failed;    /* it could not be made: the loop runs alone */

    /* Inside the event loop or a driver's probe: a user's callback may be
     * running, and the calls that change the world refuse (world_busy). */
    int busy;
    /* Events since time last moved on (world_events.c: a loop that cannot
     * move it on stops with CAROM_ERR_STUCK). */
    uint64_t events_at_instant;

    carom_stats stats;
};

/* The cold record of the sphere whose hot record is s (needs a world w in
 * scope: INFO(s) is sphere_info_of(w, s)). */
static inline sphere_info *sphere_info_of(const carom_world *w, const sphere *s)
{
    return &w->info[s - w->spheres];
}
#define INFO(s) sphere_info_of(w, (s))
/* Whether the spheres in slots i and j meet at all: not when their
 * species pass through each other (world_species.c). */
static inline int spheres_meet(const carom_world *w, uint32_t i, uint32_t j)
{
    return !w->species_filter ||
           !((w->pass_through[w->info[i].species] >> w->info[j].species) & 1u);
}

/* Whether the spheres in slots i and j sense each other: they pass
 * through, and each contact is reported, and its end (world_species.c). */
static inline int spheres_sense(const carom_world *w, uint32_t i, uint32_t j)
{
    return w->sensing && ((w->sense[w->info[i].species] >> w->info[j].species) & 1u);
}

/* Whether the contacts of the spheres in slots i and j are found at all:
 * they meet, or sense each other. */
static inline int spheres_touch(const carom_world *w, uint32_t i, uint32_t j)
{
    return spheres_meet(w, i, j) || spheres_sense(w, i, j);
}

/* Whether the pair is timed at all: it meets or senses. */
static inline int spheres_interact(const carom_world *w, uint32_t i, uint32_t j)
{
    return spheres_meet(w, i, j) || spheres_sense(w, i, j);
}

/* The counter of the sphere whose hot record is s (see sphere_event). */
#define COUNTER(s) (w->events[(s) - w->spheres].counter)

/* How far sphere i's surface may reach from its centre: its radius, and
 * for a driven sphere the room its bound may grow by. It chooses the
 * sphere's grid level. */
static inline double driven_growth(const carom_world *w, uint32_t i)
{
    return w->bound_growth > 0.0 ? w->bound_growth
                                 : BOUND_GROWTH_UNBUILT * w->spheres[i].radius;
}

/* Growing spheres: the factor from the stored radii to the radii at t;
 * the room the grid is built with (GROWTH_ROOM of each radius, when the
 * radii have grown that much the world is built again). */
#define GROWTH_ROOM 0.1
static inline double growth_factor(const carom_world *w, double t)
{
    return 1.0 + w->growth_rate * (t - w->growth_base);
}

static inline double sphere_reach(const carom_world *w, uint32_t i)
{
    double room = w->growth_rate > 0.0 ? 1.0 + GROWTH_ROOM : 1.0;
    return w->spheres[i].radius * room + (w->info[i].driven ? driven_growth(w, i) : 0.0) +
           w->list_skin;
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

/* world_growth.c: growing spheres (carom_world_set_growth). */
/* Stored radii become the radii at the world's time. */
void world_growth_bake(carom_world *w);
/* At a build: the time the grid's room will be used up. */
void world_growth_built(carom_world *w);
/* The world has reached regrow_time: built again with room. */
carom_status world_growth_regrow(carom_world *w);
/* How fast the contact distance of spheres of stored radii summing to
 * radius_sum grows (0 when not growing). */
static inline double growth_speed(const carom_world *w, double radius_sum)
{
    return w->growth_rate * radius_sum;
}

/* world_planes.c: fixed planes. How far slot's surface is behind plane
 * p at the stored position (> 0: behind); and the earliest time >= now
 * at which the sphere, ballistic from its own time, moves into it. */
double world_plane_depth(const carom_world *w, uint32_t slot, const world_plane *p);
double world_plane_time(const carom_world *w, const sphere *s, const world_plane *p, double now);
/* Slot's stored position is on the free side of every plane (to a
 * relative 1e-10 of its radius); else CAROM_ERR_OUTSIDE_BOX naming both. */
carom_status world_planes_check(carom_world *w, uint32_t slot);
/* The size of the coordinates x (for the round-off of a distance to a
 * plane): the largest |x_k|. */
static inline double world_plane_scale(const double x[3])
{
    double a = fabs(x[0]), b = fabs(x[1]), c = fabs(x[2]);
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}
void world_planes_free(carom_world *w);

/* world_segments.c: fixed segments (2D). The earliest
 * time >= now at which sphere s (from its own state) meets segment g,
 * at its face or at an end; slot's stored position clear of every
 * segment (to a relative OVERLAP_TOLERANCE), else CAROM_ERR_OVERLAP
 * naming both; the point of g nearest x. */
double world_segment_time(const carom_world *w, const sphere *s, const world_segment *g,
                          double now);
carom_status world_segments_check(carom_world *w, uint32_t slot);
/* The segments' tree of boxes (segment_tree), built when the segments
 * changed: at each build, and by the first check or query after an add. */
carom_status world_segments_index(carom_world *w);
/* The earliest time >= now, and before `before`, at which ballistic sphere
 * s meets a stored segment (world_segment_time), and which (*which: the
 * first in storage order at a tie), or INFINITY: the segments whose boxes
 * it can reach by then, from the tree. */
double world_segments_time(const carom_world *w, const sphere *s, double now, double before,
                           uint32_t *which);
void world_segment_nearest(const world_segment *g, const double x[3], double q[3]);
/* The larger root of c0 + c1 tau + c2 tau^2 when, from c0 > 0, it dips
 * below zero and rises again (c2 > 0, c1 < 0), else INFINITY: when a
 * surface reaches a segment's far face after its centre passed the line
 * beyond an end. */
double world_segment_far_face_time(double c0, double c1, double c2);
void world_segments_free(carom_world *w);

/* world_triangles.c, world_triangle_time.c: fixed triangles (3D). The
 * earliest time >= now at which sphere s (from its own state) meets a
 * triangle, at a face, an edge or a corner, if before `before` (else
 * INFINITY), and which (*which); slot's stored position clear of every
 * triangle (to a relative 1e-10 of its radius), else CAROM_ERR_OVERLAP
 * naming both; the point of g nearest x. */
double world_triangles_time(const carom_world *w, const sphere *s, double now, double before,
                            uint32_t *which);
carom_status world_triangles_check(carom_world *w, uint32_t slot);
void world_triangle_nearest(const world_triangle *g, const double x[3], double q[3]);
/* The triangles' box tree for all of them (built again only after
 * triangles were added): CAROM_OK, or out of memory. World builds and
 * casts make it; predictions use it as it is. */
carom_status world_triangles_index(carom_world *w);
/* Marks the edges and corners each triangle shares with one of lower
 * index (world_triangle_mesh.c; world_triangles_index calls it). */
void world_triangles_mark_shared(carom_world *w);
/* Bits of world_triangle.shared. */
#define TRIANGLE_EDGE_SHARED(k) (1u << (k))
#define TRIANGLE_CORNER_SHARED(k) (8u << (k))
/* x's foot on the triangle's plane lies in the triangle (or on an edge). */
int world_triangle_over(const world_triangle *g, const double x[3]);
void world_triangles_free(carom_world *w);

/* Whether the world keeps spins: some contact law in force is rough
 * (world_contact_laws.c). */
int world_is_rough(const carom_world *w);
/* world_spin.c: spins by id (NULL while every spin is zero). */
int world_spin_reserve(carom_world *w, size_t capacity);
void world_spin_reset(carom_world *w, uint32_t id); /* added */

/* world_images.c: unwrapped positions (def.count_images). */
int world_images_reserve(carom_world *w, size_t capacity);
void world_images_reset(carom_world *w, uint32_t id); /* added or moved */
/* The stored position of the sphere in slot has moved by -n box lengths
 * along axis: its image moves by n. */
void world_note_wrap(carom_world *w, uint32_t slot, int axis, int64_t n);
/* Puts *x into [0, L) (a hair below a multiple of L goes to 0); returns
 * how many box lengths it was moved down by. */
int64_t world_wrap_coordinate(double *x, double L);
/* Wraps the stored position of the sphere in slot into the box along a
 * periodic axis, and notes the wrap. */
void world_wrap_into_box(carom_world *w, uint32_t slot, int axis);

/* Moves sphere id's cell coordinate one step along an axis of grid g.
 * Only a periodic axis lets a sphere leave the grid: the coordinate wraps
 * and the stored position moves by the axis length (the clock is not
 * advanced). */
static inline void cell_step(carom_world *w, uint32_t id, const grid *g, int axis, int up)
{
    sphere_info *s = &w->info[id];
    s->cc[axis] += up ? 1 : -1;
    if (s->cc[axis] == g->n[axis]) {
        s->cc[axis] = 0;
        w->spheres[id].x[axis] -= g->length[axis];
        world_note_wrap(w, id, axis, 1);
    } else if (s->cc[axis] < 0) {
        s->cc[axis] = g->n[axis] - 1;
        w->spheres[id].x[axis] += g->length[axis];
        world_note_wrap(w, id, axis, -1);
    }
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
    cell_unlink(w, id);
    cell_step(w, id, &w->levels.level[0], axis, up);
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
/* predicting: leave out the finer spheres of a sphere that scans them in
 * a region (world_cells_scans_region); checks of overlaps want them all. */
void world_neighbour_lists(const carom_world *w, uint32_t id, int predicting,
                           neighbour_lists *out);
/* Calls visit(w, id, j) for every sphere j that sphere id (placed in the
 * grid, or big) may overlap: those of the cells around it, across the
 * sheared boundary too, and the big ones (for a big sphere, every live
 * sphere); some j may come more than once. Stops at the first status
 * that is not CAROM_OK, and returns it. */
carom_status world_visit_near(carom_world *w, uint32_t id,
                              carom_status (*visit)(carom_world *w, uint32_t id, uint32_t j));
/* The spheres of every level within `reach` of x along every axis (their
 * centres; periodic images included), a batch of at most `max` at a time:
 * visit is called with the batch; shifts point into storage valid for the
 * call. For the few big spheres (world_big.c). */
typedef void (*sphere_batch_fn)(const carom_world *w, void *ctx, const uint32_t *ids,
                                const double *const *shifts, int n);
void world_cells_in_region(const carom_world *w, const double x[3], double reach,
                           sphere_batch_fn visit, void *ctx);
/* A sphere far above the finest level, with finer spheres around, scans
 * those in a region around it (world_cells.c), and again after moving
 * world_cells_region_margin (EVENT_RESCAN). */
int world_cells_scans_region(const carom_world *w, uint32_t id);
double world_cells_region_margin(const carom_world *w, uint32_t id);
/* The finer spheres within reach of x (its position now) of sphere id
 * while it stays within the margin of x. */
void world_cells_finer_in_region(const carom_world *w, uint32_t id, const double x[3],
                                 sphere_batch_fn visit, void *ctx);

/* A public call that changes the world made while it is busy (from
 * inside one of its callbacks): fails with CAROM_ERR_IN_CALLBACK. */
carom_status world_busy_failure(carom_world *w, const char *call);

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
/* Builds the grid (or lists) and predicts every event. The spheres
 * added since the world was last built (sphere_info.unchecked; at the
 * first build, all) are checked: inside the box, overlapping no other.
 * The others' states come from the world's own events and are not
 * checked again (a report-only world's spheres may overlap, a driven
 * sphere may have broken its bound). resorted: the world has just sorted
 * itself (world_reorder); otherwise a world that sorts itself sorts
 * first. */
carom_status world_build(carom_world *w, int resorted);
void world_unbuild(carom_world *w);
/* Puts sphere s into the built grid after checking it lies in the box and
 * overlaps no other sphere; on failure it stays out and the message names
 * the problem. */
carom_status world_place_sphere(carom_world *w, uint32_t s);
/* Checks sphere s, just added to a built world whose grid it does not fit
 * (the world is then built again at the next advance), the same way: in
 * the box, overlapping none of the spheres within its reach. */
carom_status world_check_unplaced(carom_world *w, uint32_t s);
/* Checks sphere s, placed in the built world, against the spheres it
 * meets within its reach, at the world's time, changing nothing (for a
 * change of species, world_species.c). */
carom_status world_check_placed(carom_world *w, uint32_t s);

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
/* Shift to add to xb to get the image of b nearest to xa (positions at
 * the world's time, through the sheared boundary too). */
void world_min_image_shift(const carom_world *w, const double xa[3], const double xb[3],
                           double shift[3]);
/* The separation d (from a sphere to an image of another) is the nearest
 * image's: the one a pair in contact touches through (an axis is at
 * least two contact distances long, so no other image can touch before
 * that contact has ended). Few cells along an axis, or a big sphere's
 * scan of its region, can show a scan a sphere through two images. */
static inline int world_is_nearest_image(const carom_world *w, const double d[3])
{
    for (int k = 0; k < w->def.dim; k++)
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC && fabs(d[k]) > 0.5 * w->def.box[k])
            return 0;
    return 1;
}

/* How deep, relative to their contact distance, a sensing pair not in
 * contact may overlap and still be touching (round-off): placed so
 * (world_sensing.c), or found so by a prediction (world_predict.c), it
 * comes in when it approaches, and not otherwise. */
#define SENSE_TOUCH_DEPTH 1e-9

/* world_shear.c (Lees-Edwards boundaries; w->shear_rate != 0). The
 * image above's displacement along x at time t, in [0, Lx). */
double world_shear_offset(const carom_world *w, double t);
/* How many times the offset has wrapped from Lx back to 0 (less those
 * from 0 up to Lx, at a negative rate) at time t: the offset plus this
 * times Lx grows continuously at shear_speed, through changes of rate
 * (0 when the shear starts) and of the offset (which jumps alone). The
 * unwrapped x of a sphere whose y image is iy is x + (ix + iy wraps) Lx
 * + iy offset, ix and iy as world_images.c stores them. */
int64_t world_shear_wraps(const carom_world *w, double t);
/* The shift to add to xb (positions at time t) to get the image of b
 * nearest to xa, across the sheared boundary too, and that image's
 * velocity offset along x (dvx may be NULL). */
void world_shear_image(const carom_world *w, double t, const double xa[3], const double xb[3],
                       double shift[3], double *dvx);
/* The velocity offset along x of the image of a sphere that shift (a
 * world_pair_shift or world_shear_image, or a plain periodic shift)
 * brings across the sheared boundary: its y part over Ly times the
 * shear speed (0 in a world at rest or within the box). */
static inline double world_shear_image_speed(const carom_world *w, const double shift[3])
{
    return w->shear_rate != 0.0 ? round(shift[1] / w->def.box[1]) * w->shear_speed : 0.0;
}
/* Sphere i's crossing of its cell's top (up) or bottom face along y
 * goes through the sheared boundary; world_shear_cross makes it. */
int world_shear_leaves(const carom_world *w, uint32_t i, int up);
void world_shear_cross(carom_world *w, uint32_t i, int up);
/* Wraps the stored y of slot into the box through the sheared boundary
 * (x and its velocity follow), and x into the box. */
void world_shear_wrap(carom_world *w, uint32_t slot);
/* With neighbour lists: sphere i's stored state goes through the top
 * (up) or bottom face, before it makes its list again. */
void world_shear_relist_through(carom_world *w, uint32_t i, int up);
/* A state at time t (v may be NULL) moved into the box: y through the
 * sheared boundary (x and its velocity follow), then x. */
void world_shear_into_box(const carom_world *w, double t, double x[3], double v[3]);
/* Calls visit for every sphere j in the cells across the sheared
 * boundary from sphere i's that may meet it by horizon (the world's
 * time: those overlapping now; of the opposite row, within one cell
 * along z, the cells along x whose moving images can reach i's cell by
 * then, or all): side +1, j's images above (i in the top row), -1 below;
 * zshift the periodic shift of j's cell along z. Both are taken to stay
 * in their cells until horizon (a crossing is an event). */
typedef void (*shear_visit_fn)(const carom_world *w, void *ctx, uint32_t i, uint32_t j,
                               int side, double zshift);
void world_shear_across(const carom_world *w, uint32_t i, double horizon, shear_visit_fn visit,
                        void *ctx);
/* Whether sphere i overlaps one across the boundary of slot below
 * `below` by more than `tolerance` of their contact distance: the worst,
 * and their distances. */
int world_shear_overlap_across(const carom_world *w, uint32_t i, uint32_t below,
                               double tolerance, uint32_t *with, double *dist, double *sigma);
/* The largest relative overlap of i with a sphere of higher slot across. */
double world_shear_max_overlap_across(const carom_world *w, uint32_t i);
/* What in the world stands in the way of shear (NULL: nothing); the
 * second, what the grid made at a build does. */
const char *world_shear_refusal(const carom_world *w);
const char *world_shear_grid_refusal(const carom_world *w);

/* world_predict.c: predict sphere s's next event at the current time,
 * store it and update the queue (and tell a partner with a later event). */
void world_predict(carom_world *w, uint32_t s);
/* Every alive sphere's first event, at a build (the queue empty, every
 * event time INFINITY). Without driven spheres each sphere's event is
 * its earliest as if no other had one pending, found in two parts
 * (world_split.c), and none is told to a partner: the same events on
 * one thread or two. */
void world_predict_first(carom_world *w);
/* For a driven sphere whose bound has just restarted without a contact:
 * its own events, its meeting with partner (SPHERE_NONE: none), and its
 * pair floor, instead of every neighbour (world_driven.c). *meeting: the
 * pair's next meeting if known (the partner predicted it), else NAN, and
 * then it is computed and left there for the partner. */
void world_predict_lazily(carom_world *w, uint32_t s, uint32_t partner, double *meeting);
/* A driven sphere has reached its pair floor: when the floor's partner is
 * known, its meeting with that sphere is predicted (with its own events)
 * and the floor moves up to the next; otherwise it predicts in full. */
void world_predict_at_floor(carom_world *w, uint32_t s);
/* Sphere s's event named partner, whose counter has moved since: a driven
 * sphere predicts that pair again (its floor bounds the others), any
 * other predicts in full. */
void world_predict_after_stale(carom_world *w, uint32_t s, uint32_t partner);
/* For a driven sphere that has just crossed into the next cell of a
 * single dense grid level: its own events, the spheres of the cells it
 * has newly as neighbours, and its pair floor for the others. Returns 0
 * (nothing done) where that does not apply: predict in full. */
int world_predict_after_crossing(carom_world *w, uint32_t s, int axis, int up);
/* Report-only mode: when spheres i and j (j seen through shift), in
 * contact now, will have separated again. */
double world_pair_separation_time(const carom_world *w, uint32_t i, uint32_t j,
                                  const double shift[3]);

/* world_split.c: a build's work in two parts, on two threads when the
 * world may use them; the same results either way (contract there). */
typedef void (*world_split_work)(carom_world *w, void *ctx, int part, uint32_t from,
                                 uint32_t to);
void world_split_run(carom_world *w, world_split_work work, void *ctx);
int world_may_use_two_cpus(void); /* the process may run on two CPUs or more */

/* world_lists.c: neighbour lists with a skin. */
int world_lists_wanted(const carom_world *w);    /* the scene's spheres allow it */
double world_lists_skin(const carom_world *w);
int world_lists_fit_grid(const carom_world *w);  /* the grid made allows it */
int world_lists_reserve(carom_world *w, size_t capacity);
void world_lists_free(carom_world *w);
/* Sets sphere i's list centre at its stored position, and its cell. */
void world_lists_set_centre(carom_world *w, uint32_t i);
void world_lists_build(carom_world *w);          /* every list, after linking */
/* For the build (world_lists_build.c): the spheres of every cell side by
 * side, cell c's at order[first[c]] .. order[first[c + 1] - 1], lowest
 * index first. */
typedef struct cell_ranges {
    uint32_t *first;
    uint32_t *order;
} cell_ranges;
/* A part of a split build writes in place only the lists of the spheres
 * [from, to), and only within their own blocks; the other entries wait
 * here, (list owner, entry) in the order made, and are added after. */
typedef struct list_deferral {
    uint32_t from, to;
    uint32_t (*entry)[2];
    size_t count, room;
    int failed; /* out of memory: entries were lost */
} list_deferral;
void world_lists_defer(list_deferral *d, uint32_t owner, uint32_t entry);
/* Sphere i joins the lists of the spheres within reach with index below
 * `below`, and they its list; the cells walked by ranges if not NULL,
 * the entries deferred as above if deferral is not NULL. */
void world_lists_gather(carom_world *w, uint32_t i, uint32_t below, const cell_ranges *ranges,
                        list_deferral *deferral);
void world_lists_add(carom_world *w, uint32_t i, uint32_t entry); /* into the pool if need be */
void world_lists_pool_clear(carom_world *w);
void world_lists_insert(carom_world *w, uint32_t i); /* a sphere placed later */
void world_lists_remove(carom_world *w, uint32_t i);
/* EVENT_RELIST: a new centre where sphere i is now, and a new list.
 * face: 0, or under shear 1 + up for a crossing of the grid's top (up)
 * or bottom face along y, through the sheared boundary. */
void world_lists_remake(carom_world *w, uint32_t i, uint32_t face);
/* When sphere s (state x, v now) will be list_skin away from its centre. */
double world_lists_relist_time(const carom_world *w, const sphere *s, const double x[3],
                               const double v[3], double now);
/* Sphere i's first block (for prefetching). */
static inline const uint32_t *world_list_of(const carom_world *w, uint32_t i)
{
    return &w->list_entry[(size_t)i * LIST_BLOCK];
}
/* Sphere i's list (w->list_count[i] entries) as one array: its own
 * block when the list fits there, else a copy in room (LIST_MAX). */
static inline const uint32_t *world_list_entries(const carom_world *w, uint32_t i,
                                                 uint32_t *room)
{
    const uint32_t *block = world_list_of(w, i);
    int left = w->list_count[i], n = 0;
    if (left <= LIST_BLOCK)
        return block;
    uint32_t *out = room;
    while (left > LIST_BLOCK) {
        for (int m = 0; m < LIST_BLOCK - 1; m++)
            out[n++] = block[m];
        left -= LIST_BLOCK - 1;
        block = w->list_more[block[LIST_BLOCK - 1]];
    }
    for (int m = 0; m < left; m++)
        out[n++] = block[m];
    return room;
}
#define LIST_IMAGE_BITS 5
#define LIST_PARTNER(e) ((e) >> LIST_IMAGE_BITS)
#define LIST_IMAGE(e) ((e) & 31u)
/* Starts loading what predicting sphere i will read (its list's spheres),
 * so that the loads overlap the work done before (a collision's response). */
static inline void world_prefetch_candidates(const carom_world *w, uint32_t i)
{
    if (!(w->list_skin > 0.0))
        return;
    const uint32_t *list = world_list_of(w, i);
    int n = w->list_count[i] < LIST_BLOCK ? w->list_count[i] : LIST_BLOCK - 1;
    for (int m = 0; m < n; m++)
        PREFETCH(&w->spheres[LIST_PARTNER(list[m])]);
    /* Asked for at the event's start too; asking again here pays (a
     * prefetch is dropped when too many loads are outstanding: without
     * this one, 1% slower at N = 10^6, docs/performance-notes.md). */
    PREFETCH(&w->list_centre[i]);
}
#ifdef CAROM_VALIDATE
int world_lists_valid(const carom_world *w);
#endif

/* world_driven.c */
/* Makes sphere id driven with the given bound (world.c checked the
 * arguments); allocates the bounds on first use. */
carom_status world_driven_add(carom_world *w, uint32_t id, double accel_bound);
/* Chooses bound_growth for the spheres now in the world (at a build). */
void world_driven_choose_growth(carom_world *w);
/* Sets how far driven sphere id's bound grows before it is reset. */
void world_driven_size_bound(carom_world *w, uint32_t id);
/* Probes driven sphere id now and starts its bound there (its counter
 * moves: events predicted with the old bound become stale); placed: it is
 * in the grid already, and moves to the cell of its new centre. Fails
 * (message set) if the probe gives non-finite numbers. */
carom_status world_driven_restart(carom_world *w, uint32_t id, int placed);
/* world_driven_meet.c: a report-only world lets spheres overlap where
 * they are added, and so do sensing pairs in any world. The pairs with a
 * driven sphere that overlap sphere id where the world places it (that
 * meet in a report-only world, that sense each other in one that
 * responds) are remembered as in contact, unreported: such a pair is
 * first reported when it meets again after separating, as a ballistic
 * pair is (whose prediction has no event while it overlaps), not at once
 * as a late contact. Fails only when memory runs out. */
carom_status world_driven_note_overlaps(carom_world *w, uint32_t id);
/* world_sensing.c: notes the sensing pairs sphere id overlaps where it is
 * placed, and (note_moved, after a move) its contacts it no longer
 * overlaps; the next processing of events reports them, before any
 * event. Fail only when memory runs out. */
carom_status world_sensing_note_overlaps(carom_world *w, uint32_t id);
carom_status world_sensing_note_moved(carom_world *w, uint32_t id);
/* The set of sensing pairs in contact (sensed) and its counts: begin puts
 * pair i-j in (counted in stats.sensed_contacts; out of memory: the
 * error, in callback_failed too, so the loop stops); end takes it out if
 * it is in (counted in stats.sensed_partings), and says whether it was. */
carom_status world_sensing_begin(carom_world *w, uint32_t i, uint32_t j);
int world_sensing_end(carom_world *w, uint32_t i, uint32_t j);
/* Contacts that end without parting, at a change the application makes
 * (a removal, a species or table change): room_to_end makes room for
 * ending every contact of sphere id (SPHERE_NONE: every contact), before
 * the change (fails only when memory runs out, and then nothing has
 * changed); end_unparted then ends, with the states now, those of id
 * (SPHERE_NONE: all) for which drop(w, a, b) (ids; NULL, only with an
 * id: all) holds,
 * each to be reported with parting = 2 at the next processing of events
 * (and counted in stats.sensed_partings then). */
carom_status world_sensing_room_to_end(carom_world *w, uint32_t id);
void world_sensing_end_unparted(carom_world *w, uint32_t id,
                                int (*drop)(const void *w, uint32_t a, uint32_t b));
/* Reports, before any event, the contacts ended without parting, the
 * partings of spheres moved apart and the contacts of pairs placed
 * overlapping (sense_ended, sense_parted, sense_placed), in that order. */
int world_sensing_pending(const carom_world *w);
void world_sensing_report_placed(carom_world *w);
/* Reports sensing pair i-j now: its parting if it is in contact, else
 * its contact, overlapping by depth where it was placed (world_events.c).
 * With a driven sphere (world_driven_meet.c; n the normal from i to j):
 * the contact of a pair placed overlapping, or the parting of one in
 * contact moved apart. */
void world_report_sensing(carom_world *w, uint32_t i, uint32_t j, double depth);
void world_driven_report_placed(carom_world *w, uint32_t i, uint32_t j, const double n[3],
                                double depth);
void world_driven_report_parted(carom_world *w, uint32_t i, uint32_t j, const double n[3]);
/* Whether a pair with a driven sphere (slots i and j) is remembered as in
 * contact once it touches (the world's lingering set) rather than
 * resolved: it senses, or meets and the response cannot move it. */
int world_driven_pair_lingers(const carom_world *w, uint32_t i, uint32_t j);
/* True position and velocity of sphere i at time t >= its last probe:
 * probed for a driven sphere (in the periodic image of its bound), else
 * extrapolated. */
void world_true_state(const carom_world *w, uint32_t i, double t, double x[3], double v[3]);
/* Prediction: the first time the bounds of a and b (b seen through shift)
 * meet, or, for a pair in contact that the response cannot separate, the
 * first time they may have come apart; xa, va: a's bound centre now. */
double world_driven_pair_time(const carom_world *w, const sphere *a, const double xa[3],
                              const double va[3], const sphere *b, const double shift[3],
                              double now);
/* Prediction of a driven sphere's own events: its bound touching a wall,
 * and its reset. */
double world_driven_wall_time(const carom_world *w, const sphere *s, const double x[3],
                              const double v[3], int wall, double now);
/* The earliest of those over every walled face, fixed plane and fixed
 * segment, before the reset (INFINITY if none), and which (*wall: a face,
 * PLANE_WALL + the plane's index or SEGMENT_WALL + the segment's). */
double world_driven_walls_time(const carom_world *w, const sphere *s, const double x[3],
                               const double v[3], double now, int *wall);
/* Its bound (centre x + v (t - now) now) touching fixed segment g
 * (world_driven_segments.c). */
double world_driven_segment_time(const carom_world *w, const sphere *s, const double x[3],
                                 const double v[3], const world_segment *g, double now);
/* Its bound touching fixed triangle g (world_driven_triangles.c). */
double world_driven_triangle_time(const carom_world *w, const sphere *s, const double x[3],
                                  const double v[3], const world_triangle *g, double now);
double world_driven_reset_time(const carom_world *w, const sphere *s);
/* Events: two bounds met (one of the spheres is driven), a bound met a
 * wall, a bound grew to its limit. */
void world_driven_collision(carom_world *w, uint32_t i, uint32_t j, double t);
void world_driven_wall(carom_world *w, uint32_t i, int wall, double t);
void world_driven_reset(carom_world *w, uint32_t i);
/* A driven sphere the response can move (its driver has a kick). */
static inline int driven_movable(const carom_world *w)
{
    return w->def.driver.kick != NULL;
}

/* A driven sphere in the grid that scans no region: its candidates are
 * its cells' spheres, so it may predict lazily (its pair floor bounding
 * the meetings not recomputed), and its own events are its bound's. */
static inline int driven_in_plain_grid(const carom_world *w, uint32_t i)
{
    return w->has_driven && w->info[i].driven && !w->info[i].big &&
           !world_cells_scans_region(w, i);
}

/* world_reorder.c */
static inline uint32_t world_id_of(const carom_world *w, uint32_t slot)
{
    return w->id_of ? w->id_of[slot] : slot;
}
static inline uint32_t world_slot_of(const carom_world *w, uint32_t id)
{
    return w->slot_of ? w->slot_of[id] : id;
}
/* Two slots this far apart or more count as far in the measure of order. */
#define REORDER_FAR_SLOTS 1024
void world_reorder_window_end(carom_world *w);
/* A collision of the spheres in slots i and j: the measure of how far
 * the order has decayed (a window at a time). */
static inline void world_reorder_note(carom_world *w, uint32_t i, uint32_t j)
{
    reorder_watch *r = &w->reorder;
    r->far += (i > j ? i - j : j - i) >= REORDER_FAR_SLOTS;
    if (++r->seen == r->window)
        world_reorder_window_end(w);
}
/* Sorts the spheres' records along a Morton curve of their positions now
 * and builds the world again (every sphere at the world's time, every
 * event predicted again). Needs the helper stopped. */
carom_status world_reorder(carom_world *w);
/* Room for the id maps (once they exist) up to capacity n. */
int world_reorder_reserve(carom_world *w, size_t old_capacity, size_t n);
/* At a build: sorts first if the world sorts itself (AUTO, large enough
 * and not driven), and then starts watching its order. */
carom_status world_reorder_at_build(carom_world *w);
void world_reorder_watch_start(carom_world *w);

/* world_events.c */
/* Shift to add to b's position to get its image in contact with a at t. */
void world_pair_shift(const carom_world *w, const sphere *a, const sphere *b, double t,
                      double shift[3]);
carom_status world_process_until(carom_world *w, double t_end, uint64_t max_events,
                                 uint64_t *processed);

/* world_limited.c */
/* carom_world_advance_to_limited without moving the spheres when it
 * arrives: the events up to t are processed (at most max_events) and, when
 * none is left before t (*reached = 1), the world's time is t while each
 * sphere stays at its own last event's time (as after
 * carom_world_step_events; its position at t is one world_advance_sphere
 * away). O(events), not O(N). */
carom_status world_process_to(carom_world *w, double t, uint64_t max_events,
                              uint64_t *processed, int *reached);

/* world_contacts.c */
/* Whether contacts are built at all: for a callback, or for the record. */
static inline int world_reports_contacts(const carom_world *w)
{
    return w->def.on_contact != NULL || w->def.record_contacts;
}
/* Gives c to the callback, then records it (def.record_contacts). Returns
 * 1 when a callback ran (it may have changed c's velocities), 0 when c is
 * as the caller made it. */
int world_report_contact(carom_world *w, carom_contact *c);
void world_contacts_clear(carom_world *w); /* a call that processes events starts */

/* Contact laws by species (world_contact_laws.c): of a contact of the
 * spheres in slots i and j, and of the sphere in slot i with a wall,
 * plane, segment or triangle. */
static inline const contact_law *world_pair_law(const carom_world *w, uint32_t i, uint32_t j)
{
    if (!w->pair_law)
        return &w->pair_law_default;
    return &w->pair_law[w->info[i].species][w->info[j].species];
}
static inline const contact_law *world_surface_law(const carom_world *w, uint32_t i)
{
    return w->wall_law ? &w->wall_law[w->info[i].species] : &w->wall_law_default;
}
void world_contact_laws_init(carom_world *w); /* def's laws: at creation */
void world_contact_laws_free(carom_world *w);

/* response.c */
/* depth: how far the two (or the sphere and the wall) already overlap
 * when a driven sphere broke its bound (0 otherwise), for the callback.
 * keep_apart: the pair (or the sphere and the wall) separates at least
 * at this speed, whatever the restitution (0 but for contacts of driven
 * spheres: world_driven_meet.c chooses it). */
void response_collide(carom_world *w, uint32_t i, uint32_t j, const double shift[3],
                      double depth, double keep_apart);
void response_wall(carom_world *w, uint32_t i, int wall, double depth, double keep_apart);
/* Sphere i meets plane p (depth and keep_apart as for a wall). */
void response_plane(carom_world *w, uint32_t i, uint32_t p, double depth, double keep_apart);
/* Sphere i meets segment g, along the line from the segment's nearest
 * point to its centre. */
void response_segment(carom_world *w, uint32_t i, uint32_t g, double depth, double keep_apart);
/* Sphere i meets triangle g, along the line from the triangle's nearest
 * point to its centre. */
void response_triangle(carom_world *w, uint32_t i, uint32_t g, double depth, double keep_apart);
/* response_rough.c: the tangential impulse of a rough contact, sphere i
 * with sphere j (unit normal n from i to j, inverse masses as the normal
 * impulse used them) or with a fixed surface (unit normal towards it). */
void response_rough_pair_apply(carom_world *w, uint32_t i, uint32_t j, const contact_law *law,
                               const double n[3], double ia, double ib, double normal_impulse);
void response_rough_surface_apply(carom_world *w, uint32_t i, const contact_law *law,
                                  const double towards[3], double normal_change);
/* Smooth worlds (beta -1, or no spins at all) pass without a call. The
 * normal is passed as a copy, so that the caller's own does not escape
 * (it would then be kept in memory, and the impulse's loops made twice
 * over in case it aliased the velocities). */
static inline void response_rough_pair(carom_world *w, uint32_t i, uint32_t j,
                                       const contact_law *law, const double n[3], double ia,
                                       double ib, double normal_impulse)
{
    if (w->spin && law->tangential_restitution != -1.0) {
        double normal[3] = {n[0], n[1], n[2]};
        response_rough_pair_apply(w, i, j, law, normal, ia, ib, normal_impulse);
    }
}
/* normal_change: how much the contact changed the sphere's normal speed. */
static inline void response_rough_surface(carom_world *w, uint32_t i, const contact_law *law,
                                          const double towards[3], double normal_change)
{
    if (w->spin && law->tangential_restitution != -1.0) {
        double normal[3] = {towards[0], towards[1], towards[2]};
        response_rough_surface_apply(w, i, law, normal, normal_change);
    }
}
/* The contact callback left finite numbers in the first n velocities of
 * c; if not, the world records an error naming the sphere (the event
 * loop stops after this event with it), and the caller keeps the
 * velocities the contact had before the callback. */
int response_callback_velocities_ok(carom_world *w, const carom_contact *c, int n);

#ifdef CAROM_VALIDATE
void world_validate(carom_world *w);
/* Every meeting of sphere i with a sphere of the neighbouring cells (one
 * dense level, either of them driven) comes no earlier than one of the
 * two spheres will look at that pair again: its event naming the other,
 * or its pair floor (the floor's partner), or the floor's next. */
void world_validate_driven_cover(carom_world *w, uint32_t i);
/* The same for a ballistic sphere in a world without gravity, with a
 * response and symmetric candidates (world_predict.c, scan_straight):
 * every meeting of sphere i with another (nearest image) comes no earlier
 * than the pending event of one of the two. O(N). */
void world_validate_ballistic_cover(const carom_world *w, uint32_t i);
#endif

#endif
