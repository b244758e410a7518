/* Fixed triangles (carom_world_add_triangle, 3D): thin walls spheres
 * bounce off on either side, around their edges and on their corners;
 * several make a funnel, a container, a ramp, a mesh.
 *
 * Contract: a triangle is added only when every live sphere is clear of
 * it, and the world builds again at the next advance, so every
 * prediction from then on sees it (world_predict.c tests each ballistic
 * sphere against the triangles it can reach after its walls and cell
 * faces: world_triangle_time.c; an EVENT_WALL whose partner is TRIANGLE_WALL +
 * the triangle's index; response.c reflects along the line from the
 * triangle's nearest point to the centre). Spheres added or moved later
 * are checked at their placement (world_build.c). Triangles are for 3D
 * worlds with walls on every axis (refused with periodic axes, as
 * segments are). Driven spheres' bounds meet them in
 * world_driven_triangles.c.
 *
 * Many triangles (a mesh): a box tree over them (box_tree.h), built
 * again when the world builds after triangles were added, lets a
 * prediction, a placement check and a cast test only the triangles
 * whose boxes come within reach; the edges and corners they share are
 * marked then too (world_triangle_mesh.c). Adding a triangle tests the
 * spheres near it (the scene queries' index). */
#include <math.h>
#include <stdlib.h>

#include "query_cast.h"
#include "vec.h"
#include "world_internal.h"

#define TRIANGLE_TOLERANCE 1e-10 /* relative to the radius, as for overlaps */

/* The point of edge k nearest x. */
static void edge_nearest(const world_triangle *g, int k, const double x[3], double q[3])
{
    double d[3];
    vec_sub(d, x, g->p[k]);
    double u = vec_dot(d, g->dir[k]);
    u = u < 0.0 ? 0.0 : u > g->length[k] ? g->length[k] : u;
    for (int m = 0; m < 3; m++)
        q[m] = g->p[k][m] + u * g->dir[k][m];
}

int world_triangle_over(const world_triangle *g, const double x[3])
{
    for (int k = 0; k < 3; k++) {
        double d[3];
        vec_sub(d, x, g->p[k]);
        if (vec_dot(d, g->inward[k]) < 0.0)
            return 0;
    }
    return 1;
}

void world_triangle_nearest(const world_triangle *g, const double x[3], double q[3])
{
    /* The foot on the plane, if it lies in the triangle; otherwise the
     * nearest point is on an edge. */
    double d[3];
    vec_sub(d, x, g->p[0]);
    double h = vec_dot(d, g->n);
    if (world_triangle_over(g, x)) {
        for (int m = 0; m < 3; m++)
            q[m] = x[m] - h * g->n[m];
        return;
    }
    double best = INFINITY;
    for (int k = 0; k < 3; k++) {
        double e[3];
        edge_nearest(g, k, x, e);
        vec_sub(d, x, e);
        double dd = vec_dot(d, d);
        if (dd < best) {
            best = dd;
            vec_copy(q, e);
        }
    }
}

static double distance_to(const world_triangle *g, const double x[3])
{
    double q[3], d[3];
    world_triangle_nearest(g, x, q);
    vec_sub(d, x, q);
    return sqrt(vec_dot(d, d));
}

static carom_status overlapping(carom_world *w, uint32_t slot, double radius, uint32_t triangle,
                                double distance)
{
    return world_fail(w, CAROM_ERR_OVERLAP,
                      "sphere %u (radius %g) overlaps triangle %u: its centre is %.17g from it",
                      (unsigned)world_id_of(w, slot), radius, (unsigned)triangle, distance);
}

