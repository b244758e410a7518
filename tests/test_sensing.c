/* Sensing pairs (carom_world_set_sense), checked against arithmetic of
 * the test's own:
 *
 * - two spheres on a head-on course that sense each other are reported
 *   once, at the time of contact, with impulse 0, pass through on
 *   straight lines, and are reported parting when they do; counted as
 *   sensed, not as collisions;
 * - a hard-sphere fluid with tracers that sense it (3D periodic, cells
 *   and neighbour lists; 2D with walls, gravity and a large sensor of
 *   infinite mass): sampled every small step, every pair of sensing
 *   spheres that starts to overlap within a step was reported within it,
 *   and every one in contact that parts within a step was reported
 *   parting within it; every report is of a pair touching (to 1e-9 of
 *   the contact distance) at its time, a contact approaching and not in
 *   contact before, a parting separating and in contact before; the
 *   spheres move as in the same world where the pairs pass
 *   through (the same collisions, and the same places to 1e-6: which of
 *   a colliding pair's two predictions of its time comes first may
 *   change, by a bit, and the fluid's chaos grows that to 1e-9 to 1e-7
 *   over these runs); tracers tiny (levels of cells), large (out of the
 *   grid), among walls under gravity; some driven round circles (whose
 *   contacts and partings are found by probing, to 2e-9), in the grid
 *   and out of it;
 * - an ideal gas of two species that sense each other reports the same
 *   contacts as a report-only world of the same spheres;
 * - a contact at the instant its sphere collides elsewhere is reported
 *   once, whichever of the two events comes first; a pair touching by
 *   round-off, not approaching, comes in when a collision turns one
 *   towards the other;
 * - every contact reported is followed by its parting, reported when
 *   the two part (at the time their straight lines give, in an ideal
 *   gas; after a velocity set while they overlap), and by nothing else:
 *   sampled every step, a pair is in contact (reported, not yet parted)
 *   exactly when it overlaps (those overlapping from the start reported
 *   at it, with their depth); a sphere moved away parts at the next
 *   advance, one moved within stays in contact; removing a sphere, or a
 *   change after which the pair no longer senses, ends the contact
 *   there, reported at the next advance (parting = 2) with the states
 *   of then, and a change after which it senses overlapping is
 *   reported at the next advance; a callback that stops the two as they
 *   touch leaves them in contact for good;
 * - the three modes of a pair exclude each other; a change that makes
 *   overlapping spheres meet is refused and changes nothing; a
 *   report-only world takes sensing as meeting; sensing spheres placed
 *   overlapping are reported at the next advance's start, with their
 *   depth;
 * - growth and species out of range are refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "rng.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define MAX_SPHERES 256
#define MAX_REPORTS 200000

typedef struct report {
    double t, gap, approach; /* distance - contact distance, and dr . dv, at t */
    uint32_t i, j;
    int parting;
    double depth;
    double x[2][3], v[2][3]; /* the two spheres' states at t */
} report;

