/* Fixed segments (carom_world_add_segment, 2D): closed forms, an
 * independent check of every contact, conservation and refusals.
 *
 * - A disk dropped onto a segment's face meets it when the fall says and
 *   bounces straight back; one dropped beside its end (clear by 0.1)
 *   falls past it; one dropped onto its end meets the end at the height
 *   the circle says, without and with gravity (a quartic), and leaves
 *   along the end's normal, reflected; one moving up hits the underside;
 *   one thrown past an end comes back on its parabola onto the far face;
 *   tiny disks dropped from far above an end meet it at one radius.
 * - A granular hopper (a funnel of two segments over a shelf) under
 *   gravity and an elastic gas among segments, cells and neighbour
 *   lists: energy kept (elastic), every sphere always at least its
 *   radius from every segment, and every segment contact at a distance of
 *   one radius from its segment. Between contacts, an independent check
 *   samples each flight: no centre ever comes nearer than its radius to a
 *   segment between two events (a missed contact would).
 * - Growing disks at rest touch a face and an end when their radius
 *   reaches them, and leave at twice their surface's speed.
 * - Refusals: 3D, ends outside the box or equal, a sphere
 *   overlapping (a growing one with the radius it has reached).
 * - A maze of 144 segments (periodic, or walled under gravity, cells and
 *   lists): the same checks as the hopper's, with predictions that test
 *   only the segments their tree walk reaches; casts and overlap queries
 *   against a direct test of every segment.
 * Driven spheres: test_segments_driven.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "check.h"

static carom_world *make_world(double box, double gy, carom_neighbours neighbours,
                               double restitution)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = box;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.gravity[1] = gy;
    def.neighbours = neighbours;
    def.restitution = def.wall_restitution = restitution;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static carom_sphere_id add(carom_world *w, double x, double y, double vx, double vy, double r)
{
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = x;
    s.position[1] = y;
    s.velocity[0] = vx;
    s.velocity[1] = vy;
    s.radius = r;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    return id;
}

static void segment(carom_world *w, double ax, double ay, double bx, double by)
{
    const double a[2] = {ax, ay}, b[2] = {bx, by};
    CHECK_OK(carom_world_add_segment(w, a, b, NULL));
}

typedef struct contact_log {
    int n;
    carom_contact c[16];
} contact_log;

static void log_contact(void *user, carom_contact *c)
{
    contact_log *log = user;
    if (log->n < 16)
        log->c[log->n] = *c;
    log->n++;
}

static carom_world *logged_world(double gy, contact_log *log)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 10.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.gravity[1] = gy;
    def.on_contact = log_contact;
    def.user_data = log;
    carom_error e;
    return carom_world_create(&def, &e);
}

/* ---- closed forms -------------------------------------------------------- */

static void test_face_and_beside(void)
{
    /* Dropped from (5, 5) onto the segment (3, 2)-(7, 2): the centre
     * falls 2.5, t = sqrt(5), and comes back up at the speed it fell. */
    contact_log log = {0};
    carom_world *w = logged_world(-1.0, &log);
    add(w, 5.0, 5.0, 0.0, 0.0, 0.5);
    segment(w, 3.0, 2.0, 7.0, 2.0);
    CHECK(carom_world_segment_count(w) == 1);
    CHECK_OK(carom_world_advance_to(w, sqrt(5.0) + 0.01));
    CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_SEGMENT && log.c[0].wall == 0);
    CHECK_NEAR(log.c[0].time, sqrt(5.0), 1e-12);
    CHECK_NEAR(log.c[0].normal[1], -1.0, 1e-15);
    CHECK_NEAR(log.c[0].velocity_after[0][1], sqrt(5.0), 1e-12);
    carom_world_free(w);

    /* Dropped at x = 7.6: the end (7, 2) is 0.6 away sideways, more than
     * the radius; it falls past to the floor. */
    log.n = 0;
    w = logged_world(-1.0, &log);
    add(w, 7.6, 5.0, 0.0, 0.0, 0.5);
    segment(w, 3.0, 2.0, 7.0, 2.0);
    CHECK_OK(carom_world_advance_to(w, 3.001));
    CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_WALL);
    CHECK_NEAR(log.c[0].time, sqrt(9.0), 1e-12);
    carom_world_free(w);

    /* Moving up from below at speed 1: meets the underside at y = 1.5. */
    log.n = 0;
    w = logged_world(0.0, &log);
    add(w, 4.0, 0.5, 0.0, 1.0, 0.5);
    segment(w, 3.0, 2.0, 7.0, 2.0);
    CHECK_OK(carom_world_advance_to(w, 1.5));
    CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_SEGMENT);
    CHECK_NEAR(log.c[0].time, 1.0, 1e-12);
    CHECK_NEAR(log.c[0].velocity_after[0][1], -1.0, 1e-15);
    carom_world_free(w);
}

