/* Scene queries (include/carom/query.h): a sphere cast through the world
 * as it is now, and the spheres and fixed things overlapping a sphere.
 *
 * Contract: nothing in the world changes but the queries' index
 * (driven spheres are probed, as carom_world_get_sphere does). The
 * spheres that may be in reach (world_query_spheres.c: every one, or
 * those of the index's cells in reach) are tested first per axis
 * against the box the query sweeps (which also picks the periodic images
 * the query can reach), then exactly; along periodic axes a cast goes
 * in pieces of at most a quarter box, each from an origin moved into the
 * box. A sphere is hit at the smaller root f of
 * |origin + f motion - p|^2 = sigma^2, c / (-b + sqrt(D)) with D by
 * Lagrange's identity (query_cast.h; no cancellation: b < 0 when
 * approaching); already overlapping (c < 0) is a hit at f = 0. Walls,
 * planes and segment and triangle faces are linear in f, segment ends and
 * triangle corners are spheres of radius 0, triangle edges the same test
 * across the edge's line. */
#include <math.h>
#include <string.h>

#include "query_cast.h"

/* The faces of walled axes: the centre within radius of a face, or
 * beyond it, at the start is a hit at 0. */
static void cast_walls(const carom_world *w, const sweep *q, best_hit *best)
{
    for (int k = 0; k < w->def.dim; k++) {
        if (w->def.boundary[k] != CAROM_BOUNDARY_WALLS)
            continue;
        for (int high = 0; high < 2; high++) {
            double s = high ? 1.0 : -1.0;
            /* how far the centre is inside, from the face, less the radius */
            double gap = high ? w->def.box[k] - q->origin[k] - q->radius : q->origin[k] - q->radius;
            double closing = s * q->motion[k];
            double f = gap < 0.0 ? 0.0 : closing > 0.0 ? gap / closing : INFINITY;
            double normal[3] = {0.0, 0.0, 0.0};
            normal[k] = -s;
            query_consider(best, f, CAROM_CONTACT_WALL,
                           ((uint64_t)1 << 32) + (uint64_t)(2 * k + high), CAROM_QUERY_NO_SPHERE,
                           2 * k + high, NULL, normal);
        }
    }
}

static void cast_planes(const carom_world *w, const sweep *q, best_hit *best)
{
    for (size_t i = 0; i < w->nplanes; i++) {
        const world_plane *pl = &w->planes[i];
        double gap = vec_dot(pl->n, q->origin) - pl->d - q->radius;
        double closing = -vec_dot(pl->n, q->motion);
        double f = gap < 0.0 ? 0.0 : closing > 0.0 ? gap / closing : INFINITY;
        query_consider(best, f, CAROM_CONTACT_PLANE, ((uint64_t)2 << 32) + i, CAROM_QUERY_NO_SPHERE,
                       (int)i, NULL, pl->n);
    }
}

/* A segment (stored image i, named by its given index): a face while the
 * centre is alongside (linear), or an end (a point); the hit keeps the
 * segment's point nearest the centre then, for the normal. */
static void cast_segment(const carom_world *w, const sweep *q, uint32_t i, best_hit *best)
{
    const world_segment *g = &w->segments[i];
    double e = (q->origin[0] - g->a[0]) * g->n[0] + (q->origin[1] - g->a[1]) * g->n[1];
    double rate = q->motion[0] * g->n[0] + q->motion[1] * g->n[1];
    double side = e >= 0.0 ? 1.0 : -1.0;
    double f = INFINITY, gap = side * e - q->radius, closing = -side * rate;
    double x[3];
    world_segment_nearest(g, q->origin, x);
    if (hypot(q->origin[0] - x[0], q->origin[1] - x[1]) < q->radius) {
        f = 0.0; /* overlapping at the start */
    } else if (gap >= 0.0 && closing > 0.0) {
        double face = gap / closing;
        double u = (q->origin[0] + face * q->motion[0] - g->a[0]) * g->dir[0] +
                   (q->origin[1] + face * q->motion[1] - g->a[1]) * g->dir[1];
        if (u >= 0.0 && u <= g->length)
            f = face;
    }
    f = fmin(f, query_point_time(q->origin, q->motion, g->a, q->radius));
    f = fmin(f, query_point_time(q->origin, q->motion, g->b, q->radius));
    if (!(f <= 1.0))
        return;
    double at[3];
    for (int m = 0; m < 3; m++)
        at[m] = q->origin[m] + f * q->motion[m];
    world_segment_nearest(g, at, x);
    query_consider(best, f, CAROM_CONTACT_SEGMENT, ((uint64_t)3 << 32) + g->given,
                   CAROM_QUERY_NO_SPHERE, (int)g->given, x, NULL);
}

