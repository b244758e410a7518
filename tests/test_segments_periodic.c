/* Fixed segments in 2D worlds with periodic axes (carom_world_add_segment
 * stores a segment's images across them): the test's own distance to the
 * nearest image, against what the world does.
 *
 * - Random flights, periodic along both axes or along x only (walls
 *   along y, gravity along -y in half of them), aimed at the segment's
 *   image one box over (or at the segment), give or take: the first
 *   segment contact the world reports is the first time the test's
 *   distance from the centre (wrapped into the box, then the nearest of
 *   the segment moved by -L, 0, +L along each periodic axis) comes down
 *   to the radius, found by sampling and bisection; the contact names the
 *   index the segment was given (0), at one radius; none is missed.
 * - Casts across the boundary: the image hit first, a cast over several
 *   boxes, the given index, normal and point; random casts against the
 *   same sampled distance.
 * - A seamless zigzag floor of 8 segments across a periodic width under
 *   a gas with and without gravity, cells and neighbour lists: no centre
 *   ever nearer than its radius to a segment's nearest image, every
 *   segment contact at one radius, energy kept when elastic without
 *   gravity.
 * - Overlaps through the boundary are refused both ways, naming the
 *   given index; count and get give the segments as given. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "check.h"

#define BOX 10.0

static unsigned seed_state = 777;

static double unit_random(void)
{
    seed_state = seed_state * 1664525u + 1013904223u;
    return (seed_state >> 8) / 16777216.0;
}

static double segment_distance(const double a[2], const double b[2], const double x[2])
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    double u = ((x[0] - a[0]) * dx + (x[1] - a[1]) * dy) / (dx * dx + dy * dy);
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    return hypot(x[0] - a[0] - u * dx, x[1] - a[1] - u * dy);
}

/* From x (anywhere) to the nearest image of segment s (x0, y0, x1, y1),
 * periodic along the axes of `periodic` (bit k). */
static double image_distance(const double s[4], const double x[2], unsigned periodic)
{
    double y[2], best = INFINITY;
    for (int k = 0; k < 2; k++)
        y[k] = (periodic >> k) & 1 ? x[k] - BOX * floor(x[k] / BOX) : x[k];
    for (int c = 0; c < 9; c++) {
        int step[2] = {c % 3 - 1, c / 3 - 1};
        if ((step[0] && !(periodic & 1)) || (step[1] && !(periodic & 2)))
            continue;
        double z[2] = {y[0] + step[0] * BOX, y[1] + step[1] * BOX};
        best = fmin(best, segment_distance(s, s + 2, z));
    }
    return best;
}

static void position_at(const double x[2], const double v[2], double gy, double t, double out[2])
{
    out[0] = x[0] + t * v[0];
    out[1] = x[1] + t * v[1] + 0.5 * gy * t * t;
}

static double reference_contact(const double s[4], unsigned periodic, const double x[2],
                                const double v[2], double gy, double r, double horizon,
                                int samples)
{
    double lo = 0.0, y[2];
    for (int m = 1; m <= samples; m++) {
        double t = horizon * m / samples;
        position_at(x, v, gy, t, y);
        if (image_distance(s, y, periodic) < r) {
            double hi = t;
            for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
                double mid = 0.5 * (lo + hi);
                position_at(x, v, gy, mid, y);
                if (image_distance(s, y, periodic) < r)
                    hi = mid;
                else
                    lo = mid;
            }
            return hi;
        }
        lo = t;
    }
    return INFINITY;
}

typedef struct contact_log {
    int n;
    carom_contact first;
} contact_log;

static void log_contact(void *user, carom_contact *c)
{
    contact_log *log = user;
    if (log->n == 0)
        log->first = *c;
    log->n++;
}

static carom_world *box_world(unsigned periodic, double gy, carom_contact_fn on_contact,
                              void *user)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    for (int k = 0; k < 2; k++) {
        def.box[k] = BOX;
        def.boundary[k] = (periodic >> k) & 1 ? CAROM_BOUNDARY_PERIODIC : CAROM_BOUNDARY_WALLS;
    }
    def.gravity[1] = gy;
    def.on_contact = on_contact;
    def.user_data = user;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static void add(carom_world *w, const double x[2], const double v[2], double r)
{
    carom_sphere_def sd = carom_sphere_default_def();
    sd.position[0] = x[0];
    sd.position[1] = x[1];
    sd.velocity[0] = v[0];
    sd.velocity[1] = v[1];
    sd.radius = r;
    CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
}

