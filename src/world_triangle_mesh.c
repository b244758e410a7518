/* Which fixed triangles share an edge or a corner (a mesh), so that each
 * shared edge's cylinder and each shared corner's ball is solved once.
 *
 * Contract: world_triangles_mark_shared sets, in each triangle's
 * `shared`, bit k when its edge k (corner k to corner k + 1) is also an
 * edge of a triangle of lower index (the same two corners, to the last
 * bit, in either order), and bit 3 + k when its corner k is a corner of
 * a triangle of lower index. The lowest such triangle, the edge's or
 * corner's owner, is the one predictions and casts solve it for. That
 * loses nothing: whenever a sphere can reach a shared edge or corner, it
 * can reach its owner's box, ball and plane too (they hold the edge or
 * corner), so every test that would skip the owner skips it as well; and
 * at a tie the first in index order is named, which the owner is. Out of
 * memory, no bit is set (every triangle solves its own). */
#include <stdlib.h>

#include "world_internal.h"

typedef struct corner_ref {
    double x[3];
    uint32_t triangle, vertex; /* vertex: the number of its place, once sorted */
    int k;
} corner_ref;

typedef struct edge_ref {
    uint32_t a, b; /* its corners' vertex numbers, a <= b */
    uint32_t triangle;
    int k;
} edge_ref;

static int by_place(const void *pa, const void *pb)
{
    const corner_ref *a = pa, *b = pb;
    for (int m = 0; m < 3; m++)
        if (a->x[m] != b->x[m])
            return a->x[m] < b->x[m] ? -1 : 1;
    return a->triangle < b->triangle ? -1 : a->triangle > b->triangle;
}

static int by_corners(const void *pa, const void *pb)
{
    const edge_ref *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return a->triangle < b->triangle ? -1 : a->triangle > b->triangle;
}

void world_triangles_mark_shared(carom_world *w)
{
    size_t n = w->ntriangles;
    for (size_t g = 0; g < n; g++)
        w->triangles[g].shared = 0;
    corner_ref *corners = malloc(3 * n * sizeof *corners);
    edge_ref *edges = malloc(3 * n * sizeof *edges);
    uint32_t *vertex = malloc(3 * n * sizeof *vertex); /* by triangle and corner */
    if (!corners || !edges || !vertex) {
        free(corners);
        free(edges);
        free(vertex);
        return;
    }
    for (size_t g = 0; g < n; g++)
        for (int k = 0; k < 3; k++) {
            corner_ref *c = &corners[3 * g + (size_t)k];
            for (int m = 0; m < 3; m++)
                c->x[m] = w->triangles[g].p[k][m];
            c->triangle = (uint32_t)g;
            c->k = k;
        }
    qsort(corners, 3 * n, sizeof *corners, by_place);
    uint32_t places = 0;
    for (size_t e = 0; e < 3 * n; e++) {
        const double *x = corners[e].x, *before = e > 0 ? corners[e - 1].x : NULL;
        int same = before && x[0] == before[0] && x[1] == before[1] && x[2] == before[2];
        if (!same)
            places++;
        else /* sorted by triangle within a place: an earlier one owns it */
            w->triangles[corners[e].triangle].shared |=
                (uint8_t)TRIANGLE_CORNER_SHARED(corners[e].k);
        vertex[3 * (size_t)corners[e].triangle + (size_t)corners[e].k] = places - 1;
    }
    for (size_t g = 0; g < n; g++)
        for (int k = 0; k < 3; k++) {
            uint32_t a = vertex[3 * g + (size_t)k], b = vertex[3 * g + (size_t)(k + 1) % 3];
            edges[3 * g + (size_t)k] = (edge_ref){a < b ? a : b, a < b ? b : a, (uint32_t)g, k};
        }
    qsort(edges, 3 * n, sizeof *edges, by_corners);
    for (size_t e = 1; e < 3 * n; e++)
        if (edges[e].a == edges[e - 1].a && edges[e].b == edges[e - 1].b)
            w->triangles[edges[e].triangle].shared |= (uint8_t)TRIANGLE_EDGE_SHARED(edges[e].k);
    free(corners);
    free(edges);
    free(vertex);
}
