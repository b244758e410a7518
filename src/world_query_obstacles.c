/* The overlap query's fixed things (carom_world_query_obstacles in
 * world_query.c): the walls, planes, segments and triangles a sphere at
 * a place would overlap.
 *
 * Contract: reads the world, changes nothing (the API builds the
 * segments' and triangles' trees first, as a cast does). The centre comes moved into
 * the box along periodic axes and the radius below half the box there,
 * so the copies of a segment or triangle the world stores (moved by -L,
 * 0, +L) hold every image the sphere can reach. Overlapping is strict,
 * as for spheres: the nearest point nearer than the radius (a wall or
 * plane: the centre less than the radius on the free side of it, or on
 * the solid side). Each thing is listed once, in the order walls (by
 * face), planes, segments, triangles (by given index): copies of one
 * segment or triangle are stored together, the given one first, so a
 * walk over the given indices visits them in order. Every plane is
 * tested; segments and triangles through their trees (the leaves within
 * reach), their given indices sorted here, or, when more than
 * QUERY_NEAR_ROOM of one kind reach, every one of it in turn. */
#include <math.h>
#include <stdint.h>

#include "query_cast.h"

/* Room for the segments or triangles found through their tree; beyond it
 * the query tests every one (the same answer, in O(their number)). */
#define QUERY_NEAR_ROOM 256

static void note(carom_obstacle *found, size_t capacity, size_t *n, carom_contact_kind kind,
                 size_t index)
{
    if (*n < capacity) {
        found[*n].kind = kind;
        found[*n].index = (int)index;
    }
    (*n)++;
}

/* Copies [first, end) of given index i, in stored order. */
static void copies_of(const uint32_t *given_at, size_t ngiven, size_t nstored, size_t i,
                      size_t *first, size_t *end)
{
    *first = given_at[i];
    *end = i + 1 < ngiven ? given_at[i + 1] : nstored;
}

static int near_segment(const world_segment *g, const double centre[3], double radius)
{
    double x[3];
    world_segment_nearest(g, centre, x);
    double dx = centre[0] - x[0], dy = centre[1] - x[1];
    return dx * dx + dy * dy < radius * radius;
}

static int near_triangle(const world_triangle *g, const double centre[3], double radius)
{
    double d[3], x[3];
    vec_sub(d, centre, g->centre);
    double reach = (g->reach + radius) * (1.0 + 1e-9); /* widened by round-off */
    if (vec_dot(d, d) > reach * reach)
        return 0;
    world_triangle_nearest(g, centre, x);
    vec_sub(d, centre, x);
    return vec_dot(d, d) < radius * radius;
}

/* Whether stored segment or triangle `item` lies within radius of
 * centre; *given receives its given index. */
typedef int near_test(const carom_world *w, uint32_t item, const double centre[3], double radius,
                      uint32_t *given);

static int segment_item_near(const carom_world *w, uint32_t item, const double centre[3],
                             double radius, uint32_t *given)
{
    *given = w->segments[item].given;
    return near_segment(&w->segments[item], centre, radius);
}

static int triangle_item_near(const carom_world *w, uint32_t item, const double centre[3],
                              double radius, uint32_t *given)
{
    *given = w->triangles[item].given;
    return near_triangle(&w->triangles[item], centre, radius);
}

/* The given indices of the things of `tree` within radius of centre:
 * sorted, each once, in given[0 .. return); SIZE_MAX when more than
 * QUERY_NEAR_ROOM are within reach. The walk's reach is widened by
 * round-off: a box is never farther than its thing. */
static size_t near_in_tree(const carom_world *w, const box_tree *tree, near_test *near,
                           const double centre[3], double radius, uint32_t *given)
{
    box_tree_walk walk;
    box_tree_walk_start(&walk, tree, centre, radius * (1.0 + 1e-9));
    const uint32_t *items;
    uint32_t count, index;
    size_t n = 0;
    while ((count = box_tree_walk_next(&walk, &items)))
        for (uint32_t e = 0; e < count; e++) {
            if (!near(w, items[e], centre, radius, &index))
                continue;
            size_t at = n;
            while (at > 0 && given[at - 1] > index)
                at--;
            if (at > 0 && given[at - 1] == index)
                continue; /* another copy of one found */
            if (n == QUERY_NEAR_ROOM)
                return SIZE_MAX;
            for (size_t m = n; m > at; m--)
                given[m] = given[m - 1];
            given[at] = index;
            n++;
        }
    return n;
}

/* Notes the things of one kind near centre: through their tree when it
 * is built and few are near, else every given index in turn (the copies
 * of one stored together, from given_at). */
static void note_near(const carom_world *w, const box_tree *tree, size_t nstored,
                      const uint32_t *given_at, size_t ngiven, near_test *near,
                      carom_contact_kind kind, const double centre[3], double radius,
                      carom_obstacle *found, size_t capacity, size_t *n)
{
    uint32_t near_given[QUERY_NEAR_ROOM], index;
    size_t count = nstored && tree->count == nstored
                       ? near_in_tree(w, tree, near, centre, radius, near_given)
                       : SIZE_MAX;
    if (count != SIZE_MAX) {
        for (size_t i = 0; i < count; i++)
            note(found, capacity, n, kind, near_given[i]);
        return;
    }
    for (size_t i = 0; i < ngiven; i++) {
        size_t first, end;
        copies_of(given_at, ngiven, nstored, i, &first, &end);
        for (size_t t = first; t < end; t++)
            if (near(w, (uint32_t)t, centre, radius, &index)) {
                note(found, capacity, n, kind, i);
                break;
            }
    }
}

size_t query_overlap_obstacles(const carom_world *w, const double centre[3], double radius,
                               carom_obstacle *found, size_t capacity)
{
    size_t n = 0;
    for (int k = 0; k < w->def.dim; k++) {
        if (w->def.boundary[k] != CAROM_BOUNDARY_WALLS)
            continue;
        if (centre[k] < radius)
            note(found, capacity, &n, CAROM_CONTACT_WALL, (size_t)(2 * k));
        if (w->def.box[k] - centre[k] < radius)
            note(found, capacity, &n, CAROM_CONTACT_WALL, (size_t)(2 * k + 1));
    }
    for (size_t i = 0; i < w->nplanes; i++)
        if (vec_dot(w->planes[i].n, centre) - w->planes[i].d < radius)
            note(found, capacity, &n, CAROM_CONTACT_PLANE, i);
    note_near(w, &w->segment_tree, w->nsegments, w->segment_given, w->nsegments_given,
              segment_item_near, CAROM_CONTACT_SEGMENT, centre, radius, found, capacity, &n);
    note_near(w, &w->triangle_tree, w->ntriangles, w->triangle_given, w->ntriangles_given,
              triangle_item_near, CAROM_CONTACT_TRIANGLE, centre, radius, found, capacity, &n);
    return n;
}
