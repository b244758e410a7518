/* A sheared run of `carom run` (see shear.h). */
#include "shear.h"

#include "carom/stress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The profile's velocity along x at height y. */
static double profile(const carom_world *w, double rate, double y)
{
    return rate * (y - 0.5 * carom_world_get_def(w)->box[1]);
}

double shear_peculiar_energy(const carom_world *w, double rate)
{
    double e = 0.0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, id, &st) != CAROM_OK || !isfinite(st.mass))
            continue;
        double c[3] = {st.velocity[0] - profile(w, rate, st.position[1]), st.velocity[1],
                       st.velocity[2]};
        e += 0.5 * st.mass * (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    }
    return e;
}

/* Every velocity relative to the profile scaled by f (added is 1: the
 * profile itself added to velocities without it). */
static int scale_velocities(carom_world *w, double rate, double f, int added)
{
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, id, &st) != CAROM_OK || !isfinite(st.mass))
            continue;
        double u = profile(w, rate, st.position[1]);
        double v[3] = {st.velocity[0], st.velocity[1], st.velocity[2]};
        if (added) {
            v[0] += u;
        } else {
            v[0] = u + f * (v[0] - u);
            v[1] *= f;
            v[2] *= f;
        }
        if (carom_world_set_velocity(w, id, v) != CAROM_OK)
            return -1;
    }
    return 0;
}

static size_t moving_spheres(const carom_world *w)
{
    size_t n = 0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state st;
        n += carom_world_get_sphere(w, id, &st) == CAROM_OK && isfinite(st.mass);
    }
    return n;
}

double shear_interval_for(const carom_world *w, double rate, double kt)
{
    const carom_world_def *def = carom_world_get_def(w);
    double sum = 0.0, energy = 0.0;
    size_t n = 0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, id, &st) != CAROM_OK || !isfinite(st.mass))
            continue;
        sum += st.radius;
        energy += 0.5 * st.mass * (st.velocity[0] * st.velocity[0] +
                                   st.velocity[1] * st.velocity[1] +
                                   st.velocity[2] * st.velocity[2]);
        n++;
    }
    if (n == 0)
        return 1.0;
    if (!(kt > 0.0))
        kt = energy / (0.5 * def->dim * (double)n);
    double eta = carom_viscosity_enskog(def->dim, carom_world_packing_fraction(w),
                                        2.0 * sum / (double)n, kt, 1.0);
    /* d(kT)/dt = eta rate^2 / (n d / 2), n the number density. */
    double density = (double)n / carom_world_volume(w);
    double interval = 0.01 * kt * 0.5 * def->dim * density / (eta * rate * rate);
    return isfinite(interval) && interval < 1.0 ? interval : 1.0;
}

int shear_start(shear_run *s, carom_world *w, double rate, double offset, double interval,
                double kt, int dim, int with_profile, const carom_andersen *bath)
{
    memset(s, 0, sizeof *s);
    s->bath = bath;
    s->rate = rate;
    s->interval = interval;
    s->kt = kt;
    s->dim = dim;
    if (carom_world_set_shear(w, rate) != CAROM_OK ||
        (offset != 0.0 && carom_world_set_shear_offset(w, offset) != CAROM_OK))
        return -1;
    if (with_profile && scale_velocities(w, rate, 1.0, 1) != 0)
        return -1;
    if (!(kt > 0.0)) {
        /* The temperature the spheres have (speed=, an init file). */
        size_t n = moving_spheres(w);
        kt = n ? shear_peculiar_energy(w, rate) / (0.5 * dim * (double)n) : 0.0;
        s->kt = kt;
    }
    s->next = interval > 0.0 ? carom_world_time(w) + interval : INFINITY;
    return 0;
}

/* Keeps a measured interval. */
static int keep(shear_run *s, double heat, double span, double mean_energy,
                const double stress[SHEAR_PARTS])
{
    if (s->count == s->room) {
        size_t room = s->room ? 2 * s->room : 256;
        shear_interval *kept = realloc(s->kept, room * sizeof *kept);
        if (!kept)
            return -1;
        s->kept = kept;
        s->room = room;
    }
    shear_interval *k = &s->kept[s->count++];
    *k = (shear_interval){heat, span, mean_energy, {0}};
    for (int p = 0; p < SHEAR_PARTS; p++)
        k->stress[p] = stress[p];
    return 0;
}

/* The energy the run's bath has given so far (0 without one). */
static double bath_given(const shear_run *s)
{
    double given = 0.0;
    if (s->bath)
        carom_andersen_energy_given(s->bath, &given, NULL);
    return given;
}

/* Closes the interval that ends now (kept when measuring): its heat (the
 * change of E, less what a bath gave), and its integral of P V (the
 * kinetic part by the trapezoid rule). */
