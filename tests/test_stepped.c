/* The time-stepped baseline (bench/baselines/stepped.c) against carom's
 * exact contacts.
 *
 * Spheres fly straight through a periodic box without response, in both.
 * carom (report-only) gives every contact's start t_in; its overlap lasts
 * -2 (dr . dv) / |dv|^2 from there (straight lines, |dr| = contact
 * distance at t_in). Stepping must detect exactly the contacts whose
 * overlap holds a sample k dt, each at the first such sample and at the
 * depth the straight paths give there, and nothing else: a check of the
 * grid and of the bookkeeping of old and new overlaps that shares no code
 * with them; every broad phase (grid, octree, every pair) must give that
 * same list. With bounding boxes instead of spheres, every broad phase
 * must give exactly the new box overlaps that a plain loop over all pairs
 * finds at each sample, and count as false those whose spheres do not
 * overlap. And a small fast sphere crossing another between two samples
 * is missed by stepping and found by carom. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "pair_contacts.h"
#include "stepped.h"
#include "stepped_scenes.h"

static void on_stepped(void *user, uint32_t i, uint32_t j, double t, double depth)
{
    log_add(user, i, j, t, depth);
}

/* Relative position (nearest image) and velocity of j from i at t. */
static void relative(const carom_scene *s, uint32_t i, uint32_t j, double t, double dr[3],
                     double dv[3])
{
    for (int k = 0; k < 3; k++) {
        dr[k] = dv[k] = 0.0;
        if (k >= s->dim)
            continue;
        dv[k] = s->velocity[j][k] - s->velocity[i][k];
        double d = s->position[j][k] - s->position[i][k] + dv[k] * t, L = s->box[k];
        dr[k] = d - L * round(d / L);
    }
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The first sample strictly inside the exact contact's overlap, or -1. */
static double first_sample_inside(const carom_scene *s, const contact *c, double dt, double T)
{
    double dr[3], dv[3];
    relative(s, c->i, c->j, c->t, dr, dv);
    double v2 = dot(dv, dv);
    if (!(v2 > 0.0))
        return -1.0;
    double t_out = c->t - 2.0 * dot(dr, dv) / v2;
    double k = floor(c->t / dt) + 1.0;
    double t = k * dt;
    return t < t_out && k <= floor(T / dt + 1e-9) ? t : -1.0;
}

static const carom_broad_kind broads[] = {CAROM_BROAD_GRID, CAROM_BROAD_OCTREE,
                                          CAROM_BROAD_ALL_PAIRS};
static const char *const broad_names[] = {"grid", "octree", "all pairs"};

/* Stepping's contacts, in pair-then-time order. */
static contact_log stepped_contacts(const carom_scene *s, double dt, double T,
                                    carom_broad_kind broad, carom_stepped_shape shape,
                                    carom_stepped_stats *st)
{
    contact_log got = {0};
    carom_error e;
    carom_stepped_def def = carom_stepped_default_def(dt, T);
    def.broad = broad;
    def.shape = shape;
    CHECK_OK(carom_stepped_run(s, &def, on_stepped, &got, st, &e));
    CHECK(st->contacts == got.n);
    if (got.n > 1)
        qsort(got.c, got.n, sizeof *got.c, by_pair_time);
    return got;
}

static void test_against_exact(int dim)
{
    const double T = 4.0, dts[] = {0.002, 0.03, 0.4};
    carom_scene s;
    carom_scene_init(&s);
    random_periodic_scene(&s, dim, 300, 17 + (uint64_t)dim);
    contact_log exact = carom_contacts_of(&s, CAROM_RESPONSE_NONE, T, NULL);
    CHECK(exact.n > 100); /* the scene does have contacts */

    for (size_t m = 0; m < sizeof dts / sizeof *dts; m++) {
        double dt = dts[m];
        contact_log want = {0};
        for (size_t k = 0; k < exact.n; k++) {
            double t = first_sample_inside(&s, &exact.c[k], dt, T);
            if (t >= 0.0) {
                double dr[3], dv[3];
                relative(&s, exact.c[k].i, exact.c[k].j, t, dr, dv);
                double sigma = s.radius[exact.c[k].i] + s.radius[exact.c[k].j];
                log_add(&want, exact.c[k].i, exact.c[k].j, t, sigma - sqrt(dot(dr, dr)));
            }
        }
        qsort(want.c, want.n, sizeof *want.c, by_pair_time);
        for (size_t b = 0; b < sizeof broads / sizeof *broads; b++) {
            carom_stepped_stats st;
            contact_log got = stepped_contacts(&s, dt, T, broads[b], CAROM_STEPPED_SPHERES, &st);
            int bad = log_mismatches(&got, &want, 1e-9, 1e-9);
            CHECK(bad == 0);
            CHECK(st.false_contacts == 0);
            CHECK(st.touched_contacts == st.contacts);
            printf("%dD, dt %g, %s: %zu of %zu exact contacts seen by stepping (%.1f%%), "
                   "%d mismatched\n",
                   dim, dt, broad_names[b], got.n, exact.n, 100.0 * (double)got.n / (double)exact.n,
                   bad);
            if (m == 0)
                CHECK(got.n > exact.n * 9 / 10); /* fine steps see most */
            if (m == 2)
                CHECK(got.n < exact.n); /* coarse ones miss some */
            free(got.c);
        }
        free(want.c);
    }
    free(exact.c);
    carom_scene_free(&s);
}

/* Whether the bounding boxes (cubes of side 2 r) of i and j overlap at t:
 * the nearest-image separation on every axis under the sum of radii. */
static int boxes_meet(const carom_scene *s, uint32_t i, uint32_t j, double t)
{
    double dr[3], dv[3];
    relative(s, i, j, t, dr, dv);
    for (int k = 0; k < s->dim; k++)
        if (!(fabs(dr[k]) < s->radius[i] + s->radius[j]))
            return 0;
    return 1;
}

enum episode { BOXES_PARTED, SPHERES_MET, STILL_OPEN };

/* What follows a box contact of i and j at t: from that sample on, their
 * spheres overlap at a sample while the boxes still do, or the boxes part
 * first, or neither happens by T. */
static enum episode box_episode(const carom_scene *s, uint32_t i, uint32_t j, double t, double dt,
                                double T)
{
    for (int k = (int)round(t / dt); k * dt <= T + 1e-9; k++) {
        if (!boxes_meet(s, i, j, k * dt))
            return BOXES_PARTED;
        double dr[3], dv[3];
        relative(s, i, j, k * dt, dr, dv);
        if (sqrt(dot(dr, dr)) < s->radius[i] + s->radius[j])
            return SPHERES_MET;
    }
    return STILL_OPEN;
}

/* Bounding boxes: at each sample, the pairs whose boxes overlap there and
 * did not at the sample before, from a plain loop over every pair; depth
 * as the spheres' contact distance minus distance; false if the spheres
 * overlap at none of the samples while the boxes do. */
static void test_boxes(int dim)
{
    const double T = 2.0, dt = 0.05;
    carom_scene s;
    carom_scene_init(&s);
    random_periodic_scene(&s, dim, 200, 41 + (uint64_t)dim);
    contact_log want = {0};
    uint64_t want_false = 0, want_touched = 0, early = 0;
    for (int k = 1; k <= (int)round(T / dt); k++) {
        double t = k * dt;
        for (uint32_t i = 0; i < s.n; i++)
            for (uint32_t j = i + 1; j < s.n; j++) {
                if (!boxes_meet(&s, i, j, t) || boxes_meet(&s, i, j, t - dt))
                    continue;
                double dr[3], dv[3];
                relative(&s, i, j, t, dr, dv);
                double depth = s.radius[i] + s.radius[j] - sqrt(dot(dr, dr));
                log_add(&want, i, j, t, depth);
                enum episode next = box_episode(&s, i, j, t, dt, T);
                want_false += next == BOXES_PARTED;
                want_touched += next == SPHERES_MET;
                early += !(depth > 0.0);
            }
    }
    qsort(want.c, want.n, sizeof *want.c, by_pair_time);
    CHECK(want.n > 50);
    CHECK(want_false > 0 && want_false < early && early < want.n);
    CHECK(want_false + want_touched < want.n); /* some still open at T */
    for (size_t b = 0; b < sizeof broads / sizeof *broads; b++) {
        carom_stepped_stats st;
        contact_log got = stepped_contacts(&s, dt, T, broads[b], CAROM_STEPPED_BOXES, &st);
        int bad = log_mismatches(&got, &want, 1e-9, 1e-9);
        CHECK(bad == 0);
        CHECK(st.false_contacts == want_false);
        CHECK(st.touched_contacts == want_touched);
        printf("%dD boxes, %s: %zu box contacts, %llu before the spheres meet, %llu false, "
               "%llu true, %d mismatched\n",
               dim, broad_names[b], got.n, (unsigned long long)early,
               (unsigned long long)st.false_contacts, (unsigned long long)st.touched_contacts, bad);
        free(got.c);
    }
    free(want.c);
    carom_scene_free(&s);
}

/* A sphere of radius 0.05 at speed 100 crosses another head on between
 * samples 0.01 apart (their overlap lasts 0.002): stepping misses it,
 * carom reports it at t = 0.0045. */
static void test_tunnelling(void)
{
    carom_scene s;
    carom_scene_init(&s);
    carom_error e;
    head_on_crossing_scene(&s);
    for (size_t b = 0; b < sizeof broads / sizeof *broads; b++) {
        carom_stepped_stats st;
        carom_stepped_def def = carom_stepped_default_def(0.01, 0.02);
        def.broad = broads[b];
        CHECK_OK(carom_stepped_run(&s, &def, NULL, NULL, &st, &e));
        CHECK(st.samples == 3);
        CHECK(st.contacts == 0);
    }
    contact_log exact = carom_contacts_of(&s, CAROM_RESPONSE_NONE, 0.02, NULL);
    CHECK(exact.n == 1);
    if (exact.n == 1)
        CHECK_NEAR(exact.c[0].t, 0.0045, 1e-12);
    free(exact.c);
    carom_scene_free(&s);
}

static void test_bad_arguments(void)
{
    carom_scene s;
    carom_scene_init(&s);
    carom_error e;
    s.dim = 2;
    s.box[0] = s.box[1] = 10.0;
    s.boundary[0] = CAROM_BOUNDARY_PERIODIC;
    s.boundary[1] = CAROM_BOUNDARY_WALLS;
    CHECK_OK(carom_scene_resize(&s, 1, &e));
    carom_stepped_def def = carom_stepped_default_def(0.1, 1.0);
    CHECK(carom_stepped_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "axis y") != NULL);
    s.boundary[1] = CAROM_BOUNDARY_PERIODIC;
    def.dt = 0.0;
    CHECK(carom_stepped_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    def.dt = NAN;
    CHECK(carom_stepped_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    def.dt = 0.1;
    def.broad = (carom_broad_kind)7;
    CHECK(carom_stepped_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "broad phase") != NULL);
    def.broad = CAROM_BROAD_OCTREE;
    def.shape = (carom_stepped_shape)-1;
    CHECK(carom_stepped_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "shape") != NULL);
    def.shape = CAROM_STEPPED_BOXES;
    CHECK_OK(carom_stepped_run(&s, &def, NULL, NULL, NULL, &e));
    carom_scene_free(&s);
}

int main(void)
{
    test_against_exact(3);
    test_against_exact(2);
    test_boxes(3);
    test_boxes(2);
    test_tunnelling();
    test_bad_arguments();
    return CHECK_REPORT();
}
