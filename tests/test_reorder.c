/* Spatial re-sorting of the world's records (carom_reorder, src/
 * world_reorder.c): moving the spheres to other slots must change nothing
 * the application sees. A world sorted between its advances is compared
 * with the same world unsorted: the same contacts between the same ids at
 * the same times (to round-off: a sort predicts every event again) and
 * the same states by id, with spheres removed and added, for elastic,
 * report-only and driven (orbiting) spheres. A large world (elastic or
 * report-only) sorts itself when it is built and again once its spheres
 * have wandered, keeping energy (and elastic spheres apart); small worlds and OFF never sort themselves.
 * CAROM_TEST_VALIDATING=1 skips the large worlds (the validation build
 * checks every invariant after every event; the small worlds, sorted
 * between advances, are checked there). */
#include <stdint.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/drive.h"
#include "carom/scene.h"
#include "check.h"
#include "world_internal.h"

#define TIME_TOLERANCE 1e-9
#define PLACE_TOLERANCE 1e-9

typedef struct logged_contact {
    double time;
    int kind;
    uint32_t i, j;
} logged_contact;

typedef struct contact_log {
    logged_contact *e;
    size_t n, room;
} contact_log;

static void log_contact(void *user_data, carom_contact *c)
{
    contact_log *log = user_data;
    if (log->n == log->room) {
        log->room = log->room ? 2 * log->room : 1024;
        logged_contact *e = realloc(log->e, log->room * sizeof *e);
        if (!e)
            abort();
        log->e = e;
    }
    int sphere = c->kind == CAROM_CONTACT_SPHERE;
    uint32_t lo = sphere && c->j < c->i ? c->j : c->i;
    uint32_t hi = sphere ? (c->j < c->i ? c->i : c->j) : (uint32_t)c->wall;
    log->e[log->n++] = (logged_contact){c->time, (int)c->kind, lo, hi};
}

/* Two logs list the same contacts between the same ids, in the same
 * order, at the same times to round-off. */
static void check_same_contacts(const contact_log *a, const contact_log *b)
{
    CHECK(a->n == b->n);
    CHECK(a->n > 100);
    size_t n = a->n < b->n ? a->n : b->n, wrong = 0;
    for (size_t k = 0; k < n; k++) {
        const logged_contact *x = &a->e[k], *y = &b->e[k];
        if (x->kind != y->kind || x->i != y->i || x->j != y->j ||
            !(fabs(x->time - y->time) <= TIME_TOLERANCE * (1.0 + fabs(y->time)))) {
            if (wrong++ == 0)
                fprintf(stderr, "contact %zu: %d %u %u at %.17g against %d %u %u at %.17g\n", k,
                        x->kind, x->i, x->j, x->time, y->kind, y->i, y->j, y->time);
        }
    }
    CHECK(wrong == 0);
}

/* Every id has the same state in both worlds. */
static void check_same_spheres(const carom_world *a, const carom_world *b)
{
    CHECK(carom_world_sphere_capacity(a) == carom_world_sphere_capacity(b));
    size_t wrong = 0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(a); id++) {
        int in_a = carom_world_sphere_exists(a, id), in_b = carom_world_sphere_exists(b, id);
        if (in_a != in_b) {
            wrong++;
            continue;
        }
        if (!in_a)
            continue;
        carom_sphere_state sa, sb;
        CHECK(carom_world_get_sphere(a, id, &sa) == CAROM_OK);
        CHECK(carom_world_get_sphere(b, id, &sb) == CAROM_OK);
        for (int k = 0; k < 3; k++)
            if (!(fabs(sa.position[k] - sb.position[k]) <= PLACE_TOLERANCE &&
                  fabs(sa.velocity[k] - sb.velocity[k]) <= PLACE_TOLERANCE))
                wrong++;
        if (sa.radius != sb.radius || sa.collisions != sb.collisions)
            wrong++;
    }
    CHECK(wrong == 0);
}