typedef struct sense_log {
    carom_world *world;
    int dim;
    double box[3];
    int periodic[3];
    report *r;
    size_t n;
    uint64_t collisions, sensed, parted, impulses_in_sensed;
    int push_at_end;         /* the callback changes the velocities of a
                                contact ended at a removal or change */
    const uint32_t *species; /* by id */
    double gap_tol;          /* of a report, relative to the contact distance */
    /* Driven spheres go round circles about centre (the z of a circle
     * in 3D its own), at angular speed path[3] from phase path[4]. */
    double path[MAX_SPHERES][5];
    double path_radius;
    unsigned char driven[MAX_SPHERES]; /* by id */
    uint64_t driven_reports;           /* contacts and partings of a driven sphere */
    int stop_on_contact;     /* the callback stops both spheres of a contact */
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
    if (c->parting == 2) {
        /* Ended at a removal or a change: the pair may no longer sense,
         * a sphere may be gone; the report says how things were. */
        CHECK(log->n < MAX_REPORTS);
        if (log->n >= MAX_REPORTS)
            return;
        log->parted++;
        report *r = &log->r[log->n++];
        *r = (report){.t = c->time, .i = c->i, .j = c->j, .parting = 2, .depth = c->depth};
        for (int k = 0; k < 3; k++) {
            r->x[1][k] = c->normal[k]; /* the normal from i to j, not a place */
            r->v[0][k] = c->velocity_after[0][k];
            r->v[1][k] = c->velocity_after[1][k];
        }
        if (log->push_at_end)
            for (int k = 0; k < 3; k++)
                c->velocity_after[0][k] = c->velocity_after[1][k] = 5.0;
        return;
    }
    if (!senses(log, c->i, c->j)) {
        log->collisions++;
        return;
    }
    if (c->parting)
        log->parted++;
    else
        log->sensed++;
    log->driven_reports += log->driven[c->i] || log->driven[c->j];
    log->impulses_in_sensed += c->impulse != 0.0;
    if (log->stop_on_contact && !c->parting)
        memset(c->velocity_after, 0, sizeof c->velocity_after);
    CHECK(log->n < MAX_REPORTS);
    if (log->n >= MAX_REPORTS)
        return;
    report *r = &log->r[log->n++];
    r->i = c->i < c->j ? c->i : c->j;
    r->j = c->i < c->j ? c->j : c->i;
    carom_sphere_state a, b; /* of r->i and r->j */
    CHECK_OK(carom_world_get_sphere(log->world, r->i, &a));
    CHECK_OK(carom_world_get_sphere(log->world, r->j, &b));
    double d[3], dv[3];
    separation(log, a.position, b.position, d);
    for (int k = 0; k < 3; k++)
        dv[k] = b.velocity[k] - a.velocity[k];
    double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    r->t = c->time;
    r->gap = (dist - (a.radius + b.radius)) / (a.radius + b.radius);
    r->approach = d[0] * dv[0] + d[1] * dv[1] + d[2] * dv[2];
    r->parting = c->parting;
    r->depth = c->depth;
    for (int k = 0; k < 3; k++) {
        r->x[0][k] = a.position[k];
        r->x[1][k] = b.position[k];
        r->v[0][k] = a.velocity[k];
        r->v[1][k] = b.velocity[k];
    }
}

/* The driver of the driven spheres: their circles. */
static void circle_probe(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    const sense_log *log = user;
    const double *p = log->path[id];
    double R = log->path_radius, a = p[3] * t + p[4];
    x[0] = p[0] + R * cos(a);
    x[1] = p[1] + R * sin(a);
    x[2] = p[2];
    v[0] = -R * p[3] * sin(a);
    v[1] = R * p[3] * cos(a);
    v[2] = 0.0;
}

static carom_world *make_world_driven(int dim, const double box[3], carom_boundary boundary,
                                      carom_neighbours neighbours, carom_response response,
                                      const double *gravity, int driven, sense_log *log)
{
    carom_world_def def = carom_world_default_def();
    if (driven) {
        def.driver.probe = circle_probe;
        def.driver.user_data = log;
    }
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
    log->gap_tol = 1e-9;
    return w;
}

static carom_world *make_world(int dim, const double box[3], carom_boundary boundary,
                               carom_neighbours neighbours, carom_response response,
                               const double *gravity, sense_log *log)
{
    return make_world_driven(dim, box, boundary, neighbours, response, gravity, 0, log);
}

static void free_world(carom_world *w, sense_log *log)
{
    carom_world_free(w);
    free(log->r);
}

/* Which sensing pairs overlap now (flags by i * n + j, i < j), and which
 * touch to within gap_tol of their contact distance (near; NULL: not
 * wanted). */
static void overlapping(const sense_log *log, int n, unsigned char *flag, unsigned char *near)
{
    carom_sphere_state s[MAX_SPHERES];
    for (int i = 0; i < n; i++)
        CHECK_OK(carom_world_get_sphere(log->world, (carom_sphere_id)i, &s[i]));
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            double d[3];
            separation(log, s[i].position, s[j].position, d);
            double sigma = s[i].radius + s[j].radius;
            double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            int sense = senses(log, (uint32_t)i, (uint32_t)j);
            flag[i * n + j] = sense && dist < sigma;
            if (near)
                near[i * n + j] = sense && fabs(dist - sigma) <= log->gap_tol * sigma;
        }
    }
}

/* What check_reports_by_steps saw: pairs starting to overlap within a
 * step, and pairs in contact seen to part within one. */
typedef struct step_counts {
    int entries, exits;
    int placed; /* contacts of pairs overlapping at the start */
} step_counts;

/* Runs the world in steps of dt and checks every report against the
 * overlaps seen at the steps (see the file's comment). */
