/* Fixed triangles (carom_world_add_triangle, 3D): closed forms, an
 * independent reference for random flights and casts, many spheres,
 * refusals.
 *
 * - Closed forms: a sphere dropped onto the face meets it when the fall
 *   says; one dropped beside an edge (clear by 0.1) falls past; one
 *   moving up hits the underside; one rolling in at the height 0.3 over
 *   the plane meets an edge at a distance of one radius and leaves along
 *   the edge's normal; one dropped beside a corner meets the corner (a
 *   quartic); one thrown up from under the plane beside the triangle
 *   comes down on its top face (the far face); one thrown up under an
 *   edge's line beyond its end passes the line, and meets the edge on its
 *   way down (a cylinder entered twice).
 * - Random flights, with and without gravity: the first contact the
 *   world reports is the first time the test's own distance to the
 *   triangle (the nearest point by regions, written here) comes down to
 *   the radius, found by sampling and bisection; the contact is at one
 *   radius; no sample before it is nearer.
 * - Random casts against a triangle: the same reference along the cast.
 * - A funnel of triangles: spheres fall through it under gravity (cells
 *   and neighbour lists), and an elastic gas among the same triangles:
 *   every sphere always at least its radius from every triangle, every
 *   triangle contact at one radius, energy kept (elastic gas).
 * - Growing spheres at rest touch a face, an edge and a corner when their
 *   radius reaches them.
 * - Refusals: 2D, corners outside the box, no area, NULL, a sphere
 *   overlapping.
 * Driven spheres: test_triangles_driven.c; periodic axes:
 * test_triangles_periodic.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "check.h"
#include "triangle_reference.h"

/* ---- worlds ------------------------------------------------------------- */

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

static carom_world *logged_world(double box, double gz, contact_log *log)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = box;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    def.gravity[2] = gz;
    def.on_contact = log_contact;
    def.user_data = log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static carom_sphere_id add(carom_world *w, const double x[3], const double v[3], double r)
{
    carom_sphere_def s = carom_sphere_default_def();
    memcpy(s.position, x, sizeof s.position);
    memcpy(s.velocity, v, sizeof s.velocity);
    s.radius = r;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    return id;
}

static void triangle(carom_world *w, const double p[3][3])
{
    CHECK_OK(carom_world_add_triangle(w, p[0], p[1], p[2], NULL));
}

/* The one triangle of the closed forms: z = 2, corners (3, 3), (8, 3),
 * (3, 8). */
static const double flat[3][3] = {{3.0, 3.0, 2.0}, {8.0, 3.0, 2.0}, {3.0, 8.0, 2.0}};

/* One sphere against `tri` in a 10-box: the first contact, which must be
 * with the triangle, at time t, leaving at velocity `after` (NULL: not
 * checked). */
static void check_first(const double tri[3][3], double gz, const double x[3], const double v[3],
                        double t, const double after[3], double tol)
{
    contact_log log = {0};
    carom_world *w = logged_world(10.0, gz, &log);
    add(w, x, v, 0.5);
    triangle(w, tri);
    CHECK_OK(carom_world_advance_to(w, t + 1e-3));
    CHECK(log.n >= 1 && log.c[0].kind == CAROM_CONTACT_TRIANGLE && log.c[0].wall == 0);
    CHECK_NEAR(log.c[0].time, t, tol);
    if (after)
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(log.c[0].velocity_after[0][k], after[k], 1e-9);
    carom_world_free(w);
}

/* ---- closed forms ------------------------------------------------------- */

static void test_faces(void)
{
    /* Dropped from z = 6 onto the face: it falls 3.5, t = sqrt(7), and
     * comes back up at the speed it fell. */
    const double still[3] = {0.0, 0.0, 0.0};
    const double over[3] = {4.0, 4.0, 6.0}, up[3] = {0.0, 0.0, sqrt(7.0)};
    check_first(flat, -1.0, over, still, sqrt(7.0), up, 1e-12);
    /* Moving up from z = 0.7 at speed 1 under the face: meets it at 0.8. */
    const double under[3] = {4.0, 4.0, 0.7}, rise[3] = {0.0, 0.0, 1.0}, fall[3] = {0.0, 0.0, -1.0};
    check_first(flat, 0.0, under, rise, 0.8, fall, 1e-12);
    /* Beside the edge x + y = 11, clear of it by 0.1: falls past to the
     * floor. */
    contact_log log = {0};
    carom_world *w = logged_world(10.0, -1.0, &log);
    double beside[3] = {5.5 + 0.6 / sqrt(2.0), 5.5 + 0.6 / sqrt(2.0), 6.0};
    add(w, beside, still, 0.5);
    triangle(w, flat);
    CHECK_OK(carom_world_advance_to(w, sqrt(11.0) + 1e-3));
    CHECK(log.n == 1 && log.c[0].kind == CAROM_CONTACT_WALL);
    CHECK_NEAR(log.c[0].time, sqrt(11.0), 1e-12);
    carom_world_free(w);
}

