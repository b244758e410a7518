/* Species that pass through each other (carom_world_set_pass_through),
 * one behaviour at a time, each checked against arithmetic of the test's
 * own:
 *
 * - two spheres on a head-on course pass through each other (no contact,
 *   straight lines) when their species pass through, and bounce at the
 *   time of contact when they meet; a species that passes through itself
 *   still meets the others; the table is symmetric;
 * - spheres that pass through may start overlapping, and
 *   carom_world_max_overlap_now leaves them out; a change that would make
 *   overlapping spheres meet is refused (CAROM_ERR_OVERLAP naming them)
 *   and changes nothing, or, before the first advance, fails that advance;
 * - a sphere that changes species in the middle of a run meets (or stops
 *   meeting) the others from then on, at the right time;
 * - walls still bounce spheres that pass through every other sphere;
 * - a driven sphere passes through (or pushes) ballistic ones;
 * - a dense two-species fluid (unlike species pass through: two
 *   hard-sphere fluids through each other) with neighbour lists, the loading helper and
 *   spatial sorts keeps its energy, keeps every pair that meets apart,
 *   and has unlike pairs overlapping;
 * - a report-only world reports only the pairs that meet; growing
 *   spheres keep apart only the pairs that meet;
 * - changes made between advances (a sphere's species, the table) give
 *   the same collisions as a world built afresh from the state then;
 * - species out of range, unknown ids and calls from a callback are
 *   refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "path_driver.h"
#include "rng.h"

typedef struct contacts {
    int spheres, walls;
    double first_time;
    carom_world *world; /* for the calls made from the callback */
    carom_status from_callback[2];
} contacts;

static void on_contact(void *user, carom_contact *c)
{
    contacts *k = user;
    if (c->kind == CAROM_CONTACT_SPHERE) {
        if (k->spheres++ == 0)
            k->first_time = c->time;
    } else {
        k->walls++;
    }
    if (k->world) {
        k->from_callback[0] = carom_world_set_species(k->world, c->i, 1);
        k->from_callback[1] = carom_world_set_pass_through(k->world, 0, 1, 1);
    }
}

static carom_world *make_world(int dim, double box, carom_boundary boundary, contacts *k)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int a = 0; a < 3; a++) {
        def.box[a] = box;
        def.boundary[a] = boundary;
    }
    def.on_contact = on_contact;
    def.user_data = k;
    memset(k, 0, sizeof *k);
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static carom_sphere_id add(carom_world *w, double x, double y, double vx, uint32_t species)
{
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = x;
    d.position[1] = y;
    d.position[2] = 5.0;
    d.velocity[0] = vx;
    d.species = species;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &d, &id));
    return id;
}

static double x_of(carom_world *w, carom_sphere_id id)
{
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, id, &s));
    return s.position[0];
}

static double vx_of(carom_world *w, carom_sphere_id id)
{
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, id, &s));
    return s.velocity[0];
}

/* Two spheres (radius 0.5) at x = 3 and 7 closing at speed 2 in a
 * periodic box of 20: they touch at t = 1.5 unless they pass through. */
static void test_head_on(void)
{
    for (int pass = 0; pass < 2; pass++) {
        contacts k;
        carom_world *w = make_world(3, 20.0, CAROM_BOUNDARY_PERIODIC, &k);
        carom_sphere_id a = add(w, 3.0, 5.0, 1.0, 0), b = add(w, 7.0, 5.0, -1.0, 1);
        if (pass)
            CHECK_OK(carom_world_set_pass_through(w, 1, 0, 1));
        CHECK(carom_world_passes_through(w, 0, 1) == pass);
        CHECK(carom_world_passes_through(w, 1, 0) == pass);
        CHECK(carom_world_passes_through(w, 0, 0) == 0);
        CHECK_OK(carom_world_advance_to(w, 3.0));
        if (pass) {
            CHECK(k.spheres == 0);
            CHECK_NEAR(x_of(w, a), 6.0, 1e-12);
            CHECK_NEAR(x_of(w, b), 4.0, 1e-12);
            CHECK(vx_of(w, a) == 1.0 && vx_of(w, b) == -1.0);
        } else {
            CHECK(k.spheres == 1);
            CHECK_NEAR(k.first_time, 1.5, 1e-12);
            CHECK_NEAR(vx_of(w, a), -1.0, 1e-12);
            CHECK_NEAR(x_of(w, a), 3.0, 1e-12); /* 4.5 at t = 1.5, back at 1 */
        }
        carom_world_free(w);
    }
}