static step_counts check_reports_by_steps(sense_log *log, int n, double dt, int steps)
{
    size_t nn = (size_t)n * (size_t)n;
    unsigned char *before = calloc(nn, 1), *now = calloc(nn, 1), *near = calloc(nn, 1);
    unsigned char *inside = calloc(nn, 1);
    int *reports_of = calloc(nn, sizeof *reports_of);
    CHECK(before && now && near && inside && reports_of);
    double t0 = carom_world_time(log->world);
    overlapping(log, n, before, NULL);
    size_t seen = log->n;
    step_counts counts = {0, 0, 0};
    int bad_reports = 0, missed = 0, wrong_state = 0;
    for (int step = 1; step <= steps; step++) {
        double t = t0 + step * dt;
        CHECK_OK(carom_world_advance_to(log->world, t));
        overlapping(log, n, now, near);
        memset(reports_of, 0, nn * sizeof *reports_of);
        for (; seen < log->n; seen++) {
            const report *r = &log->r[seen];
            int at = (int)r->i * n + (int)r->j;
            reports_of[at]++;
            /* A contact from outside, approaching, of a pair not in
             * contact; a parting, separating, of a pair in contact; or,
             * at the start, the contact of a pair placed overlapping
             * (its depth given). */
            int placed = r->depth > 0.0;
            /* (>= t - dt: a pair placed touching, approaching, is reported
             * at the next advance's start) */
            int good = r->t >= t - dt && r->t <= t && fabs(r->gap) <= log->gap_tol &&
                       (r->parting ? r->approach > 0.0 && inside[at]
                                   : r->approach < 0.0 && !inside[at]);
            if (placed)
                good = !r->parting && r->t == t0 && r->gap < 0.0 && !inside[at];
            if (!good && bad_reports++ < 5)
                fprintf(stderr, "%s of %u and %u at %.17g (step %.17g to %.17g): in contact "
                                "%d, gap %.3g, approach %.3g, depth %.3g\n",
                        r->parting ? "parting" : "contact", r->i, r->j, r->t, t - dt, t,
                        inside[at], r->gap, r->approach, r->depth);
            inside[at] = !r->parting;
            counts.placed += placed;
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                int at = i * n + j;
                int entered = now[at] && !before[at], left = before[at] && !now[at];
                counts.entries += entered;
                counts.exits += left;
                if ((entered || left) && reports_of[at] == 0 && missed++ < 5)
                    fprintf(stderr, "%d and %d started to %s in (%g, %g], unreported\n", i, j,
                            entered ? "overlap" : "part", t - dt, t);
                /* In contact exactly when overlapping. */
                if (!near[at] && inside[at] != now[at] && wrong_state++ < 5)
                    fprintf(stderr, "%d and %d at %g: in contact %d, overlapping %d\n", i, j, t,
                            inside[at], now[at]);
            }
        }
        unsigned char *swap = before;
        before = now;
        now = swap;
    }
    CHECK(bad_reports == 0);
    CHECK(missed == 0);
    CHECK(wrong_state == 0);
    free(before);
    free(now);
    free(near);
    free(inside);
    free(reports_of);
    return counts;
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
    /* The contact at 1.5, and the parting at 2.5 (x = 4.5 and 5.5). */
    CHECK(log.n == 2 && log.collisions == 0 && log.impulses_in_sensed == 0);
    if (log.n == 2) {
        CHECK_NEAR(log.r[0].t, 1.5, 1e-12);
        CHECK(fabs(log.r[0].gap) <= 1e-12 && log.r[0].approach < 0.0 && !log.r[0].parting);
        CHECK_NEAR(log.r[1].t, 2.5, 1e-12);
        CHECK(fabs(log.r[1].gap) <= 1e-12 && log.r[1].approach > 0.0 && log.r[1].parting);
    }
    carom_sphere_state a, b;
    CHECK_OK(carom_world_get_sphere(w, 0, &a));
    CHECK_OK(carom_world_get_sphere(w, 1, &b));
    CHECK_NEAR(a.position[0], 6.0, 1e-12);
    CHECK_NEAR(b.position[0], 4.0, 1e-12);
    CHECK(a.velocity[0] == 1.0 && b.velocity[0] == -1.0);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.sensed_contacts == 1 && st.sensed_partings == 1 && st.collisions == 0 &&
          st.virial == 0.0);
    /* Around the box once more: they meet again at t = 1.5 + 10, and
     * part at 12.5. */
    CHECK_OK(carom_world_advance_to(w, 12.0));
    CHECK(log.n == 3);
    if (log.n == 3)
        CHECK_NEAR(log.r[2].t, 11.5, 1e-11);
    CHECK_OK(carom_world_advance_to(w, 13.0));
    CHECK(log.n == 4);
    if (log.n == 4)
        CHECK(log.r[3].parting && fabs(log.r[3].t - 12.5) <= 1e-11);
    free_world(w, &log);
}