/* The query box of a cast piece: its swept box widened by round-off. */
static void cast_box(const sweep *q, double lo[3], double hi[3])
{
    double slack = 1e-12 * (world_plane_scale(q->mid) + sqrt(vec_dot(q->half, q->half)));
    for (int m = 0; m < 3; m++) {
        lo[m] = q->lo[m] - slack;
        hi[m] = q->hi[m] + slack;
    }
}

/* The segments whose boxes meet the swept box (query_consider ranks hits
 * by fraction, then index: any order); a caster of cast_in_pieces (no
 * sphere to ignore). */
static void cast_segments(carom_world *w, const sweep *q, carom_sphere_id ignore, best_hit *best)
{
    (void)ignore;
    double lo[3], hi[3];
    cast_box(q, lo, hi);
    box_tree_walk walk;
    box_tree_walk_start_box(&walk, &w->segment_tree, q->mid, INFINITY, lo, hi);
    const uint32_t *items;
    uint32_t n;
    while ((n = box_tree_walk_next(&walk, &items)))
        for (uint32_t e = 0; e < n; e++)
            cast_segment(w, q, items[e], best);
}

/* A triangle (stored image i, named by its given index): a face while
 * the centre is over it (linear), an edge (the point test across the
 * edge's line, while alongside) or a corner (a point); the hit keeps the
 * triangle's point nearest the centre then, for the normal. */
static void cast_triangle(const carom_world *w, const sweep *q, uint32_t i, best_hit *best)
{
    static const double zero[3] = {0.0, 0.0, 0.0};
    const world_triangle *g = &w->triangles[i];
    double x[3], d[3], f = INFINITY;
    world_triangle_nearest(g, q->origin, x);
    vec_sub(d, q->origin, x);
    if (vec_dot(d, d) < q->radius * q->radius) {
        query_consider(best, 0.0, CAROM_CONTACT_TRIANGLE, ((uint64_t)4 << 32) + g->given,
                       CAROM_QUERY_NO_SPHERE, (int)g->given, x, NULL);
        return; /* overlapping at the start */
    }
    vec_sub(d, q->origin, g->p[0]);
    double e = vec_dot(d, g->n), side = e >= 0.0 ? 1.0 : -1.0;
    double gap = side * e - q->radius, closing = -side * vec_dot(q->motion, g->n);
    if (gap >= 0.0 && closing > 0.0) {
        double face = gap / closing, y[3];
        int over = 1;
        for (int k = 0; k < 3 && over; k++) {
            for (int m = 0; m < 3; m++)
                y[m] = q->origin[m] + face * q->motion[m] - g->p[k][m];
            over = vec_dot(y, g->inward[k]) >= 0.0;
        }
        if (over)
            f = face;
    }
    for (int k = 0; k < 3; k++) { /* those a lower triangle shares, it tests */
        const double *dir = g->dir[k];
        double across[3], motion[3];
        vec_sub(d, q->origin, g->p[k]);
        double along = vec_dot(d, dir), rate = vec_dot(q->motion, dir);
        for (int m = 0; m < 3; m++) {
            across[m] = d[m] - along * dir[m];
            motion[m] = q->motion[m] - rate * dir[m];
        }
        double t = g->shared & TRIANGLE_EDGE_SHARED(k)
                       ? INFINITY
                       : query_point_time(across, motion, zero, q->radius);
        if (t < f && along + t * rate >= 0.0 && along + t * rate <= g->length[k])
            f = t;
        if (!(g->shared & TRIANGLE_CORNER_SHARED(k)))
            f = fmin(f, query_point_time(q->origin, q->motion, g->p[k], q->radius));
    }
    if (!(f <= 1.0))
        return;
    double at[3];
    for (int m = 0; m < 3; m++)
        at[m] = q->origin[m] + f * q->motion[m];
    world_triangle_nearest(g, at, x);
    query_consider(best, f, CAROM_CONTACT_TRIANGLE, ((uint64_t)4 << 32) + g->given,
                   CAROM_QUERY_NO_SPHERE, (int)g->given, x, NULL);
}

