/* Andersen's heat bath (include/carom/thermostat.h).
 *
 * - Relaxation: an elastic gas (masses 1 and 3) started at kT = 2.5 under a bath at kT = 1
 *   with rate nu follows T(t) = 1 + 1.5 exp(-nu t) (each redraw replaces a
 *   sphere's energy, on average E/N, by d kT / 2; collisions keep the
 *   energy), within 0.05 at every check, and the redraws number nu N t
 *   within five standard deviations. 3D and 2D. In a rough world the
 *   spins relax the same way, from zero to kT (1 - exp(-nu t)); in a
 *   smooth one the bath leaves them alone.
 * - A driven granular gas (restitution 0.8) settles where the bath's
 *   heating nu (kT - T) balances the collisions' cooling (1 - e^2) Gamma(T)
 *   T / d (tests/test_granular.c: Haff's law), Gamma Enskog's rate: the
 *   mean T over the steady state within 3% of the balance's root.
 * - A sphere of infinite mass keeps its velocity; the same seed
 *   gives the same run to the last bit; rate 0 leaves the run as it is
 *   without a bath; spheres added on the way are heated too; driven
 *   spheres are passed over.
 * - In pieces of a budget of events, the run is the run in one piece.
 * - A world's recorded contacts after a bath's advance are all of it.
 * - The energy the bath gave, and its time moment, give the time integral
 *   of the energy exactly.
 * - Varied worlds under a bath in pieces: no overlap, no sphere out of its
 *   box, the energy its start plus what the bath gave.
 * - A definition with a NaN or a negative number is refused, naming it.
 * - Sheared (Lees-Edwards): a bath at kT 0 leaves a lone sphere moving
 *   with the profile, rate (y - Ly/2), and spinning with the flow, -rate/2
 *   about z, exactly, and counts as given minus the energy it had relative
 *   to the flow; a dilute sheared gas under a strong bath has its
 *   velocities about the profile (the slope of v_x against y the rate,
 *   within 3%) at the bath's temperature relative to it (within 3%). */
#include <math.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/drive.h"
#include "carom/scene.h"
#include "carom/thermostat.h"
#include "check.h"

static const double pi = 3.14159265358979323846;

/* mixed: every other sphere 3 times heavier. */
static carom_world *gas(int dim, size_t n, double packing, double kt, double restitution,
                        uint64_t seed, int mixed)
{
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = dim;
    for (int k = 0; k < 3; k++)
        s.box[k] = carom_box_length_for_packing(dim, n, 0.5, packing);
    CHECK_OK(carom_scene_random(&s, n, 0.5, seed, &e));
    for (size_t k = 1; k < n && mixed; k += 2)
        s.mass[k] = 3.0;
    CHECK_OK(carom_scene_maxwell_velocities(&s, kt, seed + 1, &e));
    carom_world_def def = carom_world_default_def();
    def.restitution = restitution;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    carom_scene_free(&s);
    if (!w)
        abort();
    return w;
}

static carom_andersen *bath(double kt, double rate, uint64_t seed)
{
    carom_andersen_def def = carom_andersen_default_def();
    def.kT = kt;
    def.rate = rate;
    def.seed = seed;
    carom_error e;
    carom_andersen *a = carom_andersen_create(&def, &e);
    if (!a)
        abort();
    return a;
}

static void check_relaxation(int dim)
{
    const size_t n = 3000;
    const double nu = 0.3;
    carom_world *w = gas(dim, n, 0.2, 2.5, 1.0, 21, 1);
    carom_andersen *a = bath(1.0, nu, 22);
    double t0 = carom_world_time(w), kt0 = carom_world_temperature(w), worst = 0.0;
    for (int k = 1; k <= 10; k++) {
        double t = 1.0 * k;
        CHECK_OK(carom_andersen_advance_to(a, w, t0 + t));
        CHECK(carom_world_time(w) == t0 + t);
        double expected = 1.0 + (kt0 - 1.0) * exp(-nu * t);
        worst = fmax(worst, fabs(carom_world_temperature(w) - expected));
    }
    double redraws = (double)carom_andersen_redraws(a), mean = nu * (double)n * 10.0;
    fprintf(stderr, "  %dD: largest |T - law| %.4f; %.0f redraws, expected %.0f\n", dim, worst,
            redraws, mean);
    CHECK(worst < 0.05);
    CHECK(fabs(redraws - mean) < 5.0 * sqrt(mean));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_andersen_free(a);
    carom_world_free(w);
}

