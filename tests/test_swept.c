/* Stepped continuous detection (bench/baselines/swept.c) against carom.
 *
 * Spheres fly straight through a periodic box without response in both
 * (carom report-only). Whatever the step, and with every broad phase,
 * the swept baseline must report exactly carom's contacts (pair, and time
 * to 1e-9), in time order; a small fast sphere that time-stepped
 * detection misses between two samples (test_stepped) is found at its
 * time; and bad arguments (a step so long that the margin outgrows the
 * box, a velocity that is not a number) are refused with a message. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "pair_contacts.h"
#include "stepped_scenes.h"
#include "swept.h"

typedef struct ordered_log {
    contact_log log;
    double last; /* time of the last contact reported */
    int out_of_order;
} ordered_log;

static void on_swept(void *user, uint32_t i, uint32_t j, double t)
{
    ordered_log *o = user;
    if (t < o->last)
        o->out_of_order++;
    o->last = t;
    log_add(&o->log, i, j, t, 0.0);
}

static void test_against_carom(int dim)
{
    const double T = 4.0, dts[] = {0.002, 0.03, 0.4, 0.7}; /* 0.7: a short last step */
    const carom_broad_kind broads[] = {CAROM_BROAD_GRID, CAROM_BROAD_OCTREE, CAROM_BROAD_ALL_PAIRS};
    const char *names[] = {"grid", "octree", "all pairs"};
    carom_scene s;
    carom_scene_init(&s);
    random_periodic_scene(&s, dim, 300, 23 + (uint64_t)dim);
    contact_log exact = carom_contacts_of(&s, CAROM_RESPONSE_NONE, T, NULL);
    CHECK(exact.n > 100);
    for (size_t m = 0; m < sizeof dts / sizeof *dts; m++)
        for (size_t b = 0; b < sizeof broads / sizeof *broads; b++) {
            carom_swept_def def = {dts[m], T, broads[b]};
            ordered_log got = {{0}, 0.0, 0};
            carom_swept_stats st;
            carom_error e;
            CHECK_OK(carom_swept_run(&s, &def, on_swept, &got, &st, &e));
            CHECK(got.out_of_order == 0);
            CHECK(st.contacts == got.log.n);
            CHECK(st.steps == (uint64_t)ceil(T / dts[m] - 1e-9));
            CHECK(st.candidates >= st.contacts);
            int bad = log_mismatches(&got.log, &exact, 1e-9, -1.0);
            CHECK(bad == 0);
            printf("%dD, dt %g, %s: %zu contacts (carom %zu), %d mismatched, %llu steps, "
                   "%llu candidates\n",
                   dim, dts[m], names[b], got.log.n, exact.n, bad, (unsigned long long)st.steps,
                   (unsigned long long)st.candidates);
            free(got.log.c);
        }
    free(exact.c);
    carom_scene_free(&s);
}

/* The head-on crossing that time-stepped detection misses at dt = 0.01
 * (test_stepped): found at t = 0.0045. */
static void test_tunnelling(void)
{
    carom_scene s;
    carom_scene_init(&s);
    carom_error e;
    head_on_crossing_scene(&s);
    carom_swept_def def = {0.01, 0.02, CAROM_BROAD_GRID};
    ordered_log got = {{0}, 0.0, 0};
    carom_swept_stats st;
    CHECK_OK(carom_swept_run(&s, &def, on_swept, &got, &st, &e));
    CHECK(st.steps == 2);
    CHECK(got.log.n == 1);
    if (got.log.n == 1)
        CHECK_NEAR(got.log.c[0].t, 0.0045, 1e-12);
    free(got.log.c);
    carom_scene_free(&s);
}

static void test_bad_arguments(void)
{
    carom_scene s;
    carom_scene_init(&s);
    carom_error e;
    s.dim = 2;
    s.box[0] = s.box[1] = 10.0;
    s.boundary[0] = s.boundary[1] = CAROM_BOUNDARY_PERIODIC;
    CHECK_OK(carom_scene_resize(&s, 2, &e));
    s.position[1][0] = 5.0;
    s.velocity[0][0] = 1.0;
    carom_swept_def def = {0.0, 1.0, CAROM_BROAD_GRID};
    CHECK(carom_swept_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    def.dt = 3.0; /* margin 6: wider than the box allows */
    CHECK(carom_swept_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "shorter dt") != NULL);
    def.dt = 0.5;
    def.broad = (carom_broad_kind)9;
    CHECK(carom_swept_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    def.broad = CAROM_BROAD_OCTREE;
    s.velocity[1][1] = NAN;
    CHECK(carom_swept_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "sphere 1") != NULL);
    s.velocity[1][1] = 0.0;
    carom_swept_stats st;
    ordered_log got = {{0}, 0.0, 0};
    def.t_end = 5.0; /* radius 0.5 each, a gap of 4 closing at speed 1 */
    CHECK_OK(carom_swept_run(&s, &def, on_swept, &got, &st, &e));
    CHECK(st.contacts == 1 && got.log.n == 1);
    if (got.log.n == 1)
        CHECK_NEAR(got.log.c[0].t, 4.0, 1e-12);
    free(got.log.c);
    carom_scene_free(&s);
}

int main(void)
{
    test_against_carom(3);
    test_against_carom(2);
    test_tunnelling();
    test_bad_arguments();
    return CHECK_REPORT();
}
