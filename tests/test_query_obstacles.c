/* carom_world_query_obstacles (include/carom/query.h): which walls,
 * planes, segments and triangles a sphere at a place overlaps.
 *
 * - Closed forms: a corner of a walled box (two faces), touching a face
 *   (not listed), a point outside the box (radius 0); a plane touched and
 *   crossed, a point on its solid side; a segment's face and end; a
 *   triangle's face, edge and corner; the order (walls, planes, segments,
 *   triangles, each by index); a capacity below the count; a triangle
 *   (segment) spanning the periodic box met through two of its copies,
 *   listed once.
 * - A reference of its own: 4,000 random queries each in a 3D box
 *   periodic in x and y (walls in z, two planes, 24 random triangles)
 *   and a 2D box periodic in x (walls in y, a plane, 16 random segments),
 *   centres anywhere (far out along periodic axes too), radii up to just
 *   below half the box. The test computes every distance itself (the
 *   nearest image of each triangle by triangle_reference.h, of each
 *   segment by clamping) and expects exactly the things nearer than the
 *   radius, in order; queries within 1e-9 of a threshold are not
 *   compared (too close to call). A bumpy periodic floor of 512
 *   triangles, queries reaching fewer than 256 of them (found through
 *   the triangles' tree) and more (every one tested), likewise.
 * - Refusals: NULL, a capacity without an array, NaN, a negative radius,
 *   z in 2D, coordinates beyond 1e100, a radius of half a periodic box. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "check.h"
#include "triangle_reference.h"

#define BOX 10.0

static unsigned seed_state = 77;

static double unit_random(void)
{
    seed_state = seed_state * 1664525u + 1013904223u;
    return (seed_state >> 8) / 16777216.0;
}

/* A box of side BOX, periodic along the axes of `periodic` (bit k). */
static carom_world *box_world(int dim, unsigned periodic)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int k = 0; k < 3; k++) {
        def.box[k] = BOX;
        def.boundary[k] = (periodic >> k) & 1 ? CAROM_BOUNDARY_PERIODIC : CAROM_BOUNDARY_WALLS;
    }
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

/* The query's answer as a list, checked to fit. */
static size_t query(carom_world *w, double x, double y, double z, double r, carom_obstacle *out,
                    size_t room)
{
    const double at[3] = {x, y, z};
    size_t n = 0;
    CHECK_OK(carom_world_query_obstacles(w, at, r, out, room, &n));
    CHECK(n <= room);
    return n;
}

static int is(const carom_obstacle *o, carom_contact_kind kind, int index)
{
    return o->kind == kind && o->index == index;
}

/* ---- closed forms -------------------------------------------------------- */

static void test_box_and_planes(void)
{
    carom_world *w = box_world(3, 0);
    carom_obstacle o[8];
    /* Near the low-x and high-y faces. */
    CHECK(query(w, 0.5, 9.7, 5.0, 0.6, o, 8) == 2);
    CHECK(is(&o[0], CAROM_CONTACT_WALL, 0) && is(&o[1], CAROM_CONTACT_WALL, 3));
    /* Touching the low-z face exactly is not overlapping it. */
    CHECK(query(w, 5.0, 5.0, 0.5, 0.5, o, 8) == 0);
    CHECK(query(w, 5.0, 5.0, 0.5, 0.5000001, o, 8) == 1 && is(&o[0], CAROM_CONTACT_WALL, 4));
    /* A point: inside, nothing; beyond the high-z face, that face. */
    CHECK(query(w, 5.0, 5.0, 5.0, 0.0, o, 8) == 0);
    CHECK(query(w, 5.0, 5.0, 12.0, 0.0, o, 8) == 1 && is(&o[0], CAROM_CONTACT_WALL, 5));
    /* An incline (x + y >= 2 sqrt 2: 2 from the origin) and a floor at
     * z = 3 (normal (0, 0, 5), offset 15). */
    const double incline[3] = {1.0, 1.0, 0.0}, floor_n[3] = {0.0, 0.0, 5.0};
    CHECK_OK(carom_world_add_plane(w, incline, 2.0 * sqrt(2.0), NULL));
    CHECK_OK(carom_world_add_plane(w, floor_n, 15.0, NULL));
    double s = 2.0 / sqrt(2.0) + 1.0 / sqrt(2.0); /* 1 from the incline */
    CHECK(query(w, s, s, 5.0, 0.99, o, 8) == 0);
    CHECK(query(w, s, s, 5.0, 1.01, o, 8) == 1 && is(&o[0], CAROM_CONTACT_PLANE, 0));
    /* Below the floor (a point on its solid side), and near a wall. */
    CHECK(query(w, 5.0, 9.5, 2.0, 0.0, o, 8) == 1 && is(&o[0], CAROM_CONTACT_PLANE, 1));
    CHECK(query(w, 0.5, 2.5, 3.2, 0.6, o, 8) == 3);
    CHECK(is(&o[0], CAROM_CONTACT_WALL, 0) && is(&o[1], CAROM_CONTACT_PLANE, 0) &&
          is(&o[2], CAROM_CONTACT_PLANE, 1));
    /* A capacity below the count: the count, the first ones written. */
    carom_obstacle two[2] = {{CAROM_CONTACT_SPHERE, -7}, {CAROM_CONTACT_SPHERE, -7}};
    const double at[3] = {0.5, 2.5, 3.2};
    size_t n = 0;
    CHECK_OK(carom_world_query_obstacles(w, at, 0.6, two, 1, &n));
    CHECK(n == 3 && is(&two[0], CAROM_CONTACT_WALL, 0) && two[1].index == -7);
    CHECK_OK(carom_world_query_obstacles(w, at, 0.6, NULL, 0, &n));
    CHECK(n == 3);
    carom_world_free(w);
}

