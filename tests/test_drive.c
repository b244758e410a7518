/* Unit tests of the drivers shipped with the library (carom/drive.h):
 * orbits (closed form, file reading and its errors), random forces and
 * the velocity field (continuity, |a| <= A by finite differences, kicks,
 * determinism from the seed, independence from the probe pattern).
 * Needs no engine: the drivers are called directly through their
 * carom_driver callbacks. Files are written in the current directory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/drive.h"
#include "check.h"

static const double pi = 3.14159265358979323846;

static double norm3(const double a[3])
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* ---- orbits ---- */

static void test_orbit_state(void)
{
    carom_orbit o = {{10.0, 20.0, 30.0}, 5.0, 3.0, 0.7, 1.0};
    double x[3], v[3];
    carom_orbit_state(&o, 0.0, x, v);
    CHECK_NEAR(x[0], 10.0 + 5.0 * cos(0.7), 1e-12);
    CHECK_NEAR(x[1], 20.0 + 5.0 * sin(0.7), 1e-12);
    CHECK(x[2] == 30.0 && v[2] == 0.0);
    CHECK_NEAR(carom_orbit_accel_bound(&o), 45.0, 1e-12);
    /* Velocity is the derivative; |a| = R omega^2 by finite differences. */
    for (double t = -1.0; t < 2.0; t += 0.137) {
        const double h = 1e-4;
        double xm[3], xp[3], x0[3], v0[3];
        carom_orbit_state(&o, t - h, xm, NULL);
        carom_orbit_state(&o, t + h, xp, NULL);
        carom_orbit_state(&o, t, x0, v0);
        double a[3];
        for (int d = 0; d < 3; d++) {
            CHECK_NEAR((xp[d] - xm[d]) / (2.0 * h), v0[d], 1e-6);
            a[d] = (xp[d] - 2.0 * x0[d] + xm[d]) / (h * h);
        }
        CHECK_NEAR(norm3(a), 45.0, 1e-3);
    }
    carom_orbits orbits;
    carom_orbits_init(&orbits);
    carom_error e;
    CHECK(carom_orbits_add(&orbits, &o, &e) == CAROM_OK);
    carom_orbit bad = o;
    bad.radius = -1.0;
    CHECK(carom_orbits_add(&orbits, &bad, &e) == CAROM_ERR_INVALID_ARGUMENT);
    bad = o;
    bad.omega = NAN;
    CHECK(carom_orbits_add(&orbits, &bad, &e) == CAROM_ERR_INVALID_ARGUMENT);
    for (int k = 0; k < 9; k++) {
        o.phase = k;
        CHECK(carom_orbits_add(&orbits, &o, &e) == CAROM_OK);
    }
    CHECK(orbits.n == 10);
    orbits.first_id = 3;
    carom_driver drv = carom_orbits_driver(&orbits);
    CHECK(drv.kick == NULL && drv.user_data == &orbits);
    drv.probe(drv.user_data, 3 + 4, 1.5, x, v); /* orbit 4 has phase 3 */
    double xr[3], vr[3];
    carom_orbit_state(&orbits.orbit[4], 1.5, xr, vr);
    for (int d = 0; d < 3; d++)
        CHECK(x[d] == xr[d] && v[d] == vr[d]);
    CHECK(orbits.misuse == 0);
    drv.probe(drv.user_data, 2, 1.5, x, v);
    drv.probe(drv.user_data, 13, 1.5, x, v);
    CHECK(orbits.misuse == 2 && x[0] == 0.0);
    carom_sphere_def s = carom_orbits_sphere_def(&orbits, 4, 1.5);
    CHECK(s.driven == 1 && s.radius == 1.0 && s.accel_bound == 45.0 && s.position[0] == xr[0]);
    carom_orbits_free(&orbits);
    CHECK(orbits.n == 0 && orbits.orbit == NULL);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fwrite(text, 1, strlen(text), f);
    fclose(f);
}

/* Reading text must fail with status and a message holding every word. */
static void expect_read_error(const char *name, const char *text, carom_status status,
                              const char *w1, const char *w2)
{
    write_file(name, text);
    carom_orbits orbits;
    carom_error e;
    carom_status st = carom_orbits_read(name, &orbits, &e);
    if (st != status || (w1 && !strstr(e.message, w1)) || (w2 && !strstr(e.message, w2))) {
        fprintf(stderr, "%s: status %d, message '%s' (want %d, '%s', '%s')\n", name, st,
                e.message, status, w1 ? w1 : "", w2 ? w2 : "");
        check_failures++;
    }
    CHECK(orbits.n == 0 && orbits.orbit == NULL);
    remove(name);
}