carom_status world_triangles_index(carom_world *w)
{
    if (w->triangle_tree.count == w->ntriangles)
        return CAROM_OK;
    size_t n = w->ntriangles;
    double(*lo)[3] = malloc(n * sizeof *lo), (*hi)[3] = malloc(n * sizeof *hi);
    int rc = -1;
    if (lo && hi) {
        for (size_t g = 0; g < n; g++)
            for (int m = 0; m < 3; m++) {
                lo[g][m] = w->triangles[g].lo[m];
                hi[g][m] = w->triangles[g].hi[m];
            }
        rc = box_tree_build(&w->triangle_tree, (const double(*)[3])lo, (const double(*)[3])hi, n);
    }
    free(lo);
    free(hi);
    if (rc != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the tree of %zu triangles",
                          n);
    world_triangles_mark_shared(w);
    return CAROM_OK;
}

carom_status world_triangles_check(carom_world *w, uint32_t slot)
{
    carom_status st = world_triangles_index(w);
    if (st != CAROM_OK)
        return st;
    const sphere *s = &w->spheres[slot];
    /* A triangle within the radius has its box within it too. */
    box_tree_walk k;
    box_tree_walk_start(&k, &w->triangle_tree, s->x, s->radius);
    const uint32_t *items;
    uint32_t n, first = UINT32_MAX;
    double nearest = INFINITY;
    while ((n = box_tree_walk_next(&k, &items)))
        for (uint32_t e = 0; e < n; e++) {
            double d = distance_to(&w->triangles[items[e]], s->x);
            if (d < s->radius * (1.0 - TRIANGLE_TOLERANCE) && items[e] < first) {
                first = items[e];
                nearest = d;
            }
        }
    if (first != UINT32_MAX) /* the first in index order, as named before the tree */
        return overlapping(w, slot, s->radius, first, nearest);
    return CAROM_OK;
}

/* Whether live sphere `slot` (its state now) overlaps triangle g; its
 * radius now and its centre's distance from g. */
static int sphere_overlaps(carom_world *w, uint32_t slot, const world_triangle *g, double *r,
                           double *d)
{
    double x[3], v[3];
    world_true_state(w, slot, w->time, x, v);
    *d = distance_to(g, x);
    *r = w->spheres[slot].radius * growth_factor(w, w->time);
    return *d < *r * (1.0 - TRIANGLE_TOLERANCE);
}

/* The live sphere of the lowest slot that overlaps triangle g now, if
 * any (1), with its radius and distance. The spheres near g's ball come
 * from the scene queries' index (query_index.h: built once for the many
 * triangles of a mesh added at one time), else every sphere is tested. */
#define NEAR_ROOM 256
static int find_overlapping(carom_world *w, const world_triangle *g, uint32_t *slot, double *r,
                            double *d)
{
    carom_sphere_id near[NEAR_ROOM];
    double reach = g->reach * (1.0 + 1e-9) + 1e-9 * world_plane_scale(g->centre);
    size_t n = query_overlap_spheres(w, g->centre, reach, near, NEAR_ROOM);
    if (n > NEAR_ROOM) { /* a large triangle among many spheres */
        int found = 0;
        for (uint32_t s = 0; s < w->count && !found; s++)
            if (w->info[s].alive && sphere_overlaps(w, s, g, r, d)) {
                *slot = s;
                found = 1;
            }
        return found;
    }
    uint32_t first = UINT32_MAX;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = world_slot_of(w, near[k]);
        double rs, ds;
        if (s < first && sphere_overlaps(w, s, g, &rs, &ds)) {
            first = s;
            *r = rs;
            *d = ds;
        }
    }
    *slot = first;
    return first != UINT32_MAX;
}

/* The triangle's derived geometry; 0 if its corners are not finite or
 * inside the box, or it has no area (at a relative 1e-12 of its longest
 * edge squared). */
