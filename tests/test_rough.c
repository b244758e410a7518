/* Rough spheres (def.tangential_restitution, wall_tangential_restitution,
 * inertia_factor; carom_world_get_spin / set_spin).
 *
 * The response is checked by the laws that define it, not by its
 * formulas: at a contact each side's angular momentum about the point of
 * contact is kept (the impulses act there), so is the momentum of the
 * two, the normal relative speed of the surfaces there becomes -e times
 * itself and the tangential one -beta times itself. These four fix the
 * outcome, so a test of all four cannot pass a wrong response.
 *
 * - 400 random pair contacts in 3D and 2D (radii, masses, one side
 *   sometimes infinite, spins, e and beta random) and 400 contacts with
 *   walls, planes, triangles and segments;
 * - a gas of perfectly rough elastic spheres (beta = 1, e = 1), spins
 *   starting at zero, keeps its energy (translation plus rotation) and
 *   comes to equipartition: the rotational temperature equals the
 *   translational one, in 3D and 2D (sorted in memory order midway);
 * - a ball launched sliding along a floor under gravity ends rolling at
 *   5/7 of its speed, whatever beta in (-1, 1);
 * - smooth contacts (beta = -1) leave spins alone and move spheres to the
 *   last bit as a world without spins does;
 * - bad definitions and spins are refused with a message. */
#include <math.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

