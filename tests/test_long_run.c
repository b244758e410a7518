/* A long run with every optimisation of the engine on (issue 3): hard
 * spheres in 3D at packing fraction 0.45, N = 10,976 (a full FCC lattice
 * of 4 x 14^3 sites) in a periodic cube, m = kT = sigma = 1, melted from
 * the lattice, then at least 10^7 collisions measured. Checks:
 *  - energy: |KE(end) - KE(0)| / KE(0) < 1e-10 over the whole run
 *    (and total momentum unchanged to 1e-9 sqrt(N));
 *  - no overlap: the largest overlap of a colliding pair at its event
 *    (every block) and carom_world_max_overlap_now at the end < 1e-9;
 *  - Z = PV/(NkT) from the collision virial within 1% of
 *    Carnahan-Starling, Z = (1 + eta + eta^2 - eta^3) / (1 - eta)^3
 *    (9.3847 at 0.45), with its statistical error (from blocks of equal
 *    time) below a third of the tolerance, and the exact identity
 *    Z - 1 = Gamma sqrt(pi) / 6 (Gamma the collision rate per sphere)
 *    within 1%.
 *
 * Environment: CAROM_TEST_QUICK=1 (set by scripts/test.sh for the
 * AddressSanitizer build, which is many times slower) runs the same checks
 * on a short run: 2 time units of melting and at least 10^6 collisions
 * measured instead of 5 and 10^7, with Z within 1.5% of Carnahan-Starling
 * instead of 1% (the statistical error of so short a run is about 0.15%). */
#include <string.h>
#include <time.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

#define MAX_BLOCKS 400

static double seconds_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double carnahan_starling(double eta)
{
    return (1.0 + eta + eta * eta - eta * eta * eta) / ((1.0 - eta) * (1.0 - eta) * (1.0 - eta));
}

static void mean_and_error(const double *x, int n, double *mean, double *err)
{
    double s = 0.0, s2 = 0.0;
    for (int k = 0; k < n; k++)
        s += x[k];
    *mean = s / n;
    for (int k = 0; k < n; k++)
        s2 += (x[k] - *mean) * (x[k] - *mean);
    *err = sqrt(s2 / (n - 1) / n);
}

int main(void)
{
    const char *quick_env = getenv("CAROM_TEST_QUICK");
    const int quick = quick_env && quick_env[0] == '1';
    const double pi = 3.14159265358979323846;
    const double eta = 0.45;
    const size_t n = 10976;
    const double equilibrate = quick ? 2.0 : 5.0;
    const uint64_t min_collisions = quick ? 1000000 : 10000000;
    /* Blocks of equal time, about 1.6e5 (quick: 8e4) collisions each. */
    const double block = quick ? 0.5 : 1.0;
    const double tol = quick ? 0.015 : 0.01;

    carom_error err;
    carom_scene scene;
    carom_scene_init(&scene);
    scene.dim = 3;
    double L = carom_box_length_for_packing(3, n, 0.5, eta);
    for (int k = 0; k < 3; k++) {
        scene.box[k] = L;
        scene.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    if (carom_scene_lattice(&scene, n, 0.5, CAROM_LATTICE_FCC, &err) != CAROM_OK ||
        carom_scene_maxwell_velocities(&scene, 1.0, 45, &err) != CAROM_OK) {
        fprintf(stderr, "scene: %s\n", err.message);
        return 1;
    }
    carom_world *w = carom_scene_create_world(&scene, NULL, &err);
    carom_scene_free(&scene);
    if (!w) {
        fprintf(stderr, "world: %s\n", err.message);
        return 1;
    }
    CHECK(carom_world_sphere_count(w) == n);
    const double ke0 = carom_world_kinetic_energy(w);
    double p0[3];
    carom_world_momentum(w, p0);

    double t_start = seconds_now();
    CHECK(carom_world_advance_to(w, equilibrate) == CAROM_OK);
    double t_measure = seconds_now();

    static double z[MAX_BLOCKS], ratio[MAX_BLOCKS];
    int blocks = 0;
    uint64_t collisions = 0, events = 0;
    double max_overlap = 0.0;
    while ((collisions < min_collisions || blocks < 10) && blocks < MAX_BLOCKS) {
        carom_world_reset_stats(w);
        double kt0 = carom_world_temperature(w);
        if (carom_world_advance_to(w, carom_world_time(w) + block) != CAROM_OK) {
            fprintf(stderr, "advance: %s\n", carom_world_error_message(w));
            check_failures++;
            break;
        }
        carom_stats st;
        carom_world_get_stats(w, &st);
        double kt = 0.5 * (kt0 + carom_world_temperature(w));
        z[blocks] = carom_world_compressibility(w);
        double gamma = 2.0 * (double)st.collisions / ((double)n * st.elapsed);
        ratio[blocks] = (z[blocks] - 1.0) / (gamma * sqrt(pi / kt) / 6.0);
        collisions += st.collisions;
        events += st.events;
        if (st.max_overlap > max_overlap)
            max_overlap = st.max_overlap;
        blocks++;
    }
    double t_end = seconds_now();

    const double ke1 = carom_world_kinetic_energy(w);
    double p1[3];
    carom_world_momentum(w, p1);
    const double drift = fabs(ke1 - ke0) / ke0;
    double dp = 0.0;
    for (int k = 0; k < 3; k++)
        dp = fmax(dp, fabs(p1[k] - p0[k]));
    const double overlap_now = carom_world_max_overlap_now(w);
    double zm = NAN, ze = NAN, rm = NAN, re = NAN;
    if (blocks >= 2) {
        mean_and_error(z, blocks, &zm, &ze);
        mean_and_error(ratio, blocks, &rm, &re);
    }
    const double zref = carnahan_starling(eta);

    printf("3D eta %.2f N %zu%s: %llu collisions (%llu events) measured in %d blocks of %g "
           "after %g of melting, %.1f s (%.3g collisions/s), %.1f s in all\n",
           eta, n, quick ? " (quick)" : "", (unsigned long long)collisions,
           (unsigned long long)events, blocks, block, equilibrate, t_end - t_measure,
           (double)collisions / (t_end - t_measure), t_end - t_start);
    printf("Z = %.4f +- %.4f (Carnahan-Starling %.4f, %+.2f%%, tolerance %g%%); "
           "(Z-1)/(rate form) = %.4f +- %.4f\n",
           zm, ze, zref, 100.0 * (zm - zref) / zref, 100.0 * tol, rm, re);
    printf("energy drift %.3g (relative), momentum change %.3g, largest overlap at a "
           "collision %.3g, at the end %.3g\n",
           drift, dp, max_overlap, overlap_now);

    CHECK(collisions >= min_collisions);
    CHECK(drift < 1e-10);
    CHECK(dp < 1e-9 * sqrt((double)n));
    CHECK(max_overlap < 1e-9);
    CHECK(overlap_now < 1e-9);
    CHECK(ze < tol * zref / 3.0);
    CHECK(fabs(zm - zref) < tol * zref);
    CHECK(re < 0.01 / 3.0);
    CHECK(fabs(rm - 1.0) < 0.01);
    carom_world_free(w);
    return CHECK_REPORT();
}