static void test_orbits_file(void)
{
    const char *good = "test_drive_good.orbits";
    write_file(good, "# cx cy cz R omega phase radius\n"
                     "\n"
                     "50 50 50 10 2 0 1.5   # first\n"
                     "\t60 50.5 50 20 -1.5 3.14159 0.25\n"
                     "   \n"
                     "1e1 2e1 3e1 0 0 0 2");
    carom_orbits orbits;
    carom_error e;
    CHECK(carom_orbits_read(good, &orbits, &e) == CAROM_OK);
    CHECK(orbits.n == 3);
    if (orbits.n == 3) {
        CHECK(orbits.orbit[0].center[0] == 50.0 && orbits.orbit[0].radius == 1.5);
        CHECK(orbits.orbit[1].omega == -1.5 && orbits.orbit[1].phase == 3.14159);
        CHECK(orbits.orbit[2].center[2] == 30.0 && orbits.orbit[2].orbit_radius == 0.0);
    }
    carom_orbits_free(&orbits);
    remove(good);

    expect_read_error("test_drive_nan.orbits", "1 2 3 4 5 6 7\n1 2 3 4 nan 6 7\n",
                      CAROM_ERR_PARSE, "test_drive_nan.orbits:2", "field 5 (omega): NaN");
    expect_read_error("test_drive_inf.orbits", "# c\n1 2 inf 4 5 6 7\n", CAROM_ERR_PARSE,
                      "test_drive_inf.orbits:2", "field 3 (cz): infinity");
    expect_read_error("test_drive_negr.orbits", "\n\n1 2 3 4 5 6 -7\n", CAROM_ERR_PARSE,
                      "test_drive_negr.orbits:3", "field 7 (radius)");
    expect_read_error("test_drive_zeror.orbits", "1 2 3 4 5 6 0\n", CAROM_ERR_PARSE,
                      "test_drive_zeror.orbits:1", "field 7 (radius)");
    expect_read_error("test_drive_negR.orbits", "1 2 3 -4 5 6 1\n", CAROM_ERR_PARSE,
                      "test_drive_negR.orbits:1", "field 4 (R)");
    expect_read_error("test_drive_missing.orbits", "1 2 3 4 5 6 7\n1 2 3 4 5 # 6 7\n",
                      CAROM_ERR_PARSE, "test_drive_missing.orbits:2", "field 6 (phase) is missing");
    expect_read_error("test_drive_trailing.orbits", "1 2 3 4 5 6 7 8\n", CAROM_ERR_PARSE,
                      "test_drive_trailing.orbits:1", "trailing text '8'");
    expect_read_error("test_drive_word.orbits", "1 2 3 4 5 6 7\n1 2 3 4 5 6 7\n1 x 3 4 5 6 7\n",
                      CAROM_ERR_PARSE, "test_drive_word.orbits:3", "field 2 (cy): 'x'");
    expect_read_error("test_drive_glued.orbits", "1 2 3 4 5 6 7abc\n", CAROM_ERR_PARSE,
                      "test_drive_glued.orbits:1", "field 7 (radius): '7abc'");
    expect_read_error("test_drive_empty.orbits", "# nothing\n\n", CAROM_ERR_PARSE,
                      "test_drive_empty.orbits", "no orbits");
    expect_read_error("test_drive_huge.orbits", "1 2 3 4 1e999 6 7\n", CAROM_ERR_PARSE,
                      "test_drive_huge.orbits:1", "field 5 (omega)");
    /* A NUL byte in the middle of a line. */
    {
        const char *name = "test_drive_nul.orbits";
        FILE *f = fopen(name, "wb");
        if (f) {
            fwrite("1 2 3 4 5 6 7\n1 2\0 3 4 5 6 7\n", 1, 29, f);
            fclose(f);
        }
        carom_error e2;
        CHECK(carom_orbits_read(name, &orbits, &e2) == CAROM_ERR_PARSE);
        CHECK(strstr(e2.message, "test_drive_nul.orbits:2") != NULL);
        remove(name);
    }
    CHECK(carom_orbits_read("test_drive_no_such_file.orbits", &orbits, &e) == CAROM_ERR_IO);
    CHECK(strstr(e.message, "test_drive_no_such_file.orbits") != NULL);
    /* A very long line is read whole (and rejected for its trailing text). */
    {
        size_t len = 100000;
        char *text = malloc(len + 32);
        if (text) {
            strcpy(text, "1 2 3 4 5 6 7");
            memset(text + 13, ' ', len);
            strcpy(text + 13 + len, "9\n");
            expect_read_error("test_drive_long.orbits", text, CAROM_ERR_PARSE,
                              "test_drive_long.orbits:1", "trailing text '9'");
            free(text);
        }
    }
}