/* A small generator of our own (xorshift64*), uniform in [0, 1). */
static double uniform(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (double)((*state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}

static double between(uint64_t *state, double lo, double hi)
{
    return lo + (hi - lo) * uniform(state);
}

static void cross(double out[3], const double a[3], const double b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double norm(const double a[3])
{
    return sqrt(dot(a, a));
}

/* The first contact of a world, as its callback saw it, with the spins
 * read there. */
typedef struct first_contact {
    carom_world *world;
    int seen;
    carom_contact c;
    double spin[2][3];
} first_contact;

static void keep_first(void *user, carom_contact *c)
{
    first_contact *f = user;
    if (f->seen++)
        return;
    f->c = *c;
    CHECK_OK(carom_world_get_spin(f->world, c->i, f->spin[0]));
    if (c->kind == CAROM_CONTACT_SPHERE)
        CHECK_OK(carom_world_get_spin(f->world, c->j, f->spin[1]));
}

/* One side of a contact before it: its centre at the contact, velocity,
 * spin, radius, mass and moment of inertia. */
typedef struct side {
    double x[3], v[3], w[3];
    double r, m, inertia;
} side;

/* The velocity of side s's surface at point p. */
static void surface_velocity(double out[3], const side *s, const double p[3])
{
    double arm[3], turn[3];
    for (int k = 0; k < 3; k++)
        arm[k] = p[k] - s->x[k];
    cross(turn, s->w, arm);
    for (int k = 0; k < 3; k++)
        out[k] = s->v[k] + turn[k];
}

/* Side s's angular momentum about point p. */
static void angular_momentum(double out[3], const side *s, const double p[3])
{
    double arm[3], l[3];
    for (int k = 0; k < 3; k++)
        arm[k] = (s->x[k] - p[k]) * s->m;
    cross(l, arm, s->v);
    for (int k = 0; k < 3; k++)
        out[k] = s->inertia * s->w[k] + l[k];
}

/* The relative velocity u (b's surface less a's) split along unit n. */
static void split(const double u[3], const double n[3], double *normal, double tangential[3])
{
    *normal = dot(u, n);
    for (int k = 0; k < 3; k++)
        tangential[k] = u[k] - *normal * n[k];
}

/* The four laws for a contact between before[0] and before[1] (b NULL:
 * a fixed surface) with unit normal n from a towards b (or the surface),
 * given the states after. tol: relative to the speeds involved. */
static int check_laws(const side before[2], const side after[2], int with_sphere, const double n[3],
                      double e, double beta, double mu, int *slid, double tol)
{
    int failures_before = check_failures;
    double p[3], speed = norm(before[0].v) + norm(before[0].w) * before[0].r;
    for (int k = 0; k < 3; k++)
        p[k] = before[0].x[k] + before[0].r * n[k];
    if (with_sphere)
        speed += norm(before[1].v) + norm(before[1].w) * before[1].r;
    /* The relative surface velocity at p: b's less a's (a fixed surface's is 0). */
    double u0[3], u1[3], ua[3], ub[3];
    surface_velocity(ua, &before[0], p);
    for (int k = 0; k < 3; k++)
        ub[k] = 0.0;
    if (with_sphere)
        surface_velocity(ub, &before[1], p);
    for (int k = 0; k < 3; k++)
        u0[k] = ub[k] - ua[k];
    surface_velocity(ua, &after[0], p);
    if (with_sphere)
        surface_velocity(ub, &after[1], p);
    for (int k = 0; k < 3; k++)
        u1[k] = ub[k] - ua[k];
    double n0, n1, t0[3], t1[3];
    split(u0, n, &n0, t0);
    split(u1, n, &n1, t1);
    CHECK(n0 < 0.0);
    CHECK_NEAR(n1, -e * n0, tol * speed);
    /* The impulse on the second side, from the momentum it gave the
     * other (against a fixed surface: per unit mass). Within Coulomb's
     * limit mu (times its normal part) it makes the slip -beta times
     * itself; at the limit the surfaces slide: the impulse has that size
     * and points against the slip. */
    const side *moved = with_sphere && isinf(before[0].m) ? &before[1] : &before[0];
    const side *moved_after = moved == &before[1] ? &after[1] : &after[0];
    double sign = moved == &before[1] ? 1.0 : -1.0, mass = isinf(moved->m) ? 1.0 : moved->m;
    double impulse[3], jn, jt[3];
    for (int k = 0; k < 3; k++)
        impulse[k] = sign * mass * (moved_after->v[k] - moved->v[k]);
    split(impulse, n, &jn, jt);
    double jt_size = norm(jt), slack = tol * mass * speed;
    CHECK(jn > 0.0);
    if (isfinite(mu) && jt_size >= mu * jn - slack) {
        (*slid)++;
        CHECK_NEAR(jt_size, mu * jn, slack);
        CHECK(dot(jt, t0) <= -(1.0 - 1e-9) * jt_size * norm(t0));
    } else {
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(t1[k], -beta * t0[k], tol * speed);
    }
    /* Angular momentum about p, side by side; infinite masses keep
     * their motion. */
    for (int s = 0; s < (with_sphere ? 2 : 1); s++) {
        side b = before[s], a = after[s];
        if (isinf(b.m) && with_sphere) {
            for (int k = 0; k < 3; k++) {
                CHECK(a.v[k] == b.v[k]);
                CHECK(a.w[k] == b.w[k]);
            }
            continue;
        }
        double l0[3], l1[3];
        angular_momentum(l0, &b, p);
        angular_momentum(l1, &a, p);
        double scale = b.m * speed * (b.r + 1.0);
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(l1[k], l0[k], tol * scale);
    }
    if (with_sphere && !isinf(before[0].m) && !isinf(before[1].m))
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(before[0].m * after[0].v[k] + before[1].m * after[1].v[k],
                       before[0].m * before[0].v[k] + before[1].m * before[1].v[k],
                       tol * (before[0].m + before[1].m) * speed);
    return check_failures == failures_before;
}

static carom_world *rough_world(int dim, double e, double beta, double e_wall, double beta_wall,
                                double inertia, double mu, first_contact *seen)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int k = 0; k < 3; k++) {
        def.box[k] = 40.0;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    def.restitution = e;
    def.wall_restitution = e_wall;
    def.tangential_restitution = beta;
    def.wall_tangential_restitution = beta_wall;
    def.inertia_factor = inertia;
    def.friction = mu;
    def.wall_friction = mu;
    def.on_contact = keep_first;
    def.user_data = seen;
    carom_error err;
    carom_world *w = carom_world_create(&def, &err);
    CHECK(w != NULL);
    seen->world = w;
    seen->seen = 0;
    return w;
}

static void random_vector(double out[3], uint64_t *rng, int dim, double size)
{
    for (int k = 0; k < 3; k++)
        out[k] = k < dim ? between(rng, -size, size) : 0.0;
}

static void random_spin(double out[3], uint64_t *rng, int dim, double size)
{
    for (int k = 0; k < 3; k++)
        out[k] = (dim == 3 || k == 2) ? between(rng, -size, size) : 0.0;
}

static carom_sphere_id add_side(carom_world *w, const side *s)
{
    carom_sphere_def d = carom_sphere_default_def();
    memcpy(d.position, s->x, sizeof d.position);
    memcpy(d.velocity, s->v, sizeof d.velocity);
    d.radius = s->r;
    d.mass = s->m;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &d, &id));
    CHECK_OK(carom_world_set_spin(w, id, s->w));
    return id;
}

