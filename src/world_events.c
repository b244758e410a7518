/* The event loop: pop the earliest pending event, drop it if stale (its
 * partner changed velocity since it was predicted: lazy invalidation by
 * counters), otherwise advance only the one or two spheres involved,
 * apply the response, and predict again for those spheres only. Nothing
 * here touches every sphere. */
#include <math.h>

#include "vec.h"
#include "world_helper.h"
#include "world_internal.h"

void world_pair_shift(const carom_world *w, const sphere *a, const sphere *b, double t,
                      double shift[3])
{
    if (w->shear_rate != 0.0) {
        /* The nearest image touches (world_shear.c). */
        double xa[3], va[3], xb[3], vb[3];
        world_sphere_at(w, a, t, xa, va);
        world_sphere_at(w, b, t, xb, vb);
        world_shear_image(w, t, xa, xb, shift, NULL);
        return;
    }
    if (INFO(a)->big || INFO(b)->big || INFO(a)->level != INFO(b)->level) {
        /* Not in the grid, or not at the same level: the nearest image is
         * the one in contact. */
        double xa[3], va[3], xb[3], vb[3];
        world_sphere_at(w, a, t, xa, va);
        world_sphere_at(w, b, t, xb, vb);
        world_min_image_shift(w, xa, xb, shift);
        return;
    }
    const grid *g = sphere_grid(w, (uint32_t)(a - w->spheres));
    for (int k = 0; k < 3; k++) {
        shift[k] = 0.0;
        if (!g->periodic[k])
            continue;
        double L = g->length[k];
        if (g->n[k] >= 3) {
            /* Neighbouring cells differ by at most 1 except across the
             * boundary. */
            int32_t d = INFO(b)->cc[k] - INFO(a)->cc[k];
            if (d > 1)
                shift[k] = -L;
            else if (d < -1)
                shift[k] = L;
        } else {
            /* Few cells: the image in contact is the nearest one (the axis
             * is at least two contact distances long). */
            double xa[3], va[3], xb[3], vb[3];
            world_sphere_at(w, a, t, xa, va);
            world_sphere_at(w, b, t, xb, vb);
            shift[k] = -L * round((xb[k] - xa[k]) / L);
        }
    }
}

/* Sphere i remembers its report with j until their separation: in the
 * slot of an earlier report with j, else in the slot that expires first
 * (empty, expired and stale ones first). */
static void remember_report(carom_world *w, uint32_t i, uint32_t j, double until)
{
    reported_contact *e = w->reported[i].e;
    const sphere *a = &w->spheres[i];
    int slot = -1;
    for (int k = 0; k < REPORTED_MAX && slot < 0; k++)
        if (e[k].partner == j)
            slot = k;
    if (slot < 0) {
        double first = INFINITY;
        for (int k = 0; k < REPORTED_MAX; k++) {
            int live = e[k].partner != SPHERE_NONE && e[k].until > w->time &&
                       e[k].counter == COUNTER(a) &&
                       e[k].partner_counter == w->events[e[k].partner].counter;
            double u = live ? e[k].until : -INFINITY;
            if (slot < 0 || u < first) {
                slot = k;
                first = u;
            }
        }
    }
    e[slot] = (reported_contact){j, COUNTER(a), w->events[j].counter, until, w->time};
}

/* A contact reported without a response: in a report-only world, or of
 * a sensing pair (counted apart from the collisions in a world that
 * responds; depth > 0: placed overlapping, world_sensing.c). A sensing
 * pair's contact puts it in the set of pairs in contact, and its next
 * report is its parting (memory for the set running out stops the loop
 * before anything is reported: the next advance takes the event again). */
