/* Lees-Edwards boundaries (carom_world_set_shear): planar shear flow
 * along x with its gradient along y. The periodic image of the box above
 * it (y + Ly) is displaced along x by offset(t) = rate Ly t (mod Lx) and
 * moves at shear_speed = rate Ly; the one below by -offset(t), at
 * -shear_speed. A sphere leaving through the top enters at the bottom
 * shifted by -offset(t) along x with shear_speed taken from its x
 * velocity (and the reverse through the bottom), so that its trajectory,
 * seen from any image, does not change.
 *
 * Contract:
 * - Only in a world of one dense level of cells, with or without
 *   neighbour lists, ballistic and responding: world_shear_refusal names
 *   what stands in the way of the latter, and world_build fails with it.
 *   The build makes the cells one dense level whatever the radii and the
 *   density (grid_levels_init's one_dense_level; world_big_choose keeps
 *   every sphere in the grid); world_shear_grid_refusal guards that.
 * - The grid's y axis is built without wrapping (world_build.c), so the
 *   27 cells around a sphere never reach across the sheared boundary
 *   (nor do neighbour lists, made from them); a sphere in the top
 *   (bottom) row of cells meets the spheres of the bottom (top) row
 *   through their moving images: world_shear_across lists them, and
 *   world_predict.c times them (pair_time_sheared), so candidates stay
 *   symmetric. With lists, a sphere's cell is its list centre's.
 * - Crossing the top or bottom face of the grid is the cell crossing
 *   world_shear_cross makes: the sphere is moved to the world's time and
 *   its stored x, y and x velocity change as above (its counter does
 *   not: events with it stay right, as for a periodic wrap); its cell
 *   is found again. With lists, crossing it is a list's remaking
 *   (world_shear_relist_through), so that a sphere's stored y stays in
 *   the box, as with cells.
 * - Every nearest image (checks, a collision's contact, overlaps) comes
 *   from world_shear_image, which gives the image's velocity offset too:
 *   a collision across the boundary responds in the frame of the image
 *   (world_events.c). */
#include <math.h>

#include "vec.h"
#include "world_internal.h"

/* The offset at t, in [0, Lx), and (wraps) the count of Lx it has
 * wrapped through to get there: shear_base + shear_speed t is
 * offset + (wraps - shear_wraps) Lx. */
static double offset_and_wraps(const carom_world *w, double t, int64_t *wraps)
{
    double L = w->def.box[0];
    double travel = w->shear_speed * t, r = fmod(travel, L); /* exact */
    double d = fmod(w->shear_base + r, L);
    double offset = d < 0.0 ? d + L : d;
    if (wraps)
        *wraps = w->shear_wraps + (int64_t)round((travel - r) / L) +
                 (int64_t)round((w->shear_base + r - offset) / L);
    return offset;
}

double world_shear_offset(const carom_world *w, double t)
{
    return offset_and_wraps(w, t, NULL);
}

int64_t world_shear_wraps(const carom_world *w, double t)
{
    int64_t wraps;
    offset_and_wraps(w, t, &wraps);
    return wraps;
}

/* After a change of the base or the speed: the count of wraps now is
 * `wraps` again, so that it goes on through the change. */
static void keep_wraps(carom_world *w, int64_t wraps)
{
    w->shear_wraps = 0;
    w->shear_wraps = wraps - world_shear_wraps(w, w->time);
}

void world_shear_image(const carom_world *w, double t, const double xa[3], const double xb[3],
                       double shift[3], double *dvx)
{
    for (int k = 0; k < 3; k++) {
        shift[k] = 0.0;
        if (k < w->def.dim && w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC) {
            double L = w->def.box[k];
            shift[k] = -L * round((xb[k] - xa[k]) / L);
        }
    }
    double side = shift[1] / w->def.box[1]; /* -1, 0 or 1 (more in a thin box) */
    double Lx = w->def.box[0];
    double sx = side * world_shear_offset(w, t);
    shift[0] = sx - Lx * round((xb[0] + sx - xa[0]) / Lx);
    if (dvx)
        *dvx = side * w->shear_speed;
}

