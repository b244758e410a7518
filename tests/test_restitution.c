/* Restitution by species (carom_world_set_pair_restitution,
 * carom_world_set_wall_restitution), checked against the test's own
 * arithmetic:
 *
 * - the coefficients in force are def's until set, the pair table is
 *   symmetric, and bad species, coefficients and calls from a callback
 *   are refused and change nothing;
 * - a head-on collision of unequal masses leaves at the velocities the
 *   pair's coefficient gives, while a pair of another species nearby
 *   stays elastic; a wall and a plane return each species at its own
 *   coefficient;
 * - in a gas of three species between two walls, with the table and the
 *   spheres' species changed between advances, every contact separates
 *   at exactly its pair's (or its species' wall) coefficient times its
 *   approach speed, the energy lost is the sum of what the contacts
 *   lost, and momentum along the periodic axes is kept;
 * - a table that sets every pair to def's value gives the same run, bit
 *   for bit, as def alone. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "rng.h"

static carom_world *make_world(int dim, double box, const carom_boundary boundary[3],
                               double e, double e_wall, carom_contact_fn on_contact, void *user)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int a = 0; a < 3; a++) {
        def.box[a] = box;
        def.boundary[a] = boundary[a];
    }
    def.restitution = e;
    def.wall_restitution = e_wall;
    def.restitution_min_speed = 1e-12;
    def.on_contact = on_contact;
    def.user_data = user;
    carom_error err;
    carom_world *w = carom_world_create(&def, &err);
    CHECK(w != NULL);
    return w;
}

static const carom_boundary periodic[3] = {CAROM_BOUNDARY_PERIODIC, CAROM_BOUNDARY_PERIODIC,
                                           CAROM_BOUNDARY_PERIODIC};
static const carom_boundary walls[3] = {CAROM_BOUNDARY_WALLS, CAROM_BOUNDARY_WALLS,
                                        CAROM_BOUNDARY_WALLS};

static carom_sphere_id add(carom_world *w, double x, double y, double vx, double mass,
                           uint32_t species)
{
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = x;
    d.position[1] = y;
    d.position[2] = 5.0;
    d.velocity[0] = vx;
    d.mass = mass;
    d.species = species;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &d, &id));
    return id;
}

static double vx_of(carom_world *w, carom_sphere_id id)
{
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, id, &s));
    return s.velocity[0];
}

typedef struct from_callback {
    carom_world *world;
    carom_status pair, wall;
} from_callback;

static void try_from_callback(void *user, carom_contact *c)
{
    (void)c;
    from_callback *f = user;
    f->pair = carom_world_set_pair_restitution(f->world, 0, 1, 0.5);
    f->wall = carom_world_set_wall_restitution(f->world, 0, 0.5);
}

static void test_defaults_and_refusals(void)
{
    from_callback f = {0};
    carom_world *w = make_world(3, 20.0, periodic, 0.7, 0.6, try_from_callback, &f);
    f.world = w;
    CHECK(carom_world_pair_restitution(w, 0, 31) == 0.7);
    CHECK(carom_world_wall_restitution(w, 31) == 0.6);
    CHECK(isnan(carom_world_pair_restitution(w, 0, CAROM_SPECIES_MAX)));
    CHECK(isnan(carom_world_pair_restitution(w, CAROM_SPECIES_MAX, 0)));
    CHECK(isnan(carom_world_wall_restitution(w, CAROM_SPECIES_MAX)));
    CHECK_OK(carom_world_set_pair_restitution(w, 3, 5, 0.2));
    CHECK(carom_world_pair_restitution(w, 5, 3) == 0.2 && carom_world_pair_restitution(w, 3, 5) == 0.2);
    CHECK(carom_world_pair_restitution(w, 3, 3) == 0.7 && carom_world_pair_restitution(w, 5, 4) == 0.7);
    CHECK(carom_world_wall_restitution(w, 3) == 0.6); /* the wall table is its own */
    CHECK_OK(carom_world_set_wall_restitution(w, 4, 0.0));
    CHECK(carom_world_wall_restitution(w, 4) == 0.0 && carom_world_wall_restitution(w, 5) == 0.6);

    const double bad[] = {-0.1, 1.0000001, NAN, INFINITY};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CHECK(carom_world_set_pair_restitution(w, 3, 5, bad[k]) == CAROM_ERR_INVALID_ARGUMENT);
        CHECK(strstr(carom_world_error_message(w), "[0, 1]") != NULL);
        CHECK(carom_world_set_wall_restitution(w, 4, bad[k]) == CAROM_ERR_INVALID_ARGUMENT);
    }
    CHECK(carom_world_set_pair_restitution(w, 0, CAROM_SPECIES_MAX, 0.5) ==
          CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "species") != NULL);
    CHECK(carom_world_set_wall_restitution(w, CAROM_SPECIES_MAX, 0.5) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_pair_restitution(w, 3, 5) == 0.2 && carom_world_wall_restitution(w, 4) == 0.0);

    /* From a callback: refused, nothing changes. */
    add(w, 3.0, 5.0, 1.0, 1.0, 0);
    add(w, 7.0, 5.0, -1.0, 1.0, 1);
    f.pair = f.wall = CAROM_OK;
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(f.pair == CAROM_ERR_IN_CALLBACK && f.wall == CAROM_ERR_IN_CALLBACK);
    CHECK(carom_world_pair_restitution(w, 0, 1) == 0.7 && carom_world_wall_restitution(w, 0) == 0.6);
    carom_world_free(w);
}