static void test_edge_and_corner(void)
{
    /* At height 0.3 over the plane, moving +y towards the edge y = 3 from
     * outside: the centre is one radius from the edge's line at y = 2.6
     * (0.4 across, 0.3 up), t = 1.6; the normal (0, -0.8, 0.6) turns the
     * velocity (0, 1, 0) into (0, -0.28, 0.96). */
    const double x[3] = {5.0, 1.0, 2.3}, v[3] = {0.0, 1.0, 0.0};
    const double after[3] = {0.0, -0.28, 0.96};
    check_first(flat, 0.0, x, v, 1.6, after, 1e-12);
    /* Dropped at (2.7, 2.7), beside the corner (3, 3): it meets the
     * corner when (z - 2)^2 = 0.25 - 0.18, after falling 4 - sqrt(0.07). */
    const double still[3] = {0.0, 0.0, 0.0}, high[3] = {2.7, 2.7, 6.0};
    check_first(flat, -1.0, high, still, sqrt(2.0 * (4.0 - sqrt(0.07))), NULL, 1e-12);
    /* Straight at the corner along the diagonal from (2, 2, 2). */
    const double low[3] = {2.0, 2.0, 2.0}, diag[3] = {sqrt(0.5), sqrt(0.5), 0.0};
    const double back[3] = {-sqrt(0.5), -sqrt(0.5), 0.0};
    check_first(flat, 0.0, low, diag, sqrt(2.0) - 0.5, back, 1e-12);
}

/* The far face: from (1, 4, 1), under the plane beside the triangle,
 * thrown up at (0.6, 0, 3) under gravity 1, it passes the edge x = 3
 * high above (z > 5 there) and comes down on the top face when z = 2.5:
 * t = 3 + sqrt(6), at x = 4.27. Its first upcrossing of the near face
 * (below) is beside the triangle. */
static void test_far_face(void)
{
    const double x[3] = {1.0, 4.0, 1.0}, v[3] = {0.6, 0.0, 3.0};
    const double t = 3.0 + sqrt(6.0);
    const double after[3] = {0.6, 0.0, -(3.0 - t)};
    check_first(flat, -1.0, x, v, t, after, 1e-11);
}

/* The second entry into an edge's cylinder: a triangle standing in the
 * plane y = 3, its top edge along x at z = 2 from x = 3 to 8. From (1,
 * 3.3, 1), thrown at (1, 0, 2.5) under gravity 1, the centre rises
 * through the cylinder |(y, z) - (3, 2)| < 0.5 at x < 2 (beyond the
 * edge's end), leaves it above, and comes down into it at z = 2.4 when
 * t^2 - 5 t + 2.8 = 0, alongside the edge (x = 5.36): the contact. */
static void test_edge_twice(void)
{
    const double tri[3][3] = {{3.0, 3.0, 2.0}, {8.0, 3.0, 2.0}, {5.5, 3.0, 0.5}};
    const double x[3] = {1.0, 3.3, 1.0}, v[3] = {1.0, 0.0, 2.5};
    double t = (5.0 + sqrt(13.8)) / 2.0;
    /* Normal (0, 0.6, 0.8), velocity then (1, 0, 2.5 - t). */
    double vz = 2.5 - t, vn = 0.8 * vz;
    const double after[3] = {1.0, -2.0 * vn * 0.6, vz - 2.0 * vn * 0.8};
    check_first(tri, -1.0, x, v, t, after, 1e-11);
}

/* Head-on at each corner along the line from the centroid through it
 * (the triangle's farthest points from its centroid), from many
 * distances: the contact comes after (distance - r) / speed. A sphere
 * touching there is farther from the centroid than any point of the
 * triangle, which the world's first test of reach must allow for. */