static void test_relaxation(void)
{
    check_relaxation(3);
    check_relaxation(2);
}

/* Spins: a world whose surfaces are rough but whose spheres meet smoothly
 * (and a periodic box: no surface is met) changes spins only through the
 * bath, so from zero the rotational temperature follows
 * kT (1 - exp(-nu t)): each redraw replaces a sphere's rotational energy,
 * on average E_rot / N, by d_rot kT / 2. A smooth world's bath leaves
 * spins alone. */
static void check_spin_relaxation(int dim, double wall_beta)
{
    const size_t n = 3000;
    const double nu = 0.3;
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = dim;
    for (int k = 0; k < 3; k++)
        s.box[k] = carom_box_length_for_packing(dim, n, 0.5, 0.2);
    CHECK_OK(carom_scene_random(&s, n, 0.5, 31, &e));
    for (size_t k = 1; k < n; k += 2)
        s.mass[k] = 3.0;
    CHECK_OK(carom_scene_maxwell_velocities(&s, 1.0, 32, &e));
    carom_world_def def = carom_world_default_def();
    def.wall_tangential_restitution = wall_beta;
    def.inertia_factor = 0.6;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    carom_scene_free(&s);
    CHECK(w != NULL);
    if (!w)
        return;
    carom_andersen *a = bath(1.0, nu, 33);
    double worst = 0.0;
    for (int k = 1; k <= 10; k++) {
        CHECK_OK(carom_andersen_advance_to(a, w, 1.0 * k));
        double expected = wall_beta == -1.0 ? 0.0 : 1.0 - exp(-nu * k);
        worst = fmax(worst, fabs(carom_world_rotational_temperature(w) - expected));
    }
    fprintf(stderr, "  %dD, surfaces' beta %g: largest |T_rot - law| %.4f\n", dim, wall_beta,
            worst);
    CHECK(wall_beta == -1.0 ? worst == 0.0 : worst < 0.05);
    carom_andersen_free(a);
    carom_world_free(w);
}

static void test_spin_relaxation(void)
{
    check_spin_relaxation(3, 1.0);
    check_spin_relaxation(2, 0.5);
    check_spin_relaxation(3, -1.0);
}

/* The steady temperature of a driven granular gas: the root of
 * nu (kT - T) = (1 - e^2) Gamma1 T^1.5 / d, by bisection. */
static double steady_temperature(int dim, double packing, double e, double nu, double kt)
{
    double rho = 6.0 * packing / pi;
    double g = (1.0 - packing / 2.0) / pow(1.0 - packing, 3.0);
    double gamma1 = 4.0 * rho * g * sqrt(pi); /* Enskog's rate at T = 1 (3D) */
    double lo = 0.0, hi = kt;
    for (int k = 0; k < 100; k++) {
        double T = 0.5 * (lo + hi);
        double net = nu * (kt - T) - (1.0 - e * e) * gamma1 * pow(T, 1.5) / dim;
        if (net > 0.0)
            lo = T;
        else
            hi = T;
    }
    return 0.5 * (lo + hi);
}

static void test_driven_granular_gas(void)
{
    const size_t n = 3000;
    const double nu = 0.5, e = 0.8, packing = 0.1;
    carom_world *w = gas(3, n, packing, 1.0, e, 31, 0);
    carom_andersen *a = bath(1.0, nu, 32);
    double t0 = carom_world_time(w);
    CHECK_OK(carom_andersen_advance_to(a, w, t0 + 10.0)); /* settle */
    double sum = 0.0;
    int samples = 0;
    for (int k = 1; k <= 40; k++) {
        CHECK_OK(carom_andersen_advance_to(a, w, t0 + 10.0 + 0.5 * k));
        sum += carom_world_temperature(w);
        samples++;
    }
    double measured = sum / samples, expected = steady_temperature(3, packing, e, nu, 1.0);
    fprintf(stderr, "  steady T %.4f, balance %.4f (ratio %.4f)\n", measured, expected,
            measured / expected);
    CHECK(fabs(measured / expected - 1.0) < 0.03);
    CHECK(expected < 0.8); /* the collisions' cooling matters */
    carom_andersen_free(a);
    carom_world_free(w);
}

