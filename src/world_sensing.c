/* Sensing pairs placed overlapping, moved apart, and ended by a change.
 *
 * Contract: a pair of spheres that sense each other (world_species.c) and
 * overlap, deeper than PLACED_DEPTH of their contact distance, where the
 * world places them (a build, an add, a move, a change of species), and
 * are not in contact already (the world's set sensed), is noted in
 * sense_placed. The next call that processes events (world_process_until)
 * reports each noted pair that still senses and overlaps before any
 * event: a contact at the world's time with its depth
 * (carom_contact.depth), impulse 0, after which the pair is in contact
 * until it parts, as one that came to touch from outside
 * (world_events.c; with a driven sphere, world_driven_meet.c). So every
 * sensing pair that overlaps is reported in, and out when it parts,
 * whether it came to touch or was put there: a game engine's trigger
 * tells of the bodies created inside it.
 *
 * A sphere moved (carom_world_set_position) keeps the contacts it still
 * overlaps; the others are noted in sense_parted, and their partings
 * reported at the next processing of events, before the contacts of
 * pairs placed overlapping. A removal, or a change after which a pair no
 * longer senses, ends its contacts there and then: each is kept in
 * sense_ended as the contact it will be reported as (parting = 2, with
 * the places and velocities of that instant: a removed sphere's are gone
 * afterwards), and reported first at the next processing of events. The
 * room for them is made before the change, so that running out of
 * memory refuses the change instead of losing a report.
 *
 * Within PLACED_DEPTH of touching, a pair is noted only if it
 * approaches: one that has just parted may still overlap by round-off,
 * and one that touches as it is placed, coming closer, may already
 * overlap by round-off in the predictions' terms, which then would not
 * report it (world_predict.c). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "world_internal.h"

#define PLACED_DEPTH SENSE_TOUCH_DEPTH

/* How deep the spheres in slots i and j overlap now (< 0: apart), the
 * unit normal from i to j (through the nearest image), whether they
 * approach, and their velocities (j's image's, across the sheared
 * boundary). */
static double overlap_and_velocities(const carom_world *w, uint32_t i, uint32_t j, double n[3],
                                     int *approaching, double vi[3], double vj[3])
{
    double xi[3], xj[3], shift[3], dv[3];
    world_true_state(w, i, w->time, xi, vi);
    world_true_state(w, j, w->time, xj, vj);
    world_min_image_shift(w, xi, xj, shift);
    vj[0] += world_shear_image_speed(w, shift);
    for (int k = 0; k < 3; k++) {
        n[k] = xj[k] + shift[k] - xi[k];
        dv[k] = vj[k] - vi[k];
    }
    *approaching = vec_dot(n, dv) < 0.0;
    double dist = sqrt(vec_dot(n, n));
    for (int k = 0; k < 3; k++)
        n[k] = dist > 0.0 ? n[k] / dist : (k == 0);
    return w->spheres[i].radius + w->spheres[j].radius - dist;
}

/* The same, without the velocities. */
static double overlap_now(const carom_world *w, uint32_t i, uint32_t j, double n[3],
                          int *approaching)
{
    double vi[3], vj[3];
    return overlap_and_velocities(w, i, j, n, approaching, vi, vj);
}

/* A pair that senses, not in contact, overlapping deeper than the
 * tolerance, or within it and approaching; *depth: how deep (0 if not). */
static int placed_overlapping(const carom_world *w, uint32_t i, uint32_t j, double n[3],
                              double *depth)
{
    if (!spheres_sense(w, i, j) ||
        pair_set_contains(&w->sensed, world_id_of(w, i), world_id_of(w, j)))
        return 0;
    int approaching;
    double d = overlap_now(w, i, j, n, &approaching);
    double tol = PLACED_DEPTH * (w->spheres[i].radius + w->spheres[j].radius);
    *depth = d > 0.0 ? d : 0.0;
    return d > tol || (d > -tol && approaching);
}

carom_status world_sensing_begin(carom_world *w, uint32_t i, uint32_t j)
{
    if (pair_set_insert(&w->sensed, world_id_of(w, i), world_id_of(w, j)) != 0)
        return w->callback_failed = world_fail(w, CAROM_ERR_OUT_OF_MEMORY,
                                               "out of memory for the sensing pairs in contact");
    w->stats.sensed_contacts++;
    return CAROM_OK;
}

int world_sensing_end(carom_world *w, uint32_t i, uint32_t j)
{
    uint32_t a = world_id_of(w, i), b = world_id_of(w, j);
    if (!pair_set_contains(&w->sensed, a, b))
        return 0;
    pair_set_remove(&w->sensed, a, b);
    w->stats.sensed_partings++;
    return 1;
}

static void count_pair(void *ctx, uint32_t a, uint32_t b)
{
    (void)a;
    (void)b;
    ++*(size_t *)ctx;
}

carom_status world_sensing_room_to_end(carom_world *w, uint32_t id)
{
    size_t n = 0;
    if (id == SPHERE_NONE)
        n = w->sensed.count;
    else
        pair_set_visit_with(&w->sensed, id, count_pair, &n);
    size_t need = w->sense_ended_count + n;
    if (need <= w->sense_ended_room)
        return CAROM_OK;
    size_t room = w->sense_ended_room ? w->sense_ended_room : 16;
    while (room < need)
        room *= 2;
    carom_contact *grown = room <= SIZE_MAX / sizeof *grown
                               ? realloc(w->sense_ended, room * sizeof *grown)
                               : NULL;
    if (!grown)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for sensing pairs");
    w->sense_ended = grown;
    w->sense_ended_room = room;
    return CAROM_OK;
}