/* Onto the end (7, 2) from x = 7.3: the centre meets the circle of
 * radius 0.5 around the end at (7.3, 2.4), normal (0.6, 0.8); an elastic
 * reflection turns (0, -V) into V (0.96, 0.28). */
static void check_end(double gy)
{
    contact_log log = {0};
    carom_world *w = logged_world(gy, &log);
    add(w, 7.3, 5.0, 0.0, gy == 0.0 ? -1.0 : 0.0, 0.5);
    segment(w, 3.0, 2.0, 7.0, 2.0);
    double t = gy == 0.0 ? 2.6 : sqrt(5.2), speed = gy == 0.0 ? 1.0 : sqrt(5.2);
    CHECK_OK(carom_world_advance_to(w, t + 1e-3));
    CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_SEGMENT && log.c[0].wall == 0);
    CHECK_NEAR(log.c[0].time, t, 1e-12);
    CHECK_NEAR(log.c[0].normal[0], -0.6, 1e-12);
    CHECK_NEAR(log.c[0].normal[1], -0.8, 1e-12);
    CHECK_NEAR(log.c[0].velocity_after[0][0], 0.96 * speed, 1e-12);
    CHECK_NEAR(log.c[0].velocity_after[0][1], 0.28 * speed, 1e-12);
    carom_world_free(w);
}

static void test_end(void)
{
    check_end(0.0);
    check_end(-1.0);
}

/* Round an end and back onto the far face, with no event between: gravity
 * (0, +2), the segment (2, 5)-(6, 5), a disk of radius 0.1 from (7, 5.5)
 * at (-1.5, -3). Its centre, y = 5.5 - 3 t + t^2, passes the line beyond
 * the end (x = 6.73 at y = 5), dips to 3.25 and rises to meet the
 * underside, y = 4.9, at t = (3 + sqrt(6.6)) / 2 (x = 2.82). */
static void test_far_face(void)
{
    contact_log log = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 10.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.gravity[1] = 2.0;
    def.on_contact = log_contact;
    def.user_data = &log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    add(w, 7.0, 5.5, -1.5, -3.0, 0.1);
    segment(w, 2.0, 5.0, 6.0, 5.0);
    CHECK_OK(carom_world_advance_to(w, 2.9));
    CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_SEGMENT);
    CHECK_NEAR(log.c[0].time, 0.5 * (3.0 + sqrt(6.6)), 1e-12);
    CHECK_NEAR(log.c[0].normal[1], 1.0, 1e-15);
    carom_world_free(w);
}

/* Disks of radius 1e-1 .. 1e-4 dropped from 80 above the end (50, 10) of
 * the segment (50, 10)-(20, 10), 0.3 radii beside it, under gravity 1:
 * they meet the end when 80 - t^2 / 2 = sqrt(0.91) r, at one radius from
 * it to about an ulp of the coordinates. (The quartic alone loses digits
 * as (80 / r)^2: 3.7e-5 of r deep at r = 1e-4.) */
static void test_far_end(void)
{
    double worst = 0.0;
    for (int e = 1; e <= 4; e++) {
        double r = pow(10.0, -e);
        contact_log log = {0};
        carom_world_def def = carom_world_default_def();
        def.dim = 2;
        def.box[0] = def.box[1] = 100.0;
        def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
        def.gravity[1] = -1.0;
        def.on_contact = log_contact;
        def.user_data = &log;
        carom_error err;
        carom_world *w = carom_world_create(&def, &err);
        segment(w, 50.0, 10.0, 20.0, 10.0);
        add(w, 50.0 + 0.3 * r, 90.0, 0.0, 0.0, r);
        CHECK_OK(carom_world_advance_to(w, 12.7));
        double t = sqrt(2.0 * (80.0 - sqrt(0.91) * r));
        CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_SEGMENT);
        CHECK_NEAR(log.c[0].time, t, 1e-12);
        /* the centre then, from the closed form: its distance to the end */
        double y = 90.0 - 0.5 * log.c[0].time * log.c[0].time;
        double gap = hypot(0.3 * r, y - 10.0) - r;
        worst = fmax(worst, fabs(gap) / r);
        carom_world_free(w);
    }
    printf("  far end: 4 radii, contacts off one radius by %.2g of it at most\n", worst);
    CHECK(worst < 1e-9);
}