static void test_obstacles_seeds_and_rate_zero(void)
{
    /* A moving obstacle (infinite mass) among the gas keeps its velocity. */
    carom_world *w = gas(3, 400, 0.2, 1.0, 1.0, 41, 1);
    carom_sphere_def obstacle = carom_sphere_default_def();
    obstacle.mass = INFINITY;
    obstacle.velocity[0] = 0.25;
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, 0, &st));
    CHECK_OK(carom_world_remove_sphere(w, 0));
    memcpy(obstacle.position, st.position, sizeof st.position);
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &obstacle, &id));
    carom_andersen *a = bath(3.0, 5.0, 42);
    CHECK_OK(carom_andersen_advance_to(a, w, 4.0));
    CHECK_OK(carom_world_get_sphere(w, id, &st));
    CHECK(st.velocity[0] == 0.25 && st.velocity[1] == 0.0 && st.velocity[2] == 0.0);
    /* 401 ids, 400 live with finite mass: heated towards kT = 3. */
    CHECK(carom_world_temperature(w) > 2.5);
    carom_andersen_free(a);
    carom_world_free(w);

    /* The same seed, the same run (the same calls: an advance that stops
     * at a time moves every sphere to it, which changes last bits). */
    carom_world *w1 = gas(2, 300, 0.3, 1.0, 0.9, 51, 1), *w2 = gas(2, 300, 0.3, 1.0, 0.9, 51, 1);
    carom_andersen *a1 = bath(1.0, 1.0, 52), *a2 = bath(1.0, 1.0, 52);
    for (int k = 1; k <= 2; k++) {
        CHECK_OK(carom_andersen_advance_to(a1, w1, 1.5 * k));
        CHECK_OK(carom_andersen_advance_to(a2, w2, 1.5 * k));
    }
    CHECK(carom_andersen_redraws(a1) > 300);
    int same = carom_andersen_redraws(a1) == carom_andersen_redraws(a2);
    for (carom_sphere_id k = 0; k < 300; k++) {
        carom_sphere_state s1, s2;
        CHECK_OK(carom_world_get_sphere(w1, k, &s1));
        CHECK_OK(carom_world_get_sphere(w2, k, &s2));
        same &= memcmp(s1.position, s2.position, sizeof s1.position) == 0 &&
                memcmp(s1.velocity, s2.velocity, sizeof s1.velocity) == 0;
    }
    CHECK(same);
    carom_andersen_free(a1);
    carom_andersen_free(a2);
    carom_world_free(w1);
    carom_world_free(w2);

    /* Rate 0: the world alone, to the last bit. */
    w1 = gas(3, 300, 0.3, 1.0, 1.0, 61, 0);
    w2 = gas(3, 300, 0.3, 1.0, 1.0, 61, 0);
    a1 = bath(1.0, 0.0, 62);
    CHECK_OK(carom_andersen_advance_to(a1, w1, 2.0));
    CHECK_OK(carom_world_advance_to(w2, 2.0));
    CHECK(carom_andersen_redraws(a1) == 0);
    CHECK(carom_world_kinetic_energy(w1) == carom_world_kinetic_energy(w2));
    carom_andersen_free(a1);
    carom_world_free(w1);
    carom_world_free(w2);
}

/* carom_andersen_advance_to_limited: a run in pieces of 37 events is the
 * run in one piece, to the last bit (the pieces end at events, never at a
 * time); each piece that stops short processed its whole budget and left
 * the world before t; the pieces' events add up to the world's. */
