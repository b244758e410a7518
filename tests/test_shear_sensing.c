/* Sensing pairs under Lees-Edwards shear (carom_world_set_sense with
 * carom_world_set_shear).
 *
 * - Against an exact reference of its own: spheres of one species that
 *   sense each other pass through each other, so each moves on a
 *   straight line in unwrapped coordinates, and so does every image of
 *   another (the images of y index ny displaced along x by ny rate Ly t).
 *   Every contact and parting of every pair, through every image, is a
 *   root of a quadratic: the reference lists those of the run, and the
 *   world's reports must be the same, one for one (pair, contact or
 *   parting, time within 1e-9), in 2D and 3D, at rates from slow to
 *   several box lengths per unit time, either sign, with cells and with
 *   neighbour lists, across many crossings of the sheared boundary.
 * - A mixture (spheres that collide, and tracers that sense them and
 *   pass through each other): after every step, the pairs in contact
 *   (reported in and not yet out) are exactly the sensing pairs that
 *   overlap through the nearest image, across the sheared boundary too
 *   (pairs within 1e-9 of touching left out); each report's normal and
 *   j's velocity are those of the image touched (the normal's distance
 *   is the contact distance, j's velocity its own plus or minus rate Ly).
 * - Placed overlapping across the sheared boundary: reported at the first
 *   advance, with its depth, and its parting when the moving image takes
 *   it away (at the time a quadratic gives); a sphere added later
 *   overlapping the image the offset has moved; and removed while in
 *   contact, its parting (2) with j's velocity that of its image.
 * - Physics: ghosts carried by the flow meet at Smoluchowski's rate of
 *   shear-induced contacts, (4/3) rate s^3 n per sphere in 3D, rate s^2 n
 *   in 2D (measured 1.0006, 0.9989 and 1.0185 of it over some 4,600,
 *   4,600 and 2,300 contacts; checked within 5%). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "rng.h"

#define MAX_N 64

typedef struct report {
    uint32_t i, j; /* i < j */
    double t;
    int parting;
    int matched;
} report;

typedef struct report_log {
    report *r;
    size_t n, capacity;
} report_log;

static void log_add(report_log *log, uint32_t i, uint32_t j, double t, int parting)
{
    if (log->n == log->capacity) {
        log->capacity = log->capacity ? 2 * log->capacity : 1024;
        log->r = realloc(log->r, log->capacity * sizeof *log->r);
        if (!log->r)
            abort();
    }
    log->r[log->n++] = (report){i < j ? i : j, i < j ? j : i, t, parting != 0, 0};
}

static void record(void *user, carom_contact *c)
{
    if (c->kind == CAROM_CONTACT_SPHERE)
        log_add(user, c->i, c->j, c->time, c->parting);
}

typedef struct scene {
    int dim, n;
    double L[3], rate, end;
    double x[MAX_N][3], v[MAX_N][3], r[MAX_N];
} scene;

/* Separation of b's nearest image from a, across the sheared boundary at
 * offset (plain periodic along x and z). */
static void nearest(const scene *sc, double offset, const double xa[3], const double xb[3],
                    double d[3])
{
    for (int k = 0; k < 3; k++)
        d[k] = xb[k] - xa[k];
    double ny = round(d[1] / sc->L[1]);
    d[1] -= ny * sc->L[1];
    d[0] -= ny * offset;
    d[0] -= sc->L[0] * round(d[0] / sc->L[0]);
    if (sc->dim == 3)
        d[2] -= sc->L[2] * round(d[2] / sc->L[2]);
}

/* n spheres apart (by nearest images at offset 0), radii r or 1.6 r for
 * every fifth, velocities normal, every seventh five times as fast. */
static void random_scene(scene *sc, int dim, int n, const double L[3], double rate, double end,
                         uint64_t seed)
{
    rng g;
    rng_seed(&g, seed);
    sc->dim = dim;
    sc->n = n;
    sc->rate = rate;
    sc->end = end;
    for (int k = 0; k < 3; k++)
        sc->L[k] = k < dim ? L[k] : 0.0;
    for (int i = 0; i < n; i++) {
        sc->r[i] = i % 5 == 4 ? 0.8 : 0.5;
        for (int tries = 0;; tries++) {
            for (int k = 0; k < 3; k++)
                sc->x[i][k] = k < dim ? rng_uniform(&g) * L[k] : 0.0;
            int clear = 1;
            for (int j = 0; j < i && clear; j++) {
                double d[3];
                nearest(sc, 0.0, sc->x[i], sc->x[j], d);
                double s = sc->r[i] + sc->r[j];
                clear = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > s * s * 1.0001;
            }
            if (clear)
                break;
            if (tries > 100000)
                abort();
        }
        double f = i % 7 == 6 ? 5.0 : 1.0;
        for (int k = 0; k < 3; k++)
            sc->v[i][k] = k < dim ? f * rng_normal(&g) : 0.0;
    }
}