/* Growing disks at rest (radius 0.5, rate 1: r = 0.5 (1 + t)): one 2 from
 * the face of (3, 2)-(7, 2) touches it at t = 3 and leaves at 2 s = 1
 * (s = 0.5, its surface's speed); one 1 from the end (7, 2), beyond it
 * along (0.6, 0.8), touches the end at t = 1 and leaves along that line. */
static void test_growing(void)
{
    for (int at_end = 0; at_end < 2; at_end++) {
        contact_log log = {0};
        carom_world *w = logged_world(0.0, &log);
        if (at_end)
            add(w, 7.6, 2.8, 0.0, 0.0, 0.5);
        else
            add(w, 5.0, 4.0, 0.0, 0.0, 0.5);
        segment(w, 3.0, 2.0, 7.0, 2.0);
        CHECK_OK(carom_world_set_growth(w, 1.0));
        double t = at_end ? 1.0 : 3.0;
        CHECK_OK(carom_world_advance_to(w, t + 0.01));
        CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_SEGMENT);
        CHECK_NEAR(log.c[0].time, t, 1e-12);
        CHECK_NEAR(log.c[0].velocity_after[0][0], at_end ? 0.6 : 0.0, 1e-12);
        CHECK_NEAR(log.c[0].velocity_after[0][1], at_end ? 0.8 : 1.0, 1e-12);
        carom_world_free(w);
    }
}

/* ---- many spheres ------------------------------------------------------- */

typedef struct flight_log {
    const carom_world *w;
    long segment_contacts;
    double worst_contact; /* |distance - radius| / radius at a contact */
} flight_log;

static double distance_to_segment(const double a[2], const double b[2], const double x[3])
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    double u = ((x[0] - a[0]) * dx + (x[1] - a[1]) * dy) / (dx * dx + dy * dy);
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    return hypot(x[0] - a[0] - u * dx, x[1] - a[1] - u * dy);
}

static void on_contact(void *user, carom_contact *c)
{
    flight_log *f = user;
    if (c->kind != CAROM_CONTACT_SEGMENT)
        return;
    carom_sphere_state st;
    if (carom_world_get_sphere(f->w, c->i, &st) != CAROM_OK)
        return;
    double a[2], b[2];
    carom_world_get_segment(f->w, (uint32_t)c->wall, a, b);
    double d = distance_to_segment(a, b, st.position);
    f->segment_contacts++;
    f->worst_contact = fmax(f->worst_contact, fabs(d - st.radius) / st.radius);
}

/* The nearest any centre comes to any segment, less its radius, relative
 * (< 0: inside), over `samples` instants of [t0, t1] taken from the
 * spheres' analytic flights between the world's events (the world is
 * advanced to each instant). */
static double nearest_approach(carom_world *w, double t0, double t1, int samples)
{
    double worst = INFINITY;
    size_t nseg = carom_world_segment_count(w);
    for (int m = 1; m <= samples; m++) {
        CHECK_OK(carom_world_advance_to(w, t0 + (t1 - t0) * m / samples));
        for (size_t id = 0; id < carom_world_sphere_capacity(w); id++) {
            carom_sphere_state st;
            if (carom_world_get_sphere(w, (carom_sphere_id)id, &st) != CAROM_OK)
                continue;
            for (size_t g = 0; g < nseg; g++) {
                double a[2], b[2];
                carom_world_get_segment(w, (uint32_t)g, a, b);
                worst = fmin(worst, distance_to_segment(a, b, st.position) / st.radius - 1.0);
            }
        }
    }
    return worst;
}

/* A funnel (two segments from the box's upper sides to an opening of
 * width 6 at y = 30) over a shelf (a segment at y = 12 under the
 * opening): disks of radius 0.5, placed on a lattice above the funnel,
 * fall through it and pile up on the shelf and the floor; without
 * gravity, an elastic gas of the same disks, ten times faster. */
