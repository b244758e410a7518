/* Contacts pulled after an advance (def.record_contacts,
 * carom_world_recorded_contacts): they are exactly the contacts a callback
 * sees, in the same order, as the callback left them; each call that
 * processes events starts a new record; and recording changes nothing the
 * world does (the same states to the last bit as with a callback, and as
 * with nothing). Covered: the elastic response with walls and periodic
 * images, report-only worlds, and driven spheres (orbits) whose contacts
 * the response does not act on. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/drive.h"
#include "carom/scene.h"
#include "check.h"

typedef struct contact_log {
    carom_contact *c;
    size_t n, room;
    int damp; /* the callback imposes its own response: both lose 1% of their speed */
} contact_log;

static void log_contact(void *user_data, carom_contact *c)
{
    contact_log *log = user_data;
    if (log->damp && c->kind == CAROM_CONTACT_SPHERE) {
        for (int k = 0; k < 3; k++) {
            c->velocity_after[0][k] *= 0.99;
            c->velocity_after[1][k] *= 0.99;
        }
    }
    if (log->n == log->room) {
        log->room = log->room ? 2 * log->room : 256;
        log->c = realloc(log->c, log->room * sizeof *log->c);
        if (!log->c)
            abort();
    }
    log->c[log->n++] = *c;
}

static int same_contact(const carom_contact *a, const carom_contact *b)
{
    int same = a->kind == b->kind && a->time == b->time && a->i == b->i && a->j == b->j &&
               a->wall == b->wall && a->impulse == b->impulse && a->depth == b->depth;
    for (int k = 0; k < 3; k++)
        same = same && a->normal[k] == b->normal[k] &&
               a->velocity_after[0][k] == b->velocity_after[0][k] &&
               a->velocity_after[1][k] == b->velocity_after[1][k];
    return same;
}

/* The record of w is log's contacts from `from` on. */
static int record_is(const carom_world *w, const contact_log *log, size_t from)
{
    size_t n;
    const carom_contact *c = carom_world_recorded_contacts(w, &n);
    if (n != log->n - from)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (!same_contact(&c[k], &log->c[from + k]))
            return 0;
    return 1;
}

static int same_states(const carom_world *a, const carom_world *b)
{
    if (carom_world_time(a) != carom_world_time(b))
        return 0;
    for (carom_sphere_id i = 0; i < carom_world_sphere_capacity(a); i++) {
        carom_sphere_state sa, sb;
        if (carom_world_get_sphere(a, i, &sa) != CAROM_OK ||
            carom_world_get_sphere(b, i, &sb) != CAROM_OK)
            return 0;
        for (int k = 0; k < 3; k++)
            if (sa.position[k] != sb.position[k] || sa.velocity[k] != sb.velocity[k])
                return 0;
    }
    return 1;
}

static carom_world *gas(carom_response response, carom_boundary boundary, int record,
                        contact_log *log)
{
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = 10.0;
        s.boundary[k] = boundary;
    }
    CHECK_OK(carom_scene_random(&s, 400, 0.5, 5, &e));
    CHECK_OK(carom_scene_maxwell_velocities(&s, 1.0, 6, &e));
    carom_world_def def = carom_world_default_def();
    def.response = response;
    def.record_contacts = record;
    if (log) {
        def.on_contact = log_contact;
        def.user_data = log;
    }
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    carom_scene_free(&s);
    if (!w)
        abort();
    return w;
}

/* Three calls: an advance, a limited advance, a step of events. */
static int advance(carom_world *w, int call)
{
    uint64_t done;
    int reached;
    switch (call) {
    case 0:
        return carom_world_advance_to(w, 1.0);
    case 1:
        return carom_world_advance_to_limited(w, 3.0, 2000, &done, &reached);
    default:
        return carom_world_step_events(w, 700, &done);
    }
}