/* The images ny (or nz) whose separation along an axis of length L,
 * d0 + w t for t in [0, end], comes within s of zero: [*lo, *hi]. */
static void images_in_reach(double d0, double w, double end, double L, double s, int *lo,
                            int *hi)
{
    double a = d0, b = d0 + w * end;
    double dmin = a < b ? a : b, dmax = a < b ? b : a;
    *lo = (int)ceil((-s - dmax) / L);
    *hi = (int)floor((s - dmin) / L);
}

/* Every contact and parting of the run, through every image, from the
 * spheres' straight unwrapped lines. */
static void reference(const scene *sc, report_log *out)
{
    double ly_speed = sc->rate * sc->L[1];
    for (int i = 0; i < sc->n; i++)
        for (int j = i + 1; j < sc->n; j++) {
            double s = sc->r[i] + sc->r[j], d0[3], w[3];
            for (int k = 0; k < 3; k++) {
                d0[k] = sc->x[j][k] - sc->x[i][k];
                w[k] = sc->v[j][k] - sc->v[i][k];
            }
            int ylo, yhi, zlo = 0, zhi = 0;
            images_in_reach(d0[1], w[1], sc->end, sc->L[1], s, &ylo, &yhi);
            if (sc->dim == 3)
                images_in_reach(d0[2], w[2], sc->end, sc->L[2], s, &zlo, &zhi);
            for (int ny = ylo; ny <= yhi; ny++)
                for (int nz = zlo; nz <= zhi; nz++) {
                    double wx = w[0] + ny * ly_speed;
                    int xlo, xhi;
                    images_in_reach(d0[0], wx, sc->end, sc->L[0], s, &xlo, &xhi);
                    for (int nx = xlo; nx <= xhi; nx++) {
                        double d[3] = {d0[0] + nx * sc->L[0], d0[1] + ny * sc->L[1],
                                       d0[2] + nz * (sc->dim == 3 ? sc->L[2] : 0.0)};
                        double u[3] = {wx, w[1], w[2]};
                        double a = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
                        double b = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
                        double c = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - s * s;
                        double disc = b * b - a * c;
                        if (a == 0.0 || disc <= 0.0)
                            continue;
                        /* Stable roots of a t^2 + 2 b t + c. */
                        double q = -(b + copysign(sqrt(disc), b));
                        double t1 = q / a, t2 = c / q;
                        double in = t1 < t2 ? t1 : t2, leave = t1 < t2 ? t2 : t1;
                        if (in > 0.0 && in <= sc->end)
                            log_add(out, (uint32_t)i, (uint32_t)j, in, 0);
                        if (leave > 0.0 && leave <= sc->end)
                            log_add(out, (uint32_t)i, (uint32_t)j, leave, 1);
                    }
                }
        }
}

static carom_world *make_world(const scene *sc, carom_neighbours neighbours, report_log *log)
{
    carom_world_def def = carom_world_default_def();
    def.dim = sc->dim;
    def.neighbours = neighbours;
    for (int k = 0; k < 3; k++)
        def.box[k] = k < sc->dim ? sc->L[k] : 1.0;
    def.on_contact = record;
    def.user_data = log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w) {
        fprintf(stderr, "carom_world_create: %s\n", e.message);
        abort();
    }
    CHECK_OK(carom_world_set_sense(w, 0, 0, 1));
    CHECK_OK(carom_world_set_shear(w, sc->rate));
    for (int i = 0; i < sc->n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        memcpy(s.position, sc->x[i], sizeof s.position);
        memcpy(s.velocity, sc->v[i], sizeof s.velocity);
        s.radius = sc->r[i];
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    return w;
}

/* Every reference report matched by one of the world's, and none left
 * over; the largest time difference into *worst. */
