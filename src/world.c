/* The world: creation, adding and removing spheres, queries and
 * statistics. The event loop itself is in world_events.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "world_helper.h"
#include "world_internal.h"

carom_world_def carom_world_default_def(void)
{
    carom_world_def def;
    memset(&def, 0, sizeof def);
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = 10.0;
        def.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    def.restitution = 1.0;
    def.wall_restitution = 1.0;
    def.restitution_min_speed = 1e-6;
    def.tangential_restitution = -1.0;
    def.wall_tangential_restitution = -1.0;
    def.friction = INFINITY;
    def.wall_friction = INFINITY;
    def.response = CAROM_RESPONSE_ELASTIC;
    return def;
}

carom_sphere_def carom_sphere_default_def(void)
{
    carom_sphere_def def;
    memset(&def, 0, sizeof def);
    def.radius = 0.5;
    def.mass = 1.0;
    return def;
}

carom_status world_fail(carom_world *w, carom_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->error, sizeof w->error, fmt, ap);
    va_end(ap);
    return status;
}

/* The hot records and the bound records live in 64-byte aligned arrays
 * (whole cache lines), which realloc cannot keep aligned: grow by copying
 * the `used` records of `size` bytes. NULL (old kept) if out of memory. */
static void *grow_aligned(void *old, size_t used, size_t cap, size_t size)
{
    void *p = aligned_alloc(64, cap * size);
    if (p && old)
        memcpy(p, old, used * size);
    if (p)
        free(old);
    return p;
}

