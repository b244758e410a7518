/* Fixed triangles in worlds with periodic axes (carom_world_add_triangle
 * stores a triangle's images across them): the test's own distance to
 * the nearest image, against what the world does.
 *
 * - Random flights, periodic along x and y (walls along z, gravity along
 *   -z in half of them), aimed at the triangle's image one box over (or
 *   at the triangle), give or take: the first triangle
 *   contact the world reports is the first time the test's distance from
 *   the centre (wrapped into the box, then the nearest of the triangle
 *   moved by -L, 0, +L along each periodic axis) comes down to the
 *   radius, found by sampling and bisection; the contact names the index
 *   the triangle was given (0, though nine copies are stored), the
 *   distance is then the radius, and no triangle contact is missed.
 * - Casts: closed forms across the boundary (the image hit first, a cast
 *   spanning several boxes, the given index, normal and point), and
 *   random casts against the same sampled distance.
 * - A seamless bumpy floor of 32 triangles tiling a periodic 10 x 10
 *   square (its edges on the boundary shared with the far side's), under
 *   a gas with and without gravity, cells and neighbour lists: no centre
 *   ever nearer to a triangle's nearest image than its radius, every
 *   triangle contact at one radius of the named triangle, energy kept
 *   when elastic without gravity.
 * - Counts and indices: carom_world_triangle_count and
 *   carom_world_get_triangle give the triangles as given; overlaps
 *   through the boundary are refused both ways, naming the given index. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "check.h"
#include "triangle_reference.h"

#define BOX 10.0

static unsigned seed_state = 2024;

static double unit_random(void)
{
    seed_state = seed_state * 1664525u + 1013904223u;
    return (seed_state >> 8) / 16777216.0;
}

/* The test's distance from x (anywhere) to the nearest image of triangle
 * p, periodic along the axes of `periodic` (bit k). */
static double image_distance(const double p[3][3], const double x[3], unsigned periodic)
{
    double y[3], best = INFINITY;
    for (int k = 0; k < 3; k++)
        y[k] = (periodic >> k) & 1 ? x[k] - BOX * floor(x[k] / BOX) : x[k];
    for (int c = 0; c < 27; c++) {
        int step[3] = {c % 3 - 1, c / 3 % 3 - 1, c / 9 - 1};
        double z[3];
        int fits = 1;
        for (int k = 0; k < 3; k++) {
            fits &= step[k] == 0 || ((periodic >> k) & 1);
            z[k] = y[k] + step[k] * BOX;
        }
        if (fits)
            best = fmin(best, distance_to_triangle(p, z));
    }
    return best;
}

static void position_at(const double x[3], const double v[3], double gz, double t, double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = x[k] + t * v[k] + (k == 2 ? 0.5 * gz * t * t : 0.0);
}

/* The first time in [0, horizon] the distance comes below r, by `samples`
 * samples and bisection; INFINITY if none. */
static double reference_contact(const double p[3][3], unsigned periodic, const double x[3],
                                const double v[3], double gz, double r, double horizon,
                                int samples)
{
    double lo = 0.0, y[3];
    for (int m = 1; m <= samples; m++) {
        double t = horizon * m / samples;
        position_at(x, v, gz, t, y);
        if (image_distance(p, y, periodic) < r) {
            double hi = t;
            for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
                double mid = 0.5 * (lo + hi);
                position_at(x, v, gz, mid, y);
                if (image_distance(p, y, periodic) < r)
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

static carom_world *box_world(unsigned periodic, double gz, carom_contact_fn on_contact,
                              void *user)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = BOX;
        def.boundary[k] = (periodic >> k) & 1 ? CAROM_BOUNDARY_PERIODIC : CAROM_BOUNDARY_WALLS;
    }
    def.gravity[2] = gz;
    def.on_contact = on_contact;
    def.user_data = user;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static carom_sphere_id add(carom_world *w, const double x[3], const double v[3], double r)
{
    carom_sphere_def sd = carom_sphere_default_def();
    memcpy(sd.position, x, sizeof sd.position);
    memcpy(sd.velocity, v, sizeof sd.velocity);
    sd.radius = r;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &sd, &id));
    return id;
}

static void random_triangle(double p[3][3])
{
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++)
            p[k][m] = BOX * unit_random();
}

