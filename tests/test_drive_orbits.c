/* Validation of driven spheres against an independent reference: spheres
 * on circles (carom/drive.h orbits driver, probed only through
 * carom_driver), report-only response, every contact start compared with
 * a fine-sampling reference computed here from the analytic positions.
 *
 * Reference: for every pair, f(t) = |x_i(t) - x_j(t)| - (r_i + r_j) is
 * sampled on a fine grid; since |f'| <= |v_i| + |v_j| = L (constant
 * speeds on circles), an interval [a, b] can hide a dip below zero (or a
 * bump above) only if |f(a)| + |f(b)| <= L (b - a), and such intervals are
 * split again, down to 1e-9 of the run. Each change of sign from + to -
 * (the spheres come into contact while approaching) is refined by
 * bisection to the last bit. The engine must report exactly these
 * contacts, each at its time to 1e-9 relative, and no other.
 *
 * Self-checks (no engine needed): the reference against contact times in
 * closed form (a sphere orbiting past spheres at rest), and the
 * comparison against perturbed lists (shifted, missing, extra contact),
 * so the test can fail. CAROM_TEST_QUICK=1 shortens the runs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/drive.h"
#include "check.h"
#include "pair_contacts.h"

static const double pi = 3.14159265358979323846;

/* ---- reference ---- */

typedef struct pair_ctx {
    const carom_orbit *a, *b;
    double sigma;
} pair_ctx;

static double gap(const pair_ctx *p, double t)
{
    double xa[3], xb[3];
    carom_orbit_state(p->a, t, xa, NULL);
    carom_orbit_state(p->b, t, xb, NULL);
    double dx = xa[0] - xb[0], dy = xa[1] - xb[1], dz = xa[2] - xb[2];
    return sqrt(dx * dx + dy * dy + dz * dz) - p->sigma;
}

/* Refines a + to - change of sign in [a, b] to the last bit. */
static double bisect(const pair_ctx *p, double a, double b)
{
    for (int k = 0; k < 200; k++) {
        double m = 0.5 * (a + b);
        if (m <= a || m >= b)
            break;
        if (gap(p, m) > 0.0)
            a = m;
        else
            b = m;
    }
    return b; /* first sampled time at contact */
}

static void scan(const pair_ctx *p, double lip, double min_width, double a, double fa, double b,
                 double fb, uint32_t i, uint32_t j, contact_log *out)
{
    if (fabs(fa) + fabs(fb) <= lip * (b - a) && b - a > min_width) {
        double m = 0.5 * (a + b), fm = gap(p, m);
        scan(p, lip, min_width, a, fa, m, fm, i, j, out);
        scan(p, lip, min_width, m, fm, b, fb, i, j, out);
        return;
    }
    if (fa > 0.0 && fb <= 0.0)
        log_add(out, i, j, bisect(p, a, b), 0.0);
}

static void reference(const carom_orbit *o, size_t n, double t_end, contact_log *out)
{
    const int samples = 4000;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            pair_ctx p = {&o[i], &o[j], o[i].radius + o[j].radius};
            double lip = fabs(o[i].orbit_radius * o[i].omega) +
                         fabs(o[j].orbit_radius * o[j].omega);
            double dt = t_end / samples;
            double fa = gap(&p, 0.0);
            for (int k = 0; k < samples; k++) {
                double a = k * dt, b = k + 1 == samples ? t_end : (k + 1) * dt;
                double fb = gap(&p, b);
                scan(&p, lip, 1e-9 * t_end, a, fa, b, fb, (uint32_t)i, (uint32_t)j, out);
                fa = fb;
            }
        }
    qsort(out->c, out->n, sizeof *out->c, by_pair_time);
}

/* ---- comparison ---- */