static carom_status reserve(carom_world *w, size_t n)
{
    if (n <= w->capacity)
        return CAROM_OK;
    world_helper_stop(w); /* it reads the arrays about to move */
    size_t cap = w->capacity ? w->capacity : 64;
    while (cap < n)
        cap *= 2;
    if (cap > (size_t)UINT32_MAX - 1)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "too many spheres");
    sphere *s = grow_aligned(w->spheres, w->count, cap, sizeof *s);
    if (!s)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    w->spheres = s;
    sphere_info *info = realloc(w->info, cap * sizeof *info);
    if (!info)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    w->info = info;
    uint32_t *next = realloc(w->cell_next, cap * sizeof *next);
    if (!next)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    w->cell_next = next;
    sphere_event *ev = realloc(w->events, cap * sizeof *ev);
    if (!ev)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    w->events = ev;
    double *et = realloc(w->event_time, cap * sizeof *et);
    if (!et)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    w->event_time = et;
    event_queue_set_keys(&w->queue, et, sizeof *et); /* the queue's keys */
    if (w->bounds) {
        driven_bound *b = grow_aligned(w->bounds, w->count, cap, sizeof *b);
        if (!b)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
        w->bounds = b;
        floor_detail *f = realloc(w->floors, cap * sizeof *f);
        if (!f)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
        w->floors = f;
    }
    if (w->def.response == CAROM_RESPONSE_NONE || w->sensing || w->reported) {
        reported_contacts *r = realloc(w->reported, cap * sizeof *r);
        if (!r)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
        w->reported = r;
    }
    if (world_images_reserve(w, cap) != 0 || world_spin_reserve(w, cap) != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    if (w->list_entry && world_lists_reserve(w, cap) != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    if (event_queue_reserve(&w->queue, cap) != 0 ||
        world_reorder_reserve(w, w->capacity, cap) != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    w->capacity = cap;
    return CAROM_OK;
}

static carom_world *create_failed(carom_error *error, carom_status status, const char *msg)
{
    if (error) {
        error->status = status;
        snprintf(error->message, sizeof error->message, "%s", msg);
    }
    return NULL;
}

static int all_finite(const double *x, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

carom_world *carom_world_create(const carom_world_def *def, carom_error *error)
{
    char msg[CAROM_ERROR_MESSAGE_SIZE];
    if (!def)
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, "world definition is NULL");
    if (def->dim != 2 && def->dim != 3) {
        snprintf(msg, sizeof msg, "dim must be 2 or 3, not %d", def->dim);
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, msg);
    }
    for (int k = 0; k < def->dim; k++) {
        if (!(isfinite(def->box[k]) && def->box[k] > 0.0)) {
            snprintf(msg, sizeof msg, "box length along axis %d must be positive and finite, not %g",
                     k, def->box[k]);
            return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, msg);
        }
        if (def->boundary[k] != CAROM_BOUNDARY_PERIODIC && def->boundary[k] != CAROM_BOUNDARY_WALLS)
            return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, "unknown boundary kind");
    }
    if (!all_finite(def->gravity, def->dim))
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, "gravity must be finite");
    if (!(def->restitution >= 0.0 && def->restitution <= 1.0) ||
        !(def->wall_restitution >= 0.0 && def->wall_restitution <= 1.0))
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, "restitution must be in [0, 1]");
    if (!(def->restitution_min_speed > 0.0 && isfinite(def->restitution_min_speed)))
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT,
                             "restitution_min_speed must be positive and finite");
    if (!(def->tangential_restitution >= -1.0 && def->tangential_restitution <= 1.0) ||
        !(def->wall_tangential_restitution >= -1.0 && def->wall_tangential_restitution <= 1.0)) {
        snprintf(msg, sizeof msg,
                 "tangential_restitution (%g) and wall_tangential_restitution (%g) must be in "
                 "[-1, 1] (-1: smooth)",
                 def->tangential_restitution, def->wall_tangential_restitution);
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, msg);
    }
    if (!(def->friction >= 0.0) || !(def->wall_friction >= 0.0)) {
        snprintf(msg, sizeof msg,
                 "friction (%g) and wall_friction (%g) must be at least 0 (INFINITY: no limit)",
                 def->friction, def->wall_friction);
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, msg);
    }
    if (!(def->inertia_factor >= 0.0 && def->inertia_factor <= 1.0)) {
        snprintf(msg, sizeof msg,
                 "inertia_factor must be in (0, 1] (0: a solid sphere or disk), not %g",
                 def->inertia_factor);
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, msg);
    }
    if (def->response != CAROM_RESPONSE_ELASTIC && def->response != CAROM_RESPONSE_NONE)
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT, "unknown response kind");
    if (def->neighbours != CAROM_NEIGHBOURS_AUTO && def->neighbours != CAROM_NEIGHBOURS_CELLS &&
        def->neighbours != CAROM_NEIGHBOURS_LISTS)
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT,
                             "unknown neighbours kind (CAROM_NEIGHBOURS_AUTO, _CELLS or _LISTS)");
    if (def->prefetch != CAROM_PREFETCH_AUTO && def->prefetch != CAROM_PREFETCH_OFF &&
        def->prefetch != CAROM_PREFETCH_ON)
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT,
                             "unknown prefetch setting (CAROM_PREFETCH_AUTO, _OFF or _ON)");
    if (def->reorder != CAROM_REORDER_AUTO && def->reorder != CAROM_REORDER_OFF)
        return create_failed(error, CAROM_ERR_INVALID_ARGUMENT,
                             "unknown reorder setting (CAROM_REORDER_AUTO or _OFF)");

    carom_world *w = calloc(1, sizeof *w);
    if (!w)
        return create_failed(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory creating the world");
    w->def = *def;
    world_contact_laws_init(w);
    for (int k = 0; k < 3; k++)
        w->gravity[k] = k < def->dim ? def->gravity[k] : 0.0;
    w->inertia_factor = def->inertia_factor > 0.0 ? def->inertia_factor
                        : def->dim == 2             ? 0.5
                                                    : 0.4;
    w->has_gravity = w->gravity[0] != 0.0 || w->gravity[1] != 0.0 || w->gravity[2] != 0.0;
    if (def->dim == 2) {
        w->def.box[2] = 1.0;
        w->def.boundary[2] = CAROM_BOUNDARY_PERIODIC;
    }
    if (event_queue_init(&w->queue, 0) != 0) {
        free(w);
        return create_failed(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory creating the world");
    }
    if (def->capacity_hint) {
        /* Only a hint: failure here shows up again when spheres are added. */
        reserve(w, def->capacity_hint);
        w->error[0] = '\0';
    }
    w->stats.max_overlap = 0.0;
    w->regrow_time = INFINITY;
    return w;
}

void carom_world_free(carom_world *w)
{
    if (!w)
        return;
    world_helper_free(w);
    world_unbuild(w);
    event_queue_free(&w->queue);
    free(w->spheres);
    free(w->info);
    free(w->big);
    free(w->cell_next);
    free(w->events);
    free(w->event_time);
    free(w->reported);
    free(w->recorded);
    world_planes_free(w);
    world_segments_free(w);
    world_triangles_free(w);
    query_index_free(&w->query);
    pair_set_free(&w->lingering);
    pair_set_free(&w->sensed);
    pair_set_free(&w->sense_placed);
    pair_set_free(&w->sense_parted);
    free(w->sense_ended);
    free(w->bounds);
    free(w->floors);
    free(w->id_of);
    free(w->slot_of);
    free(w->image);
    free(w->spin);
    world_contact_laws_free(w);
    free(w);
}

const char *carom_world_error_message(const carom_world *w)
{
    return w ? w->error : "no world";
}

carom_status world_busy_failure(carom_world *w, const char *call)
{
    return world_fail(w, CAROM_ERR_IN_CALLBACK,
                      "%s called from inside one of the world's callbacks (a contact, or the "
                      "driver's probe or kick), which must not change the world: change a "
                      "contact's velocity_after, and the rest after the advance returns",
                      call);
}

/* The start of a public call that changes the world's spheres: refused
 * inside a callback; a changed world may move on from an instant it was
 * stuck at. */
static carom_status begin_change(carom_world *w, const char *call)
{
    if (w->busy)
        return world_busy_failure(w, call);
    w->events_at_instant = 0;
    w->query_epoch++; /* positions may change: the queries' index goes */
    return CAROM_OK;
}

carom_status carom_world_add_sphere(carom_world *w, const carom_sphere_def *def,
                                    carom_sphere_id *id_out)
{
    carom_status begun = begin_change(w, "carom_world_add_sphere");
    if (begun != CAROM_OK)
        return begun;
    if (!def)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "sphere definition is NULL");
    size_t id = w->count;
    if (def->driven) {
        if (w->growth_rate > 0.0)
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "sphere %zu is driven, but the world's spheres grow "
                              "(carom_world_set_growth): stop the growth first",
                              id);
        if (!w->def.driver.probe)
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "sphere %zu is driven but the world has no driver probe", id);
        if (!(isfinite(def->accel_bound) && def->accel_bound >= 0.0))
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "sphere %zu: accel_bound must be finite and >= 0, not %g", id,
                              def->accel_bound);
    } else if (!all_finite(def->position, w->def.dim) || !all_finite(def->velocity, w->def.dim))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %zu: position and velocity must be finite numbers", id);
    if (!(isfinite(def->radius) && def->radius > 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %zu: radius must be positive and finite, not %g", id, def->radius);
    if (!(def->mass > 0.0)) /* INFINITY allowed, NaN not */
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %zu: mass must be positive (or infinite), not %g", id, def->mass);
    if (def->species >= CAROM_SPECIES_MAX)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %zu: species must be below %d, not %u", id, CAROM_SPECIES_MAX,
                          (unsigned)def->species);
    carom_status st = reserve(w, id + 1);
    if (st != CAROM_OK)
        return st;
    sphere *s = &w->spheres[id];
    memset(s, 0, sizeof *s);
    memset(INFO(s), 0, sizeof *INFO(s));
    for (int k = 0; k < 3; k++) {
        s->x[k] = k < w->def.dim ? def->position[k] : 0.0;
        s->v[k] = k < w->def.dim ? def->velocity[k] : 0.0;
    }
    s->t = w->time;
    s->radius = def->radius;
    world_images_reset(w, (uint32_t)id);
    world_spin_reset(w, (uint32_t)id);
    INFO(s)->inv_mass = isinf(def->mass) ? 0.0 : 1.0 / def->mass;
    INFO(s)->falls = INFO(s)->inv_mass > 0.0;
    INFO(s)->alive = 1;
    INFO(s)->species = (uint8_t)def->species;
    INFO(s)->unchecked = 1; /* until placed in a built world */
    w->cell_next[id] = INFO(s)->cell_prev = SPHERE_NONE;
    w->events[id].kind = EVENT_NONE;
    w->events[id].counter = 0;
    w->event_time[id] = INFINITY;
    if (w->reported) {
        for (int k = 0; k < REPORTED_MAX; k++) {
            w->reported[id].e[k].partner = SPHERE_NONE;
            w->reported[id].e[k].until = -INFINITY;
            w->reported[id].e[k].at = -INFINITY;
        }
    }
    if (w->bounds) { /* a ballistic sphere's bound is itself */
        w->bounds[id] = (driven_bound){0.0, 0.0, INFINITY, INFINITY};
        w->floors[id] = (floor_detail){INFINITY, SPHERE_NONE, 0};
    }
    if (def->driven) {
        st = world_driven_add(w, (uint32_t)id, def->accel_bound);
        if (st != CAROM_OK)
            return st;
    }
    if (w->growth_rate > 0.0) {
        /* Growing: its radius now, kept as of the stored radii's time;
         * the next advance builds the world again and checks it. */
        s->radius = def->radius / growth_factor(w, w->time);
        world_unbuild(w);
    }
    w->count++;
    w->alive_count++;
    if (w->built && INFO(s)->driven &&
        world_driven_restart(w, (uint32_t)id, 0) != CAROM_OK) { /* placed below */
        w->count--;
        w->alive_count--;
        return CAROM_ERR_INVALID_ARGUMENT;
    }
    if (w->built) {
        /* Too large for the grid, or driven in a world of neighbour lists
         * (which leave driven spheres to cells): checked now, and the
         * world is rebuilt at the next advance (which checks only the
         * spheres added while it is not built: the others' states come
         * from the world's own events). */
        if (sphere_reach(w, (uint32_t)id) > w->grid_radius ||
            (w->list_skin > 0.0 && INFO(s)->driven)) {
            st = world_check_unplaced(w, (uint32_t)id);
            if (st != CAROM_OK) {
                w->count--;
                w->alive_count--;
                return st;
            }
            INFO(s)->unchecked = 0;
            world_unbuild(w);
        } else {
            st = world_place_sphere(w, (uint32_t)id);
            if (st != CAROM_OK) {
                w->count--;
                w->alive_count--;
                return st;
            }
            world_predict(w, (uint32_t)id);
        }
    }
    if (id_out)
        *id_out = (carom_sphere_id)id;
    return CAROM_OK;
}