/* ---- piecewise drivers: forces and field ---- */

typedef struct pw_api {
    carom_status (*state)(void *d, size_t k, double t, double x[3], double v[3], double a[3]);
    carom_driver driver;
    void *d;
} pw_api;

static carom_status forces_state(void *d, size_t k, double t, double x[3], double v[3],
                                 double a[3])
{
    return carom_forces_state(d, k, t, x, v, a);
}

static carom_status field_state(void *d, size_t k, double t, double x[3], double v[3],
                                double a[3])
{
    return carom_field_state(d, k, t, x, v, a);
}

/* Continuity across step boundaries and |a| <= A by finite differences of
 * the probed positions, for sphere k over [t0, t1]. */
static void check_motion(pw_api api, size_t k, double bound, double step, double t0, double t1)
{
    const double h = 1e-3;
    double worst = 0.0;
    double xs[3][3];
    int n = 0;
    /* Positions on a grid of spacing h (probes nondecreasing). */
    for (double t = t0; t <= t1; t += h) {
        double x[3], v[3], a[3];
        double tt = t0 + (double)n * h;
        CHECK(api.state(api.d, k, tt, x, v, a) == CAROM_OK);
        CHECK(norm3(a) <= bound);
        memmove(xs[0], xs[1], sizeof xs[0] * 2);
        memcpy(xs[2], x, sizeof x);
        if (++n >= 3) {
            double acc[3];
            for (int d = 0; d < 3; d++)
                acc[d] = (xs[2][d] - 2.0 * xs[1][d] + xs[0][d]) / (h * h);
            worst = fmax(worst, norm3(acc));
        }
    }
    /* Finite differences carry round-off of about |x| eps / h^2. */
    double slack = 200.0 * 2.3e-16 / (h * h) + 1e-9 * bound;
    if (!(worst <= bound + slack)) {
        fprintf(stderr, "sphere %zu: finite-difference |a| %.9g exceeds bound %.9g\n", k, worst,
                bound);
        check_failures++;
    }
    /* Continuity around a step boundary after t1: x and v just before and
     * after differ by what 2 ns of motion gives. */
    double tc = t0 + step * (ceil((t1 - t0) / step) + 2.0);
    double xa[3], va[3], xb[3], vb[3];
    api.state(api.d, k, tc - 1e-9, xa, va, NULL);
    api.state(api.d, k, tc + 1e-9, xb, vb, NULL);
    for (int d = 0; d < 3; d++) {
        CHECK(fabs(xb[d] - xa[d]) <= 3e-9 * (1.0 + fabs(va[d])) + 1e-13 * fabs(xa[d]));
        CHECK(fabs(vb[d] - va[d]) <= 3e-9 * bound + 1e-13 * (1.0 + fabs(va[d])));
    }
}

static void init_spheres(size_t n, double (*x)[3], double (*v)[3], double *r, double *A)
{
    for (size_t k = 0; k < n; k++) {
        x[k][0] = 20.0 + 7.0 * (double)k;
        x[k][1] = 100.0 - 3.0 * (double)k;
        x[k][2] = 50.0 + (double)(k % 5);
        v[k][0] = 5.0 - (double)k;
        v[k][1] = 2.0;
        v[k][2] = -3.0 + 0.5 * (double)k;
        r[k] = 0.5 + 0.1 * (double)k;
        A[k] = 10.0 + (double)k;
    }
}

