/* Driven spheres (unknown trajectories, seed 000) meet fixed segments
 * (2D) exactly, as ballistic spheres do:
 *
 * - A driven disk (bound 0.5, kicks) flies straight among four segments
 *   for 30 time units, from 8 starts: each contact (wall, face or end)
 *   is the one an independent straight-line reference finds from the
 *   contact before, at its time (to 1e-9), and leaves as an elastic
 *   reflection along the contact's normal. The same among 64 segments
 *   in a 40 x 40 box for 80 time units, where the bound's walk of the
 *   segments' tree looks only at those near it.
 * - One steered by a constant acceleration (its bound, or a looser one)
 *   past a segment's end comes back onto the far face at the closed
 *   form's time; seven small disks whose bounds grow by more than their
 *   radius between resets (large disks elsewhere raise the mean radius)
 *   meet the far face as the same disks ballistic under gravity do.
 * - One pressed down (acceleration 1e4) onto a tilted segment with
 *   restitution 0 slides down it, off its lower end and onto the floor,
 *   never sinking in.
 * - A driven disk of radius 2 thrown through a funnel of ballistic disks
 *   under gravity: no sphere ever nearer a segment than its radius (at
 *   600 samples), every segment contact at one radius, no overlap.
 * - A large driven disk (a big sphere, out of the grid) wrapping about 60
 *   times along a periodic axis before it reaches a segment meets it at
 *   the closed form's time.
 * - A segment through a driven sphere is refused (CAROM_ERR_OVERLAP). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "path_driver.h"

#define LOG_MAX 256

typedef struct hit_log {
    int n;
    double t[LOG_MAX], normal[LOG_MAX][2];
    int kind[LOG_MAX], wall[LOG_MAX];
    double depth;
} hit_log;

static void log_hit(void *user, carom_contact *c)
{
    hit_log *h = user;
    if (h->n < LOG_MAX) {
        h->t[h->n] = c->time;
        h->kind[h->n] = c->kind;
        h->wall[h->n] = c->wall;
        h->normal[h->n][0] = c->normal[0];
        h->normal[h->n][1] = c->normal[1];
    }
    h->n++;
    if (c->depth > h->depth)
        h->depth = c->depth;
}

static carom_world *box_world(double box, carom_driver driver, carom_contact_fn on_contact,
                              void *user)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = box;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.driver = driver;
    def.on_contact = on_contact;
    def.user_data = user;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static void segment(carom_world *w, const double s[4])
{
    CHECK_OK(carom_world_add_segment(w, s, s + 2, NULL));
}

static double distance_to_segment(const double s[4], const double x[3])
{
    double dx = s[2] - s[0], dy = s[3] - s[1];
    double u = ((x[0] - s[0]) * dx + (x[1] - s[1]) * dy) / (dx * dx + dy * dy);
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    return hypot(x[0] - s[0] - u * dx, x[1] - s[1] - u * dy);
}

/* ---- straight flights, against an independent reference ---------------- */

/* A walled square box and its segments, for straight flights. */
#define COURSE_MAX 64
typedef struct course {
    double box;
    int n;
    double segment[COURSE_MAX][4];
} course;

static const course four_segments = {
    10.0, 4, {{1.0, 2.0, 4.0, 3.0}, {6.0, 8.5, 8.5, 6.0}, {2.0, 7.0, 2.5, 9.0}, {7.0, 1.0, 7.5, 4.0}}};

#define FLIGHT_R 0.5

/* A driven disk's contacts, each with its centre then (from its path,
 * which kicks keep continuous) and its velocity after. */
typedef struct flight_log {
    path *p;
    int n;
    double t[LOG_MAX], x[LOG_MAX][2], v[LOG_MAX][2], normal[LOG_MAX][2];
    int kind[LOG_MAX], wall[LOG_MAX];
    double depth;
} flight_log;