/* The world's slots are not its ids: a sort moved something. */
static int slots_moved(const carom_world *w)
{
    if (!w->id_of)
        return 0;
    for (uint32_t k = 0; k < w->count; k++)
        if (w->id_of[k] != k)
            return 1;
    return 0;
}

/* n spheres at random places (ids in no spatial order), periodic cube at
 * the given packing, Maxwell velocities. */
static carom_world *random_world(size_t n, double packing, carom_response response,
                                 contact_log *log)
{
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = carom_box_length_for_packing(3, n, 0.5, packing);
        s.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK(carom_scene_random(&s, n, 0.5, 11, &e) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(&s, 1.0, 12, &e) == CAROM_OK);
    carom_world_def def = carom_world_default_def();
    def.response = response;
    def.reorder = CAROM_REORDER_OFF; /* only the sorts the test asks for */
    def.on_contact = log_contact;
    def.user_data = log;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    if (!w)
        fprintf(stderr, "world: %s\n", e.message);
    carom_scene_free(&s);
    return w;
}

/* Advances both worlds in steps, sorting the first after each (and once
 * before it is built); halfway, sphere 17 is removed from both, and with
 * replace a new sphere takes its place (report-only spheres may overlap
 * the place). */
static void advance_sorting_one(carom_world *sorted, carom_world *plain, int steps, double dt,
                                int replace)
{
    CHECK_OK(carom_world_sort_spatially(sorted)); /* not built yet */
    for (int k = 1; k <= steps; k++) {
        CHECK_OK(carom_world_advance_to(sorted, k * dt));
        CHECK_OK(carom_world_advance_to(plain, k * dt));
        CHECK_OK(carom_world_sort_spatially(sorted));
        if (k == steps / 2) {
            carom_sphere_state old;
            CHECK_OK(carom_world_get_sphere(plain, 17, &old));
            carom_sphere_def d = carom_sphere_default_def();
            memcpy(d.position, old.position, sizeof d.position);
            memcpy(d.velocity, old.velocity, sizeof d.velocity);
            d.radius = old.radius;
            carom_world *both[2] = {sorted, plain};
            for (int m = 0; m < 2; m++) {
                carom_sphere_id id = 0;
                CHECK_OK(carom_world_remove_sphere(both[m], 17));
                CHECK(!carom_world_sphere_exists(both[m], 17));
                if (!replace)
                    continue;
                CHECK_OK(carom_world_add_sphere(both[m], &d, &id));
                CHECK(id == carom_world_sphere_capacity(both[m]) - 1);
            }
            CHECK(carom_world_remove_sphere(sorted, 17) == CAROM_ERR_NO_SUCH_SPHERE);
        }
        check_same_spheres(sorted, plain);
    }
    carom_stats st;
    carom_world_get_stats(sorted, &st);
    CHECK(st.reorders == (uint64_t)steps + 1);
    CHECK(slots_moved(sorted));
    carom_world_get_stats(plain, &st);
    CHECK(st.reorders == 0);
}

/* The same random world sorted between its advances and not. Report-
 * only spheres pass through each other, so that world sorts while
 * spheres overlap, and its memory of the pairs already reported moves
 * with them: no contact is reported twice. */
static void compare_sorted_and_plain(carom_response response)
{
    contact_log la = {0}, lb = {0};
    carom_world *a = random_world(3000, 0.25, response, &la);
    carom_world *b = random_world(3000, 0.25, response, &lb);
    if (a && b) {
        int report_only = response == CAROM_RESPONSE_NONE;
        advance_sorting_one(a, b, 8, 0.1, !report_only);
        check_same_contacts(&la, &lb);
        CHECK_NEAR(carom_world_kinetic_energy(a), carom_world_kinetic_energy(b), 1e-9);
        if (report_only)
            CHECK(carom_world_max_overlap_now(a) > 0.01); /* it sorted overlapping spheres */
    }
    carom_world_free(a);
    carom_world_free(b);
    free(la.e);
    free(lb.e);
}