static int exists(const carom_world *w, carom_sphere_id id)
{
    return id < w->count && w->info[world_slot_of(w, id)].alive;
}

/* The slot holding live sphere id (world_reorder.c), or a failure. */
static carom_status slot_for(carom_world *w, carom_sphere_id id, uint32_t *slot)
{
    if (!exists(w, id))
        return world_fail(w, CAROM_ERR_NO_SUCH_SPHERE, "no sphere with id %u", (unsigned)id);
    *slot = world_slot_of(w, id);
    return CAROM_OK;
}

/* begin_change for a call on live sphere id, whose slot it gives. */
static carom_status begin_sphere_change(carom_world *w, const char *call, carom_sphere_id id,
                                        uint32_t *slot)
{
    carom_status begun = begin_change(w, call);
    return begun != CAROM_OK ? begun : slot_for(w, id, slot);
}

carom_status carom_world_remove_sphere(carom_world *w, carom_sphere_id id)
{
    uint32_t i = 0;
    carom_status st = begin_sphere_change(w, "carom_world_remove_sphere", id, &i);
    if (st != CAROM_OK)
        return st;
    /* Its sensing contacts end here, reported at the next advance. */
    st = world_sensing_room_to_end(w, id);
    if (st != CAROM_OK)
        return st;
    world_sensing_end_unparted(w, id, NULL);
    sphere *s = &w->spheres[i];
    if (w->built) {
        if (INFO(s)->big)
            world_big_remove(w, i);
        else
            cell_unlink(w, i);
        if (w->list_skin > 0.0)
            world_lists_remove(w, i);
        event_queue_remove(&w->queue, i);
    }
    INFO(s)->alive = 0;
    COUNTER(s)++; /* events of others that name it become stale */
    w->alive_count--;
    pair_set_remove_all_with(&w->lingering, id);
    pair_set_remove_all_with(&w->sense_placed, id);
    pair_set_remove_all_with(&w->sense_parted, id);
    return CAROM_OK;
}