int world_shear_leaves(const carom_world *w, uint32_t i, int up)
{
    const grid *g = &w->levels.level[0];
    return up ? w->info[i].cc[1] == g->n[1] - 1 : w->info[i].cc[1] == 0;
}

/* Moves sphere slot's stored state (at its own time) through the sheared
 * boundary n times upwards (n < 0: downwards), then into the box along x. */
static void move_through(carom_world *w, uint32_t slot, double n)
{
    sphere *s = &w->spheres[slot];
    int64_t wraps;
    s->x[1] -= n * w->def.box[1];
    s->x[0] -= n * offset_and_wraps(w, s->t, &wraps);
    s->v[0] -= n * w->shear_speed;
    /* Unwrapped (world_images.c): y's image counts the crossing; x's,
     * the offset's wraps that the shift left out. */
    world_note_wrap(w, slot, 1, (int64_t)n);
    world_note_wrap(w, slot, 0, -(int64_t)n * wraps);
    world_wrap_into_box(w, slot, 0);
}

void world_shear_cross(carom_world *w, uint32_t i, int up)
{
    sphere *s = &w->spheres[i];
    const grid *g = &w->levels.level[0];
    world_advance_sphere(w, s, w->time);
    cell_unlink(w, i);
    move_through(w, i, up ? 1.0 : -1.0);
    INFO(s)->cc[0] = grid_coordinate(g, 0, s->x[0]);
    INFO(s)->cc[1] = up ? 0 : g->n[1] - 1;
    cell_link(w, i);
}

void world_shear_relist_through(carom_world *w, uint32_t i, int up)
{
    /* The stored state is not advanced (as at any list's remaking): its
     * image's is moved, at its own time. */
    move_through(w, i, up ? 1.0 : -1.0);
}

void world_shear_into_box(const carom_world *w, double t, double x[3], double v[3])
{
    double L = w->def.box[1];
    double n = floor(x[1] / L);
    if (n != 0.0) {
        x[1] -= n * L;
        x[0] -= n * world_shear_offset(w, t);
        if (v)
            v[0] -= n * w->shear_speed;
    }
    if (!(x[1] < L)) /* round-off of a value just below 0 */
        x[1] = 0.0;
    world_wrap_coordinate(&x[0], w->def.box[0]);
}

void world_shear_wrap(carom_world *w, uint32_t slot)
{
    double y = w->spheres[slot].x[1];
    int64_t n = world_wrap_coordinate(&y, w->def.box[1]);
    if (n != 0)
        move_through(w, slot, (double)n);
    w->spheres[slot].x[1] = y;
}

/* The cells of the opposite row that may hold a sphere whose image meets
 * sphere i by horizon: columns [*from, *to] along x (unwrapped: the
 * caller wraps them), or the whole row (returns 0), and the layers
 * [*zfrom, *zto] along z (unwrapped too). Sphere i moves in a straight
 * line until then; a sphere of the row stays in its cell until then (a
 * crossing is an event of its own), or with neighbour lists within the
 * skin of its centre's cell (grid_radius counts the skin with the
 * largest radius); the images move with the offset, which goes from s0
 * now to s1 by then. A cell is kept where the span it sweeps along x
 * (and its extent along z) comes within i's radius and grid_radius of
 * where i goes, with a margin against round-off. */
typedef struct row_reach {
    int32_t from, to;   /* columns along x */
    int32_t zfrom, zto; /* layers along z */
} row_reach;

