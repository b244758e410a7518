/* Sensing pairs (carom_world_set_sense), checked against arithmetic of
 * the test's own:
 *
 * - two spheres on a head-on course that sense each other are reported
 *   once, at the time of contact, with impulse 0, and pass through on
 *   straight lines; counted as sensed, not as collisions;
 * - a hard-sphere fluid with tracers that sense it (3D periodic, cells
 *   and neighbour lists; 2D with walls, gravity and a large sensor of
 *   infinite mass): sampled every small step, every pair of sensing
 *   spheres that starts to overlap within a step was reported within it,
 *   and every report is of a pair apart at the start of its step (and
 *   reported no other time in it),
 *   touching (to 1e-9 of the contact distance) and approaching at its
 *   time; the spheres move as in the same world where the pairs pass
 *   through (the same collisions, and the same places to 1e-6: which of
 *   a colliding pair's two predictions of its time comes first may
 *   change, by a bit, and the fluid's chaos grows that to 1e-9 to 1e-7
 *   over these runs); tracers tiny (levels of cells), large (out of the
 *   grid), among walls under gravity;
 * - an ideal gas of two species that sense each other reports the same
 *   contacts as a report-only world of the same spheres;
 * - a contact at the instant its sphere collides elsewhere is reported
 *   once, whichever of the two events comes first;
 * - the three modes of a pair exclude each other; a change that makes
 *   overlapping spheres meet is refused and changes nothing; a
 *   report-only world takes sensing as meeting;
 * - driven spheres, growth and species out of range are refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "rng.h"

#define MAX_SPHERES 256
#define MAX_REPORTS 200000

typedef struct report {
    double t, gap, approach; /* distance - contact distance, and dr . dv, at t */
    uint32_t i, j;
} report;

typedef struct sense_log {
    carom_world *world;
    int dim;
    double box[3];
    int periodic[3];
    report *r;
    size_t n;
    uint64_t collisions, sensed, impulses_in_sensed;
    const uint32_t *species; /* by id */
} sense_log;

/* Separation b - a, the nearest image along periodic axes. */
static void separation(const sense_log *log, const double a[3], const double b[3], double d[3])
{
    for (int k = 0; k < 3; k++) {
        d[k] = k < log->dim ? b[k] - a[k] : 0.0;
        if (log->periodic[k])
            d[k] -= log->box[k] * round(d[k] / log->box[k]);
    }
}

static int senses(const sense_log *log, uint32_t i, uint32_t j)
{
    return carom_world_senses(log->world, log->species[i], log->species[j]);
}

static void on_contact(void *user, carom_contact *c)
{
    sense_log *log = user;
    if (c->kind != CAROM_CONTACT_SPHERE)
        return;
    if (!senses(log, c->i, c->j)) {
        log->collisions++;
        return;
    }
    log->sensed++;
    log->impulses_in_sensed += c->impulse != 0.0;
    CHECK(log->n < MAX_REPORTS);
    if (log->n >= MAX_REPORTS)
        return;
    carom_sphere_state a, b;
    CHECK_OK(carom_world_get_sphere(log->world, c->i, &a));
    CHECK_OK(carom_world_get_sphere(log->world, c->j, &b));
    double d[3], dv[3];
    separation(log, a.position, b.position, d);
    for (int k = 0; k < 3; k++)
        dv[k] = b.velocity[k] - a.velocity[k];
    double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    report *r = &log->r[log->n++];
    r->t = c->time;
    r->i = c->i < c->j ? c->i : c->j;
    r->j = c->i < c->j ? c->j : c->i;
    r->gap = (dist - (a.radius + b.radius)) / (a.radius + b.radius);
    r->approach = d[0] * dv[0] + d[1] * dv[1] + d[2] * dv[2];
}