/* Sphere a (mass 1, species 0) at x = 3 and b (mass 3, species 1) at
 * x = 7 close at speed 2 and touch at t = 1.5; pair restitution 0.25:
 * the impulse is (1 + 0.25) 2 / (1 + 1/3) = 1.875, so a leaves at
 * 1 - 1.875 = -0.875 and b at -1 + 0.625 = -0.375 (parting at 0.5). Two
 * spheres of species 0 on another row swap their velocities (def's 1). */
static void test_head_on_by_pair(void)
{
    carom_world *w = make_world(3, 20.0, periodic, 1.0, 1.0, NULL, NULL);
    CHECK_OK(carom_world_set_pair_restitution(w, 1, 0, 0.25));
    carom_sphere_id a = add(w, 3.0, 5.0, 1.0, 1.0, 0), b = add(w, 7.0, 5.0, -1.0, 3.0, 1);
    carom_sphere_id c = add(w, 3.0, 12.0, 1.0, 1.0, 0), d = add(w, 7.0, 12.0, -1.0, 3.0, 0);
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK_NEAR(vx_of(w, a), -0.875, 1e-14);
    CHECK_NEAR(vx_of(w, b), -0.375, 1e-14);
    /* elastic, masses 1 and 3: a' = (1 - 3) 1 / 4 + 2 3 (-1) / 4 = -2, b' = 0 */
    CHECK_NEAR(vx_of(w, c), -2.0, 1e-14);
    CHECK_NEAR(vx_of(w, d), 0.0, 1e-14);
    carom_world_free(w);
}

/* A walled box of 10 with a plane x >= 1 (its spheres' centres x >= 1.5):
 * species 0 keeps def's wall restitution 1, species 1 has 0.25. Spheres
 * at speed 2 towards the high wall, and at speed 2 towards the plane. */