static void test_segments(void)
{
    carom_world *w = box_world(2, 0);
    const double a[2] = {2.0, 5.0}, b[2] = {6.0, 5.0}, c[2] = {8.0, 1.0}, d[2] = {8.0, 3.0};
    CHECK_OK(carom_world_add_segment(w, a, b, NULL));
    CHECK_OK(carom_world_add_segment(w, c, d, NULL));
    carom_obstacle o[8];
    /* Over the first's face, 0.5 above it. */
    CHECK(query(w, 4.0, 5.5, 0.0, 0.49, o, 8) == 0);
    CHECK(query(w, 4.0, 5.5, 0.0, 0.51, o, 8) == 1 && is(&o[0], CAROM_CONTACT_SEGMENT, 0));
    /* Beyond its end b, 0.6 along its line: the end decides. */
    CHECK(query(w, 6.6, 5.0, 0.0, 0.59, o, 8) == 0);
    CHECK(query(w, 6.6, 5.0, 0.0, 0.61, o, 8) == 1);
    /* Between the two (nearest points (6, 5) and (8, 3): 2 sqrt 2 apart),
     * and by the low-y wall: wall first, then segments by index. */
    CHECK(query(w, 7.0, 4.0, 0.0, 1.42, o, 8) == 2);
    CHECK(is(&o[0], CAROM_CONTACT_SEGMENT, 0) && is(&o[1], CAROM_CONTACT_SEGMENT, 1));
    CHECK(query(w, 8.2, 0.5, 0.0, 0.6, o, 8) == 2);
    CHECK(is(&o[0], CAROM_CONTACT_WALL, 2) && is(&o[1], CAROM_CONTACT_SEGMENT, 1));
    carom_world_free(w);
    /* Periodic in x: a segment across the whole box, its copy at -L meets
     * a query at x = 0.1 as the given one does; listed once. */
    w = box_world(2, 1);
    const double left[2] = {0.0, 5.0}, right[2] = {BOX, 5.0};
    CHECK_OK(carom_world_add_segment(w, left, right, NULL));
    CHECK(query(w, 0.1, 5.2, 0.0, 0.3, o, 8) == 1 && is(&o[0], CAROM_CONTACT_SEGMENT, 0));
    /* A short one near x = 9.8 seen from x = 0.2 through the boundary. */
    const double e[2] = {9.8, 2.0}, f[2] = {9.8, 3.0};
    CHECK_OK(carom_world_add_segment(w, e, f, NULL));
    CHECK(query(w, 0.2, 2.5, 0.0, 0.39, o, 8) == 0);
    CHECK(query(w, 0.2 + 7 * BOX, 2.5, 0.0, 0.41, o, 8) == 1 &&
          is(&o[0], CAROM_CONTACT_SEGMENT, 1));
    carom_world_free(w);
}