static double inertia_of(const side *s, double k_factor)
{
    return k_factor * s->m * s->r * s->r;
}

/* The state of sphere id after the first contact, from what the callback saw. */
static void side_after(side *out, const side *before, const first_contact *f, int which)
{
    *out = *before;
    memcpy(out->v, f->c.velocity_after[which], sizeof out->v);
    memcpy(out->w, f->spin[which], sizeof out->w);
}

static void test_pair_laws(void)
{
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    int checked = 0, passed = 0, infinite = 0, slid = 0;
    for (int trial = 0; trial < 400; trial++) {
        int dim = trial % 2 ? 2 : 3;
        double e = trial % 5 == 0 ? 1.0 : between(&rng, 0.05, 1.0);
        double beta = trial % 7 == 0 ? 1.0 : between(&rng, -1.0, 1.0);
        double inertia = trial % 3 == 0 ? 0.0 : between(&rng, 0.1, 1.0);
        double k_factor = inertia > 0.0 ? inertia : (dim == 2 ? 0.5 : 0.4);
        first_contact seen;
        double mu = (trial / 2) % 2 == 1 ? between(&rng, 0.02, 0.6) : INFINITY;
        carom_world *w = rough_world(dim, e, beta, 1.0, -1.0, inertia, mu, &seen);
        side before[2];
        for (int s = 0; s < 2; s++) {
            before[s].r = between(&rng, 0.3, 1.5);
            before[s].m = between(&rng, 0.2, 5.0);
            random_vector(before[s].v, &rng, dim, 1.0);
            random_spin(before[s].w, &rng, dim, 2.0);
        }
        if (trial % 11 == 3) {
            before[trial % 2].m = INFINITY;
            infinite++;
        }
        /* a at the centre, b at distance sigma + 1 along a random
         * direction, moving towards a so that they meet within a time unit. */
        double dir[3];
        do
            random_vector(dir, &rng, dim, 1.0);
        while (norm(dir) < 0.2);
        double len = norm(dir), sigma = before[0].r + before[1].r;
        for (int k = 0; k < 3; k++) {
            dir[k] /= len;
            before[0].x[k] = k < dim ? 20.0 : 0.0;
            before[1].x[k] = before[0].x[k] + (sigma + 1.0) * dir[k];
            before[1].v[k] = before[0].v[k] - 2.0 * dir[k] + 0.2 * before[1].v[k];
        }
        if (dim == 2)
            before[1].v[2] = 0.0;
        add_side(w, &before[0]);
        add_side(w, &before[1]);
        CHECK_OK(carom_world_advance_to(w, 2.0));
        if (!seen.seen) {
            CHECK(seen.seen); /* b flies at a at speed >= 1.5, from 1 away */
            carom_world_free(w);
            continue;
        }
        CHECK(seen.c.kind == CAROM_CONTACT_SPHERE);
        /* Which of the two is i follows the engine's bookkeeping. */
        int a = seen.c.i == 0 ? 0 : 1;
        side at[2], after[2];
        for (int s = 0; s < 2; s++) {
            at[s] = before[a ^ s];
            at[s].inertia = inertia_of(&at[s], k_factor);
            for (int k = 0; k < 3; k++)
                at[s].x[k] += at[s].v[k] * seen.c.time;
        }
        side_after(&after[0], &at[0], &seen, 0);
        side_after(&after[1], &at[1], &seen, 1);
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = at[1].x[k] - at[0].x[k];
        CHECK_NEAR(norm(d), sigma, 1e-12 * sigma);
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(seen.c.normal[k], d[k] / norm(d), 1e-12);
        checked++;
        passed += check_laws(at, after, 1, seen.c.normal, e, beta, mu, &slid, 1e-12);
        carom_world_free(w);
    }
    fprintf(stderr,
            "  pair contacts: %d checked, %d kept all four laws (%d with an infinite mass, %d "
            "slid at Coulomb's limit)\n",
            checked, passed, infinite, slid);
    CHECK(checked == 400 && passed == 400 && infinite > 20 && slid > 20);
}