/* The triangles whose boxes meet the swept box, widened by round-off
 * (query_consider ranks hits by fraction, then index: any order); a
 * caster of cast_in_pieces (no sphere to ignore). */
static void cast_triangles(carom_world *w, const sweep *q, carom_sphere_id ignore, best_hit *best)
{
    (void)ignore;
    double lo[3], hi[3];
    cast_box(q, lo, hi);
    box_tree_walk walk;
    box_tree_walk_start_box(&walk, &w->triangle_tree, q->mid, INFINITY, lo, hi);
    const uint32_t *items;
    uint32_t n;
    while ((n = box_tree_walk_next(&walk, &items)))
        for (uint32_t e = 0; e < n; e++)
            if (box_tree_walk_meets(&walk, w->triangles[items[e]].lo, w->triangles[items[e]].hi))
                cast_triangle(w, q, items[e], best);
}

/* Coordinates beyond this are refused: squares of them must not overflow. */
#define QUERY_COORDINATE_MAX 1e100
/* A cast is cut into pieces of at most a quarter of the box along each
 * periodic axis (each piece then meets a sphere through one image at
 * most, or a few); at most this many. */
#define QUERY_PIECES_MAX 1048576

static int in_range3(const double v[3])
{
    for (int k = 0; k < 3; k++)
        if (!(fabs(v[k]) <= QUERY_COORDINATE_MAX))
            return 0;
    return 1;
}

static carom_status check_place(carom_world *w, const char *what, const double x[3],
                                const char *name)
{
    if (!in_range3(x))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: %s must be finite numbers of magnitude at most 1e100", what, name);
    if (w->def.dim == 2 && x[2] != 0.0)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: %s has a z component (%g) in a 2D world", what, name, x[2]);
    return CAROM_OK;
}

/* The sweep of a centre moving from origin by motion; with wrap, the
 * origin is first moved by whole boxes into the box along periodic axes
 * (*shift: what was taken off). */
static void make_sweep(const carom_world *w, const double origin[3], const double motion[3],
                       double radius, int wrap, double shift[3], sweep *q)
{
    for (int k = 0; k < 3; k++) {
        shift[k] = 0.0;
        if (wrap && k < w->def.dim && w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC) {
            double L = w->def.box[k];
            shift[k] = L * floor(origin[k] / L);
        }
        q->origin[k] = origin[k] - shift[k];
        q->motion[k] = motion[k];
        double end = q->origin[k] + q->motion[k];
        q->lo[k] = fmin(q->origin[k], end) - radius;
        q->hi[k] = fmax(q->origin[k], end) + radius;
        q->mid[k] = 0.5 * (q->lo[k] + q->hi[k]);
        q->half[k] = 0.5 * (q->hi[k] - q->lo[k]);
    }
    q->radius = radius;
}

/* What a cast meets in one sweep (query_cast_spheres, cast_triangles):
 * hits into *best with the point they keep in best->centre (a sphere's
 * centre, a triangle's nearest point). */
typedef void sweep_caster(carom_world *w, const sweep *q, carom_sphere_id ignore, best_hit *best);

