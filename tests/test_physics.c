/* Equilibrium physics of hard spheres and disks (reference values in
 * ../shared/REFERENCE.md):
 *  - 3D: Z = PV/(NkT) from the collision virial within 1% of
 *    Carnahan-Starling at packing fractions 0.2, 0.3, 0.4, 0.45;
 *  - 2D: Z within 1.5% of Henderson at 0.2, 0.35, 0.5;
 *  - at every state point the exact identity
 *    Z - 1 = Gamma sigma sqrt(pi m / kT) / (2 d)
 *    (Gamma = 2 collisions / (N time), the collision rate per particle)
 *    within 1% (pressure from impulses against pressure from the rate).
 * Each run starts from a lattice with Maxwell-Boltzmann velocities (kT =
 * 1, m = 1, sigma = 1), melts and equilibrates, then measures in blocks of
 * equal time; the statistical error of each quantity is estimated from
 * the spread of the block values and printed, and must be well below the
 * tolerance (or the check would not mean much).
 *
 * Environment: CAROM_TEST_QUICK=1 (set by scripts/test.sh for the
 * sanitizer pass) measures for half the time (errors about 1.4x larger,
 * still well below the tolerances), since the sanitizers slow the engine
 * down. */
#include <string.h>
#include <time.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

#define BLOCKS 10

static double seconds_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct state_point {
    int dim;
    double packing;
    size_t n;
    double equilibrate; /* time units */
    double measure;     /* time units */
} state_point;

static double carnahan_starling(double eta)
{
    return (1.0 + eta + eta * eta - eta * eta * eta) / ((1.0 - eta) * (1.0 - eta) * (1.0 - eta));
}

static double henderson(double eta)
{
    return (1.0 + eta * eta / 8.0) / ((1.0 - eta) * (1.0 - eta));
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

static void run_state_point(const state_point *sp, double time_factor)
{
    const double pi = 3.14159265358979323846;
    carom_error err;
    carom_scene scene;
    carom_scene_init(&scene);
    scene.dim = sp->dim;
    double L = carom_box_length_for_packing(sp->dim, sp->n, 0.5, sp->packing);
    for (int k = 0; k < 3; k++) {
        scene.box[k] = L;
        scene.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    if (carom_scene_lattice(&scene, sp->n, 0.5, CAROM_LATTICE_AUTO, &err) != CAROM_OK ||
        carom_scene_maxwell_velocities(&scene, 1.0, 7 + (uint64_t)(100 * sp->packing), &err) !=
            CAROM_OK) {
        fprintf(stderr, "scene: %s\n", err.message);
        check_failures++;
        carom_scene_free(&scene);
        return;
    }
    carom_world *w = carom_scene_create_world(&scene, NULL, &err);
    carom_scene_free(&scene);
    if (!w) {
        fprintf(stderr, "world: %s\n", err.message);
        check_failures++;
        return;
    }
    double t_start = seconds_now();
    CHECK(carom_world_advance_to(w, sp->equilibrate) == CAROM_OK);
    /* Measured blocks. */
    double z[BLOCKS], ratio[BLOCKS], gamma[BLOCKS];
    double block = sp->measure * time_factor / BLOCKS;
    uint64_t collisions = 0;
    double max_overlap = 0.0;
    for (int b = 0; b < BLOCKS; b++) {
        carom_world_reset_stats(w);
        double kt0 = carom_world_temperature(w);
        CHECK(carom_world_advance_to(w, carom_world_time(w) + block) == CAROM_OK);
        carom_stats st;
        carom_world_get_stats(w, &st);
        double kt = 0.5 * (kt0 + carom_world_temperature(w));
        z[b] = carom_world_compressibility(w);
        gamma[b] = 2.0 * (double)st.collisions / ((double)sp->n * st.elapsed);
        double from_rate = gamma[b] * 1.0 * sqrt(pi * 1.0 / kt) / (2.0 * sp->dim);
        ratio[b] = (z[b] - 1.0) / from_rate;
        collisions += st.collisions;
        if (st.max_overlap > max_overlap)
            max_overlap = st.max_overlap;
    }
    double secs = seconds_now() - t_start;
    double zm, ze, rm, re, gm, ge;
    mean_and_error(z, BLOCKS, &zm, &ze);
    mean_and_error(ratio, BLOCKS, &rm, &re);
    mean_and_error(gamma, BLOCKS, &gm, &ge);
    double zref = sp->dim == 3 ? carnahan_starling(sp->packing) : henderson(sp->packing);
    double tol = sp->dim == 3 ? 0.01 : 0.015;
    printf("%dD eta %.2f N %zu: Z = %.4f +- %.4f (%s %.4f, %+.2f%%), Gamma = %.3f +- %.3f, "
           "(Z-1)/(rate form) = %.4f +- %.4f; %llu collisions measured, %.1f s\n",
           sp->dim, sp->packing, sp->n, zm, ze, sp->dim == 3 ? "Carnahan-Starling" : "Henderson",
           zref, 100.0 * (zm - zref) / zref, gm, ge, rm, re, (unsigned long long)collisions, secs);
    /* The comparison must be sharper than the tolerance. */
    CHECK(ze < tol * zref / 3.0);
    CHECK(re < 0.01 / 3.0);
    CHECK(fabs(zm - zref) < tol * zref);
    CHECK(fabs(rm - 1.0) < 0.01);
    CHECK(max_overlap < 1e-9);
    carom_world_free(w);
}

int main(void)
{
    const char *quick = getenv("CAROM_TEST_QUICK");
    double factor = quick && quick[0] == '1' ? 0.5 : 1.0;
    const state_point points[] = {
        {3, 0.20, 2000, 5.0, 100.0},
        {3, 0.30, 2000, 5.0, 60.0},
        {3, 0.40, 2000, 5.0, 30.0},
        {3, 0.45, 2000, 5.0, 30.0},
        {2, 0.20, 2000, 10.0, 300.0},
        {2, 0.35, 2000, 10.0, 150.0},
        {2, 0.50, 2000, 10.0, 80.0},
    };
    for (size_t k = 0; k < sizeof points / sizeof points[0]; k++)
        run_state_point(&points[k], factor);
    return CHECK_REPORT();
}
