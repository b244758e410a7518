/* Andersen's heat bath; contract in include/carom/thermostat.h. */
#include <math.h>
#include <stdlib.h>

#include "carom/thermostat.h"
#include "error_report.h"
#include "rng.h"
#include "vec.h"
#include "world_internal.h"

struct carom_andersen {
    carom_andersen_def def;
    rng stream;
    double next; /* the next instant; NAN: not drawn yet */
    size_t ids;  /* the number of ids it was drawn for */
    uint64_t redraws;
    double given, moment; /* sums of each redraw's energy change dE and of dE t */
};

carom_andersen_def carom_andersen_default_def(void)
{
    carom_andersen_def def = {1.0, 1.0, 1};
    return def;
}

carom_andersen *carom_andersen_create(const carom_andersen_def *def, carom_error *error)
{
    if (!def) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT, "thermostat definition is NULL");
        return NULL;
    }
    if (!(isfinite(def->kT) && def->kT >= 0.0)) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT, "thermostat kT %g must be finite and >= 0",
                     def->kT);
        return NULL;
    }
    if (!(isfinite(def->rate) && def->rate >= 0.0)) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                     "thermostat rate %g must be finite and >= 0", def->rate);
        return NULL;
    }
    carom_andersen *a = calloc(1, sizeof *a);
    if (!a) {
        error_report(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    a->def = *def;
    rng_seed(&a->stream, def->seed);
    a->next = NAN;
    return a;
}

void carom_andersen_free(carom_andersen *a)
{
    free(a);
}

uint64_t carom_andersen_redraws(const carom_andersen *a)
{
    return a->redraws;
}

void carom_andersen_energy_given(const carom_andersen *a, double *given, double *moment)
{
    if (given)
        *given = a->given;
    if (moment)
        *moment = a->moment;
}

/* The flow the bath is at rest in: in a sheared world the profile's
 * velocity u_x = rate (y - Ly/2) at height y and its rotation, half its
 * vorticity, -rate/2 about z; else none. */
static void flow_at(const carom_world *w, double y, double velocity[3], double spin[3])
{
    for (int k = 0; k < 3; k++)
        velocity[k] = spin[k] = 0.0;
    velocity[0] = w->shear_rate * (y - 0.5 * w->def.box[1]);
    spin[2] = -0.5 * w->shear_rate;
}

/* The sphere's energy now relative to the flow: kinetic, and rotational
 * in a rough world. */
static double sphere_energy(const carom_world *w, carom_sphere_id id)
{
    carom_sphere_state st;
    if (carom_world_get_sphere(w, id, &st) != CAROM_OK || !isfinite(st.mass))
        return 0.0;
    double u[3], turning[3], spin[3];
    flow_at(w, st.position[1], u, turning);
    vec_sub(st.velocity, st.velocity, u);
    double e = 0.5 * st.mass * vec_dot(st.velocity, st.velocity);
    if (world_is_rough(w) && carom_world_get_spin(w, id, spin) == CAROM_OK) {
        vec_sub(spin, spin, turning);
        e += 0.5 * w->inertia_factor * st.mass * st.radius * st.radius * vec_dot(spin, spin);
    }
    return e;
}

/* The next instant after `from`, for the world's ids now. */
static void draw_next(carom_andersen *a, const carom_world *w, double from)
{
    a->ids = carom_world_sphere_capacity(w);
    double total = a->def.rate * (double)a->ids;
    a->next = total > 0.0 ? from - log1p(-rng_uniform(&a->stream)) / total : INFINITY;
}

/* In a rough world, a new spin too: each component about which the sphere
 * turns (z alone in 2D) normal with variance kT / I about the flow's
 * (turning), I its moment of inertia now. */
static carom_status redraw_spin(carom_andersen *a, carom_world *w, carom_sphere_id id,
                                const double turning[3])
{
    const sphere *s = &w->spheres[world_slot_of(w, id)];
    double r = s->radius * growth_factor(w, carom_world_time(w));
    double sigma = sqrt(a->def.kT * INFO(s)->inv_mass / w->inertia_factor) / r;
    double spin[3] = {0.0, 0.0, 0.0};
    for (int k = w->def.dim == 2 ? 2 : 0; k < 3; k++)
        spin[k] = turning[k] + sigma * rng_normal(&a->stream);
    return carom_world_set_spin(w, id, spin);
}

/* A new velocity for one id picked at random, if the bath acts on it (and
 * in a rough world a new spin). */
static carom_status redraw_one(carom_andersen *a, carom_world *w)
{
    carom_sphere_id id = (carom_sphere_id)(rng_uniform(&a->stream) * (double)a->ids);
    if (id >= a->ids || !carom_world_sphere_exists(w, id))
        return CAROM_OK;
    const sphere_info *info = &w->info[world_slot_of(w, id)];
    if (info->inv_mass == 0.0 || info->driven)
        return CAROM_OK;
    carom_sphere_state now;
    carom_world_get_sphere(w, id, &now);
    double sigma = sqrt(a->def.kT * info->inv_mass), v[3], turning[3];
    flow_at(w, now.position[1], v, turning);
    for (int k = 0; k < w->def.dim; k++)
        v[k] += sigma * rng_normal(&a->stream);
    double before = sphere_energy(w, id);
    carom_status st = carom_world_set_velocity(w, id, v);
    if (st == CAROM_OK && world_is_rough(w))
        st = redraw_spin(a, w, id, turning);
    if (st == CAROM_OK) {
        a->redraws++;
        double gain = sphere_energy(w, id) - before;
        a->given += gain;
        a->moment += gain * carom_world_time(w);
    }
    return st;
}

/* Each instant is reached by processing the events before it (O(events):
 * the other spheres stay where their last events left them) and the one
 * sphere redrawn is moved there; only the end, t, moves every sphere. So
 * a run in pieces of any budgets is the run in one piece, to the bit. */
carom_status carom_andersen_advance_to_limited(carom_andersen *a, carom_world *w, double t,
                                               uint64_t max_events, uint64_t *processed,
                                               int *reached)
{
    if (processed)
        *processed = 0;
    if (reached)
        *reached = 0;
    /* Not drawn yet, drawn for other ids, or passed while the world ran
     * without the bath: a process without memory starts anew. */
    if (isnan(a->next) || a->ids != carom_world_sphere_capacity(w) || a->next < carom_world_time(w))
        draw_next(a, w, carom_world_time(w));
    uint64_t done = 0, count = 0;
    int arrived = 1;
    carom_status st = CAROM_OK;
    /* The world's recorded contacts: this whole call's, not its last
     * advance's (a busy world refuses below, its record untouched). */
    if (!w->busy)
        world_contacts_clear(w);
    w->recorded_kept++;
    while (st == CAROM_OK && arrived && a->next <= t) {
        st = world_process_to(w, a->next, max_events - done, &count, &arrived);
        done += count;
        if (st == CAROM_OK && arrived) {
            st = redraw_one(a, w);
            if (st == CAROM_OK)
                draw_next(a, w, a->next);
        }
    }
    if (st == CAROM_OK && arrived) {
        st = carom_world_advance_to_limited(w, t, max_events - done, &count, reached);
        done += count;
    }
    w->recorded_kept--;
    if (processed)
        *processed = done;
    return st;
}

carom_status carom_andersen_advance_to(carom_andersen *a, carom_world *w, double t)
{
    int reached = 0;
    return carom_andersen_advance_to_limited(a, w, t, UINT64_MAX, NULL, &reached);
}