static void check_hopper(carom_neighbours neighbours, double restitution, double gy)
{
    flight_log f = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 60.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.gravity[1] = gy;
    def.neighbours = neighbours;
    def.restitution = def.wall_restitution = restitution;
    if (restitution < 1.0)
        def.restitution_min_speed = 0.5; /* resting piles, not inelastic collapse */
    def.on_contact = on_contact;
    def.user_data = &f;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    f.w = w;
    int n = 0;
    for (int row = 0; row < 12; row++)
        for (int col = 0; col < 40; col++) {
            double x = 8.0 + 1.1 * col + 0.3 * (row % 2), y = 45.0 + 1.1 * row;
            double speed = gy != 0.0 ? 0.5 : 5.0; /* a gas without gravity */
            double vx = speed * sin(3.1 * n), vy = speed * cos(1.7 * n);
            add(w, x, y, vx, vy, 0.5);
            n++;
        }
    segment(w, 0.0, 42.0, 27.0, 30.0);
    segment(w, 60.0, 42.0, 33.0, 30.0);
    segment(w, 20.0, 12.0, 40.0, 12.0);
    double e0 = carom_world_kinetic_energy(w);
    /* Validating builds check the whole world at every event: shorter. */
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    double worst = nearest_approach(w, 0.0, quick ? 3.0 : 12.0, quick ? 150 : 600);
    carom_stats st;
    carom_world_get_stats(w, &st);
    fprintf(stderr,
            "  hopper %s e %.1f g %g: %d disks, %llu collisions, %ld segment contacts, nearest "
            "approach %.2e, contact distance off by %.1e\n",
            neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", restitution, gy, n,
            (unsigned long long)st.collisions, f.segment_contacts, worst, f.worst_contact);
    CHECK(worst > -1e-9);
    CHECK(f.worst_contact < 1e-9);
    CHECK(f.segment_contacts > (quick ? 50 : 200));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    if (restitution == 1.0 && gy == 0.0)
        CHECK_REL(carom_world_kinetic_energy(w), e0, 1e-12);
    /* Under gravity the disks have passed the opening: some rest on the
     * shelf, some beside it. */
    if (gy != 0.0 && !quick) {
        int below = 0;
        for (size_t id = 0; id < carom_world_sphere_capacity(w); id++) {
            carom_sphere_state s;
            if (carom_world_get_sphere(w, (carom_sphere_id)id, &s) == CAROM_OK)
                below += s.position[1] < 30.0;
        }
        CHECK(below > n / 4);
    }
    carom_world_free(w);
}

static void test_hopper(void)
{
    check_hopper(CAROM_NEIGHBOURS_CELLS, 0.8, -10.0);
    check_hopper(CAROM_NEIGHBOURS_LISTS, 0.8, -10.0);
    check_hopper(CAROM_NEIGHBOURS_CELLS, 1.0, 0.0);
    check_hopper(CAROM_NEIGHBOURS_LISTS, 1.0, 0.0);
}

/* A maze: 144 segments of length 3 at twelve angles on a 12 x 12 grid of
 * a 72 x 72 box (each at least 3 from the box's sides, so its periodic
 * images, which the world stores too, are never within a radius of the
 * box), 400 disks of radius 0.5 on a lattice, those nearer than 0.1 to
 * a segment left out. A prediction tests only the segments its tree
 * walk reaches (world_segments_time): the same checks as the hopper's
 * (no centre ever nearer than its radius to a segment between the
 * events, every segment contact at one radius, energy kept when
 * elastic), periodic without gravity, with cells and with lists, and
 * walled under gravity; and a cast and an overlap query, which walk the
 * tree too, find the segment a direct test says. */