static int compare(const report_log *want, report_log *got, double *worst)
{
    int bad = 0;
    for (size_t a = 0; a < want->n; a++) {
        const report *r = &want->r[a];
        size_t best = got->n;
        double dt = INFINITY;
        for (size_t b = 0; b < got->n; b++) {
            const report *g = &got->r[b];
            if (g->matched || g->i != r->i || g->j != r->j || g->parting != r->parting)
                continue;
            if (fabs(g->t - r->t) < dt) {
                dt = fabs(g->t - r->t);
                best = b;
            }
        }
        if (best == got->n || dt > 1e-9 * (1.0 + r->t)) {
            if (bad++ < 5)
                fprintf(stderr, "    missing: %u-%u %s at %.17g (nearest %.3g away)\n", r->i,
                        r->j, r->parting ? "parting" : "contact", r->t, dt);
            continue;
        }
        got->r[best].matched = 1;
        *worst = dt > *worst ? dt : *worst;
    }
    for (size_t b = 0; b < got->n; b++)
        if (!got->r[b].matched && bad++ < 10)
            fprintf(stderr, "    extra: %u-%u %s at %.17g\n", got->r[b].i, got->r[b].j,
                    got->r[b].parting ? "parting" : "contact", got->r[b].t);
    return bad;
}

static void test_reference(void)
{
    static const double rates[] = {0.05, -0.7, 2.5};
    int runs = 0;
    size_t events = 0;
    double worst = 0.0;
    for (int dim = 2; dim <= 3; dim++)
        for (int r = 0; r < 3; r++)
            for (int lists = 0; lists <= 1; lists++) {
                double L[3] = {dim == 3 ? 7.0 : 9.0, dim == 3 ? 6.0 : 8.0, 5.5};
                scene sc;
                random_scene(&sc, dim, dim == 3 ? 40 : 18, L, rates[r], 12.0,
                             (uint64_t)(100 * dim + 10 * r + lists));
                report_log want = {0}, got = {0};
                reference(&sc, &want);
                carom_world *w =
                    make_world(&sc, lists ? CAROM_NEIGHBOURS_LISTS : CAROM_NEIGHBOURS_CELLS, &got);
                for (int step = 1; step <= 8; step++)
                    CHECK_OK(carom_world_advance_to(w, sc.end * step / 8.0));
                carom_stats st;
                carom_world_get_stats(w, &st);
                size_t contacts = 0, partings = 0;
                for (size_t k = 0; k < want.n; k++)
                    *(want.r[k].parting ? &partings : &contacts) += 1;
                int bad = compare(&want, &got, &worst);
                if (bad)
                    fprintf(stderr, "  %dD rate %g %s: %d differences\n", dim, rates[r],
                            lists ? "lists" : "cells", bad);
                CHECK(bad == 0);
                CHECK(st.collisions == 0 && st.sensed_contacts == contacts &&
                      st.sensed_partings == partings);
                CHECK(contacts > 50);
                events += want.n;
                runs++;
                carom_world_free(w);
                free(want.r);
                free(got.r);
            }
    fprintf(stderr, "  %d runs, %zu contacts and partings, worst time difference %.3g\n", runs,
            events, worst);
}

/* The mixture: hard spheres (species 0) collide, tracers (species 1)
 * sense them and pass through each other. */
typedef struct mixture {
    carom_world *w;
    int n;
    int contacts[MAX_N][MAX_N]; /* reported in, less reported out: 0 or 1 */
    int reports, bad_reports;
    double worst_normal;
} mixture;

/* The separation of j's nearest image from i now, and the velocity of
 * that image (j's own plus ny rate Ly along x). */
static void image_now(const carom_world *w, uint32_t i, uint32_t j, double d[3], double vi[3],
                      double vj[3], double *ri, double *rj)
{
    const carom_world_def *def = carom_world_get_def(w);
    carom_sphere_state a, b;
    CHECK_OK(carom_world_get_sphere(w, i, &a));
    CHECK_OK(carom_world_get_sphere(w, j, &b));
    double ny = round((b.position[1] - a.position[1]) / def->box[1]);
    for (int k = 0; k < 3; k++) {
        d[k] = b.position[k] - a.position[k];
        vi[k] = a.velocity[k];
        vj[k] = b.velocity[k];
    }
    d[1] -= ny * def->box[1];
    d[0] -= ny * carom_world_shear_offset(w);
    vj[0] -= ny * carom_world_shear_rate(w) * def->box[1];
    d[0] -= def->box[0] * round(d[0] / def->box[0]);
    if (def->dim == 3)
        d[2] -= def->box[2] * round(d[2] / def->box[2]);
    *ri = a.radius;
    *rj = b.radius;
}