carom_status carom_world_set_velocity(carom_world *w, carom_sphere_id id, const double velocity[3])
{
    uint32_t i = 0;
    carom_status st = begin_sphere_change(w, "carom_world_set_velocity", id, &i);
    if (st != CAROM_OK)
        return st;
    if (!velocity || !all_finite(velocity, w->def.dim))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %u: velocity must be finite numbers", (unsigned)id);
    sphere *s = &w->spheres[i];
    if (INFO(s)->driven)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %u is driven: its velocity is the application's", (unsigned)id);
    world_advance_sphere(w, s, w->time);
    for (int k = 0; k < w->def.dim; k++)
        s->v[k] = velocity[k];
    COUNTER(s)++;
    if (w->built)
        world_predict(w, i);
    return CAROM_OK;
}

/* A sphere taken out of the grid (and lists and queue) is placed again at
 * its new position, checked as a sphere added after the build is; if it
 * fails there, it goes back where it was. A big sphere (world_big.c) is
 * checked in place, then the world is built again (O(N)). */
carom_status carom_world_set_position(carom_world *w, carom_sphere_id id, const double position[3])
{
    uint32_t i = 0;
    carom_status st = begin_sphere_change(w, "carom_world_set_position", id, &i);
    if (st != CAROM_OK)
        return st;
    if (!position || !all_finite(position, w->def.dim))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %u: position must be finite numbers", (unsigned)id);
    sphere *s = &w->spheres[i];
    if (INFO(s)->driven)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %u is driven: its position is the application's (after a "
                          "jump, call carom_world_reprobe_sphere)",
                          (unsigned)id);
    if (w->growth_rate > 0.0)
        world_unbuild(w); /* growing: checked by the next advance, which builds again */
    world_advance_sphere(w, s, w->time);
    double old[3];
    vec_copy(old, s->x);
    int64_t old_image[3] = {0, 0, 0};
    if (w->image)
        memcpy(old_image, w->image[id], sizeof old_image);
    for (int k = 0; k < w->def.dim; k++)
        s->x[k] = position[k];
    world_images_reset(w, id);
    if (!w->built) {
        INFO(s)->unchecked = 1; /* checked by the next advance */
        return world_sensing_note_moved(w, i);
    }
    if (INFO(s)->big) {
        st = world_check_unplaced(w, i);
        if (st != CAROM_OK) {
            vec_copy(s->x, old);
            if (w->image)
                memcpy(w->image[id], old_image, sizeof old_image);
            return st;
        }
        /* Every event is predicted again, and a large world may sort its
         * records (slot i may then hold another sphere): nothing below. */
        pair_set_remove_all_with(&w->lingering, id);
        st = world_sensing_note_moved(w, i);
        if (st != CAROM_OK)
            return st;
        world_unbuild(w);
        return world_build(w, 0); /* fails only for memory: all was checked */
    }
    cell_unlink(w, i);
    if (w->list_skin > 0.0)
        world_lists_remove(w, i);
    event_queue_remove(&w->queue, i);
    /* Its lingering pairs are those it overlaps where it is placed
     * (world_driven_note_overlaps). */
    pair_set_remove_all_with(&w->lingering, id);
    st = world_place_sphere(w, i);
    if (st != CAROM_OK) { /* back where it was, with the message of the failure */
        char message[CAROM_ERROR_MESSAGE_SIZE];
        memcpy(message, w->error, sizeof message);
        vec_copy(s->x, old);
        if (w->image)
            memcpy(w->image[id], old_image, sizeof old_image);
        if (world_place_sphere(w, i) != CAROM_OK)
            world_unbuild(w); /* out of memory: placed by the next build */
        memcpy(w->error, message, sizeof message);
    }
    COUNTER(s)++; /* events of others that name it become stale */
    if (st == CAROM_OK) /* moved: the contacts it left part (world_sensing.c) */
        st = world_sensing_note_moved(w, i);
    if (w->built)
        world_predict(w, i);
    return st;
}