static void test_forces(void)
{
    enum { N = 12 };
    double x[N][3], v[N][3], r[N], A[N];
    init_spheres(N, x, v, r, A);
    A[3] = 0.0; /* a ballistic sphere through the same machinery */
    carom_forces_def def = carom_forces_default_def();
    CHECK(def.dim == 3 && def.interval == 0.1 && def.start_time == 0.0);
    def.seed = 42;
    carom_error e;
    carom_forces *f = carom_forces_create(&def, N, (const double (*)[3])x,
                                          (const double (*)[3])v, r, A, &e);
    CHECK(f != NULL);
    if (!f)
        return;
    /* Before any probe, the sphere definition holds the initial state. */
    carom_sphere_def s = carom_forces_sphere_def(f, 5);
    CHECK(s.driven == 1 && s.accel_bound == A[5] && s.radius == r[5]);
    CHECK(s.position[0] == x[5][0] && s.velocity[2] == v[5][2]);
    pw_api api = {forces_state, carom_forces_driver(f), f};
    for (size_t k = 0; k < N; k++)
        check_motion(api, k, A[k], def.interval, 0.0, 1.0);
    /* Zero bound: exactly ballistic. */
    double p[3], q[3];
    CHECK(carom_forces_state(f, 3, 2.5, p, q, NULL) == CAROM_OK);
    for (int d = 0; d < 3; d++) {
        CHECK_NEAR(p[d], x[3][d] + 2.5 * v[3][d], 1e-12 * 100);
        CHECK(q[d] == v[3][d]);
    }
    CHECK(carom_forces_misuse(f) == 0);

    /* Determinism: same seed, different probe patterns -> identical
     * states; another seed -> a different motion. */
    carom_forces *g = carom_forces_create(&def, N, (const double (*)[3])x,
                                          (const double (*)[3])v, r, A, &e);
    def.seed = 43;
    carom_forces *h = carom_forces_create(&def, N, (const double (*)[3])x,
                                          (const double (*)[3])v, r, A, &e);
    CHECK(g && h);
    if (g && h) {
        carom_driver dg = carom_forces_driver(g), dh = carom_forces_driver(h);
        for (double t = 0.0; t < 3.0; t += 0.0137)
            dg.probe(dg.user_data, 7, t, p, q); /* dense */
        double pg[3], vg[3], pf[3], vf[3], ph[3], vh[3];
        carom_forces_state(f, 7, 3.0, pf, vf, NULL); /* f: sparse (its last probe was t=1) */
        dg.probe(dg.user_data, 7, 3.0, pg, vg);
        dh.probe(dh.user_data, 7, 3.0, ph, vh);
        for (int d = 0; d < 3; d++)
            CHECK(pg[d] == pf[d] && vg[d] == vf[d]);
        CHECK(ph[0] != pg[0] || ph[1] != pg[1] || ph[2] != pg[2]);

        /* Kick: velocity changes by dv, position does not; the motion
         * then goes on from the kicked state with the same accelerations. */
        double before[3], vbefore[3], after[3], vafter[3], acc[3];
        double tk = 3.05;
        carom_forces_state(g, 2, tk, before, vbefore, acc);
        const double dv[3] = {1.0, -2.0, 0.5};
        dg.kick(dg.user_data, 2, tk, dv);
        carom_forces_state(g, 2, tk, after, vafter, NULL);
        for (int d = 0; d < 3; d++) {
            CHECK(after[d] == before[d]);
            CHECK_NEAR(vafter[d], vbefore[d] + dv[d], 1e-12);
        }
        /* Kicked (g) and unkicked (f) sphere 2 later differ by dv (t - tk)
         * while they share accelerations (same seed). */
        double pk[3], pu[3];
        carom_forces_state(g, 2, 3.08, pk, NULL, NULL);
        carom_forces_state(f, 2, 3.08, pu, NULL, NULL);
        for (int d = 0; d < 3; d++)
            CHECK_NEAR(pk[d] - pu[d], dv[d] * (3.08 - tk), 1e-9);
        carom_forces_state(g, 2, 3.5, pk, NULL, NULL);
        carom_forces_state(f, 2, 3.5, pu, NULL, NULL);
        for (int d = 0; d < 3; d++)
            CHECK_NEAR(pk[d] - pu[d], dv[d] * (3.5 - tk), 1e-9);
        /* Misuse: unknown id and going back in time are counted. */
        dg.probe(dg.user_data, N, 4.0, p, q);
        CHECK(carom_forces_misuse(g) == 1);
        dg.probe(dg.user_data, 2, 1.0, p, q);
        CHECK(carom_forces_misuse(g) == 2);
        CHECK(isfinite(p[0]) && isfinite(q[0]));
    }
    carom_forces_free(g);
    carom_forces_free(h);
    carom_forces_free(f);

    /* The draws fill the ball: mean |a|/A is 3/4 in 3D (2/3 in 2D). */
    for (int dim = 2; dim <= 3; dim++) {
        enum { M = 400 };
        static double xm[M][3], vm[M][3], rm[M], Am[M];
        for (size_t k = 0; k < M; k++) {
            xm[k][0] = xm[k][1] = xm[k][2] = 0.0;
            vm[k][0] = vm[k][1] = vm[k][2] = 0.0;
            rm[k] = 1.0;
            Am[k] = 2.0;
        }
        carom_forces_def d2 = carom_forces_default_def();
        d2.dim = dim;
        carom_forces *m = carom_forces_create(&d2, M, (const double (*)[3])xm,
                                              (const double (*)[3])vm, rm, Am, &e);
        CHECK(m != NULL);
        if (!m)
            continue;
        double sum = 0.0, zmax = 0.0;
        int count = 0;
        for (size_t k = 0; k < M; k++)
            for (int piece = 0; piece < 10; piece++) {
                double a[3];
                carom_forces_state(m, k, 0.1 * piece + 0.05, NULL, NULL, a);
                sum += norm3(a) / 2.0;
                zmax = fmax(zmax, fabs(a[2]));
                CHECK(norm3(a) <= 2.0);
                count++;
            }
        double expected = dim == 3 ? 0.75 : 2.0 / 3.0;
        CHECK_NEAR(sum / count, expected, 0.02);
        if (dim == 2)
            CHECK(zmax == 0.0);
        carom_forces_free(m);
    }

    /* Bad definitions. */
    def.interval = 0.0;
    CHECK(carom_forces_create(&def, N, (const double (*)[3])x, (const double (*)[3])v, r, A,
                              &e) == NULL);
    CHECK(e.status == CAROM_ERR_INVALID_ARGUMENT && strstr(e.message, "interval"));
    def.interval = 0.1;
    A[1] = NAN;
    CHECK(carom_forces_create(&def, N, (const double (*)[3])x, (const double (*)[3])v, r, A,
                              &e) == NULL);
    CHECK(strstr(e.message, "sphere 1") != NULL);
    A[1] = -1.0;
    CHECK(carom_forces_create(&def, N, (const double (*)[3])x, (const double (*)[3])v, r, A,
                              &e) == NULL);
    A[1] = 1.0;
    def.dim = 4;
    CHECK(carom_forces_create(&def, N, (const double (*)[3])x, (const double (*)[3])v, r, A,
                              &e) == NULL);
}