static void report_contact(carom_world *w, uint32_t i, uint32_t j, double t, double depth)
{
    sphere *a = &w->spheres[i], *b = &w->spheres[j];
    int parting = 0;
    if (w->def.response == CAROM_RESPONSE_NONE) {
        w->stats.collisions++;
    } else {
        parting = world_sensing_end(w, i, j);
        if (!parting && world_sensing_begin(w, i, j) != CAROM_OK)
            return;
    }
    double shift[3];
    world_pair_shift(w, a, b, t, shift);
    if (world_reports_contacts(w)) {
        double xa[3], xb[3], d[3];
        carom_contact c = {0};
        c.kind = CAROM_CONTACT_SPHERE;
        c.time = t;
        c.i = world_id_of(w, i);
        c.j = world_id_of(w, j);
        c.wall = -1;
        c.impulse = 0.0;
        c.parting = parting;
        c.depth = depth;
        world_sphere_at(w, a, t, xa, c.velocity_after[0]);
        world_sphere_at(w, b, t, xb, c.velocity_after[1]);
        /* Across the sheared boundary, j's is its image's (as a
         * collision's). */
        double image_speed = world_shear_image_speed(w, shift);
        c.velocity_after[1][0] += image_speed;
        for (int k = 0; k < 3; k++)
            d[k] = xb[k] + shift[k] - xa[k];
        double len = sqrt(vec_dot(d, d));
        for (int k = 0; k < 3; k++)
            c.normal[k] = len > 0.0 ? d[k] / len : 0.0;
        double va[3], vb[3];
        vec_copy(va, c.velocity_after[0]);
        vec_copy(vb, c.velocity_after[1]);
        /* A callback that changes velocities starts new trajectories. */
        int taken = world_report_contact(w, &c) && response_callback_velocities_ok(w, &c, 2);
        for (int s = 0; s < 2 && taken; s++) {
            sphere *sp = s ? b : a;
            const double *before = s ? vb : va;
            if (before[0] != c.velocity_after[s][0] || before[1] != c.velocity_after[s][1] ||
                before[2] != c.velocity_after[s][2]) {
                world_advance_sphere(w, sp, t);
                for (int k = 0; k < w->def.dim; k++)
                    sp->v[k] = c.velocity_after[s][k];
                if (s)
                    sp->v[0] -= image_speed;
                COUNTER(sp)++;
            }
        }
    }
    if (!parting) {
        /* Remembered with the velocities the callback left. */
        double until = world_pair_separation_time(w, i, j, shift);
        remember_report(w, i, j, until);
        remember_report(w, j, i, until);
    }
    world_reorder_note(w, i, j);
    world_predict(w, i);
    world_predict(w, j);
}

/* (world_internal.h) */
void world_report_sensing(carom_world *w, uint32_t i, uint32_t j, double depth)
{
    report_contact(w, i, j, w->time, depth);
}

static void process_collision(carom_world *w, uint32_t i, uint32_t j, double t)
{
    if (w->def.response == CAROM_RESPONSE_NONE || spheres_sense(w, i, j)) {
        report_contact(w, i, j, t, 0.0);
        return;
    }
    world_prefetch_candidates(w, i);
    world_prefetch_candidates(w, j);
    sphere *a = &w->spheres[i], *b = &w->spheres[j];
    world_advance_sphere(w, a, t);
    world_advance_sphere(w, b, t);
    double shift[3];
    if (w->shear_rate != 0.0) {
        /* Across the sheared boundary: in the frame of b's image (both
         * are at t). */
        double dvx;
        world_shear_image(w, t, a->x, b->x, shift, &dvx);
        b->v[0] += dvx;
        response_collide(w, i, j, shift, 0.0, 0.0);
        b->v[0] -= dvx;
    } else {
        world_pair_shift(w, a, b, t, shift);
        response_collide(w, i, j, shift, 0.0, 0.0);
    }
    COUNTER(a)++;
    COUNTER(b)++;
    w->stats.collisions++;
    world_reorder_note(w, i, j);
    world_predict(w, i);
    world_predict(w, j);
}

static void process_wall(carom_world *w, uint32_t i, int wall, double t)
{
    world_advance_sphere(w, &w->spheres[i], t);
    if ((uint32_t)wall >= TRIANGLE_WALL)
        response_triangle(w, i, (uint32_t)wall - TRIANGLE_WALL, 0.0, 0.0);
    else if ((uint32_t)wall >= SEGMENT_WALL)
        response_segment(w, i, (uint32_t)wall - SEGMENT_WALL, 0.0, 0.0);
    else if ((uint32_t)wall >= PLANE_WALL)
        response_plane(w, i, (uint32_t)wall - PLANE_WALL, 0.0, 0.0);
    else
        response_wall(w, i, wall, 0.0, 0.0);
    w->events[i].counter++;
    w->stats.wall_hits++;
    world_predict(w, i);
}

static void process_cell_crossing(carom_world *w, uint32_t i, int face)
{
    /* A periodic axis wraps: the clock is not advanced, only the stored
     * position is moved by L. */
    if (w->shear_rate != 0.0 && face / 2 == 1 && world_shear_leaves(w, i, face % 2)) {
        world_shear_cross(w, i, face % 2);
        w->stats.cell_crossings++;
        world_predict(w, i);
        return;
    }
    cell_cross(w, i, face / 2, face % 2);
    w->stats.cell_crossings++;
    if (!world_predict_after_crossing(w, i, face / 2, face % 2))
        world_predict(w, i);
}