static void log_flight(void *user, carom_contact *c)
{
    flight_log *f = user;
    if (f->n < LOG_MAX) {
        double x[3], v[3];
        path_probe(f->p, c->i, c->time, x, v);
        f->t[f->n] = c->time;
        f->kind[f->n] = c->kind;
        f->wall[f->n] = c->wall;
        for (int k = 0; k < 2; k++) {
            f->x[f->n][k] = x[k];
            f->v[f->n][k] = c->velocity_after[0][k];
            f->normal[f->n][k] = c->normal[k];
        }
    }
    f->n++;
    f->depth = fmax(f->depth, c->depth);
}

/* The reference: the first contact of a disk of radius FLIGHT_R flying
 * straight from x at v with the box's walls or a segment (a face while
 * the centre is alongside it, or an end), and its kind and index. */
static double next_contact(const course *c, const double x[2], const double v[2], int *kind,
                           int *wall)
{
    double best = INFINITY;
    for (int k = 0; k < 2; k++) {
        double t = v[k] > 0.0   ? (c->box - FLIGHT_R - x[k]) / v[k]
                   : v[k] < 0.0 ? (x[k] - FLIGHT_R) / -v[k]
                                : INFINITY;
        if (t < best) {
            best = t;
            *kind = CAROM_CONTACT_WALL;
            *wall = 2 * k + (v[k] > 0.0);
        }
    }
    for (int g = 0; g < c->n; g++) {
        const double *s = c->segment[g];
        double L = hypot(s[2] - s[0], s[3] - s[1]);
        double d[2] = {(s[2] - s[0]) / L, (s[3] - s[1]) / L}, n[2] = {-d[1], d[0]};
        double h = (x[0] - s[0]) * n[0] + (x[1] - s[1]) * n[1], rate = v[0] * n[0] + v[1] * n[1];
        double t = INFINITY;
        if (h * rate < 0.0) { /* closing in on the line */
            double face = (fabs(h) - FLIGHT_R) / fabs(rate);
            double u = (x[0] + v[0] * face - s[0]) * d[0] + (x[1] + v[1] * face - s[1]) * d[1];
            if (face >= 0.0 && u >= 0.0 && u <= L)
                t = face;
        }
        for (int e = 0; e < 2; e++) {
            double q[2] = {x[0] - s[2 * e], x[1] - s[2 * e + 1]};
            double a = v[0] * v[0] + v[1] * v[1], b = q[0] * v[0] + q[1] * v[1];
            double c = q[0] * q[0] + q[1] * q[1] - FLIGHT_R * FLIGHT_R, disc = b * b - a * c;
            if (b < 0.0 && disc > 0.0)
                t = fmin(t, c / (-b + sqrt(disc)));
        }
        if (t < best) {
            best = t;
            *kind = CAROM_CONTACT_SEGMENT;
            *wall = g;
        }
    }
    return best;
}

/* An end contact's normal is not the segment's normal. */
static int at_an_end(const course *c, const flight_log *f, int k)
{
    if (f->kind[k] != CAROM_CONTACT_SEGMENT)
        return 0;
    const double *s = c->segment[f->wall[k]];
    double dx = s[2] - s[0], dy = s[3] - s[1];
    double along = (f->normal[k][0] * dx + f->normal[k][1] * dy) / hypot(dx, dy);
    return fabs(along) > 1e-9;
}

/* Eight straight flights of a driven disk from `start` through course c
 * for `duration`: each contact the reference's from the one before. */