static carom_world *make_world(int dim, const double box[3], carom_boundary boundary,
                               carom_neighbours neighbours, carom_response response,
                               const double *gravity, sense_log *log)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int k = 0; k < 3 && gravity; k++)
        def.gravity[k] = gravity[k];
    for (int k = 0; k < 3; k++) {
        def.box[k] = box[k];
        def.boundary[k] = boundary;
    }
    def.neighbours = neighbours;
    def.response = response;
    def.on_contact = on_contact;
    def.user_data = log;
    memset(log, 0, sizeof *log);
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    log->world = w;
    log->dim = dim;
    for (int k = 0; k < 3; k++) {
        log->box[k] = box[k];
        log->periodic[k] = boundary == CAROM_BOUNDARY_PERIODIC;
    }
    log->r = malloc(MAX_REPORTS * sizeof *log->r);
    CHECK(log->r != NULL);
    return w;
}

static void free_world(carom_world *w, sense_log *log)
{
    carom_world_free(w);
    free(log->r);
}

/* Which sensing pairs overlap now (flags by i * n + j, i < j). */
static void overlapping(const sense_log *log, int n, unsigned char *flag)
{
    carom_sphere_state s[MAX_SPHERES];
    for (int i = 0; i < n; i++)
        CHECK_OK(carom_world_get_sphere(log->world, (carom_sphere_id)i, &s[i]));
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            double d[3];
            separation(log, s[i].position, s[j].position, d);
            double sigma = s[i].radius + s[j].radius;
            flag[i * n + j] = senses(log, (uint32_t)i, (uint32_t)j) &&
                              d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < sigma * sigma;
        }
    }
}

/* Runs the world in steps of dt and checks every report against the
 * overlaps seen at the steps (see the file's comment); returns the
 * number of pairs seen to start overlapping. */
static int check_reports_by_steps(sense_log *log, int n, double dt, int steps)
{
    unsigned char *before = calloc((size_t)n * (size_t)n, 1), *now = calloc((size_t)n * (size_t)n, 1);
    int *reports_of = calloc((size_t)n * (size_t)n, sizeof *reports_of);
    CHECK(before && now && reports_of);
    double t0 = carom_world_time(log->world);
    overlapping(log, n, before);
    size_t seen = log->n;
    int entries = 0, bad_reports = 0, missed = 0;
    for (int step = 1; step <= steps; step++) {
        double t = t0 + step * dt;
        CHECK_OK(carom_world_advance_to(log->world, t));
        overlapping(log, n, now);
        memset(reports_of, 0, (size_t)n * (size_t)n * sizeof *reports_of);
        for (; seen < log->n; seen++) {
            const report *r = &log->r[seen];
            int at = (int)r->i * n + (int)r->j;
            reports_of[at]++;
            int good = r->t > t - dt && r->t <= t && !before[at] && fabs(r->gap) <= 1e-9 &&
                       r->approach < 0.0 && reports_of[at] == 1; /* once a step */
            if (!good && bad_reports++ < 5)
                fprintf(stderr, "report of %u and %u at %.17g (step %.17g to %.17g): apart "
                                "before %d, gap %.3g, approach %.3g\n",
                        r->i, r->j, r->t, t - dt, t, !before[at], r->gap, r->approach);
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                int at = i * n + j;
                if (now[at] && !before[at]) {
                    entries++;
                    if (reports_of[at] == 0 && missed++ < 5)
                        fprintf(stderr, "%d and %d started to overlap in (%g, %g], unreported\n",
                                i, j, t - dt, t);
                }
            }
        }
        unsigned char *swap = before;
        before = now;
        now = swap;
    }
    CHECK(bad_reports == 0);
    CHECK(missed == 0);
    free(before);
    free(now);
    free(reports_of);
    return entries;
}

/* Two spheres (radius 0.5) at x = 3 and 7 closing at speed 2 in a
 * periodic box of 20: they touch at t = 1.5, are reported then, and go
 * on through each other. The pair set to sense after the spheres are
 * added, or before (when the world has no room for any yet). */