static void test_sorting_keeps_ids(void) { compare_sorted_and_plain(CAROM_RESPONSE_ELASTIC); }
static void test_report_only_sorting(void) { compare_sorted_and_plain(CAROM_RESPONSE_NONE); }

/* Driven spheres: the driver is probed with ids, never slots (a wrong id
 * would give another orbit's positions and other contacts). */
static carom_world *orbit_world(carom_orbits *orbits, contact_log *log)
{
    carom_error e;
    carom_orbits_init(orbits);
    uint64_t x = 99;
    while (orbits->n < 400) {
        double u[5];
        for (int m = 0; m < 5; m++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            u[m] = (double)(x >> 11) * 0x1p-53;
        }
        carom_orbit o = {{40.0 * u[0], 40.0 * u[1], 40.0 * u[2]},
                         2.0 + 6.0 * u[3], 0.5 + u[4], 6.0 * u[3], 0.5};
        /* Apart from the orbits already there at t = 0. */
        double p[3], q[3], v[3];
        carom_orbit_state(&o, 0.0, p, v);
        int apart = 1;
        for (size_t k = 0; k < orbits->n && apart; k++) {
            carom_orbit_state(&orbits->orbit[k], 0.0, q, v);
            double d2 = 0.0;
            for (int m = 0; m < 3; m++) {
                double d = fabs(p[m] - q[m]);
                d = d > 20.0 ? 40.0 - d : d; /* nearest image */
                d2 += d * d;
            }
            apart = d2 > 1.1 * 1.1;
        }
        if (apart)
            CHECK(carom_orbits_add(orbits, &o, &e) == CAROM_OK);
    }
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = 40.0;
        def.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    def.driver = carom_orbits_driver(orbits);
    def.on_contact = log_contact;
    def.user_data = log;
    def.reorder = CAROM_REORDER_OFF;
    carom_world *w = carom_world_create(&def, &e);
    if (!w) {
        fprintf(stderr, "world: %s\n", e.message);
        return NULL;
    }
    for (size_t k = 0; k < orbits->n; k++) {
        carom_sphere_def d = carom_orbits_sphere_def(orbits, k, 0.0);
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    return w;
}

static void test_driven_sorting(void)
{
    carom_orbits oa, ob;
    contact_log la = {0}, lb = {0};
    carom_world *a = orbit_world(&oa, &la), *b = orbit_world(&ob, &lb);
    if (a && b) {
        CHECK_OK(carom_world_sort_spatially(a));
        for (int k = 1; k <= 10; k++) {
            CHECK_OK(carom_world_advance_to(a, 0.5 * k));
            CHECK_OK(carom_world_advance_to(b, 0.5 * k));
            CHECK_OK(carom_world_sort_spatially(a));
        }
        CHECK(slots_moved(a));
        check_same_contacts(&la, &lb);
        CHECK(oa.misuse == 0 && ob.misuse == 0);
    }
    carom_world_free(a);
    carom_world_free(b);
    carom_orbits_free(&oa);
    carom_orbits_free(&ob);
    free(la.e);
    free(lb.e);
}

/* A lattice of n spheres at the given packing with its ids shuffled (no
 * spatial order left), velocities from a Maxwell distribution. */
static void shuffled_lattice(carom_scene *s, size_t n, double packing)
{
    carom_error e;
    carom_scene_init(s);
    s->dim = 3;
    for (int k = 0; k < 3; k++) {
        s->box[k] = carom_box_length_for_packing(3, n, 0.5, packing);
        s->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK(carom_scene_lattice(s, n, 0.5, CAROM_LATTICE_AUTO, &e) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(s, 1.0, 5, &e) == CAROM_OK);
    uint64_t x = 12345;
    for (size_t i = n - 1; i > 0; i--) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        size_t j = (size_t)((x >> 33) % (i + 1));
        double t[3];
        memcpy(t, s->position[i], sizeof t);
        memcpy(s->position[i], s->position[j], sizeof t);
        memcpy(s->position[j], t, sizeof t);
        memcpy(t, s->velocity[i], sizeof t);
        memcpy(s->velocity[i], s->velocity[j], sizeof t);
        memcpy(s->velocity[j], t, sizeof t);
    }
}

/* AUTO: a world of 60,000 spheres (a dilute gas, whose spheres wander
 * far between collisions) sorts when it is built, and again once its
 * order has decayed. */
static void large_world_sorts_itself(carom_response response)
{
    const size_t n = 60000;
    carom_scene s;
    carom_error e;
    shuffled_lattice(&s, n, 0.05);
    carom_world_def def = carom_world_default_def();
    def.response = response;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    if (!w) {
        fprintf(stderr, "world: %s\n", e.message);
        carom_scene_free(&s);
        return;
    }
    CHECK_OK(carom_world_advance_to(w, 0.0)); /* builds */
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.reorders == 1);
    CHECK(slots_moved(w));
    size_t wrong = 0;
    for (carom_sphere_id id = 0; id < n; id++) {
        carom_sphere_state state;
        CHECK(carom_world_get_sphere(w, id, &state) == CAROM_OK);
        if (memcmp(state.position, s.position[id], sizeof state.position) != 0 ||
            memcmp(state.velocity, s.velocity[id], sizeof state.velocity) != 0)
            wrong++;
    }
    CHECK(wrong == 0);
    double energy = carom_world_kinetic_energy(w);
    double t = 0.0;
    while (st.reorders < 2 && t < 40.0) {
        t += 1.0;
        CHECK_OK(carom_world_advance_to(w, t));
        carom_world_get_stats(w, &st);
    }
    fprintf(stderr, "  sorted again at t <= %g after %llu contacts\n", t,
            (unsigned long long)st.collisions);
    CHECK(st.reorders == 2);
    CHECK_REL(carom_world_kinetic_energy(w), energy, 1e-12);
    if (response != CAROM_RESPONSE_NONE)
        CHECK(carom_world_max_overlap_now(w) < 1e-10);
    carom_world_free(w);
    carom_scene_free(&s);
}

