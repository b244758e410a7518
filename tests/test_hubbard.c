/* Hubbard's broad phase (bench/baselines/hubbard.c) against an
 * independent reference: spheres with constant known accelerations
 * (each its own vector, |a| <= its bound) in a walled box, elastic
 * contacts. The test's driver gives the exact parabolic state and takes
 * kicks; the reference simulates the same physics by itself, finding each
 * next contact by sampling every pair's gap (and every sphere's distance
 * to every face) on a fine time grid and bisecting the first sign change.
 * Every contact the reference finds must come out of the baseline, same
 * spheres (or face), same order, at the same time to 1e-9 relative, and
 * nothing else.
 *
 * Scenes: small dense ones cut after a few contacts (two chaotic
 * simulations separate exponentially with the number of contacts in a
 * causal chain, so long runs cannot be compared to 1e-9), and sparse
 * larger ones over a short time, where chains stay short. Fast tiny
 * spheres check that nothing tunnels.
 *
 * Environment: CAROM_TEST_QUICK=1 runs fewer scenes (sanitizer builds).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hubbard.h"

#define MAXN 64
#define MAXEV 4096

typedef struct body {
    double t0, x0[3], v0[3], acc[3];
    double r, m, A;
} body;

typedef struct scene {
    int n;
    double L;
    body b[MAXN];
} scene;

static void body_state(const body *b, double t, double x[3], double v[3])
{
    double s = t - b->t0;
    for (int a = 0; a < 3; a++) {
        x[a] = b->x0[a] + b->v0[a] * s + 0.5 * b->acc[a] * s * s;
        v[a] = b->v0[a] + b->acc[a] * s;
    }
}

static void body_kick(body *b, double t, const double dv[3])
{
    double x[3], v[3];
    body_state(b, t, x, v);
    for (int a = 0; a < 3; a++) {
        b->x0[a] = x[a];
        b->v0[a] = v[a] + dv[a];
    }
    b->t0 = t;
}

/* ---- the test's driver ---- */

typedef struct test_driver {
    body b[MAXN];
    double last[MAXN];
    int misuse;
} test_driver;

static void drv_probe(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    test_driver *d = user;
    if (t < d->last[id])
        d->misuse++;
    d->last[id] = t;
    body_state(&d->b[id], t, x, v);
}

static void drv_kick(void *user, carom_sphere_id id, double t, const double dv[3])
{
    test_driver *d = user;
    if (t < d->last[id])
        d->misuse++;
    d->last[id] = t;
    body_kick(&d->b[id], t, dv);
}

typedef struct event {
    double t;
    int i, j; /* j >= 0 sphere, else -(1 + wall code) */
} event;

typedef struct event_log {
    event e[MAXEV];
    int n;
} event_log;

static void on_contact(void *user, carom_contact *c)
{
    event_log *log = user;
    if (log->n < MAXEV) {
        event *e = &log->e[log->n++];
        e->t = c->time;
        e->i = (int)c->i;
        e->j = c->kind == CAROM_CONTACT_SPHERE ? (int)c->j : -(1 + c->wall);
        if (e->j >= 0 && e->j < e->i) {
            int k = e->i;
            e->i = e->j;
            e->j = k;
        }
    }
}

/* ---- the reference ---- */

static double pair_gap(const body *p, const body *q, double t)
{
    double xp[3], vp[3], xq[3], vq[3], dd = 0;
    body_state(p, t, xp, vp);
    body_state(q, t, xq, vq);
    for (int a = 0; a < 3; a++)
        dd += (xq[a] - xp[a]) * (xq[a] - xp[a]);
    return sqrt(dd) - (p->r + q->r);
}

static double wall_gap(const body *p, int code, double L, double t)
{
    double x[3], v[3];
    body_state(p, t, x, v);
    int a = code / 2;
    return (code & 1) ? L - x[a] - p->r : x[a] - p->r;
}

static double gap_of(const scene *s, int i, int j, double t)
{
    return j >= 0 ? pair_gap(&s->b[i], &s->b[j], t) : wall_gap(&s->b[i], -j - 1, s->L, t);
}

/* First time after t where the gap of (i, j) comes down to <= 0 after
 * having been > 0, scanning with step dt up to limit; -1 if none. */
static double scan(const scene *s, int i, int j, double t, double dt, double limit)
{
    double g = gap_of(s, i, j, t);
    int seen_positive = g > 0;
    for (double lo = t; lo < limit; lo += dt) {
        double hi = lo + dt;
        double gh = gap_of(s, i, j, hi);
        if (seen_positive && gh <= 0) {
            double a = lo, b = hi;
            for (int it = 0; it < 200 && b - a > 0; it++) {
                double mid = 0.5 * (a + b);
                if (mid <= a || mid >= b)
                    break;
                if (gap_of(s, i, j, mid) > 0)
                    a = mid;
                else
                    b = mid;
            }
            return b;
        }
        if (gh > 0)
            seen_positive = 1;
    }
    return -1.0;
}