static void test_random_flights(void)
{
    const unsigned periodic = 3; /* x and y */
    int compared = 0, found = 0, crossed = 0;
    double worst_time = 0.0, worst_distance = 0.0;
    for (int trial = 0; trial < 400; trial++) {
        double p[3][3], x[3], v[3], r = 0.1 + 0.5 * unit_random();
        double gz = trial % 2 ? -2.0 * unit_random() : 0.0;
        random_triangle(p);
        for (int k = 0; k < 3; k++)
            x[k] = k == 2 ? 1.0 + 8.0 * unit_random() : BOX * unit_random();
        if (image_distance(p, x, periodic) < 1.05 * r)
            continue;
        /* Aimed at a random point of the triangle's image one box over
         * along x or y (or both), give or take. */
        double a = unit_random(), b = unit_random() * (1.0 - a), aim[3];
        int over[3] = {(int)(3.0 * unit_random()) - 1, (int)(3.0 * unit_random()) - 1, 0};
        double duration = 1.0 + 2.0 * unit_random();
        for (int k = 0; k < 3; k++) {
            aim[k] = p[0][k] + a * (p[1][k] - p[0][k]) + b * (p[2][k] - p[0][k]) + over[k] * BOX;
            v[k] = (aim[k] - x[k]) / duration + (unit_random() - 0.5);
        }
        contact_log log = {0};
        carom_world *w = box_world(periodic, gz, log_contact, &log);
        add(w, x, v, r);
        uint32_t index = 99;
        CHECK_OK(carom_world_add_triangle(w, p[0], p[1], p[2], &index));
        CHECK(index == 0 && carom_world_triangle_count(w) == 1);
        double t = 0.0;
        while (log.n == 0 && t < 4.0) {
            t += 0.25;
            CHECK_OK(carom_world_advance_to(w, t));
        }
        carom_world_free(w);
        double horizon = log.n ? log.first.time : 4.0;
        double ref = reference_contact((const double(*)[3])p, periodic, x, v, gz, r,
                                       horizon * 1.001, 40000);
        if (log.n == 0 || log.first.kind != CAROM_CONTACT_TRIANGLE) {
            CHECK(!(ref < horizon * (1.0 - 1e-9))); /* a wall first, or nothing */
            continue;
        }
        compared++;
        CHECK(log.first.wall == 0);
        double y[3];
        position_at(x, v, gz, log.first.time, y);
        crossed += y[0] < 0.0 || y[0] >= BOX || y[1] < 0.0 || y[1] >= BOX;
        double d = image_distance((const double(*)[3])p, y, periodic);
        worst_distance = fmax(worst_distance, fabs(d - r) / r);
        CHECK(fabs(d - r) < 1e-9 * r);
        if (ref < INFINITY) {
            found++;
            worst_time = fmax(worst_time, fabs(ref - log.first.time));
            CHECK_NEAR(log.first.time, ref, 1e-9 * fmax(1.0, ref));
        }
    }
    fprintf(stderr,
            "  periodic flights: %d triangle contacts (%d after crossing the box), %d found by "
            "sampling, times within %.1e, distances within %.1e\n",
            compared, crossed, found, worst_time, worst_distance);
    CHECK(compared > 150 && crossed > 50 && found > compared * 9 / 10);
}

/* ---- casts ---------------------------------------------------------------- */

static void check_hit(carom_world *w, const double origin[3], const double motion[3], double r,
                      double fraction, const double normal[3], const double point[3])
{
    carom_cast cast = {{origin[0], origin[1], origin[2]},
                       {motion[0], motion[1], motion[2]},
                       r,
                       CAROM_QUERY_NO_SPHERE};
    carom_cast_hit hit;
    int found = 0;
    CHECK_OK(carom_world_cast_sphere(w, &cast, &hit, &found));
    CHECK(found && hit.kind == CAROM_CONTACT_TRIANGLE && hit.wall == 1);
    CHECK_NEAR(hit.fraction, fraction, 1e-12);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(hit.normal[k], normal[k], 1e-12);
        CHECK_NEAR(hit.point[k], point[k], 1e-10);
    }
}