/* Species 1 passes through itself only: two spheres of species 1 pass,
 * a sphere of species 0 then bounces off the first of them. */
static void test_one_species_passes_itself(void)
{
    contacts k;
    carom_world *w = make_world(2, 20.0, CAROM_BOUNDARY_PERIODIC, &k);
    CHECK_OK(carom_world_set_pass_through(w, 1, 1, 1));
    CHECK(carom_world_passes_through(w, 1, 1) && !carom_world_passes_through(w, 0, 1));
    carom_sphere_id a = add(w, 3.0, 5.0, 1.0, 1), b = add(w, 7.0, 5.0, -1.0, 1);
    carom_sphere_id c = add(w, 12.0, 5.0, 0.0, 0);
    CHECK_OK(carom_world_advance_to(w, 4.0));
    /* a passes b at t = 1.5 (no contact); it reaches c at t = 8 (x_a =
     * 11), b reaches c round the box at t = 14. */
    CHECK(k.spheres == 0);
    CHECK_NEAR(x_of(w, a), 7.0, 1e-12);
    CHECK_NEAR(x_of(w, b), 3.0, 1e-12);
    CHECK_OK(carom_world_advance_to(w, 9.0));
    CHECK(k.spheres == 1);
    CHECK_NEAR(k.first_time, 8.0, 1e-12);
    CHECK_NEAR(vx_of(w, c), 1.0, 1e-12); /* equal masses swap */
    CHECK_NEAR(vx_of(w, a), 0.0, 1e-12);
    carom_world_free(w);
}

static double distance(carom_world *w, carom_sphere_id a, carom_sphere_id b)
{
    carom_sphere_state sa, sb;
    CHECK_OK(carom_world_get_sphere(w, a, &sa));
    CHECK_OK(carom_world_get_sphere(w, b, &sb));
    double d2 = 0.0;
    for (int k = 0; k < 3; k++)
        d2 += (sa.position[k] - sb.position[k]) * (sa.position[k] - sb.position[k]);
    return sqrt(d2);
}

/* Overlapping spheres of species that pass through: allowed, left out of
 * the overlap measure, and kept apart from any change that would make
 * them meet. */
static void test_overlaps(void)
{
    contacts k;
    carom_world *w = make_world(3, 20.0, CAROM_BOUNDARY_WALLS, &k);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    carom_sphere_id a = add(w, 5.0, 5.0, 0.0, 0), b = add(w, 5.6, 5.0, 0.0, 1);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK_NEAR(distance(w, a, b), 0.6, 1e-12);
    CHECK(carom_world_max_overlap_now(w) == 0.0);

    CHECK(carom_world_set_pass_through(w, 0, 1, 0) == CAROM_ERR_OVERLAP);
    CHECK(strstr(carom_world_error_message(w), "spheres 0 and 1 overlap") != NULL);
    CHECK(carom_world_passes_through(w, 0, 1) == 1);
    CHECK(carom_world_set_species(w, b, 0) == CAROM_ERR_OVERLAP);
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, b, &s));
    CHECK(s.species == 1);
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(k.spheres == 0);

    /* A sphere of species 2 far away may become species 0: nothing in
     * the way; species 1 passing it too may then not become 0. */
    carom_sphere_id c = add(w, 15.0, 15.0, 0.0, 2);
    CHECK_OK(carom_world_set_species(w, c, 0));
    CHECK_OK(carom_world_get_sphere(w, c, &s));
    CHECK(s.species == 0);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    carom_world_free(w);

    /* Before the first advance, the advance checks. */
    w = make_world(3, 20.0, CAROM_BOUNDARY_WALLS, &k);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    add(w, 5.0, 5.0, 0.0, 0);
    add(w, 5.6, 5.0, 0.0, 1);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 0));
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_OVERLAP);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    carom_world_free(w);
}

/* A sphere changes species on its way: a ghost (species 1, passing
 * species 0) heads for a sphere of species 0 and turns solid before it
 * arrives; another solid sphere turns ghost before its contact. */