static void head_on(int sense_first)
{
    const double box[3] = {20.0, 20.0, 20.0};
    const uint32_t species[2] = {0, 1};
    sense_log log;
    carom_world *w = make_world(3, box, CAROM_BOUNDARY_PERIODIC, CAROM_NEIGHBOURS_AUTO,
                                CAROM_RESPONSE_ELASTIC, NULL, &log);
    log.species = species;
    if (sense_first) /* before the world has room for any sphere */
        CHECK_OK(carom_world_set_sense(w, 1, 0, 1));
    for (int k = 0; k < 2; k++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.position[0] = k ? 7.0 : 3.0;
        d.position[1] = d.position[2] = 5.0;
        d.velocity[0] = k ? -1.0 : 1.0;
        d.species = species[k];
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_set_sense(w, 1, 0, 1));
    CHECK(carom_world_senses(w, 0, 1) == 1 && carom_world_senses(w, 1, 0) == 1);
    CHECK(carom_world_senses(w, 0, 0) == 0 && carom_world_passes_through(w, 0, 1) == 0);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK(log.n == 1 && log.collisions == 0 && log.impulses_in_sensed == 0);
    if (log.n == 1) {
        CHECK_NEAR(log.r[0].t, 1.5, 1e-12);
        CHECK(fabs(log.r[0].gap) <= 1e-12 && log.r[0].approach < 0.0);
    }
    carom_sphere_state a, b;
    CHECK_OK(carom_world_get_sphere(w, 0, &a));
    CHECK_OK(carom_world_get_sphere(w, 1, &b));
    CHECK_NEAR(a.position[0], 6.0, 1e-12);
    CHECK_NEAR(b.position[0], 4.0, 1e-12);
    CHECK(a.velocity[0] == 1.0 && b.velocity[0] == -1.0);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.sensed_contacts == 1 && st.collisions == 0 && st.virial == 0.0);
    /* Around the box once more: they meet again at t = 1.5 + 10. */
    CHECK_OK(carom_world_advance_to(w, 12.0));
    CHECK(log.n == 2);
    if (log.n == 2)
        CHECK_NEAR(log.r[1].t, 11.5, 1e-11);
    free_world(w, &log);
}

static void test_head_on(void)
{
    head_on(0);
    head_on(1);
}

/* A sphere touches a sensing partner at the instant it collides with
 * another: reported once, whichever event the loop takes first. A (at
 * x = 5, speed 1 along x) hits B (at rest at x = 7) at t = 1, when S (a
 * sensor coming down along y) touches it too; A stops, B goes on, S
 * passes through A. */
static void test_same_instant(void)
{
    const double box[3] = {20.0, 20.0, 20.0};
    for (int order = 0; order < 2; order++) {
        uint32_t species[3];
        sense_log log;
        carom_world *w = make_world(3, box, CAROM_BOUNDARY_PERIODIC, CAROM_NEIGHBOURS_AUTO,
                                    CAROM_RESPONSE_ELASTIC, NULL, &log);
        log.species = species;
        const double start[3][3] = {{5.0, 5.0, 5.0}, {7.0, 5.0, 5.0}, {6.0, 7.0, 5.0}};
        const double speed[3][3] = {{1.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, -1.0, 0.0}};
        for (int m = 0; m < 3; m++) {
            int k = order ? 2 - m : m; /* the ids in either order */
            carom_sphere_def d = carom_sphere_default_def();
            for (int a = 0; a < 3; a++) {
                d.position[a] = start[k][a];
                d.velocity[a] = speed[k][a];
            }
            d.species = species[m] = k == 2;
            CHECK_OK(carom_world_add_sphere(w, &d, NULL));
        }
        CHECK_OK(carom_world_set_sense(w, 0, 1, 1));
        CHECK_OK(carom_world_advance_to(w, 3.0));
        CHECK(log.collisions == 1 && log.n == 1);
        if (log.n == 1)
            CHECK(log.r[0].t == 1.0);
        free_world(w, &log);
    }
}

/* A hard-sphere fluid (species 0 meet) with tracers (species 1, which
 * pass through each other and sense species 0), random in a periodic
 * cube; sense: 0-1 sense each other, else they pass through. */
typedef struct tracer_scene {
    int dim;
    carom_neighbours neighbours;
    double tracer_radius;    /* the fluid's is 0.5 */
    carom_boundary boundary; /* on every axis */
    double gravity;          /* along the last axis */
} tracer_scene;

