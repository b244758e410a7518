/* Big spheres: a few spheres much larger than the rest (the sphere a user
 * drags through thousands of small ones) would make every grid cell as
 * wide as their diameter, and every small sphere would then scan hundreds
 * of neighbours. Instead they are kept out of the grid:
 * - every sphere's prediction also scans the (few) big spheres, through
 *   the nearest periodic image;
 * - a big sphere scans the cells within reach of it, for as long as it
 *   stays within big_margin of where it scanned; moving that far is an
 *   event (EVENT_RESCAN) that scans again. A small sphere outside those
 *   cells must cross into one of them before it can touch the big sphere,
 *   and then its own prediction finds it.
 * A sphere is big when its radius is more than BIG_FACTOR times the mean
 * radius, there are at most BIG_MAX of them, and every periodic axis is
 * long enough for nearest images to be the ones that meet. */
#include <math.h>
#include <stdlib.h>

#include "vec.h"
#include "world_internal.h"

#define BIG_FACTOR 4.0
#define BIG_MAX 64

void world_big_clear(carom_world *w)
{
    for (size_t k = 0; k < w->nbig; k++)
        w->info[w->big[k]].big = 0;
    w->nbig = 0;
}

double world_big_choose(carom_world *w)
{
    world_big_clear(w);
    /* Growing or sheared: every sphere in the grid. */
    int growing = w->growth_rate > 0.0 || w->shear_rate != 0.0;
    double sum = 0.0, rmax = 0.0;
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive)
            continue;
        double r = sphere_reach(w, (uint32_t)i);
        sum += r;
        n++;
        if (r > rmax)
            rmax = r;
    }
    if (n == 0)
        return 0.5;
    double threshold = BIG_FACTOR * sum / (double)n;
    size_t nbig = 0;
    double rsmall = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive)
            continue;
        double r = sphere_reach(w, (uint32_t)i);
        if (r > threshold)
            nbig++;
        else if (r > rsmall)
            rsmall = r;
    }
    if (nbig == 0 || nbig > BIG_MAX || rsmall == 0.0 || growing)
        return rmax;
    uint32_t *list = realloc(w->big, nbig * sizeof *list);
    if (!list)
        return rmax; /* without big spheres: slower, still correct */
    w->big = list;
    for (size_t i = 0; i < w->count; i++) {
        if (w->info[i].alive && sphere_reach(w, (uint32_t)i) > threshold) {
            w->info[i].big = 1;
            w->big[w->nbig++] = (uint32_t)i;
        }
    }
    w->big_margin = 2.0 * rsmall;
    return rsmall;
}

int world_big_fits_grid(const carom_world *w)
{
    const grid *coarsest = &w->levels.level[w->levels.count - 1];
    for (size_t b = 0; b < w->nbig; b++) {
        double R = sphere_reach(w, w->big[b]);
        for (int k = 0; k < w->def.dim; k++) {
            if (!coarsest->periodic[k])
                continue;
            /* The region a big sphere scans, and the distance two spheres
             * can close between their predictions, stay under L / 2. */
            double reach = R + w->grid_radius + w->big_margin + coarsest->width[k];
            if (coarsest->length[k] < 4.0 * reach)
                return 0;
        }
    }
    return 1;
}

void world_big_remove(carom_world *w, uint32_t id)
{
    for (size_t k = 0; k < w->nbig; k++) {
        if (w->big[k] == id) {
            w->big[k] = w->big[--w->nbig];
            w->info[id].big = 0;
            return;
        }
    }
}

void world_min_image_shift(const carom_world *w, const double xa[3], const double xb[3],
                           double shift[3])
{
    if (w->shear_rate != 0.0) {
        world_shear_image(w, w->time, xa, xb, shift, NULL);
        return;
    }
    for (int k = 0; k < 3; k++) {
        shift[k] = 0.0;
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC && k < w->def.dim) {
            double L = w->def.box[k];
            shift[k] = -L * round((xb[k] - xa[k]) / L);
        }
    }
}

static carom_status check_pair(carom_world *w, uint32_t a, uint32_t b)
{
    if (!spheres_meet(w, a, b))
        return CAROM_OK;
    double xa[3], va[3], xb[3], vb[3], shift[3], d[3];
    world_true_state(w, a, w->time, xa, va); /* a driven sphere: where it is */
    world_true_state(w, b, w->time, xb, vb);
    world_min_image_shift(w, xa, xb, shift);
    for (int k = 0; k < 3; k++)
        d[k] = xb[k] + shift[k] - xa[k];
    double sigma = w->spheres[a].radius + w->spheres[b].radius;
    double dist = sqrt(vec_dot(d, d));
    if (dist < sigma * (1.0 - 1e-10)) {
        uint32_t ia = world_id_of(w, a), ib = world_id_of(w, b);
        uint32_t lo = ia < ib ? ia : ib, hi = ia < ib ? ib : ia;
        return world_fail(w, CAROM_ERR_OVERLAP,
                          "spheres %u and %u overlap (distance %.17g < contact distance %.17g)",
                          (unsigned)lo, (unsigned)hi, dist, sigma);
    }
    return CAROM_OK;
}

carom_status world_big_check_overlaps(carom_world *w, uint32_t id)
{
    if (w->info[id].big) {
        for (uint32_t j = 0; j < w->count; j++) {
            if (j == id || !w->info[j].alive || (w->info[j].big && j > id && w->info[j].unchecked))
                continue; /* the later one checks this pair itself */
            carom_status st = check_pair(w, id, j);
            if (st != CAROM_OK)
                return st;
        }
        return CAROM_OK;
    }
    for (size_t k = 0; k < w->nbig; k++) {
        carom_status st = check_pair(w, id, w->big[k]);
        if (st != CAROM_OK)
            return st;
    }
    return CAROM_OK;
}
