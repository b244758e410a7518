/* The spheres in the scene queries (query_cast.h): a cast or an
 * overlap query visits the cells of the queries' index
 * (world_query_index.c) that it can reach, and tests the spheres the
 * index leaves out (driven and large ones) in full; without an index (no
 * memory) it tests every sphere. A cast walks its motion in steps of
 * one cell width, each step's box widened by the cast's radius and the
 * largest indexed radius, and stops after the step in which it has a
 * hit: a sphere met earlier lies in an earlier step's box. A periodic
 * axis is walked in unwrapped cells, each visited cell's spheres moved
 * by the multiple of the box its wrap says. */
#include <math.h>

#include "query_cast.h"

/* d less the multiple of L nearest to it (in [-L/2, L/2]); inv = 1 / L.
 * A multiplication and a truncation instead of a division and floor. */
static inline double nearest_image(double d, double L, double inv)
{
    double y = d * inv + 0.5;
    double n = fabs(y) < 0x1p52 ? (double)(long long)y : floor(y);
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

/* The sphere's position now (a driven one's from its driver). */
static void position_now(const carom_world *w, uint32_t slot, double p[3])
{
    double v[3];
    world_true_state(w, slot, w->time, p, v);
}

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
                double f = query_point_time(q->origin, q->motion, image, q->radius + r);
                query_consider(best, f, CAROM_CONTACT_SPHERE, id, id, -1, image, NULL);
            }
}

/* One sphere (centre p, radius r) against the cast: out of reach of the
 * swept box per axis, or (a short cast on a periodic axis) reachable
 * through its nearest image only, or through every image in reach. */
static void cast_one(const carom_world *w, const sweep *q, const double p[3], double r,
                     carom_sphere_id id, best_hit *best)
{
    int dim = w->def.dim, general = 0;
    double image[3] = {p[0], p[1], p[2]};
    for (int k = 0; k < dim; k++) {
        double d = p[k] - q->mid[k], reach = q->half[k] + r;
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC) {
            double L = w->def.box[k];
            if (!(reach < 0.5 * L)) {
                general = 1;
                continue;
            }
            d = nearest_image(d, L, 1.0 / L);
            image[k] = q->mid[k] + d;
        }
        if (fabs(d) > reach)
            return;
    }
    if (general) {
        cast_sphere_images(w, q, p, r, id, best);
        return;
    }
    double f = query_point_time(q->origin, q->motion, image, q->radius + r);
    query_consider(best, f, CAROM_CONTACT_SPHERE, id, id, -1, image, NULL);
}

/* Every sphere, or (ix) the ones the index leaves out. */
static void cast_listed(carom_world *w, const sweep *q, carom_sphere_id ignore,
                        const query_index *ix, best_hit *best)
{
    double grow = growth_factor(w, w->time);
    size_t n = ix ? ix->nothers : w->count;
    for (size_t k = 0; k < n; k++) {
        uint32_t slot = ix ? ix->others[k] : (uint32_t)k;
        if (!w->info[slot].alive || world_id_of(w, slot) == ignore)
            continue;
        double p[3];
        position_now(w, slot, p);
        cast_one(w, q, p, w->spheres[slot].radius * grow, world_id_of(w, slot), best);
    }
}

/* The range of unwrapped cells along axis k that [lo, hi] covers
 * (clamped to the box on a walled axis); 0 if none. */
static int cell_range(const carom_world *w, const query_index *ix, int k, double lo, double hi,
                      long *first, long *last)
{
    double a = floor(lo * ix->inv_width[k]), b = floor(hi * ix->inv_width[k]);
    if (w->def.boundary[k] != CAROM_BOUNDARY_PERIODIC) {
        a = fmax(a, 0.0);
        b = fmin(b, (double)(ix->n[k] - 1));
    }
    /* (periodic: the callers' origins are in the box, their reach less
     * than a box or so; a range past this is refused as empty rather
     * than converted) */
    if (!(a <= b) || fabs(a) > 0x1p40 || fabs(b) > 0x1p40)
        return 0;
    *first = (long)a;
    *last = (long)b;
    return 1;
}

