/* Balls rolling on a plane (bench/baselines/rolling.c) against carom.
 *
 * carom sees the same balls as 3D spheres resting at height r_i above a
 * plane and moving parallel to it (report-only, in a walled box nobody
 * reaches by the end): two such spheres touch exactly when their points
 * of tangency are 2 sqrt(r_i r_j) apart. With radii spread over a factor
 * 20 (the case the collision tree is for) and over none, both must report
 * the same contacts at the same times to 1e-9. Two balls of radii 1 and 4
 * meet when 4 apart (not 5, as disks would). Bad balls are refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "pair_contacts.h"
#include "rolling.h"

static void on_rolling(void *user, uint32_t i, uint32_t j, double t)
{
    log_add(user, i, j, t, 0.0);
}

static double uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

/* n balls with radii uniform in [r_min, r_max] at random places in a
 * square of the given side, apart (tangency points at least
 * 2 sqrt(r_i r_j) apart), velocities uniform in [-1, 1]^2. */
static void random_balls(carom_rolling_ball *b, size_t n, double r_min, double r_max, double side,
                         uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        b[i].radius = r_min + (r_max - r_min) * uniform(&state);
        for (int placed = 0; !placed;) {
            b[i].position[0] = side * uniform(&state);
            b[i].position[1] = side * uniform(&state);
            placed = 1;
            for (size_t j = 0; j < i && placed; j++) {
                double dx = b[i].position[0] - b[j].position[0];
                double dy = b[i].position[1] - b[j].position[1];
                placed = dx * dx + dy * dy > 4.0 * b[i].radius * b[j].radius * 1.0001;
            }
        }
        b[i].velocity[0] = 2.0 * uniform(&state) - 1.0;
        b[i].velocity[1] = 2.0 * uniform(&state) - 1.0;
    }
}

/* carom's contacts of the balls as spheres resting on the plane z = 1. */
static contact_log carom_contacts(const carom_rolling_ball *b, size_t n, double T)
{
    carom_scene s;
    carom_scene_init(&s);
    carom_error e;
    CHECK_OK(carom_scene_resize(&s, n, &e));
    double lo = INFINITY, hi = -INFINITY, r_max = 0.0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            lo = fmin(lo, b[i].position[k]);
            hi = fmax(hi, b[i].position[k]);
            r_max = fmax(r_max, b[i].radius);
        }
    double margin = 1.5 * T + 2.0 * r_max + 1.0; /* speeds are at most sqrt(2) */
    s.dim = 3;
    for (int k = 0; k < 3; k++)
        s.boundary[k] = CAROM_BOUNDARY_WALLS;
    s.box[0] = s.box[1] = hi - lo + 2.0 * margin;
    s.box[2] = 2.0 * r_max + 2.0;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            s.position[i][k] = b[i].position[k] - lo + margin;
            s.velocity[i][k] = b[i].velocity[k];
        }
        s.position[i][2] = 1.0 + b[i].radius;
        s.velocity[i][2] = 0.0;
        s.radius[i] = b[i].radius;
    }
    carom_stats st;
    contact_log log = carom_contacts_of(&s, CAROM_RESPONSE_NONE, T, &st);
    CHECK(st.wall_hits == 0);
    carom_scene_free(&s);
    return log;
}

static void test_against_carom(double r_min, double r_max, uint64_t seed)
{
    const size_t n = 300;
    const double T = 20.0;
    carom_rolling_ball *b = malloc(n * sizeof *b);
    random_balls(b, n, r_min, r_max, 100.0, seed);
    contact_log want = carom_contacts(b, n, T), got = {0};
    carom_rolling_stats st;
    carom_error e;
    CHECK_OK(carom_rolling_run(b, n, T, on_rolling, &got, &st, &e));
    CHECK(st.contacts == got.n);
    CHECK(want.n > 100);
    CHECK(st.nodes == n - 1);
    CHECK(st.candidates >= st.contacts);
    int bad = log_mismatches(&got, &want, 1e-9, -1.0);
    CHECK(bad == 0);
    printf("radii %g-%g: %zu contacts (carom %zu), %d mismatched; %llu swaps, %llu candidates, "
           "%llu entries in %llu nodes\n",
           r_min, r_max, got.n, want.n, bad, (unsigned long long)st.swaps,
           (unsigned long long)st.candidates, (unsigned long long)st.entries,
           (unsigned long long)st.nodes);
    free(got.c);
    free(want.c);
    free(b);
}

static void test_two_balls(void)
{
    carom_rolling_ball b[2] = {{{0.0, 0.0}, {1.0, 0.0}, 1.0}, {{10.0, 0.0}, {0.0, 0.0}, 4.0}};
    contact_log got = {0};
    carom_error e;
    CHECK_OK(carom_rolling_run(b, 2, 20.0, on_rolling, &got, NULL, &e));
    CHECK(got.n == 1);
    if (got.n == 1)
        CHECK_NEAR(got.c[0].t, 6.0, 1e-12);
    free(got.c);
    b[1].radius = 0.0;
    CHECK(carom_rolling_run(b, 2, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "ball 1") != NULL);
    b[1].radius = 4.0;
    b[0].velocity[1] = NAN;
    CHECK(carom_rolling_run(b, 2, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    b[0].velocity[1] = 0.0;
    CHECK(carom_rolling_run(b, 2, -1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_rolling_run(b, 0, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    test_two_balls();
    test_against_carom(0.1, 2.0, 11);
    test_against_carom(0.5, 0.5, 12);
    return CHECK_REPORT();
}