static void test_change_on_the_way(void)
{
    contacts k;
    carom_world *w = make_world(3, 30.0, CAROM_BOUNDARY_PERIODIC, &k);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    carom_sphere_id ghost = add(w, 3.0, 5.0, 1.0, 1);
    carom_sphere_id target = add(w, 10.0, 5.0, 0.0, 0);
    carom_sphere_id solid = add(w, 3.0, 15.0, 1.0, 0);
    add(w, 10.0, 15.0, 0.0, 0);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK_OK(carom_world_set_species(w, ghost, 0)); /* contact at t = 6 */
    CHECK_OK(carom_world_set_species(w, solid, 1)); /* would be at t = 6 too */
    CHECK_OK(carom_world_advance_to(w, 7.0));
    CHECK(k.spheres == 1);
    CHECK_NEAR(k.first_time, 6.0, 1e-12);
    CHECK_NEAR(vx_of(w, target), 1.0, 1e-12);
    CHECK_NEAR(vx_of(w, solid), 1.0, 1e-12);
    CHECK_NEAR(x_of(w, solid), 10.0, 1e-12);

    /* The table changed mid-run: refused while the sphere turned species 1
     * overlaps the fourth (both at x = 10); once it has moved on, species 0
     * and 1 meet again, and it meets the fourth round the box (x = 12 at
     * t = 9, contact at x = 39, t = 36). */
    CHECK(carom_world_set_pass_through(w, 0, 1, 0) == CAROM_ERR_OVERLAP);
    CHECK_OK(carom_world_advance_to(w, 9.0));
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 0));
    CHECK_OK(carom_world_advance_to(w, 35.9));
    CHECK_NEAR(vx_of(w, solid), 1.0, 1e-12);
    CHECK_OK(carom_world_advance_to(w, 37.0));
    CHECK_NEAR(vx_of(w, solid), 0.0, 1e-12);
    CHECK_NEAR(vx_of(w, 3), 1.0, 1e-12);
    carom_world_free(w);
}

/* Spheres passing every other sphere still bounce off the walls. */
static void test_walls(void)
{
    contacts k;
    carom_world *w = make_world(2, 10.0, CAROM_BOUNDARY_WALLS, &k);
    CHECK_OK(carom_world_set_pass_through(w, 0, 0, 1));
    rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < 40; i++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.radius = 0.4;
        for (int a = 0; a < 2; a++) {
            d.position[a] = 0.5 + 9.0 * rng_uniform(&r);
            d.velocity[a] = 2.0 * rng_uniform(&r) - 1.0;
        }
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    double e0 = carom_world_kinetic_energy(w);
    CHECK_OK(carom_world_advance_to(w, 50.0));
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.collisions == 0 && k.spheres == 0);
    CHECK(st.wall_hits > 100);
    CHECK_NEAR(carom_world_kinetic_energy(w), e0, 1e-12 * e0);
    for (carom_sphere_id i = 0; i < 40; i++) {
        carom_sphere_state s;
        CHECK_OK(carom_world_get_sphere(w, i, &s));
        for (int a = 0; a < 2; a++)
            CHECK(s.position[a] >= 0.4 - 1e-9 && s.position[a] <= 9.6 + 1e-9);
    }
    carom_world_free(w);
}

/* A driven sphere of species 1 goes along x at speed 2 through a row of
 * resting spheres of species 0: through them when the species pass
 * through, pushing the first at the time of contact otherwise. */