/* The cell and the shift of unwrapped cell i along axis k. */
static long wrap_cell(const carom_world *w, const query_index *ix, int k, long i, double *shift)
{
    long n = ix->n[k];
    long c = i % n;
    if (c < 0)
        c += n;
    *shift = (double)((i - c) / n) * w->def.box[k];
    return c;
}

/* Calls visit for each cell of the unwrapped ranges [first, last] per
 * axis, with the shift that moves its spheres to that image. */
typedef void (*cell_visit)(void *context, uint32_t begin, uint32_t end, const double shift[3]);
static void visit_cells(const carom_world *w, const query_index *ix, const long first[3],
                        const long last[3], cell_visit visit, void *context)
{
    long i[3];
    for (i[2] = first[2]; i[2] <= last[2]; i[2]++)
        for (i[1] = first[1]; i[1] <= last[1]; i[1]++)
            for (i[0] = first[0]; i[0] <= last[0]; i[0]++) {
                double shift[3] = {0.0, 0.0, 0.0};
                size_t cell = 0, stride = 1;
                for (int k = 0; k < w->def.dim; k++) {
                    cell += (size_t)wrap_cell(w, ix, k, i[k], &shift[k]) * stride;
                    stride *= (size_t)ix->n[k];
                }
                visit(context, ix->start[cell], ix->start[cell + 1], shift);
            }
}

typedef struct cast_visit {
    carom_world *w;
    const sweep *q;
    carom_sphere_id ignore;
    const query_index *ix;
    best_hit *best;
} cast_visit;

static void cast_in_cell(void *context, uint32_t begin, uint32_t end, const double shift[3])
{
    cast_visit *c = context;
    for (uint32_t e = begin; e < end; e++) {
        const double *x = c->ix->x[e];
        double image[3] = {x[0] + shift[0], x[1] + shift[1], x[2] + shift[2]};
        double f = query_point_time(c->q->origin, c->q->motion, image, c->q->radius + x[3]);
        if (!(f <= 1.0))
            continue;
        carom_sphere_id id = world_id_of(c->w, c->ix->slot[e]);
        if (id != c->ignore)
            query_consider(c->best, f, CAROM_CONTACT_SPHERE, id, id, -1, image, NULL);
    }
}

/* The cast against the indexed spheres of the cells of [lo, hi]. */
static void cast_cells(carom_world *w, const sweep *q, carom_sphere_id ignore,
                       const query_index *ix, const double lo[3], const double hi[3],
                       best_hit *best)
{
    long first[3] = {0, 0, 0}, last[3] = {0, 0, 0};
    for (int k = 0; k < w->def.dim; k++)
        if (!cell_range(w, ix, k, lo[k], hi[k], &first[k], &last[k]))
            return;
    cast_visit c = {w, q, ignore, ix, best};
    visit_cells(w, ix, first, last, cast_in_cell, &c);
}

void query_cast_spheres(carom_world *w, const sweep *q, carom_sphere_id ignore, best_hit *best)
{
    const query_index *ix = query_index_now(w);
    cast_listed(w, q, ignore, ix, best);
    if (!ix)
        return;
    int dim = w->def.dim;
    double step = ix->width[0], length = sqrt(vec_dot(q->motion, q->motion));
    for (int k = 1; k < dim; k++)
        step = fmin(step, ix->width[k]);
    double steps = length > 0.0 ? ceil(length / step) : 1.0;
    if (steps > (double)ix->ncells + 8.0) {
        /* A cast across the box many times: every indexed sphere. */
        for (size_t e = 0; e < ix->count; e++)
            if (world_id_of(w, ix->slot[e]) != ignore)
                cast_one(w, q, ix->x[e], ix->x[e][3], world_id_of(w, ix->slot[e]), best);
        return;
    }
    double reach = q->radius + ix->max_radius;
    long n = (long)steps;
    for (long s = 0; s < n; s++) {
        double f0 = (double)s / (double)n, f1 = s + 1 == n ? 1.0 : (double)(s + 1) / (double)n;
        double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < dim; k++) {
            double a = q->origin[k] + f0 * q->motion[k], b = q->origin[k] + f1 * q->motion[k];
            lo[k] = fmin(a, b) - reach;
            hi[k] = fmax(a, b) + reach;
        }
        cast_cells(w, q, ignore, ix, lo, hi, best);
        if (best->found && best->f <= f1)
            return;
    }
}

