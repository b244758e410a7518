/* Which triangles share edges and corners (src/world_triangle_mesh.c),
 * against a plain comparison of every pair of triangles: a terrain of
 * squares cut along alternating diagonals, an open fan around one vertex, a
 * triangle repeated with its corners in another order, and loose
 * triangles, added in a shuffled order. A triangle's edge k (corner
 * k to corner k + 1) must be marked shared exactly when a triangle of
 * lower index has the same two corners, and its corner k exactly when a
 * triangle of lower index has that corner; so each edge and corner is
 * left to exactly one triangle, the lowest that has it. */
#include <math.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "world_internal.h"

#define MAX_TRIANGLES 200

static int same_point(const double a[3], const double b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static int has_corner(const world_triangle *g, const double x[3])
{
    for (int k = 0; k < 3; k++)
        if (same_point(g->p[k], x))
            return 1;
    return 0;
}

static void test_against_pairs(void)
{
    static double tri[MAX_TRIANGLES][3][3];
    int n = 0;
    /* A terrain of 6 x 6 squares. */
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double c[4][3];
            const int di[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
            for (int k = 0; k < 4; k++) {
                c[k][0] = 1.0 + 1.5 * (i + di[k]);
                c[k][1] = 1.0 + 1.5 * (j + dj[k]);
                c[k][2] = 5.0 + 0.3 * sin(1.7 * (i + di[k]) + 2.3 * (j + dj[k]));
            }
            const int cut[2][2][3] = {{{0, 1, 2}, {0, 2, 3}}, {{0, 1, 3}, {1, 2, 3}}};
            for (int h = 0; h < 2; h++, n++)
                for (int k = 0; k < 3; k++)
                    memcpy(tri[n][k], c[cut[(i + j) % 2][h][k]], sizeof tri[n][k]);
        }
    /* An open fan of 8 around (5, 5, 15), over half a turn. */
    for (int f = 0; f < 8; f++, n++) {
        double a0 = f * 0.39269908169872414, a1 = (f + 1) * 0.39269908169872414;
        const double centre[3] = {5.0, 5.0, 15.0};
        memcpy(tri[n][0], centre, sizeof centre);
        tri[n][1][0] = 5.0 + 2.0 * cos(a0);
        tri[n][1][1] = 5.0 + 2.0 * sin(a0);
        tri[n][2][0] = 5.0 + 2.0 * cos(a1);
        tri[n][2][1] = 5.0 + 2.0 * sin(a1);
        tri[n][1][2] = tri[n][2][2] = 14.0;
    }
    /* The first terrain triangle again, corners in another order; two
     * loose ones. */
    memcpy(tri[n][0], tri[0][2], sizeof tri[n][0]);
    memcpy(tri[n][1], tri[0][1], sizeof tri[n][1]);
    memcpy(tri[n][2], tri[0][0], sizeof tri[n][2]);
    n++;
    const double loose[2][3][3] = {{{12, 12, 12}, {13, 12, 12}, {12, 13, 13}},
                                   {{2, 12, 2}, {3, 12, 2}, {2, 14, 3}}};
    memcpy(tri[n++], loose[0], sizeof loose[0]);
    memcpy(tri[n++], loose[1], sizeof loose[1]);
    /* Shuffled. */
    unsigned seed = 5;
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1664525u + 1013904223u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1));
        double t[3][3];
        memcpy(t, tri[i], sizeof t);
        memcpy(tri[i], tri[j], sizeof t);
        memcpy(tri[j], t, sizeof t);
    }
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int k = 0; k < 3; k++) {
        def.box[k] = 20.0;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    for (int g = 0; g < n; g++)
        CHECK_OK(carom_world_add_triangle(w, tri[g][0], tri[g][1], tri[g][2], NULL));
    CHECK_OK(world_triangles_index(w));
    int shared_edges = 0, shared_corners = 0;
    for (int g = 0; g < n; g++) {
        const world_triangle *t = &w->triangles[g];
        for (int k = 0; k < 3; k++) {
            const double *a = t->p[k], *b = t->p[(k + 1) % 3];
            int edge = 0, corner = 0;
            for (int o = 0; o < g; o++) {
                edge |= has_corner(&w->triangles[o], a) && has_corner(&w->triangles[o], b);
                corner |= has_corner(&w->triangles[o], a);
            }
            CHECK(!(t->shared & TRIANGLE_EDGE_SHARED(k)) == !edge);
            CHECK(!(t->shared & TRIANGLE_CORNER_SHARED(k)) == !corner);
            shared_edges += edge;
            shared_corners += corner;
        }
    }
    fprintf(stderr, "  %d triangles: %d edges and %d corners left to a lower triangle\n", n,
            shared_edges, shared_corners);
    /* The terrain's inner edges (5 inner lines of 6 edges each way) and
     * its 36 diagonals (each square's two halves), the fan's 7 inner
     * spokes, the repeat's 3. */
    CHECK(shared_edges == 2 * 5 * 6 + 36 + 7 + 3);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_against_pairs);
    return CHECK_REPORT();
}