static void test_walls_by_species(void)
{
    carom_world *w = make_world(3, 10.0, walls, 1.0, 1.0, NULL, NULL);
    CHECK_OK(carom_world_set_wall_restitution(w, 1, 0.25));
    double normal[3] = {1.0, 0.0, 0.0};
    CHECK_OK(carom_world_add_plane(w, normal, 1.0, NULL));
    carom_sphere_id a = add(w, 7.0, 2.0, 2.0, 1.0, 0), b = add(w, 7.0, 4.0, 2.0, 1.0, 1);
    carom_sphere_id c = add(w, 4.0, 6.0, -2.0, 1.0, 0), d = add(w, 4.0, 8.0, -2.0, 1.0, 1);
    CHECK_OK(carom_world_advance_to(w, 1.5)); /* the wall at t = 1.25, the plane at 1.25 */
    CHECK(vx_of(w, a) == -2.0 && vx_of(w, b) == -0.5);
    CHECK(vx_of(w, c) == 2.0 && vx_of(w, d) == 0.5);
    carom_world_free(w);
}

/* What the gas test checks at every contact. */
typedef struct ledger {
    carom_world *world;
    size_t spheres, surfaces;
    double lost;  /* kinetic energy the contacts took */
    double worst; /* largest |separating - e approaching| / approaching */
} ledger;

static void keep_ledger(void *user, carom_contact *c)
{
    ledger *g = user;
    carom_sphere_state si, sj;
    CHECK_OK(carom_world_get_sphere(g->world, c->i, &si));
    if (c->kind == CAROM_CONTACT_SPHERE) {
        CHECK_OK(carom_world_get_sphere(g->world, c->j, &sj));
        double ia = 1.0 / si.mass, ib = 1.0 / sj.mass, after = 0.0;
        for (int k = 0; k < 3; k++)
            after += (c->velocity_after[1][k] - c->velocity_after[0][k]) * c->normal[k];
        double before = after - c->impulse * (ia + ib); /* < 0: approaching */
        double e = carom_world_pair_restitution(g->world, si.species, sj.species);
        g->worst = fmax(g->worst, fabs(after + e * before) / -before);
        g->lost += 0.5 * (before * before - after * after) / (ia + ib);
        g->spheres++;
    } else {
        double away = 0.0;
        for (int k = 0; k < 3; k++)
            away -= c->velocity_after[0][k] * c->normal[k];
        double into = c->impulse / si.mass - away;
        double e = carom_world_wall_restitution(g->world, si.species);
        g->worst = fmax(g->worst, fabs(away - e * into) / into);
        g->lost += 0.5 * si.mass * (into * into - away * away);
        g->surfaces++;
    }
}

/* 600 spheres of three species (masses 1, 2, 0.5), walls across x and a
 * plane, periodic along y and z; after every advance the table changes
 * and a few spheres change species. */
