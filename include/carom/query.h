/* Scene queries: what is where in a world at its current time, asked
 * between advances (or from a contact callback) without changing the
 * world, as a game or robot asks its physics engine: which spheres
 * overlap a region, which fixed things (walls, planes, segments,
 * triangles) do, and what a ray or a moving sphere would hit first.
 *
 * The spheres are taken where they are now (driven ones from their
 * driver's probe, growing ones with the radius they have reached), as a
 * still picture: a cast does not move them along. Periodic axes wrap:
 * every image of a sphere that the query can reach counts. The first
 * two queries at a world time test every sphere (O(N)); the third builds
 * an index of where the spheres are then (a grid of about one sphere a
 * cell, O(N), about as much as four such queries), and it and the
 * queries after it, until the world's time or its spheres change, visit
 * only the cells they can reach: about a microsecond for a short cast
 * among 10^5 spheres (docs/benchmarks.md). The index is the only memory
 * a query may allocate (at most about 60 bytes a sphere, kept until the world is
 * freed); without memory for it, queries test every sphere. */
#ifndef CAROM_QUERY_H
#define CAROM_QUERY_H

#include "carom/carom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A sphere of radius `radius` (0: a ray) whose centre moves from `origin`
 * by `motion` (through origin + f motion, f from 0 to 1). `ignore`: a
 * sphere that is not hit (the caster's own; CAROM_QUERY_NO_SPHERE: none).
 * In 2D the third components must be 0. */
#define CAROM_QUERY_NO_SPHERE UINT32_MAX
typedef struct carom_cast {
    double origin[3];
    double motion[3];
    double radius;
    carom_sphere_id ignore;
} carom_cast;

/* What a cast meets first: a sphere (kind CAROM_CONTACT_SPHERE, `sphere`
 * its id), a wall of the box (CAROM_CONTACT_WALL, `wall` = 2 axis + (0
 * low, 1 high face)), a fixed plane, segment or triangle
 * (CAROM_CONTACT_PLANE, CAROM_CONTACT_SEGMENT or CAROM_CONTACT_TRIANGLE,
 * `wall` its index). */
typedef struct carom_cast_hit {
    carom_contact_kind kind;
    carom_sphere_id sphere; /* CAROM_CONTACT_SPHERE; else CAROM_QUERY_NO_SPHERE */
    int wall;               /* the face, plane, segment or triangle; -1 for a sphere */
    double fraction;        /* f of the motion at the contact, in [0, 1] */
    double position[3];     /* the cast centre then, origin + f motion */
    double normal[3];       /* unit, from what was hit towards the cast centre */
    double point[3];        /* the contact point: position - radius normal */
} carom_cast_hit;

/* The first thing the cast touches, at the smallest f: *found is 1 and
 * *hit says what, or *found is 0 and *hit is untouched. Touching means
 * the distance comes down to the sum of radii (for a wall, plane,
 * segment or triangle: the cast's radius); a cast that merely grazes something
 * (touches it moving along it) touches it. A cast that starts
 * overlapping something (nearer than the sum of radii; for a wall, its
 * centre nearer than its radius or outside the box) hits it at f = 0,
 * whatever its motion; its normal then points from the thing's nearest
 * point (a sphere's centre) to the origin. Ties in f go to spheres (the
 * lowest id), then walls, planes, segments and triangles (lowest index).
 * CAROM_ERR_INVALID_ARGUMENT, with the world's message, for a NULL
 * argument, coordinates that are not finite or beyond 1e100 in
 * magnitude, a negative radius, a nonzero third component in 2D, and on
 * a periodic axis a radius of half the box or more or a motion across
 * more than 2^18 boxes. (A long cast is cut into pieces of a quarter of
 * the box each, tested in turn.) */
carom_status carom_world_cast_sphere(carom_world *world, const carom_cast *cast,
                                     carom_cast_hit *hit, int *found);

/* The spheres nearer to `centre` than `radius` plus their own radius
 * (radius 0: those containing the point), in no particular order: their
 * ids in ids[0..capacity) and their number in *count, which may exceed
 * capacity (then only capacity of them are written; ids may be NULL when
 * capacity is 0). Errors as for carom_world_cast_sphere. */
carom_status carom_world_query_sphere(carom_world *world, const double centre[3], double radius,
                                      carom_sphere_id *ids, size_t capacity, size_t *count);

/* A fixed thing of the world: a wall of the box (kind CAROM_CONTACT_WALL,
 * index 2 axis + (0 low, 1 high face)), or a fixed plane, segment or
 * triangle (CAROM_CONTACT_PLANE, CAROM_CONTACT_SEGMENT or
 * CAROM_CONTACT_TRIANGLE, index as it was given), named as contacts and
 * casts name it. */
typedef struct carom_obstacle {
    carom_contact_kind kind;
    int index;
} carom_obstacle;

/* The fixed things a sphere of `radius` at `centre` overlaps now, as a
 * game asks whether a place is free: a wall whose face is nearer to the
 * centre than radius, or that the centre is beyond; a plane whose free
 * side the centre is less than radius into, or not on; a segment or
 * triangle with a point nearer than radius (along periodic axes, any of
 * its images). Radius 0: those whose solid side holds the point (walls
 * and planes). Touching is not overlapping, as in carom_world_query_sphere.
 * Each is listed once, walls first (by face), then planes, segments and
 * triangles (by index): the first `capacity` of them in found[], their
 * number in *count, which may exceed capacity (found may be NULL when
 * capacity is 0). Spheres are not listed (carom_world_query_sphere).
 * Errors as for carom_world_cast_sphere (radius must be below half the box
 * along periodic axes). Tests every plane and segment, and the triangles
 * whose boxes come within reach (their tree, which the first query or
 * cast after triangles were added builds, as an advance would:
 * CAROM_ERR_OUT_OF_MEMORY without memory for it). */
carom_status carom_world_query_obstacles(carom_world *world, const double centre[3], double radius,
                                         carom_obstacle *found, size_t capacity, size_t *count);

#ifdef __cplusplus
}
#endif

#endif