static void test_random_flights(void)
{
    int compared = 0, found = 0, crossed = 0;
    double worst_time = 0.0, worst_distance = 0.0;
    for (int trial = 0; trial < 600; trial++) {
        unsigned periodic = trial % 3 == 2 ? 1 : 3;
        double s[4], x[2], v[2], r = 0.1 + 0.5 * unit_random();
        double gy = trial % 2 ? -2.0 * unit_random() : 0.0;
        for (int k = 0; k < 4; k++)
            s[k] = BOX * unit_random();
        x[0] = BOX * unit_random();
        x[1] = periodic & 2 ? BOX * unit_random() : 1.0 + 8.0 * unit_random();
        if (image_distance(s, x, periodic) < 1.05 * r)
            continue;
        double u = unit_random(), duration = 1.0 + 2.0 * unit_random();
        for (int k = 0; k < 2; k++) {
            int over = (periodic >> k) & 1 ? (int)(3.0 * unit_random()) - 1 : 0;
            double aim = s[k] + u * (s[k + 2] - s[k]) + over * BOX;
            v[k] = (aim - x[k]) / duration + (unit_random() - 0.5);
        }
        contact_log log = {0};
        carom_world *w = box_world(periodic, gy, log_contact, &log);
        add(w, x, v, r);
        uint32_t index = 99;
        CHECK_OK(carom_world_add_segment(w, s, s + 2, &index));
        CHECK(index == 0 && carom_world_segment_count(w) == 1);
        double t = 0.0;
        while (log.n == 0 && t < 4.0) {
            t += 0.25;
            CHECK_OK(carom_world_advance_to(w, t));
        }
        carom_world_free(w);
        double horizon = log.n ? log.first.time : 4.0;
        double ref = reference_contact(s, periodic, x, v, gy, r, horizon * 1.001, 40000);
        if (log.n == 0 || log.first.kind != CAROM_CONTACT_SEGMENT) {
            CHECK(!(ref < horizon * (1.0 - 1e-9))); /* a wall first, or nothing */
            continue;
        }
        compared++;
        CHECK(log.first.wall == 0);
        double y[2];
        position_at(x, v, gy, log.first.time, y);
        crossed += y[0] < 0.0 || y[0] >= BOX || y[1] < 0.0 || y[1] >= BOX;
        double d = image_distance(s, y, periodic);
        worst_distance = fmax(worst_distance, fabs(d - r) / r);
        CHECK(fabs(d - r) < 1e-9 * r);
        if (ref < INFINITY) {
            found++;
            worst_time = fmax(worst_time, fabs(ref - log.first.time));
            CHECK_NEAR(log.first.time, ref, 1e-9 * fmax(1.0, ref));
        }
    }
    fprintf(stderr,
            "  periodic flights: %d segment contacts (%d after crossing the box), %d found by "
            "sampling, times within %.1e, distances within %.1e\n",
            compared, crossed, found, worst_time, worst_distance);
    CHECK(compared > 200 && crossed > 50 && found > compared * 9 / 10);
}

static void check_hit(carom_world *w, const double origin[2], const double motion[2], double r,
                      double fraction, double normal_x, const double point[2])
{
    carom_cast cast = {{origin[0], origin[1], 0.0},
                       {motion[0], motion[1], 0.0},
                       r,
                       CAROM_QUERY_NO_SPHERE};
    carom_cast_hit hit;
    int found = 0;
    CHECK_OK(carom_world_cast_sphere(w, &cast, &hit, &found));
    CHECK(found && hit.kind == CAROM_CONTACT_SEGMENT && hit.wall == 1);
    CHECK_NEAR(hit.fraction, fraction, 1e-12);
    CHECK_NEAR(hit.normal[0], normal_x, 1e-12);
    CHECK_NEAR(hit.normal[1], 0.0, 1e-12);
    CHECK_NEAR(hit.point[0], point[0], 1e-10);
    CHECK_NEAR(hit.point[1], point[1], 1e-10);
}