static void test_every_contact_by_its_pair(void)
{
    ledger g = {0};
    carom_boundary bounds[3] = {CAROM_BOUNDARY_WALLS, CAROM_BOUNDARY_PERIODIC,
                                CAROM_BOUNDARY_PERIODIC};
    carom_world *w = make_world(3, 16.0, bounds, 0.9, 0.8, keep_ledger, &g);
    g.world = w;
    double normal[3] = {-1.0, 0.0, 0.0};
    CHECK_OK(carom_world_add_plane(w, normal, -15.0, NULL)); /* x <= 15 */
    rng r;
    rng_seed(&r, 7);
    const double masses[3] = {1.0, 2.0, 0.5};
    size_t n = 0;
    for (int i = 0; i < 12 && n < 600; i++)
        for (int j = 0; j < 10 && n < 600; j++)
            for (int k = 0; k < 10 && n < 600; k++, n++) {
                carom_sphere_def d = carom_sphere_default_def();
                d.position[0] = 1.0 + 1.1 * i;
                d.position[1] = 0.8 + 1.5 * j;
                d.position[2] = 0.8 + 1.5 * k;
                d.species = (uint32_t)(n % 3);
                d.mass = masses[n % 3];
                d.radius = 0.3 + 0.2 * rng_uniform(&r);
                for (int a = 0; a < 3; a++)
                    d.velocity[a] = rng_normal(&r);
                CHECK_OK(carom_world_add_sphere(w, &d, NULL));
            }
    double p0[3];
    carom_world_momentum(w, p0);
    double e0 = carom_world_kinetic_energy(w);
    for (int round = 0; round < 8; round++) {
        for (uint32_t a = 0; a < 3; a++) {
            for (uint32_t b = a; b < 3; b++)
                CHECK_OK(carom_world_set_pair_restitution(w, a, b, rng_uniform_range(&r, 0.3, 1.0)));
            CHECK_OK(carom_world_set_wall_restitution(w, a, rng_uniform_range(&r, 0.3, 1.0)));
        }
        for (int k = 0; k < 20; k++) {
            carom_sphere_id id = (carom_sphere_id)(rng_next(&r) % n);
            CHECK_OK(carom_world_set_species(w, id, (uint32_t)(rng_next(&r) % 3)));
        }
        CHECK_OK(carom_world_advance_to(w, 1.0 * (round + 1)));
    }
    double p[3];
    carom_world_momentum(w, p);
    double e = carom_world_kinetic_energy(w);
    fprintf(stderr, "  %zu sphere and %zu surface contacts, worst relative departure %.3g; "
            "energy %.6f -> %.6f, contacts took %.6f\n", g.spheres, g.surfaces, g.worst, e0, e,
            g.lost);
    CHECK(g.spheres > 2000 && g.surfaces > 250);
    CHECK(g.worst < 1e-9);
    CHECK_REL(e0 - e, g.lost, 1e-9);
    CHECK(e < 0.5 * e0); /* they did dissipate */
    CHECK_NEAR(p[1], p0[1], 1e-9 * sqrt(e0));
    CHECK_NEAR(p[2], p0[2], 1e-9 * sqrt(e0));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

/* The same gas twice: def's coefficients 0.8 and 0.7, and def's 1 with
 * every pair and species of the gas set to 0.8 and 0.7. */
static void test_table_of_defs_is_def(void)
{
    carom_world *w[2];
    w[0] = make_world(2, 30.0, walls, 0.8, 0.7, NULL, NULL);
    w[1] = make_world(2, 30.0, walls, 1.0, 1.0, NULL, NULL);
    for (uint32_t a = 0; a < 3; a++) {
        for (uint32_t b = 0; b < 3; b++)
            CHECK_OK(carom_world_set_pair_restitution(w[1], a, b, 0.8));
        CHECK_OK(carom_world_set_wall_restitution(w[1], a, 0.7));
    }
    for (int m = 0; m < 2; m++) {
        rng r;
        rng_seed(&r, 11);
        for (int i = 0; i < 20; i++)
            for (int j = 0; j < 20; j++) {
                carom_sphere_def d = carom_sphere_default_def();
                d.position[0] = 1.0 + 1.4 * i;
                d.position[1] = 1.0 + 1.4 * j;
                d.velocity[0] = rng_normal(&r);
                d.velocity[1] = rng_normal(&r);
                d.species = (uint32_t)((i + j) % 3);
                CHECK_OK(carom_world_add_sphere(w[m], &d, NULL));
            }
        CHECK_OK(carom_world_advance_to(w[m], 20.0));
    }
    int same = 1;
    for (carom_sphere_id id = 0; id < 400; id++) {
        carom_sphere_state s0, s1;
        CHECK_OK(carom_world_get_sphere(w[0], id, &s0));
        CHECK_OK(carom_world_get_sphere(w[1], id, &s1));
        same = same && memcmp(s0.position, s1.position, sizeof s0.position) == 0 &&
               memcmp(s0.velocity, s1.velocity, sizeof s0.velocity) == 0;
    }
    carom_stats st;
    carom_world_get_stats(w[0], &st);
    CHECK(st.collisions > 1000);
    CHECK(same);
    carom_world_free(w[0]);
    carom_world_free(w[1]);
}

int main(void)
{
    RUN(test_defaults_and_refusals);
    RUN(test_head_on_by_pair);
    RUN(test_walls_by_species);
    RUN(test_every_contact_by_its_pair);
    RUN(test_table_of_defs_is_def);
    return CHECK_REPORT();
}