static void check_straight_flights(const course *c, const double start[2], double duration,
                                   int least_faces, int least_ends)
{
    const double velocities[8][2] = {{3.1, 1.7}, {-2.3, 2.9}, {0.4, -3.6},  {-3.3, -0.9},
                                     {1.2, 3.4}, {3.6, -0.5}, {-1.9, -3.0}, {-0.7, 3.5}};
    int hits = 0, faces = 0, ends = 0;
    double worst_time = 0.0, worst_velocity = 0.0;
    for (int run = 0; run < 8; run++) {
        path p = {{start[0], start[1], 0.0}, {velocities[run][0], velocities[run][1], 0.0}, {0.0}};
        static flight_log f;
        memset(&f, 0, sizeof f);
        f.p = &p;
        carom_world *w =
            box_world(c->box, (carom_driver){path_probe, path_kick, &p}, log_flight, &f);
        for (int g = 0; g < c->n; g++)
            segment(w, c->segment[g]);
        carom_sphere_def sd = carom_sphere_default_def();
        sd.position[0] = start[0];
        sd.position[1] = start[1];
        sd.radius = FLIGHT_R;
        sd.driven = 1;
        sd.accel_bound = 0.5; /* looser than its true 0 */
        CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
        CHECK_OK(carom_world_advance_to(w, duration));
        carom_world_free(w);
        if (!(f.n >= 20 && f.n <= LOG_MAX && f.depth == 0.0))
            printf("  run %d: %d contacts, depth %g\n", run, f.n, f.depth);
        CHECK(f.n >= 20 && f.n <= LOG_MAX && f.depth == 0.0);
        /* Each contact against the reference's from the one before. */
        double t = 0.0, x[2] = {start[0], start[1]};
        double v[2] = {velocities[run][0], velocities[run][1]};
        for (int k = 0; k < f.n && k < LOG_MAX; k++) {
            int kind = -1, wall = -1;
            double expected = t + next_contact(c, x, v, &kind, &wall);
            CHECK(f.kind[k] == kind && f.wall[k] == wall);
            worst_time = fmax(worst_time, fabs(f.t[k] - expected));
            /* An elastic reflection along the contact's normal. */
            double vn = v[0] * f.normal[k][0] + v[1] * f.normal[k][1];
            for (int m = 0; m < 2; m++)
                worst_velocity =
                    fmax(worst_velocity, fabs(f.v[k][m] - (v[m] - 2.0 * vn * f.normal[k][m])));
            ends += at_an_end(c, &f, k);
            faces += f.kind[k] == CAROM_CONTACT_SEGMENT && !at_an_end(c, &f, k);
            t = f.t[k];
            x[0] = f.x[k][0];
            x[1] = f.x[k][1];
            v[0] = f.v[k][0];
            v[1] = f.v[k][1];
        }
        hits += f.n;
    }
    printf("  straight flights among %d segments: %d contacts (%d on faces, %d at ends), times "
           "off the reference by %.2g at most, velocities by %.2g\n",
           c->n, hits, faces, ends, worst_time, worst_velocity);
    CHECK(faces >= least_faces && ends >= least_ends);
    CHECK(worst_time < 1e-9);
    CHECK(worst_velocity < 1e-9);
}

static void test_straight_flights(void)
{
    const double centre[2] = {5.0, 5.0};
    check_straight_flights(&four_segments, centre, 30.0, 50, 20);
    /* 64 segments of length 2.5 at eight angles on an 8 x 8 grid of a
     * 40 x 40 box: the bound's walk of their tree (world_driven_predict.c)
     * looks at those near it only. */
    static course many;
    many.box = 40.0;
    many.n = 64;
    for (int g = 0; g < 64; g++) {
        double angle = 0.3927 * (g % 8) + 0.2, cx = 5.0 * (g % 8) + 2.5, cy = 5.0 * (g / 8) + 2.5;
        many.segment[g][0] = cx - 1.25 * cos(angle);
        many.segment[g][1] = cy - 1.25 * sin(angle);
        many.segment[g][2] = cx + 1.25 * cos(angle);
        many.segment[g][3] = cy + 1.25 * sin(angle);
    }
    const double between[2] = {20.0, 17.5}; /* halfway between two centres of the grid */
    check_straight_flights(&many, between, 80.0, 150, 50);
}

/* ---- the far face ------------------------------------------------------- */

/* Steered by a = (0, 2) from (7, 5.5) at (-1.5, -3), radius 0.1: the
 * centre passes below the end (6, 5) of the segment (2, 5)-(6, 5), dips
 * to 3.25 and rises to meet the underside, y = 4.9, at
 * t = (3 + sqrt(6.6)) / 2 (x = 2.82): test_segments' ballistic far face,
 * with the acceleration now the application's. */