static void test_in_pieces(void)
{
    carom_world *w1 = gas(3, 500, 0.3, 1.0, 1.0, 71, 1), *w2 = gas(3, 500, 0.3, 1.0, 1.0, 71, 1);
    carom_andersen *a1 = bath(1.5, 2.0, 72), *a2 = bath(1.5, 2.0, 72);
    const double t = 1.5;
    CHECK_OK(carom_andersen_advance_to(a1, w1, t));
    uint64_t total = 0, processed = 0;
    int reached = 0, pieces = 0, short_ok = 1;
    while (!reached && pieces < 1000000) {
        CHECK_OK(carom_andersen_advance_to_limited(a2, w2, t, 37, &processed, &reached));
        total += processed;
        pieces++;
        if (!reached)
            short_ok &= processed == 37 && carom_world_time(w2) < t;
    }
    CHECK(reached && carom_world_time(w2) == t);
    CHECK(short_ok);
    carom_stats s1, s2;
    carom_world_get_stats(w1, &s1);
    carom_world_get_stats(w2, &s2);
    CHECK(pieces > 100 && total == s2.events && s1.events == s2.events);
    CHECK(carom_andersen_redraws(a1) > 1000 &&
          carom_andersen_redraws(a1) == carom_andersen_redraws(a2));
    int same = 1;
    for (carom_sphere_id k = 0; k < 500; k++) {
        carom_sphere_state x1, x2;
        CHECK_OK(carom_world_get_sphere(w1, k, &x1));
        CHECK_OK(carom_world_get_sphere(w2, k, &x2));
        same &= memcmp(x1.position, x2.position, sizeof x1.position) == 0 &&
                memcmp(x1.velocity, x2.velocity, sizeof x1.velocity) == 0;
    }
    CHECK(same);
    /* A budget of none: no event, only the instants before the first. */
    double before = carom_world_time(w2);
    uint64_t redraws = carom_andersen_redraws(a2);
    CHECK_OK(carom_andersen_advance_to_limited(a2, w2, t + 1.0, 0, &processed, &reached));
    carom_world_get_stats(w2, &s1);
    CHECK(processed == 0 && !reached && s1.events == s2.events);
    CHECK(carom_world_time(w2) >= before && carom_world_time(w2) < t + 1.0);
    CHECK(carom_andersen_redraws(a2) - redraws < 100);
    carom_andersen_free(a1);
    carom_andersen_free(a2);
    carom_world_free(w1);
    carom_world_free(w2);
}

/* A world that records its contacts: after a bath's advance the record
 * holds every contact of the call, across the bath's instants (not only
 * those after its last one), in time order; a piece of
 * carom_andersen_advance_to_limited holds its own. */
static void test_recorded_contacts(void)
{
    carom_scene sc;
    carom_error e;
    carom_scene_init(&sc);
    sc.dim = 3;
    for (int k = 0; k < 3; k++)
        sc.box[k] = carom_box_length_for_packing(3, 400, 0.5, 0.3);
    CHECK_OK(carom_scene_random(&sc, 400, 0.5, 81, &e));
    CHECK_OK(carom_scene_maxwell_velocities(&sc, 1.0, 82, &e));
    carom_world_def def = carom_world_default_def();
    def.record_contacts = 1;
    carom_world *w = carom_scene_create_world(&sc, &def, &e);
    carom_scene_free(&sc);
    if (!w)
        abort();
    carom_andersen *a = bath(1.0, 1.0, 83);
    carom_stats st;
    for (int round = 0; round < 2; round++) {
        double from = carom_world_time(w);
        uint64_t redraws = carom_andersen_redraws(a), processed = 0;
        carom_world_reset_stats(w);
        if (round == 0) {
            CHECK_OK(carom_andersen_advance_to(a, w, from + 1.0));
        } else {
            int reached = 0;
            CHECK_OK(carom_andersen_advance_to_limited(a, w, from + 1.0, 2000, &processed,
                                                       &reached));
            CHECK(!reached && processed == 2000);
        }
        carom_world_get_stats(w, &st);
        size_t count = 0;
        const carom_contact *c = carom_world_recorded_contacts(w, &count);
        int ordered = 1;
        for (size_t k = 0; k < count; k++)
            ordered &= c[k].kind == CAROM_CONTACT_SPHERE && c[k].time >= from &&
                       c[k].time <= carom_world_time(w) && (k == 0 || c[k].time >= c[k - 1].time);
        CHECK(carom_andersen_redraws(a) - redraws > 100);
        CHECK(st.collisions > 1000 && count == st.collisions && ordered);
    }
    carom_andersen_free(a);
    carom_world_free(w);
}