/* A sphere that scans a region (a big sphere, or a coarse one among
 * finer spheres, world_cells.c) has moved the region's margin: scan
 * again. A big sphere, out of the grid, also has its stored position kept
 * in the box on periodic axes (its clock is not advanced). */
static void process_rescan(carom_world *w, uint32_t i)
{
    sphere *s = &w->spheres[i];
    for (int k = 0; k < w->def.dim && INFO(s)->big; k++) {
        if (w->levels.level[0].periodic[k])
            world_wrap_into_box(w, i, k);
    }
    w->stats.cell_crossings++;
    world_predict(w, i);
}

/* Events at one instant beyond which the loop gives up: far more than
 * any real instant holds (a lattice of spheres all meeting at once is a
 * few events a sphere), reached in well under a minute. A sphere caught
 * between two spheres of infinite mass that close in on it bounces
 * between them at one instant without end: every contact separates it
 * from one of them (restitution_min_speed), and sends it into the other.
 * Squeezed more slowly, it bounces ever faster until the time between
 * contacts is below the resolution of the clock, and then the same. */
#define STUCK_EVENTS_PER_SPHERE 64
#define STUCK_EVENTS_MIN 1000000

static uint64_t stuck_limit(const carom_world *w)
{
    uint64_t by_size = STUCK_EVENTS_PER_SPHERE * (uint64_t)w->alive_count;
    return by_size > STUCK_EVENTS_MIN ? by_size : STUCK_EVENTS_MIN;
}

static carom_status process_events(carom_world *w, double t_end, uint64_t max_events,
                                   uint64_t *processed)
{
    uint64_t count = 0;
    w->callback_failed = CAROM_OK;
    while (count < max_events) {
        uint32_t i = event_queue_top(&w->queue);
        if (i == EVENT_QUEUE_ABSENT)
            break;
        double t = event_queue_top_time(&w->queue);
        if (t > t_end || t == INFINITY)
            break;
        if (t > w->time)
            w->events_at_instant = 0;
        else if (++w->events_at_instant > stuck_limit(w)) {
            if (processed)
                *processed = count;
            return world_fail(w, CAROM_ERR_STUCK,
                              "time cannot move on from t = %.17g: %llu events there (the "
                              "last of sphere %u); a sphere squeezed between spheres of "
                              "infinite mass that close in on it has no motion that keeps it "
                              "out of them",
                              t, (unsigned long long)w->events_at_instant,
                              (unsigned)world_id_of(w, i));
        }
        w->time = t;
        count++;
        w->stats.events++;
        if (w->helper_running)
            world_helper_publish(w);
        /* Start the loads of what this event will read, so that they
         * overlap instead of waiting one after the other. */
        PREFETCH(&w->spheres[i]);
        PREFETCH(&w->info[i]);
        if (w->list_skin > 0.0) {
            PREFETCH(world_list_of(w, i));
            PREFETCH(&w->list_count[i]);
            PREFETCH(&w->list_centre[i]);
        }
        if (w->has_driven) {
            PREFETCH(&w->bounds[i]);
            PREFETCH(&w->floors[i]);
        }
        /* And of what the next event will probably read: its loads then
         * overlap this event's work instead of waiting after it. */
        uint32_t next = event_queue_peek_second(&w->queue);
        if (next != EVENT_QUEUE_ABSENT) {
            PREFETCH(&w->events[next]);
            PREFETCH(&w->spheres[next]);
            if (w->list_skin > 0.0) {
                PREFETCH(world_list_of(w, next));
                PREFETCH(&w->list_count[next]);
                PREFETCH(&w->list_centre[next]);
            }
        }
        sphere_event ev = w->events[i];
        switch (ev.kind) {
        case EVENT_COLLISION: {
            PREFETCH(&w->spheres[ev.partner]);
            PREFETCH(&w->info[ev.partner]);
            if (w->has_driven) {
                PREFETCH(&w->bounds[ev.partner]);
                PREFETCH(&w->floors[ev.partner]);
            }
            if (w->list_skin > 0.0) {
                PREFETCH(world_list_of(w, ev.partner));
                PREFETCH(&w->list_count[ev.partner]);
                PREFETCH(&w->list_centre[ev.partner]);
            }
            PREFETCH(&w->queue.node[ev.partner]);
            const sphere *partner = &w->spheres[ev.partner];
            /* A removed sphere's counter moved when it was removed (and
             * no prediction names it since): the counter says it all. */
            if (COUNTER(partner) != ev.partner_counter) {
                w->stats.invalid_events++;
                world_predict_after_stale(w, i, ev.partner);
            } else if (w->has_driven && (w->info[i].driven || INFO(partner)->driven)) {
                world_driven_collision(w, i, ev.partner, t);
            } else {
                process_collision(w, i, ev.partner, t);
            }
            break;
        }
        case EVENT_WALL:
            if (w->info[i].driven)
                world_driven_wall(w, i, (int)ev.partner, t);
            else
                process_wall(w, i, (int)ev.partner, t);
            break;
        case EVENT_RESET:
            world_driven_reset(w, i);
            break;
        case EVENT_FLOOR:
            world_predict_at_floor(w, i);
            break;
        case EVENT_CELL:
            process_cell_crossing(w, i, (int)ev.partner);
            break;
        case EVENT_RESCAN:
            process_rescan(w, i);
            break;
        case EVENT_RELIST:
            world_lists_remake(w, i, ev.partner);
            w->stats.list_rebuilds++;
            world_predict(w, i);
            break;
        default:
            world_predict(w, i);
            break;
        }
        /* The probable next event's record came in during this one: start
         * loading what its partner's validation and prediction will read. */
        if (next != EVENT_QUEUE_ABSENT && w->events[next].kind == EVENT_COLLISION) {
            uint32_t p = w->events[next].partner;
            PREFETCH(&w->events[p]);
            PREFETCH(&w->spheres[p]);
            PREFETCH(&w->info[p]);
            if (w->list_skin > 0.0)
                PREFETCH(world_list_of(w, p));
        }
        if (w->callback_failed) {
            /* A driver or the contact callback gave non-finite numbers:
             * they were not taken (the event left the world as it was, or
             * as the built-in response made it); or memory ran out. Stop
             * here with the message. */
            carom_status st = w->callback_failed;
            w->callback_failed = CAROM_OK;
            if (processed)
                *processed = count;
            return st;
        }
        if (w->list_failed) {
            /* Out of memory for a longer neighbour list: that list is
             * incomplete, so the world is rebuilt, with cells, at the next
             * advance (the spheres' states are all valid). */
            w->list_failed = 0;
            w->lists_refused = 1;
            world_helper_stop(w);
            world_unbuild(w);
            if (processed)
                *processed = count;
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY,
                              "out of memory for a neighbour list (or one outgrew 255 "
                              "neighbours); cells are used from the next advance on");
        }
#ifdef CAROM_VALIDATE
        world_validate(w);
        world_validate_driven_cover(w, i);
        world_validate_ballistic_cover(w, i);
        if (ev.kind == EVENT_COLLISION) {
            world_validate_driven_cover(w, ev.partner);
            world_validate_ballistic_cover(w, ev.partner);
        }
#endif
        if (w->reorder.due)
            break; /* world_process_until sorts and goes on */
    }
    if (processed)
        *processed = count;
    return CAROM_OK;
}