/* Sphere s in world w meets one fixed surface first; its normal there,
 * from the sphere towards the surface, is the callback's. */
static void check_surface_contact(carom_world *w, first_contact *seen, side *s, double e,
                                  double beta, double mu, double k_factor, carom_contact_kind kind,
                                  int *checked, int *passed, int *slid)
{
    add_side(w, s);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK(seen->seen);
    if (!seen->seen)
        return;
    CHECK(seen->c.kind == kind);
    side at = *s, after;
    if (isinf(at.m))
        at.m = 1.0; /* against a fixed surface the outcome does not depend on the mass */
    at.inertia = inertia_of(&at, k_factor);
    for (int k = 0; k < 3; k++)
        at.x[k] += at.v[k] * seen->c.time;
    side_after(&after, &at, seen, 0);
    side pair_before[2] = {at, at}, pair_after[2] = {after, after};
    (*checked)++;
    *passed += check_laws(pair_before, pair_after, 0, seen->c.normal, e, beta, mu, slid, 1e-12);
}

static void test_surface_laws(void)
{
    uint64_t rng = 0x2545f4914f6cdd1dULL;
    int checked = 0, passed = 0, slid = 0;
    for (int trial = 0; trial < 400; trial++) {
        int kind = trial % 4; /* wall, plane, triangle (3D), segment (2D) */
        int dim = kind == 3 || (kind < 2 && trial % 8 >= 4) ? 2 : 3;
        double e = between(&rng, 0.05, 1.0), beta = trial % 9 == 0 ? 1.0 : between(&rng, -1.0, 1.0);
        double inertia = trial % 3 == 0 ? 0.0 : between(&rng, 0.1, 1.0);
        double k_factor = inertia > 0.0 ? inertia : (dim == 2 ? 0.5 : 0.4);
        first_contact seen;
        double mu = trial % 4 == 2 ? between(&rng, 0.05, 0.8) : INFINITY;
        carom_world *w = rough_world(dim, 1.0, -1.0, e, beta, inertia, mu, &seen);
        side s;
        s.r = between(&rng, 0.3, 1.5);
        s.m = trial % 13 == 5 ? INFINITY : between(&rng, 0.2, 5.0);
        random_vector(s.v, &rng, dim, 1.0);
        random_spin(s.w, &rng, dim, 2.0);
        for (int k = 0; k < 3; k++)
            s.x[k] = k < dim ? 20.0 : 0.0;
        carom_contact_kind expected = CAROM_CONTACT_WALL;
        if (kind == 0) {
            /* towards the low wall of a random axis, 2 away */
            int axis = (int)(uniform(&rng) * dim);
            s.x[axis] = s.r + 2.0;
            s.v[axis] = -between(&rng, 1.0, 2.0);
        } else if (kind == 1) {
            /* a tilted plane through the box's centre, the sphere 2 in front */
            double n[3];
            do
                random_vector(n, &rng, dim, 1.0);
            while (norm(n) < 0.3);
            double len = norm(n), offset = 0.0;
            for (int k = 0; k < 3; k++) {
                n[k] /= len;
                offset += n[k] * 20.0 * (k < dim);
            }
            CHECK_OK(carom_world_add_plane(w, n, offset, NULL));
            double approach = between(&rng, 1.5, 2.5);
            for (int k = 0; k < dim; k++) {
                s.x[k] = 20.0 + (s.r + 2.0) * n[k];
                s.v[k] = 0.3 * s.v[k] - approach * n[k];
            }
            expected = CAROM_CONTACT_PLANE;
        } else if (kind == 2) {
            /* a large triangle in z = 20, the sphere above its middle */
            double a[3] = {5.0, 5.0, 20.0}, b[3] = {35.0, 5.0, 20.0}, c[3] = {20.0, 35.0, 20.0};
            CHECK_OK(carom_world_add_triangle(w, a, b, c, NULL));
            s.x[1] = 15.0;
            s.x[2] = 20.0 + s.r + 2.0;
            s.v[2] = -between(&rng, 1.0, 2.0);
            expected = CAROM_CONTACT_TRIANGLE;
        } else {
            /* a long segment along x at y = 20, the disk above it */
            double a[2] = {5.0, 20.0}, b[2] = {35.0, 20.0};
            CHECK_OK(carom_world_add_segment(w, a, b, NULL));
            s.x[1] = 20.0 + s.r + 2.0;
            s.v[1] = -between(&rng, 1.0, 2.0);
            expected = CAROM_CONTACT_SEGMENT;
        }
        check_surface_contact(w, &seen, &s, e, beta, mu, k_factor, expected, &checked, &passed,
                              &slid);
        carom_world_free(w);
    }
    fprintf(stderr,
            "  surface contacts: %d checked, %d kept the laws (%d slid at Coulomb's limit)\n",
            checked, passed, slid);
    CHECK(checked == 400 && passed == 400 && slid > 20);
}

