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
 * with them. And a small fast sphere crossing another between two samples
 * is missed by stepping and found by carom. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "pair_contacts.h"
#include "stepped.h"

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

static void scene_for(carom_scene *s, int dim, size_t n, uint64_t seed)
{
    carom_error e;
    s->dim = dim;
    for (int k = 0; k < 3; k++) {
        s->box[k] = dim == 3 ? 14.0 : 40.0;
        s->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK_OK(carom_scene_resize(s, n, &e));
    CHECK_OK(carom_scene_random_radii(s, 0.1, 0.5, seed, &e));
    CHECK_OK(carom_scene_place_random(s, seed + 1, &e));
    CHECK_OK(carom_scene_maxwell_velocities(s, 1.0, seed + 2, &e));
}

static void test_against_exact(int dim)
{
    const double T = 4.0, dts[] = {0.002, 0.03, 0.4};
    carom_scene s;
    carom_scene_init(&s);
    scene_for(&s, dim, 300, 17 + (uint64_t)dim);
    carom_world_def def = carom_world_default_def();
    def.response = CAROM_RESPONSE_NONE;
    contact_log exact = {0};
    def.on_contact = log_carom_contact;
    def.user_data = &exact;
    carom_error e;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK_OK(carom_world_advance_to(w, T));
    carom_world_free(w);
    CHECK(exact.n > 100); /* the scene does have contacts */

    for (size_t m = 0; m < sizeof dts / sizeof *dts; m++) {
        double dt = dts[m];
        contact_log want = {0}, got = {0};
        for (size_t k = 0; k < exact.n; k++) {
            double t = first_sample_inside(&s, &exact.c[k], dt, T);
            if (t >= 0.0) {
                double dr[3], dv[3];
                relative(&s, exact.c[k].i, exact.c[k].j, t, dr, dv);
                double sigma = s.radius[exact.c[k].i] + s.radius[exact.c[k].j];
                log_add(&want, exact.c[k].i, exact.c[k].j, t, sigma - sqrt(dot(dr, dr)));
            }
        }
        carom_stepped_stats st;
        CHECK_OK(carom_stepped_run(&s, dt, T, on_stepped, &got, &st, &e));
        CHECK(st.contacts == got.n);
        CHECK(got.n == want.n);
        qsort(want.c, want.n, sizeof *want.c, by_pair_time);
        qsort(got.c, got.n, sizeof *got.c, by_pair_time);
        int bad = 0;
        for (size_t k = 0; k < got.n && k < want.n; k++)
            if (got.c[k].i != want.c[k].i || got.c[k].j != want.c[k].j ||
                fabs(got.c[k].t - want.c[k].t) > 1e-9 ||
                fabs(got.c[k].depth - want.c[k].depth) > 1e-9)
                bad++;
        CHECK(bad == 0);
        printf("%dD, dt %g: %zu of %zu exact contacts seen by stepping (%.1f%%), %d mismatched\n",
               dim, dt, got.n, exact.n, 100.0 * (double)got.n / (double)exact.n, bad);
        if (m == 0)
            CHECK(got.n > exact.n * 9 / 10); /* fine steps see most */
        if (m == 2)
            CHECK(got.n < exact.n); /* coarse ones miss some */
        free(want.c);
        free(got.c);
    }
    free(exact.c);
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
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = 10.0;
        s.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK_OK(carom_scene_resize(&s, 2, &e));
    for (int i = 0; i < 2; i++) {
        s.radius[i] = 0.05;
        s.position[i][1] = s.position[i][2] = 5.0;
    }
    s.position[0][0] = 4.45;
    s.velocity[0][0] = 100.0;
    s.position[1][0] = 5.0;
    carom_stepped_stats st;
    CHECK_OK(carom_stepped_run(&s, 0.01, 0.02, NULL, NULL, &st, &e));
    CHECK(st.samples == 3);
    CHECK(st.contacts == 0);
    carom_world_def def = carom_world_default_def();
    def.response = CAROM_RESPONSE_NONE;
    contact_log exact = {0};
    def.on_contact = log_carom_contact;
    def.user_data = &exact;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    CHECK(w != NULL);
    if (w) {
        CHECK_OK(carom_world_advance_to(w, 0.02));
        CHECK(exact.n == 1);
        if (exact.n == 1)
            CHECK_NEAR(exact.c[0].t, 0.0045, 1e-12);
        carom_world_free(w);
    }
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
    CHECK(carom_stepped_run(&s, 0.1, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "axis y") != NULL);
    s.boundary[1] = CAROM_BOUNDARY_PERIODIC;
    CHECK(carom_stepped_run(&s, 0.0, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_stepped_run(&s, NAN, 1.0, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK_OK(carom_stepped_run(&s, 0.1, 1.0, NULL, NULL, NULL, &e));
    carom_scene_free(&s);
}

int main(void)
{
    test_against_exact(3);
    test_against_exact(2);
    test_tunnelling();
    test_bad_arguments();
    return CHECK_REPORT();
}
