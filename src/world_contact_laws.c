/* Contact laws by species: restitution, tangential restitution and
 * friction.
 *
 * Contract: every contact of two spheres follows a contact_law (normal
 * restitution e, tangential restitution beta, Coulomb's mu) chosen by
 * their species, and every contact of a sphere with a wall, plane,
 * segment or triangle one chosen by its species. Until the application
 * sets one, the world has no table and every contact follows def's
 * (pair_law_default, wall_law_default); the first set makes the table,
 * every entry def's, and from then on the table is read (world_pair_law,
 * world_surface_law in world_internal.h), by the response only: no law
 * changes a contact time, so a change predicts nothing again and applies
 * from the next contact. A world is rough (world_is_rough: it keeps
 * spins, and rough contacts change them) while some law in force has
 * beta other than -1; a set that makes it rough gives every sphere a
 * spin of zero, and one that makes it smooth again leaves the spins as
 * they are (no contact changes them any more). */
#include <math.h>
#include <stdlib.h>

#include "world_internal.h"

static int species_valid(uint32_t s)
{
    return s < CAROM_SPECIES_MAX;
}

void world_contact_laws_init(carom_world *w)
{
    w->pair_law_default.restitution = w->def.restitution;
    w->pair_law_default.tangential_restitution = w->def.tangential_restitution;
    w->pair_law_default.friction = w->def.friction;
    w->wall_law_default.restitution = w->def.wall_restitution;
    w->wall_law_default.tangential_restitution = w->def.wall_tangential_restitution;
    w->wall_law_default.friction = w->def.wall_friction;
    w->rough_pairs = w->def.tangential_restitution != -1.0;
    w->rough_walls = w->def.wall_tangential_restitution != -1.0;
}

void world_contact_laws_free(carom_world *w)
{
    free(w->pair_law);
    free(w->wall_law);
}

int world_is_rough(const carom_world *w)
{
    return w->def.response == CAROM_RESPONSE_ELASTIC && (w->rough_pairs || w->rough_walls);
}

int carom_world_is_rough(const carom_world *w)
{
    return world_is_rough(w);
}

static carom_status check_species(carom_world *w, const char *call, uint32_t a, uint32_t b)
{
    if (w->busy)
        return world_busy_failure(w, call);
    if (!species_valid(a) || !species_valid(b))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "%s: species must be below %d, not %u",
                          call, CAROM_SPECIES_MAX, (unsigned)(species_valid(a) ? b : a));
    return CAROM_OK;
}

/* The tables, made on first use with def's laws; NULL without memory
 * (the world's message says so). */
static contact_law *pair_law_of(carom_world *w, uint32_t a, uint32_t b)
{
    if (!w->pair_law) {
        w->pair_law = malloc(sizeof *w->pair_law * CAROM_SPECIES_MAX);
        if (!w->pair_law) {
            world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the contact laws by species");
            return NULL;
        }
        for (int s = 0; s < CAROM_SPECIES_MAX; s++)
            for (int t = 0; t < CAROM_SPECIES_MAX; t++)
                w->pair_law[s][t] = w->pair_law_default;
    }
    return &w->pair_law[a][b];
}

static contact_law *wall_law_of(carom_world *w, uint32_t s)
{
    if (!w->wall_law) {
        w->wall_law = malloc(sizeof *w->wall_law * CAROM_SPECIES_MAX);
        if (!w->wall_law) {
            world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the contact laws by species");
            return NULL;
        }
        for (int t = 0; t < CAROM_SPECIES_MAX; t++)
            w->wall_law[t] = w->wall_law_default;
    }
    return &w->wall_law[s];
}

