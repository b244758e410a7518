/* What the application's callbacks may do (carom.h, at carom_contact).
 *
 * They must not change the world they are called from: a contact
 * callback, or a driver's probe or kick, that adds, removes, sets a
 * velocity or a position, reprobes, advances, steps or sorts gets CAROM_ERR_IN_CALLBACK
 * with a message naming the call, and the world goes on exactly as if the
 * call had not been made (same contacts, same states to the last bit).
 * Before this rule, advancing from inside a callback crashed or left
 * spheres overlapping. After the advance, the same calls work.
 *
 * The velocities a contact callback leaves must be finite numbers: a NaN
 * or an infinity is not taken (the contact keeps the velocities it had
 * before the callback), and the advance stops after that event with an
 * error naming the sphere. Before, a NaN velocity made the advance run
 * forever. */
#include <math.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

typedef struct attempts {
    carom_world *w;
    int meddle;         /* make the calls (else only count contacts) */
    long contacts;
    long made, refused; /* calls made, and refused as they must be */
    long named;         /* refusals whose message names the call */
    carom_sphere_id noted; /* a sphere to remove after the advance */
} attempts;

static void expect_refused(attempts *a, carom_status st, const char *call)
{
    a->made++;
    a->refused += st == CAROM_ERR_IN_CALLBACK;
    a->named += strstr(carom_world_error_message(a->w), call) != NULL;
}

/* Every call that changes the world, once. */
static void meddle(attempts *a, carom_sphere_id id)
{
    carom_world *w = a->w;
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = 0.25;
    carom_sphere_id added;
    expect_refused(a, carom_world_add_sphere(w, &d, &added), "carom_world_add_sphere");
    expect_refused(a, carom_world_remove_sphere(w, id), "carom_world_remove_sphere");
    double v[3] = {1.0, 0.0, 0.0};
    expect_refused(a, carom_world_set_velocity(w, id, v), "carom_world_set_velocity");
    double x[3] = {0.25, 0.25, 0.25};
    expect_refused(a, carom_world_set_position(w, id, x), "carom_world_set_position");
    expect_refused(a, carom_world_reprobe_sphere(w, id, 1.0), "carom_world_reprobe_sphere");
    expect_refused(a, carom_world_advance_to(w, carom_world_time(w) + 1.0),
                   "carom_world_advance_to");
    uint64_t done;
    int reached;
    expect_refused(a, carom_world_advance_to_limited(w, carom_world_time(w) + 1.0, 10, &done,
                                                     &reached),
                   "carom_world_advance_to");
    expect_refused(a, carom_world_step_events(w, 10, &done), "carom_world_step_events");
    expect_refused(a, carom_world_sort_spatially(w), "carom_world_sort_spatially");
}

static void on_contact(void *user_data, carom_contact *c)
{
    attempts *a = user_data;
    a->contacts++;
    if (a->meddle && a->contacts <= 50) {
        meddle(a, c->i);
        a->noted = c->i;
    }
}

/* 500 spheres at random in a 12^3 box, with a contact callback. */
static carom_world *gas_with(carom_response response, carom_boundary boundary,
                             carom_contact_fn callback, void *user_data)
{
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = 12.0;
        s.boundary[k] = boundary;
    }
    CHECK_OK(carom_scene_random(&s, 500, 0.5, 7, &e));
    CHECK_OK(carom_scene_maxwell_velocities(&s, 1.0, 3, &e));
    carom_world_def def = carom_world_default_def();
    def.response = response;
    def.on_contact = callback;
    def.user_data = user_data;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    carom_scene_free(&s);
    CHECK(w != NULL);
    return w;
}

static carom_world *gas(attempts *a)
{
    a->w = gas_with(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_PERIODIC, on_contact, a);
    return a->w;
}

static void test_contact_callback_cannot_change_the_world(void)
{
    attempts quiet = {0}, busy = {0};
    busy.meddle = 1;
    carom_world *a = gas(&quiet), *b = gas(&busy);
    CHECK(a && b);
    if (!a || !b)
        return;
    CHECK_OK(carom_world_advance_to(a, 3.0));
    CHECK_OK(carom_world_advance_to(b, 3.0));
    CHECK(busy.made == 50 * 9); /* the nine calls of meddle() */
    CHECK(busy.refused == busy.made);
    CHECK(busy.named == busy.made);
    /* The world went on as if nothing had been asked. */
    CHECK(quiet.contacts > 1000 && busy.contacts == quiet.contacts);
    size_t differ = 0;
    for (carom_sphere_id i = 0; i < carom_world_sphere_capacity(a); i++) {
        carom_sphere_state x, y;
        CHECK_OK(carom_world_get_sphere(a, i, &x));
        CHECK_OK(carom_world_get_sphere(b, i, &y));
        differ += memcmp(x.position, y.position, sizeof x.position) != 0 ||
                  memcmp(x.velocity, y.velocity, sizeof x.velocity) != 0;
    }
    CHECK(differ == 0);
    CHECK(carom_world_max_overlap_now(b) < 1e-9);
    /* After the advance the calls work. */
    CHECK_OK(carom_world_remove_sphere(b, busy.noted));
    busy.meddle = 0;
    CHECK_OK(carom_world_advance_to(b, 4.0));
    CHECK(carom_world_sphere_count(b) == 499);
    carom_world_free(a);
    carom_world_free(b);
}