static void test_corners_head_on(void)
{
    const double tri[3][3] = {{7.0, 8.0, 7.0}, {13.0, 8.5, 7.5}, {9.0, 13.0, 6.5}};
    double centre[3];
    for (int m = 0; m < 3; m++)
        centre[m] = (tri[0][m] + tri[1][m] + tri[2][m]) / 3.0;
    int checked = 0;
    for (int k = 0; k < 3; k++) {
        double out[3], len = 0.0;
        for (int m = 0; m < 3; m++) {
            out[m] = tri[k][m] - centre[m];
            len += out[m] * out[m];
        }
        len = sqrt(len);
        for (int m = 0; m < 3; m++)
            out[m] /= len;
        for (int j = 1; j <= 60; j++) {
            double d0 = 0.5 + 0.025 * j, speed = 0.3 + 0.05 * j;
            double x[3], v[3];
            for (int m = 0; m < 3; m++) {
                x[m] = tri[k][m] + d0 * out[m];
                v[m] = -speed * out[m];
            }
            contact_log log = {0};
            carom_world *w = logged_world(20.0, 0.0, &log);
            add(w, x, v, 0.5);
            triangle(w, tri);
            double t = (d0 - 0.5) / speed;
            CHECK_OK(carom_world_advance_to(w, t + 1e-3));
            CHECK(log.n >= 1 && log.c[0].kind == CAROM_CONTACT_TRIANGLE);
            CHECK_NEAR(log.c[0].time, t, 1e-12);
            checked++;
            carom_world_free(w);
        }
    }
    CHECK(checked == 180);
}

static void test_growing(void)
{
    /* At rest, radius 0.5 growing at rate 1 (r = 0.5 (1 + t)): over the
     * face 1.5 up (t = 2), beside the edge y = 3 at (5, 2, 2.75) (t = 1.5
     * for 1.25 = sqrt(1 + 0.5625)), beside the corner at (2, 2, 2)
     * (distance sqrt 2). */
    const double places[3][3] = {{4.0, 4.0, 3.5}, {5.0, 2.0, 2.75}, {2.0, 2.0, 2.0}};
    const double times[3] = {2.0, 1.5, 2.0 * sqrt(2.0) - 1.0};
    const double still[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 3; k++) {
        contact_log log = {0};
        carom_world *w = logged_world(10.0, 0.0, &log);
        add(w, places[k], still, 0.5);
        triangle(w, flat);
        CHECK_OK(carom_world_set_growth(w, 1.0));
        CHECK_OK(carom_world_advance_to(w, times[k] + 1e-3));
        CHECK(log.n >= 1 && log.c[0].kind == CAROM_CONTACT_TRIANGLE);
        CHECK_NEAR(log.c[0].time, times[k], 1e-12);
        carom_world_free(w);
    }
}

/* ---- random flights against the reference -------------------------------- */

static double unit_random(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (*state >> 8) / 16777216.0;
}

static void position_at(const double x[3], const double v[3], const double g[3], double t,
                        double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = x[k] + t * (v[k] + 0.5 * g[k] * t);
}

/* The test's distance from x to the nearest of count triangles. */
static double nearest_distance(const double (*tris)[3][3], int count, const double x[3])
{
    double d = INFINITY;
    for (int q = 0; q < count; q++)
        d = fmin(d, distance_to_triangle(tris[q], x));
    return d;
}

/* The reference's first contact in [0, horizon] with any of count
 * triangles: samples of the distance less r, bisected where it first
 * goes below 0; INFINITY if none. */
static double reference_contact(const double (*tris)[3][3], int count, const double x[3],
                                const double v[3], const double g[3], double r, double horizon,
                                int samples)
{
    double lo = 0.0;
    for (int m = 1; m <= samples; m++) {
        double t = horizon * m / samples, y[3];
        position_at(x, v, g, t, y);
        if (nearest_distance(tris, count, y) < r) {
            double hi = t;
            for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
                double mid = 0.5 * (lo + hi);
                position_at(x, v, g, mid, y);
                if (nearest_distance(tris, count, y) < r)
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

/* One sphere (centre x, velocity v, radius r, under gravity g) in a
 * walled 20-box with count triangles, up to its first contact of any
 * kind (or t = 8), its contacts into *log. */
static void fly_to_first_contact(const double (*tris)[3][3], int count, const double x[3],
                                 const double v[3], const double g[3], double r, contact_log *log)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = 20.0;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
        def.gravity[k] = g[k];
    }
    def.on_contact = log_contact;
    def.user_data = log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    add(w, x, v, r);
    for (int q = 0; q < count; q++)
        triangle(w, tris[q]);
    double t = 0.0;
    while (log->n == 0 && t < 8.0) {
        t += 0.25;
        CHECK_OK(carom_world_advance_to(w, t));
    }
    carom_world_free(w);
}

static void random_triangle(unsigned *seed, double tri[3][3])
{
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++)
            tri[k][m] = 6.0 + 8.0 * unit_random(seed);
}