static void test_head_on(void)
{
    head_on(0);
    head_on(1);
}

/* A sensing pair that touches (overlapping by round-off, 1e-15 of its
 * contact distance) without approaching is not in contact; turned towards
 * its partner, it comes in then. A (hard, at x = 5) and the tracer T
 * (at 5 + 0.999999999999999) at rest; C (hard, at x = 2, speed 1) hits A
 * at t = 2, and A, now at speed 1, is reported in contact with T at
 * once, and parting at t = 4 (less 1e-15) when through. */
static void test_touching_turned_towards(void)
{
    const double box[3] = {20.0, 20.0, 20.0};
    const uint32_t species[3] = {0, 1, 0};
    const double x[3] = {5.0, 5.999999999999999, 2.0};
    sense_log log;
    carom_world *w = make_world(3, box, CAROM_BOUNDARY_PERIODIC, CAROM_NEIGHBOURS_AUTO,
                                CAROM_RESPONSE_ELASTIC, NULL, &log);
    log.species = species;
    CHECK_OK(carom_world_set_sense(w, 1, 0, 1));
    for (int k = 0; k < 3; k++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.position[0] = x[k];
        d.position[1] = d.position[2] = 5.0;
        d.velocity[0] = k == 2 ? 1.0 : 0.0;
        d.species = species[k];
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(log.collisions == 1 && log.n == 2);
    if (log.n == 2) {
        CHECK(!log.r[0].parting && log.r[0].t == 2.0);
        CHECK(log.r[1].parting && fabs(log.r[1].t - 4.0) <= 1e-12);
    }
    free_world(w, &log);
}

/* A sphere touches a sensing partner at the instant it collides with
 * another: reported once, whichever event the loop takes first. A (at
 * x = 5, speed 1 along x) hits B (at rest at x = 7) at t = 1, when S (a
 * sensor coming down along y) touches it too; A stops, B goes on, S
 * passes through A, and parts from it at t = 3. */
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
        /* S parts from A (at rest from t = 1) at t = 3, 1 below it. */
        fprintf(stderr, "  %llu collisions, %zu reports\n", (unsigned long long)log.collisions, log.n);
    for (size_t k = 0; k < log.n; k++)
        fprintf(stderr, "  report %u-%u t %.17g parting %d gap %g approach %g x %.17g %.17g v %g %g\n", log.r[k].i, log.r[k].j, log.r[k].t, log.r[k].parting, log.r[k].gap, log.r[k].approach, log.r[k].x[0][0], log.r[k].x[1][0], log.r[k].v[0][0], log.r[k].v[1][0]);
    CHECK(log.collisions == 1 && log.n == 2);
        if (log.n == 2)
            CHECK(log.r[0].t == 1.0 && !log.r[0].parting && log.r[1].parting &&
                  fabs(log.r[1].t - 3.0) <= 1e-12);
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
    int driven;              /* the first this many tracers go round circles,
                                driven (periodic, no gravity) */
    double driven_radius;    /* theirs */
} tracer_scene;

