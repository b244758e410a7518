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
 * worlds. Along periodic axes a triangle is stored with its images, moved
 * by -L, 0 and +L along each (up to 27 copies, the given one first), all
 * named by the index it was given (world_triangle.given): a sphere's
 * centre stays within about a box of [0, L) between the events that wrap
 * it, so every image it can reach is stored, and predictions, placement
 * checks, casts and the mesh's shared edges need nothing else (an edge a
 * triangle shares with another's image across the boundary is marked as
 * any other). Driven spheres' bounds meet them in
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

/* `triangle`: its given index. */
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
            const world_triangle *g = &w->triangles[items[e]];
            double d = distance_to(g, s->x);
            if (d < s->radius * (1.0 - TRIANGLE_TOLERANCE) && g->given < first) {
                first = g->given;
                nearest = d;
            }
        }
    if (first != UINT32_MAX) /* the first in given order, as named before the tree */
        return overlapping(w, slot, s->radius, first, nearest);
    return CAROM_OK;
}

/* Whether live sphere `slot` (its state now) overlaps one of the images
 * of a triangle; its radius now and its centre's distance from the
 * nearest image. */
static int sphere_overlaps(carom_world *w, uint32_t slot, const world_triangle *images, int count,
                           double *r, double *d)
{
    double x[3], v[3];
    world_true_state(w, slot, w->time, x, v);
    *d = INFINITY;
    for (int k = 0; k < count; k++)
        *d = fmin(*d, distance_to(&images[k], x));
    *r = w->spheres[slot].radius * growth_factor(w, w->time);
    return *d < *r * (1.0 - TRIANGLE_TOLERANCE);
}

/* The live sphere of the lowest slot that overlaps one of a triangle's
 * images now (images[0] the triangle itself), if any (1), with its radius
 * and distance. The spheres near the triangle's ball (through any
 * periodic image) come from the scene queries' index (query_index.h:
 * built once for the many triangles of a mesh added at one time), else
 * every sphere is tested. */
#define NEAR_ROOM 256
static int find_overlapping(carom_world *w, const world_triangle *images, int count,
                            uint32_t *slot, double *r, double *d)
{
    const world_triangle *g = &images[0];
    carom_sphere_id near[NEAR_ROOM];
    double reach = g->reach * (1.0 + 1e-9) + 1e-9 * world_plane_scale(g->centre);
    size_t n = query_overlap_spheres(w, g->centre, reach, near, NEAR_ROOM);
    if (n > NEAR_ROOM) { /* a large triangle among many spheres */
        int found = 0;
        for (uint32_t s = 0; s < w->count && !found; s++)
            if (w->info[s].alive && sphere_overlaps(w, s, images, count, r, d)) {
                *slot = s;
                found = 1;
            }
        return found;
    }
    uint32_t first = UINT32_MAX;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = world_slot_of(w, near[k]);
        double rs, ds;
        if (s < first && sphere_overlaps(w, s, images, count, &rs, &ds)) {
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

/* The image of g moved by shift (its shape is g's). */
static world_triangle moved(const world_triangle *g, const double shift[3])
{
    world_triangle image = *g;
    for (int m = 0; m < 3; m++) {
        for (int k = 0; k < 3; k++)
            image.p[k][m] += shift[m];
        image.centre[m] += shift[m];
        image.lo[m] += shift[m];
        image.hi[m] += shift[m];
    }
    return image;
}

/* The images of g to store: g itself first, then moved by -L, 0 or +L
 * along each periodic axis; their number. */
static int images_of(const carom_world *w, const world_triangle *g, world_triangle images[27])
{
    int count = 0;
    for (int c = 0; c < 27; c++) {
        int step[3] = {c % 3, c / 3 % 3, c / 9}; /* 0: none, 1: -L, 2: +L */
        double shift[3] = {0.0, 0.0, 0.0};
        int fits = 1;
        for (int m = 0; m < 3; m++) {
            if (step[m] && w->def.boundary[m] != CAROM_BOUNDARY_PERIODIC)
                fits = 0;
            shift[m] = step[m] == 1 ? -w->def.box[m] : step[m] == 2 ? w->def.box[m] : 0.0;
        }
        if (fits)
            images[count++] = moved(g, shift);
    }
    return count;
}

/* Room for `more` stored triangles and one more given index. */
static carom_status make_room(carom_world *w, size_t more)
{
    if (w->ntriangles + more > w->triangles_room) {
        size_t room = w->triangles_room ? 2 * w->triangles_room : 4;
        while (room < w->ntriangles + more)
            room *= 2;
        world_triangle *triangles = realloc(w->triangles, room * sizeof *triangles);
        if (!triangles)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu triangles", room);
        w->triangles = triangles;
        w->triangles_room = room;
    }
    if (w->ntriangles_given == w->triangles_given_room) {
        size_t room = w->triangles_given_room ? 2 * w->triangles_given_room : 4;
        uint32_t *given = realloc(w->triangle_given, room * sizeof *given);
        if (!given)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu triangles", room);
        w->triangle_given = given;
        w->triangles_given_room = room;
    }
    return CAROM_OK;
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
    world_triangle tri;
    if (!make_triangle(w, a, b, c, &tri))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "triangle: (%g, %g, %g), (%g, %g, %g), (%g, %g, %g) must have finite "
                          "corners inside the box and an area",
                          a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
    world_triangle images[27];
    int count = images_of(w, &tri, images);
    if (w->ntriangles + (size_t)count > 0x10000000u)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "triangle: too many triangles");
    uint32_t given = (uint32_t)w->ntriangles_given, slot;
    double r, d;
    if (find_overlapping(w, images, count, &slot, &r, &d))
        return overlapping(w, slot, r, given, d);
    carom_status st = make_room(w, (size_t)count);
    if (st != CAROM_OK)
        return st;
    w->triangle_given[given] = (uint32_t)w->ntriangles;
    w->ntriangles_given++;
    for (int k = 0; k < count; k++) {
        images[k].given = given;
        w->triangles[w->ntriangles++] = images[k];
    }
    if (index_out)
        *index_out = given;
    world_unbuild(w); /* every prediction again, with the triangle */
    return CAROM_OK;
}

size_t carom_world_triangle_count(const carom_world *w)
{
    return w->ntriangles_given;
}

carom_status carom_world_get_triangle(const carom_world *w, uint32_t index, double a[3],
                                      double b[3], double c[3])
{
    if (index >= w->ntriangles_given)
        return CAROM_ERR_INVALID_ARGUMENT;
    double *out[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        if (out[k])
            vec_copy(out[k], w->triangles[w->triangle_given[index]].p[k]);
    return CAROM_OK;
}

void world_triangles_free(carom_world *w)
{
    free(w->triangles);
    free(w->triangle_given);
    box_tree_free(&w->triangle_tree);
    w->triangles = NULL;
    w->triangle_given = NULL;
    w->ntriangles = w->triangles_room = 0;
    w->ntriangles_given = w->triangles_given_room = 0;
}
