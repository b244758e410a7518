/* Fixed segments (carom_world_add_segment, 2D): thin walls of finite
 * length that spheres bounce off on either side and around their ends.
 *
 * Contract: a segment is added only when every live sphere is clear of
 * it, and the world builds again at the next advance, so every
 * prediction from then on sees it (world_predict.c asks
 * world_segments_time after the walls and cell faces: an EVENT_WALL whose
 * partner is SEGMENT_WALL + the segment's index; response.c reflects it
 * along the line from the segment's nearest point to the centre).
 * Spheres added or moved later are checked at their placement
 * (world_build.c). Segments are for 2D worlds. Along periodic axes a
 * segment is stored with its images, moved by -L, 0 and +L along each
 * (up to 9 copies, the given one first), all named by the index it was
 * given (world_segment.given), as triangles are (world_triangles.c: a
 * centre stays within about a box of [0, L) between the events that wrap
 * it, so every image it can reach is stored). Driven spheres' bounds
 * meet them in world_driven_segments.c (through the same tree,
 * world_driven_predict.c), ballistic spheres here: a bounding-box tree of the stored segments
 * (segment_tree, built with the world) gives a prediction only those
 * whose boxes it can reach before the event it already has (sweep.h), as
 * for triangles, so its cost does not grow with their number. Placement
 * checks walk the same tree. Growing spheres meet
 * them when their growing surface reaches a face or an end (straight
 * motion then: linear and quadratic upcrossings), and leave them as they
 * leave walls.
 *
 * The set of centres closer than r to a segment is a capsule: a band of
 * half-width r along the segment's length, and a disk of radius r around
 * each end. A centre from outside enters it first either through one of
 * the band's long sides (a face contact: the distance along the normal
 * comes down to r, at a point whose projection falls on the segment) or
 * through an end's disk (|x - end| comes down to r): the band's short
 * sides lie inside the disks. Under gravity the face is a quadratic in
 * time, an end a quartic; the earliest of the four (both faces: a centre
 * may go round an end and, on its parabola, come back onto the far face
 * with no event between) is the contact. */
#include <math.h>
#include <stdlib.h>

#include "roots.h"
#include "sweep.h"
#include "vec.h"
#include "world_internal.h"

#define SEGMENT_TOLERANCE 1e-10 /* relative to the radius, as for overlaps */

void world_segment_nearest(const world_segment *g, const double x[3], double q[3])
{
    double u = (x[0] - g->a[0]) * g->dir[0] + (x[1] - g->a[1]) * g->dir[1];
    u = u < 0.0 ? 0.0 : u > g->length ? g->length : u;
    q[0] = g->a[0] + u * g->dir[0];
    q[1] = g->a[1] + u * g->dir[1];
    q[2] = 0.0;
}

static double distance_to(const world_segment *g, const double x[3])
{
    double q[3];
    world_segment_nearest(g, x, q);
    return hypot(x[0] - q[0], x[1] - q[1]);
}

/* First tau >= 0 at which a centre at x + v tau + g tau^2 / 2 comes within
 * r of point p (the quartic of |x(tau) - p|^2 = r^2; quadratic when g is
 * zero), polished about its own state (roots_polish_contact). */
static double end_time(const double x[3], const double v[3], const double g[3], const double p[3],
                       double r)
{
    double d[3] = {x[0] - p[0], x[1] - p[1], 0.0};
    double c[5] = {r * r - vec_dot(d, d), -2.0 * vec_dot(d, v), -(vec_dot(v, v) + vec_dot(d, g)),
                   -vec_dot(v, g), -0.25 * vec_dot(g, g)};
    double tau = c[3] == 0.0 && c[4] == 0.0 ? roots_first_upcrossing_quadratic(c[0], c[1], c[2])
                                            : roots_first_upcrossing_poly(c, 4);
    if (!isfinite(tau))
        return tau;
    double half_g[3] = {0.5 * g[0], 0.5 * g[1], 0.0};
    return roots_polish_contact(d, v, half_g, r, tau);
}