static void on_mixture_contact(void *user, carom_contact *c)
{
    mixture *m = user;
    if (c->kind != CAROM_CONTACT_SPHERE || c->impulse != 0.0)
        return; /* a collision of hard spheres */
    double d[3], vi[3], vj[3], ri, rj;
    image_now(m->w, c->i, c->j, d, vi, vj, &ri, &rj);
    double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), s = ri + rj;
    double closing = 0.0, normal = 0.0;
    for (int k = 0; k < 3; k++) {
        closing += d[k] * (vj[k] - vi[k]);
        normal = fmax(normal, fabs(c->normal[k] - d[k] / dist));
    }
    int ok = fabs(dist - s) <= 1e-9 * s && normal <= 1e-9 &&
             memcmp(vj, c->velocity_after[1], sizeof vj) == 0 &&
             (c->parting ? closing >= -1e-9 : closing <= 1e-9);
    if (!ok && m->bad_reports++ < 5)
        fprintf(stderr, "    report %u-%u at %.17g (parting %d): distance %.17g of %.17g, "
                        "normal off by %.3g, v_j %.17g reported %.17g, closing %.3g\n",
                c->i, c->j, c->time, c->parting, dist, s, normal, vj[0], c->velocity_after[1][0],
                closing);
    m->worst_normal = fmax(m->worst_normal, normal);
    m->reports++;
    uint32_t i = c->i < c->j ? c->i : c->j, j = c->i < c->j ? c->j : c->i;
    m->contacts[i][j] += c->parting ? -1 : 1;
}

/* After a step: the pairs in contact are those that overlap now. */
static int check_in_contact(mixture *m, int tracers_from)
{
    int wrong = 0;
    for (int i = 0; i < tracers_from; i++)
        for (int j = tracers_from; j < m->n; j++) {
            double d[3], vi[3], vj[3], ri, rj;
            image_now(m->w, (uint32_t)i, (uint32_t)j, d, vi, vj, &ri, &rj);
            double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), s = ri + rj;
            int in = m->contacts[i][j];
            if (in < 0 || in > 1 || (fabs(dist - s) > 1e-9 * s && in != (dist < s))) {
                if (wrong++ < 5)
                    fprintf(stderr, "    %d-%d at %.17g: %d in contact, distance %.17g of %g\n",
                            i, j, carom_world_time(m->w), in, dist, s);
            }
        }
    return wrong;
}

static void check_mixture(int dim, double rate, carom_neighbours neighbours, uint64_t seed)
{
    const int hard = dim == 3 ? 36 : 20, n = hard + 14;
    double L[3] = {dim == 3 ? 7.0 : 11.0, dim == 3 ? 6.5 : 10.0, 6.0};
    scene sc;
    random_scene(&sc, dim, n, L, rate, 15.0, seed);
    mixture *m = calloc(1, sizeof *m);
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    def.neighbours = neighbours;
    for (int k = 0; k < 3; k++)
        def.box[k] = k < dim ? L[k] : 1.0;
    def.on_contact = on_mixture_contact;
    def.user_data = m;
    m->w = carom_world_create(&def, NULL);
    m->n = n;
    CHECK_OK(carom_world_set_pass_through(m->w, 1, 1, 1));
    CHECK_OK(carom_world_set_sense(m->w, 0, 1, 1));
    CHECK_OK(carom_world_set_shear(m->w, rate));
    for (int i = 0; i < n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        memcpy(s.position, sc.x[i], sizeof s.position);
        memcpy(s.velocity, sc.v[i], sizeof s.velocity);
        s.radius = sc.r[i];
        s.species = i < hard ? 0 : 1;
        CHECK_OK(carom_world_add_sphere(m->w, &s, NULL));
    }
    int wrong = 0;
    for (int step = 1; step <= 60; step++) {
        CHECK_OK(carom_world_advance_to(m->w, sc.end * step / 60.0));
        wrong += check_in_contact(m, hard);
    }
    carom_stats st;
    carom_world_get_stats(m->w, &st);
    fprintf(stderr, "  %dD rate %g %s: %llu collisions, %d reports, %d wrong, %d pair states "
                    "wrong, worst normal %.2g\n",
            dim, rate, neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells",
            (unsigned long long)st.collisions, m->reports, m->bad_reports, wrong,
            m->worst_normal);
    CHECK(wrong == 0 && m->bad_reports == 0);
    CHECK(st.collisions > 100 && m->reports > 100 &&
          (uint64_t)m->reports == st.sensed_contacts + st.sensed_partings);
    carom_world_free(m->w);
    free(m);
}

