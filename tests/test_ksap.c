/* Kinetic sweep-and-prune (bench/baselines/ksap.c) against carom.
 *
 * Spheres fly straight without response in both: carom runs report-only
 * in a walled box far larger than anything travels in the run, so both
 * see the same straight paths, and must report the same contacts (each
 * pair's start of contact while approaching) at the same times. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "pair_contacts.h"
#include "ksap.h"

static void on_ksap(void *user, uint32_t i, uint32_t j, double t)
{
    log_add(user, i, j, t, 0.0);
}

static void test_against_carom(int dim)
{
    const double T = 4.0, side = dim == 3 ? 14.0 : 40.0, far = 1000.0;
    carom_scene s;
    carom_scene_init(&s);
    carom_error e;
    s.dim = dim;
    for (int k = 0; k < 3; k++) {
        s.box[k] = side;
        s.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK_OK(carom_scene_resize(&s, 300, &e));
    CHECK_OK(carom_scene_random_radii(&s, 0.1, 0.5, 5 + (uint64_t)dim, &e));
    CHECK_OK(carom_scene_place_random(&s, 6 + (uint64_t)dim, &e));
    CHECK_OK(carom_scene_maxwell_velocities(&s, 1.0, 7 + (uint64_t)dim, &e));
    /* The same spheres in the middle of a box nobody reaches by T. */
    double fastest = 0.0;
    for (size_t i = 0; i < s.n; i++) {
        double v2 = 0.0;
        for (int k = 0; k < dim; k++) {
            s.position[i][k] += 0.5 * (far - side);
            v2 += s.velocity[i][k] * s.velocity[i][k];
        }
        fastest = fmax(fastest, sqrt(v2));
    }
    CHECK(fastest * T < 0.5 * (far - side) - 1.0);
    for (int k = 0; k < 3; k++) {
        s.box[k] = far;
        s.boundary[k] = CAROM_BOUNDARY_WALLS;
    }

    carom_stats cs;
    contact_log want = carom_contacts_of(&s, CAROM_RESPONSE_NONE, T, &cs), got = {0};
    CHECK(cs.wall_hits == 0);

    carom_ksap_stats ks;
    CHECK_OK(carom_ksap_run(&s, T, on_ksap, &got, &ks, &e));
    CHECK(ks.contacts == got.n);
    CHECK(got.n == want.n);
    CHECK(want.n > 100); /* the scene does have contacts */
    CHECK(ks.candidates >= ks.contacts && ks.swaps > ks.contacts);
    int bad = log_mismatches(&got, &want, 1e-9, -1.0);
    CHECK(bad == 0);
    printf("%dD: %zu contacts (carom %zu), %d mismatched; %llu swaps, %llu candidates, "
           "%llu stale events\n",
           dim, got.n, want.n, bad, (unsigned long long)ks.swaps,
           (unsigned long long)ks.candidates, (unsigned long long)ks.stale);
    free(want.c);
    free(got.c);
    carom_scene_free(&s);
}

static void test_bad_arguments(void)
{
    carom_scene s;
    carom_scene_init(&s);
    carom_error e;
    s.dim = 4;
    CHECK(carom_ksap_run(&s, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    s.dim = 3;
    CHECK(carom_ksap_run(&s, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK_OK(carom_scene_resize(&s, 2, &e));
    CHECK(carom_ksap_run(&s, NAN, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    s.position[1][0] = 2.0;
    s.velocity[0][0] = 1.0;
    carom_ksap_stats st;
    contact_log got = {0};
    CHECK_OK(carom_ksap_run(&s, 2.0, on_ksap, &got, &st, &e));
    CHECK(got.n == 1 && st.contacts == 1); /* radius 0.5 each: touch at t = 1 */
    if (got.n == 1)
        CHECK_NEAR(got.c[0].t, 1.0, 1e-12);
    free(got.c);
    carom_scene_free(&s);
}

int main(void)
{
    test_against_carom(3);
    test_against_carom(2);
    test_bad_arguments();
    return CHECK_REPORT();
}