static void test_driven(void)
{
    for (int pass = 0; pass < 2; pass++) {
        path p = {{2.0, 5.0, 5.0}, {2.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
        carom_world_def def = carom_world_default_def();
        for (int a = 0; a < 3; a++)
            def.box[a] = 40.0;
        def.driver.probe = path_probe;
        def.driver.kick = NULL; /* it pushes as an infinite mass (not path_kick) */
        (void)path_kick;
        def.driver.user_data = &p;
        contacts k;
        memset(&k, 0, sizeof k);
        def.on_contact = on_contact;
        def.user_data = &k;
        carom_error e;
        carom_world *w = carom_world_create(&def, &e);
        carom_sphere_def d = carom_sphere_default_def();
        d.driven = 1;
        d.accel_bound = 0.5;
        d.species = 1;
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
        for (int i = 0; i < 5; i++)
            add(w, 8.0 + 4.0 * i, 5.0, 0.0, 0);
        if (pass)
            CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
        CHECK_OK(carom_world_advance_to(w, 13.0));
        if (pass) {
            CHECK(k.spheres == 0);
            for (carom_sphere_id i = 1; i <= 5; i++)
                CHECK(vx_of(w, i) == 0.0);
        } else {
            CHECK(k.spheres >= 5);
            CHECK_NEAR(k.first_time, 2.5, 1e-9); /* 2 + 2t = 7 */
        }
        carom_world_free(w);
    }
}

/* Two hard-sphere fluids through each other: species 0 and 1 pass
 * through each other, each meets its own kind (the converse of Widom and
 * Rowlinson's mixture). */
static void test_dense_mixture(int dim)
{
    const int n = 2000;
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    double packing = dim == 3 ? 0.5 : 0.7; /* in all; each species half */
    double per = dim == 3 ? 4.18879020478639 * 0.125 : 3.14159265358979 * 0.25;
    double L = pow(n * per / packing, 1.0 / dim);
    for (int a = 0; a < 3; a++)
        def.box[a] = L;
    def.neighbours = CAROM_NEIGHBOURS_LISTS;
    def.prefetch = CAROM_PREFETCH_ON;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    /* Each species on its own cubic lattice, the second shifted by half a
     * cell: unlike spheres start interleaved. */
    int side = (int)ceil(pow(n / 2.0, 1.0 / dim));
    rng r;
    rng_seed(&r, 11 + (uint64_t)dim);
    int added = 0;
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < n / 2; c++) {
            carom_sphere_def d = carom_sphere_default_def();
            d.species = (uint32_t)s;
            int ix = c % side, iy = (c / side) % side, iz = c / (side * side);
            double cell = L / side, off = s ? 0.25 * cell : 0.0;
            d.position[0] = (ix + 0.5) * cell + off;
            d.position[1] = (iy + 0.5) * cell + off;
            d.position[2] = dim == 3 ? (iz + 0.5) * cell + off : 0.0;
            for (int a = 0; a < dim; a++)
                d.velocity[a] = rng_normal(&r);
            CHECK_OK(carom_world_add_sphere(w, &d, NULL));
            added++;
        }
    double e0 = carom_world_kinetic_energy(w);
    int unlike_overlaps = 0;
    for (int step = 1; step <= 4; step++) {
        CHECK_OK(carom_world_advance_to(w, 0.5 * step));
        if (step == 2)
            CHECK_OK(carom_world_sort_spatially(w));
        static double x[2000][3];
        uint32_t sp[2000];
        for (int i = 0; i < added; i++) {
            carom_sphere_state s;
            CHECK_OK(carom_world_get_sphere(w, (carom_sphere_id)i, &s));
            memcpy(x[i], s.position, sizeof x[i]);
            sp[i] = s.species;
        }
        int meeting_overlaps = 0;
        for (int i = 0; i < added; i++)
            for (int j = i + 1; j < added; j++) {
                double d2 = 0.0;
                for (int a = 0; a < dim; a++) {
                    double d = x[j][a] - x[i][a];
                    d -= L * round(d / L);
                    d2 += d * d;
                }
                if (d2 < 1.0 - 1e-9) {
                    if (sp[i] == sp[j])
                        meeting_overlaps++;
                    else
                        unlike_overlaps++;
                }
            }
        CHECK(meeting_overlaps == 0);
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    printf("%dD mixture of %d: %llu collisions, %d unlike overlaps seen, list rebuilds %llu\n", dim,
           n, (unsigned long long)st.collisions, unlike_overlaps,
           (unsigned long long)st.list_rebuilds);
    CHECK(st.collisions > (uint64_t)n);
    CHECK(st.list_rebuilds > 0);
    CHECK(unlike_overlaps > 100);
    CHECK_NEAR(carom_world_kinetic_energy(w), e0, 1e-10 * e0);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

/* The first collisions of an advance, by id. */
#define LOGGED 12
typedef struct collision_log {
    int count;
    double t[LOGGED];
    uint32_t i[LOGGED], j[LOGGED];
    carom_world *world; /* to check that the two touch */
    double box;
    int apart;          /* contacts of spheres not touching */
} collision_log;

static void log_collision(void *user, carom_contact *c)
{
    collision_log *log = user;
    if (c->kind != CAROM_CONTACT_SPHERE)
        return;
    carom_sphere_state a, b;
    if (log->world && carom_world_get_sphere(log->world, c->i, &a) == CAROM_OK &&
        carom_world_get_sphere(log->world, c->j, &b) == CAROM_OK) {
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = b.position[k] - a.position[k];
            d -= log->box * round(d / log->box);
            d2 += d * d;
        }
        log->apart += fabs(sqrt(d2) / (a.radius + b.radius) - 1.0) > 1e-9;
    }
    if (log->count == LOGGED)
        return;
    log->t[log->count] = c->time;
    log->i[log->count] = c->i < c->j ? c->i : c->j;
    log->j[log->count] = c->i < c->j ? c->j : c->i;
    log->count++;
}

static carom_world *mixture_world(double L, carom_neighbours neighbours, collision_log *log)
{
    carom_world_def def = carom_world_default_def();
    def.neighbours = neighbours;
    for (int a = 0; a < 3; a++)
        def.box[a] = L;
    def.on_contact = log_collision;
    def.user_data = log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

/* The two spheres (of n, in a periodic cube of side L) that would touch
 * first if they all met: by the test's own arithmetic, from the states. */
static void earliest_contact(carom_world *w, int n, double L, uint32_t pair[2])
{
    static double x[1000][3], v[1000][3];
    for (int i = 0; i < n; i++) {
        carom_sphere_state s;
        CHECK_OK(carom_world_get_sphere(w, (carom_sphere_id)i, &s));
        memcpy(x[i], s.position, sizeof x[i]);
        memcpy(v[i], s.velocity, sizeof v[i]);
    }
    double best = INFINITY;
    pair[0] = 0;
    pair[1] = 1;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double d[3], u[3], dd = 0.0, du = 0.0, uu = 0.0;
            for (int k = 0; k < 3; k++) {
                d[k] = x[j][k] - x[i][k];
                d[k] -= L * round(d[k] / L);
                u[k] = v[j][k] - v[i][k];
                dd += d[k] * d[k];
                du += d[k] * u[k];
                uu += u[k] * u[k];
            }
            double disc = du * du - uu * (dd - 1.0);
            if (dd < 1.0 || du >= 0.0 || disc <= 0.0)
                continue; /* overlapping (passing), or not approaching */
            double t = (dd - 1.0) / (-du + sqrt(disc));
            if (t < best) {
                best = t;
                pair[0] = (uint32_t)i;
                pair[1] = (uint32_t)j;
            }
        }
}

/* World a changes a species or the table between advances; world b is
 * built afresh from a's state and table after each change. Their next
 * collisions must be the same (pairs exactly, times to 1e-9): a change
 * that left a stale prediction (a pair that now passes still colliding)
 * or missed one (a pair that now meets, not predicted) shows here. */
static void test_changes_against_fresh_worlds(carom_neighbours neighbours)
{
    const int n = 300;
    const double L = 9.0; /* packing 0.22 */
    static collision_log log_a, log_b;
    carom_world *a = mixture_world(L, neighbours, &log_a);
    log_a.world = a;
    log_a.box = L;
    log_a.apart = 0;
    rng r;
    rng_seed(&r, 2026);
    for (int i = 0; i < n; i++) {
        carom_sphere_def d = carom_sphere_default_def();
        double u = rng_uniform(&r);
        d.species = u < 0.47 ? 0 : u < 0.94 ? 1 : 2;
        int c = i;
        d.position[0] = (c % 7 + 0.5) * L / 7;
        d.position[1] = (c / 7 % 7 + 0.5) * L / 7;
        d.position[2] = (c / 49 + 0.5) * L / 7;
        for (int k = 0; k < 3; k++)
            d.velocity[k] = rng_normal(&r);
        CHECK_OK(carom_world_add_sphere(a, &d, NULL));
    }
    CHECK_OK(carom_world_set_pass_through(a, 1, 2, 1));
    CHECK_OK(carom_world_advance_to(a, 0.5)); /* melt the lattice */
    int compared = 0, refused = 0, species_changes = 0, table_changes = 0;
    double worst_position = 0.0;
    for (int turn = 0; turn < 90; turn++) {
        /* A few events first: the spheres' records are then of many
         * times (pairs that passed through each other since may meet
         * after the change, and must be timed from now). */
        uint64_t stepped = 0;
        CHECK_OK(carom_world_step_events(a, 1 + (uint64_t)(rng_uniform(&r) * 60.0), &stepped));
        /* A change: mostly a sphere's species, sometimes the table. */
        carom_status st;
        if (turn % 3 == 2 || carom_world_passes_through(a, 2, 2)) {
            /* The rare species 2 starts passing through itself, and
             * stops from the next round on (refused while two of them
             * overlap). */
            st = carom_world_set_pass_through(a, 2, 2, !carom_world_passes_through(a, 2, 2));
            table_changes += st == CAROM_OK;
        } else if (turn % 3 == 1) {
            /* A sphere picked at random takes another species: it may
             * now meet spheres it passed through since its record's time. */
            carom_sphere_id id = (carom_sphere_id)(rng_uniform(&r) * n);
            carom_sphere_state si;
            CHECK_OK(carom_world_get_sphere(a, id, &si));
            st = carom_world_set_species(a, id, (si.species + 1) % 3);
            species_changes += st == CAROM_OK;
        } else {
            /* The pair that would touch first, meeting or not, is made
             * to pass (or meet): its pending events must go. */
            uint32_t pair[2];
            earliest_contact(a, n, L, pair);
            st = CAROM_OK;
            int done = 0;
            for (int side = 0; side < 2 && !done; side++) {
                carom_sphere_state si, sj;
                CHECK_OK(carom_world_get_sphere(a, pair[side], &si));
                CHECK_OK(carom_world_get_sphere(a, pair[1 - side], &sj));
                int meets = !carom_world_passes_through(a, si.species, sj.species);
                for (uint32_t sp = 0; sp < 3 && !done; sp++)
                    if (sp != si.species &&
                        (!carom_world_passes_through(a, sp, sj.species)) != meets) {
                        st = carom_world_set_species(a, pair[side], sp);
                        done = 1;
                    }
            }
            species_changes += done && st == CAROM_OK;
        }
        CHECK(st == CAROM_OK || st == CAROM_ERR_OVERLAP);
        refused += st == CAROM_ERR_OVERLAP;
        /* The fresh world, from a's state now. */
        double t0 = carom_world_time(a);
        carom_world *b = mixture_world(L, CAROM_NEIGHBOURS_CELLS, &log_b);
        for (uint32_t p = 0; p < 3; p++)
            for (uint32_t q = p; q < 3; q++)
                if (carom_world_passes_through(a, p, q))
                    CHECK_OK(carom_world_set_pass_through(b, p, q, 1));
        for (carom_sphere_id i = 0; i < (carom_sphere_id)n; i++) {
            carom_sphere_state s;
            CHECK_OK(carom_world_get_sphere(a, i, &s));
            carom_sphere_def d = carom_sphere_default_def();
            memcpy(d.position, s.position, sizeof d.position);
            memcpy(d.velocity, s.velocity, sizeof d.velocity);
            d.species = s.species;
            CHECK_OK(carom_world_add_sphere(b, &d, NULL));
        }
        log_a.count = log_b.count = 0;
        CHECK_OK(carom_world_advance_to(a, t0 + 0.05));
        CHECK_OK(carom_world_advance_to(b, 0.05));
        int same = 0;
        while (same < log_a.count && same < log_b.count && log_a.i[same] == log_b.i[same] &&
               log_a.j[same] == log_b.j[same] && fabs(log_a.t[same] - t0 - log_b.t[same]) < 1e-9)
            same++;
        if (same < log_a.count || same < log_b.count) {
            fprintf(stderr, "turn %d: collision %d differs (%d and %d logged)\n", turn, same,
                    log_a.count, log_b.count);
            check_failures++;
        }
        compared += same;
        /* Every sphere where the fresh world has it (a missed or extra
         * collision anywhere moves two spheres). */
        double worst = 0.0;
        for (carom_sphere_id i = 0; i < (carom_sphere_id)n; i++) {
            carom_sphere_state sa, sb;
            CHECK_OK(carom_world_get_sphere(a, i, &sa));
            CHECK_OK(carom_world_get_sphere(b, i, &sb));
            for (int k = 0; k < 3; k++) {
                double d = sb.position[k] - sa.position[k];
                d = fabs(d - L * round(d / L));
                worst = d > worst ? d : worst;
            }
        }
        if (!(worst < 1e-7)) {
            fprintf(stderr, "turn %d: a sphere is %g away from the fresh world's\n", turn,
                    worst);
            check_failures++;
        }
        worst_position = worst > worst_position ? worst : worst_position;
        carom_world_free(b);
    }
    printf("changes against fresh worlds (%s): %d species changes, %d table changes, %d refused "
           "(overlap), %d collisions compared, positions within %.2g\n",
           neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", species_changes,
           table_changes, refused, compared, worst_position);
    CHECK(carom_world_list_skin(a) > 0.0 || neighbours != CAROM_NEIGHBOURS_LISTS);
    CHECK(compared > 200);
    CHECK(species_changes >= 10 && table_changes >= 10);
    CHECK(log_a.apart == 0); /* every contact between spheres touching */
    carom_world_free(a);
}

/* neighbours AUTO judges the packing each sphere meets: two fluids of
 * 0.25 through each other (or Widom and Rowlinson's mixture) make cells,
 * the same spheres all meeting (0.5) lists, and a few ghosts in a dense
 * fluid lists still. */
static void test_automatic_neighbours(void)
{
    for (int table = 0; table < 4; table++) {
        carom_world_def def = carom_world_default_def();
        const int n = 1000;
        double L = pow(n * 4.18879020478639 * 0.125 / 0.5, 1.0 / 3.0);
        for (int a = 0; a < 3; a++)
            def.box[a] = L;
        carom_error e;
        carom_world *w = carom_world_create(&def, &e);
        int side = 10;
        for (int c = 0; c < n; c++) {
            carom_sphere_def d = carom_sphere_default_def();
            d.position[0] = (c % side + 0.5) * L / side;
            d.position[1] = (c / side % side + 0.5) * L / side;
            d.position[2] = (c / (side * side) + 0.5) * L / side;
            d.velocity[c % 3] = c % 2 ? 1.0 : -1.0;
            d.species = table == 3 ? (c % 50 == 0) : (uint32_t)(c % 2);
            CHECK_OK(carom_world_add_sphere(w, &d, NULL));
        }
        if (table == 1)
            CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
        if (table == 2) {
            CHECK_OK(carom_world_set_pass_through(w, 0, 0, 1));
            CHECK_OK(carom_world_set_pass_through(w, 1, 1, 1));
        }
        if (table == 3)
            CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
        CHECK_OK(carom_world_advance_to(w, 0.1));
        int lists = carom_world_list_skin(w) > 0.0;
        CHECK(lists == (table == 0 || table == 3));
        carom_world_free(w);
    }
}

/* A report-only world reports the pairs that meet only; a growing one
 * keeps apart only the pairs that meet. */
static void test_report_only_and_growth(void)
{
    /* Report only: species 1 passes species 0; like pairs are reported. */
    carom_world_def def = carom_world_default_def();
    for (int a = 0; a < 3; a++)
        def.box[a] = 20.0;
    def.response = CAROM_RESPONSE_NONE;
    def.record_contacts = 1;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    add(w, 3.0, 5.0, 1.0, 0);  /* meets 1 (species 1) at t = 1.5 */
    add(w, 7.0, 5.0, -1.0, 1); /* ... and 2 (species 0) at t = 3.5 */
    add(w, 11.0, 5.0, -1.0, 0);
    CHECK_OK(carom_world_advance_to(w, 5.0));
    size_t count = 0;
    const carom_contact *c = carom_world_recorded_contacts(w, &count);
    CHECK(count == 1);
    if (count == 1) {
        CHECK(c[0].kind == CAROM_CONTACT_SPHERE);
        CHECK((c[0].i == 0 && c[0].j == 2) || (c[0].i == 2 && c[0].j == 0));
        CHECK_NEAR(c[0].time, 3.5, 1e-12);
    }
    carom_world_free(w);

    /* Growth: two hard-sphere fluids through each other grow from packing
     * 0.2 each (0.4 in all) by 25% in radius: each stays apart, unlike
     * spheres overlap. */
    def = carom_world_default_def();
    const int n = 800;
    double L = pow(n * 4.18879020478639 * 0.125 / 0.4, 1.0 / 3.0);
    for (int a = 0; a < 3; a++)
        def.box[a] = L;
    w = carom_world_create(&def, &e);
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    rng r;
    rng_seed(&r, 5);
    int side = 10;
    for (int c2 = 0; c2 < n; c2++) {
        carom_sphere_def d = carom_sphere_default_def();
        int s2 = c2 % 2, k = c2 / 2;
        double off = s2 ? 0.5 * L / side : 0.0; /* unlike spheres start overlapping */
        d.position[0] = fmod((k % side + 0.25) * L / side + off, L);
        d.position[1] = fmod((k / side % side + 0.25) * L / side + off, L);
        d.position[2] = fmod((k / (side * side) + 0.25) * L / side * 2.0 + off, L);
        for (int a = 0; a < 3; a++)
            d.velocity[a] = rng_normal(&r);
        d.species = (uint32_t)s2;
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 0.1));
    CHECK_OK(carom_world_set_growth(w, 0.25));
    CHECK_OK(carom_world_advance_to(w, 1.1)); /* radii 0.625 */
    CHECK_OK(carom_world_set_growth(w, 0.0));
    int unlike = 0, like = 0;
    for (carom_sphere_id i = 0; i < (carom_sphere_id)n; i++)
        for (carom_sphere_id j = i + 1; j < (carom_sphere_id)n; j++) {
            carom_sphere_state a, b;
            CHECK_OK(carom_world_get_sphere(w, i, &a));
            CHECK_OK(carom_world_get_sphere(w, j, &b));
            double d2 = 0.0;
            for (int k = 0; k < 3; k++) {
                double d = b.position[k] - a.position[k];
                d -= L * round(d / L);
                d2 += d * d;
            }
            double sigma = a.radius + b.radius;
            if (d2 < sigma * sigma * (1.0 - 1e-9))
                *(a.species == b.species ? &like : &unlike) += 1;
        }
    carom_sphere_state s0;
    CHECK_OK(carom_world_get_sphere(w, 0, &s0));
    printf("growth: radius %.4f, packing %.3f, like overlaps %d, unlike overlaps %d\n",
           s0.radius, carom_world_packing_fraction(w), like, unlike);
    CHECK_NEAR(s0.radius, 0.625, 1e-9);
    CHECK(like == 0 && unlike > 50);
    carom_world_free(w);
}

static void test_refusals(void)
{
    contacts k;
    carom_world *w = make_world(3, 20.0, CAROM_BOUNDARY_PERIODIC, &k);
    carom_sphere_def d = carom_sphere_default_def();
    d.species = CAROM_SPECIES_MAX;
    CHECK(carom_world_add_sphere(w, &d, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "species must be below 32") != NULL);
    CHECK(carom_world_sphere_count(w) == 0);
    CHECK(carom_world_set_pass_through(w, 0, 32, 1) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_passes_through(w, 0, 32) == 0);
    CHECK(carom_world_set_species(w, 0, 1) == CAROM_ERR_NO_SUCH_SPHERE);
    carom_sphere_id a = add(w, 3.0, 5.0, 1.0, 31);
    CHECK(carom_world_set_species(w, a, 40) == CAROM_ERR_INVALID_ARGUMENT);
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, a, &s));
    CHECK(s.species == 31);
    /* From a callback: refused, nothing changed. */
    add(w, 7.0, 5.0, -1.0, 0);
    k.world = w;
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(k.spheres == 1);
    CHECK(k.from_callback[0] == CAROM_ERR_IN_CALLBACK);
    CHECK(k.from_callback[1] == CAROM_ERR_IN_CALLBACK);
    CHECK(carom_world_passes_through(w, 0, 1) == 0);
    CHECK_OK(carom_world_get_sphere(w, a, &s));
    CHECK(s.species == 31);
    carom_world_free(w);
}

int main(void)
{
    test_head_on();
    test_one_species_passes_itself();
    test_overlaps();
    test_change_on_the_way();
    test_walls();
    test_driven();
    test_dense_mixture(3);
    test_dense_mixture(2);
    test_changes_against_fresh_worlds(CAROM_NEIGHBOURS_CELLS);
    test_changes_against_fresh_worlds(CAROM_NEIGHBOURS_LISTS);
    test_automatic_neighbours();
    test_report_only_and_growth();
    test_refusals();
    return CHECK_REPORT();
}