carom_status world_process_until(carom_world *w, double t_end, uint64_t max_events,
                                 uint64_t *processed)
{
    uint64_t done = 0;
    carom_status st;
    w->busy++; /* the callbacks run in here */
    if (!w->recorded_kept)
        world_contacts_clear(w);
    for (;;) {
        uint64_t count = 0;
        if (world_sensing_pending(w)) {
            /* Sensing pairs placed overlapping: reported before any event
             * (world_sensing.c). */
            w->callback_failed = CAROM_OK;
            world_sensing_report_placed(w);
            st = w->callback_failed;
            w->callback_failed = CAROM_OK;
            if (st != CAROM_OK)
                break;
        }
        /* Growing spheres stop where the grid's room runs out. */
        double stop = w->regrow_time < t_end ? w->regrow_time : t_end;
        world_helper_start(w, stop, max_events - done);
        st = process_events(w, stop, max_events - done, &count);
        world_helper_stop(w);
        done += count;
        if (st != CAROM_OK)
            break;
        if (w->reorder.due) {
            st = world_reorder(w); /* between two events, at the last one's time */
            if (st != CAROM_OK)
                break;
            continue;
        }
        if (stop == t_end)
            break;
        /* (the top found first: the queue's time is its current bucket's) */
        uint32_t top = event_queue_top(&w->queue);
        if (top != EVENT_QUEUE_ABSENT && event_queue_top_time(&w->queue) <= stop)
            break; /* out of events to process before the stop */
        w->time = stop; /* no event before it is left */
        st = world_growth_regrow(w);
        if (st != CAROM_OK)
            break;
    }
    w->busy--;
    if (processed)
        *processed = done;
    return st;
}