/* Centre p (radius r) within radius of centre, nearest image. */
static int overlaps(const carom_world *w, const double centre[3], double radius, const double p[3],
                    double r)
{
    double d2 = 0.0, sigma = radius + r;
    for (int k = 0; k < w->def.dim; k++) {
        double d = p[k] - centre[k];
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC)
            d = nearest_image(d, w->def.box[k], 1.0 / w->def.box[k]);
        d2 += d * d;
    }
    return d2 < sigma * sigma;
}

static void note(carom_sphere_id *ids, size_t capacity, size_t *n, carom_sphere_id id)
{
    if (*n < capacity)
        ids[*n] = id;
    (*n)++;
}

typedef struct overlap_visit {
    carom_world *w;
    const query_index *ix;
    const double *centre;
    double radius;
    carom_sphere_id *ids;
    size_t capacity, n;
} overlap_visit;

static void overlap_in_cell(void *context, uint32_t begin, uint32_t end, const double shift[3])
{
    overlap_visit *v = context;
    for (uint32_t e = begin; e < end; e++) {
        const double *x = v->ix->x[e];
        double d2 = 0.0, sigma = v->radius + x[3];
        for (int k = 0; k < v->w->def.dim; k++) {
            double d = x[k] + shift[k] - v->centre[k];
            d2 += d * d;
        }
        if (d2 < sigma * sigma)
            note(v->ids, v->capacity, &v->n, world_id_of(v->w, v->ix->slot[e]));
    }
}

size_t query_overlap_spheres(carom_world *w, const double centre[3], double radius,
                             carom_sphere_id *ids, size_t capacity)
{
    const query_index *ix = query_index_now(w);
    double grow = growth_factor(w, w->time);
    size_t n = 0, listed = ix ? ix->nothers : w->count;
    for (size_t k = 0; k < listed; k++) {
        uint32_t slot = ix ? ix->others[k] : (uint32_t)k;
        if (!w->info[slot].alive)
            continue;
        double p[3];
        position_now(w, slot, p);
        if (overlaps(w, centre, radius, p, w->spheres[slot].radius * grow))
            note(ids, capacity, &n, world_id_of(w, slot));
    }
    if (!ix)
        return n;
    /* The cells in reach, each once (else every indexed sphere). */
    double reach = radius + ix->max_radius, cells = 1.0;
    long first[3] = {0, 0, 0}, last[3] = {0, 0, 0};
    int scan_all = 0;
    for (int k = 0; k < w->def.dim && !scan_all; k++) {
        int periodic = w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC;
        if (periodic && !(2.0 * reach < w->def.box[k])) {
            scan_all = 1; /* it reaches round the box */
            break;
        }
        if (!cell_range(w, ix, k, centre[k] - reach, centre[k] + reach, &first[k], &last[k]))
            return n;
        if (periodic && last[k] - first[k] + 1 >= ix->n[k])
            scan_all = 1;
        cells *= (double)(last[k] - first[k] + 1);
    }
    if (scan_all || cells > (double)ix->count) {
        for (size_t e = 0; e < ix->count; e++)
            if (overlaps(w, centre, radius, ix->x[e], ix->x[e][3]))
                note(ids, capacity, &n, world_id_of(w, ix->slot[e]));
        return n;
    }
    overlap_visit v = {w, ix, centre, radius, ids, capacity, n};
    visit_cells(w, ix, first, last, overlap_in_cell, &v);
    return v.n;
}
