/* Checks of the world's state: the largest overlap now (through the grid
 * levels, O(N)), and in validation builds the invariants of world_internal.h
 * after every event. */
#include <math.h>
#include <stdlib.h>

#include "vec.h"
#include "world_internal.h"

/* 0 for spheres that pass through each other (world_species.c). */
static double pair_overlap(const carom_world *w, const sphere *a, const sphere *b,
                           const double shift[3])
{
    if (!spheres_meet(w, (uint32_t)(a - w->spheres), (uint32_t)(b - w->spheres)))
        return 0.0;
    double xa[3], va[3], xb[3], vb[3], d[3];
    world_true_state(w, (uint32_t)(a - w->spheres), w->time, xa, va);
    world_true_state(w, (uint32_t)(b - w->spheres), w->time, xb, vb);
    for (int k = 0; k < 3; k++)
        d[k] = xb[k] + shift[k] - xa[k];
    double sigma = (a->radius + b->radius) * growth_factor(w, w->time);
    return (sigma - sqrt(vec_dot(d, d))) / sigma;
}

double carom_world_max_overlap_now(const carom_world *w)
{
    double worst = 0.0;
    if (!w->built) {
        /* Before the first advance there is no grid: all pairs, minimum image. */
        for (size_t i = 0; i < w->count; i++) {
            for (size_t j = i + 1; j < w->count; j++) {
                const sphere *a = &w->spheres[i], *b = &w->spheres[j];
                if (!INFO(a)->alive || !INFO(b)->alive)
                    continue;
                double xa[3], va[3], xb[3], vb[3], shift[3];
                world_sphere_at(w, a, w->time, xa, va);
                world_sphere_at(w, b, w->time, xb, vb);
                world_min_image_shift(w, xa, xb, shift);
                double o = pair_overlap(w, a, b, shift);
                if (o > worst)
                    worst = o;
            }
        }
        return worst;
    }
    for (uint32_t i = 0; i < w->count; i++) {
        const sphere *a = &w->spheres[i];
        if (!INFO(a)->alive)
            continue;
        /* Big spheres (out of the grid) against everything else. */
        for (size_t k = 0; k < w->nbig; k++) {
            uint32_t j = w->big[k];
            if (j == i || (INFO(a)->big && j < i))
                continue;
            double xa[3], va[3], xb[3], vb[3], shift[3];
            world_sphere_at(w, a, w->time, xa, va);
            world_sphere_at(w, &w->spheres[j], w->time, xb, vb);
            world_min_image_shift(w, xa, xb, shift);
            double o = pair_overlap(w, a, &w->spheres[j], shift);
            if (o > worst)
                worst = o;
        }
        if (INFO(a)->big)
            continue;
        if (w->list_skin > 0.0) {
            /* Every overlapping pair is in the neighbour lists. */
            uint32_t room[LIST_MAX];
            const uint32_t *list = world_list_entries(w, i, room);
            int listed = w->list_count[i];
            for (int m = 0; m < listed; m++) {
                uint32_t j = LIST_PARTNER(list[m]);
                if (j <= i)
                    continue;
                double o = pair_overlap(w, a, &w->spheres[j], w->list_image[LIST_IMAGE(list[m])]);
                if (o > worst)
                    worst = o;
            }
        } else {
            neighbour_lists nl;
            world_neighbour_lists(w, i, 0, &nl);
            for (int c = 0; c < nl.count; c++)
                for (uint32_t j = nl.list[c].head; j != SPHERE_NONE; j = nl.list[c].next[j]) {
                    if (j <= i)
                        continue;
                    double o = pair_overlap(w, a, &w->spheres[j], nl.list[c].shift);
                    if (o > worst)
                        worst = o;
                }
        }
        if (w->shear_rate != 0.0) {
            double o = world_shear_max_overlap_across(w, i);
            if (o > worst)
                worst = o;
        }
    }
    return worst;
}

#ifdef CAROM_VALIDATE
void world_validate(carom_world *w)
{
    if (!event_queue_is_valid(&w->queue))
        abort();
    if (w->list_skin > 0.0 && !world_lists_valid(w))
        abort();
    for (uint32_t i = 0; i < w->count; i++) {
        const sphere *s = &w->spheres[i];
        if (!INFO(s)->alive)
            continue;
        if (w->event_time[i] < w->time)
            abort();
        /* An event naming a removed sphere is stale by its counter (the
         * event loop checks nothing else). */
        const sphere_event *ev = &w->events[i];
        if (ev->kind == EVENT_COLLISION && !w->info[ev->partner].alive &&
            ev->partner_counter == w->events[ev->partner].counter)
            abort();
        if (INFO(s)->big || w->list_skin > 0.0)
            continue; /* not in the grid, or by its list centre (below) */
        double x[3], v[3];
        world_sphere_at(w, s, w->time, x, v);
        const grid *g = sphere_grid(w, i);
        for (int k = 0; k < w->def.dim; k++) {
            double lo = INFO(s)->cc[k] * g->width[k], hi = lo + g->width[k];
            double slack = 1e-9 * (g->width[k] + fabs(x[k]));
            /* Along walls the edge cells reach on outwards (a driven
             * sphere that broke its bound may be past a wall). */
            if (!g->periodic[k] && INFO(s)->cc[k] == 0)
                lo = -INFINITY;
            if (!g->periodic[k] && INFO(s)->cc[k] == g->n[k] - 1)
                hi = INFINITY;
            if (x[k] < lo - slack || x[k] > hi + slack)
                abort();
        }
    }
}

/* No meeting of i with k comes before this, by what i has predicted. */
static double pair_covered_until(const carom_world *w, uint32_t i, uint32_t k)
{
    const sphere_event *ev = &w->events[i];
    if (ev->kind == EVENT_COLLISION && ev->partner == k)
        return w->event_time[i];
    if (!w->info[i].driven)
        return w->event_time[i]; /* it predicts in full at every event */
    if (w->floors[i].partner == k)
        return w->bounds[i].pair_floor;
    return w->floors[i].next;
}

static int cells_adjacent(const grid *g, const int32_t a[3], const int32_t b[3])
{
    for (int k = 0; k < 3; k++) {
        int32_t d = a[k] - b[k];
        if (g->periodic[k] && (d == g->n[k] - 1 || d == 1 - g->n[k]))
            d = 1;
        if (d > 1 || d < -1)
            return 0;
    }
    return 1;
}

void world_validate_driven_cover(carom_world *w, uint32_t i)
{
    const sphere *s = &w->spheres[i];
    if (!w->has_driven || w->bounds_broken || w->contacts_linger || !w->levels.simple ||
        !INFO(s)->alive || INFO(s)->big || world_cells_scans_region(w, i))
        return;
    const grid *g = sphere_grid(w, i);
    double x[3], v[3];
    world_sphere_at(w, s, w->time, x, v);
    for (uint32_t k = 0; k < w->count; k++) {
        const sphere *o = &w->spheres[k];
        if (k == i || !INFO(o)->alive || INFO(o)->big || world_cells_scans_region(w, k) ||
            !(INFO(s)->driven || INFO(o)->driven) || !cells_adjacent(g, INFO(s)->cc, INFO(o)->cc) ||
            !spheres_meet(w, i, k))
            continue;
        double shift[3];
        world_pair_shift(w, s, o, w->time, shift);
        double t = world_driven_pair_time(w, s, x, v, o, shift, w->time);
        double ci = pair_covered_until(w, i, k), ck = pair_covered_until(w, k, i);
        double c = ci < ck ? ci : ck;
        if (t < c - 1e-9 * (1.0 + fabs(c)))
            abort();
    }
}
#endif
