/* Neighbour lists (src/world_lists.c) beyond what the reference test
 * covers: long lists (a dense mixture of radii 1:2.2, where a large sphere
 * has more neighbours than its own block holds: the list goes on in the
 * pool), report-only runs with lists and cells giving the same contacts
 * (also in a world large enough for the wider skin),
 * spheres removed and added while lists are in use, and the scenes where
 * the world must fall back to cells. Each case checks the physics
 * (energy, no overlap, collisions happen) and, through the world's
 * private header, which mode ran. Under CAROM_VALIDATE (scripts/test.sh)
 * every list invariant is also checked after every event; there
 * CAROM_TEST_QUICK=1 shortens the first run to a fifth, and
 * CAROM_TEST_VALIDATING=1 skips the large world. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "world_internal.h"

static carom_world *world_from(carom_scene *s, carom_neighbours neighbours)
{
    carom_world_def def = carom_world_default_def();
    def.neighbours = neighbours;
    carom_error e;
    carom_world *w = carom_scene_create_world(s, &def, &e);
    if (!w)
        fprintf(stderr, "world: %s\n", e.message);
    return w;
}

/* An empty 3D scene in a periodic cube of edge L. */
static void periodic_cube(carom_scene *s, double L)
{
    carom_scene_init(s);
    s->dim = 3;
    for (int k = 0; k < 3; k++) {
        s->box[k] = L;
        s->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
}

/* n spheres of radius 0.5 on a lattice at the given packing, periodic,
 * Maxwell-Boltzmann velocities drawn with seed (none if seed is 0). */
static void lattice_scene(carom_scene *s, size_t n, double packing, uint64_t seed)
{
    carom_error e;
    periodic_cube(s, carom_box_length_for_packing(3, n, 0.5, packing));
    CHECK(carom_scene_lattice(s, n, 0.5, CAROM_LATTICE_AUTO, &e) == CAROM_OK);
    if (seed)
        CHECK(carom_scene_maxwell_velocities(s, 1.0, seed, &e) == CAROM_OK);
}

static double kinetic(carom_world *w) { return carom_world_kinetic_energy(w); }

/* n spheres of radii uniform in [0.45, 1] placed at random at packing
 * 0.45, periodic, Maxwell-Boltzmann velocities; seeds seed, +1, +2. */
static void mixture_scene(carom_scene *s, size_t n, uint64_t seed)
{
    carom_error e;
    double lo = 0.45, hi = 1.0; /* <r^3> = (hi^4 - lo^4) / (4 (hi - lo)) */
    double mean_volume = 4.0 / 3.0 * M_PI * (pow(hi, 4) - pow(lo, 4)) / (4.0 * (hi - lo));
    periodic_cube(s, cbrt((double)n * mean_volume / 0.45));
    CHECK(carom_scene_resize(s, n, &e) == CAROM_OK);
    CHECK(carom_scene_random_radii(s, lo, hi, seed, &e) == CAROM_OK);
    CHECK(carom_scene_place_random(s, seed + 1, &e) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(s, 1.0, seed + 2, &e) == CAROM_OK);
}

/* Radii uniform in [0.45, 1], packing 0.45: the large spheres' lists
 * outgrow their own block and go on in the pool (and shrink back); the
 * run keeps energy and spheres apart. */
static void test_lists_grow(void)
{
    carom_scene s;
    mixture_scene(&s, 600, 3);
    carom_world *w = world_from(&s, CAROM_NEIGHBOURS_LISTS);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK_OK(carom_world_advance_to(w, 0.0));
    double e0 = kinetic(w);
    CHECK(w->list_skin > 0.0); /* lists chosen */
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    CHECK_OK(carom_world_advance_to(w, quick ? 4.0 : 20.0));
    carom_stats st;
    carom_world_get_stats(w, &st);
    int longest = 0;
    for (uint32_t i = 0; i < w->count; i++)
        longest = w->list_count[i] > longest ? w->list_count[i] : longest;
    printf("mixture 1:2.2, packing 0.45: %llu collisions, %llu list rebuilds, longest list %d, "
           "%u pool blocks\n",
           (unsigned long long)st.collisions, (unsigned long long)st.list_rebuilds, longest,
           (unsigned)w->list_more_used);
    CHECK(st.collisions > (quick ? 4000 : 20000) && st.list_rebuilds > 1000);
    CHECK(w->list_more_used > 0); /* lists went on in the pool */
    CHECK_REL(kinetic(w), e0, 1e-11);
    CHECK(carom_world_max_overlap_now(w) < 1e-10);
    carom_world_free(w);
    carom_scene_free(&s);
}

/* Contacts of a report-only run, in order. */
typedef struct contact_log {
    size_t count, room;
    carom_contact *c;
} contact_log;

static void log_contact(void *user, carom_contact *c)
{
    contact_log *log = user;
    if (log->count == log->room) {
        log->room = log->room ? 2 * log->room : 1024;
        log->c = realloc(log->c, log->room * sizeof *log->c);
        CHECK(log->c != NULL);
    }
    log->c[log->count++] = *c;
}

/* What a report-only run told: its contacts, the skin its world chose,
 * its list rebuilds and the most pool blocks it used. */
typedef struct report_run {
    contact_log log;
    double skin;
    unsigned long long rebuilds, blocks;
} report_run;

/* Runs scene s report-only to t_end with the given neighbours. */
static int run_report_only(const carom_scene *s, carom_neighbours neighbours, double t_end,
                           report_run *out)
{
    carom_error e;
    carom_world_def def = carom_world_default_def();
    def.neighbours = neighbours;
    def.response = CAROM_RESPONSE_NONE;
    def.on_contact = log_contact;
    out->log = (contact_log){0, 0, NULL};
    def.user_data = &out->log;
    carom_world *w = carom_scene_create_world(s, &def, &e);
    CHECK(w != NULL);
    if (!w)
        return 0;
    CHECK_OK(carom_world_advance_to(w, 0.0));
    out->skin = carom_world_list_skin(w);
    CHECK_OK(carom_world_advance_to(w, t_end));
    carom_stats st;
    carom_world_get_stats(w, &st);
    out->rebuilds = st.list_rebuilds;
    out->blocks = w->list_more_used;
    carom_world_free(w);
    return 1;
}

/* How many contacts of two runs differ: not the same pair (either way
 * round) at the same time, or missing from one. Frees both logs. */
static size_t contacts_differing(contact_log *a, contact_log *b)
{
    size_t differ = a->count > b->count ? a->count - b->count : b->count - a->count;
    for (size_t k = 0; k < a->count && k < b->count; k++) {
        const carom_contact *p = &a->c[k], *q = &b->c[k];
        int same_pair = (p->i == q->i && p->j == q->j) || (p->i == q->j && p->j == q->i);
        if (!same_pair || fabs(p->time - q->time) > 1e-12 * (1.0 + p->time))
            differ++;
    }
    free(a->c);
    free(b->c);
    return differ;
}

/* The same mixture, report-only: nothing changes a velocity, so there is
 * no chaos, and runs with lists and with cells must report the same
 * contacts at the same times, while long lists are made, go on in the
 * pool and shrink back thousands of times. Fails if an entry is lost or
 * doubled when a list crosses a block boundary. */
static void test_long_lists_report_the_same(void)
{
    carom_scene s;
    mixture_scene(&s, 800, 13);
    report_run lists, cells;
    if (run_report_only(&s, CAROM_NEIGHBOURS_LISTS, 3.0, &lists) &&
        run_report_only(&s, CAROM_NEIGHBOURS_CELLS, 3.0, &cells)) {
        printf("report-only mixture: %zu / %zu contacts (lists / cells), %llu list rebuilds, "
               "%llu pool blocks at most\n",
               lists.log.count, cells.log.count, lists.rebuilds, lists.blocks);
        CHECK(lists.skin > 0.0 && cells.skin == 0.0);
        CHECK(lists.blocks > 0 && lists.rebuilds > 1000);
        CHECK(lists.log.count > 1000);
        CHECK(contacts_differing(&lists.log, &cells.log) == 0);
    }
    carom_scene_free(&s);
}

/* Worlds of 150,000 spheres or more (too large for the caches) make their
 * lists with a wider skin, 0.3 of the mean diameter instead of 0.2. The
 * wider skin changes nothing else: a report-only run of such a world
 * reports the same contacts at the same times with lists as with cells,
 * while spheres fly through each other and remake their lists; an elastic
 * run keeps energy and spheres apart. Shorter under CAROM_TEST_QUICK;
 * skipped under CAROM_TEST_VALIDATING (the validation build checks every
 * list after every event, which at this size would take hours). */
static void test_large_world_wide_skin(void)
{
    carom_scene s;
    lattice_scene(&s, 20000, 0.45, 0);
    carom_world *w = world_from(&s, CAROM_NEIGHBOURS_AUTO);
    CHECK(w != NULL);
    if (w) {
        CHECK_OK(carom_world_advance_to(w, 0.0));
        CHECK_NEAR(w->list_skin, 0.2, 1e-12); /* 0.2 of a diameter of 1 */
        CHECK_NEAR(carom_world_list_skin(w), 0.2, 1e-12);
        carom_world_free(w);
    }
    carom_scene_free(&s);
    if (getenv("CAROM_TEST_VALIDATING")) {
        printf("large world skipped (CAROM_TEST_VALIDATING)\n");
        return;
    }
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    lattice_scene(&s, 150000, 0.45, 21);
    report_run lists, cells;
    double t_end = quick ? 0.15 : 0.25;
    if (run_report_only(&s, CAROM_NEIGHBOURS_AUTO, t_end, &lists) &&
        run_report_only(&s, CAROM_NEIGHBOURS_CELLS, t_end, &cells)) {
        printf("report-only, 150,000 spheres: %zu / %zu contacts (lists / cells), "
               "%llu list rebuilds\n",
               lists.log.count, cells.log.count, lists.rebuilds);
        CHECK_NEAR(lists.skin, 0.3, 1e-12);
        CHECK(cells.skin == 0.0);
        CHECK(lists.rebuilds > (quick ? 2000 : 10000));
        CHECK(lists.log.count > (quick ? 2000 : 10000));
        CHECK(contacts_differing(&lists.log, &cells.log) == 0);
    }

    w = world_from(&s, CAROM_NEIGHBOURS_AUTO);
    CHECK(w != NULL);
    if (w) {
        CHECK_OK(carom_world_advance_to(w, 0.0));
        double e0 = kinetic(w);
        CHECK_OK(carom_world_advance_to(w, quick ? 0.25 : 0.5));
        carom_stats st;
        carom_world_get_stats(w, &st);
        printf("elastic, 150,000 spheres: %llu collisions, %llu list rebuilds\n",
               (unsigned long long)st.collisions, (unsigned long long)st.list_rebuilds);
        CHECK(st.collisions > (quick ? 10000 : 100000) && st.list_rebuilds > (quick ? 1000 : 10000));
        CHECK_REL(kinetic(w), e0, 1e-11);
        CHECK(carom_world_max_overlap_now(w) < 1e-10);
        carom_world_free(w);
    }
    carom_scene_free(&s);
}

/* Spheres removed and added while lists are in use: the others stop
 * meeting the removed ones, the new ones are met. */
static void test_lists_add_remove(void)
{
    carom_scene s;
    size_t n = 500;
    lattice_scene(&s, n, 0.3, 7);
    double L = s.box[0];
    carom_world *w = world_from(&s, CAROM_NEIGHBOURS_LISTS);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(w->list_skin > 0.0);
    /* Take out every tenth sphere, remembering where one of them was. */
    carom_sphere_state gone;
    CHECK_OK(carom_world_get_sphere(w, 10, &gone));
    for (carom_sphere_id id = 0; id < n; id += 10)
        CHECK_OK(carom_world_remove_sphere(w, id));
    CHECK_OK(carom_world_advance_to(w, 4.0));
    /* Put a sphere where the first removed one was, if that is free by
     * now; else anywhere free along a line through the box. */
    carom_sphere_def d = carom_sphere_default_def();
    carom_sphere_id added = UINT32_MAX;
    for (int attempt = 0; attempt < 1000 && added == UINT32_MAX; attempt++) {
        for (int k = 0; k < 3; k++)
            d.position[k] = fmod(gone.position[k] + 0.37 * attempt * (k + 1), L);
        d.velocity[0] = 2.0;
        if (carom_world_add_sphere(w, &d, &added) != CAROM_OK)
            added = UINT32_MAX;
    }
    CHECK(added != UINT32_MAX);
    double e0 = kinetic(w);
    CHECK_OK(carom_world_advance_to(w, 10.0));
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, added, &st));
    CHECK(st.collisions > 5); /* the newcomer was met */
    for (carom_sphere_id id = 0; id < n; id += 10) {
        carom_sphere_state dead;
        CHECK(carom_world_get_sphere(w, id, &dead) == CAROM_ERR_NO_SUCH_SPHERE);
    }
    CHECK_REL(kinetic(w), e0, 1e-11);
    CHECK(carom_world_max_overlap_now(w) < 1e-10);
    carom_world_free(w);
    carom_scene_free(&s);
}