static void test_casts(void)
{
    carom_world *w = box_world(1, 0.0, NULL, NULL); /* periodic along x */
    const double far[3][3] = {{5.0, 0.5, 0.5}, {5.0, 1.5, 0.5}, {5.0, 1.0, 1.5}};
    CHECK_OK(carom_world_add_triangle(w, far[0], far[1], far[2], NULL));
    /* A wall at x = 1, facing both ways: given index 1. */
    const double wall[3][3] = {{1.0, 2.0, 2.0}, {1.0, 8.0, 2.0}, {1.0, 5.0, 8.0}};
    uint32_t index = 0;
    CHECK_OK(carom_world_add_triangle(w, wall[0], wall[1], wall[2], &index));
    CHECK(index == 1 && carom_world_triangle_count(w) == 2);
    double got[3][3];
    CHECK_OK(carom_world_get_triangle(w, 1, got[0], got[1], got[2]));
    CHECK(memcmp(got, wall, sizeof got) == 0);
    CHECK(carom_world_get_triangle(w, 2, got[0], got[1], got[2]) == CAROM_ERR_INVALID_ARGUMENT);
    /* From x = 9 going +x: the image at x = 11, the centre stopping at 10.5. */
    const double minus_x[3] = {-1.0, 0.0, 0.0}, plus_x[3] = {1.0, 0.0, 0.0};
    check_hit(w, (double[3]){9.0, 5.0, 4.0}, (double[3]){4.0, 0.0, 0.0}, 0.5, 1.5 / 4.0, minus_x,
              (double[3]){11.0, 5.0, 4.0});
    /* The same across four and a half boxes (cut into pieces). */
    check_hit(w, (double[3]){9.0, 5.0, 4.0}, (double[3]){45.0, 0.0, 0.0}, 0.5, 1.5 / 45.0,
              minus_x, (double[3]){11.0, 5.0, 4.0});
    /* From an origin two boxes over, going -x: the wall's image at x = 21. */
    check_hit(w, (double[3]){23.0, 5.0, 4.0}, (double[3]){-4.0, 0.0, 0.0}, 0.5, 1.5 / 4.0,
              plus_x, (double[3]){21.0, 5.0, 4.0});
    /* From x = 0.2 going -x: round the boundary, the wall's +x face at x = 1 - 10. */
    check_hit(w, (double[3]){0.2, 5.0, 4.0}, (double[3]){-12.0, 0.0, 0.0}, 0.25, 8.95 / 12.0,
              plus_x, (double[3]){-9.0, 5.0, 4.0});
    /* Random casts against the sampled distance to the nearest image. */
    int hits = 0;
    for (int trial = 0; trial < 300; trial++) {
        double p[3][3], o[3], m[3], r = 0.05 + 0.4 * unit_random();
        random_triangle(p);
        /* From anywhere in three boxes along x, through a random point
         * of the triangle or of an image, and on by up to a third. */
        double a = unit_random(), b = unit_random() * (1.0 - a);
        for (int k = 0; k < 3; k++) {
            o[k] = k == 0 ? 3.0 * BOX * (unit_random() - 0.5) : BOX * unit_random();
            double aim = p[0][k] + a * (p[1][k] - p[0][k]) + b * (p[2][k] - p[0][k]) +
                         ((int)(3.0 * unit_random()) - 1) * BOX;
            m[k] = (aim - o[k]) * (1.0 + 0.3 * unit_random()) + (unit_random() - 0.5);
        }
        carom_world *one = box_world(7, 0.0, NULL, NULL); /* periodic every way */
        CHECK_OK(carom_world_add_triangle(one, p[0], p[1], p[2], NULL));
        carom_cast cast = {{o[0], o[1], o[2]}, {m[0], m[1], m[2]}, r, CAROM_QUERY_NO_SPHERE};
        carom_cast_hit hit;
        int found = 0;
        CHECK_OK(carom_world_cast_sphere(one, &cast, &hit, &found));
        carom_world_free(one);
        double ref = reference_contact((const double(*)[3])p, 7, o, m, 0.0, r,
                                       found ? hit.fraction * 1.001 + 1e-9 : 1.0, 20000);
        if (!found) {
            CHECK(ref == INFINITY);
            continue;
        }
        CHECK(hit.kind == CAROM_CONTACT_TRIANGLE && hit.wall == 0);
        if (hit.fraction == 0.0)
            continue; /* started overlapping */
        hits++;
        CHECK(fabs(image_distance((const double(*)[3])p, hit.position, 7) - r) < 1e-9 * r);
        if (ref < INFINITY)
            CHECK_NEAR(hit.fraction, ref, 1e-9);
    }
    fprintf(stderr, "  periodic casts: %d hits\n", hits);
    CHECK(hits > 100);
    carom_world_free(w);
}

/* ---- a gas over a periodic floor --------------------------------------- */

typedef struct floor_log {
    carom_world *w;
    long contacts;
    double worst; /* relative error of a triangle contact's distance */
} floor_log;

static void on_floor_contact(void *user, carom_contact *c)
{
    floor_log *f = user;
    if (c->kind != CAROM_CONTACT_TRIANGLE)
        return;
    carom_sphere_state st;
    double p[3][3];
    CHECK_OK(carom_world_get_sphere(f->w, c->i, &st));
    CHECK_OK(carom_world_get_triangle(f->w, (uint32_t)c->wall, p[0], p[1], p[2]));
    double d = image_distance((const double(*)[3])p, st.position, 3);
    f->contacts++;
    f->worst = fmax(f->worst, fabs(d - st.radius) / st.radius);
}

/* Heights over a 4 x 4 grid of squares, periodic (row 4 is row 0). */
static double height(int i, int j)
{
    return 2.0 + 0.8 * sin(1.7 * (i % 4) + 0.9 * (j % 4) * (j % 4));
}