typedef struct ending {
    carom_world *w;
    int (*drop)(const void *w, uint32_t a, uint32_t b);
} ending;

/* Pair a-b (ids; a the sphere changed, if one is) ends its contact now,
 * if drop says so: kept as the contact to report. */
static void end_if_dropped(void *ctx, uint32_t a, uint32_t b)
{
    ending *e = ctx;
    carom_world *w = e->w;
    if (e->drop && !e->drop(w, a, b))
        return;
    uint32_t i = world_slot_of(w, a), j = world_slot_of(w, b);
    carom_contact *c = &w->sense_ended[w->sense_ended_count++];
    *c = (carom_contact){0};
    c->kind = CAROM_CONTACT_SPHERE;
    c->time = w->time;
    c->i = a;
    c->j = b;
    c->wall = -1;
    c->parting = 2;
    int approaching;
    double depth = overlap_and_velocities(w, i, j, c->normal, &approaching,
                                          c->velocity_after[0], c->velocity_after[1]);
    c->depth = depth > 0.0 ? depth : 0.0;
}

void world_sensing_end_unparted(carom_world *w, uint32_t id,
                                int (*drop)(const void *w, uint32_t a, uint32_t b))
{
    ending e = {w, drop};
    if (id == SPHERE_NONE) {
        pair_set_visit(&w->sensed, end_if_dropped, &e);
        pair_set_remove_if(&w->sensed, drop, w);
    } else {
        pair_set_visit_with(&w->sensed, id, end_if_dropped, &e);
        pair_set_remove_with_if(&w->sensed, id, drop, w);
    }
}

static carom_status note_pair(carom_world *w, uint32_t i, uint32_t j)
{
    double n[3], depth;
    if (!placed_overlapping(w, i, j, n, &depth))
        return CAROM_OK;
    if (pair_set_insert(&w->sense_placed, world_id_of(w, i), world_id_of(w, j)) != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for sensing pairs");
    return CAROM_OK;
}

carom_status world_sensing_note_overlaps(carom_world *w, uint32_t id)
{
    if (!w->sensing)
        return CAROM_OK;
    return world_visit_near(w, id, note_pair);
}

static void note_parted(void *ctx, uint32_t a, uint32_t b)
{
    carom_world *w = ctx;
    double n[3];
    int approaching;
    uint32_t i = world_slot_of(w, a), j = world_slot_of(w, b);
    if (overlap_now(w, i, j, n, &approaching) <= 0.0 &&
        pair_set_insert(&w->sense_parted, a, b) != 0)
        w->callback_failed = CAROM_ERR_OUT_OF_MEMORY;
}

carom_status world_sensing_note_moved(carom_world *w, uint32_t i)
{
    w->callback_failed = CAROM_OK;
    pair_set_visit_with(&w->sensed, world_id_of(w, i), note_parted, w);
    carom_status st = w->callback_failed;
    w->callback_failed = CAROM_OK;
    return st == CAROM_OK ? CAROM_OK
                          : world_fail(w, st, "out of memory for sensing pairs");
}

static void report_parted(void *ctx, uint32_t a, uint32_t b)
{
    carom_world *w = ctx;
    if (w->callback_failed || a >= w->count || b >= w->count ||
        !pair_set_contains(&w->sensed, a, b))
        return;
    uint32_t i = world_slot_of(w, a), j = world_slot_of(w, b);
    double n[3];
    int approaching;
    if (overlap_now(w, i, j, n, &approaching) > 0.0)
        return; /* moved back into overlap since: still in contact */
    if (w->info[i].driven || w->info[j].driven)
        world_driven_report_parted(w, i, j, n);
    else
        world_report_sensing(w, i, j, 0.0); /* in contact: its parting */
}

static void report_placed(void *ctx, uint32_t a, uint32_t b)
{
    carom_world *w = ctx;
    if (w->callback_failed || a >= w->count || b >= w->count)
        return;
    uint32_t i = world_slot_of(w, a), j = world_slot_of(w, b);
    double n[3], depth;
    if (!w->info[i].alive || !w->info[j].alive || !placed_overlapping(w, i, j, n, &depth))
        return;
    if (w->info[i].driven || w->info[j].driven)
        world_driven_report_placed(w, i, j, n, depth);
    else
        world_report_sensing(w, i, j, depth);
}

int world_sensing_pending(const carom_world *w)
{
    return w->sense_ended_count || w->sense_parted.count || w->sense_placed.count;
}

/* The contacts ended without parting, as they were kept: a callback's
 * changes to their velocities are not taken (a removed sphere has none
 * to change; the application changed the world there, and sets
 * velocities itself). When recording runs out of memory the rest wait
 * for the next call. */
static void report_ended(carom_world *w)
{
    size_t k = 0;
    while (k < w->sense_ended_count && !w->callback_failed) {
        carom_contact c = w->sense_ended[k++];
        w->stats.sensed_partings++;
        world_report_contact(w, &c);
    }
    w->sense_ended_count -= k;
    if (w->sense_ended_count > 0) /* the rest, for the next call */
        memmove(w->sense_ended, w->sense_ended + k, w->sense_ended_count * sizeof *w->sense_ended);
}

void world_sensing_report_placed(carom_world *w)
{
    report_ended(w);
    pair_set_drain(&w->sense_parted, report_parted, w);
    pair_set_drain(&w->sense_placed, report_placed, w);
}