static void test_far_face(void)
{
    const double seg[4] = {2.0, 5.0, 6.0, 5.0};
    const double bounds[2] = {2.0, 7.5};
    for (int b = 0; b < 2; b++) {
        hit_log log = {0};
        path p = {{7.0, 5.5, 0.0}, {-1.5, -3.0, 0.0}, {0.0, 2.0, 0.0}};
        carom_world *w = box_world(10.0, (carom_driver){path_probe, path_kick, &p}, log_hit, &log);
        segment(w, seg);
        carom_sphere_def sd = carom_sphere_default_def();
        sd.position[0] = 7.0;
        sd.position[1] = 5.5;
        sd.radius = 0.1;
        sd.driven = 1;
        sd.accel_bound = bounds[b];
        CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
        CHECK_OK(carom_world_advance_to(w, 2.9));
        double expected = 0.5 * (3.0 + sqrt(6.6));
        printf("  far face, bound %g: %d contact(s), first at %.15g (closed form %.15g)\n",
               bounds[b], log.n, log.t[0], expected);
        CHECK(log.n == 1 && log.kind[0] == CAROM_CONTACT_SEGMENT);
        CHECK_NEAR(log.t[0], expected, 1e-9);
        CHECK_NEAR(log.normal[0][1], 1.0, 1e-12);
        carom_world_free(w);
    }
}

/* A disk of radius 0.05 steered by a = (0, g) past the end (6, 5) of the
 * segment (2, 5)-(6, 5), in a 40 x 40 box whose two large fixed disks
 * (radius 3) make the driven bound grow by more than the small disk's
 * radius between resets: then the bound, its centre gone below the line
 * beyond the end, may reach back over the line while the centre is
 * alongside before any reset, and only the far face's root predicts
 * that meeting (without it these disks pass into the underside, or meet
 * it late). The same disk ballistic under gravity (0, g) is the
 * reference: the same contacts, the first at the same time. The starts
 * are those of a random search that found contacts missed without the
 * far face. */
typedef struct first_contact {
    int n;
    double t;
} first_contact;

static void note_first(void *user, carom_contact *c)
{
    first_contact *f = user;
    if (f->n++ == 0)
        f->t = c->time;
}

static void test_far_face_within_a_bound(void)
{
    static const double starts[7][5] = {
        {6.1406563881973995, 5.1059275832520461, -0.78219450885818642, -5.751040819395544,
         44.159531818777104},
        {6.1673252927918574, 5.1803018081375871, -1.1420953039630808, -4.9009533518471375,
         34.513783396460944},
        {6.2588537414832288, 5.2650771398865981, -1.87493183483874, -5.5569666379828782,
         40.970473075737466},
        {6.1623154137573746, 5.0172768685115861, -3.2424286713401118, -4.1335622354519606,
         31.300985939475236},
        {6.1534091761584433, 5.0219869508976052, -2.2715148144733606, -3.5214174603291517,
         32.520899769161318},
        {6.1669806254408233, 5.033756682990937, -2.2279534875371958, -5.2611963347304691,
         78.592657818734949},
        {6.1741614787253374, 5.0907567911272666, -1.9970968175785786, -5.0113063065015426,
         53.145044247221691}};
    const double seg[4] = {2.0, 5.0, 6.0, 5.0};
    double worst = 0.0;
    int contacts = 0;
    for (int s = 0; s < 7; s++) {
        first_contact f[2] = {{0, NAN}, {0, NAN}};
        for (int driven = 0; driven < 2; driven++) {
            const double *q = starts[s];
            path p = {{q[0], q[1], 0.0}, {q[2], q[3], 0.0}, {0.0, driven ? q[4] : 0.0, 0.0}};
            carom_world_def def = carom_world_default_def();
            def.dim = 2;
            def.box[0] = def.box[1] = 40.0;
            def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
            if (driven)
                def.driver = (carom_driver){path_probe, path_kick, &p};
            else
                def.gravity[1] = q[4];
            def.on_contact = note_first;
            def.user_data = &f[driven];
            carom_error e;
            carom_world *w = carom_world_create(&def, &e);
            segment(w, seg);
            carom_sphere_def sd = carom_sphere_default_def();
            sd.position[0] = q[0];
            sd.position[1] = q[1];
            sd.velocity[0] = q[2];
            sd.velocity[1] = q[3];
            sd.radius = 0.05;
            sd.driven = driven;
            sd.accel_bound = driven ? q[4] : 0.0;
            CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
            for (int b = 0; b < 2; b++) {
                carom_sphere_def big = carom_sphere_default_def();
                big.position[0] = b ? 35.0 : 30.0;
                big.position[1] = b ? 35.0 : 5.0;
                big.radius = 3.0;
                big.mass = INFINITY;
                CHECK_OK(carom_world_add_sphere(w, &big, NULL));
            }
            CHECK_OK(carom_world_advance_to(w, 0.5));
            carom_world_free(w);
        }
        CHECK(f[0].n >= 2 && f[1].n == f[0].n);
        worst = fmax(worst, fabs(f[1].t - f[0].t));
        contacts += f[0].n;
    }
    printf("  far face within a bound: 7 starts, %d contacts, first contacts differ by %.2g at "
           "most\n",
           contacts, worst);
    CHECK(worst < 1e-9);
}

