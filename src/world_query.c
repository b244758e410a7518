/* Scene queries (include/carom/query.h): a sphere cast through the world
 * as it is now, and the spheres overlapping a sphere.
 *
 * Contract: nothing in the world changes (driven spheres are probed, as
 * carom_world_get_sphere does). Every live sphere is tested, O(N): first
 * per axis against the box the query sweeps (which also picks the
 * periodic images the query can reach), then exactly. A sphere is hit at
 * the smaller root f of |origin + f motion - p|^2 = sigma^2, computed as
 * c / (-b + sqrt(b^2 - a c)) (no cancellation: b < 0 when approaching);
 * already overlapping (c < 0) is a hit at f = 0. Walls, planes and
 * segment faces are linear in f, segment ends are spheres of radius 0. */
#include <math.h>
#include <string.h>

#include "carom/query.h"
#include "vec.h"
#include "world_internal.h"

/* The best hit so far: its f and what it is, as a rank that orders ties
 * (spheres by id, then walls, planes, segments by index). */
typedef struct best_hit {
    double f;
    carom_contact_kind kind;
    uint64_t rank;
    carom_sphere_id sphere;
    int wall;
    double normal[3]; /* unit, towards the cast centre; or 0 to compute */
    double centre[3]; /* for a sphere or a segment end: the point hit */
    int found;
} best_hit;

static void consider(best_hit *b, double f, carom_contact_kind kind, uint64_t rank,
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
 * (f in [0, 1]; f = 0 if it starts within), or INFINITY. */
static double point_time(const double o[3], const double m[3], const double p[3], double sigma)
{
    double d[3] = {o[0] - p[0], o[1] - p[1], o[2] - p[2]};
    double c = vec_dot(d, d) - sigma * sigma;
    if (c < 0.0)
        return 0.0;
    double b = vec_dot(d, m), a = vec_dot(m, m);
    if (!(b < 0.0))
        return INFINITY; /* not approaching */
    double disc = b * b - a * c;
    if (disc < 0.0)
        return INFINITY;
    return c / (-b + sqrt(disc));
}

/* d less the multiple of L nearest to it (in [-L/2, L/2]); inv = 1 / L.
 * A multiplication and a truncation instead of a division and floor. */
static inline double nearest_image(double d, double L, double inv)
{
    double y = d * inv + 0.5;
    double n = (double)(long long)y;
    if (n > y)
        n -= 1.0;
    return d - n * L;
}

/* The images of a sphere at p (radius r) along axis k that the cast's
 * swept interval [lo, hi] can reach: shifts n L for n in [*first, *last]
 * (only n = 0 on an axis with walls); 0 if none. The general case, for
 * casts longer than half the box. */
static int image_range(const carom_world *w, int k, double p, double r, double lo, double hi,
                       long *first, long *last)
{
    if (w->def.boundary[k] != CAROM_BOUNDARY_PERIODIC) {
        *first = *last = 0;
        return p + r >= lo && p - r <= hi;
    }
    double L = w->def.box[k];
    double from = ceil((lo - r - p) / L), to = floor((hi + r - p) / L);
    if (from > to)
        return 0;
    *first = (long)from;
    *last = (long)to;
    return 1;
}

/* The sphere's position now: inline for a ballistic sphere (the common
 * case), through world_true_state (the driver) for a driven one. */
static inline void position_now(const carom_world *w, uint32_t slot, double p[3])
{
    const sphere *s = &w->spheres[slot];
    if (w->info[slot].driven) {
        double v[3];
        world_true_state(w, slot, w->time, p, v);
        return;
    }
    double dt = w->time - s->t;
    int falls = w->info[slot].falls;
    for (int k = 0; k < 3; k++)
        p[k] = s->x[k] + dt * (s->v[k] + (falls ? 0.5 * w->gravity[k] * dt : 0.0));
}

typedef struct sweep {
    double origin[3], motion[3], radius;
    double lo[3], hi[3];    /* the box the cast centre sweeps, widened by its radius */
    double mid[3], half[3]; /* its centre and half widths */
} sweep;

/* Sphere (centre p, radius r) against the cast, each image it may reach. */
static void cast_sphere_images(const carom_world *w, const sweep *q, const double p[3], double r,
                               carom_sphere_id id, best_hit *best)
{
    int dim = w->def.dim;
    long first[3] = {0, 0, 0}, last[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++)
        if (!image_range(w, k, p[k], r, q->lo[k], q->hi[k], &first[k], &last[k]))
            return;
    long n[3];
    for (n[2] = first[2]; n[2] <= last[2]; n[2]++)
        for (n[1] = first[1]; n[1] <= last[1]; n[1]++)
            for (n[0] = first[0]; n[0] <= last[0]; n[0]++) {
                double image[3];
                for (int k = 0; k < 3; k++)
                    image[k] = p[k] + (double)n[k] * (k < dim ? w->def.box[k] : 0.0);
                double f = point_time(q->origin, q->motion, image, q->radius + r);
                consider(best, f, CAROM_CONTACT_SPHERE, id, id, -1, image, NULL);
            }
}

static void cast_spheres(carom_world *w, const sweep *q, carom_sphere_id ignore, best_hit *best)
{
    int dim = w->def.dim;
    double inv[3] = {0.0, 0.0, 0.0};
    int periodic[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++) {
        periodic[k] = w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC;
        inv[k] = 1.0 / w->def.box[k];
    }
    double grow = growth_factor(w, w->time);
    for (uint32_t slot = 0; slot < w->count; slot++) {
        if (!w->info[slot].alive)
            continue;
        double p[3];
        position_now(w, slot, p);
        double r = w->spheres[slot].radius * grow;
        /* Per axis: out of reach of the swept box, or (a short cast on a
         * periodic axis) reachable through its nearest image only. */
        int general = 0, reachable = 1;
        double image[3] = {p[0], p[1], p[2]};
        for (int k = 0; k < dim && reachable; k++) {
            double d = p[k] - q->mid[k], reach = q->half[k] + r;
            if (periodic[k]) {
                if (!(reach < 0.5 * w->def.box[k])) {
                    general = 1;
                    continue;
                }
                d = nearest_image(d, w->def.box[k], inv[k]);
                image[k] = q->mid[k] + d;
            }
            reachable = fabs(d) <= reach;
        }
        if (!reachable)
            continue;
        carom_sphere_id id = world_id_of(w, slot);
        if (id == ignore)
            continue;
        if (general) {
            cast_sphere_images(w, q, p, r, id, best);
            continue;
        }
        double f = point_time(q->origin, q->motion, image, q->radius + r);
        consider(best, f, CAROM_CONTACT_SPHERE, id, id, -1, image, NULL);
    }
}

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
            consider(best, f, CAROM_CONTACT_WALL, ((uint64_t)1 << 32) + (uint64_t)(2 * k + high),
                     CAROM_QUERY_NO_SPHERE, 2 * k + high, NULL, normal);
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
        consider(best, f, CAROM_CONTACT_PLANE, ((uint64_t)2 << 32) + i, CAROM_QUERY_NO_SPHERE,
                 (int)i, NULL, pl->n);
    }
}