static int cells_in_reach(const carom_world *w, const grid *g, uint32_t i, int side,
                          double horizon, row_reach *r)
{
    const sphere *s = &w->spheres[i];
    double x[3], v[3];
    world_sphere_at(w, s, w->time, x, v);
    double dt = horizon > w->time ? horizon - w->time : 0.0;
    double reach = s->radius + w->grid_radius;
    reach += 1e-6 * g->width[0] + 1e-9 * (w->def.box[0] + fabs(x[0]));
    r->zfrom = r->zto = 0;
    if (!(dt < INFINITY)) { /* every column, the layers around its own */
        if (w->def.dim == 3) {
            r->zfrom = w->info[i].cc[2] - 1;
            r->zto = w->info[i].cc[2] + 1;
        }
        return 0;
    }
    if (w->def.dim == 3) {
        double z0 = x[2], z1 = x[2] + v[2] * dt;
        double lo = (z0 < z1 ? z0 : z1) - reach, hi = (z0 < z1 ? z1 : z0) + reach;
        double first = ceil(lo / g->width[2]) - 1.0, last = floor(hi / g->width[2]);
        /* Never beyond the layers around i's own (where i stays). */
        double own = w->info[i].cc[2];
        r->zfrom = (int32_t)(first > own - 1.0 ? first : own - 1.0);
        r->zto = (int32_t)(last < own + 1.0 ? last : own + 1.0);
    }
    double width = g->width[0];
    double s0 = side * world_shear_offset(w, w->time);
    double s1 = s0 + side * w->shear_speed * dt;
    double x0 = x[0], x1 = x[0] + v[0] * dt;
    double lo = (x0 < x1 ? x0 : x1) - reach - (s0 < s1 ? s1 : s0);
    double hi = (x0 < x1 ? x1 : x0) + reach - (s0 < s1 ? s0 : s1);
    double first = ceil(lo / width) - 1.0, last = floor(hi / width);
    if (!(last - first + 1.0 < g->n[0]))
        return 0;
    r->from = (int32_t)first;
    r->to = (int32_t)last;
    return 1;
}

void world_shear_across(const carom_world *w, uint32_t i, double horizon, shear_visit_fn visit,
                        void *ctx)
{
    const grid *g = &w->levels.level[0];
    for (int side = -1; side <= 1; side += 2) {
        /* Side +1: i in the top row meets the bottom row's images above. */
        if (!world_shear_leaves(w, i, side > 0))
            continue;
        row_reach r;
        int part = cells_in_reach(w, g, i, side, horizon, &r);
        if (!part) {
            r.from = 0;
            r.to = g->n[0] - 1;
        }
        int32_t c[3];
        c[1] = side > 0 ? 0 : g->n[1] - 1;
        for (int32_t z = r.zfrom; z <= r.zto; z++) {
            double zshift = 0.0;
            c[2] = z;
            if (c[2] < 0 || c[2] >= g->n[2]) {
                if (!g->periodic[2])
                    continue;
                zshift = c[2] < 0 ? -g->length[2] : g->length[2];
                c[2] += c[2] < 0 ? g->n[2] : -g->n[2];
            }
            for (int32_t x = r.from; x <= r.to; x++) {
                c[0] = part ? ((x % g->n[0]) + g->n[0]) % g->n[0] : x;
                for (uint32_t j = g->head[grid_index(g, c)]; j != SPHERE_NONE;
                     j = w->cell_next[j])
                    if (j != i)
                        visit(w, ctx, i, j, side, zshift);
            }
        }
    }
}

/* The largest overlap of sphere i with spheres across the boundary. */
typedef struct overlap_search {
    uint32_t above;  /* only partners of higher slot than this */
    uint32_t below;  /* only partners of lower slot than this */
    double worst;    /* the largest relative overlap found */
    uint32_t with;
    double dist, sigma;
} overlap_search;

static void note_overlap(const carom_world *w, void *ctx, uint32_t i, uint32_t j, int side,
                         double zshift)
{
    (void)side;
    (void)zshift;
    overlap_search *o = ctx;
    if (j >= o->below || (o->above != SPHERE_NONE && j <= o->above) || !spheres_meet(w, i, j))
        return;
    double xa[3], va[3], xb[3], vb[3], shift[3], d[3];
    world_true_state(w, i, w->time, xa, va);
    world_true_state(w, j, w->time, xb, vb);
    world_shear_image(w, w->time, xa, xb, shift, NULL);
    for (int k = 0; k < 3; k++)
        d[k] = xb[k] + shift[k] - xa[k];
    double sigma = w->spheres[i].radius + w->spheres[j].radius;
    double dist = sqrt(vec_dot(d, d));
    double overlap = (sigma - dist) / sigma;
    if (overlap > o->worst) {
        o->worst = overlap;
        o->with = j;
        o->dist = dist;
        o->sigma = sigma;
    }
}