carom_status carom_world_set_pair_restitution(carom_world *w, uint32_t a, uint32_t b, double e)
{
    const char *call = "carom_world_set_pair_restitution";
    carom_status st = check_species(w, call, a, b);
    if (st != CAROM_OK)
        return st;
    if (!(e >= 0.0 && e <= 1.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: the coefficient of restitution must be in [0, 1], not %g", call, e);
    contact_law *ab = pair_law_of(w, a, b);
    if (!ab)
        return CAROM_ERR_OUT_OF_MEMORY;
    ab->restitution = e;
    w->pair_law[b][a].restitution = e;
    return CAROM_OK;
}

carom_status carom_world_set_wall_restitution(carom_world *w, uint32_t s, double e)
{
    const char *call = "carom_world_set_wall_restitution";
    carom_status st = check_species(w, call, s, s);
    if (st != CAROM_OK)
        return st;
    if (!(e >= 0.0 && e <= 1.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: the coefficient of restitution must be in [0, 1], not %g", call, e);
    contact_law *law = wall_law_of(w, s);
    if (!law)
        return CAROM_ERR_OUT_OF_MEMORY;
    law->restitution = e;
    return CAROM_OK;
}

double carom_world_pair_restitution(const carom_world *w, uint32_t a, uint32_t b)
{
    if (!species_valid(a) || !species_valid(b))
        return NAN;
    return w->pair_law ? w->pair_law[a][b].restitution : w->pair_law_default.restitution;
}

double carom_world_wall_restitution(const carom_world *w, uint32_t s)
{
    if (!species_valid(s))
        return NAN;
    return w->wall_law ? w->wall_law[s].restitution : w->wall_law_default.restitution;
}

static carom_status check_friction(carom_world *w, const char *call, double beta, double mu)
{
    if (!(beta >= -1.0 && beta <= 1.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: the tangential restitution must be in [-1, 1] (-1: smooth), not %g",
                          call, beta);
    if (!(mu >= 0.0))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "%s: the friction coefficient must be at least 0 (INFINITY: no limit), "
                          "not %g",
                          call, mu);
    return CAROM_OK;
}

/* Whether some law in force (of the table, or def's without one) is rough. */
static int any_rough(const contact_law *table, size_t n, const contact_law *fallback)
{
    if (!table)
        return fallback->tangential_restitution != -1.0;
    for (size_t k = 0; k < n; k++)
        if (table[k].tangential_restitution != -1.0)
            return 1;
    return 0;
}

/* After a change of beta: the flags again, and spins for every sphere if
 * the world has just become rough. */
static carom_status roughness_changed(carom_world *w)
{
    w->rough_pairs = any_rough(w->pair_law ? w->pair_law[0] : NULL,
                               (size_t)CAROM_SPECIES_MAX * CAROM_SPECIES_MAX, &w->pair_law_default);
    w->rough_walls = any_rough(w->wall_law, CAROM_SPECIES_MAX, &w->wall_law_default);
    if (w->capacity > 0 && world_spin_reserve(w, w->capacity) != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the spheres' spins");
    return CAROM_OK;
}

carom_status carom_world_set_pair_friction(carom_world *w, uint32_t a, uint32_t b, double beta,
                                           double mu)
{
    const char *call = "carom_world_set_pair_friction";
    carom_status st = check_species(w, call, a, b);
    if (st == CAROM_OK)
        st = check_friction(w, call, beta, mu);
    if (st != CAROM_OK)
        return st;
    contact_law *ab = pair_law_of(w, a, b);
    if (!ab)
        return CAROM_ERR_OUT_OF_MEMORY;
    contact_law old = *ab;
    ab->tangential_restitution = w->pair_law[b][a].tangential_restitution = beta;
    ab->friction = w->pair_law[b][a].friction = mu;
    st = roughness_changed(w);
    if (st != CAROM_OK) {
        *ab = w->pair_law[b][a] = old;
        roughness_changed(w); /* back as it was: needs no memory */
    }
    return st;
}

carom_status carom_world_set_wall_friction(carom_world *w, uint32_t s, double beta, double mu)
{
    const char *call = "carom_world_set_wall_friction";
    carom_status st = check_species(w, call, s, s);
    if (st == CAROM_OK)
        st = check_friction(w, call, beta, mu);
    if (st != CAROM_OK)
        return st;
    contact_law *law = wall_law_of(w, s);
    if (!law)
        return CAROM_ERR_OUT_OF_MEMORY;
    contact_law old = *law;
    law->tangential_restitution = beta;
    law->friction = mu;
    st = roughness_changed(w);
    if (st != CAROM_OK) {
        *law = old;
        roughness_changed(w);
    }
    return st;
}

carom_status carom_world_pair_friction(const carom_world *w, uint32_t a, uint32_t b, double *beta,
                                       double *mu)
{
    if (!species_valid(a) || !species_valid(b) || !beta || !mu)
        return CAROM_ERR_INVALID_ARGUMENT;
    const contact_law *law = w->pair_law ? &w->pair_law[a][b] : &w->pair_law_default;
    *beta = law->tangential_restitution;
    *mu = law->friction;
    return CAROM_OK;
}

carom_status carom_world_wall_friction(const carom_world *w, uint32_t s, double *beta, double *mu)
{
    if (!species_valid(s) || !beta || !mu)
        return CAROM_ERR_INVALID_ARGUMENT;
    const contact_law *law = w->wall_law ? &w->wall_law[s] : &w->wall_law_default;
    *beta = law->tangential_restitution;
    *mu = law->friction;
    return CAROM_OK;
}