static void add_floor(carom_world *w)
{
    const double side = BOX / 4.0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double a[3] = {i * side, j * side, height(i, j)};
            double b[3] = {(i + 1) * side, j * side, height(i + 1, j)};
            double c[3] = {(i + 1) * side, (j + 1) * side, height(i + 1, j + 1)};
            double d[3] = {i * side, (j + 1) * side, height(i, j + 1)};
            CHECK_OK(carom_world_add_triangle(w, a, b, c, NULL));
            CHECK_OK(carom_world_add_triangle(w, a, c, d, NULL));
        }
}

static void check_floor(carom_neighbours neighbours, double gz)
{
    floor_log f = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = BOX;
        def.boundary[k] = k < 2 ? CAROM_BOUNDARY_PERIODIC : CAROM_BOUNDARY_WALLS;
    }
    def.gravity[2] = gz;
    def.neighbours = neighbours;
    def.on_contact = on_floor_contact;
    def.user_data = &f;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    f.w = w;
    int n = 0;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++)
            for (int k = 0; k < 4; k++) {
                double x[3] = {0.4 + 0.8 * i, 0.4 + 0.8 * j, 4.0 + 1.2 * k};
                double v[3] = {4.0 * sin(3.1 * n), 4.0 * cos(1.7 * n), 2.0 * sin(0.7 * n)};
                add(w, x, v, 0.3);
                n++;
            }
    add_floor(w);
    CHECK(carom_world_triangle_count(w) == 32);
    double e0 = carom_world_kinetic_energy(w);
    int quick = getenv("CAROM_TEST_QUICK") != NULL, samples = quick ? 60 : 240;
    double worst = INFINITY, span = quick ? 2.0 : 8.0;
    for (int m = 1; m <= samples; m++) {
        CHECK_OK(carom_world_advance_to(w, span * m / samples));
        for (carom_sphere_id id = 0; id < (carom_sphere_id)n; id++) {
            carom_sphere_state st;
            CHECK_OK(carom_world_get_sphere(w, id, &st));
            for (uint32_t g = 0; g < 32; g++) {
                double p[3][3];
                CHECK_OK(carom_world_get_triangle(w, g, p[0], p[1], p[2]));
                double d = image_distance((const double(*)[3])p, st.position, 3);
                worst = fmin(worst, d / st.radius - 1.0);
            }
        }
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    fprintf(stderr,
            "  floor %s g %g: %d spheres, %llu collisions, %ld triangle contacts, nearest "
            "approach %.2e, contact distance off by %.1e\n",
            neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", gz, n,
            (unsigned long long)st.collisions, f.contacts, worst, f.worst);
    CHECK(worst > -1e-9);
    CHECK(f.worst < 1e-9);
    CHECK(f.contacts > (quick ? 50 : 200));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    if (gz == 0.0)
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

/* ---- overlaps through the boundary ----------------------------------- */

static void test_overlaps(void)
{
    const double p[3][3] = {{0.1, 2.0, 2.0}, {0.1, 8.0, 2.0}, {0.1, 5.0, 8.0}};
    const double x[3] = {9.8, 5.0, 4.0}, v[3] = {0.0, 0.0, 0.0};
    /* A triangle onto a sphere 0.3 away through the boundary. */
    carom_world *w = box_world(1, 0.0, NULL, NULL);
    add(w, x, v, 0.5);
    CHECK(carom_world_add_triangle(w, p[0], p[1], p[2], NULL) == CAROM_ERR_OVERLAP);
    CHECK(strstr(carom_world_error_message(w), "triangle 0") != NULL);
    CHECK(carom_world_triangle_count(w) == 0);
    carom_world_free(w);
    /* A sphere onto the triangle's image. */
    w = box_world(1, 0.0, NULL, NULL);
    const double clear[3][3] = {{5.0, 2.0, 2.0}, {5.0, 8.0, 2.0}, {5.0, 5.0, 8.0}};
    CHECK_OK(carom_world_add_triangle(w, clear[0], clear[1], clear[2], NULL));
    CHECK_OK(carom_world_add_triangle(w, p[0], p[1], p[2], NULL));
    carom_sphere_def sd = carom_sphere_default_def();
    memcpy(sd.position, x, sizeof sd.position);
    sd.radius = 0.5;
    CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_OVERLAP);
    CHECK(strstr(carom_world_error_message(w), "triangle 1") != NULL);
    carom_world_free(w);
    /* Clear by 0.1 through the boundary: taken, and met when pushed. */
    contact_log log = {0};
    w = box_world(1, 0.0, log_contact, &log);
    const double push[3] = {1.0, 0.0, 0.0};
    add(w, (double[3]){9.5, 5.0, 4.0}, push, 0.5);
    CHECK_OK(carom_world_add_triangle(w, clear[0], clear[1], clear[2], NULL));
    CHECK_OK(carom_world_add_triangle(w, p[0], p[1], p[2], NULL));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(log.n >= 1 && log.first.kind == CAROM_CONTACT_TRIANGLE && log.first.wall == 1);
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
