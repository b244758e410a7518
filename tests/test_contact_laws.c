/* Contact laws by species: restitution (carom_world_set_pair_restitution,
 * carom_world_set_wall_restitution) and friction
 * (carom_world_set_pair_friction, carom_world_set_wall_friction), checked
 * against the test's own arithmetic:
 *
 * - the coefficients in force are def's until set, the pair tables are
 *   symmetric, a world turns rough (keeps spins) when a tangential
 *   restitution other than -1 is set, and bad species, coefficients and
 *   calls from a callback are refused and change nothing;
 * - a head-on collision of unequal masses leaves at the velocities the
 *   pair's coefficient gives, while a pair of another species nearby
 *   stays elastic; a wall and a plane return each species at its own
 *   coefficient;
 * - in a gas of three species between two walls, starting smooth, with
 *   the laws (smooth, rough, sliding) and the spheres' species changed
 *   between advances, every contact follows its pair's (or its species'
 *   wall) law, checked from the velocities and spins each sphere left
 *   its last contact with: the approach speed turns into -e times
 *   itself, the slip of the surfaces where they touch into -beta times
 *   itself unless that asks for more than mu times the normal impulse
 *   (then the largest impulse allowed), smooth contacts leave spins
 *   alone, a pair's momentum is kept, and the energy lost (spins
 *   included) is the sum of what the contacts took;
 * - tables that set every pair to def's laws give the same run, spins
 *   included, bit for bit, as def alone. */
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
    carom_status pair, wall, friction;
} from_callback;

static void try_from_callback(void *user, carom_contact *c)
{
    (void)c;
    from_callback *f = user;
    f->pair = carom_world_set_pair_restitution(f->world, 0, 1, 0.5);
    f->wall = carom_world_set_wall_restitution(f->world, 0, 0.5);
    f->friction = carom_world_set_pair_friction(f->world, 0, 1, 0.5, 1.0);
}

static void check_friction(carom_world *w, uint32_t a, uint32_t b, double beta, double mu)
{
    double got_beta = 0.0, got_mu = 0.0;
    CHECK_OK(carom_world_pair_friction(w, a, b, &got_beta, &got_mu));
    CHECK(got_beta == beta && got_mu == mu);
}

/* Friction: def's until set; symmetric; rough once a beta other than -1
 * is in force (with spins for the spheres there already), smooth again
 * (spins kept) when it is -1 again. */