static int make_triangle(const carom_world *w, const double a[3], const double b[3],
                         const double c[3], world_triangle *g)
{
    const double *corner[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++) {
            double x = corner[k][m];
            if (!isfinite(x) || x < 0.0 || x > w->def.box[m])
                return 0;
            g->p[k][m] = x;
        }
    double longest = 0.0;
    for (int k = 0; k < 3; k++) {
        double d[3];
        vec_sub(d, g->p[(k + 1) % 3], g->p[k]);
        g->length[k] = sqrt(vec_dot(d, d));
        if (!(g->length[k] > 0.0))
            return 0;
        for (int m = 0; m < 3; m++)
            g->dir[k][m] = d[m] / g->length[k];
        longest = fmax(longest, g->length[k]);
    }
    double ab[3], ac[3], n[3];
    vec_sub(ab, g->p[1], g->p[0]);
    vec_sub(ac, g->p[2], g->p[0]);
    vec_cross(n, ab, ac);
    double area2 = sqrt(vec_dot(n, n));
    if (!(area2 > 1e-12 * longest * longest))
        return 0;
    for (int m = 0; m < 3; m++)
        g->n[m] = n[m] / area2;
    for (int k = 0; k < 3; k++)
        vec_cross(g->inward[k], g->n, g->dir[k]);
    for (int m = 0; m < 3; m++)
        g->centre[m] = (g->p[0][m] + g->p[1][m] + g->p[2][m]) / 3.0;
    for (int m = 0; m < 3; m++) {
        g->lo[m] = fmin(g->p[0][m], fmin(g->p[1][m], g->p[2][m]));
        g->hi[m] = fmax(g->p[0][m], fmax(g->p[1][m], g->p[2][m]));
    }
    g->shared = 0; /* until world_triangles_index marks it */
    g->reach = 0.0;
    for (int k = 0; k < 3; k++) {
        double d[3];
        vec_sub(d, g->p[k], g->centre);
        g->reach = fmax(g->reach, sqrt(vec_dot(d, d)));
    }
    return 1;
}

carom_status carom_world_add_triangle(carom_world *w, const double a[3], const double b[3],
                                      const double c[3], uint32_t *index_out)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_add_triangle");
    if (!a || !b || !c)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "triangle: a corner is NULL");
    if (w->def.dim != 3)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "triangle: triangles are for 3D worlds (use segments in 2D)");
    for (int k = 0; k < 3; k++)
        if (w->def.boundary[k] != CAROM_BOUNDARY_WALLS)
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "triangle: axis %d is periodic (triangles need walls on every axis)",
                              k);
    world_triangle tri;
    if (!make_triangle(w, a, b, c, &tri))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "triangle: (%g, %g, %g), (%g, %g, %g), (%g, %g, %g) must have finite "
                          "corners inside the box and an area",
                          a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
    if (w->ntriangles >= 0x10000000u)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "triangle: too many triangles");
    uint32_t slot;
    double r, d;
    if (find_overlapping(w, &tri, &slot, &r, &d))
        return overlapping(w, slot, r, (uint32_t)w->ntriangles, d);
    if (w->ntriangles == w->triangles_room) {
        size_t room = w->triangles_room ? 2 * w->triangles_room : 4;
        world_triangle *triangles = realloc(w->triangles, room * sizeof *triangles);
        if (!triangles)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu triangles", room);
        w->triangles = triangles;
        w->triangles_room = room;
    }
    w->triangles[w->ntriangles] = tri;
    if (index_out)
        *index_out = (uint32_t)w->ntriangles;
    w->ntriangles++;
    world_unbuild(w); /* every prediction again, with the triangle */
    return CAROM_OK;
}

size_t carom_world_triangle_count(const carom_world *w)
{
    return w->ntriangles;
}

carom_status carom_world_get_triangle(const carom_world *w, uint32_t index, double a[3],
                                      double b[3], double c[3])
{
    if (index >= w->ntriangles)
        return CAROM_ERR_INVALID_ARGUMENT;
    double *out[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        if (out[k])
            vec_copy(out[k], w->triangles[index].p[k]);
    return CAROM_OK;
}

void world_triangles_free(carom_world *w)
{
    free(w->triangles);
    box_tree_free(&w->triangle_tree);
    w->triangles = NULL;
    w->ntriangles = w->triangles_room = 0;
}