/* A driven sphere that flies straight (its own integrator: position and
 * velocity since its last kick). */
typedef struct straight_driver {
    double t0, x0[3], v[3];
} straight_driver;

static void straight_probe(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    (void)id;
    const straight_driver *d = user;
    for (int k = 0; k < 3; k++) {
        x[k] = d->x0[k] + d->v[k] * (t - d->t0);
        v[k] = d->v[k];
    }
}

static void straight_kick(void *user, carom_sphere_id id, double t, const double dv[3])
{
    straight_driver *d = user;
    double x[3], v[3];
    straight_probe(user, id, t, x, v);
    for (int k = 0; k < 3; k++) {
        d->x0[k] = x[k];
        d->v[k] = v[k] + dv[k];
    }
    d->t0 = t;
}

/* A driven sphere joining a world that runs on lists: the world goes
 * back to cells (lists leave driven spheres out) and the sphere is met. */
static void test_lists_then_driven(void)
{
    carom_scene s;
    carom_error e;
    lattice_scene(&s, 500, 0.45, 9);
    static straight_driver drv;
    carom_world_def def = carom_world_default_def();
    def.driver.probe = straight_probe;
    def.driver.kick = straight_kick;
    def.driver.user_data = &drv;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(w->list_skin > 0.0);
    /* A smaller driven sphere takes the place of sphere 7, removed. */
    carom_sphere_state old;
    CHECK_OK(carom_world_get_sphere(w, 7, &old));
    CHECK_OK(carom_world_remove_sphere(w, 7));
    drv.t0 = carom_world_time(w);
    memcpy(drv.x0, old.position, sizeof drv.x0);
    memcpy(drv.v, old.velocity, sizeof drv.v);
    carom_sphere_def d = carom_sphere_default_def();
    d.driven = 1;
    d.radius = 0.3; /* its bound fits the grid: only being driven sends it to cells */
    d.accel_bound = 1.0;
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &d, &id));
    CHECK_OK(carom_world_advance_to(w, 4.0));
    CHECK(w->list_skin == 0.0); /* cells now */
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, id, &st));
    CHECK(st.collisions > 10);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
    carom_scene_free(&s);
}