static void check_maze(carom_neighbours neighbours, double gy)
{
    flight_log f = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 72.0;
    carom_boundary kind = gy != 0.0 ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC;
    def.boundary[0] = def.boundary[1] = kind;
    def.gravity[1] = gy;
    def.neighbours = neighbours;
    def.on_contact = on_contact;
    def.user_data = &f;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        abort();
    f.w = w;
    double ends[144][4];
    for (int k = 0; k < 144; k++) {
        double angle = 0.2618 * (k % 12) + 0.1, cx = 6.0 * (k % 12) + 3.0 + 1.0 * (k / 12 % 2);
        double cy = 6.0 * (k / 12) + 3.5;
        ends[k][0] = cx - 1.5 * cos(angle);
        ends[k][1] = cy - 1.5 * sin(angle);
        ends[k][2] = cx + 1.5 * cos(angle);
        ends[k][3] = cy + 1.5 * sin(angle);
        segment(w, ends[k][0], ends[k][1], ends[k][2], ends[k][3]);
    }
    int n = 0;
    for (int row = 0; row < 24 && n < 400; row++)
        for (int col = 0; col < 24 && n < 400; col++) {
            double x[3] = {3.0 * col + 1.5, 3.0 * row + 1.5, 0.0}, nearest = INFINITY;
            for (int k = 0; k < 144; k++)
                nearest = fmin(nearest, distance_to_segment(ends[k], ends[k] + 2, x));
            if (nearest < 0.6)
                continue;
            double speed = gy != 0.0 ? 2.0 : 5.0;
            add(w, x[0], x[1], speed * sin(3.1 * n), speed * cos(1.7 * n), 0.5);
            n++;
        }
    CHECK(carom_world_segment_count(w) == 144 && n > 300);
    double e0 = carom_world_kinetic_energy(w);
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    double worst = nearest_approach(w, 0.0, quick ? 2.0 : 8.0, quick ? 100 : 400);
    fprintf(stderr,
            "  maze %s g %g: %d disks, %ld segment contacts, nearest approach %.2e, contact "
            "distance off by %.1e\n",
            neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", gy, n, f.segment_contacts,
            worst, f.worst_contact);
    CHECK(worst > -1e-9);
    CHECK(f.worst_contact < 1e-9);
    CHECK(f.segment_contacts > (quick ? 100 : 400));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    if (gy == 0.0)
        CHECK_REL(carom_world_kinetic_energy(w), e0, 1e-12);
    carom_world_free(w);
    /* The same segments alone: casts and overlap queries against a direct
     * test of every segment (casts sampled every 1e-4 of their motion). */
    w = carom_world_create(&def, &e);
    if (!w)
        abort();
    for (int k = 0; k < 144; k++)
        segment(w, ends[k][0], ends[k][1], ends[k][2], ends[k][3]);
    int casts_agree = 1, queries_agree = 1;
    for (int q = 0; q < 24; q++) {
        double origin[3] = {5.0 + 2.7 * q, 4.0 + 2.9 * q, 0.0}, radius = 0.2 + 0.05 * (q % 5);
        double motion[3] = {20.0 * cos(0.7 * q), 20.0 * sin(0.7 * q), 0.0};
        carom_cast cast = {{origin[0], origin[1], 0.0}, {motion[0], motion[1], 0.0}, radius,
                           CAROM_QUERY_NO_SPHERE};
        carom_cast_hit hit;
        int found = 0;
        CHECK_OK(carom_world_cast_sphere(w, &cast, &hit, &found));
        int direct = -1;
        double at_f = INFINITY;
        for (int m = 0; m <= 10000 && direct < 0; m++) {
            double f = m * 1e-4, x[3] = {origin[0] + f * motion[0], origin[1] + f * motion[1], 0.0};
            for (int k = 0; k < 144; k++)
                if (distance_to_segment(ends[k], ends[k] + 2, x) < radius) {
                    direct = k;
                    at_f = f;
                    break;
                }
        }
        /* Out of the box along a walled axis the cast meets a wall first. */
        if (found && hit.kind == CAROM_CONTACT_WALL)
            casts_agree &= direct < 0 || at_f >= hit.fraction - 1e-4;
        else
            casts_agree &= direct < 0 ? !found
                                      : found && hit.kind == CAROM_CONTACT_SEGMENT &&
                                            hit.wall == direct && at_f >= hit.fraction &&
                                            at_f < hit.fraction + 1e-4;
        double centre[3] = {4.0 + 2.9 * q, 70.0 - 2.8 * q, 0.0};
        carom_obstacle near[8];
        size_t count = 0;
        CHECK_OK(carom_world_query_obstacles(w, centre, 1.5, near, 8, &count));
        size_t expected = 0, matched = 0;
        for (int k = 0; k < 144; k++)
            if (distance_to_segment(ends[k], ends[k] + 2, centre) < 1.5) {
                for (size_t m = 0; m < count && m < 8; m++)
                    matched += near[m].kind == CAROM_CONTACT_SEGMENT && near[m].index == k;
                expected++;
            }
        size_t walls = 0;
        for (size_t m = 0; m < count && m < 8; m++)
            walls += near[m].kind == CAROM_CONTACT_WALL;
        queries_agree &= count - walls == expected && matched == expected;
    }
    CHECK(casts_agree);
    CHECK(queries_agree);
    carom_world_free(w);
}