/* carom_andersen_energy_given: a lone sphere (mass 2, no contacts, so
 * its energy changes only at redraws) under a bath at rate 2 for 10 time
 * units, advanced in steps of 1e-4: `given` is the energy's change, and
 * the exact integral E(0) T + given T - moment is the steps' Riemann sum
 * within what the redraws inside a step can make it differ (the sum of
 * the jumps times the step). Smooth, and rough (the spin's energy too). */
static void test_energy_given(void)
{
    for (int rough = 0; rough < 2; rough++) {
        carom_world_def def = carom_world_default_def();
        def.box[0] = def.box[1] = def.box[2] = 10.0;
        def.tangential_restitution = rough ? 1.0 : -1.0;
        carom_error e;
        carom_world *w = carom_world_create(&def, &e);
        if (!w)
            abort();
        carom_sphere_def sd = carom_sphere_default_def();
        sd.position[0] = sd.position[1] = sd.position[2] = 5.0;
        sd.velocity[0] = 1.0;
        sd.mass = 2.0;
        CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
        CHECK(carom_world_is_rough(w) == rough);
        carom_andersen *a = bath(1.0, 2.0, 91 + (uint64_t)rough);
        const double dt = 1e-4;
        const int steps = 100000;
        double e0 = carom_world_kinetic_energy(w) + carom_world_rotational_energy(w);
        double previous = e0, riemann = 0.0, jumps = 0.0;
        for (int k = 1; k <= steps; k++) {
            CHECK_OK(carom_andersen_advance_to(a, w, k * dt));
            double now = carom_world_kinetic_energy(w) + carom_world_rotational_energy(w);
            riemann += previous * dt;
            jumps += fabs(now - previous);
            previous = now;
        }
        double given, moment, t = steps * dt;
        carom_andersen_energy_given(a, &given, &moment);
        double exact = e0 * t + given * t - moment;
        fprintf(stderr, "  %s: %llu redraws, integral %.9g, steps' sum %.9g (bound %.3g)\n",
                rough ? "rough" : "smooth", (unsigned long long)carom_andersen_redraws(a), exact,
                riemann, jumps * dt);
        CHECK(carom_andersen_redraws(a) >= 10);
        CHECK(fabs(previous - e0 - given) < 1e-12 * (1.0 + previous));
        CHECK(fabs(exact - riemann) <= jumps * dt + 1e-9 * riemann);
        CHECK(rough ? carom_world_rotational_energy(w) > 0.0
                    : carom_world_rotational_energy(w) == 0.0);
        carom_andersen_free(a);
        carom_world_free(w);
    }
}

/* The bath's instants leave the spheres it does not redraw where their
 * last events left them (the world's time moves on without them): over
 * varied worlds (2D and 3D, walls on some axes, masses 1 and 3 and some
 * of infinite mass, sizes 1:2, smooth or perfectly rough), a bath at a
 * high rate advanced in pieces of varied budgets keeps every pair apart
 * (this file's own O(N^2) test at each piece's end, to 1e-9 of the
 * contact distance), every sphere in its walled box, and the energy at
 * its start plus what the bath gave (carom_andersen_energy_given), to
 * 1e-9. */