static carom_world *tracer_world(const tracer_scene *sc, int sense, int n,
                                 const uint32_t *species, sense_log *log)
{
    int dim = sc->dim;
    double L = dim == 3 ? 9.0 : 24.0;
    const double box[3] = {L, L, dim == 3 ? L : 1.0};
    double g[3] = {0.0, 0.0, 0.0};
    g[dim - 1] = -sc->gravity;
    carom_world *w = make_world(dim, box, sc->boundary, sc->neighbours, CAROM_RESPONSE_ELASTIC,
                                g, log);
    log->species = species;
    rng r;
    rng_seed(&r, 4242 + (uint64_t)dim);
    for (int i = 0; i < n; i++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.radius = species[i] ? sc->tracer_radius : 0.5;
        d.species = species[i];
        for (int tries = 0;; tries++) {
            for (int k = 0; k < dim; k++) {
                d.position[k] = d.radius + rng_uniform(&r) * (L - 2.0 * d.radius);
                d.velocity[k] = rng_uniform(&r) * 2.0 - 1.0;
            }
            if (dim == 2)
                d.position[2] = 0.5;
            /* Species 0 apart from species 0; tracers anywhere (they
             * pass through their own kind and sense the others). */
            int clear = 1;
            for (int j = 0; j < i && clear && !species[i]; j++) {
                carom_sphere_state o;
                CHECK_OK(carom_world_get_sphere(w, (carom_sphere_id)j, &o));
                double dd[3];
                separation(log, d.position, o.position, dd);
                double s = d.radius + o.radius;
                clear = species[j] || dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2] > s * s;
            }
            if (clear)
                break;
            CHECK(tries < 10000);
        }
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_set_pass_through(w, 1, 1, 1));
    if (sense)
        CHECK_OK(carom_world_set_sense(w, 0, 1, 1));
    else
        CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    return w;
}

static void test_tracers(const tracer_scene *sc)
{
    enum { N = 200 };
    uint32_t species[N];
    for (int i = 0; i < N; i++)
        species[i] = i % 4 == 3; /* a quarter are tracers */
    sense_log log, plain_log;
    carom_world *w = tracer_world(sc, 1, N, species, &log);
    carom_world *plain = tracer_world(sc, 0, N, species, &plain_log);
    double dt = 0.002;
    int steps = 1500;
    int entries = check_reports_by_steps(&log, N, dt, steps);
    CHECK_OK(carom_world_advance_to(plain, dt * steps));
    /* Sensing moves nothing: the same collisions, the same places. */
    carom_stats st, plain_st;
    carom_world_get_stats(w, &st);
    carom_world_get_stats(plain, &plain_st);
    CHECK(st.collisions == plain_st.collisions && st.collisions > 100);
    CHECK(log.collisions == plain_log.collisions && log.impulses_in_sensed == 0);
    CHECK(st.sensed_contacts == log.sensed && log.sensed >= (uint64_t)entries && entries > 20);
    double worst = 0.0;
    for (int i = 0; i < N; i++) {
        carom_sphere_state a, b;
        CHECK_OK(carom_world_get_sphere(w, (carom_sphere_id)i, &a));
        CHECK_OK(carom_world_get_sphere(plain, (carom_sphere_id)i, &b));
        for (int k = 0; k < 3; k++)
            worst = fmax(worst, fabs(a.position[k] - b.position[k]) +
                                    fabs(a.velocity[k] - b.velocity[k]));
    }
    CHECK(worst <= 1e-6);
    CHECK(carom_world_max_overlap_now(w) <= 1e-9);
    printf("  tracers %dD (%s, radius %g, %s, gravity %g): %d entries seen, %llu reports, "
           "%llu collisions, worst difference %.3g\n",
           sc->dim, sc->neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells",
           sc->tracer_radius, sc->boundary == CAROM_BOUNDARY_WALLS ? "walls" : "periodic",
           sc->gravity, entries,
           (unsigned long long)log.sensed, (unsigned long long)st.collisions, worst);
    free_world(w, &log);
    free_world(plain, &plain_log);
}

/* 2D, walls and gravity: disks (species 0, which meet) fall through a
 * large sensing disk of infinite mass (species 1) that gravity does not
 * move, and pile up on the floor. */