/* What `cast_one` finds, piece by piece (the first piece with a hit has
 * the first hit), each piece's origin moved into the box along periodic
 * axes (the index's cells are counted from there; the triangles' images
 * are stored around it), the kept point moved back with it. */
static void cast_in_pieces(carom_world *w, const carom_cast *cast, long pieces,
                           sweep_caster *cast_one, best_hit *best)
{
    for (long j = 0; j < pieces; j++) {
        double f0 = (double)j / (double)pieces, origin[3], motion[3], shift[3];
        for (int k = 0; k < 3; k++) {
            origin[k] = cast->origin[k] + f0 * cast->motion[k];
            motion[k] = cast->motion[k] / (double)pieces;
        }
        sweep q;
        make_sweep(w, origin, motion, cast->radius, 1, shift, &q);
        best_hit piece = {0};
        cast_one(w, &q, cast->ignore, &piece);
        if (!piece.found)
            continue;
        double centre[3];
        for (int k = 0; k < 3; k++)
            centre[k] = piece.centre[k] + shift[k];
        query_consider(best, ((double)j + piece.f) / (double)pieces, piece.kind, piece.rank,
                       piece.sphere, piece.wall, centre, NULL);
        return;
    }
}

carom_status carom_world_cast_sphere(carom_world *w, const carom_cast *cast, carom_cast_hit *hit,
                                     int *found)
{
    if (!w)
        return CAROM_ERR_INVALID_ARGUMENT;
    if (w->shear_rate != 0.0)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: not in a sheared world (carom_world_set_shear): it would not "
                          "see across the sheared boundary",
                          "carom_world_cast_sphere");
    if (!cast || !hit || !found)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "carom_world_cast_sphere: cast, hit and found must not be NULL");
    carom_status st = check_place(w, "carom_world_cast_sphere", cast->origin, "origin");
    if (st == CAROM_OK)
        st = check_place(w, "carom_world_cast_sphere", cast->motion, "motion");
    if (st != CAROM_OK)
        return st;
    if (!(isfinite(cast->radius) && cast->radius >= 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "carom_world_cast_sphere: radius must be finite and >= 0, not %g",
                          cast->radius);
    long pieces = 1;
    for (int k = 0; k < w->def.dim; k++) {
        if (w->def.boundary[k] != CAROM_BOUNDARY_PERIODIC)
            continue;
        double L = w->def.box[k], need = ceil(fabs(cast->motion[k]) / (0.25 * L));
        if (!(cast->radius < 0.5 * L))
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "carom_world_cast_sphere: radius %g is not below half the periodic "
                              "box length %g (axis %d)",
                              cast->radius, L, k);
        if (!(need <= QUERY_PIECES_MAX))
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "carom_world_cast_sphere: the motion spans %g box lengths along "
                              "periodic axis %d (at most %d)",
                              fabs(cast->motion[k]) / L, k, QUERY_PIECES_MAX / 4);
        if (need > (double)pieces)
            pieces = (long)need;
    }
    sweep q;
    double no_shift[3] = {0.0, 0.0, 0.0};
    make_sweep(w, cast->origin, cast->motion, cast->radius, 0, no_shift, &q);
    best_hit best = {0};
    st = world_triangles_index(w);
    if (st == CAROM_OK)
        st = world_segments_index(w);
    if (st != CAROM_OK)
        return st;
    cast_in_pieces(w, cast, pieces, query_cast_spheres, &best);
    cast_walls(w, &q, &best);
    cast_planes(w, &q, &best);
    if (w->nsegments)
        cast_in_pieces(w, cast, pieces, cast_segments, &best);
    if (w->ntriangles)
        cast_in_pieces(w, cast, pieces, cast_triangles, &best);
    *found = best.found;
    if (!best.found)
        return CAROM_OK;
    carom_cast_hit h = {0};
    h.kind = best.kind;
    h.sphere = best.sphere;
    h.wall = best.wall;
    h.fraction = best.f;
    for (int k = 0; k < 3; k++)
        h.position[k] = q.origin[k] + best.f * q.motion[k];
    if (best.kind == CAROM_CONTACT_SPHERE || best.kind == CAROM_CONTACT_SEGMENT ||
        best.kind == CAROM_CONTACT_TRIANGLE) {
        double from[3]; /* a sphere's centre, a segment's or triangle's nearest point */
        memcpy(from, best.centre, sizeof from);
        double d[3] = {h.position[0] - from[0], h.position[1] - from[1], h.position[2] - from[2]};
        double len = sqrt(vec_dot(d, d));
        for (int k = 0; k < 3; k++)
            h.normal[k] = len > 0.0 ? d[k] / len : 0.0;
        if (!(len > 0.0)) {
            /* The centres coincide: any direction; against the motion. */
            double m = sqrt(vec_dot(q.motion, q.motion));
            for (int k = 0; k < 3; k++)
                h.normal[k] = m > 0.0 ? -q.motion[k] / m : (k == 0);
        }
    } else {
        memcpy(h.normal, best.normal, sizeof h.normal);
    }
    for (int k = 0; k < 3; k++)
        h.point[k] = h.position[k] - q.radius * h.normal[k];
    *hit = h;
    return CAROM_OK;
}