static void test_varied_worlds(void)
{
    int worst_world = -1;
    double worst_overlap = 0.0, worst_energy = 0.0;
    for (int world = 0; world < 24; world++) {
        int dim = 2 + world % 2, rough = (world / 2) % 2;
        size_t n = 150;
        carom_scene sc;
        carom_error e;
        carom_scene_init(&sc);
        sc.dim = dim;
        double side = carom_box_length_for_packing(dim, n, 0.375, 0.3);
        for (int k = 0; k < 3; k++) {
            sc.box[k] = side;
            sc.boundary[k] = (world >> (2 + k)) & 1 ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC;
        }
        CHECK_OK(carom_scene_random(&sc, n, 0.25, 100 + (uint64_t)world, &e));
        CHECK_OK(carom_scene_random_radii(&sc, 0.25, 0.5, 200 + (uint64_t)world, &e));
        CHECK_OK(carom_scene_place_random(&sc, 300 + (uint64_t)world, &e));
        for (size_t k = 0; k < n; k++)
            sc.mass[k] = k % 11 == 5 ? INFINITY : k % 2 ? 3.0 : 1.0;
        CHECK_OK(carom_scene_maxwell_velocities(&sc, 1.0, 400 + (uint64_t)world, &e));
        carom_world_def def = carom_world_default_def();
        def.tangential_restitution = rough ? 1.0 : -1.0;
        def.wall_tangential_restitution = rough ? 1.0 : -1.0;
        carom_world *w = carom_scene_create_world(&sc, &def, &e);
        if (!w)
            abort();
        carom_andersen *a = bath(0.5 + world % 3, 4.0, 500 + (uint64_t)world);
        double e0 = carom_world_kinetic_energy(w) + carom_world_rotational_energy(w);
        uint64_t budget = 1 + (uint64_t)(world * 37 % 300);
        int reached = 0, pieces = 0;
        while (!reached) {
            uint64_t processed;
            CHECK_OK(carom_andersen_advance_to_limited(a, w, 2.0, budget, &processed, &reached));
            pieces++;
            carom_sphere_state x[150];
            for (carom_sphere_id id = 0; id < n; id++)
                CHECK_OK(carom_world_get_sphere(w, id, &x[id]));
            for (size_t i = 0; i < n; i++) {
                for (int k = 0; k < dim; k++)
                    if (sc.boundary[k] == CAROM_BOUNDARY_WALLS &&
                        (x[i].position[k] < x[i].radius * (1.0 - 1e-9) ||
                         x[i].position[k] > side - x[i].radius * (1.0 - 1e-9)))
                        worst_overlap = INFINITY;
                for (size_t j = i + 1; j < n; j++) {
                    double d2 = 0.0, sigma = x[i].radius + x[j].radius;
                    for (int k = 0; k < dim; k++) {
                        double dx = x[i].position[k] - x[j].position[k];
                        if (sc.boundary[k] == CAROM_BOUNDARY_PERIODIC)
                            dx -= side * nearbyint(dx / side);
                        d2 += dx * dx;
                    }
                    double overlap = (sigma - sqrt(d2)) / sigma;
                    if (overlap > worst_overlap) {
                        worst_overlap = overlap;
                        worst_world = world;
                    }
                }
            }
            double given, moment;
            carom_andersen_energy_given(a, &given, &moment);
            double now = carom_world_kinetic_energy(w) + carom_world_rotational_energy(w);
            worst_energy = fmax(worst_energy, fabs(now - e0 - given) / (e0 + fabs(given)));
        }
        CHECK(pieces > 1 && carom_andersen_redraws(a) > 500);
        carom_scene_free(&sc);
        carom_andersen_free(a);
        carom_world_free(w);
    }
    fprintf(stderr, "  largest overlap %.3g (world %d), energy off by %.3g\n", worst_overlap,
            worst_world, worst_energy);
    CHECK(worst_overlap <= 1e-9);
    CHECK(worst_energy <= 1e-9);
}

static void test_spheres_added_on_the_way(void)
{
    /* Half the spheres come later, at rest: the bath heats them too. */
    carom_world_def def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 20.0;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    carom_andersen *a = bath(2.0, 1.0, 71);
    for (int round = 0; round < 2; round++) {
        /* On a grid of spots, where there is room (the first 200 move). */
        int added = 0;
        for (int k = 0; k < 1000 && added < 200; k++) {
            carom_sphere_def s = carom_sphere_default_def();
            s.position[0] = 1.0 + (k % 10) * 2.0;
            s.position[1] = 1.0 + (k / 10 % 10) * 2.0;
            s.position[2] = 1.0 + 2.0 * (k / 100);
            carom_status st = carom_world_add_sphere(w, &s, NULL);
            CHECK(st == CAROM_OK || st == CAROM_ERR_OVERLAP);
            added += st == CAROM_OK;
        }
        CHECK(added == 200);
        CHECK_OK(carom_andersen_advance_to(a, w, carom_world_time(w) + 8.0));
    }
    CHECK(carom_world_sphere_capacity(w) == 400);
    double hot = 0.0;
    for (carom_sphere_id id = 200; id < 400; id++) {
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, id, &st));
        hot += 0.5 * (st.velocity[0] * st.velocity[0] + st.velocity[1] * st.velocity[1] +
                      st.velocity[2] * st.velocity[2]);
    }
    /* After 8 time units at rate 1, nearly all of the later 200 were
     * redrawn (at kT = 2: 3 per sphere on average). */
    CHECK(hot / 200.0 > 2.4 && hot / 200.0 < 3.6);
    carom_andersen_free(a);
    carom_world_free(w);
}