carom_status carom_world_reprobe_sphere(carom_world *w, carom_sphere_id id, double accel_bound)
{
    uint32_t i = 0;
    carom_status st = begin_sphere_change(w, "carom_world_reprobe_sphere", id, &i);
    if (st != CAROM_OK)
        return st;
    if (!w->info[i].driven)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "sphere %u is not driven",
                          (unsigned)id);
    if (!(isfinite(accel_bound) && accel_bound >= 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %u: accel_bound must be finite and >= 0, not %g", (unsigned)id,
                          accel_bound);
    w->bounds[i].accel = accel_bound;
    if (w->built) {
        st = world_driven_restart(w, i, 1);
        if (st != CAROM_OK)
            return st;
        world_predict(w, i);
    }
    return CAROM_OK;
}

carom_status carom_world_get_sphere(const carom_world *w, carom_sphere_id id,
                                    carom_sphere_state *out)
{
    if (!exists(w, id))
        return CAROM_ERR_NO_SUCH_SPHERE;
    uint32_t i = world_slot_of(w, id);
    const sphere *s = &w->spheres[i];
    memset(out, 0, sizeof *out); /* padding too: states compare with memcmp */
    world_true_state(w, i, w->time, out->position, out->velocity);
    if (w->shear_rate != 0.0) /* in the box's frame, whatever the round-off */
        world_shear_into_box(w, w->time, out->position, out->velocity);
    for (int k = 0; k < w->def.dim; k++) {
        /* Stored positions may lie a little outside on periodic axes (a
         * sphere wraps at its next cell crossing or list rebuild). */
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC)
            world_wrap_coordinate(&out->position[k], w->def.box[k]);
    }
    out->radius = s->radius * growth_factor(w, w->time);
    out->mass = INFO(s)->inv_mass > 0.0 ? 1.0 / INFO(s)->inv_mass : INFINITY;
    out->collisions = COUNTER(s);
    out->species = INFO(s)->species;
    return CAROM_OK;
}