static void test_friction_table(void)
{
    carom_world *w = make_world(3, 20.0, periodic, 1.0, 1.0, NULL, NULL);
    carom_sphere_id a = add(w, 3.0, 5.0, 1.0, 1.0, 0);
    check_friction(w, 0, 31, -1.0, INFINITY);
    double beta, mu;
    CHECK_OK(carom_world_wall_friction(w, 7, &beta, &mu));
    CHECK(beta == -1.0 && mu == INFINITY);
    CHECK(!carom_world_is_rough(w));
    CHECK_OK(carom_world_set_pair_friction(w, 2, 1, 0.5, 0.25));
    check_friction(w, 1, 2, 0.5, 0.25);
    check_friction(w, 2, 1, 0.5, 0.25);
    check_friction(w, 1, 1, -1.0, INFINITY);
    CHECK(carom_world_pair_restitution(w, 1, 2) == 1.0); /* restitution untouched */
    CHECK(carom_world_is_rough(w));
    double spin[3] = {0.0, 0.0, 3.0}, got[3];
    CHECK_OK(carom_world_set_spin(w, a, spin));
    CHECK_OK(carom_world_set_pair_friction(w, 1, 2, -1.0, 0.25));
    CHECK(!carom_world_is_rough(w));
    CHECK_OK(carom_world_get_spin(w, a, got));
    CHECK(got[2] == 3.0);
    CHECK_OK(carom_world_set_wall_friction(w, 4, 0.0, INFINITY));
    CHECK(carom_world_is_rough(w));
    const double bad_beta[] = {-1.5, 1.0000001, NAN};
    for (size_t k = 0; k < sizeof bad_beta / sizeof bad_beta[0]; k++) {
        CHECK(carom_world_set_pair_friction(w, 0, 1, bad_beta[k], 1.0) ==
              CAROM_ERR_INVALID_ARGUMENT);
        CHECK(strstr(carom_world_error_message(w), "tangential restitution") != NULL);
        CHECK(carom_world_set_wall_friction(w, 0, bad_beta[k], 1.0) == CAROM_ERR_INVALID_ARGUMENT);
    }
    CHECK(carom_world_set_pair_friction(w, 0, 1, 0.5, -0.1) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "friction") != NULL);
    CHECK(carom_world_set_pair_friction(w, 0, 1, 0.5, NAN) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_set_wall_friction(w, 0, 0.5, -1.0) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_set_pair_friction(w, 32, 1, 0.5, 1.0) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_set_wall_friction(w, 32, 0.5, 1.0) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_pair_friction(w, 0, 32, &beta, &mu) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_wall_friction(w, 32, &beta, &mu) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_pair_friction(w, 0, 1, NULL, &mu) == CAROM_ERR_INVALID_ARGUMENT);
    check_friction(w, 0, 1, -1.0, INFINITY);
    carom_world_free(w);

    /* Rough before any sphere: spheres added later get spins, and a
     * glancing contact of the pair turns them (its slip reversed, beta 1:
     * equal spins, their energy taken from the translation). */
    w = make_world(3, 20.0, periodic, 1.0, 1.0, NULL, NULL);
    CHECK_OK(carom_world_set_pair_friction(w, 0, 0, 1.0, INFINITY));
    CHECK(carom_world_is_rough(w));
    carom_sphere_id p = add(w, 3.0, 5.0, 1.0, 1.0, 0), q = add(w, 7.0, 5.5, -1.0, 1.0, 0);
    double e0 = carom_world_kinetic_energy(w);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    double wp[3], wq[3];
    CHECK_OK(carom_world_get_spin(w, p, wp));
    CHECK_OK(carom_world_get_spin(w, q, wq));
    CHECK(wp[2] != 0.0 && wp[2] == wq[2]);
    CHECK_REL(carom_world_kinetic_energy(w) + carom_world_rotational_energy(w), e0, 1e-14);
    CHECK(carom_world_kinetic_energy(w) < 0.99 * e0);
    carom_world_free(w);

    /* A report-only world is never rough. */
    carom_world_def def = carom_world_default_def();
    def.response = CAROM_RESPONSE_NONE;
    carom_error err;
    w = carom_world_create(&def, &err);
    CHECK_OK(carom_world_set_pair_friction(w, 0, 0, 1.0, INFINITY));
    CHECK(!carom_world_is_rough(w));
    carom_world_free(w);
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
    CHECK(f.pair == CAROM_ERR_IN_CALLBACK && f.wall == CAROM_ERR_IN_CALLBACK &&
          f.friction == CAROM_ERR_IN_CALLBACK);
    CHECK(!carom_world_is_rough(w));
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

/* What the gas test checks at every contact. Velocities and spins
 * change only at contacts (no gravity), so the state each sphere left
 * its last contact with is its state before the next one. */
#define GAS_SPHERES 600
typedef struct ledger {
    carom_world *world;
    double v[GAS_SPHERES][3], w[GAS_SPHERES][3]; /* after each sphere's last contact */
    double inertia_factor;
    size_t spheres, surfaces, sliding, rough;
    double lost;        /* kinetic energy (with the spins') the contacts took */
    double worst;       /* largest departure from the laws, relative */
    double worst_push;  /* largest momentum a pair contact made, relative */
} ledger;

static double norm(const double a[3])
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