static carom_world *tracer_world(const tracer_scene *sc, int sense, int n,
                                 const uint32_t *species, sense_log *log)
{
    int dim = sc->dim;
    double L = dim == 3 ? 9.0 : 24.0;
    const double box[3] = {L, L, dim == 3 ? L : 1.0};
    double g[3] = {0.0, 0.0, 0.0};
    g[dim - 1] = -sc->gravity;
    carom_world *w = make_world_driven(dim, box, sc->boundary, sc->neighbours,
                                       CAROM_RESPONSE_ELASTIC, g, sc->driven > 0, log);
    log->species = species;
    /* Driven contacts and partings are found by probing, to within a
     * tolerance of 1e-10 of the contact distance (world_driven.h; measured
     * up to 3e-11), not to round-off. */
    if (sc->driven)
        log->gap_tol = 2e-9;
    log->path_radius = 0.2 * L;
    rng r;
    rng_seed(&r, 4242 + (uint64_t)dim);
    int driven = 0;
    for (int i = 0; i < n; i++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.radius = species[i] ? sc->tracer_radius : 0.5;
        d.species = species[i];
        if (species[i] && driven < sc->driven) {
            /* A circle of radius 0.2 L inside the box, once round in
             * 2 to 4 time units, either way. */
            double *path = log->path[i];
            for (int k = 0; k < 3; k++)
                path[k] = k < dim ? (0.35 + 0.3 * rng_uniform(&r)) * L : 0.5;
            path[3] = (rng_uniform(&r) < 0.5 ? -1.0 : 1.0) * M_PI * (0.5 + 0.5 * rng_uniform(&r));
            path[4] = 2.0 * M_PI * rng_uniform(&r);
            d.driven = 1;
            d.radius = sc->driven_radius;
            log->driven[i] = 1;
            d.accel_bound = 1.01 * log->path_radius * path[3] * path[3];
            circle_probe(log, (carom_sphere_id)i, 0.0, d.position, d.velocity);
            driven++;
            CHECK_OK(carom_world_add_sphere(w, &d, NULL));
            continue;
        }
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
    step_counts seen = check_reports_by_steps(&log, N, dt, steps);
    CHECK_OK(carom_world_advance_to(plain, dt * steps));
    /* Sensing moves nothing: the same collisions, the same places. */
    carom_stats st, plain_st;
    carom_world_get_stats(w, &st);
    carom_world_get_stats(plain, &plain_st);
    CHECK(st.collisions == plain_st.collisions && st.collisions > 100);
    CHECK(log.collisions == plain_log.collisions && log.impulses_in_sensed == 0);
    CHECK(st.sensed_contacts == log.sensed && log.sensed >= (uint64_t)seen.entries &&
          seen.entries > 20);
    CHECK(st.sensed_partings == log.parted && log.parted >= (uint64_t)seen.exits &&
          seen.exits > 20 && log.parted <= log.sensed);
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
    CHECK(sc->driven == 0 || (log.driven_reports > 100 && st.late_contacts == 0));
    printf("  tracers %dD (%s, radius %g, %s, gravity %g, %d driven, %llu of their reports): "
           "%d placed overlapping, %d entries and %d exits seen, %llu contacts and %llu partings reported, "
           "%llu collisions, worst difference %.3g\n",
           sc->dim, sc->neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells",
           sc->tracer_radius, sc->boundary == CAROM_BOUNDARY_WALLS ? "walls" : "periodic",
           sc->gravity, sc->driven, (unsigned long long)log.driven_reports, seen.placed,
           seen.entries, seen.exits, (unsigned long long)log.sensed,
           (unsigned long long)log.parted, (unsigned long long)st.collisions, worst);
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
    step_counts seen = check_reports_by_steps(&log, N, 0.002, 3000);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(seen.entries > 60 && log.sensed >= (uint64_t)seen.entries && st.collisions > 100);
    CHECK(seen.exits > 40 && log.parted >= (uint64_t)seen.exits &&
          st.sensed_partings == log.parted);
    CHECK(carom_world_max_overlap_now(w) <= 1e-9);
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, 0, &s));
    CHECK(s.position[0] == 15.0 && s.position[1] == 14.0 && s.velocity[1] == 0.0);
    printf("  gravity sensor: %d entries and %d exits seen, %llu contacts and %llu partings "
           "reported, %llu collisions\n",
           seen.entries, seen.exits, (unsigned long long)log.sensed,
           (unsigned long long)log.parted, (unsigned long long)st.collisions);
    free_world(w, &log);
}