/* (world_internal.h) The far face, for a centre on the other side of the
 * segment's line (h = c0 + c1 tau + c2 tau^2 = r - its distance beyond
 * the line on that side, so c0 >= r > 0): it can only come in through
 * that face after going round an end, out beyond r on that side, and
 * curving back under gravity: h dips below zero and rises again, at its
 * larger root. */
double world_segment_far_face_time(double c0, double c1, double c2)
{
    if (!(c2 > 0.0) || !(c1 < 0.0))
        return INFINITY;
    double disc = c1 * c1 - 4.0 * c2 * c0;
    if (!(disc > 0.0))
        return INFINITY;
    return (-c1 + sqrt(disc)) / (2.0 * c2); /* c1 < 0: no cancellation */
}

/* tau if the centre is then alongside the segment (a face contact), else
 * INFINITY. */
static double alongside(const sphere *s, const double acc[3], const world_segment *g, double tau)
{
    if (!isfinite(tau))
        return INFINITY;
    double u = 0.0;
    for (int k = 0; k < 2; k++)
        u += (s->x[k] + tau * (s->v[k] + 0.5 * acc[k] * tau) - g->a[k]) * g->dir[k];
    return u >= 0.0 && u <= g->length ? tau : INFINITY;
}

/* world_segment_time for growing spheres (no gravity then): the surface
 * moves out at the growth speed, so each face and end is a linear or
 * quadratic upcrossing of (r + grow tau) - distance. */
static double growing_time(const carom_world *w, const sphere *s, const world_segment *g,
                           double now)
{
    double r = s->radius * growth_factor(w, s->t), grow = growth_speed(w, s->radius);
    const double none[3] = {0.0, 0.0, 0.0};
    double e = (s->x[0] - g->a[0]) * g->n[0] + (s->x[1] - g->a[1]) * g->n[1];
    double side = e >= 0.0 ? 1.0 : -1.0, rate = side * vec_dot(g->n, s->v);
    double tau =
        alongside(s, none, g, roots_first_upcrossing_quadratic(r - side * e, grow - rate, 0.0));
    for (int end = 0; end < 2; end++) {
        const double *p = end ? g->b : g->a;
        double d[3] = {s->x[0] - p[0], s->x[1] - p[1], 0.0};
        tau = fmin(tau, roots_first_upcrossing_quadratic(r * r - vec_dot(d, d),
                                                         2.0 * (r * grow - vec_dot(d, s->v)),
                                                         grow * grow - vec_dot(s->v, s->v)));
    }
    return fmax(s->t + tau, now);
}

double world_segment_time(const carom_world *w, const sphere *s, const world_segment *g, double now)
{
    if (w->growth_rate > 0.0)
        return growing_time(w, s, g, now);
    double acc[3] = {0.0, 0.0, 0.0};
    if (w->has_gravity && INFO(s)->falls)
        vec_copy(acc, w->gravity);
    double r = s->radius;
    /* The faces: the centre's height e above the line (along n), and its
     * rate and half its acceleration, seen from the centre's side. */
    double e = (s->x[0] - g->a[0]) * g->n[0] + (s->x[1] - g->a[1]) * g->n[1];
    double side = e >= 0.0 ? 1.0 : -1.0;
    double rate = side * vec_dot(g->n, s->v), pull = 0.5 * side * vec_dot(g->n, acc);
    double tau = alongside(s, acc, g, roots_first_upcrossing_quadratic(r - side * e, -rate, -pull));
    tau = fmin(tau, alongside(s, acc, g, world_segment_far_face_time(r + side * e, rate, pull)));
    tau = fmin(tau, end_time(s->x, s->v, acc, g->a, r));
    tau = fmin(tau, end_time(s->x, s->v, acc, g->b, r));
    return fmax(s->t + tau, now);
}

static carom_status overlapping(carom_world *w, uint32_t slot, double radius, uint32_t segment,
                                double distance)
{
    return world_fail(w, CAROM_ERR_OVERLAP,
                      "sphere %u (radius %g) overlaps segment %u: its centre is %.17g from it",
                      (unsigned)world_id_of(w, slot), radius, (unsigned)segment, distance);
}