static void test_field(void)
{
    carom_field_def def = carom_field_default_def();
    /* The field: up along the centre line, down along the vertical edges,
     * no flow through the faces, divergence-free (central differences). */
    double u[3];
    carom_field_velocity(&def, (const double[3]){100.0, 100.0, 100.0}, u);
    CHECK_NEAR(u[2], def.speed, 1e-9);
    CHECK_NEAR(u[0], 0.0, 1e-9);
    carom_field_velocity(&def, (const double[3]){0.0, 0.0, 100.0}, u);
    CHECK_NEAR(u[2], -def.speed, 1e-9);
    carom_field_velocity(&def, (const double[3]){50.0, 100.0, 199.0}, u);
    CHECK(u[0] < 0.0); /* under the top: outwards (towards x = 0) */
    carom_field_velocity(&def, (const double[3]){50.0, 100.0, 1.0}, u);
    CHECK(u[0] > 0.0); /* above the bottom: inwards */
    /* Mean vertical velocity over a side face (x = 1) is downward. */
    double mean = 0.0;
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 20; j++) {
            carom_field_velocity(&def, (const double[3]){1.0, 5.0 + 10.0 * i, 5.0 + 10.0 * j}, u);
            mean += u[2] / 400.0;
        }
    CHECK(mean < -0.1 * def.speed);
    for (int s = 0; s < 50; s++) {
        double p[3] = {fmod(37.0 * s, 200.0), fmod(53.0 * s + 11, 200.0), fmod(71.0 * s + 5, 200.0)};
        const double h = 1e-4;
        double div = 0.0;
        for (int d = 0; d < 3; d++) {
            double pp[3] = {p[0], p[1], p[2]}, pm[3] = {p[0], p[1], p[2]}, up[3], um[3];
            pp[d] += h;
            pm[d] -= h;
            carom_field_velocity(&def, pp, up);
            carom_field_velocity(&def, pm, um);
            div += (up[d] - um[d]) / (2.0 * h);
        }
        CHECK(fabs(div) < 1e-6);
        double wall[3] = {0.0, p[1], p[2]};
        carom_field_velocity(&def, wall, u);
        CHECK(fabs(u[0]) < 1e-12);
        double top[3] = {p[0], p[1], 200.0};
        carom_field_velocity(&def, top, u);
        CHECK(fabs(u[2]) < 1e-12);
    }

    enum { N = 10 };
    double x[N][3], v[N][3], r[N], A[N];
    init_spheres(N, x, v, r, A);
    for (size_t k = 0; k < N; k++)
        A[k] = 30.0;
    carom_error e;
    carom_field *f = carom_field_create(&def, N, (const double (*)[3])x, (const double (*)[3])v,
                                        r, A, &e);
    CHECK(f != NULL);
    if (!f)
        return;
    pw_api api = {field_state, carom_field_driver(f), f};
    for (size_t k = 0; k < N; k++)
        check_motion(api, k, A[k], def.step, 0.0, 1.0);
    /* A particle at rest on the centre line accelerates upward, at the
     * bound (gain * U = 80 > 30), and approaches the field speed. */
    double xc[1][3] = {{100.0, 100.0, 100.0}}, vc[1][3] = {{0.0, 0.0, 0.0}}, rc[1] = {1.0},
           Ac[1] = {30.0};
    carom_field *c = carom_field_create(&def, 1, (const double (*)[3])xc,
                                        (const double (*)[3])vc, rc, Ac, &e);
    CHECK(c != NULL);
    if (c) {
        double a[3], p[3], q[3];
        carom_field_state(c, 0, 0.0, p, q, a);
        CHECK_NEAR(a[2], 30.0, 1e-9);
        CHECK(norm3(a) <= 30.0);
        carom_field_state(c, 0, 1.0, p, q, a);
        CHECK(q[2] > 25.0 && q[2] < def.speed + 1.0 && p[2] > 110.0);
        /* Kick: velocity jumps, position stays. */
        carom_driver d = carom_field_driver(c);
        double p2[3], q2[3];
        d.kick(d.user_data, 0, 1.0, (const double[3]){0.0, 0.0, -10.0});
        carom_field_state(c, 0, 1.0, p2, q2, NULL);
        CHECK(p2[2] == p[2] && fabs(q2[2] - (q[2] - 10.0)) < 1e-12);
        carom_field_free(c);
    }
    /* Determinism: two fields probed differently agree exactly. */
    carom_field *g = carom_field_create(&def, N, (const double (*)[3])x, (const double (*)[3])v,
                                        r, A, &e);
    if (g) {
        double pg[3], pf[3];
        for (double t = 0.0; t < 2.0; t += 0.0071)
            carom_field_state(g, 4, t, pg, NULL, NULL);
        carom_field_state(g, 4, 2.0, pg, NULL, NULL);
        carom_field_state(f, 4, 2.0, pf, NULL, NULL);
        for (int dd = 0; dd < 3; dd++)
            CHECK(pg[dd] == pf[dd]);
        carom_field_free(g);
    }
    carom_field_free(f);
    def.step = -1.0;
    CHECK(carom_field_create(&def, N, (const double (*)[3])x, (const double (*)[3])v, r, A,
                             &e) == NULL);
    def = carom_field_default_def();
    def.box[1] = 0.0;
    CHECK(carom_field_create(&def, N, (const double (*)[3])x, (const double (*)[3])v, r, A,
                             &e) == NULL);
    CHECK(strstr(e.message, "box") != NULL);
    (void)pi;
}

int main(void)
{
    test_orbit_state();
    test_orbits_file();
    test_forces();
    test_field();
    return CHECK_REPORT();
}