static void test_casts(void)
{
    carom_world *w = box_world(1, 0.0, NULL, NULL); /* periodic along x */
    const double far[4] = {5.0, 0.5, 5.0, 1.5}, wall[4] = {1.0, 2.0, 1.0, 8.0};
    CHECK_OK(carom_world_add_segment(w, far, far + 2, NULL));
    uint32_t index = 0;
    CHECK_OK(carom_world_add_segment(w, wall, wall + 2, &index));
    CHECK(index == 1 && carom_world_segment_count(w) == 2);
    double a[2], b[2];
    CHECK_OK(carom_world_get_segment(w, 1, a, b));
    CHECK(a[0] == 1.0 && a[1] == 2.0 && b[0] == 1.0 && b[1] == 8.0);
    CHECK(carom_world_get_segment(w, 2, a, b) == CAROM_ERR_INVALID_ARGUMENT);
    check_hit(w, (double[2]){9.0, 5.0}, (double[2]){4.0, 0.0}, 0.5, 1.5 / 4.0, -1.0,
              (double[2]){11.0, 5.0});
    check_hit(w, (double[2]){9.0, 5.0}, (double[2]){45.0, 0.0}, 0.5, 1.5 / 45.0, -1.0,
              (double[2]){11.0, 5.0});
    check_hit(w, (double[2]){23.0, 5.0}, (double[2]){-4.0, 0.0}, 0.5, 1.5 / 4.0, 1.0,
              (double[2]){21.0, 5.0});
    check_hit(w, (double[2]){0.2, 5.0}, (double[2]){-12.0, 0.0}, 0.25, 8.95 / 12.0, 1.0,
              (double[2]){-9.0, 5.0});
    carom_world_free(w);
    int hits = 0;
    for (int trial = 0; trial < 300; trial++) {
        double s[4], o[2], m[2], r = 0.05 + 0.4 * unit_random();
        for (int k = 0; k < 4; k++)
            s[k] = BOX * unit_random();
        double u = unit_random();
        for (int k = 0; k < 2; k++) {
            o[k] = k == 0 ? 3.0 * BOX * (unit_random() - 0.5) : BOX * unit_random();
            double aim = s[k] + u * (s[k + 2] - s[k]) + ((int)(3.0 * unit_random()) - 1) * BOX;
            m[k] = (aim - o[k]) * (1.0 + 0.3 * unit_random()) + (unit_random() - 0.5);
        }
        carom_world *one = box_world(3, 0.0, NULL, NULL);
        CHECK_OK(carom_world_add_segment(one, s, s + 2, NULL));
        carom_cast cast = {{o[0], o[1], 0.0}, {m[0], m[1], 0.0}, r, CAROM_QUERY_NO_SPHERE};
        carom_cast_hit hit;
        int found = 0;
        CHECK_OK(carom_world_cast_sphere(one, &cast, &hit, &found));
        carom_world_free(one);
        double ref =
            reference_contact(s, 3, o, m, 0.0, r, found ? hit.fraction * 1.001 + 1e-9 : 1.0, 20000);
        if (!found) {
            CHECK(ref == INFINITY);
            continue;
        }
        CHECK(hit.kind == CAROM_CONTACT_SEGMENT && hit.wall == 0);
        if (hit.fraction == 0.0)
            continue; /* started overlapping */
        hits++;
        CHECK(fabs(image_distance(s, hit.position, 3) - r) < 1e-9 * r);
        if (ref < INFINITY)
            CHECK_NEAR(hit.fraction, ref, 1e-9);
    }
    fprintf(stderr, "  periodic casts: %d hits\n", hits);
    CHECK(hits > 100);
}

/* ---- a gas over a periodic zigzag floor --------------------------------- */

typedef struct floor_log {
    carom_world *w;
    long contacts;
    double worst;
} floor_log;

static void on_floor_contact(void *user, carom_contact *c)
{
    floor_log *f = user;
    if (c->kind != CAROM_CONTACT_SEGMENT)
        return;
    carom_sphere_state st;
    double s[4];
    CHECK_OK(carom_world_get_sphere(f->w, c->i, &st));
    CHECK_OK(carom_world_get_segment(f->w, (uint32_t)c->wall, s, s + 2));
    double d = image_distance(s, st.position, 1);
    f->contacts++;
    f->worst = fmax(f->worst, fabs(d - st.radius) / st.radius);
}