static void test_random_flights(void)
{
    unsigned seed = 12345;
    int compared = 0, found = 0, with_gravity = 0;
    double worst_time = 0.0, worst_distance = 0.0;
    for (int trial = 0; trial < 600; trial++) {
        double tri[3][3], x[3], v[3], g[3] = {0.0, 0.0, 0.0}, r = 0.1 + 0.6 * unit_random(&seed);
        random_triangle(&seed, tri);
        for (int k = 0; k < 3; k++)
            x[k] = 2.0 + 16.0 * unit_random(&seed);
        if (distance_to_triangle(tri, x) < 1.05 * r)
            continue;
        /* Aimed at a random point of the triangle, give or take. */
        double a = unit_random(&seed), b = unit_random(&seed) * (1.0 - a);
        for (int k = 0; k < 3; k++) {
            double aim = tri[0][k] + a * (tri[1][k] - tri[0][k]) + b * (tri[2][k] - tri[0][k]);
            v[k] = aim - x[k] + 2.0 * (unit_random(&seed) - 0.5);
        }
        int falls = trial % 2;
        if (falls) {
            g[2] = -2.0 * unit_random(&seed);
            g[0] = 0.5 * (unit_random(&seed) - 0.5);
            v[2] += 2.0;
        }
        contact_log log = {0};
        fly_to_first_contact((const double(*)[3][3]) & tri, 1, x, v, g, r, &log);
        /* The reference samples a little past the world's contact, so
         * that its last sample lies inside. */
        double horizon = log.n ? log.c[0].time : 8.0;
        double ref =
            reference_contact((const double(*)[3][3]) & tri, 1, x, v, g, r, horizon * 1.001, 40000);
        if (log.n == 0 || log.c[0].kind != CAROM_CONTACT_TRIANGLE) {
            /* A wall first (or nothing): the reference finds no triangle
             * contact before it. */
            CHECK(!(ref < horizon * (1.0 - 1e-9)));
            continue;
        }
        compared++;
        with_gravity += falls;
        double y[3];
        position_at(x, v, g, log.c[0].time, y);
        double dist = distance_to_triangle((const double(*)[3])tri, y);
        worst_distance = fmax(worst_distance, fabs(dist - r) / r);
        CHECK(fabs(dist - r) < 1e-9 * r);
        if (ref < INFINITY) {
            found++;
            worst_time = fmax(worst_time, fabs(ref - log.c[0].time));
            CHECK_NEAR(log.c[0].time, ref, 1e-9 * fmax(1.0, ref));
        }
    }
    fprintf(stderr,
            "  random flights: %d triangle contacts (%d under gravity), %d found by sampling, "
            "times within %.1e, distances within %.1e\n",
            compared, with_gravity, found, worst_time, worst_distance);
    CHECK(compared > 250 && with_gravity > 100 && found > compared * 9 / 10);
}

/* A terrain of 3 x 3 squares (18 triangles sharing edges and corners,
 * heights 10 +- 1) hit by 600 flights aimed at it (from above and below,
 * half under gravity): the first contact's time agrees with the test's
 * own sampling of the distance to the nearest triangle, and the named
 * triangle is then at the radius. Each shared edge and corner is solved
 * for one triangle only (world_triangle_mesh.c): one left to no triangle,
 * or an outer edge taken for a shared one, fails here. */
enum { MESH_SQUARES = 3, MESH_TRIANGLES = 2 * MESH_SQUARES * MESH_SQUARES };