/* ---- pressed on a segment ------------------------------------------------ */

/* Pushed down at 1e4 (its bound) onto the segment (1, 2)-(7, 4), which
 * falls to the left, restitution 0: it lands, slides down to the end
 * (1, 2), goes over it and falls to the floor, then slides to the left
 * wall. It never sinks into the segment. */
static void test_pressed(void)
{
    const double g = 1e4, seg[4] = {1.0, 2.0, 7.0, 4.0};
    path p = {{5.0, 5.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, -g, 0.0}};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 10.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.restitution = def.wall_restitution = 0.0;
    def.driver = (carom_driver){path_probe, path_kick, &p};
    hit_log log = {0};
    def.on_contact = log_hit;
    def.user_data = &log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    segment(w, seg);
    carom_sphere_def sd = carom_sphere_default_def();
    sd.position[0] = sd.position[1] = 5.0;
    sd.radius = 0.5;
    sd.driven = 1;
    sd.accel_bound = g;
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &sd, &id));
    double deepest = -INFINITY, left_segment_at = NAN;
    for (int step = 1; step <= 300; step++) {
        CHECK_OK(carom_world_advance_to(w, 0.0005 * step));
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, id, &st));
        deepest = fmax(deepest, 0.5 - distance_to_segment(seg, st.position));
        if (isnan(left_segment_at) && st.position[0] < 1.0)
            left_segment_at = 0.0005 * step;
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    carom_sphere_state end;
    CHECK_OK(carom_world_get_sphere(w, id, &end));
    int on_segment = 0;
    for (int k = 0; k < log.n && k < LOG_MAX; k++)
        on_segment += log.kind[k] == CAROM_CONTACT_SEGMENT;
    printf("  pressed on a segment: %llu hits (%d logged on it), %llu late, deepest %.2g, off "
           "its end at t = %.4g, ends at (%.4g, %.4g)\n",
           (unsigned long long)st.wall_hits, on_segment, (unsigned long long)st.late_contacts,
           deepest, left_segment_at, end.position[0], end.position[1]);
    CHECK(st.wall_hits > 100 && st.wall_hits < 1000000);
    CHECK(on_segment > 50);
    CHECK(st.late_contacts == 0 && st.bound_breaks == 0);
    CHECK(log.depth == 0.0);
    CHECK(deepest < 1e-9);
    CHECK(left_segment_at > 0.0);
    CHECK(end.position[0] < 0.6 && end.position[1] < 0.6); /* in the floor's corner */
    carom_world_free(w);
}

/* ---- a driven disk through a funnel of ballistic ones ------------------- */

typedef struct funnel_log {
    carom_world *w;
    const double (*segments)[4];
    long segment_contacts;
    double worst_contact;
} funnel_log;

