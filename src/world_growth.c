/* Growing spheres (carom_world_set_growth): every radius grows linearly
 * in time, r(t) = r(t0) (1 + rate (t - t0)) from the time t0 the growth
 * was set, as in the Lubachevsky-Stillinger compression that makes
 * dense packings.
 *
 * Contract:
 * - The stored radii are the radii at growth_base (the last bake); at
 *   time t a sphere's radius is radius * growth_factor(w, t). Baking
 *   (at every build, and before a public call checks overlaps) moves
 *   growth_base to the world's time and rescales growth_rate so that the
 *   law stays r(t) = r(t0) (1 + rate (t - t0)): linear, the same law
 *   however often the world is built.
 * - Contact distances grow at growth_speed: world_predict.c meets pairs
 *   and walls with it (world_planes.c and world_segments.c the fixed
 *   planes and segments), response.c makes surfaces part as fast as they
 *   approached in the frame of the growing surfaces (energy rises).
 * - A growing world uses cells (no neighbour lists, no big spheres kept
 *   out of the grid), each reach GROWTH_ROOM larger than the radius; when
 *   the radii have grown that much (regrow_time) the event loop stops and
 *   the world is built again (O(N)).
 * - Refused with gravity, driven spheres or report-only response. */
#include <math.h>

#include "world_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void world_growth_bake(carom_world *w)
{
    if (!(w->growth_rate > 0.0) || w->growth_base == w->time)
        return;
    double f = growth_factor(w, w->time);
    for (size_t i = 0; i < w->count; i++)
        if (w->info[i].alive)
            w->spheres[i].radius *= f;
    w->growth_base = w->time;
    w->growth_rate = w->growth / (1.0 + w->growth * (w->time - w->growth_start));
}

void world_growth_built(carom_world *w)
{
    w->regrow_time =
        w->growth_rate > 0.0 ? w->growth_base + GROWTH_ROOM / w->growth_rate : INFINITY;
}

carom_status world_growth_regrow(carom_world *w)
{
    world_unbuild(w);
    return world_build(w, 0); /* bakes */
}

carom_status carom_world_set_growth(carom_world *w, double rate)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_set_growth");
    w->query_epoch++; /* the radii's clock may change: the queries' index goes */
    if (!(isfinite(rate) && rate >= 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "growth rate %g must be finite and >= 0",
                          rate);
    if (rate > 0.0) {
        const char *refused = w->has_gravity                           ? "gravity"
                              : w->has_driven                          ? "driven spheres"
                              : w->def.response == CAROM_RESPONSE_NONE ? "report-only response"
                              : w->sensing ? "sensing pairs (carom_world_set_sense)"
                                           : NULL;
        if (refused)
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "spheres cannot grow in a world with %s", refused);
    }
    world_growth_bake(w); /* the radii reached so far */
    w->growth = rate;
    w->growth_start = w->growth_base = w->time;
    w->growth_rate = rate;
    w->regrow_time = INFINITY;
    world_unbuild(w); /* built again, for the new rate, at the next advance */
    return CAROM_OK;
}

double carom_world_growth(const carom_world *w)
{
    return w->growth;
}

double carom_world_packing_fraction(const carom_world *w)
{
    double f = growth_factor(w, w->time), sum = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive)
            continue;
        double r = w->spheres[i].radius * f;
        sum += w->def.dim == 3 ? 4.0 / 3.0 * M_PI * r * r * r : M_PI * r * r;
    }
    return sum / carom_world_volume(w);
}