static int same_time(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

/* Number of mismatches (missing + extra + off in time); prints them
 * when verbose. Both lists sorted by pair and time. */
static int compare(const char *scene, const contact_log *got, const contact_log *want,
                   int verbose)
{
    int bad = 0;
    size_t g = 0, w = 0;
    while (g < got->n || w < want->n) {
        const contact *cg = g < got->n ? &got->c[g] : NULL;
        const contact *cw = w < want->n ? &want->c[w] : NULL;
        if (cg && cw && cg->i == cw->i && cg->j == cw->j && same_time(cg->t, cw->t)) {
            g++, w++;
            continue;
        }
        int take_got = cg && (!cw || by_pair_time(cg, cw) < 0);
        if (take_got) {
            if (verbose)
                fprintf(stderr, "%s: extra contact %u-%u at %.17g\n", scene, cg->i, cg->j, cg->t);
            g++;
        } else {
            if (verbose)
                fprintf(stderr, "%s: missing contact %u-%u at %.17g%s\n", scene, cw->i, cw->j,
                        cw->t, cg && cg->i == cw->i && cg->j == cw->j ? " (or found at another time)" : "");
            w++;
        }
        bad++;
    }
    return bad;
}

/* ---- the engine ---- */

static void on_contact(void *user_data, carom_contact *c)
{
    if (c->kind == CAROM_CONTACT_SPHERE)
        log_add(user_data, c->i, c->j, c->time, c->depth);
}

static void run_engine(const char *scene, carom_orbits *orbits, double t_end,
                       contact_log *got, carom_stats *stats)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int d = 0; d < 3; d++) {
        def.box[d] = 200.0;
        def.boundary[d] = CAROM_BOUNDARY_WALLS;
    }
    def.response = CAROM_RESPONSE_NONE;
    def.on_contact = on_contact;
    def.user_data = got;
    def.driver = carom_orbits_driver(orbits);
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w) {
        fprintf(stderr, "%s: %s\n", scene, e.message);
        check_failures++;
        return;
    }
    for (size_t k = 0; k < orbits->n; k++) {
        carom_sphere_def s = carom_orbits_sphere_def(orbits, k, 0.0);
        carom_sphere_id id;
        if (carom_world_add_sphere(w, &s, &id) != CAROM_OK || id != k) {
            fprintf(stderr, "%s: add sphere %zu: %s\n", scene, k, carom_world_error_message(w));
            check_failures++;
        }
    }
    /* In a few pieces, as an application would. */
    for (int piece = 1; piece <= 4; piece++)
        if (carom_world_advance_to(w, t_end * piece / 4.0) != CAROM_OK) {
            fprintf(stderr, "%s: advance: %s\n", scene, carom_world_error_message(w));
            check_failures++;
            break;
        }
    carom_world_get_stats(w, stats);
    /* The state probed through the world is the orbit's. */
    for (size_t k = 0; k < orbits->n; k++) {
        carom_sphere_state st;
        double x[3], v[3];
        CHECK(carom_world_get_sphere(w, (carom_sphere_id)k, &st) == CAROM_OK);
        carom_orbit_state(&orbits->orbit[k], carom_world_time(w), x, v);
        for (int d = 0; d < 3; d++)
            CHECK(st.position[d] == x[d] && st.velocity[d] == v[d]);
    }
    carom_world_free(w);
    qsort(got->c, got->n, sizeof *got->c, by_pair_time);
}

static int validate(const char *scene, carom_orbits *orbits, double t_end)
{
    contact_log want = {0}, got = {0};
    reference(orbits->orbit, orbits->n, t_end, &want);
    carom_stats stats;
    memset(&stats, 0, sizeof stats);
    run_engine(scene, orbits, t_end, &got, &stats);
    int bad = compare(scene, &got, &want, 1);
    if (bad)
        check_failures++;
    for (size_t k = 0; k < got.n; k++)
        if (got.c[k].depth != 0.0) {
            fprintf(stderr, "%s: contact %u-%u at %.17g reported late (depth %g)\n", scene,
                    got.c[k].i, got.c[k].j, got.c[k].t, got.c[k].depth);
            check_failures++;
        }
    CHECK(stats.late_contacts == 0);
    CHECK(stats.bound_breaks == 0);
    CHECK(orbits->misuse == 0);
    printf("%-10s %2zu spheres, t = %-5g: %4zu contacts (reference %4zu), %d mismatches; "
           "events %llu, bound collisions %llu, bound resets %llu\n",
           scene, orbits->n, t_end, got.n, want.n, bad, (unsigned long long)stats.events,
           (unsigned long long)stats.bound_collisions, (unsigned long long)stats.bound_resets);
    int n = (int)want.n;
    free(want.c);
    free(got.c);
    return n;
}