/* A segment: a face while the centre is alongside (linear), or an end (a
 * point); the normal is found at the hit, from the nearest point. */
static void cast_segments(const carom_world *w, const sweep *q, best_hit *best)
{
    for (size_t i = 0; i < w->nsegments; i++) {
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
        f = fmin(f, point_time(q->origin, q->motion, g->a, q->radius));
        f = fmin(f, point_time(q->origin, q->motion, g->b, q->radius));
        consider(best, f, CAROM_CONTACT_SEGMENT, ((uint64_t)3 << 32) + i, CAROM_QUERY_NO_SPHERE,
                 (int)i, NULL, NULL);
    }
}

static int finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static carom_status check_place(carom_world *w, const char *what, const double x[3],
                                const char *name)
{
    if (!finite3(x))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "%s: %s must be finite numbers", what,
                          name);
    if (w->def.dim == 2 && x[2] != 0.0)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: %s has a z component (%g) in a 2D world", what, name, x[2]);
    return CAROM_OK;
}

carom_status carom_world_cast_sphere(carom_world *w, const carom_cast *cast, carom_cast_hit *hit,
                                     int *found)
{
    if (!w)
        return CAROM_ERR_INVALID_ARGUMENT;
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
    sweep q;
    memcpy(q.origin, cast->origin, sizeof q.origin);
    memcpy(q.motion, cast->motion, sizeof q.motion);
    q.radius = cast->radius;
    for (int k = 0; k < 3; k++) {
        double end = q.origin[k] + q.motion[k];
        q.lo[k] = fmin(q.origin[k], end) - q.radius;
        q.hi[k] = fmax(q.origin[k], end) + q.radius;
        q.mid[k] = 0.5 * (q.lo[k] + q.hi[k]);
        q.half[k] = 0.5 * (q.hi[k] - q.lo[k]);
    }
    best_hit best = {0};
    cast_spheres(w, &q, cast->ignore, &best);
    cast_walls(w, &q, &best);
    cast_planes(w, &q, &best);
    cast_segments(w, &q, &best);
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
    if (best.kind == CAROM_CONTACT_SPHERE || best.kind == CAROM_CONTACT_SEGMENT) {
        double from[3];
        if (best.kind == CAROM_CONTACT_SEGMENT)
            world_segment_nearest(&w->segments[best.wall], h.position, from);
        else
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

carom_status carom_world_query_sphere(carom_world *w, const double centre[3], double radius,
                                      carom_sphere_id *ids, size_t capacity, size_t *count)
{
    if (!w)
        return CAROM_ERR_INVALID_ARGUMENT;
    if (!centre || !count || (!ids && capacity > 0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "carom_world_query_sphere: centre and count must not be NULL, nor "
                          "ids with a capacity");
    carom_status st = check_place(w, "carom_world_query_sphere", centre, "centre");
    if (st != CAROM_OK)
        return st;
    if (!(isfinite(radius) && radius >= 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "carom_world_query_sphere: radius must be finite and >= 0, not %g",
                          radius);
    size_t n = 0;
    int dim = w->def.dim;
    double grow = growth_factor(w, w->time), inv[3] = {0.0, 0.0, 0.0};
    int periodic[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++) {
        periodic[k] = w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC;
        inv[k] = 1.0 / w->def.box[k];
    }
    for (uint32_t slot = 0; slot < w->count; slot++) {
        if (!w->info[slot].alive)
            continue;
        double p[3];
        position_now(w, slot, p);
        double sigma = radius + w->spheres[slot].radius * grow, d2 = 0.0;
        for (int k = 0; k < dim; k++) {
            double d = p[k] - centre[k];
            if (periodic[k]) /* the nearest image: any other is farther */
                d = nearest_image(d, w->def.box[k], inv[k]);
            d2 += d * d;
        }
        if (d2 < sigma * sigma) {
            if (n < capacity)
                ids[n] = world_id_of(w, slot);
            n++;
        }
    }
    *count = n;
    return CAROM_OK;
}