/* A gas of perfectly rough elastic spheres (every other one three times
 * heavier), spins starting at zero. */
static void equipartition(int dim, double packing, size_t n)
{
    carom_scene scene;
    carom_scene_init(&scene);
    carom_error err;
    scene.dim = dim;
    double box = carom_box_length_for_packing(dim, n, 0.5, packing);
    for (int k = 0; k < 3; k++) {
        scene.box[k] = box;
        scene.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK_OK(carom_scene_lattice(&scene, n, 0.5, CAROM_LATTICE_AUTO, &err));
    for (size_t k = 1; k < n; k += 2)
        scene.mass[k] = 3.0; /* (so that spins swapped between spheres show) */
    CHECK_OK(carom_scene_maxwell_velocities(&scene, 1.0, 7, &err));
    carom_world_def def = carom_world_default_def();
    def.tangential_restitution = 1.0;
    def.wall_tangential_restitution = 1.0;
    carom_world *w = carom_scene_create_world(&scene, &def, &err);
    CHECK(w != NULL);
    carom_scene_free(&scene);
    if (!w)
        return;
    double energy0 = carom_world_kinetic_energy(w) + carom_world_rotational_energy(w);
    CHECK(carom_world_rotational_energy(w) == 0.0);
    /* Equipartition: translation has dim degrees of freedom, rotation
     * 3 (1 for a disk); the energy shares out as kT / 2 each. */
    double rot_dof = dim == 2 ? 1.0 : 3.0;
    double kt = 2.0 * energy0 / ((dim + rot_dof) * (double)n);
    CHECK_OK(carom_world_advance_to(w, 5.0)); /* several collisions a sphere */
    /* Spins belong to ids, not to the records a sort moves: the energy
     * would tell if a contact took another sphere's spin. */
    CHECK_OK(carom_world_sort_spatially(w));
    carom_stats st;
    carom_world_get_stats(w, &st);
    double sum_tr = 0.0, sum_rot = 0.0, worst = 0.0;
    int samples = 200;
    for (int k = 0; k < samples; k++) {
        CHECK_OK(carom_world_advance_to(w, 5.0 + 0.5 * (k + 1)));
        double energy = carom_world_kinetic_energy(w) + carom_world_rotational_energy(w);
        worst = fmax(worst, fabs(energy - energy0) / energy0);
        sum_tr += carom_world_temperature(w);
        sum_rot += carom_world_rotational_temperature(w);
    }
    carom_world_get_stats(w, &st);
    double t_tr = sum_tr / samples, t_rot = sum_rot / samples;
    fprintf(stderr,
            "  %dD, %zu spheres, %.0f collisions: kT %.4f, translation %.4f, rotation %.4f, "
            "energy within %.1e\n",
            dim, n, (double)st.collisions, kt, t_tr, t_rot, worst);
    CHECK(worst < 1e-10);
    CHECK_REL(t_tr, kt, 0.02);
    CHECK_REL(t_rot, kt, 0.02);
    carom_world_free(w);
}

static void test_equipartition(void)
{
    equipartition(3, 0.3, 500);
    equipartition(2, 0.4, 1000);
}

/* A ball launched sliding along a floor under gravity, spin zero, lands
 * and bounces ever lower; each bounce turns its slip into -beta times
 * itself and keeps its angular momentum about the point of contact,
 * m r v0, so with |beta| < 1 it ends rolling (v = r w) at
 * v0 / (1 + k): 5/7 of v0 for a solid ball, whatever beta, and with
 * Coulomb's limit too (it slides longer). */
static void test_ball_starts_rolling(void)
{
    double betas[] = {0.0, 0.5, -0.5, -1.0, 0.0};
    for (int b = 0; b < 5; b++) {
        carom_world_def def = carom_world_default_def();
        for (int k = 0; k < 3; k++) {
            def.box[k] = 20.0;
            def.boundary[k] = CAROM_BOUNDARY_WALLS;
        }
        def.gravity[2] = -1.0;
        def.wall_restitution = 0.5;
        def.restitution_min_speed = 1e-3;
        def.wall_tangential_restitution = betas[b];
        if (b == 4)
            def.wall_friction = 0.3; /* slides along at first, then rolls */
        carom_error err;
        carom_world *w = carom_world_create(&def, &err);
        CHECK(w != NULL);
        carom_sphere_def s = carom_sphere_default_def();
        double v0 = 1.0, r = s.radius;
        s.position[0] = 2.0;
        s.position[1] = 10.0;
        s.position[2] = r + 0.1;
        s.velocity[0] = v0;
        carom_sphere_id id;
        CHECK_OK(carom_world_add_sphere(w, &s, &id));
        CHECK_OK(carom_world_advance_to(w, 5.0));
        carom_sphere_state st;
        double spin[3];
        CHECK_OK(carom_world_get_sphere(w, id, &st));
        CHECK_OK(carom_world_get_spin(w, id, spin));
        carom_stats stats;
        carom_world_get_stats(w, &stats);
        double rolling = betas[b] == -1.0 ? v0 : v0 / 1.4;
        fprintf(stderr, "  beta %4.1f: %llu bounces, v %.15f (rolling %.15f), r w %.15f\n",
                betas[b], (unsigned long long)stats.wall_hits, st.velocity[0], rolling,
                r * spin[1]);
        CHECK(stats.wall_hits > 1000);
        CHECK_NEAR(st.velocity[0], rolling, 1e-12);
        CHECK_NEAR(r * spin[1], betas[b] == -1.0 ? 0.0 : rolling, 1e-12);
        CHECK(st.velocity[1] == 0.0 && spin[0] == 0.0 && spin[2] == 0.0);
        carom_world_free(w);
    }
}

/* Smooth contacts: spins given to every sphere change nothing. */
static void test_smooth_ignores_spins(void)
{
    carom_world *w[2];
    for (int m = 0; m < 2; m++) {
        carom_scene scene;
        carom_scene_init(&scene);
        carom_error err;
        scene.dim = 3;
        double box = carom_box_length_for_packing(3, 300, 0.5, 0.3);
        for (int k = 0; k < 3; k++) {
            scene.box[k] = box;
            scene.boundary[k] = k == 1 ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC;
        }
        CHECK_OK(carom_scene_lattice(&scene, 300, 0.5, CAROM_LATTICE_AUTO, &err));
        CHECK_OK(carom_scene_maxwell_velocities(&scene, 1.0, 11, &err));
        carom_world_def def = carom_world_default_def();
        def.restitution = 0.9;
        w[m] = carom_scene_create_world(&scene, &def, &err);
        CHECK(w[m] != NULL);
        carom_scene_free(&scene);
    }
    double spin[3] = {1.0, -2.0, 3.0};
    for (carom_sphere_id id = 0; id < 300; id++)
        CHECK_OK(carom_world_set_spin(w[1], id, spin));
    CHECK_OK(carom_world_advance_to(w[0], 5.0));
    CHECK_OK(carom_world_advance_to(w[1], 5.0));
    int same = 1;
    for (carom_sphere_id id = 0; id < 300; id++) {
        carom_sphere_state a, b;
        double got[3];
        CHECK_OK(carom_world_get_sphere(w[0], id, &a));
        CHECK_OK(carom_world_get_sphere(w[1], id, &b));
        CHECK_OK(carom_world_get_spin(w[1], id, got));
        same &= memcmp(&a, &b, sizeof a) == 0 && memcmp(got, spin, sizeof got) == 0;
    }
    carom_stats st;
    carom_world_get_stats(w[1], &st);
    CHECK(same && st.collisions > 1000);
    carom_world_free(w[0]);
    carom_world_free(w[1]);
}

static void test_refusals(void)
{
    carom_error err;
    double bad[] = {1.5, -1.25, NAN};
    for (int k = 0; k < 3; k++) {
        carom_world_def def = carom_world_default_def();
        if (k % 2)
            def.wall_tangential_restitution = bad[k];
        else
            def.tangential_restitution = bad[k];
        CHECK(carom_world_create(&def, &err) == NULL);
        CHECK(err.status == CAROM_ERR_INVALID_ARGUMENT);
        CHECK(strstr(err.message, "tangential_restitution") != NULL);
        def = carom_world_default_def();
        def.inertia_factor = k == 0 ? 1.5 : k == 1 ? -0.1 : NAN;
        CHECK(carom_world_create(&def, &err) == NULL);
        CHECK(strstr(err.message, "inertia_factor") != NULL);
    }
    for (int dim = 2; dim <= 3; dim++) {
        carom_world_def def = carom_world_default_def();
        def.dim = dim;
        carom_world *w = carom_world_create(&def, &err);
        CHECK(w != NULL);
        carom_sphere_def s = carom_sphere_default_def();
        s.position[0] = s.position[1] = s.position[2] = dim == 3 ? 1.0 : 0.0;
        s.position[0] = s.position[1] = 1.0;
        carom_sphere_id id;
        CHECK_OK(carom_world_add_sphere(w, &s, &id));
        double spin[3] = {0.0, 0.0, NAN}, got[3] = {9, 9, 9};
        CHECK(carom_world_get_spin(w, id, got) == CAROM_OK && got[0] == 0.0 && got[2] == 0.0);
        CHECK(carom_world_set_spin(w, id, spin) == CAROM_ERR_INVALID_ARGUMENT);
        CHECK(strstr(carom_world_error_message(w), "spin z") != NULL);
        spin[2] = 1.0;
        spin[0] = dim == 2 ? 0.5 : 0.0;
        CHECK(carom_world_set_spin(w, id, spin) ==
              (dim == 2 ? CAROM_ERR_INVALID_ARGUMENT : CAROM_OK));
        if (dim == 2)
            CHECK(strstr(carom_world_error_message(w), "about z only") != NULL);
        CHECK(carom_world_set_spin(w, id + 1, spin) == CAROM_ERR_NO_SUCH_SPHERE);
        CHECK(carom_world_get_spin(w, id + 1, got) == CAROM_ERR_NO_SUCH_SPHERE);
        CHECK_OK(carom_world_get_spin(w, id, got));
        CHECK(got[2] == (dim == 2 ? 0.0 : 1.0));
        carom_world_free(w);
    }
}

int main(void)
{
    RUN(test_pair_laws);
    RUN(test_surface_laws);
    RUN(test_equipartition);
    RUN(test_ball_starts_rolling);
    RUN(test_smooth_ignores_spins);
    RUN(test_refusals);
    return CHECK_REPORT();
}
