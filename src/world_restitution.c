/* Restitution by species.
 *
 * Contract: a world's coefficient of restitution for a contact between
 * spheres of species a and b is pair_restitution[a][b] (symmetric) once
 * any pair has been set, else def.restitution; for a sphere of species s
 * with a wall, plane, segment or triangle it is wall_restitution_of[s]
 * once any species has been set, else def.wall_restitution. The tables
 * are made on the first set, filled with def's values, and read only by
 * the response (response.c, through world_pair_restitution and
 * world_surface_restitution in world_internal.h). Restitution changes no
 * contact time, so a change predicts nothing again; it applies from the
 * next contact. */
#include <math.h>
#include <stdlib.h>

#include "world_internal.h"

static int species_valid(uint32_t s)
{
    return s < CAROM_SPECIES_MAX;
}

static int coefficient_valid(double e)
{
    return e >= 0.0 && e <= 1.0; /* false for NaN */
}

static carom_status check_request(carom_world *w, const char *call, uint32_t a, uint32_t b,
                                  double e)
{
    if (w->busy)
        return world_busy_failure(w, call);
    if (!species_valid(a) || !species_valid(b))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "%s: species must be below %d, not %u",
                          call, CAROM_SPECIES_MAX, (unsigned)(species_valid(a) ? b : a));
    if (!coefficient_valid(e))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: the coefficient of restitution must be in [0, 1], not %g", call, e);
    return CAROM_OK;
}

carom_status carom_world_set_pair_restitution(carom_world *w, uint32_t a, uint32_t b, double e)
{
    carom_status st = check_request(w, "carom_world_set_pair_restitution", a, b, e);
    if (st != CAROM_OK)
        return st;
    if (!w->pair_restitution) {
        w->pair_restitution = malloc(sizeof *w->pair_restitution * CAROM_SPECIES_MAX);
        if (!w->pair_restitution)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY,
                              "out of memory for the table of restitution by species");
        for (int s = 0; s < CAROM_SPECIES_MAX; s++)
            for (int t = 0; t < CAROM_SPECIES_MAX; t++)
                w->pair_restitution[s][t] = w->def.restitution;
    }
    w->pair_restitution[a][b] = e;
    w->pair_restitution[b][a] = e;
    return CAROM_OK;
}

carom_status carom_world_set_wall_restitution(carom_world *w, uint32_t s, double e)
{
    carom_status st = check_request(w, "carom_world_set_wall_restitution", s, s, e);
    if (st != CAROM_OK)
        return st;
    if (!w->wall_restitution_of) {
        w->wall_restitution_of = malloc(sizeof *w->wall_restitution_of * CAROM_SPECIES_MAX);
        if (!w->wall_restitution_of)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY,
                              "out of memory for the table of restitution by species");
        for (int t = 0; t < CAROM_SPECIES_MAX; t++)
            w->wall_restitution_of[t] = w->def.wall_restitution;
    }
    w->wall_restitution_of[s] = e;
    return CAROM_OK;
}

double carom_world_pair_restitution(const carom_world *w, uint32_t a, uint32_t b)
{
    if (!species_valid(a) || !species_valid(b))
        return NAN;
    return w->pair_restitution ? w->pair_restitution[a][b] : w->def.restitution;
}

double carom_world_wall_restitution(const carom_world *w, uint32_t s)
{
    if (!species_valid(s))
        return NAN;
    return w->wall_restitution_of ? w->wall_restitution_of[s] : w->def.wall_restitution;
}