/* ---- scenes ---- */

static void add(carom_orbits *o, double cx, double cy, double cz, double R, double omega,
                double phase, double radius)
{
    carom_orbit orbit = {{cx, cy, cz}, R, omega, phase, radius};
    carom_error e;
    if (carom_orbits_add(o, &orbit, &e) != CAROM_OK) {
        fprintf(stderr, "bad scene orbit: %s\n", e.message);
        exit(1);
    }
}

/* A sphere orbiting past spheres at rest: contacts in closed form. */
static void scene_analytic(carom_orbits *o)
{
    add(o, 100, 100, 100, 20, 1.3, 0.2, 1.0); /* 0: orbits, speed 26 */
    add(o, 121, 100, 100, 0, 0, 0, 2.0);      /* 1: at rest, d = 21, sigma = 3 */
    add(o, 100, 120, 102.5, 0, 0, 0, 1.0);    /* 2: 2.5 above the path, sigma 2: never */
    add(o, 100, 80, 101.9999, 0, 0, 0, 1.0);  /* 3: grazing, 1e-4 inside sigma */
    add(o, 80, 100, 100.0 + 2.0 * (1.0 - 1e-8), 0, 0, 0, 1.0); /* 4: grazing, 1e-8 inside */
}

/* Closed-form contact starts of orbit 0 (centre c, R, omega > 0, phase)
 * with a sphere at rest at p in the plane of the orbit or off it by h. */
static void analytic_contacts(const carom_orbit *a, const carom_orbit *b, uint32_t j,
                              double t_end, contact_log *out)
{
    double dx = b->center[0] - a->center[0], dy = b->center[1] - a->center[1];
    double h = b->center[2] - a->center[2];
    double d = sqrt(dx * dx + dy * dy), sigma = a->radius + b->radius;
    double R = a->orbit_radius;
    /* |x - p|^2 = R^2 + d^2 + h^2 - 2 R d cos(theta), theta = omega t + phase - angle(p). */
    double c0 = (R * R + d * d + h * h - sigma * sigma) / (2.0 * R * d);
    if (c0 >= 1.0)
        return;
    double theta_p = atan2(dy, dx);
    for (int k = -2; k < 1000; k++) {
        /* Approaching: distance decreasing, sin(theta) < 0 for omega > 0. */
        double theta = 2.0 * pi * k - acos(c0);
        double t = (theta + theta_p - a->phase) / a->omega;
        if (t > 0.0 && t < t_end)
            log_add(out, 0, j, t, 0.0);
    }
}

static void test_reference_self(void)
{
    carom_orbits o;
    carom_orbits_init(&o);
    scene_analytic(&o);
    const double t_end = 20.0;
    contact_log want = {0}, got = {0};
    for (uint32_t j = 1; j < o.n; j++)
        analytic_contacts(&o.orbit[0], &o.orbit[j], j, t_end, &want);
    qsort(want.c, want.n, sizeof *want.c, by_pair_time);
    reference(o.orbit, o.n, t_end, &got);
    /* Sphere 1 every turn (~4 turns), 3 and 4 too, never 2. */
    CHECK(want.n >= 12);
    for (size_t k = 0; k < want.n; k++)
        CHECK(want.c[k].j != 2);
    CHECK(compare("reference vs closed form", &got, &want, 1) == 0);
    /* The comparison catches a shifted, a missing and an extra contact. */
    if (got.n >= 3) {
        double t = got.c[1].t;
        got.c[1].t = t * (1.0 + 3e-9);
        CHECK(compare("shifted", &got, &want, 0) == 2);
        got.c[1].t = t * (1.0 + 0.5e-9);
        CHECK(compare("shifted within tolerance", &got, &want, 0) == 0);
        got.c[1].t = t;
        contact saved = got.c[2];
        got.n--;
        memmove(&got.c[2], &got.c[3], (got.n - 2) * sizeof *got.c);
        CHECK(compare("missing", &got, &want, 0) == 1);
        log_add(&got, saved.i, saved.j, saved.t, 0.0);
        log_add(&got, 0, 2, 0.5, 0.0);
        qsort(got.c, got.n, sizeof *got.c, by_pair_time);
        CHECK(compare("extra", &got, &want, 0) == 1);
    }
    free(want.c);
    free(got.c);
    carom_orbits_free(&o);
}