static void test_triangles(void)
{
    carom_world *w = box_world(3, 0);
    const double p[3][3] = {{2.0, 2.0, 5.0}, {8.0, 2.0, 5.0}, {2.0, 8.0, 5.0}};
    CHECK_OK(carom_world_add_triangle(w, p[0], p[1], p[2], NULL));
    carom_obstacle o[8];
    /* Over the face, 0.5 below it. */
    CHECK(query(w, 3.0, 3.0, 4.5, 0.49, o, 8) == 0);
    CHECK(query(w, 3.0, 3.0, 4.5, 0.51, o, 8) == 1 && is(&o[0], CAROM_CONTACT_TRIANGLE, 0));
    /* Beyond the long edge (x + y = 10), in the plane: 1 from it. */
    double s = 5.0 + 1.0 / sqrt(2.0);
    CHECK(query(w, s, s, 5.0, 0.99, o, 8) == 0);
    CHECK(query(w, s, s, 5.0, 1.01, o, 8) == 1);
    /* Beyond corner (2, 2, 5): (1.4, 1.4, 5.3) is sqrt(0.81) = 0.9 away. */
    CHECK(query(w, 1.4, 1.4, 5.3, 0.89, o, 8) == 0);
    CHECK(query(w, 1.4, 1.4, 5.3, 0.91, o, 8) == 1);
    carom_world_free(w);
    /* Periodic in x and y: a floor triangle spanning the box, reached at
     * (0.1, 0.1) over its face and through its copy at -L in x (corner
     * (0, 0)); listed once, with a second triangle (through its copy). */
    w = box_world(3, 3);
    const double q[3][3] = {{0.0, 0.0, 3.0}, {BOX, 0.0, 3.0}, {0.0, BOX, 3.0}};
    const double r[3][3] = {{9.9, 0.5, 3.5}, {9.9, 0.5, 4.5}, {9.9, 9.5, 4.0}};
    CHECK_OK(carom_world_add_triangle(w, q[0], q[1], q[2], NULL));
    CHECK_OK(carom_world_add_triangle(w, r[0], r[1], r[2], NULL));
    CHECK(query(w, 0.1, 0.1, 3.4, 0.47, o, 8) == 2);
    CHECK(is(&o[0], CAROM_CONTACT_TRIANGLE, 0) && is(&o[1], CAROM_CONTACT_TRIANGLE, 1));
    CHECK(query(w, 0.1 - 3 * BOX, 5.0, 4.0, 0.19, o, 8) == 0);
    CHECK(query(w, 0.1 - 3 * BOX, 5.0, 4.0, 0.21, o, 8) == 1 &&
          is(&o[0], CAROM_CONTACT_TRIANGLE, 1));
    carom_world_free(w);
}

/* ---- an independent reference -------------------------------------------- */

/* What the test expects, or -1 when some distance is too close to the
 * radius to call; appended to want[]. */
typedef struct expected {
    carom_obstacle want[64];
    size_t n;
    int unsure;
} expected;

static void expect(expected *e, double distance, double radius, carom_contact_kind kind, int index)
{
    if (fabs(distance - radius) < 1e-9)
        e->unsure = 1;
    if (distance < radius) {
        e->want[e->n].kind = kind;
        e->want[e->n].index = index;
        e->n++;
    }
}

/* x moved into the box along the axes of `periodic`. */
static void into_box(const double x[3], unsigned periodic, double y[3])
{
    for (int k = 0; k < 3; k++)
        y[k] = (periodic >> k) & 1 ? x[k] - BOX * floor(x[k] / BOX) : x[k];
}

static double segment_distance(const double a[2], const double b[2], const double x[3])
{
    double ab[2] = {b[0] - a[0], b[1] - a[1]}, ax[2] = {x[0] - a[0], x[1] - a[1]};
    double u = (ab[0] * ax[0] + ab[1] * ax[1]) / (ab[0] * ab[0] + ab[1] * ab[1]);
    u = fmin(1.0, fmax(0.0, u));
    return hypot(ax[0] - u * ab[0], ax[1] - u * ab[1]);
}

/* Distance to the nearest image (shifts -L, 0, +L along periodic axes) of
 * a triangle (ncorners 3) or a segment (2). */
static double image_distance(const double p[3][3], int ncorners, const double x[3],
                             unsigned periodic)
{
    double y[3], best = INFINITY;
    into_box(x, periodic, y);
    for (int c = 0; c < 27; c++) {
        int step[3] = {c % 3 - 1, c / 3 % 3 - 1, c / 9 - 1};
        double z[3];
        int fits = 1;
        for (int k = 0; k < 3; k++) {
            fits &= step[k] == 0 || ((periodic >> k) & 1);
            z[k] = y[k] + step[k] * BOX;
        }
        if (fits)
            best = fmin(best, ncorners == 3 ? distance_to_triangle(p, z)
                                            : segment_distance(p[0], p[1], z));
    }
    return best;
}

static void random_inside(double p[3], int dim)
{
    for (int k = 0; k < 3; k++)
        p[k] = k < dim ? BOX * unit_random() : 0.0;
}