static void recorded_as_seen(carom_response response, carom_boundary boundary, int damp)
{
    contact_log seen = {0}, both = {0};
    seen.damp = both.damp = damp;
    carom_world *by_callback = gas(response, boundary, 0, &seen);
    carom_world *recording = gas(response, boundary, 1, damp ? &both : NULL);
    carom_world *neither = gas(response, boundary, 0, NULL);
    size_t walls = 0;
    for (int call = 0; call < 3; call++) {
        size_t from = seen.n;
        CHECK_OK(advance(by_callback, call));
        CHECK_OK(advance(recording, call));
        CHECK(seen.n - from > 100);
        CHECK(record_is(recording, &seen, from));
        CHECK(same_states(recording, by_callback));
        if (!damp) {
            CHECK_OK(advance(neither, call));
            CHECK(same_states(recording, neither));
        }
        for (size_t k = from; k < seen.n; k++)
            walls += seen.c[k].kind == CAROM_CONTACT_WALL;
        size_t none;
        CHECK(carom_world_recorded_contacts(by_callback, &none) != NULL || none == 0);
        CHECK(none == 0); /* without record_contacts */
    }
    CHECK((walls > 0) == (boundary == CAROM_BOUNDARY_WALLS));
    /* A call that processes no event empties the record. */
    CHECK_OK(carom_world_advance_to(recording, carom_world_time(recording)));
    size_t n;
    carom_world_recorded_contacts(recording, &n);
    CHECK(n == 0);
    free(seen.c);
    free(both.c);
    carom_world_free(by_callback);
    carom_world_free(recording);
    carom_world_free(neither);
}

static void test_recorded_contacts_are_the_callbacks(void)
{
    recorded_as_seen(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_PERIODIC, 0);
    recorded_as_seen(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_WALLS, 0);
    recorded_as_seen(CAROM_RESPONSE_NONE, CAROM_BOUNDARY_PERIODIC, 0);
}

static void test_recorded_contacts_are_as_the_callback_left_them(void)
{
    recorded_as_seen(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_WALLS, 1);
}

/* Spheres on circles through a square of resting ones (they start
 * between them): contacts of driven spheres, found by probing; in a
 * report-only world, contacts the response does not act on. */
static carom_world *orbiting(carom_orbits *orbits, carom_response response, int record,
                             contact_log *log)
{
    carom_world_def def = carom_world_default_def();
    def.response = response;
    def.driver = carom_orbits_driver(orbits);
    def.record_contacts = record;
    if (log) {
        def.on_contact = log_contact;
        def.user_data = log;
    }
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        abort();
    for (size_t k = 0; k < orbits->n; k++) {
        carom_sphere_def d = carom_orbits_sphere_def(orbits, k, 0.0);
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            carom_sphere_def d = carom_sphere_default_def();
            d.radius = 0.25;
            d.position[0] = 1.25 + 1.5 * a;
            d.position[1] = 1.25 + 1.5 * b;
            d.position[2] = 5.0;
            CHECK_OK(carom_world_add_sphere(w, &d, NULL));
        }
    return w;
}

static void driven_recorded_as_seen(carom_orbits *orbits, carom_response response)
{
    contact_log seen = {0};
    carom_world *by_callback = orbiting(orbits, response, 0, &seen);
    carom_world *recording = orbiting(orbits, response, 1, NULL);
    CHECK_OK(carom_world_advance_to(by_callback, 6.0));
    CHECK_OK(carom_world_advance_to(recording, 6.0));
    carom_stats stats;
    carom_world_get_stats(recording, &stats);
    CHECK(seen.n > 20 && stats.bound_collisions > 0);
    CHECK(record_is(recording, &seen, 0));
    CHECK(same_states(recording, by_callback));
    free(seen.c);
    carom_world_free(by_callback);
    carom_world_free(recording);
}

static void test_recorded_contacts_of_driven_spheres(void)
{
    carom_orbits orbits;
    carom_error e;
    carom_orbits_init(&orbits);
    for (int k = 0; k < 3; k++) {
        carom_orbit o = {{5.0, 5.0, 5.0}, 1.5 * (k + 1), 1.0 + 0.5 * k, 0.0, 0.2};
        CHECK_OK(carom_orbits_add(&orbits, &o, &e));
    }
    driven_recorded_as_seen(&orbits, CAROM_RESPONSE_ELASTIC);
    driven_recorded_as_seen(&orbits, CAROM_RESPONSE_NONE); /* contacts the response leaves */
    carom_orbits_free(&orbits);
}

int main(void)
{
    RUN(test_recorded_contacts_are_the_callbacks);
    RUN(test_recorded_contacts_are_as_the_callback_left_them);
    RUN(test_recorded_contacts_of_driven_spheres);
    return CHECK_REPORT();
}