/* A driven sphere's velocity is the application's: the bath passes it
 * over (the world would refuse to set it). One under random forces (its
 * kicks make its mass count, unlike an orbit's) among ballistic ones. */
static void test_driven_spheres_passed_over(void)
{
    carom_error e;
    carom_forces_def fd = carom_forces_default_def();
    const double x[1][3] = {{10.0, 10.0, 10.0}}, v[1][3] = {{0.5, 0.0, 0.0}};
    const double radius[1] = {0.5}, bound[1] = {2.0};
    carom_forces *f = carom_forces_create(&fd, 1, x, v, radius, bound, &e);
    carom_world_def def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 20.0;
    def.driver = carom_forces_driver(f);
    carom_world *w = carom_world_create(&def, &e);
    carom_sphere_def driven = carom_forces_sphere_def(f, 0);
    CHECK(isfinite(driven.mass));
    CHECK_OK(carom_world_add_sphere(w, &driven, NULL));
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = s.position[1] = s.position[2] = 2.0;
    CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    carom_andersen *a = bath(1.0, 4.0, 81);
    CHECK_OK(carom_andersen_advance_to(a, w, 5.0));
    CHECK(carom_andersen_redraws(a) > 5);
    carom_andersen_free(a);
    carom_world_free(w);
    carom_forces_free(f);
}

static void test_bad_definitions(void)
{
    carom_error e;
    carom_andersen_def def = carom_andersen_default_def();
    def.rate = NAN;
    CHECK(carom_andersen_create(&def, &e) == NULL && e.status == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "rate") != NULL);
    def = carom_andersen_default_def();
    def.kT = -1.0;
    CHECK(carom_andersen_create(&def, &e) == NULL && strstr(e.message, "kT") != NULL);
    CHECK(carom_andersen_create(NULL, &e) == NULL);
}

/* A world of lone spheres (rough when rough), sheared at rate. */
static carom_world *sheared_world(int dim, double box, double rate, int rough)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int k = 0; k < 3; k++)
        def.box[k] = box;
    if (rough)
        def.tangential_restitution = 1.0;
    carom_world *w = carom_world_create(&def, NULL);
    if (!w)
        abort();
    CHECK_OK(carom_world_set_shear(w, rate));
    return w;
}