static void check_random(int dim, unsigned periodic, int nthings)
{
    carom_world *w = box_world(dim, periodic);
    /* Planes across the walled axis only (none may lean along a periodic
     * one): normals along it, free above 1 and below 9 (-2 y >= -18). */
    int walled = dim - 1;
    double normals[2][3] = {{0}, {0}}, offsets[2] = {1.0, -18.0};
    normals[0][walled] = 1.0;
    normals[1][walled] = -2.0;
    for (int i = 0; i < 2; i++)
        CHECK_OK(carom_world_add_plane(w, normals[i], offsets[i], NULL));
    double things[64][3][3];
    for (int i = 0; i < nthings; i++) {
        double centre[3];
        random_inside(centre, dim);
        for (int c = 0; c < dim; c++)
            for (int k = 0; k < 3; k++)
                things[i][c][k] = k < dim ? fmin(BOX, fmax(0.0, centre[k] + 3.0 * (unit_random() - 0.5)))
                                          : 0.0;
        if (dim == 3)
            CHECK_OK(carom_world_add_triangle(w, things[i][0], things[i][1], things[i][2], NULL));
        else
            CHECK_OK(carom_world_add_segment(w, things[i][0], things[i][1], NULL));
    }
    size_t compared = 0, listed = 0;
    for (int q = 0; q < 4000; q++) {
        double x[3], radius = 4.99 * unit_random() * unit_random();
        random_inside(x, dim);
        for (int k = 0; k < dim; k++) {
            if ((periodic >> k) & 1 && q % 5 == 0)
                x[k] += BOX * floor(2000.0 * (unit_random() - 0.5)); /* far out */
            else if (!((periodic >> k) & 1))
                x[k] = 1.4 * BOX * unit_random() - 0.2 * BOX; /* outside too */
        }
        expected e = {.n = 0};
        for (int k = 0; k < dim; k++) {
            if ((periodic >> k) & 1)
                continue;
            expect(&e, x[k], radius, CAROM_CONTACT_WALL, 2 * k);
            expect(&e, BOX - x[k], radius, CAROM_CONTACT_WALL, 2 * k + 1);
        }
        expect(&e, x[walled] - 1.0, radius, CAROM_CONTACT_PLANE, 0);
        expect(&e, 9.0 - x[walled], radius, CAROM_CONTACT_PLANE, 1);
        for (int i = 0; i < nthings; i++)
            expect(&e, image_distance((const double(*)[3])things[i], dim, x, periodic), radius,
                   dim == 3 ? CAROM_CONTACT_TRIANGLE : CAROM_CONTACT_SEGMENT, i);
        carom_obstacle got[64];
        size_t n = 0;
        CHECK_OK(carom_world_query_obstacles(w, x, radius, got, 64, &n));
        if (e.unsure)
            continue;
        compared++;
        listed += n;
        int same = n == e.n;
        for (size_t i = 0; same && i < n; i++)
            same = is(&got[i], e.want[i].kind, e.want[i].index);
        CHECK(same);
        if (!same)
            fprintf(stderr, "query %d at (%g, %g, %g) radius %g: %zu found, %zu expected\n", q,
                    x[0], x[1], x[2], radius, n, e.n);
        for (size_t i = 0; !same && i < n; i++)
            fprintf(stderr, "  got %d %d\n", got[i].kind, got[i].index);
        for (size_t i = 0; !same && i < e.n; i++)
            fprintf(stderr, "  want %d %d\n", e.want[i].kind, e.want[i].index);
    }
    printf("  %dD: %zu queries compared, %zu things listed\n", dim, compared, listed);
    CHECK(compared > 3900 && listed > 4000);
    carom_world_free(w);
}

static void test_random(void)
{
    check_random(3, 3, 24);
    check_random(2, 1, 16);
}

/* A bumpy floor of 512 triangles over the periodic square: queries that
 * reach more than 256 of them (the query then tests every triangle) and
 * fewer (through the tree), against the test's own distances. */