/* Deterministic generator for the random scene. */
static double uniform(uint64_t *s, double a, double b)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return a + (b - a) * (double)(*s >> 11) * 0x1.0p-53;
}

static void scene_random(carom_orbits *o, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    while (o->n < n) {
        double R = uniform(&s, 5, 40), omega = uniform(&s, 0.5, 3.0) * (uniform(&s, 0, 1) < 0.5 ? -1 : 1);
        carom_orbit c = {{uniform(&s, 60, 140), uniform(&s, 60, 140), uniform(&s, 97, 103)},
                         R, omega, uniform(&s, 0, 2 * pi), uniform(&s, 0.5, 4.0)};
        /* No overlap at the start. */
        double x[3];
        carom_orbit_state(&c, 0.0, x, NULL);
        int ok = 1;
        for (size_t k = 0; k < o->n && ok; k++) {
            double y[3];
            carom_orbit_state(&o->orbit[k], 0.0, y, NULL);
            double d = sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
                            (x[2] - y[2]) * (x[2] - y[2]));
            ok = d > 1.01 * (c.radius + o->orbit[k].radius);
        }
        if (ok)
            add(o, c.center[0], c.center[1], c.center[2], R, omega, c.phase, c.radius);
    }
}

int main(void)
{
    const char *quick_env = getenv("CAROM_TEST_QUICK");
    int quick = quick_env && quick_env[0] == '1';
    test_reference_self();

    carom_orbits o;
    carom_orbits_init(&o);
    scene_analytic(&o);
    CHECK(validate("analytic", &o, quick ? 10.0 : 20.0) >= 6);
    carom_orbits_free(&o);

    /* Two intersecting circles, same and opposite senses, and a third
     * sphere crossing both. */
    scene_analytic(&o);
    carom_orbits_free(&o);
    add(&o, 90, 100, 100, 30, 2.0, 0.0, 2.0);
    add(&o, 120, 100, 100, 30, 2.0, 2.5, 1.5);
    add(&o, 105, 100, 100.5, 25, -2.7, 1.0, 1.0);
    add(&o, 105, 110, 99.5, 15, 1.1, 4.0, 3.0);
    CHECK(validate("crossing", &o, quick ? 15.0 : 30.0) >= 5);
    carom_orbits_free(&o);

    /* Fast spheres: speed 1000 and 850 (bounds 2e4 and 1.4e4), small
     * radii, and small spheres at rest along the paths. */
    add(&o, 100, 100, 100, 50, 20.0, 0.0, 0.2);
    add(&o, 110, 100, 100.1, 50, -17.0, 1.0, 0.15);
    for (int k = 0; k < 6; k++) {
        double ang = 2 * pi * k / 6.0 + 0.3;
        add(&o, 100 + 50 * cos(ang), 100 + 50 * sin(ang), 100.0 + 0.05 * k, 0, 0, 0, 0.1);
    }
    CHECK(validate("fast", &o, quick ? 1.0 : 2.0) >= 10);
    carom_orbits_free(&o);

    /* Twenty random orbits in a slab: many crossings. */
    scene_random(&o, 20, 12345);
    CHECK(validate("random20", &o, quick ? 5.0 : 10.0) >= 7);
    carom_orbits_free(&o);
    return CHECK_REPORT();
}