static void test_mesh_flights(void)
{
    unsigned seed = 2026;
    int compared = 0, with_gravity = 0, shared_named = 0;
    double worst = 0.0;
    for (int trial = 0; trial < 600; trial++) {
        double height[MESH_SQUARES + 1][MESH_SQUARES + 1], mesh[MESH_TRIANGLES][3][3];
        for (int i = 0; i <= MESH_SQUARES; i++)
            for (int j = 0; j <= MESH_SQUARES; j++)
                height[i][j] = 9.0 + 2.0 * unit_random(&seed);
        int q = 0;
        for (int i = 0; i < MESH_SQUARES; i++)
            for (int j = 0; j < MESH_SQUARES; j++) {
                const int corner[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
                const int cut[2][3] = {{0, 1, 2}, {0, 2, 3}};
                for (int half = 0; half < 2; half++, q++)
                    for (int k = 0; k < 3; k++) {
                        const int *c = corner[cut[half][k]];
                        mesh[q][k][0] = 6.0 + 8.0 * c[0] / MESH_SQUARES;
                        mesh[q][k][1] = 6.0 + 8.0 * c[1] / MESH_SQUARES;
                        mesh[q][k][2] = height[c[0]][c[1]];
                    }
            }
        double x[3], v[3], g[3] = {0.0, 0.0, 0.0}, r = 0.1 + 0.6 * unit_random(&seed);
        for (int k = 0; k < 3; k++)
            x[k] = 2.0 + 16.0 * unit_random(&seed);
        if (nearest_distance((const double(*)[3][3])mesh, MESH_TRIANGLES, x) < 1.05 * r)
            continue;
        /* Aimed at a corner or an edge's middle of a random triangle,
         * give or take, or anywhere near the terrain. */
        const double *aim_tri[3] = {mesh[trial % MESH_TRIANGLES][0],
                                    mesh[trial % MESH_TRIANGLES][1],
                                    mesh[trial % MESH_TRIANGLES][2]};
        for (int k = 0; k < 3; k++) {
            double aim = trial % 3 == 0   ? aim_tri[0][k]
                         : trial % 3 == 1 ? 0.5 * (aim_tri[1][k] + aim_tri[2][k])
                                          : 4.0 + 12.0 * unit_random(&seed);
            v[k] = aim - x[k] + (trial % 3 == 2 ? 0.3 : 0.02) * (unit_random(&seed) - 0.5);
        }
        int falls = trial % 2;
        if (falls) {
            g[2] = -2.0 * unit_random(&seed);
            v[2] += 1.0;
        }
        contact_log log = {0};
        fly_to_first_contact((const double(*)[3][3])mesh, MESH_TRIANGLES, x, v, g, r, &log);
        double horizon = log.n ? log.c[0].time : 8.0;
        double ref = reference_contact((const double(*)[3][3])mesh, MESH_TRIANGLES, x, v, g, r,
                                       horizon * 1.001, 20000);
        if (log.n == 0 || log.c[0].kind != CAROM_CONTACT_TRIANGLE) {
            CHECK(!(ref < horizon * (1.0 - 1e-9)));
            continue;
        }
        compared++;
        with_gravity += falls;
        double y[3];
        position_at(x, v, g, log.c[0].time, y);
        int named = log.c[0].wall;
        CHECK(named >= 0 && named < MESH_TRIANGLES);
        if (named < 0 || named >= MESH_TRIANGLES)
            continue;
        CHECK(fabs(distance_to_triangle((const double(*)[3])mesh[named], y) - r) < 1e-9 * r);
        /* Another triangle at the radius too: an edge or corner they share. */
        for (q = 0; q < MESH_TRIANGLES; q++)
            if (q != named &&
                fabs(distance_to_triangle((const double(*)[3])mesh[q], y) - r) < 1e-12 * r) {
                shared_named++;
                break;
            }
        CHECK(ref < INFINITY);
        worst = fmax(worst, fabs(ref - log.c[0].time));
        CHECK_NEAR(log.c[0].time, ref, 1e-9 * fmax(1.0, ref));
    }
    fprintf(stderr,
            "  mesh flights: %d triangle contacts (%d under gravity, %d on a shared edge or "
            "corner), times within %.1e\n",
            compared, with_gravity, shared_named, worst);
    CHECK(compared > 300 && with_gravity > 100 && shared_named > 30);
}

/* Casts: a sphere of random radius along a random segment, against the
 * reference's first contact along it (f in [0, 1]). */
static void test_random_casts(void)
{
    unsigned seed = 777;
    int hits = 0;
    double worst = 0.0;
    for (int trial = 0; trial < 1500; trial++) {
        double tri[3][3];
        random_triangle(&seed, tri);
        contact_log log = {0};
        carom_world *w = logged_world(20.0, 0.0, &log);
        triangle(w, (const double(*)[3])tri);
        carom_cast cast = {0};
        cast.radius = trial % 3 == 0 ? 0.0 : 0.05 + 0.8 * unit_random(&seed);
        cast.ignore = CAROM_QUERY_NO_SPHERE;
        for (int k = 0; k < 3; k++) {
            cast.origin[k] = 1.0 + 18.0 * unit_random(&seed);
            cast.motion[k] = 6.0 + 8.0 * unit_random(&seed) - cast.origin[k];
            cast.motion[k] *= 1.5 * unit_random(&seed) + 0.5;
        }
        int found = 0;
        carom_cast_hit hit;
        CHECK_OK(carom_world_cast_sphere(w, &cast, &hit, &found));
        carom_world_free(w);
        const double zero[3] = {0.0, 0.0, 0.0};
        double start = distance_to_triangle((const double(*)[3])tri, cast.origin);
        double ref = start < cast.radius
                         ? 0.0
                         : reference_contact((const double(*)[3][3]) & tri, 1, cast.origin,
                                             cast.motion, zero, fmax(cast.radius, 1e-300), 1.0,
                                             4000);
        int on_triangle = found && hit.kind == CAROM_CONTACT_TRIANGLE;
        if (cast.radius == 0.0 && !(start == 0.0)) {
            /* A ray: the reference cannot sample a distance of 0; check the
             * hit point lies on the triangle instead. */
            if (on_triangle) {
                hits++;
                CHECK(distance_to_triangle((const double(*)[3])tri, hit.position) < 1e-9);
            }
            continue;
        }
        if (ref <= 1.0) {
            CHECK(on_triangle);
            if (on_triangle) {
                hits++;
                worst = fmax(worst, fabs(hit.fraction - ref));
                CHECK_NEAR(hit.fraction, ref, 1e-9);
                double d = distance_to_triangle((const double(*)[3])tri, hit.position);
                CHECK(ref == 0.0 || fabs(d - cast.radius) < 1e-9 * cast.radius);
            }
        } else if (on_triangle) {
            /* A graze between the reference's samples, or a hit a wall
             * cut short: the hit is at one radius. */
            double d = distance_to_triangle((const double(*)[3])tri, hit.position);
            CHECK(fabs(d - cast.radius) < 1e-9 * fmax(cast.radius, 1.0));
        }
    }
    fprintf(stderr, "  random casts: %d hits, fractions within %.1e\n", hits, worst);
    CHECK(hits > 150);
}

/* ---- many spheres --------------------------------------------------------- */

typedef struct flight_log {
    const carom_world *w;
    long triangle_contacts;
    double worst_contact; /* |distance - radius| / radius at a contact */
} flight_log;

static void get_triangle(const carom_world *w, uint32_t g, double p[3][3])
{
    CHECK_OK(carom_world_get_triangle(w, g, p[0], p[1], p[2]));
}

static void on_contact(void *user, carom_contact *c)
{
    flight_log *f = user;
    if (c->kind != CAROM_CONTACT_TRIANGLE)
        return;
    carom_sphere_state st;
    if (carom_world_get_sphere(f->w, c->i, &st) != CAROM_OK)
        return;
    double p[3][3];
    get_triangle(f->w, (uint32_t)c->wall, p);
    double d = distance_to_triangle((const double(*)[3])p, st.position);
    f->triangle_contacts++;
    f->worst_contact = fmax(f->worst_contact, fabs(d - st.radius) / st.radius);
}

/* The nearest any centre comes to any triangle, less its radius,
 * relative (< 0: inside), over `samples` instants of [t0, t1]. */
static double nearest_approach(carom_world *w, double t0, double t1, int samples)
{
    double worst = INFINITY;
    size_t ntri = carom_world_triangle_count(w);
    for (int m = 1; m <= samples; m++) {
        CHECK_OK(carom_world_advance_to(w, t0 + (t1 - t0) * m / samples));
        for (size_t id = 0; id < carom_world_sphere_capacity(w); id++) {
            carom_sphere_state st;
            if (carom_world_get_sphere(w, (carom_sphere_id)id, &st) != CAROM_OK)
                continue;
            for (size_t g = 0; g < ntri; g++) {
                double p[3][3];
                get_triangle(w, (uint32_t)g, p);
                double d = distance_to_triangle((const double(*)[3])p, st.position);
                worst = fmin(worst, d / st.radius - 1.0);
            }
        }
    }
    return worst;
}

/* A square funnel in a 20-box: four sloping sides, each two triangles,
 * from the box's sides at z = 14 down to an opening 3 wide at z = 8,
 * over a small tilted shelf; spheres of radius 0.4 placed above it. */
static void add_funnel(carom_world *w)
{
    const double top = 14.0, low = 8.0, lo = 8.5, hi = 11.5;
    const double ring_top[4][2] = {{0.0, 0.0}, {20.0, 0.0}, {20.0, 20.0}, {0.0, 20.0}};
    const double ring_low[4][2] = {{lo, lo}, {hi, lo}, {hi, hi}, {lo, hi}};
    for (int side = 0; side < 4; side++) {
        int next = (side + 1) % 4;
        double a[3] = {ring_top[side][0], ring_top[side][1], top};
        double b[3] = {ring_top[next][0], ring_top[next][1], top};
        double c[3] = {ring_low[next][0], ring_low[next][1], low};
        double d[3] = {ring_low[side][0], ring_low[side][1], low};
        CHECK_OK(carom_world_add_triangle(w, a, b, c, NULL));
        CHECK_OK(carom_world_add_triangle(w, a, c, d, NULL));
    }
    const double s0[3] = {6.0, 6.0, 4.0}, s1[3] = {14.0, 7.0, 3.0}, s2[3] = {9.0, 14.0, 3.5};
    CHECK_OK(carom_world_add_triangle(w, s0, s1, s2, NULL));
}

static void check_funnel(carom_neighbours neighbours, double restitution, double gz)
{
    flight_log f = {0};
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = 20.0;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    def.gravity[2] = gz;
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
    for (int i = 0; i < 14; i++)
        for (int j = 0; j < 14; j++)
            for (int k = 0; k < 3; k++) {
                double x[3] = {3.5 + 1.0 * i + 0.2 * (k % 2), 3.5 + 1.0 * j, 15.0 + 1.1 * k};
                double speed = gz != 0.0 ? 0.5 : 4.0;
                double v[3] = {speed * sin(3.1 * n), speed * cos(1.7 * n), speed * sin(0.7 * n)};
                add(w, x, v, 0.4);
                n++;
            }
    add_funnel(w);
    double e0 = carom_world_kinetic_energy(w);
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    double worst = nearest_approach(w, 0.0, quick ? 2.0 : 8.0, quick ? 100 : 400);
    carom_stats st;
    carom_world_get_stats(w, &st);
    fprintf(stderr,
            "  funnel %s e %.1f g %g: %d spheres, %llu collisions, %ld triangle contacts, "
            "nearest approach %.2e, contact distance off by %.1e\n",
            neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", restitution, gz, n,
            (unsigned long long)st.collisions, f.triangle_contacts, worst, f.worst_contact);
    CHECK(worst > -1e-9);
    CHECK(f.worst_contact < 1e-9);
    CHECK(f.triangle_contacts > (quick ? 50 : 200));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    if (restitution == 1.0 && gz == 0.0)
        CHECK_REL(carom_world_kinetic_energy(w), e0, 1e-12);
    if (gz != 0.0 && !quick) {
        /* Some have passed the opening; none is outside the funnel's
         * walls below its rim (the sides reach the box's edges). */
        int below = 0;
        for (size_t id = 0; id < carom_world_sphere_capacity(w); id++) {
            carom_sphere_state s;
            if (carom_world_get_sphere(w, (carom_sphere_id)id, &s) == CAROM_OK)
                below += s.position[2] < 8.0;
        }
        CHECK(below > n / 10);
    }
    carom_world_free(w);
}

static void test_funnel(void)
{
    check_funnel(CAROM_NEIGHBOURS_CELLS, 0.8, -10.0);
    check_funnel(CAROM_NEIGHBOURS_LISTS, 0.8, -10.0);
    check_funnel(CAROM_NEIGHBOURS_CELLS, 1.0, 0.0);
    check_funnel(CAROM_NEIGHBOURS_LISTS, 1.0, 0.0);
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

static void probe_still(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    (void)user;
    (void)id;
    (void)t;
    x[0] = x[1] = x[2] = 1.0;
    v[0] = v[1] = v[2] = 0.0;
}

static void test_refusals(void)
{
    const double *a = flat[0], *b = flat[1], *c = flat[2];
    const double out[3] = {11.0, 1.0, 1.0}, on_line[3] = {13.0, 3.0, 2.0};
    carom_world_def def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 10.0;
    carom_error e;
    def.dim = 2;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(carom_world_add_triangle(w, a, b, c, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "3D"));
    carom_world_free(w);

    contact_log log = {0};
    w = logged_world(10.0, 0.0, &log);
    CHECK(carom_world_add_triangle(w, a, b, out, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "inside the box"));
    CHECK(carom_world_add_triangle(w, a, b, on_line, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "area"));
    CHECK(carom_world_add_triangle(w, a, b, a, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_add_triangle(w, NULL, b, c, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    /* A sphere of radius 0.5 centred 0.4 over the face overlaps it. */
    const double near[3] = {4.0, 4.0, 2.4}, still[3] = {0.0, 0.0, 0.0};
    carom_sphere_id id = add(w, near, still, 0.5);
    CHECK(carom_world_add_triangle(w, a, b, c, NULL) == CAROM_ERR_OVERLAP);
    CHECK(message_has(w, "sphere 0 (radius 0.5) overlaps triangle 0"));
    CHECK(carom_world_triangle_count(w) == 0);
    CHECK_OK(carom_world_remove_sphere(w, id));
    uint32_t index = 7;
    CHECK_OK(carom_world_add_triangle(w, a, b, c, &index));
    CHECK(index == 0 && carom_world_triangle_count(w) == 1);
    double ga[3], gb[3], gc[3];
    CHECK_OK(carom_world_get_triangle(w, 0, ga, gb, gc));
    CHECK(ga[0] == 3.0 && gb[0] == 8.0 && gc[1] == 8.0 && gc[2] == 2.0);
    CHECK(carom_world_get_triangle(w, 1, ga, gb, gc) == CAROM_ERR_INVALID_ARGUMENT);
    /* Near an edge, added later: refused. */
    CHECK_OK(carom_world_advance_to(w, 1.0));
    const double by_edge[3] = {5.0, 2.7, 2.2};
    carom_sphere_def s = carom_sphere_default_def();
    memcpy(s.position, by_edge, sizeof s.position);
    s.radius = 0.5;
    CHECK(carom_world_add_sphere(w, &s, NULL) == CAROM_ERR_OVERLAP);
    CHECK(message_has(w, "overlaps triangle 0"));
    carom_world_free(w);
    /* A driven sphere (its driver keeps it at (1, 1, 1)) and a triangle,
     * in either order (test_triangles_driven.c: how they meet). */
    def.dim = 3;
    def.boundary[2] = CAROM_BOUNDARY_WALLS;
    def.driver.probe = probe_still;
    s.driven = 1;
    s.accel_bound = 1.0;
    const double one[3] = {1.0, 1.0, 1.0};
    memcpy(s.position, one, sizeof s.position);
    for (int order = 0; order < 2; order++) {
        w = carom_world_create(&def, &e);
        if (order)
            CHECK_OK(carom_world_add_triangle(w, a, b, c, NULL));
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
        if (!order)
            CHECK_OK(carom_world_add_triangle(w, a, b, c, NULL));
        CHECK_OK(carom_world_advance_to(w, 1.0));
        carom_world_free(w);
    }
}

/* Adding many triangles among many spheres (a mesh among a gas): each is
 * refused exactly when some sphere overlaps it (the test's own distance,
 * every sphere), naming the sphere of the lowest index, before and after
 * the world is built; small triangles (the scene queries' index finds
 * the spheres near them) and large ones (every sphere tested). */
static void test_many_refusals(void)
{
    unsigned seed = 99;
    static double x[2000][3], r[2000];
    carom_world *w = logged_world(30.0, 0.0, &(contact_log){0});
    const double still[3] = {0.0, 0.0, 0.0};
    int n = 0;
    for (int i = 0; i < 2000; i++) {
        r[n] = 0.5 + 0.5 * unit_random(&seed);
        for (int k = 0; k < 3; k++)
            x[n][k] = r[n] + (30.0 - 2.0 * r[n]) * unit_random(&seed);
        int clear = 1;
        for (int j = 0; j < n && clear; j++) {
            double d2 = 0.0;
            for (int k = 0; k < 3; k++)
                d2 += (x[n][k] - x[j][k]) * (x[n][k] - x[j][k]);
            clear = d2 > (r[n] + r[j]) * (r[n] + r[j]) * 1.0001;
        }
        if (clear) {
            add(w, x[n], still, r[n]);
            n++;
        }
    }
    int added = 0, refused = 0, large_refused = 0;
    for (int trial = 0; trial < 1500; trial++) {
        if (trial == 750)
            CHECK_OK(carom_world_advance_to(w, 0.0)); /* built: the same answers */
        double tri[3][3], c[3], size = trial % 10 == 0 ? 20.0 : 0.3 + 2.0 * unit_random(&seed);
        for (int k = 0; k < 3; k++)
            c[k] = 30.0 * unit_random(&seed);
        for (int q = 0; q < 3; q++)
            for (int k = 0; k < 3; k++)
                tri[q][k] = fmin(fmax(c[k] + size * (unit_random(&seed) - 0.5), 0.0), 30.0);
        int first = -1;
        for (int i = 0; i < n && first < 0; i++)
            if (distance_to_triangle((const double(*)[3])tri, x[i]) < r[i] * (1.0 - 1e-10))
                first = i;
        carom_status st = carom_world_add_triangle(w, tri[0], tri[1], tri[2], NULL);
        if (st == CAROM_ERR_INVALID_ARGUMENT)
            continue; /* a sliver */
        if (first < 0) {
            CHECK(st == CAROM_OK);
            added++;
            continue;
        }
        CHECK(st == CAROM_ERR_OVERLAP);
        char want[64];
        snprintf(want, sizeof want, "sphere %d (radius", first);
        CHECK(message_has(w, want));
        refused++;
        large_refused += size == 20.0;
    }
    fprintf(stderr, "  %d spheres: %d triangles added, %d refused (%d large)\n", n, added,
            refused, large_refused);
    CHECK(added > 300 && refused > 300 && large_refused > 50);
    CHECK(carom_world_triangle_count(w) == (size_t)added);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_faces);
    RUN(test_edge_and_corner);
    RUN(test_far_face);
    RUN(test_edge_twice);
    RUN(test_corners_head_on);
    RUN(test_growing);
    RUN(test_random_flights);
    RUN(test_mesh_flights);
    RUN(test_random_casts);
    RUN(test_funnel);
    RUN(test_refusals);
    RUN(test_many_refusals);
    return CHECK_REPORT();
}
