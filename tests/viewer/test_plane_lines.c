/* The lines that draw a fixed plane (tools/viewer/plane_lines.c), against
 * cross-sections known by hand: a floor (rectangle), the cube's central
 * hexagon, a corner's triangle, planes that miss the box, 2D lines and
 * their ticks; and, for random planes, that every line lies on the plane
 * and in the box and that a 3D outline closes. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "plane_lines.h"

#define TOL 1e-12

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double distance(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrt(dot(d, d));
}

static int inside(int dim, const double box[3], const double p[3])
{
    for (int k = 0; k < dim; k++)
        if (p[k] < -TOL * box[k] || p[k] > box[k] * (1 + TOL))
            return 0;
    return dim == 3 || p[2] == 0.0;
}

/* Every end on the plane and in the box; the first `outline` segments
 * form a closed loop. */
static void check_lines(int dim, const double box[3], const double n[3], double d,
                        double lines[PLANE_LINES_MAX][2][3], int count, int outline)
{
    double length = sqrt(dot(n, n)), scale = box[0] + box[1] + box[2];
    CHECK(count <= PLANE_LINES_MAX);
    for (int e = 0; e < count; e++)
        for (int end = 0; end < 2; end++) {
            const double *p = lines[e][end];
            CHECK(inside(dim, box, p));
            if (dim == 3 || e == 0)
                CHECK(fabs(dot(n, p) / length - d / length) <= TOL * scale);
        }
    for (int e = 0; e < outline; e++)
        CHECK(distance(lines[e][1], lines[(e + 1) % outline][0]) <= TOL * scale);
}

static void test_floor(void)
{
    const double box[3] = {4, 5, 6}, n[3] = {0, 0, 2};
    double lines[PLANE_LINES_MAX][2][3];
    int count = plane_lines(3, box, n, 3.0, lines); /* z = 1.5 */
    CHECK(count == 4 + 7);
    check_lines(3, box, n, 3.0, lines, count, 4);
    double perimeter = 0.0;
    for (int e = 0; e < 4; e++)
        perimeter += distance(lines[e][0], lines[e][1]);
    CHECK_NEAR(perimeter, 18.0, 1e-12);
    /* Chords along x (the axis least along n), at y = 5/8, 10/8, ... */
    for (int e = 4; e < count; e++) {
        CHECK_NEAR(fabs(lines[e][1][0] - lines[e][0][0]), 4.0, 1e-12);
        CHECK_NEAR(lines[e][0][1], lines[e][1][1], 1e-12);
        CHECK_NEAR(lines[e][0][1], 5.0 * (e - 3) / 8.0, 1e-12);
    }
}

static void test_hexagon(void)
{
    const double box[3] = {2, 2, 2}, n[3] = {1, 1, 1};
    double lines[PLANE_LINES_MAX][2][3];
    int count = plane_lines(3, box, n, 3.0, lines); /* through the centre */
    CHECK(count == 6 + 7);
    check_lines(3, box, n, 3.0, lines, count, 6);
    for (int e = 0; e < 6; e++)
        CHECK_NEAR(distance(lines[e][0], lines[e][1]), sqrt(2.0), 1e-12);
}

static void test_corner_and_misses(void)
{
    const double box[3] = {2, 2, 2}, n[3] = {1, 1, 1};
    double lines[PLANE_LINES_MAX][2][3];
    int count = plane_lines(3, box, n, 0.5, lines);
    CHECK(count >= 3);
    check_lines(3, box, n, 0.5, lines, count, 3);
    for (int e = 0; e < 3; e++)
        CHECK_NEAR(distance(lines[e][0], lines[e][1]), 0.5 * sqrt(2.0), 1e-12);
    const double x[3] = {1, 0, 0}, zero[3] = {0, 0, 0};
    CHECK(plane_lines(3, box, x, -1.0, lines) == 0);
    CHECK(plane_lines(3, box, x, 3.0, lines) == 0);
    CHECK(plane_lines(3, box, zero, 1.0, lines) == 0);
    CHECK(plane_lines(2, box, zero, 1.0, lines) == 0);
    CHECK(plane_lines(2, box, x, 2.5, lines) == 0);
}

static void test_2d(void)
{
    const double box[3] = {10, 8, 0}, up[3] = {0, 1, 0};
    double lines[PLANE_LINES_MAX][2][3];
    int count = plane_lines(2, box, up, 2.0, lines); /* y = 2 */
    CHECK(count == 1 + 16);
    check_lines(2, box, up, 2.0, lines, count, 0);
    CHECK_NEAR(distance(lines[0][0], lines[0][1]), 10.0, 1e-12);
    /* Ticks start on the line and end below it: the solid side. */
    for (int e = 1; e < count; e++) {
        CHECK_NEAR(lines[e][0][1], 2.0, 1e-12);
        CHECK(lines[e][1][1] < 2.0 - 0.3);
    }
    /* A diagonal through two corners: the corners once each. */
    const double box2[3] = {10, 10, 0}, diagonal[3] = {1, 1, 0};
    count = plane_lines(2, box2, diagonal, 10.0, lines);
    CHECK(count > 1);
    check_lines(2, box2, diagonal, 10.0, lines, count, 0);
    CHECK_NEAR(distance(lines[0][0], lines[0][1]), 10.0 * sqrt(2.0), 1e-12);
}

static double uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

static void test_random_planes(void)
{
    unsigned long long state = 12345;
    int drawn = 0;
    for (int trial = 0; trial < 2000; trial++) {
        int dim = 2 + trial % 2;
        double box[3] = {1 + 9 * uniform(&state), 1 + 9 * uniform(&state),
                         dim == 3 ? 1 + 9 * uniform(&state) : 0.0};
        double n[3] = {uniform(&state) - 0.5, uniform(&state) - 0.5,
                       dim == 3 ? uniform(&state) - 0.5 : 0.0};
        if (trial % 7 == 0)
            n[trial % dim] = 0.0; /* along a face */
        double point[3] = {box[0] * uniform(&state), box[1] * uniform(&state),
                           box[2] * uniform(&state)};
        double d = dot(n, point);
        double lines[PLANE_LINES_MAX][2][3];
        int count = plane_lines(dim, box, n, d, lines);
        if (dot(n, n) == 0.0)
            continue;
        CHECK(count > 0); /* the plane passes through a point of the box */
        int outline = 0;
        if (dim == 3) {
            /* The outline (3 to 6 corners) comes first, the 7 chords
             * after it. */
            outline = count >= 3 + 7 ? count - 7 : count;
            CHECK(outline >= 3 && outline <= 6);
        }
        check_lines(dim, box, n, d, lines, count, outline);
        drawn += count > 0;
    }
    CHECK(drawn > 1900);
}

int main(void)
{
    RUN(test_floor);
    RUN(test_hexagon);
    RUN(test_corner_and_misses);
    RUN(test_2d);
    RUN(test_random_planes);
    return CHECK_REPORT();
}