static void on_funnel_contact(void *user, carom_contact *c)
{
    funnel_log *f = user;
    if (c->kind != CAROM_CONTACT_SEGMENT)
        return;
    carom_sphere_state st;
    if (carom_world_get_sphere(f->w, c->i, &st) != CAROM_OK)
        return;
    double d = distance_to_segment(f->segments[c->wall], st.position);
    f->segment_contacts++;
    f->worst_contact = fmax(f->worst_contact, fabs(d - st.radius) / st.radius);
}

static void test_funnel(void)
{
    static const double funnel[3][4] = {
        {0.0, 26.0, 13.0, 16.0}, {40.0, 26.0, 27.0, 16.0}, {10.0, 6.0, 30.0, 6.0}};
    path p = {{6.0, 37.5, 0.0}, {4.0, 0.0, 0.0}, {0.3, -4.0, 0.0}};
    funnel_log f = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 40.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.gravity[1] = -4.0;
    def.restitution = def.wall_restitution = 0.8;
    def.restitution_min_speed = 0.2;
    def.driver = (carom_driver){path_probe, path_kick, &p};
    def.on_contact = on_funnel_contact;
    def.user_data = &f;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    f.w = w;
    f.segments = funnel;
    for (int g = 0; g < 3; g++)
        segment(w, funnel[g]);
    int n = 0;
    for (int row = 0; row < 8; row++)
        for (int col = 0; col < 30; col++) {
            carom_sphere_def s = carom_sphere_default_def();
            s.position[0] = 5.0 + 1.0 * col + 0.25 * (row % 2);
            s.position[1] = 27.0 + 1.0 * row;
            s.velocity[0] = 0.5 * sin(3.1 * n);
            s.velocity[1] = 0.5 * cos(1.7 * n);
            s.radius = 0.4;
            CHECK_OK(carom_world_add_sphere(w, &s, NULL));
            n++;
        }
    carom_sphere_def big = carom_sphere_default_def();
    big.position[0] = p.x0[0];
    big.position[1] = p.x0[1];
    big.radius = 2.0;
    big.mass = 10.0;
    big.driven = 1;
    big.accel_bound = 4.1; /* |a| = 4.011 */
    carom_sphere_id big_id;
    CHECK_OK(carom_world_add_sphere(w, &big, &big_id));
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    int samples = quick ? 150 : 600;
    double t_end = quick ? 3.0 : 12.0, nearest = INFINITY, lowest_big = INFINITY;
    for (int m = 1; m <= samples; m++) {
        CHECK_OK(carom_world_advance_to(w, t_end * m / samples));
        for (size_t id = 0; id < carom_world_sphere_capacity(w); id++) {
            carom_sphere_state st;
            if (carom_world_get_sphere(w, (carom_sphere_id)id, &st) != CAROM_OK)
                continue;
            for (int g = 0; g < 3; g++)
                nearest =
                    fmin(nearest, distance_to_segment(funnel[g], st.position) / st.radius - 1.0);
            if (id == big_id)
                lowest_big = fmin(lowest_big, st.position[1]);
        }
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    double overlap = carom_world_max_overlap_now(w);
    printf("  funnel: %d disks and a driven one, %llu collisions, %ld segment contacts, nearest "
           "approach %.2e, contact distance off by %.1e, overlap %.1e, %llu late, driven disk "
           "down to y = %.3g\n",
           n, (unsigned long long)st.collisions, f.segment_contacts, nearest, f.worst_contact,
           overlap, (unsigned long long)st.late_contacts, lowest_big);
    CHECK(nearest > -1e-9);
    CHECK(f.worst_contact < 1e-9);
    CHECK(f.segment_contacts > (quick ? 20 : 100));
    CHECK(overlap < 1e-9);
    CHECK(st.late_contacts == 0);
    CHECK(lowest_big < 26.0); /* it fell into the funnel */
    carom_world_free(w);
}

/* ---- refusals ------------------------------------------------------------ */

/* A large driven disk (radius 1 among 40 of radius 0.05, so kept out of
 * the grid as a big sphere) flies along a periodic axis at speed 40
 * while drifting towards a long segment across it at 0.3: it wraps about
 * 60 times before it reaches the segment, and must meet its face then
 * (its bound's centre kept in the box: the segment is stored with the
 * images a centre in the box can reach;
 * regressions/driven/fast-bound-into-segment-end). */
static void test_big_disk_wrapping(void)
{
    path p = {{2.0, 5.0, 0.0}, {0.3, -40.0, 0.0}, {0.0}};
    hit_log h = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = 10.0;
    def.box[1] = 11.25;
    def.boundary[0] = CAROM_BOUNDARY_WALLS;
    def.boundary[1] = CAROM_BOUNDARY_PERIODIC;
    def.driver = (carom_driver){path_probe, path_kick, &p};
    def.on_contact = log_hit;
    def.user_data = &h;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        abort();
    carom_sphere_def sd = carom_sphere_default_def();
    sd.position[0] = 2.0;
    sd.position[1] = 5.0;
    sd.radius = 1.0;
    sd.driven = 1;
    sd.accel_bound = 1e7; /* loose: restarts come every few 1e-4 */
    carom_sphere_id big = 0;
    CHECK_OK(carom_world_add_sphere(w, &sd, &big));
    for (int k = 0; k < 40; k++) { /* small disks at rest in the far corner */
        carom_sphere_def small = carom_sphere_default_def();
        small.position[0] = 9.2 + 0.15 * (k % 4);
        small.position[1] = 0.5 + 0.25 * (k / 4);
        small.radius = 0.05;
        CHECK_OK(carom_world_add_sphere(w, &small, NULL));
    }
    const double seg[4] = {8.0, 1.0, 8.0, 10.0};
    segment(w, seg);
    /* From x = 2, the face (x = 7 for the centre) at t = 5 / 0.3. */
    double expected = 5.0 / 0.3, worst = INFINITY;
    for (int m = 1; m <= 200; m++) {
        CHECK_OK(carom_world_advance_to(w, 18.0 * m / 200));
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, big, &st));
        worst = fmin(worst, distance_to_segment(seg, st.position) - 1.0);
    }
    int met = -1;
    for (int k = 0; k < h.n && k < LOG_MAX; k++)
        if (h.kind[k] == CAROM_CONTACT_SEGMENT && met < 0)
            met = k;
    printf("  big disk wrapping: segment met at %.12g (expected %.12g), nearest approach %.3g\n",
           met >= 0 ? h.t[met] : -1.0, expected, worst);
    CHECK(met >= 0 && fabs(h.t[met] - expected) < 1e-9);
    CHECK(worst > -1e-9);
    carom_world_free(w);
}