static int close_interval(shear_run *s, const carom_world *w)
{
    double t = carom_world_time(w), e = shear_peculiar_energy(w, s->rate);
    double given = bath_given(s);
    double kinetic[SHEAR_PARTS], stress[SHEAR_PARTS];
    shear_kinetic_tensor(w, s->rate, kinetic);
    for (int p = 0; p < SHEAR_PARTS; p++) {
        stress[p] = 0.5 * (kinetic[p] + s->kinetic[p]) * (t - s->from) + s->collided[p];
        s->kinetic[p] = kinetic[p];
        s->collided[p] = 0.0;
    }
    int rc = 0;
    if (s->measuring && t > s->from)
        rc = keep(s, e - s->energy - (given - s->given), t - s->from, 0.5 * (e + s->energy),
                  stress);
    s->from = t;
    s->energy = e;
    s->given = given;
    return rc;
}

int shear_scale_to(carom_world *w, double rate, double kt, int dim)
{
    double energy = shear_peculiar_energy(w, rate);
    double target = 0.5 * dim * kt * (double)moving_spheres(w);
    return energy > 0.0 ? scale_velocities(w, rate, sqrt(target / energy), 0) : 0;
}

int shear_rescale(shear_run *s, carom_world *w)
{
    if (close_interval(s, w) != 0)
        return -1;
    s->next += s->interval;
    if (s->bath)
        return 0; /* the bath keeps the temperature */
    double target = 0.5 * s->dim * s->kt * (double)moving_spheres(w);
    if (s->energy > 0.0 && scale_velocities(w, s->rate, sqrt(target / s->energy), 0) != 0)
        return -1;
    s->energy = shear_peculiar_energy(w, s->rate);
    shear_kinetic_tensor(w, s->rate, s->kinetic);
    s->rescales += s->measuring;
    return 0;
}

int shear_measure_start(shear_run *s, const carom_world *w)
{
    s->measuring = 1;
    s->rescales = 0;
    s->from = carom_world_time(w);
    s->energy = shear_peculiar_energy(w, s->rate);
    s->given = bath_given(s);
    shear_kinetic_tensor(w, s->rate, s->kinetic);
    for (int p = 0; p < SHEAR_PARTS; p++)
        s->collided[p] = 0.0;
    return shear_stress_start(s, w);
}

int shear_measure_end(shear_run *s, const carom_world *w)
{
    int rc = close_interval(s, w);
    s->measuring = 0;
    return rc;
}

void shear_block_errors(const shear_run *s, const carom_world *w, shear_block_fn over,
                        int values, double *error)
{
    enum { BLOCKS = 16, MOST = 3 };
    for (int q = 0; q < values; q++)
        error[q] = NAN;
    if (s->count < BLOCKS || values > MOST)
        return;
    /* Blocks of whole intervals, as even as they come. */
    double volume = carom_world_volume(w);
    double block[BLOCKS][MOST], mean[MOST] = {0.0, 0.0, 0.0}, var[MOST] = {0.0, 0.0, 0.0};
    for (size_t b = 0; b < BLOCKS; b++) {
        over(s, b * s->count / BLOCKS, (b + 1) * s->count / BLOCKS, volume, block[b]);
        for (int q = 0; q < values; q++)
            mean[q] += block[b][q] / BLOCKS;
    }
    for (size_t b = 0; b < BLOCKS; b++)
        for (int q = 0; q < values; q++)
            var[q] += (block[b][q] - mean[q]) * (block[b][q] - mean[q]);
    for (int q = 0; q < values; q++)
        error[q] = sqrt(var[q] / (BLOCKS - 1) / BLOCKS);
}

/* eta over intervals [from, to) (a shear_block_fn). */
static void eta_over(const shear_run *s, size_t from, size_t to, double volume, double *eta)
{
    double heat = 0.0, span = 0.0;
    for (size_t k = from; k < to; k++) {
        heat += s->kept[k].heat;
        span += s->kept[k].span;
    }
    *eta = span > 0.0 ? heat / (s->rate * s->rate * volume * span) : NAN;
}

double shear_viscosity(const shear_run *s, const carom_world *w, double *error, double *heat,
                       double *kt_mean)
{
    size_t spheres = moving_spheres(w);
    double h = 0.0, span = 0.0, energy_time = 0.0;
    for (size_t k = 0; k < s->count; k++) {
        h += s->kept[k].heat;
        span += s->kept[k].span;
        energy_time += s->kept[k].mean_energy * s->kept[k].span;
    }
    *heat = h;
    *kt_mean = span > 0.0 && spheres > 0 ? energy_time / span / (0.5 * s->dim * (double)spheres)
                                         : NAN;
    shear_block_errors(s, w, eta_over, 1, error);
    double eta;
    eta_over(s, 0, s->count, carom_world_volume(w), &eta);
    return eta;
}

void shear_free(shear_run *s)
{
    free(s->kept);
    s->kept = NULL;
    free(s->radius);
    s->radius = NULL;
    s->radii = 0;
    s->count = s->room = 0;
}