static void test_maze(void)
{
    check_maze(CAROM_NEIGHBOURS_CELLS, 0.0);
    check_maze(CAROM_NEIGHBOURS_LISTS, 0.0);
    check_maze(CAROM_NEIGHBOURS_CELLS, -5.0);
}

/* ---- refusals ----------------------------------------------------------- */

static int message_has(const carom_world *w, const char *text)
{
    const char *m = carom_world_error_message(w);
    if (strstr(m, text))
        return 1;
    fprintf(stderr, "message '%s' lacks '%s'\n", m, text);
    return 0;
}

static void test_refusals(void)
{
    const double a[2] = {1.0, 1.0}, b[2] = {4.0, 1.0}, out[2] = {11.0, 1.0};
    carom_world_def def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 10.0;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e); /* 3D, periodic */
    CHECK(carom_world_add_segment(w, a, b, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "2D"));
    carom_world_free(w);

    w = make_world(10.0, 0.0, CAROM_NEIGHBOURS_AUTO, 1.0);
    CHECK(carom_world_add_segment(w, a, out, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "inside the box"));
    CHECK(carom_world_add_segment(w, a, a, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "the same"));
    CHECK(carom_world_add_segment(w, NULL, b, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    /* A disk of radius 0.5 centred 0.4 above the segment overlaps it. */
    carom_sphere_id id = add(w, 2.0, 1.4, 0.0, 0.0, 0.5);
    CHECK(carom_world_add_segment(w, a, b, NULL) == CAROM_ERR_OVERLAP);
    CHECK(message_has(w, "sphere 0 (radius 0.5) overlaps segment 0"));
    CHECK(carom_world_segment_count(w) == 0);
    CHECK_OK(carom_world_remove_sphere(w, id));
    uint32_t index = 7;
    CHECK_OK(carom_world_add_segment(w, a, b, &index));
    CHECK(index == 0);
    double ga[2], gb[2];
    CHECK_OK(carom_world_get_segment(w, 0, ga, gb));
    CHECK(ga[0] == 1.0 && gb[0] == 4.0 && gb[1] == 1.0);
    CHECK(carom_world_get_segment(w, 1, ga, gb) == CAROM_ERR_INVALID_ARGUMENT);
    /* Around its end: 0.45 from (4, 1) is too near; added later, refused. */
    CHECK_OK(carom_world_advance_to(w, 1.0));
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = 4.0 + 0.45 * 0.6;
    s.position[1] = 1.0 + 0.45 * 0.8;
    s.radius = 0.5;
    CHECK(carom_world_add_sphere(w, &s, NULL) == CAROM_ERR_OVERLAP);
    CHECK(message_has(w, "overlaps segment 0"));
    carom_world_free(w);
    /* A growing disk is checked with the radius it has reached: 1 at
     * t = 10, so a segment 0.8 below its centre overlaps it. */
    w = make_world(10.0, 0.0, CAROM_NEIGHBOURS_AUTO, 1.0);
    add(w, 5.0, 5.0, 0.0, 0.0, 0.5);
    CHECK_OK(carom_world_set_growth(w, 0.1));
    CHECK_OK(carom_world_advance_to(w, 10.0));
    const double low_a[2] = {3.0, 4.2}, low_b[2] = {7.0, 4.2};
    CHECK(carom_world_add_segment(w, low_a, low_b, NULL) == CAROM_ERR_OVERLAP);
    CHECK(message_has(w, "sphere 0 (radius 1) overlaps segment 0"));
    CHECK_OK(carom_world_add_segment(w, a, b, NULL));
    carom_world_free(w);

}

int main(void)
{
    RUN(test_face_and_beside);
    RUN(test_end);
    RUN(test_far_face);
    RUN(test_far_end);
    RUN(test_growing);
    RUN(test_hopper);
    RUN(test_maze);
    RUN(test_refusals);
    return CHECK_REPORT();
}