/* Overlapping spheres in a scene that will run on lists are found at the
 * first advance (through the lists), with both ids named; so are those of
 * a sphere added later. */
static void test_lists_overlap(void)
{
    carom_scene s;
    lattice_scene(&s, 500, 0.45, 0);
    /* Sphere 123 moved onto sphere 321, less than a diameter away. */
    for (int k = 0; k < 3; k++)
        s.position[123][k] = s.position[321][k] + (k == 0 ? 0.6 : 0.0);
    carom_world *w = world_from(&s, CAROM_NEIGHBOURS_AUTO);
    CHECK(w != NULL);
    if (w) {
        CHECK(carom_world_advance_to(w, 0.0) == CAROM_ERR_OVERLAP);
        const char *msg = carom_world_error_message(w);
        CHECK(strstr(msg, "spheres 123 and 321 overlap") != NULL);
        carom_world_free(w);
    }
    /* The same scene without the overlap runs on lists; a sphere added
     * onto another is refused. */
    carom_scene_free(&s);
    lattice_scene(&s, 500, 0.45, 0);
    w = world_from(&s, CAROM_NEIGHBOURS_AUTO);
    CHECK(w != NULL);
    if (w) {
        CHECK_OK(carom_world_advance_to(w, 0.0));
        CHECK(w->list_skin > 0.0);
        CHECK_OK(carom_world_remove_sphere(w, 5));
        carom_sphere_def d = carom_sphere_default_def();
        memcpy(d.position, s.position[6], sizeof d.position);
        d.position[1] += 0.3;
        CHECK(carom_world_add_sphere(w, &d, NULL) == CAROM_ERR_OVERLAP);
        CHECK(strstr(carom_world_error_message(w), "overlap") != NULL);
        carom_world_free(w);
    }
    carom_scene_free(&s);
}