size_t carom_world_sphere_capacity(const carom_world *w) { return w->count; }
size_t carom_world_sphere_count(const carom_world *w) { return w->alive_count; }
int carom_world_sphere_exists(const carom_world *w, carom_sphere_id id)
{
    return exists(w, id);
}
const carom_world_def *carom_world_get_def(const carom_world *w) { return &w->def; }
double carom_world_time(const carom_world *w) { return w->time; }
int carom_world_dim(const carom_world *w) { return w->def.dim; }
double carom_world_list_skin(const carom_world *w) { return w->list_skin; }

void world_sphere_at(const carom_world *w, const sphere *s, double t, double x[3], double v[3])
{
    /* Read everything first: x and v may be s's own arrays. */
    double dt = t - s->t, g[3], x0[3], v0[3];
    int falls = INFO(s)->falls;
    for (int k = 0; k < 3; k++) {
        g[k] = falls ? w->gravity[k] : 0.0;
        x0[k] = s->x[k];
        v0[k] = s->v[k];
    }
    for (int k = 0; k < 3; k++) {
        x[k] = x0[k] + dt * (v0[k] + 0.5 * g[k] * dt);
        v[k] = v0[k] + g[k] * dt;
    }
}

void world_advance_sphere(carom_world *w, sphere *s, double t)
{
    if (s->t == t)
        return;
    world_sphere_at(w, s, t, s->x, s->v);
    s->t = t;
}