static void reference_response(scene *s, int i, int j, double t)
{
    body *p = &s->b[i];
    double xp[3], vp[3];
    body_state(p, t, xp, vp);
    double dvp[3] = {0, 0, 0};
    if (j < 0) {
        int code = -j - 1, a = code / 2;
        dvp[a] = -2.0 * vp[a];
        body_kick(p, t, dvp);
        return;
    }
    body *q = &s->b[j];
    double xq[3], vq[3], n[3], dist = 0, un = 0;
    body_state(q, t, xq, vq);
    for (int a = 0; a < 3; a++) {
        n[a] = xq[a] - xp[a];
        dist += n[a] * n[a];
    }
    dist = sqrt(dist);
    for (int a = 0; a < 3; a++) {
        n[a] /= dist;
        un += (vp[a] - vq[a]) * n[a]; /* closing speed, > 0 */
    }
    double mu2 = 2.0 * p->m * q->m / (p->m + q->m);
    double dvq[3];
    for (int a = 0; a < 3; a++) {
        dvp[a] = -mu2 * un / p->m * n[a];
        dvq[a] = mu2 * un / q->m * n[a];
    }
    body_kick(p, t, dvp);
    body_kick(q, t, dvq);
}

static void reference_run(scene s, double t_end, double dt, event_log *log)
{
    double t = 0.0;
    log->n = 0;
    for (;;) {
        double best = t_end;
        int bi = -1, bj = 0;
        for (int i = 0; i < s.n; i++) {
            for (int j = i + 1; j < s.n; j++) {
                double tc = scan(&s, i, j, t, dt, best);
                if (tc >= 0 && tc < best) {
                    best = tc;
                    bi = i;
                    bj = j;
                }
            }
            for (int code = 0; code < 6; code++) {
                double tc = scan(&s, i, -(1 + code), t, dt, best);
                if (tc >= 0 && tc < best) {
                    best = tc;
                    bi = i;
                    bj = -(1 + code);
                }
            }
        }
        if (bi < 0 || log->n == MAXEV)
            return;
        reference_response(&s, bi, bj, best);
        log->e[log->n].t = best;
        log->e[log->n].i = bi;
        log->e[log->n].j = bj;
        log->n++;
        t = best;
    }
}

/* ---- scenes ---- */

static uint64_t rng_state;