/* Where lists do not fit or do not pay, cells are used, with the same
 * physics: a box too short for three list cells per periodic axis (even
 * when lists are asked for), a huge box (float centres too coarse), a
 * world that asks for cells, a dilute gas (packing 0.08) left to choose. */
static void test_lists_fallback(void)
{
    struct {
        const char *name;
        double L;
        size_t n;
        carom_neighbours neighbours;
    } cases[] = {
        {"short box", 3.0, 4, CAROM_NEIGHBOURS_AUTO},
        {"huge box", 1e6, 30, CAROM_NEIGHBOURS_AUTO},
        {"cells asked for", 12.0, 200, CAROM_NEIGHBOURS_CELLS},
        {"dilute, auto", 12.0, 200, CAROM_NEIGHBOURS_AUTO},
        {"lists asked for", 12.0, 200, CAROM_NEIGHBOURS_LISTS},
        {"short box, lists", 3.0, 4, CAROM_NEIGHBOURS_LISTS},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        carom_scene s;
        carom_error e;
        periodic_cube(&s, cases[c].L);
        CHECK(carom_scene_random(&s, cases[c].n, 0.5, 11, &e) == CAROM_OK);
        CHECK(carom_scene_random_velocities(&s, 1.0, 2.0, 12, &e) == CAROM_OK);
        carom_world *w = world_from(&s, cases[c].neighbours);
        CHECK(w != NULL);
        if (w) {
            CHECK_OK(carom_world_advance_to(w, 0.0));
            double e0 = kinetic(w);
            int lists = w->list_skin > 0.0;
            CHECK(lists == (c == 4));
            CHECK_OK(carom_world_advance_to(w, cases[c].L < 100.0 ? 20.0 : 1e3));
            carom_stats st;
            carom_world_get_stats(w, &st);
            if (c != 1)
                CHECK(st.collisions > 20);
            CHECK((st.list_rebuilds > 0) == lists);
            CHECK_REL(kinetic(w), e0, 1e-11);
            CHECK(carom_world_max_overlap_now(w) < 1e-10);
            printf("%-16s %s, %llu collisions\n", cases[c].name, lists ? "lists" : "cells",
                   (unsigned long long)st.collisions);
            carom_world_free(w);
        }
        carom_scene_free(&s);
    }
}

int main(void)
{
    RUN(test_lists_grow);
    RUN(test_long_lists_report_the_same);
    RUN(test_large_world_wide_skin);
    RUN(test_lists_add_remove);
    RUN(test_lists_fallback);
    RUN(test_lists_then_driven);
    RUN(test_lists_overlap);
    return CHECK_REPORT();
}