static void test_mixture(void)
{
    check_mixture(3, 0.8, CAROM_NEIGHBOURS_CELLS, 7);
    check_mixture(3, -1.5, CAROM_NEIGHBOURS_LISTS, 8);
    check_mixture(2, 1.2, CAROM_NEIGHBOURS_CELLS, 9);
    check_mixture(2, -0.4, CAROM_NEIGHBOURS_LISTS, 10);
}

typedef struct kept {
    carom_contact c[16];
    int n;
} kept;

static void keep(void *user, carom_contact *c)
{
    kept *k = user;
    if (k->n < 16)
        k->c[k->n++] = *c;
}

/* A hard sphere and a tracer placed overlapping through the sheared
 * boundary at t = 0, and a second tracer added at t = 1 overlapping it
 * through the image the offset has moved by then. */
static void test_placed_across(void)
{
    const double rate = 0.5, L = 8.0;
    kept k = {0};
    carom_world_def def = carom_world_default_def();
    for (int a = 0; a < 3; a++)
        def.box[a] = L;
    def.on_contact = keep;
    def.user_data = &k;
    carom_world *w = carom_world_create(&def, NULL);
    CHECK_OK(carom_world_set_sense(w, 0, 1, 1));
    CHECK_OK(carom_world_set_pass_through(w, 1, 1, 1));
    CHECK_OK(carom_world_set_shear(w, rate));
    carom_sphere_def s = carom_sphere_default_def();
    carom_sphere_id hard, tracer, late;
    s.position[0] = 4.0;
    s.position[1] = 0.3;
    s.position[2] = 4.0;
    s.velocity[1] = 0.5;
    CHECK_OK(carom_world_add_sphere(w, &s, &hard));
    s.position[1] = 7.9; /* its image below: 0.4 under the hard one */
    s.velocity[1] = 0.0;
    s.species = 1;
    CHECK_OK(carom_world_add_sphere(w, &s, &tracer));
    CHECK_OK(carom_world_advance_to(w, 0.5));
    /* In at 0 with depth 0.6; the image below moves at -rate L along x:
     * d(t) = (-4 t, -0.4 - 0.5 t), out when |d| = 1. */
    double out = (-0.4 + sqrt(0.16 + 4.0 * 16.25 * 0.84)) / 32.5;
    CHECK(k.n == 2);
    if (k.n == 2) {
        const carom_contact *in = &k.c[0], *part = &k.c[1];
        int hard_first = in->i == hard;
        fprintf(stderr, "  placed: in at %g depth %.17g, out at %.17g (expected %.17g)\n",
                in->time, in->depth, part->time, out);
        CHECK(in->time == 0.0 && in->parting == 0 && fabs(in->depth - 0.6) < 1e-12);
        CHECK(fabs(in->normal[1] - (hard_first ? -1.0 : 1.0)) < 1e-12);
        /* The tracer's velocity is its image's: -rate L along x. */
        const double *v_tracer = in->velocity_after[hard_first ? 1 : 0];
        CHECK(hard_first ? v_tracer[0] == -rate * L : v_tracer[0] == 0.0);
        CHECK(part->parting == 1 && fabs(part->time - out) < 1e-12);
    }
    /* At t = 1 the hard sphere is at (4, 0.8, 4) and the offset rate L =
     * 4: a tracer at x = 4 + 0.1 + 4 (mod 8), y = 7.9 overlaps its image
     * below by 1 - sqrt(0.01 + 0.81). */
    CHECK_OK(carom_world_advance_to(w, 1.0));
    k.n = 0;
    s.position[0] = fmod(4.0 + 0.1 + carom_world_shear_offset(w), L);
    s.position[1] = 7.9;
    CHECK_OK(carom_world_add_sphere(w, &s, &late));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(k.n == 1);
    if (k.n == 1) {
        fprintf(stderr, "  added at t = 1: in with depth %.17g (expected %.17g)\n", k.c[0].depth,
                1.0 - sqrt(0.82));
        CHECK(k.c[0].parting == 0 && fabs(k.c[0].depth - (1.0 - sqrt(0.82))) < 1e-12 &&
              ((k.c[0].i == hard && k.c[0].j == late) || (k.c[0].i == late && k.c[0].j == hard)));
    }
    /* Removed while in contact: its parting (2) comes at the next
     * advance, j's velocity its image's (the tracer's below, at -rate L;
     * the hard sphere's above, at +rate L). */
    k.n = 0;
    CHECK_OK(carom_world_remove_sphere(w, late));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(k.n == 1);
    if (k.n == 1) {
        const carom_contact *c = &k.c[0];
        double want = c->j == late ? -rate * L : rate * L;
        fprintf(stderr, "  removed: parting %d, j's velocity %g (expected %g)\n", c->parting,
                c->velocity_after[1][0], want);
        CHECK(c->parting == 2 && c->velocity_after[1][0] == want);
    }
    carom_world_free(w);
}