carom_status world_segments_index(carom_world *w)
{
    if (w->segment_tree.count == w->nsegments)
        return CAROM_OK;
    size_t n = w->nsegments;
    double(*lo)[3] = malloc(n * sizeof *lo), (*hi)[3] = malloc(n * sizeof *hi);
    int rc = -1;
    if (lo && hi) {
        for (size_t g = 0; g < n; g++)
            for (int m = 0; m < 3; m++) {
                lo[g][m] = fmin(w->segments[g].a[m], w->segments[g].b[m]);
                hi[g][m] = fmax(w->segments[g].a[m], w->segments[g].b[m]);
            }
        rc = box_tree_build(&w->segment_tree, (const double(*)[3])lo, (const double(*)[3])hi, n);
    }
    free(lo);
    free(hi);
    if (rc != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the tree of %zu segments",
                          n);
    return CAROM_OK;
}

carom_status world_segments_check(carom_world *w, uint32_t slot)
{
    carom_status st = world_segments_index(w);
    if (st != CAROM_OK)
        return st;
    const sphere *s = &w->spheres[slot];
    /* A segment within the radius has its box within it too; the first in
     * storage order is named, as before the tree (images follow their
     * segment). */
    box_tree_walk k;
    box_tree_walk_start(&k, &w->segment_tree, s->x, s->radius);
    const uint32_t *items;
    uint32_t n, first = UINT32_MAX;
    double nearest = INFINITY;
    while ((n = box_tree_walk_next(&k, &items)))
        for (uint32_t e = 0; e < n; e++) {
            double d = distance_to(&w->segments[items[e]], s->x);
            if (d < s->radius * (1.0 - SEGMENT_TOLERANCE) && items[e] < first) {
                first = items[e];
                nearest = d;
            }
        }
    if (first != UINT32_MAX)
        return overlapping(w, slot, s->radius, w->segments[first].given, nearest);
    return CAROM_OK;
}

double world_segments_time(const carom_world *w, const sphere *s, double now, double before,
                           uint32_t *which)
{
#ifdef CAROM_VALIDATE
    if (w->segment_tree.count != w->nsegments)
        abort(); /* the world builds the tree before any prediction */
#endif
    double best = before;
    sphere_sweep sw;
    box_tree_walk k;
    sphere_sweep_start(w, s, before, &w->segment_tree, &sw, &k);
    const uint32_t *items;
    uint32_t n, found = UINT32_MAX;
    while ((n = box_tree_walk_next(&k, &items)))
        for (uint32_t e = 0; e < n; e++) {
            uint32_t g = items[e];
            double glo[3], ghi[3];
            for (int m = 0; m < 3; m++) {
                glo[m] = fmin(w->segments[g].a[m], w->segments[g].b[m]);
                ghi[m] = fmax(w->segments[g].a[m], w->segments[g].b[m]);
            }
            if (!box_tree_walk_meets(&k, glo, ghi))
                continue;
            double t = world_segment_time(w, s, &w->segments[g], now);
            /* At a tie, the first in storage order. */
            if (t < best || (t == best && found != UINT32_MAX && g < found)) {
                best = t;
                found = g;
            }
        }
    *which = found;
    return found == UINT32_MAX ? INFINITY : best;
}

/* The images of g to store: g itself first, then moved by -L, 0 or +L
 * along each periodic axis; their number. */
static int images_of(const carom_world *w, const world_segment *g, world_segment images[9])
{
    int count = 0;
    for (int c = 0; c < 9; c++) {
        int step[2] = {c % 3, c / 3}; /* 0: none, 1: -L, 2: +L */
        world_segment image = *g;
        int fits = 1;
        for (int m = 0; m < 2; m++) {
            if (step[m] && w->def.boundary[m] != CAROM_BOUNDARY_PERIODIC)
                fits = 0;
            double shift = step[m] == 1 ? -w->def.box[m] : step[m] == 2 ? w->def.box[m] : 0.0;
            image.a[m] += shift;
            image.b[m] += shift;
        }
        if (fits)
            images[count++] = image;
    }
    return count;
}