static double uniform(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static void random_unit(double u[3])
{
    double n2;
    do {
        for (int a = 0; a < 3; a++)
            u[a] = uniform(-1, 1);
        n2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    } while (n2 > 1 || n2 < 1e-4);
    for (int a = 0; a < 3; a++)
        u[a] /= sqrt(n2);
}

static void make_scene(scene *s, int n, double L, double rmin, double rmax, double vmin,
                       double vmax, double Amin, double Amax, uint64_t seed)
{
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 7;
    s->n = n;
    s->L = L;
    for (int i = 0; i < n; i++) {
        body *b = &s->b[i];
        memset(b, 0, sizeof *b);
        b->r = uniform(rmin, rmax);
        b->m = uniform(1, 3);
        b->A = uniform(Amin, Amax);
        for (int tries = 0;; tries++) {
            for (int a = 0; a < 3; a++)
                b->x0[a] = uniform(b->r * 1.01, L - b->r * 1.01);
            int ok = 1;
            for (int k = 0; k < i && ok; k++)
                if (pair_gap(b, &s->b[k], 0.0) < 0.01 * b->r)
                    ok = 0;
            if (ok || tries > 10000)
                break;
        }
        double u[3];
        random_unit(u);
        double speed = uniform(vmin, vmax);
        for (int a = 0; a < 3; a++)
            b->v0[a] = speed * u[a];
        random_unit(u);
        /* the true acceleration: sometimes exactly the bound, else below it */
        double an = (i % 3 == 0) ? b->A : uniform(0.3, 1.0) * b->A;
        for (int a = 0; a < 3; a++)
            b->acc[a] = an * u[a];
    }
}

static int events_match(const event_log *got, const event_log *ref, double t_cut,
                        const char *label)
{
    int nr = 0;
    while (nr < ref->n && ref->e[nr].t <= t_cut)
        nr++;
    int ok = got->n == nr;
    for (int k = 0; ok && k < nr; k++) {
        const event *g = &got->e[k], *r = &ref->e[k];
        double tol = 1e-9 * fmax(1.0, fabs(r->t));
        if (g->i != r->i || g->j != r->j || !(fabs(g->t - r->t) <= tol)) {
            fprintf(stderr, "%s: contact %d: got (%d,%d) at %.17g, reference (%d,%d) at %.17g\n",
                    label, k, g->i, g->j, g->t, r->i, r->j, r->t);
            ok = 0;
        }
    }
    if (got->n != nr)
        fprintf(stderr, "%s: %d contacts, reference %d\n", label, got->n, nr);
    return ok;
}

static int total_contacts, total_sphere_contacts;
static int use_eager; /* sweep each window whole (hubbard.h eager_sweep) */

/* Runs the baseline on the scene to t_end, compares with the reference. */
static void compare(const scene *s, double t_end, const event_log *ref, double horizon,
                    const char *label)
{
    static test_driver drv;
    static event_log got;
    memset(&drv, 0, sizeof drv);
    got.n = 0;
    carom_sphere_def defs[MAXN];
    for (int i = 0; i < s->n; i++) {
        drv.b[i] = s->b[i];
        drv.last[i] = -INFINITY;
        defs[i] = carom_sphere_default_def();
        defs[i].radius = s->b[i].r;
        defs[i].mass = s->b[i].m;
        defs[i].accel_bound = s->b[i].A;
        defs[i].driven = 1;
    }
    carom_hubbard_def def = carom_hubbard_default_def();
    def.box[0] = def.box[1] = def.box[2] = s->L;
    def.horizon = horizon;
    def.eager_sweep = use_eager;
    def.driver.probe = drv_probe;
    def.driver.kick = drv_kick;
    def.driver.user_data = &drv;
    def.on_contact = on_contact;
    def.user_data = &got;
    carom_error err;
    carom_hubbard *h = carom_hubbard_create(&def, (size_t)s->n, defs, 0.0, &err);
    CHECK(h != NULL);
    if (!h)
        return;
    /* in a few pieces, to check that advancing piecewise changes nothing */
    carom_status st = carom_hubbard_advance_to(h, 0.3 * t_end);
    if (st == CAROM_OK)
        st = carom_hubbard_advance_to(h, t_end);
    if (st != CAROM_OK)
        fprintf(stderr, "%s: %s\n", label, carom_hubbard_error_message(h));
    CHECK(st == CAROM_OK);
    carom_hubbard_stats hs;
    carom_hubbard_get_stats(h, &hs);
    CHECK(drv.misuse == 0);
    CHECK(hs.late_contacts == 0);
    int ok = events_match(&got, ref, t_end, label);
    CHECK(ok);
    for (int k = 0; k < got.n; k++)
        total_sphere_contacts += got.e[k].j >= 0;
    total_contacts += got.n;
    carom_hubbard_free(h);
}

/* A small dense scene, cut between the reference's k-th and k+1-th contact. */
static void small_scene(uint64_t seed, int n, int k_cut, double horizon)
{
    static scene s;
    static event_log ref;
    make_scene(&s, n, 12.0, 0.8, 2.5, 2.0, 12.0, 2.0, 20.0, seed);
    reference_run(s, 6.0, 2e-4, &ref);
    double t_end = 6.0;
    if (ref.n > k_cut)
        t_end = 0.5 * (ref.e[k_cut - 1].t + ref.e[k_cut].t);
    char label[64];
    snprintf(label, sizeof label, "small seed %llu n %d", (unsigned long long)seed, n);
    compare(&s, t_end, &ref, horizon, label);
}

/* A sparse scene of n spheres over a short time (short causal chains). */
static void sparse_scene(uint64_t seed, int n, double t_end, double horizon)
{
    static scene s;
    static event_log ref;
    make_scene(&s, n, 40.0, 0.5, 3.0, 3.0, 15.0, 5.0, 15.0, seed);
    reference_run(s, t_end, 5e-4, &ref);
    char label[64];
    snprintf(label, sizeof label, "sparse seed %llu n %d", (unsigned long long)seed, n);
    compare(&s, t_end, &ref, horizon, label);
}

/* Tiny fast spheres aimed at each other (no tunnelling), head on and off
 * centre, one with a strong sideways acceleration. */
static void fast_scene(void)
{
    static scene s;
    static event_log ref;
    memset(&s, 0, sizeof s);
    s.n = 3;
    s.L = 100.0;
    body *b = s.b;
    b[0] = (body){0, {10, 50, 50}, {400, 0, 0}, {0, 0, 0}, 0.05, 1, 0};
    b[1] = (body){0, {90, 50.03, 50}, {-300, 0, 0}, {0, 0, 0}, 0.05, 2, 0};
    b[2] = (body){0, {50, 20, 50}, {0, 10, 0}, {0, 0, 25}, 0.2, 1, 25};
    reference_run(s, 0.6, 2e-6, &ref);
    CHECK(ref.n >= 2);
    compare(&s, 0.6, &ref, 0.0, "fast");
}

int main(void)
{
    const char *quick = getenv("CAROM_TEST_QUICK");
    int q = quick && quick[0] == '1';
    int nsmall = q ? 8 : 30;
    for (int k = 0; k < nsmall; k++) {
        use_eager = k % 4 == 3;
        small_scene(100 + (uint64_t)k, 3 + k % 3, 6, k % 2 ? 0.0 : 0.25);
    }
    int nsparse = q ? 2 : 5;
    for (int k = 0; k < nsparse; k++) {
        use_eager = k == 1;
        sparse_scene(200 + (uint64_t)k, 30, 1.5, k % 2 ? 0.0 : 0.5);
    }
    use_eager = 0;
    fast_scene();
    printf("hubbard: %d contacts compared (%d sphere-sphere)\n", total_contacts,
           total_sphere_contacts);
    /* the comparison must have something to compare */
    CHECK(total_sphere_contacts >= (q ? 10 : 40));
    return CHECK_REPORT();
}
