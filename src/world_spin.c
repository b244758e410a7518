/* Spins: each sphere's angular velocity, by id.
 *
 * Contract: w->spin holds a spin for every id handed out (zero when the
 * sphere was added) once the world is rough (world_is_rough: some
 * contact law in force has a tangential restitution other than -1) or
 * once the application set a spin; NULL before, when every spin is zero. Spins are constant between contacts (no torques)
 * and no prediction reads them, so they may change at any time, even
 * from a contact callback. Only rough contacts change them
 * (response_rough.c). The moment of inertia of sphere s is
 * w->inertia_factor m r^2, r its radius at the time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "world_internal.h"

int world_spin_reserve(carom_world *w, size_t capacity)
{
    if (!w->spin && !world_is_rough(w))
        return 0;
    double(*spin)[3] = realloc(w->spin, capacity * sizeof *spin);
    if (!spin)
        return -1;
    if (!w->spin) /* the ids handed out so far had none */
        memset(spin, 0, w->count * sizeof *spin);
    w->spin = spin;
    return 0;
}

void world_spin_reset(carom_world *w, uint32_t id)
{
    if (w->spin)
        memset(w->spin[id], 0, sizeof w->spin[id]);
}

static int is_live(const carom_world *w, carom_sphere_id id)
{
    return id < w->count && w->info[world_slot_of(w, id)].alive;
}

carom_status carom_world_get_spin(const carom_world *w, carom_sphere_id id, double spin[3])
{
    if (!is_live(w, id))
        return CAROM_ERR_NO_SUCH_SPHERE;
    if (!spin)
        return CAROM_ERR_INVALID_ARGUMENT;
    for (int k = 0; k < 3; k++)
        spin[k] = w->spin ? w->spin[id][k] : 0.0;
    return CAROM_OK;
}

carom_status carom_world_set_spin(carom_world *w, carom_sphere_id id, const double spin[3])
{
    if (!is_live(w, id))
        return world_fail(w, CAROM_ERR_NO_SUCH_SPHERE, "no sphere with id %u", (unsigned)id);
    if (!spin)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "sphere %u: spin is NULL", (unsigned)id);
    for (int k = 0; k < 3; k++) {
        if (!isfinite(spin[k]))
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "sphere %u: spin %c = %g is not a finite number", (unsigned)id,
                              "xyz"[k], spin[k]);
        if (w->def.dim == 2 && k < 2 && spin[k] != 0.0)
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "sphere %u: spin %c = %g in 2D (a disk spins about z only)",
                              (unsigned)id, "xyz"[k], spin[k]);
    }
    if (!w->spin) {
        w->spin = calloc(w->capacity > w->count ? w->capacity : w->count, sizeof *w->spin);
        if (!w->spin)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for spins");
    }
    vec_copy(w->spin[id], spin);
    return CAROM_OK;
}

double carom_world_rotational_energy(const carom_world *w)
{
    if (!w->spin)
        return 0.0;
    double energy = 0.0;
    for (size_t id = 0; id < w->count; id++) {
        uint32_t slot = world_slot_of(w, (uint32_t)id);
        const sphere *s = &w->spheres[slot];
        if (!INFO(s)->alive || INFO(s)->inv_mass == 0.0)
            continue;
        double r = s->radius * growth_factor(w, w->time);
        double inertia = w->inertia_factor * r * r / INFO(s)->inv_mass;
        energy += 0.5 * inertia * vec_dot(w->spin[id], w->spin[id]);
    }
    return energy;
}

double carom_world_rotational_temperature(const carom_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        if (w->info[i].alive && w->info[i].inv_mass > 0.0)
            n++;
    int axes = w->def.dim == 2 ? 1 : 3;
    return n ? 2.0 * carom_world_rotational_energy(w) / (axes * (double)n) : 0.0;
}