static void test_gravity_sensor(void)
{
    enum { N = 121 };
    const double box[3] = {30.0, 40.0, 1.0};
    uint32_t species[N];
    sense_log log;
    const double g[3] = {0.0, -2.0, 0.0};
    carom_world *w = make_world(2, box, CAROM_BOUNDARY_WALLS, CAROM_NEIGHBOURS_AUTO,
                                CAROM_RESPONSE_ELASTIC, g, &log);
    log.species = species;
    rng r;
    rng_seed(&r, 77);
    carom_sphere_def sensor = carom_sphere_default_def();
    sensor.radius = 6.0;
    sensor.mass = INFINITY;
    sensor.position[0] = 15.0;
    sensor.position[1] = 14.0;
    sensor.position[2] = 0.5;
    sensor.species = species[0] = 1;
    CHECK_OK(carom_world_add_sphere(w, &sensor, NULL));
    for (int i = 1; i < N; i++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.radius = 0.5;
        d.position[0] = 1.5 + 2.25 * ((i - 1) % 12);
        d.position[1] = 24.0 + 1.5 * ((i - 1) / 12);
        d.position[2] = 0.5;
        d.velocity[0] = rng_uniform(&r) * 2.0 - 1.0;
        d.velocity[1] = rng_uniform(&r) * 2.0 - 1.0;
        d.species = species[i] = 0;
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_set_sense(w, 0, 1, 1));
    int entries = check_reports_by_steps(&log, N, 0.002, 3000);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(entries > 60 && log.sensed >= (uint64_t)entries && st.collisions > 100);
    CHECK(carom_world_max_overlap_now(w) <= 1e-9);
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, 0, &s));
    CHECK(s.position[0] == 15.0 && s.position[1] == 14.0 && s.velocity[1] == 0.0);
    printf("  gravity sensor: %d entries seen, %llu reports, %llu collisions\n", entries,
           (unsigned long long)log.sensed, (unsigned long long)st.collisions);
    free_world(w, &log);
}

/* An ideal gas of two species that sense each other (each passes
 * through its own): the reports of a report-only world. */
static void test_ideal_gas_against_report_only(void)
{
    enum { N = 120 };
    const double box[3] = {10.0, 10.0, 10.0};
    uint32_t species[N];
    sense_log logs[2];
    carom_world *w[2];
    for (int m = 0; m < 2; m++) {
        w[m] = make_world(3, box, CAROM_BOUNDARY_PERIODIC, CAROM_NEIGHBOURS_AUTO,
                          m ? CAROM_RESPONSE_NONE : CAROM_RESPONSE_ELASTIC, NULL, &logs[m]);
        logs[m].species = species;
        rng r;
        rng_seed(&r, 99);
        for (int i = 0; i < N; i++) {
            carom_sphere_def d = carom_sphere_default_def();
            d.radius = 0.4;
            d.species = species[i] = (uint32_t)(i % 2);
            for (int k = 0; k < 3; k++) {
                d.position[k] = rng_uniform(&r) * 10.0;
                d.velocity[k] = rng_uniform(&r) * 2.0 - 1.0;
            }
            CHECK_OK(carom_world_add_sphere(w[m], &d, NULL));
        }
        CHECK_OK(carom_world_set_pass_through(w[m], 0, 0, 1));
        CHECK_OK(carom_world_set_pass_through(w[m], 1, 1, 1));
        CHECK_OK(carom_world_set_sense(w[m], 0, 1, 1));
        CHECK_OK(carom_world_advance_to(w[m], 20.0));
    }
    carom_stats st[2];
    for (int m = 0; m < 2; m++)
        carom_world_get_stats(w[m], &st[m]);
    /* Report-only: sensing is meeting, counted among the collisions. */
    CHECK(st[0].sensed_contacts == logs[0].n && st[0].collisions == 0);
    CHECK(st[1].sensed_contacts == 0 && st[1].collisions == logs[1].n);
    CHECK(logs[0].n == logs[1].n && logs[0].n > 200);
    size_t n = logs[0].n < logs[1].n ? logs[0].n : logs[1].n, differ = 0;
    for (size_t k = 0; k < n; k++) {
        const report *a = &logs[0].r[k], *b = &logs[1].r[k];
        differ += a->i != b->i || a->j != b->j || fabs(a->t - b->t) > 1e-12 * (1.0 + a->t);
    }
    CHECK(differ == 0);
    printf("  ideal gas: %zu reports, as report-only (%zu differ)\n", logs[0].n, differ);
    for (int m = 0; m < 2; m++)
        free_world(w[m], &logs[m]);
}