static void test_large_world_sorts_itself(void) { large_world_sorts_itself(CAROM_RESPONSE_ELASTIC); }
/* Report-only spheres pass through each other: the order decays too. */
static void test_large_report_only_world_sorts_itself(void)
{
    large_world_sorts_itself(CAROM_RESPONSE_NONE);
}

/* Below the threshold, or with OFF, a world keeps its order. */
static void test_who_sorts(void)
{
    carom_scene s;
    carom_error e;
    shuffled_lattice(&s, 3000, 0.05);
    carom_world *small = carom_scene_create_world(&s, NULL, &e);
    carom_scene_free(&s);
    shuffled_lattice(&s, 60000, 0.05);
    carom_world_def def = carom_world_default_def();
    def.reorder = CAROM_REORDER_OFF;
    carom_world *off = carom_scene_create_world(&s, &def, &e);
    carom_scene_free(&s);
    carom_world *both[2] = {small, off};
    for (int m = 0; m < 2; m++) {
        if (!both[m])
            continue;
        CHECK_OK(carom_world_advance_to(both[m], 2.0));
        carom_stats st;
        carom_world_get_stats(both[m], &st);
        CHECK(st.reorders == 0);
        CHECK(!slots_moved(both[m]));
        carom_world_free(both[m]);
    }
    def.reorder = (carom_reorder)7;
    CHECK(carom_world_create(&def, &e) == NULL);
    CHECK(e.status == CAROM_ERR_INVALID_ARGUMENT && strstr(e.message, "reorder") != NULL);
}

int main(void)
{
    RUN(test_sorting_keeps_ids);
    RUN(test_report_only_sorting);
    RUN(test_driven_sorting);
    if (getenv("CAROM_TEST_VALIDATING")) {
        printf("large worlds skipped (CAROM_TEST_VALIDATING)\n");
    } else {
        RUN(test_large_world_sorts_itself);
        RUN(test_large_report_only_world_sorts_itself);
        RUN(test_who_sorts);
    }
    return check_failures ? 1 : 0;
}
