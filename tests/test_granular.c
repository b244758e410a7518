/* A granular gas cools by Haff's law (restitution e < 1).
 *
 * Each collision of two equal spheres (mass m) loses (1 - e^2) m g_n^2 / 4
 * of kinetic energy, g_n their normal approach speed; weighted by the
 * rate at which pairs meet, g_n^2 averages 4 kT/m over a Maxwellian, so
 * each collision loses (1 - e^2) kT, and the temperature (d/2 kT per
 * sphere) falls as dT/dt = -(1 - e^2) Gamma(T) T / d, Gamma the
 * collision rate per sphere, proportional to sqrt(T). Hence Haff's law
 *   T(t) = T0 / (1 + t / t_H)^2,   1 / t_H = (1 - e^2) Gamma0 / (2 d),
 * with Gamma0 Enskog's rate at T0 (../shared/REFERENCE.md: Carnahan-
 * Starling's or Henderson's contact value). The cooling state's
 * velocities are not quite Maxwellian (Sonine coefficient a2 of about
 * -0.015 at e = 0.9, a 0.3% change of the rate), and a large gas at long
 * times clusters; these runs stop at T = T0/4, before either matters.
 *
 * Measured: T(t)/T_Haff(t) at eight times, within 3% (3D, packing 0.1;
 * 2D, packing 0.15), and the collision count against its own law,
 * N Gamma0 t_H ln(1 + t/t_H) / 2, within 3%. A gas that kept its energy
 * (e = 1) or lost it at twice the rate would miss both by far. The gas
 * first equilibrates elastically from random placement. */
#include <math.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

static const double pi = 3.14159265358979323846;

/* Enskog's collision rate per sphere (diameter 1, mass 1). */
static double enskog_rate(int dim, double packing, double kt)
{
    if (dim == 3) {
        double rho = 6.0 * packing / pi;
        double g = (1.0 - packing / 2.0) / pow(1.0 - packing, 3.0);
        return 4.0 * rho * g * sqrt(pi * kt);
    }
    double rho = 4.0 * packing / pi;
    double g = (1.0 - 7.0 * packing / 16.0) / pow(1.0 - packing, 2.0);
    return 2.0 * sqrt(pi) * rho * g * sqrt(kt);
}

static void check_haff(int dim, size_t n, double packing, double e)
{
    carom_scene s;
    carom_error err;
    carom_scene_init(&s);
    s.dim = dim;
    for (int k = 0; k < 3; k++)
        s.box[k] = carom_box_length_for_packing(dim, n, 0.5, packing);
    CHECK_OK(carom_scene_random(&s, n, 0.5, 11, &err));
    CHECK_OK(carom_scene_maxwell_velocities(&s, 1.0, 12, &err));
    /* Elastic first, for the structure of an equilibrium gas. */
    carom_world_def def = carom_world_default_def();
    carom_world *w = carom_scene_create_world(&s, &def, &err);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK_OK(carom_scene_from_world(&s, w, &err));
    carom_world_free(w);
    def.restitution = e;
    w = carom_scene_create_world(&s, &def, &err);
    carom_scene_free(&s);
    if (!w) {
        check_failures++;
        return;
    }
    double t0 = carom_world_time(w), kt0 = carom_world_temperature(w);
    double rate0 = enskog_rate(dim, packing, kt0);
    double t_haff = 2.0 * dim / ((1.0 - e * e) * rate0);
    /* T falls to T0/4 at t = t_H. */
    double worst = 0.0, worst_count = 0.0;
    for (int k = 1; k <= 8; k++) {
        double t = t_haff * k / 8.0;
        CHECK_OK(carom_world_advance_to(w, t0 + t));
        double kt = carom_world_temperature(w);
        double haff = kt0 / ((1.0 + t / t_haff) * (1.0 + t / t_haff));
        carom_stats st;
        carom_world_get_stats(w, &st);
        double expected = 0.5 * (double)n * rate0 * t_haff * log(1.0 + t / t_haff);
        double ratio = kt / haff, count_ratio = (double)st.collisions / expected;
        fprintf(stderr,
                "  %dD t/t_H = %.3f: T = %.5f, Haff %.5f (ratio %.4f); "
                "collisions %llu, law %.0f (ratio %.4f)\n",
                dim, t / t_haff, kt, haff, ratio, (unsigned long long)st.collisions, expected,
                count_ratio);
        worst = fmax(worst, fabs(ratio - 1.0));
        worst_count = fmax(worst_count, fabs(count_ratio - 1.0));
    }
    CHECK(worst < 0.03);
    CHECK(worst_count < 0.03);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

static void test_haff_3d(void)
{
    check_haff(3, 4000, 0.1, 0.9);
}
static void test_haff_2d(void)
{
    check_haff(2, 4000, 0.15, 0.9);
}

int main(void)
{
    RUN(test_haff_3d);
    RUN(test_haff_2d);
    return CHECK_REPORT();
}