/* An ideal gas of two species that sense each other (each passes
 * through its own): the contacts of a report-only world; and each
 * parting at the time the pair's straight lines give from its contact,
 * dr . dv / |dv|^2 twice over. */
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
    CHECK(st[0].sensed_contacts == logs[0].sensed && st[0].collisions == 0);
    CHECK(st[0].sensed_partings == logs[0].parted && logs[0].n == logs[0].sensed + logs[0].parted);
    CHECK(st[1].sensed_contacts == 0 && st[1].sensed_partings == 0 &&
          st[1].collisions == logs[1].n && logs[1].parted == 0);
    size_t placed = 0;
    for (size_t k = 0; k < logs[0].n; k++)
        placed += logs[0].r[k].depth > 0.0 && logs[0].r[k].t == 0.0;
    CHECK(logs[0].sensed == logs[1].n + placed && logs[1].n > 200 && placed > 5);
    CHECK(logs[0].parted + 30 > logs[0].sensed && logs[0].parted <= logs[0].sensed);
    size_t differ = 0, late = 0, unmatched = 0, b = 0;
    double worst = 0.0;
    for (size_t k = 0; k < logs[0].n; k++) {
        const report *a = &logs[0].r[k];
        if (!a->parting && a->depth > 0.0)
            continue; /* placed overlapping: not reported in a report-only world */
        if (!a->parting) {
            if (b < logs[1].n) {
                const report *o = &logs[1].r[b];
                differ += a->i != o->i || a->j != o->j || fabs(a->t - o->t) > 1e-12 * (1.0 + a->t);
            }
            b++;
            continue;
        }
        /* The pair's report before this one: its contact. */
        size_t m = k;
        while (m > 0 && (logs[0].r[m - 1].i != a->i || logs[0].r[m - 1].j != a->j))
            m--;
        if (m == 0 || logs[0].r[m - 1].parting) {
            unmatched++;
            continue;
        }
        /* From the contact's states: |dr + dv tau|^2 = sigma^2, the larger
         * root (touching at the contact, tau = -2 dr.dv / |dv|^2). */
        const report *c = &logs[0].r[m - 1];
        double dr[3], dv[3], dd = 0.0, rv = 0.0, g0 = -0.8 * 0.8;
        separation(&logs[0], c->x[0], c->x[1], dr);
        for (int q = 0; q < 3; q++) {
            dv[q] = c->v[1][q] - c->v[0][q];
            dd += dv[q] * dv[q];
            rv += dr[q] * dv[q];
            g0 += dr[q] * dr[q];
        }
        double tau = c->depth > 0.0 ? (-rv + sqrt(rv * rv - dd * g0)) / dd : -2.0 * rv / dd;
        double expected = c->t + tau, off = fabs(a->t - expected);
        worst = fmax(worst, off);
        late += off > 1e-9 * (1.0 + expected);
    }
    CHECK(differ == 0 && b == logs[1].n && unmatched == 0 && late == 0);
    printf("  ideal gas: %llu contacts, %zu of them placed overlapping, the rest as report-only "
           "(%zu differ); %llu partings, at most %.3g from their straight lines' time\n",
           (unsigned long long)logs[0].sensed, placed, differ, (unsigned long long)logs[0].parted,
           worst);
    for (int m = 0; m < 2; m++)
        free_world(w[m], &logs[m]);
}

/* A sensor (species 0, radius 1, at rest at x = 10) and a mover
 * (species 1, radius 0.5, from x = 7 at speed 1 along x) in a periodic
 * box of 20: their contact is reported at t = 1.5; at t = 2 they
 * overlap, the mover at x = 9. */
static carom_world *contact_world(sense_log *log, const uint32_t *species, int stop)
{
    const double box[3] = {20.0, 20.0, 20.0};
    carom_world *w = make_world(3, box, CAROM_BOUNDARY_PERIODIC, CAROM_NEIGHBOURS_AUTO,
                                CAROM_RESPONSE_ELASTIC, NULL, log);
    log->species = species;
    log->stop_on_contact = stop;
    for (int k = 0; k < 2; k++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.radius = k ? 0.5 : 1.0;
        d.position[0] = k ? 7.0 : 10.0;
        d.position[1] = d.position[2] = 10.0;
        d.velocity[0] = k;
        d.species = species[k];
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_set_pass_through(w, 0, 2, 1));
    CHECK_OK(carom_world_set_sense(w, 0, 1, 1));
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(log->n == 1 && !log->r[0].parting);
    if (log->n == 1)
        CHECK_NEAR(log->r[0].t, 1.5, 1e-12);
    return w;
}

/* Contacts end when the pair parts, whatever changed the velocities, or
 * when a sphere is moved away (the parting reported at the next advance);
 * when a sphere is removed or the pair stops sensing, there, reported at
 * the next advance with parting = 2. A pair
 * placed overlapping (by a move, a species or table change) is reported
 * at the next advance, with its depth. */