carom_status carom_world_advance_to(carom_world *w, double t)
{
    /* Frame semantics (every event up to t, then every position valid at
     * t) live in world_limited.c; this is the unlimited case. */
    int reached;
    return carom_world_advance_to_limited(w, t, UINT64_MAX, NULL, &reached);
}

carom_status carom_world_step_events(carom_world *w, uint64_t max_events, uint64_t *processed)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_step_events");
    if (!w->built) {
        carom_status st = world_build(w, 0);
        if (st != CAROM_OK)
            return st;
    }
    return world_process_until(w, INFINITY, max_events, processed);
}

void carom_world_get_stats(const carom_world *w, carom_stats *out)
{
    *out = w->stats;
    out->elapsed = w->time - w->stats.start_time;
}

void carom_world_reset_stats(carom_world *w)
{
    memset(&w->stats, 0, sizeof w->stats);
    w->stats.start_time = w->time;
    w->stats.kinetic_energy_start = carom_world_kinetic_energy(w);
}

double carom_world_kinetic_energy(const carom_world *w)
{
    double ke = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        const sphere *s = &w->spheres[i];
        if (!INFO(s)->alive || INFO(s)->inv_mass == 0.0)
            continue;
        double x[3], v[3];
        world_true_state(w, (uint32_t)i, w->time, x, v);
        ke += 0.5 * vec_dot(v, v) / INFO(s)->inv_mass;
    }
    return ke;
}

void carom_world_momentum(const carom_world *w, double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        const sphere *s = &w->spheres[i];
        if (!INFO(s)->alive || INFO(s)->inv_mass == 0.0)
            continue;
        double x[3], v[3];
        world_true_state(w, (uint32_t)i, w->time, x, v);
        for (int k = 0; k < 3; k++)
            out[k] += v[k] / INFO(s)->inv_mass;
    }
}

static size_t finite_mass_count(const carom_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        if (w->info[i].alive && w->info[i].inv_mass > 0.0)
            n++;
    return n;
}

double carom_world_temperature(const carom_world *w)
{
    size_t n = finite_mass_count(w);
    return n ? 2.0 * carom_world_kinetic_energy(w) / (w->def.dim * (double)n) : 0.0;
}

double carom_world_volume(const carom_world *w)
{
    double v = 1.0;
    for (int k = 0; k < w->def.dim; k++)
        v *= w->def.box[k];
    return v;
}

double carom_world_compressibility(const carom_world *w)
{
    size_t n = finite_mass_count(w);
    double elapsed = w->time - w->stats.start_time;
    if (n == 0 || !(elapsed > 0.0))
        return NAN;
    double kt_start = 2.0 * w->stats.kinetic_energy_start / (w->def.dim * (double)n);
    double kt = 0.5 * (kt_start + carom_world_temperature(w));
    if (!(kt > 0.0))
        return NAN;
    return 1.0 + w->stats.virial / (w->def.dim * elapsed * (double)n * kt);
}