static void test_modes_and_refusals(void)
{
    const double box[3] = {10.0, 10.0, 10.0};
    const uint32_t species[2] = {0, 1};
    sense_log log;
    carom_world *w = make_world(3, box, CAROM_BOUNDARY_PERIODIC, CAROM_NEIGHBOURS_AUTO,
                                CAROM_RESPONSE_ELASTIC, NULL, &log);
    log.species = species;
    /* One mode at a time. */
    CHECK_OK(carom_world_set_sense(w, 0, 1, 1));
    CHECK_OK(carom_world_set_pass_through(w, 0, 1, 1));
    CHECK(carom_world_senses(w, 0, 1) == 0 && carom_world_passes_through(w, 0, 1) == 1);
    CHECK_OK(carom_world_set_sense(w, 1, 0, 1));
    CHECK(carom_world_senses(w, 0, 1) == 1 && carom_world_passes_through(w, 0, 1) == 0);
    /* Overlapping spheres of sensing species: allowed; made to meet:
     * refused, the pair still sensing. */
    for (int k = 0; k < 2; k++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.position[0] = 5.0 + 0.5 * k;
        d.position[1] = d.position[2] = 5.0;
        d.species = species[k];
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(log.n == 0);
    CHECK(carom_world_set_sense(w, 0, 1, 0) == CAROM_ERR_OVERLAP);
    CHECK(carom_world_senses(w, 0, 1) == 1);
    CHECK(carom_world_set_pass_through(w, 0, 1, 0) == CAROM_ERR_OVERLAP);
    CHECK(carom_world_senses(w, 0, 1) == 1);
    /* Out of range; driven spheres and growth. */
    CHECK(carom_world_set_sense(w, 0, CAROM_SPECIES_MAX, 1) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_senses(w, 0, CAROM_SPECIES_MAX) == 0);
    CHECK(carom_world_set_growth(w, 0.01) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "sensing") != NULL);
    carom_sphere_def driven = carom_sphere_default_def();
    driven.driven = 1;
    driven.accel_bound = 1.0;
    driven.position[0] = driven.position[1] = driven.position[2] = 1.0;
    CHECK(carom_world_add_sphere(w, &driven, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "sense") != NULL);
    free_world(w, &log);
    /* Growth first: sensing refused. */
    w = make_world(3, box, CAROM_BOUNDARY_PERIODIC, CAROM_NEIGHBOURS_AUTO,
                   CAROM_RESPONSE_ELASTIC, NULL, &log);
    CHECK_OK(carom_world_set_growth(w, 0.01));
    CHECK(carom_world_set_sense(w, 0, 1, 1) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_senses(w, 0, 1) == 0);
    free_world(w, &log);
}

int main(void)
{
    RUN(test_head_on);
    RUN(test_same_instant);
    RUN(test_ideal_gas_against_report_only);
    RUN(test_modes_and_refusals);
    RUN(test_gravity_sensor);
    const tracer_scene scenes[] = {
        {3, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0},
        {3, CAROM_NEIGHBOURS_LISTS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0},
        {2, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0},
        /* Tiny tracers (levels of cells), large ones (out of the grid),
         * walls and gravity. */
        {3, CAROM_NEIGHBOURS_CELLS, 0.02, CAROM_BOUNDARY_PERIODIC, 0.0},
        {3, CAROM_NEIGHBOURS_CELLS, 1.8, CAROM_BOUNDARY_PERIODIC, 0.0},
        {3, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_WALLS, 1.0},
        {2, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_WALLS, 1.0},
    };
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++)
        test_tracers(&scenes[k]);
    return check_failures ? 1 : 0;
}