static void cross(double out[3], const double a[3], const double b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The part of u across unit n. */
static void across(double out[3], const double u[3], const double n[3])
{
    double along = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
    for (int k = 0; k < 3; k++)
        out[k] = u[k] - along * n[k];
}

/* The tangential law: the slip u_t before turns into (1 - s (1 + beta))
 * u_t, s = 1 unless the impulse that asks for exceeds mu times the
 * normal one (`reach`: the tangential impulse per unit of slip change,
 * so that the impulse asked is (1 + beta) |u_t| reach). Returns the
 * departure of `after` from that, relative to |u_t| (0 if no slip). */
static double tangential_departure(ledger *g, const double before[3], const double after[3],
                                   double beta, double mu, double reach, double normal)
{
    double size = norm(before);
    if (size == 0.0)
        return norm(after);
    double asked = (1.0 + beta) * size * reach, s = 1.0;
    if (asked > mu * normal) {
        s = mu * normal / asked;
        g->sliding++;
    }
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = after[k] - (1.0 - s * (1.0 + beta)) * before[k];
    return norm(d) / size;
}

static double energy_of(const ledger *g, const carom_sphere_state *s, const double v[3],
                        const double w[3])
{
    double inertia = g->inertia_factor * s->mass * s->radius * s->radius;
    return 0.5 * s->mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
           0.5 * inertia * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
}

static void pair_contact(ledger *g, const carom_contact *c, const carom_sphere_state *si)
{
    carom_sphere_state sj;
    CHECK_OK(carom_world_get_sphere(g->world, c->j, &sj));
    double wi[3], wj[3];
    CHECK_OK(carom_world_get_spin(g->world, c->i, wi));
    CHECK_OK(carom_world_get_spin(g->world, c->j, wj));
    const double *vi0 = g->v[c->i], *vj0 = g->v[c->j], *wi0 = g->w[c->i], *wj0 = g->w[c->j];
    const double *vi = c->velocity_after[0], *vj = c->velocity_after[1], *n = c->normal;
    double ia = 1.0 / si->mass, ib = 1.0 / sj.mass;
    double e = carom_world_pair_restitution(g->world, si->species, sj.species), beta, mu;
    CHECK_OK(carom_world_pair_friction(g->world, si->species, sj.species, &beta, &mu));
    /* Normal: the approach speed turns into e times itself. */
    double before = 0.0, after = 0.0;
    for (int k = 0; k < 3; k++) {
        before += (vj0[k] - vi0[k]) * n[k];
        after += (vj[k] - vi[k]) * n[k];
    }
    g->worst = fmax(g->worst, fabs(after + e * before) / -before);
    /* Tangential: the surfaces' slip where they touch (j's surface
     * relative to i's at i + r_i n). */
    double slip0[3], slip[3], arm0[3], arm[3], turn0[3], turn[3], u0[3], u[3];
    for (int k = 0; k < 3; k++) {
        arm0[k] = si->radius * wi0[k] + sj.radius * wj0[k];
        arm[k] = si->radius * wi[k] + sj.radius * wj[k];
    }
    cross(turn0, arm0, n);
    cross(turn, arm, n);
    for (int k = 0; k < 3; k++) {
        u0[k] = vj0[k] - vi0[k] - turn0[k];
        u[k] = vj[k] - vi[k] - turn[k];
    }
    across(slip0, u0, n);
    across(slip, u, n);
    if (beta != -1.0) {
        double reach = 1.0 / ((ia + ib) * (1.0 + 1.0 / g->inertia_factor));
        g->worst = fmax(g->worst,
                        tangential_departure(g, slip0, slip, beta, mu, reach, c->impulse));
        g->rough++;
    } else {
        for (int k = 0; k < 3; k++) /* smooth: spins untouched */
            g->worst = fmax(g->worst, fabs(wi[k] - wi0[k]) + fabs(wj[k] - wj0[k]));
    }
    /* Momentum: what one gains the other loses. */
    double push = 0.0, scale = si->mass * norm(vi0) + sj.mass * norm(vj0);
    for (int k = 0; k < 3; k++)
        push += fabs(si->mass * (vi[k] - vi0[k]) + sj.mass * (vj[k] - vj0[k]));
    g->worst_push = fmax(g->worst_push, push / scale);
    g->lost += energy_of(g, si, vi0, wi0) + energy_of(g, &sj, vj0, wj0) -
               energy_of(g, si, vi, wi) - energy_of(g, &sj, vj, wj);
    memcpy(g->v[c->j], vj, sizeof g->v[c->j]);
    memcpy(g->w[c->j], wj, sizeof g->w[c->j]);
    g->spheres++;
}

static void surface_contact(ledger *g, const carom_contact *c, const carom_sphere_state *si)
{
    double wi[3];
    CHECK_OK(carom_world_get_spin(g->world, c->i, wi));
    const double *v0 = g->v[c->i], *w0 = g->w[c->i], *v = c->velocity_after[0], *n = c->normal;
    double e = carom_world_wall_restitution(g->world, si->species), beta, mu;
    CHECK_OK(carom_world_wall_friction(g->world, si->species, &beta, &mu));
    double into = 0.0, away = 0.0; /* n points towards the surface */
    for (int k = 0; k < 3; k++) {
        into += v0[k] * n[k];
        away -= v[k] * n[k];
    }
    g->worst = fmax(g->worst, fabs(away - e * into) / into);
    /* The sphere's surface where it touches, v + w x (r n). */
    double arm[3], turn0[3], turn[3], u0[3], u[3], slip0[3], slip[3];
    for (int k = 0; k < 3; k++)
        arm[k] = si->radius * n[k];
    cross(turn0, w0, arm);
    cross(turn, wi, arm);
    for (int k = 0; k < 3; k++) {
        u0[k] = v0[k] + turn0[k];
        u[k] = v[k] + turn[k];
    }
    across(slip0, u0, n);
    across(slip, u, n);
    if (beta != -1.0) {
        /* per unit mass: the change of velocity is k / (1 + k) of the slip's */
        double reach = g->inertia_factor / (1.0 + g->inertia_factor);
        g->worst = fmax(g->worst, tangential_departure(g, slip0, slip, beta, mu, reach,
                                                       away + into));
        g->rough++;
    } else {
        for (int k = 0; k < 3; k++)
            g->worst = fmax(g->worst, fabs(wi[k] - w0[k]));
    }
    g->lost += energy_of(g, si, v0, w0) - energy_of(g, si, v, wi);
    g->surfaces++;
}

static void keep_ledger(void *user, carom_contact *c)
{
    ledger *g = user;
    carom_sphere_state si;
    CHECK_OK(carom_world_get_sphere(g->world, c->i, &si));
    if (c->kind == CAROM_CONTACT_SPHERE)
        pair_contact(g, c, &si);
    else
        surface_contact(g, c, &si);
    memcpy(g->v[c->i], c->velocity_after[0], sizeof g->v[c->i]);
    CHECK_OK(carom_world_get_spin(g->world, c->i, g->w[c->i]));
}

static double total_energy(const ledger *g, carom_world *w)
{
    double sum = 0.0;
    for (carom_sphere_id id = 0; id < GAS_SPHERES; id++) {
        carom_sphere_state s;
        double spin[3];
        CHECK_OK(carom_world_get_sphere(w, id, &s));
        CHECK_OK(carom_world_get_spin(w, id, spin));
        sum += energy_of(g, &s, s.velocity, spin);
    }
    return sum;
}

/* New laws for species 0 to 2: restitutions in [0.3, 1]; a tangential
 * restitution in [-1, 1], -1 (smooth) one time in three, with a
 * friction coefficient in [0, 1] one time in two, else none. */
static void draw_laws(carom_world *w, rng *r)
{
    for (uint32_t a = 0; a < 3; a++) {
        double beta[4], mu[4];
        for (int q = 0; q < 4; q++) {
            beta[q] = rng_next(r) % 3 == 0 ? -1.0 : rng_uniform_range(r, -1.0, 1.0);
            mu[q] = rng_next(r) % 2 ? rng_uniform(r) : INFINITY;
        }
        for (uint32_t b = a; b < 3; b++) {
            CHECK_OK(carom_world_set_pair_restitution(w, a, b, rng_uniform_range(r, 0.3, 1.0)));
            CHECK_OK(carom_world_set_pair_friction(w, a, b, beta[b], mu[b]));
        }
        CHECK_OK(carom_world_set_wall_restitution(w, a, rng_uniform_range(r, 0.3, 1.0)));
        CHECK_OK(carom_world_set_wall_friction(w, a, beta[3], mu[3]));
    }
}

/* 600 spheres of three species (masses 1, 2, 0.5), walls across x and a
 * plane, periodic along y and z; the world starts smooth, and before
 * every advance the laws change and a few spheres change species. */
static void test_every_contact_by_its_law(void)
{
    static ledger g;
    memset(&g, 0, sizeof g);
    g.inertia_factor = 0.4; /* def's 0 in 3D: a solid sphere */
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
    for (int i = 0; i < 12 && n < GAS_SPHERES; i++)
        for (int j = 0; j < 10 && n < GAS_SPHERES; j++)
            for (int k = 0; k < 10 && n < GAS_SPHERES; k++, n++) {
                carom_sphere_def d = carom_sphere_default_def();
                d.position[0] = 1.0 + 1.1 * i;
                d.position[1] = 0.8 + 1.5 * j;
                d.position[2] = 0.8 + 1.5 * k;
                d.species = (uint32_t)(n % 3);
                d.mass = masses[n % 3];
                d.radius = 0.3 + 0.2 * rng_uniform(&r);
                for (int a = 0; a < 3; a++)
                    g.v[n][a] = d.velocity[a] = rng_normal(&r);
                CHECK_OK(carom_world_add_sphere(w, &d, NULL));
            }
    CHECK(!carom_world_is_rough(w));
    double e0 = total_energy(&g, w);
    for (int round = 0; round < 8; round++) {
        draw_laws(w, &r);
        for (int k = 0; k < 20; k++) {
            carom_sphere_id id = (carom_sphere_id)(rng_next(&r) % n);
            CHECK_OK(carom_world_set_species(w, id, (uint32_t)(rng_next(&r) % 3)));
        }
        CHECK_OK(carom_world_advance_to(w, 1.0 * (round + 1)));
    }
    CHECK(carom_world_is_rough(w));
    double e = total_energy(&g, w);
    fprintf(stderr,
            "  %zu sphere and %zu surface contacts (%zu rough, %zu sliding), worst relative "
            "departure %.3g, momentum %.3g; energy %.6f -> %.6f, contacts took %.6f\n",
            g.spheres, g.surfaces, g.rough, g.sliding, g.worst, g.worst_push, e0, e, g.lost);
    CHECK(g.spheres > 2000 && g.surfaces > 250 && g.rough > 1000 && g.sliding > 100);
    CHECK(g.worst < 1e-9);
    CHECK(g.worst_push < 1e-12);
    CHECK_REL(e0 - e, g.lost, 1e-9);
    CHECK(e < 0.5 * e0); /* they did dissipate */
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

/* The same gas twice: def's laws (restitution 0.8, tangential
 * restitution 0.5 and friction 0.3 for pairs; 0.7, 0.2 and 1 with walls),
 * and def's elastic smooth ones with every pair and species of the gas
 * set to those. */
static void test_table_of_defs_is_def(void)
{
    carom_world *w[2];
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    for (int a = 0; a < 2; a++) {
        def.box[a] = 30.0;
        def.boundary[a] = CAROM_BOUNDARY_WALLS;
    }
    def.restitution = 0.8;
    def.wall_restitution = 0.7;
    def.tangential_restitution = 0.5;
    def.friction = 0.3;
    def.wall_tangential_restitution = 0.2;
    def.wall_friction = 1.0;
    carom_error err;
    w[0] = carom_world_create(&def, &err);
    w[1] = make_world(2, 30.0, walls, 1.0, 1.0, NULL, NULL);
    for (uint32_t a = 0; a < 3; a++) {
        for (uint32_t b = 0; b < 3; b++) {
            CHECK_OK(carom_world_set_pair_restitution(w[1], a, b, 0.8));
            CHECK_OK(carom_world_set_pair_friction(w[1], a, b, 0.5, 0.3));
        }
        CHECK_OK(carom_world_set_wall_restitution(w[1], a, 0.7));
        CHECK_OK(carom_world_set_wall_friction(w[1], a, 0.2, 1.0));
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
    int same = 1, spinning = 0;
    for (carom_sphere_id id = 0; id < 400; id++) {
        carom_sphere_state s0, s1;
        double spin0[3], spin1[3];
        CHECK_OK(carom_world_get_sphere(w[0], id, &s0));
        CHECK_OK(carom_world_get_sphere(w[1], id, &s1));
        CHECK_OK(carom_world_get_spin(w[0], id, spin0));
        CHECK_OK(carom_world_get_spin(w[1], id, spin1));
        same = same && memcmp(s0.position, s1.position, sizeof s0.position) == 0 &&
               memcmp(s0.velocity, s1.velocity, sizeof s0.velocity) == 0 &&
               memcmp(spin0, spin1, sizeof spin0) == 0;
        spinning += spin0[2] != 0.0;
    }
    carom_stats st;
    carom_world_get_stats(w[0], &st);
    CHECK(st.collisions > 1000 && spinning > 300);
    CHECK(same);
    carom_world_free(w[0]);
    carom_world_free(w[1]);
}

int main(void)
{
    RUN(test_defaults_and_refusals);
    RUN(test_friction_table);
    RUN(test_head_on_by_pair);
    RUN(test_walls_by_species);
    RUN(test_every_contact_by_its_law);
    RUN(test_table_of_defs_is_def);
    return CHECK_REPORT();
}