int world_shear_overlap_across(const carom_world *w, uint32_t i, uint32_t below,
                               double tolerance, uint32_t *with, double *dist, double *sigma)
{
    overlap_search o = {SPHERE_NONE, below, tolerance, SPHERE_NONE, 0.0, 0.0};
    world_shear_across(w, i, w->time, note_overlap, &o);
    if (o.with == SPHERE_NONE)
        return 0;
    *with = o.with;
    *dist = o.dist;
    *sigma = o.sigma;
    return 1;
}

double world_shear_max_overlap_across(const carom_world *w, uint32_t i)
{
    overlap_search o = {i, UINT32_MAX, 0.0, SPHERE_NONE, 0.0, 0.0};
    world_shear_across(w, i, w->time, note_overlap, &o);
    return o.worst;
}

const char *world_shear_refusal(const carom_world *w)
{
    if (w->def.boundary[0] != CAROM_BOUNDARY_PERIODIC ||
        w->def.boundary[1] != CAROM_BOUNDARY_PERIODIC)
        return "walls along x or y (both must be periodic)";
    if (w->has_gravity)
        return "gravity";
    if (w->has_driven)
        return "driven spheres";
    if (w->def.response == CAROM_RESPONSE_NONE)
        return "report-only response";
    if (w->growth_rate > 0.0)
        return "growing spheres (carom_world_set_growth)";
    if (w->nplanes || w->nsegments_given || w->ntriangles_given)
        return "fixed planes, segments or triangles";
    return NULL;
}

/* After the grid is made: what only the build knows (the build makes a
 * sheared world's cells one dense level, so this guards an invariant). */
const char *world_shear_grid_refusal(const carom_world *w)
{
    if (w->nbig > 0)
        return "spheres so much larger than the others that they are kept out of the grid";
    if (!w->levels.simple)
        return "radii spread too far for one level of cells (or a box too sparse for dense "
               "cells)";
    return NULL;
}

carom_status carom_world_set_shear(carom_world *w, double rate)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_set_shear");
    if (!isfinite(rate))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "shear rate %g must be finite", rate);
    if (rate != 0.0) {
        const char *refused = world_shear_refusal(w);
        if (refused)
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "Lees-Edwards shear (carom_world_set_shear) is not supported with %s",
                              refused);
    }
    /* The offset goes on from where it is: images do not jump; nor do
     * the offset's wraps (0 from no shear), so that unwrapped positions
     * do not either. */
    int64_t wraps = 0;
    double offset = w->shear_rate != 0.0 ? offset_and_wraps(w, w->time, &wraps) : 0.0;
    if (rate == 0.0 && w->image) /* the x images keep the wraps they had */
        for (uint32_t id = 0; id < w->count; id++)
            w->image[id][0] += w->image[id][1] * wraps;
    w->shear_rate = rate;
    w->shear_speed = rate * w->def.box[1];
    w->shear_base = offset - fmod(w->shear_speed * w->time, w->def.box[0]);
    keep_wraps(w, wraps);
    /* The grid's y axis wraps or not, and every event changes: built
     * again by the next advance (O(N)). */
    if (w->built)
        world_unbuild(w);
    return CAROM_OK;
}

carom_status carom_world_set_shear_offset(carom_world *w, double offset)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_set_shear_offset");
    if (!isfinite(offset))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "shear offset %g must be finite",
                          offset);
    if (w->shear_rate == 0.0)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "carom_world_set_shear_offset: the world is not sheared "
                          "(carom_world_set_shear first)");
    double L = w->def.box[0];
    int64_t wraps = world_shear_wraps(w, w->time);
    w->shear_base = fmod(offset, L) - fmod(w->shear_speed * w->time, L);
    keep_wraps(w, wraps); /* only the offset jumps */
    /* The images jumped: every pair is checked again, and every event
     * predicted again, by the next advance. */
    for (uint32_t i = 0; i < w->count; i++)
        if (w->info[i].alive)
            w->info[i].unchecked = 1;
    if (w->built)
        world_unbuild(w);
    return CAROM_OK;
}

double carom_world_shear_rate(const carom_world *w)
{
    return w->shear_rate;
}

double carom_world_shear_offset(const carom_world *w)
{
    return w->shear_rate != 0.0 ? world_shear_offset(w, w->time) : 0.0;
}
