/* What the scene-query files share (include/carom/query.h):
 * world_query.c has the API and the casts' walls, planes, segments and
 * triangles; world_query_spheres.c the spheres, through the index of
 * world_query_index.c; world_query_obstacles.c the fixed things a sphere
 * overlaps. */
#ifndef CAROM_QUERY_CAST_H
#define CAROM_QUERY_CAST_H

#include <math.h>

#include "carom/query.h"
#include "vec.h"
#include "world_internal.h"

/* The best hit so far: its f and what it is, as a rank that orders ties
 * (spheres by id, then walls, planes, segments, triangles by index). */
typedef struct best_hit {
    double f;
    carom_contact_kind kind;
    uint64_t rank;
    carom_sphere_id sphere;
    int wall;
    double normal[3]; /* unit, towards the cast centre; or 0 to compute */
    double centre[3]; /* a sphere's centre, a segment's or triangle's point nearest the
                         cast centre */
    int found;
} best_hit;

static inline void query_consider(best_hit *b, double f, carom_contact_kind kind, uint64_t rank,
                                  carom_sphere_id sphere, int wall, const double centre[3],
                                  const double normal[3])
{
    if (!(f >= 0.0 && f <= 1.0))
        return;
    if (b->found && (f > b->f || (f == b->f && rank >= b->rank)))
        return;
    b->found = 1;
    b->f = f;
    b->kind = kind;
    b->rank = rank;
    b->sphere = sphere;
    b->wall = wall;
    for (int k = 0; k < 3; k++) {
        b->centre[k] = centre ? centre[k] : 0.0;
        b->normal[k] = normal ? normal[k] : 0.0;
    }
}

/* When a centre moving from o by m first comes within sigma of point p
 * (f in [0, 1]; f = 0 if it starts within), or INFINITY. The
 * discriminant b^2 - a c is computed as a sigma^2 - |d x m|^2 (Lagrange's
 * identity): the difference of two nearly equal squares, for a small
 * sphere far from the origin, would lose the root's digits (a fuzzer
 * found a ray's hit 7.7e-13 inside a sphere of radius 3.5e-5 that way). */
static inline double query_point_time(const double o[3], const double m[3], const double p[3],
                                      double sigma)
{
    double d[3] = {o[0] - p[0], o[1] - p[1], o[2] - p[2]};
    double c = vec_dot(d, d) - sigma * sigma;
    if (c < 0.0)
        return 0.0;
    double b = vec_dot(d, m), a = vec_dot(m, m);
    if (!(b < 0.0))
        return INFINITY; /* not approaching */
    double x[3] = {d[1] * m[2] - d[2] * m[1], d[2] * m[0] - d[0] * m[2], d[0] * m[1] - d[1] * m[0]};
    double disc = a * sigma * sigma - vec_dot(x, x);
    if (disc < 0.0)
        return INFINITY;
    return c / (-b + sqrt(disc));
}

typedef struct sweep {
    double origin[3], motion[3], radius;
    double lo[3], hi[3];    /* the box the cast centre sweeps, widened by its radius */
    double mid[3], half[3]; /* its centre and half widths */
} sweep;

/* The spheres against the cast (into *best), and the overlap query's
 * spheres: their number, the first capacity ids written. */
void query_cast_spheres(carom_world *w, const sweep *q, carom_sphere_id ignore, best_hit *best);
size_t query_overlap_spheres(carom_world *w, const double centre[3], double radius,
                             carom_sphere_id *ids, size_t capacity);
/* The overlap query's walls, planes, segments and triangles
 * (world_query_obstacles.c): their number, the first capacity written;
 * centre in the box along periodic axes, radius below half of it. */
size_t query_overlap_obstacles(const carom_world *w, const double centre[3], double radius,
                               carom_obstacle *found, size_t capacity);

#endif