static void test_many_triangles(void)
{
    carom_world *w = box_world(3, 3);
    enum { CELLS = 16 };
    static double mesh[2 * CELLS * CELLS][3][3];
    double h = BOX / CELLS;
    int count = 0;
    for (int i = 0; i < CELLS; i++)
        for (int j = 0; j < CELLS; j++) {
            double c[4][3];
            for (int k = 0; k < 4; k++) {
                int a = i + (k == 1 || k == 2), b = j + (k >= 2);
                c[k][0] = a * h;
                c[k][1] = b * h;
                c[k][2] = 3.0 + 0.2 * ((a % CELLS) * 7 % 5 + (b % CELLS) * 3 % 4) / 7.0;
            }
            const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int t = 0; t < 2; t++, count++) {
                for (int k = 0; k < 3; k++)
                    memcpy(mesh[count][k], c[tri[t][k]], sizeof c[0]);
                CHECK_OK(carom_world_add_triangle(w, mesh[count][0], mesh[count][1],
                                                  mesh[count][2], NULL));
            }
        }
    size_t scanned = 0, walked = 0;
    for (int q = 0; q < 600; q++) {
        double x[3] = {BOX * unit_random() + (q % 3 ? 0.0 : -4.0 * BOX), BOX * unit_random(),
                       3.0 + 4.0 * (unit_random() - 0.5)};
        double radius = 4.99 * unit_random();
        expected e = {.n = 0};
        int many = 0;
        for (int i = 0; i < count; i++) {
            double d = image_distance((const double(*)[3])mesh[i], 3, x, 3);
            if (fabs(d - radius) < 1e-9)
                e.unsure = 1;
            many += d < radius;
        }
        carom_obstacle got[2 * CELLS * CELLS + 2];
        size_t n = 0;
        CHECK_OK(carom_world_query_obstacles(w, x, radius, got, 2 * CELLS * CELLS + 2, &n));
        if (e.unsure)
            continue;
        /* the floor and ceiling of the box (z walled) come first */
        int walls = (x[2] < radius) + (BOX - x[2] < radius);
        int same = n == (size_t)(walls + many);
        if (same && x[2] < radius)
            same = is(&got[0], CAROM_CONTACT_WALL, 4);
        if (same && BOX - x[2] < radius)
            same = is(&got[walls - 1], CAROM_CONTACT_WALL, 5);
        for (size_t i = 0, k = (size_t)walls; same && i < (size_t)count; i++)
            if (image_distance((const double(*)[3])mesh[i], 3, x, 3) < radius)
                same = is(&got[k++], CAROM_CONTACT_TRIANGLE, (int)i);
        CHECK(same);
        if (!same)
            fprintf(stderr, "query %d at (%g, %g, %g) radius %g: %zu found, %d expected\n", q,
                    x[0], x[1], x[2], radius, n, walls + many);
        scanned += many > 256;
        walked += many > 0 && many <= 256;
    }
    printf("  %zu queries through the tree, %zu reaching more than 256 triangles\n", walked,
           scanned);
    CHECK(walked > 100 && scanned > 100);
    carom_world_free(w);
}

/* ---- refusals ------------------------------------------------------------ */

static void test_refusals(void)
{
    carom_world *w = box_world(2, 1);
    carom_obstacle o[4];
    size_t n = 0;
    const double at[3] = {1.0, 1.0, 0.0}, in_z[3] = {1.0, 1.0, 1.0};
    const double nan_at[3] = {NAN, 1.0, 0.0}, far_at[3] = {1e101, 1.0, 0.0};
    CHECK(carom_world_query_obstacles(NULL, at, 1.0, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_query_obstacles(w, NULL, 1.0, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "carom_world_query_obstacles") != NULL);
    CHECK(carom_world_query_obstacles(w, at, 1.0, o, 4, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_query_obstacles(w, at, 1.0, NULL, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_query_obstacles(w, nan_at, 1.0, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "centre must be finite") != NULL);
    CHECK(carom_world_query_obstacles(w, far_at, 1.0, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_query_obstacles(w, in_z, 1.0, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "z component") != NULL);
    CHECK(carom_world_query_obstacles(w, at, -0.5, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_query_obstacles(w, at, NAN, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "radius must be finite and >= 0") != NULL);
    CHECK(carom_world_query_obstacles(w, at, 0.5 * BOX, o, 4, &n) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "not below half the periodic box length 10 "
                                               "(axis 0)") != NULL);
    carom_world_free(w);
    /* Without periodic axes a query may be as wide as it likes. */
    w = box_world(2, 0);
    CHECK_OK(carom_world_query_obstacles(w, at, 3.0 * BOX, o, 4, &n));
    CHECK(n == 4 && is(&o[0], CAROM_CONTACT_WALL, 0) && is(&o[3], CAROM_CONTACT_WALL, 3));
    carom_world_free(w);
}

int main(void)
{
    RUN(test_box_and_planes);
    RUN(test_segments);
    RUN(test_triangles);
    RUN(test_random);
    RUN(test_many_triangles);
    RUN(test_refusals);
    return CHECK_REPORT();
}