/* A driven sphere at rest in the middle of a gas: its probe and its kick
 * try to change the world. */
typedef struct still_driver {
    attempts a;
    long probes, kicks;
} still_driver;

static void still_probe(void *user_data, carom_sphere_id id, double t, double x[3], double v[3])
{
    (void)t;
    still_driver *d = user_data;
    d->probes++;
    for (int k = 0; k < 3; k++) {
        x[k] = 6.0;
        v[k] = 0.0;
    }
    if (d->a.w && d->probes <= 20)
        meddle(&d->a, id);
}

static void still_kick(void *user_data, carom_sphere_id id, double t, const double dv[3])
{
    (void)t;
    (void)dv;
    still_driver *d = user_data;
    d->kicks++;
    if (d->kicks <= 20)
        meddle(&d->a, id);
}

static void test_driver_callbacks_cannot_change_the_world(void)
{
    still_driver d = {0};
    carom_world_def def = carom_world_default_def();
    for (int k = 0; k < 3; k++)
        def.box[k] = 12.0;
    def.driver.probe = still_probe;
    def.driver.kick = still_kick;
    def.driver.user_data = &d;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    if (!w)
        return;
    carom_sphere_def s = carom_sphere_default_def();
    s.radius = 1.5;
    s.mass = 1e6;
    s.driven = 1;
    s.accel_bound = 0.0;
    CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    d.a.w = w;
    s = carom_sphere_default_def();
    s.radius = 0.3;
    for (int n = 0; n < 8; n++) { /* a ring of spheres flying at the middle */
        double angle = n * 0.785398;
        s.position[0] = 6.0 + 4.0 * cos(angle);
        s.position[1] = 6.0 + 4.0 * sin(angle);
        s.position[2] = 6.0;
        s.velocity[0] = -cos(angle);
        s.velocity[1] = -sin(angle);
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 5.0));
    /* Queries probe too (here, for its state now). */
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    CHECK(d.probes > 0 && d.kicks > 0);
    CHECK(d.a.made > 0 && d.a.refused == d.a.made && d.a.named == d.a.made);
    CHECK(carom_world_sphere_count(w) == 9);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    printf("driver: %ld probes, %ld kicks, %ld calls refused\n", d.probes, d.kicks, d.a.refused);
    carom_world_free(w);
}

/* A callback that writes a non-finite velocity at its 10th contact. */
typedef struct poisoner {
    long contacts;
    long at;        /* the contact to poison */
    double value;   /* NAN or INFINITY */
    int wall_only;  /* poison only wall contacts */
    carom_sphere_id poisoned;
    double time;
} poisoner;

static void poison(void *user_data, carom_contact *c)
{
    poisoner *p = user_data;
    if (p->wall_only && c->kind != CAROM_CONTACT_WALL)
        return;
    if (++p->contacts == p->at) {
        c->velocity_after[0][1] = p->value;
        p->poisoned = c->i;
        p->time = c->time;
    }
}

static void poisoned_run(carom_response response, carom_boundary boundary, double value,
                         int wall_only)
{
    poisoner p = {0, 10, value, wall_only, 0, 0.0};
    carom_world *w = gas_with(response, boundary, poison, &p);
    if (!w)
        return;
    double energy = carom_world_kinetic_energy(w);
    CHECK(carom_world_advance_to(w, 5.0) == CAROM_ERR_INVALID_ARGUMENT);
    char name[64];
    snprintf(name, sizeof name, "sphere %u a velocity", (unsigned)p.poisoned);
    CHECK(strstr(carom_world_error_message(w), name) != NULL);
    CHECK(strstr(carom_world_error_message(w), "not a finite number") != NULL);
    CHECK(carom_world_time(w) == p.time); /* stopped after that event */
    /* Nothing was taken: every velocity finite, energy as it was. */
    for (carom_sphere_id i = 0; i < carom_world_sphere_capacity(w); i++) {
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, i, &st));
        CHECK(isfinite(st.velocity[0]) && isfinite(st.velocity[1]) && isfinite(st.velocity[2]));
    }
    CHECK_REL(carom_world_kinetic_energy(w), energy, 1e-12);
    if (response != CAROM_RESPONSE_NONE) /* report-only spheres pass through */
        CHECK(carom_world_max_overlap_now(w) < 1e-9);
    /* The world goes on. */
    p.at = -1;
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK_REL(carom_world_kinetic_energy(w), energy, 1e-12);
    carom_world_free(w);
}

static void test_callback_velocities_must_be_finite(void)
{
    poisoned_run(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_PERIODIC, NAN, 0);
    poisoned_run(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_WALLS, INFINITY, 1);
    poisoned_run(CAROM_RESPONSE_NONE, CAROM_BOUNDARY_PERIODIC, -INFINITY, 0);
}

int main(void)
{
    RUN(test_contact_callback_cannot_change_the_world);
    RUN(test_driver_callbacks_cannot_change_the_world);
    RUN(test_callback_velocities_must_be_finite);
    return CHECK_REPORT();
}