static void check_floor(carom_neighbours neighbours, double gy)
{
    floor_log f = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = BOX;
    def.boundary[0] = CAROM_BOUNDARY_PERIODIC;
    def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.gravity[1] = gy;
    def.neighbours = neighbours;
    def.on_contact = on_floor_contact;
    def.user_data = &f;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    f.w = w;
    int n = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double x[2] = {0.3 + 0.625 * i, 4.0 + 0.7 * j};
            double v[2] = {3.0 * sin(3.1 * n), 3.0 * cos(1.7 * n)};
            add(w, x, v, 0.25);
            n++;
        }
    for (int k = 0; k < 8; k++) { /* heights 2 and 3 alternately, seamless */
        double a[2] = {k * BOX / 8.0, k % 2 ? 3.0 : 2.0};
        double b[2] = {(k + 1) * BOX / 8.0, k % 2 ? 2.0 : 3.0};
        CHECK_OK(carom_world_add_segment(w, a, b, NULL));
    }
    double e0 = carom_world_kinetic_energy(w);
    int quick = getenv("CAROM_TEST_QUICK") != NULL, samples = quick ? 100 : 400;
    double worst = INFINITY, span = quick ? 2.0 : 8.0;
    for (int m = 1; m <= samples; m++) {
        CHECK_OK(carom_world_advance_to(w, span * m / samples));
        for (carom_sphere_id id = 0; id < (carom_sphere_id)n; id++) {
            carom_sphere_state st;
            CHECK_OK(carom_world_get_sphere(w, id, &st));
            for (uint32_t g = 0; g < 8; g++) {
                double s[4];
                CHECK_OK(carom_world_get_segment(w, g, s, s + 2));
                worst = fmin(worst, image_distance(s, st.position, 1) / st.radius - 1.0);
            }
        }
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    fprintf(stderr,
            "  floor %s g %g: %d disks, %llu collisions, %ld segment contacts, nearest "
            "approach %.2e, contact distance off by %.1e\n",
            neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", gy, n,
            (unsigned long long)st.collisions, f.contacts, worst, f.worst);
    CHECK(worst > -1e-9);
    CHECK(f.worst < 1e-9);
    CHECK(f.contacts > (quick ? 30 : 100));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    if (gy == 0.0)
        CHECK_REL(carom_world_kinetic_energy(w), e0, 1e-12);
    carom_world_free(w);
}

static void test_floor(void)
{
    check_floor(CAROM_NEIGHBOURS_CELLS, -10.0);
    check_floor(CAROM_NEIGHBOURS_LISTS, -10.0);
    check_floor(CAROM_NEIGHBOURS_CELLS, 0.0);
    check_floor(CAROM_NEIGHBOURS_LISTS, 0.0);
}

static void test_overlaps(void)
{
    const double s[4] = {0.1, 2.0, 0.1, 8.0}, clear[4] = {5.0, 2.0, 5.0, 8.0};
    const double x[2] = {9.8, 5.0}, still[2] = {0.0, 0.0};
    carom_world *w = box_world(1, 0.0, NULL, NULL);
    add(w, x, still, 0.5);
    CHECK(carom_world_add_segment(w, s, s + 2, NULL) == CAROM_ERR_OVERLAP);
    CHECK(strstr(carom_world_error_message(w), "segment 0") != NULL);
    CHECK(carom_world_segment_count(w) == 0);
    carom_world_free(w);
    w = box_world(1, 0.0, NULL, NULL);
    CHECK_OK(carom_world_add_segment(w, clear, clear + 2, NULL));
    CHECK_OK(carom_world_add_segment(w, s, s + 2, NULL));
    add(w, x, still, 0.5);
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_OVERLAP);
    CHECK(strstr(carom_world_error_message(w), "segment 1") != NULL);
    carom_world_free(w);
    contact_log log = {0};
    w = box_world(1, 0.0, log_contact, &log);
    add(w, (double[2]){9.5, 5.0}, (double[2]){1.0, 0.0}, 0.5);
    CHECK_OK(carom_world_add_segment(w, clear, clear + 2, NULL));
    CHECK_OK(carom_world_add_segment(w, s, s + 2, NULL));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(log.n >= 1 && log.first.kind == CAROM_CONTACT_SEGMENT && log.first.wall == 1);
    CHECK_NEAR(log.first.time, 0.1, 1e-12);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_random_flights);
    RUN(test_casts);
    RUN(test_floor);
    RUN(test_overlaps);
    return CHECK_REPORT();
}