static void check_sheared_lone_sphere(int dim, int rough)
{
    const double rate = 0.4, box = 10.0, y = 2.0, mass = 2.0, radius = 0.5;
    carom_world *w = sheared_world(dim, box, rate, rough);
    carom_sphere_def s = carom_sphere_default_def();
    double start[3] = {5.0, y, dim == 3 ? 5.0 : 0.0}, v[3] = {1.5, 0.0, 0.0};
    memcpy(s.position, start, sizeof start);
    memcpy(s.velocity, v, sizeof v);
    s.radius = radius;
    s.mass = mass;
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    double spin[3] = {dim == 3 ? 0.3 : 0.0, dim == 3 ? -0.2 : 0.0, 0.7};
    if (rough)
        CHECK_OK(carom_world_set_spin(w, id, spin));
    carom_andersen *a = bath(0.0, 5.0, 41);
    CHECK_OK(carom_andersen_advance_to(a, w, 5.0)); /* P(no redraw) = e^-25 */
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, id, &st));
    double profile = rate * (y - 0.5 * box); /* its height never changes */
    CHECK(carom_andersen_redraws(a) > 0);
    CHECK(st.position[1] == y && st.velocity[0] == profile && st.velocity[1] == 0.0 &&
          st.velocity[2] == 0.0);
    double c = v[0] - profile, expected = -0.5 * mass * c * c, turning[3];
    if (rough) {
        CHECK_OK(carom_world_get_spin(w, id, turning));
        CHECK(turning[0] == 0.0 && turning[1] == 0.0 && turning[2] == -0.5 * rate);
        double factor = dim == 3 ? 0.4 : 0.5; /* def.inertia_factor 0: a solid sphere, disk */
        double inertia = factor * mass * radius * radius;
        double dz = spin[2] + 0.5 * rate;
        expected -= 0.5 * inertia * (spin[0] * spin[0] + spin[1] * spin[1] + dz * dz);
    }
    double given;
    carom_andersen_energy_given(a, &given, NULL);
    fprintf(stderr, "  %dD%s: v_x %.17g (profile %.17g), given %.17g (expected %.17g)\n", dim,
            rough ? ", rough" : "", st.velocity[0], profile, given, expected);
    CHECK(fabs(given - expected) <= 1e-14 * fabs(expected));
    carom_andersen_free(a);
    carom_world_free(w);
}

static void test_sheared_lone_sphere(void)
{
    for (int dim = 2; dim <= 3; dim++)
        for (int rough = 0; rough <= 1; rough++)
            check_sheared_lone_sphere(dim, rough);
}

static void test_sheared_gas(void)
{
    const size_t n = 8000;
    const double rate = 0.5, kt = 1.0;
    carom_scene sc;
    carom_error e;
    carom_scene_init(&sc);
    sc.dim = 3;
    for (int k = 0; k < 3; k++)
        sc.box[k] = carom_box_length_for_packing(3, n, 0.5, 0.1);
    CHECK_OK(carom_scene_random(&sc, n, 0.5, 51, &e));
    CHECK_OK(carom_scene_maxwell_velocities(&sc, kt, 52, &e));
    carom_world *w = carom_scene_create_world(&sc, NULL, &e);
    carom_scene_free(&sc);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK_OK(carom_world_set_shear(w, rate));
    carom_andersen *a = bath(kt, 20.0, 53);
    CHECK_OK(carom_andersen_advance_to(a, w, 2.0)); /* some 40 redraws a sphere */
    double ly = carom_world_get_def(w)->box[1];
    double sy = 0.0, sv = 0.0, syy = 0.0, syv = 0.0, energy = 0.0, mean_c = 0.0;
    for (carom_sphere_id id = 0; id < n; id++) {
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, id, &st));
        double y = st.position[1], c = st.velocity[0] - rate * (y - 0.5 * ly);
        sy += y;
        sv += st.velocity[0];
        syy += y * y;
        syv += y * st.velocity[0];
        mean_c += c / (double)n;
        energy += 0.5 * (c * c + st.velocity[1] * st.velocity[1] +
                         st.velocity[2] * st.velocity[2]);
    }
    double slope = (syv - sy * sv / (double)n) / (syy - sy * sy / (double)n);
    double temperature = energy / (1.5 * (double)n);
    fprintf(stderr, "  sheared gas: slope %.4f (rate %g), kT %.4f, mean c_x %.4f\n", slope, rate,
            temperature, mean_c);
    CHECK(fabs(slope / rate - 1.0) < 0.03);
    CHECK(fabs(temperature / kt - 1.0) < 0.03);
    CHECK(fabs(mean_c) < 0.1);
    carom_andersen_free(a);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_relaxation);
    RUN(test_spin_relaxation);
    RUN(test_driven_granular_gas);
    RUN(test_obstacles_seeds_and_rate_zero);
    RUN(test_in_pieces);
    RUN(test_recorded_contacts);
    RUN(test_energy_given);
    RUN(test_varied_worlds);
    RUN(test_spheres_added_on_the_way);
    RUN(test_driven_spheres_passed_over);
    RUN(test_bad_definitions);
    RUN(test_sheared_lone_sphere);
    RUN(test_sheared_gas);
    return CHECK_REPORT();
}