/* The overlap queries' arguments checked (`what`: the call, `listed`: its
 * array's name; `short_reach`: the radius must be below half the box
 * along periodic axes), and the centre moved into the box along them. */
static carom_status overlap_query_place(carom_world *w, const char *what, const char *listed,
                                        int listed_ok, const double centre[3], double radius,
                                        int short_reach, const size_t *count, double at[3])
{
    if (!centre || !count || !listed_ok)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: centre and count must not be NULL, nor %s with a capacity", what,
                          listed);
    carom_status st = check_place(w, what, centre, "centre");
    if (st != CAROM_OK)
        return st;
    if (!(isfinite(radius) && radius >= 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: radius must be finite and >= 0, not %g", what, radius);
    for (int k = 0; k < 3; k++)
        at[k] = centre[k];
    for (int k = 0; k < w->def.dim; k++) {
        if (w->def.boundary[k] != CAROM_BOUNDARY_PERIODIC)
            continue;
        double L = w->def.box[k];
        if (short_reach && !(radius < 0.5 * L))
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "%s: radius %g is not below half the periodic box length %g "
                              "(axis %d)",
                              what, radius, L, k);
        world_wrap_coordinate(&at[k], L);
    }
    return CAROM_OK;
}

carom_status carom_world_query_sphere(carom_world *w, const double centre[3], double radius,
                                      carom_sphere_id *ids, size_t capacity, size_t *count)
{
    if (!w)
        return CAROM_ERR_INVALID_ARGUMENT;
    if (w->shear_rate != 0.0)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: not in a sheared world (carom_world_set_shear): it would not "
                          "see across the sheared boundary",
                          "carom_world_query_sphere");
    double at[3];
    carom_status st = overlap_query_place(w, "carom_world_query_sphere", "ids",
                                          ids || capacity == 0, centre, radius, 0, count, at);
    if (st != CAROM_OK)
        return st;
    *count = query_overlap_spheres(w, at, radius, ids, capacity);
    return CAROM_OK;
}

carom_status carom_world_query_obstacles(carom_world *w, const double centre[3], double radius,
                                         carom_obstacle *found, size_t capacity, size_t *count)
{
    if (!w)
        return CAROM_ERR_INVALID_ARGUMENT;
    double at[3];
    carom_status st = overlap_query_place(w, "carom_world_query_obstacles", "found",
                                          found || capacity == 0, centre, radius, 1, count, at);
    if (st != CAROM_OK)
        return st;
    st = world_triangles_index(w);
    if (st == CAROM_OK)
        st = world_segments_index(w);
    if (st != CAROM_OK)
        return st;
    *count = query_overlap_obstacles(w, at, radius, found, capacity);
    return CAROM_OK;
}