static void probe_still(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    (void)user;
    (void)id;
    (void)t;
    x[0] = x[1] = 5.0;
    x[2] = v[0] = v[1] = v[2] = 0.0;
}

static void test_overlap_refused(void)
{
    carom_world *w = box_world(10.0, (carom_driver){probe_still, NULL, NULL}, NULL, NULL);
    carom_sphere_def sd = carom_sphere_default_def();
    sd.position[0] = sd.position[1] = 5.0;
    sd.radius = 0.5;
    sd.driven = 1;
    CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
    const double through[4] = {4.0, 5.3, 6.0, 5.3}, clear[4] = {4.0, 5.6, 6.0, 5.6};
    CHECK(carom_world_add_segment(w, through, through + 2, NULL) == CAROM_ERR_OVERLAP);
    CHECK(strstr(carom_world_error_message(w), "overlaps segment 0") != NULL);
    CHECK_OK(carom_world_add_segment(w, clear, clear + 2, NULL));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    carom_world_free(w);
}

int main(void)
{
    RUN(test_straight_flights);
    RUN(test_far_face);
    RUN(test_far_face_within_a_bound);
    RUN(test_pressed);
    RUN(test_funnel);
    RUN(test_big_disk_wrapping);
    RUN(test_overlap_refused);
    return CHECK_REPORT();
}