static void test_parting_rules(void)
{
    const uint32_t species[2] = {0, 1};
    const double back[3] = {-1.0, 0.0, 0.0}, away[3] = {3.0, 10.0, 10.0};
    sense_log log;
    carom_stats st;
    /* Turned back inside: it parts at x = 8.5, at t = 2.5. */
    carom_world *w = contact_world(&log, species, 0);
    CHECK_OK(carom_world_set_velocity(w, 1, back));
    CHECK_OK(carom_world_advance_to(w, 10.0));
    CHECK(log.n == 2 && log.r[1].parting);
    if (log.n == 2)
        CHECK_NEAR(log.r[1].t, 2.5, 1e-12);
    free_world(w, &log);
    /* Removed at t = 2: its contact ends there, reported at the next
     * advance's start with the states of t = 2 (the mover at x = 9,
     * overlapping by 0.5, normal from the mover to the sensor), and
     * nothing after. */
    for (int moved = 0; moved < 2; moved++) {
        w = contact_world(&log, species, 0);
        if (moved) /* moved clear first: its parting is due, then it is gone */
            CHECK_OK(carom_world_set_position(w, 1, away));
        CHECK_OK(carom_world_remove_sphere(w, 1));
        carom_world_get_stats(w, &st);
        CHECK(st.sensed_partings == 0); /* counted as reported */
        CHECK_OK(carom_world_advance_to(w, 10.0));
        carom_world_get_stats(w, &st);
        CHECK(log.n == 2 && st.sensed_contacts == 1 && st.sensed_partings == 1);
        if (log.n == 2) {
            const report *e = &log.r[1];
            CHECK(e->parting == 2 && e->t == 2.0 && e->i == 1 && e->j == 0);
            CHECK_NEAR(e->depth, moved ? 0.0 : 0.5, 1e-12);
            for (int k = 0; k < 3; k++) {
                CHECK(e->v[0][k] == (k == 0 ? 1.0 : 0.0) && e->v[1][k] == 0.0);
                CHECK_NEAR(e->x[1][k], k == 0 ? 1.0 : 0.0, 1e-15); /* the normal */
            }
        }
        free_world(w, &log);
    }
    /* Moved clear: its parting at t = 2, at the next advance; it comes to
     * touch again from x = 3 at t = 2 + 5.5, and parts at 2 + 8.5. */
    w = contact_world(&log, species, 0);
    CHECK_OK(carom_world_set_position(w, 1, away));
    CHECK_OK(carom_world_advance_to(w, 11.0));
    CHECK(log.n == 4 && log.r[1].parting && !log.r[2].parting && log.r[3].parting);
    if (log.n == 4) {
        CHECK(log.r[1].t == 2.0);
        CHECK_NEAR(log.r[2].t, 7.5, 1e-12);
        CHECK_NEAR(log.r[3].t, 10.5, 1e-12);
    }
    free_world(w, &log);
    /* Moved within the sensor, to x = 10.5: still in contact, nothing
     * reported; it parts at x = 11.5, at t = 3. */
    const double within[3] = {10.5, 10.0, 10.0};
    w = contact_world(&log, species, 0);
    CHECK_OK(carom_world_set_position(w, 1, within));
    CHECK_OK(carom_world_advance_to(w, 10.0));
    CHECK(log.n == 2 && log.r[1].parting);
    if (log.n == 2)
        CHECK_NEAR(log.r[1].t, 3.0, 1e-12);
    free_world(w, &log);
    /* To a species that passes through the sensor at t = 2 and back at
     * t = 3, overlapping it (centre on centre): the contact ended at the
     * first change, reported at the next advance's start as it was then
     * (a callback's velocities for it not taken); the new one is
     * reported at t = 3 with its depth, 1.5, and its parting at t = 4.5.
     * The same through the table. */
    for (int by_table = 0; by_table < 2; by_table++) {
        w = contact_world(&log, species, 0);
        log.push_at_end = 1;
        CHECK_OK(by_table ? carom_world_set_pass_through(w, 0, 1, 1)
                          : carom_world_set_species(w, 1, 2));
        CHECK_OK(carom_world_advance_to(w, 3.0));
        CHECK(log.n == 2 && log.r[1].parting == 2);
        if (log.n == 2) {
            CHECK(log.r[1].t == 2.0 && (by_table || log.r[1].i == 1));
            CHECK_NEAR(log.r[1].depth, 0.5, 1e-12);
        }
        carom_sphere_state s0, s1;
        CHECK_OK(carom_world_get_sphere(w, 0, &s0));
        CHECK_OK(carom_world_get_sphere(w, 1, &s1));
        CHECK(s0.velocity[0] == 0.0 && s1.velocity[0] == 1.0 && s1.position[0] == 10.0);
        CHECK_OK(by_table ? carom_world_set_sense(w, 0, 1, 1) : carom_world_set_species(w, 1, 1));
        CHECK_OK(carom_world_advance_to(w, 6.0));
        carom_world_get_stats(w, &st);
        CHECK(log.n == 4 && !log.r[2].parting && log.r[3].parting == 1 &&
              st.sensed_partings == 2 && st.sensed_contacts == 2);
        if (log.n == 4) {
            CHECK(log.r[2].t == 3.0);
            CHECK_NEAR(log.r[2].depth, 1.5, 1e-12);
            CHECK_NEAR(log.r[3].t, 4.5, 1e-12);
            CHECK(log.r[3].depth == 0.0);
        }
        free_world(w, &log);
    }
    /* Stopped by the callback as they touch: in contact for good, never
     * reported again. */
    w = contact_world(&log, species, 1);
    CHECK_OK(carom_world_advance_to(w, 100.0));
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, 1, &s));
    CHECK(log.n == 1 && s.velocity[0] == 0.0);
    CHECK_NEAR(s.position[0], 8.5, 1e-12);
    free_world(w, &log);
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
    /* Overlapping spheres of sensing species: allowed, their contact
     * reported at the first advance's start with its depth (0.5); made to
     * meet: refused, the pair still sensing. */
    for (int k = 0; k < 2; k++) {
        carom_sphere_def d = carom_sphere_default_def();
        d.position[0] = 5.0 + 0.5 * k;
        d.position[1] = d.position[2] = 5.0;
        d.species = species[k];
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(log.n == 1);
    if (log.n == 1)
        CHECK(log.r[0].t == 0.0 && !log.r[0].parting && fabs(log.r[0].depth - 0.5) <= 1e-12);
    CHECK(carom_world_set_sense(w, 0, 1, 0) == CAROM_ERR_OVERLAP);
    CHECK(carom_world_senses(w, 0, 1) == 1);
    CHECK(carom_world_set_pass_through(w, 0, 1, 0) == CAROM_ERR_OVERLAP);
    CHECK(carom_world_senses(w, 0, 1) == 1);
    /* Out of range; growth. */
    CHECK(carom_world_set_sense(w, 0, CAROM_SPECIES_MAX, 1) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_senses(w, 0, CAROM_SPECIES_MAX) == 0);
    CHECK(carom_world_set_growth(w, 0.01) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "sensing") != NULL);
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
    RUN(test_touching_turned_towards);
    RUN(test_same_instant);
    RUN(test_parting_rules);
    RUN(test_ideal_gas_against_report_only);
    RUN(test_modes_and_refusals);
    RUN(test_gravity_sensor);
    const tracer_scene scenes[] = {
        {3, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0, 0, 0.0},
        {3, CAROM_NEIGHBOURS_LISTS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0, 0, 0.0},
        {2, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0, 0, 0.0},
        /* Tiny tracers (levels of cells), large ones (out of the grid),
         * walls and gravity. */
        {3, CAROM_NEIGHBOURS_CELLS, 0.02, CAROM_BOUNDARY_PERIODIC, 0.0, 0, 0.0},
        {3, CAROM_NEIGHBOURS_CELLS, 1.8, CAROM_BOUNDARY_PERIODIC, 0.0, 0, 0.0},
        {3, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_WALLS, 1.0, 0, 0.0},
        {2, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_WALLS, 1.0, 0, 0.0},
        /* Some tracers driven round circles: in the grid, and large ones
         * out of it. */
        {3, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0, 6, 1.2},
        {2, CAROM_NEIGHBOURS_CELLS, 0.3, CAROM_BOUNDARY_PERIODIC, 0.0, 6, 3.0},
    };
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++)
        test_tracers(&scenes[k]);
    return check_failures ? 1 : 0;
}