/* Ghosts carried by the flow (each moving at the profile's velocity at
 * its height, nothing else) meet only as the shear brings them past each
 * other: Smoluchowski's (1917) rate of shear-induced contacts. Into a
 * sphere of contact radius s, at number density n, flow comes at
 * (4/3) rate s^3 n (3D), rate s^2 n (2D); over the N (N - 1) / 2 pairs
 * of a box of volume V, the contacts per unit time are that times
 * (N - 1) / V times N / 2. A uniform random start stays uniform (the
 * flow is affine), so the count over a time T is that rate times T,
 * within its fluctuation: here within 5%. */
static void count_by_flow(void *user, carom_contact *c)
{
    *(uint64_t *)user += c->kind == CAROM_CONTACT_SPHERE && !c->parting && c->depth == 0.0;
}

static void check_smoluchowski(int dim, double rate)
{
    const int n = dim == 3 ? 3000 : 2000;
    const double packing = dim == 3 ? 0.02 : 0.03, end = 60.0 / fabs(rate);
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    double side = carom_box_length_for_packing(dim, (size_t)n, 0.5, packing);
    for (int k = 0; k < 3; k++)
        def.box[k] = k < dim ? side : 1.0;
    uint64_t by_flow = 0;
    def.on_contact = count_by_flow;
    def.user_data = &by_flow;
    carom_world *w = carom_world_create(&def, NULL);
    CHECK_OK(carom_world_set_sense(w, 0, 0, 1));
    CHECK_OK(carom_world_set_shear(w, rate));
    rng g;
    rng_seed(&g, (uint64_t)(1000 * dim + 7));
    for (int i = 0; i < n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        for (int k = 0; k < dim; k++)
            s.position[k] = rng_uniform(&g) * side;
        s.velocity[0] = rate * (s.position[1] - 0.5 * side);
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, end));
    carom_stats st;
    carom_world_get_stats(w, &st);
    double volume = dim == 3 ? side * side * side : side * side;
    double flux = dim == 3 ? 4.0 / 3.0 : 1.0; /* times rate s^dim n, s = 1 */
    double expected = flux * fabs(rate) * (double)(n - 1) / volume * 0.5 * n * end;
    /* Pairs placed overlapping come in at the start with their depth,
     * not by the flow. */
    double ratio = (double)by_flow / expected;
    fprintf(stderr, "  %dD rate %g: %llu contacts by the flow (%llu placed) over t = %g, "
                    "Smoluchowski %.0f: ratio %.4f\n",
            dim, rate, (unsigned long long)by_flow,
            (unsigned long long)(st.sensed_contacts - by_flow), end, expected, ratio);
    CHECK(fabs(ratio - 1.0) < 0.05);
    carom_world_free(w);
}

static void test_smoluchowski(void)
{
    check_smoluchowski(3, 1.0);
    check_smoluchowski(3, -0.3);
    check_smoluchowski(2, 0.5);
}

int main(void)
{
    RUN(test_reference);
    RUN(test_mixture);
    RUN(test_placed_across);
    RUN(test_smoluchowski);
    return CHECK_REPORT();
}