/* Room for `more` stored segments and one more given index. */
static carom_status make_room(carom_world *w, size_t more)
{
    if (w->nsegments + more > w->segments_room) {
        size_t room = w->segments_room ? 2 * w->segments_room : 4;
        while (room < w->nsegments + more)
            room *= 2;
        world_segment *segments = realloc(w->segments, room * sizeof *segments);
        if (!segments)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu segments", room);
        w->segments = segments;
        w->segments_room = room;
    }
    if (w->nsegments_given == w->segments_given_room) {
        size_t room = w->segments_given_room ? 2 * w->segments_given_room : 4;
        uint32_t *given = realloc(w->segment_given, room * sizeof *given);
        if (!given)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu segments", room);
        w->segment_given = given;
        w->segments_given_room = room;
    }
    return CAROM_OK;
}

carom_status carom_world_add_segment(carom_world *w, const double a[2], const double b[2],
                                     uint32_t *index_out)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_add_segment");
    if (!a || !b)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "segment: an end is NULL");
    if (w->def.dim != 2)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "segment: segments are for 2D worlds (use planes in 3D)");
    for (int k = 0; k < 2; k++)
        if (!isfinite(a[k]) || !isfinite(b[k]) || a[k] < 0.0 || b[k] < 0.0 ||
            a[k] > w->def.box[k] || b[k] > w->def.box[k])
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "segment: (%g, %g)-(%g, %g) must have finite ends inside the box",
                              a[0], a[1], b[0], b[1]);
    double length = hypot(b[0] - a[0], b[1] - a[1]);
    if (!(length > 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "segment: its two ends are the same");
    world_segment seg = {{a[0], a[1], 0.0},
                         {b[0], b[1], 0.0},
                         {(b[0] - a[0]) / length, (b[1] - a[1]) / length, 0.0},
                         {-(b[1] - a[1]) / length, (b[0] - a[0]) / length, 0.0},
                         length,
                         (uint32_t)w->nsegments_given};
    world_segment images[9];
    int count = images_of(w, &seg, images);
    for (uint32_t slot = 0; slot < w->count; slot++) {
        if (!w->info[slot].alive)
            continue;
        double x[3], v[3];
        world_true_state(w, slot, w->time, x, v);
        double d = INFINITY;
        for (int k = 0; k < count; k++)
            d = fmin(d, distance_to(&images[k], x));
        double r = w->spheres[slot].radius * growth_factor(w, w->time);
        if (d < r * (1.0 - SEGMENT_TOLERANCE))
            return overlapping(w, slot, r, seg.given, d);
    }
    carom_status st = make_room(w, (size_t)count);
    if (st != CAROM_OK)
        return st;
    w->segment_given[w->nsegments_given++] = (uint32_t)w->nsegments;
    for (int k = 0; k < count; k++)
        w->segments[w->nsegments++] = images[k];
    if (index_out)
        *index_out = seg.given;
    world_unbuild(w); /* every prediction again, with the segment */
    return CAROM_OK;
}

size_t carom_world_segment_count(const carom_world *w)
{
    return w->nsegments_given;
}

carom_status carom_world_get_segment(const carom_world *w, uint32_t index, double a[2], double b[2])
{
    if (index >= w->nsegments_given)
        return CAROM_ERR_INVALID_ARGUMENT;
    const world_segment *g = &w->segments[w->segment_given[index]];
    for (int k = 0; k < 2; k++) {
        if (a)
            a[k] = g->a[k];
        if (b)
            b[k] = g->b[k];
    }
    return CAROM_OK;
}

void world_segments_free(carom_world *w)
{
    free(w->segments);
    free(w->segment_given);
    box_tree_free(&w->segment_tree);
    w->segments = NULL;
    w->segment_given = NULL;
    w->nsegments = w->segments_room = 0;
    w->nsegments_given = w->segments_given_room = 0;
}
