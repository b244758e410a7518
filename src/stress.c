/* The time integral of the pressure tensor, kept from the contacts it is
 * told of; shear viscosity from its samples. Contract in
 * include/carom/stress.h.
 *
 * Between contacts every velocity is constant, so the kinetic part
 * K = sum_i m_i v_i v_i^T is too, and its integral grows by K times the
 * time since the last contact. At a contact the two spheres' entries of K
 * change, and the impulsive part gains r_ab dp^T. The observer keeps its
 * own copy of the velocities; carom_stress_integral compares it with the
 * world's (bit for bit: a sphere's velocity is stored as its contact's
 * velocity_after and not touched until its next change) and recomputes K
 * from it, so rounding in K does not build up from one sample to the
 * next. A contact whose two momentum changes, from the velocities it
 * knew, do not cancel shows a velocity changed behind its back (and so
 * does a sphere that has had no contact since). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/stress.h"
#include "error_report.h"
#include "world_internal.h"

typedef struct stress_sphere {
    double v[3];
    double mass;   /* 0: no sphere with this id at the start */
    double radius;
} stress_sphere;

struct carom_stress {
    int started;
    int failed;           /* a contact it cannot count: refuse at the next integral */
    int dim;
    size_t n;             /* ids at the start */
    stress_sphere *spheres;
    double t_last;        /* the kinetic part is integrated up to here */
    double kinetic[9];    /* K now */
    double integral[9];   /* S up to t_last */
    char message[CAROM_ERROR_MESSAGE_SIZE];
};

static void stress_fail(carom_stress *s, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(s->message, sizeof s->message, format, args);
    va_end(args);
}

carom_stress *carom_stress_create(carom_error *error)
{
    carom_stress *s = calloc(1, sizeof *s);
    if (!s)
        error_report(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the stress observer");
    return s;
}

void carom_stress_free(carom_stress *s)
{
    if (!s)
        return;
    free(s->spheres);
    free(s);
}

const char *carom_stress_error_message(const carom_stress *s)
{
    return s->message;
}

/* K += m v v^T * sign, over the axes of the world. */
static void add_kinetic(double kinetic[9], double m, const double v[3], double sign)
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            kinetic[3 * a + b] += sign * m * v[a] * v[b];
}

static void integrate_to(carom_stress *s, double t)
{
    double dt = t - s->t_last;
    if (dt > 0.0) {
        for (int k = 0; k < 9; k++)
            s->integral[k] += s->kinetic[k] * dt;
        s->t_last = t;
    }
}

static const char *contact_kind_name(carom_contact_kind kind)
{
    switch (kind) {
    case CAROM_CONTACT_WALL: return "a wall";
    case CAROM_CONTACT_PLANE: return "a plane";
    case CAROM_CONTACT_SEGMENT: return "a segment";
    case CAROM_CONTACT_TRIANGLE: return "a triangle";
    default: return "something other than a sphere";
    }
}

void carom_stress_on_contact(void *user_data, carom_contact *c)
{
    carom_stress *s = user_data;
    if (!s->started || s->failed)
        return;
    if (c->kind != CAROM_CONTACT_SPHERE) {
        s->failed = 1;
        stress_fail(s, "stress: sphere %u met %s at t = %.17g; the pressure tensor is that of "
                       "spheres in a periodic box alone",
                    (unsigned)c->i, contact_kind_name(c->kind), c->time);
        return;
    }
    if (c->i >= s->n || c->j >= s->n || s->spheres[c->i].mass == 0.0 ||
        s->spheres[c->j].mass == 0.0) {
        s->failed = 1;
        stress_fail(s, "stress: a contact of spheres %u and %u at t = %.17g, not both there at "
                       "the start",
                    (unsigned)c->i, (unsigned)c->j, c->time);
        return;
    }
    stress_sphere *a = &s->spheres[c->i], *b = &s->spheres[c->j];
    double gained[3]; /* the momentum b gains */
    for (int k = 0; k < 3; k++) {
        gained[k] = b->mass * (c->velocity_after[1][k] - b->v[k]);
        double lost = a->mass * (a->v[k] - c->velocity_after[0][k]);
        double scale = a->mass * (fabs(a->v[k]) + fabs(c->velocity_after[0][k])) +
                       b->mass * (fabs(b->v[k]) + fabs(c->velocity_after[1][k]));
        if (!(fabs(gained[k] - lost) <= 1e-9 * scale)) {
            s->failed = 1;
            stress_fail(s, "stress: the contact of spheres %u and %u at t = %.17g does not keep "
                           "momentum from the velocities the observer knew: a velocity changed "
                           "other than in a contact it was given (a thermostat, "
                           "carom_world_set_velocity, a callback?)",
                        (unsigned)c->i, (unsigned)c->j, c->time);
            return;
        }
    }
    integrate_to(s, c->time);
    add_kinetic(s->kinetic, a->mass, a->v, -1.0);
    add_kinetic(s->kinetic, b->mass, b->v, -1.0);
    memcpy(a->v, c->velocity_after[0], sizeof a->v);
    memcpy(b->v, c->velocity_after[1], sizeof b->v);
    add_kinetic(s->kinetic, a->mass, a->v, 1.0);
    add_kinetic(s->kinetic, b->mass, b->v, 1.0);
    double reach = a->radius + b->radius;
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
            s->integral[3 * p + q] += reach * c->normal[p] * gained[q];
}

/* Why the world is not one whose velocities change only at contacts
 * (NULL: it is). */
static const char *world_unfit(const carom_world *w)
{
    for (int k = 0; k < w->def.dim; k++)
        if (w->def.boundary[k] != CAROM_BOUNDARY_PERIODIC)
            return "a box that is not periodic along every axis (walls take momentum)";
    for (int k = 0; k < 3; k++)
        if (w->gravity[k] != 0.0)
            return "gravity (velocities change between contacts)";
    if (w->growth_rate != 0.0)
        return "growing spheres";
    if (w->has_driven)
        return "driven spheres";
    return NULL;
}

carom_status carom_stress_start(carom_stress *s, const carom_world *w)
{
    s->started = 0;
    s->failed = 0;
    s->message[0] = '\0';
    const char *unfit = world_unfit(w);
    if (unfit) {
        stress_fail(s, "stress: refused for a world with %s", unfit);
        return CAROM_ERR_INVALID_ARGUMENT;
    }
    size_t n = carom_world_sphere_capacity(w);
    if (carom_world_sphere_count(w) == 0) {
        stress_fail(s, "stress: refused for a world without spheres");
        return CAROM_ERR_INVALID_ARGUMENT;
    }
    stress_sphere *spheres = calloc(n, sizeof *spheres);
    if (!spheres) {
        stress_fail(s, "stress: out of memory for %zu spheres", n);
        return CAROM_ERR_OUT_OF_MEMORY;
    }
    memset(s->kinetic, 0, sizeof s->kinetic);
    for (carom_sphere_id id = 0; id < n; id++) {
        carom_sphere_state state;
        if (carom_world_get_sphere(w, id, &state) != CAROM_OK)
            continue;
        if (!(state.mass > 0.0 && isfinite(state.mass))) {
            free(spheres);
            stress_fail(s, "stress: refused for sphere %u of mass %g (infinite masses take "
                           "momentum from outside)",
                        (unsigned)id, state.mass);
            return CAROM_ERR_INVALID_ARGUMENT;
        }
        memcpy(spheres[id].v, state.velocity, sizeof spheres[id].v);
        spheres[id].mass = state.mass;
        spheres[id].radius = state.radius;
        add_kinetic(s->kinetic, state.mass, state.velocity, 1.0);
    }
    free(s->spheres);
    s->spheres = spheres;
    s->n = n;
    s->dim = w->def.dim;
    s->t_last = carom_world_time(w);
    memset(s->integral, 0, sizeof s->integral);
    s->started = 1;
    return CAROM_OK;
}

carom_status carom_stress_integral(carom_stress *s, const carom_world *w, double integral[9])
{
    if (!s->started) {
        stress_fail(s, "stress: not started (carom_stress_start)");
        return CAROM_ERR_INVALID_ARGUMENT;
    }
    if (s->failed)
        return CAROM_ERR_INVALID_ARGUMENT;
    const char *unfit = world_unfit(w);
    if (unfit) {
        stress_fail(s, "stress: the world now has %s", unfit);
        return CAROM_ERR_INVALID_ARGUMENT;
    }
    double t = carom_world_time(w);
    if (carom_world_sphere_capacity(w) != s->n) {
        stress_fail(s, "stress: spheres were added since the start (%zu ids, then %zu) at "
                       "t <= %.17g",
                    s->n, carom_world_sphere_capacity(w), t);
        return CAROM_ERR_INVALID_ARGUMENT;
    }
    double kinetic[9] = {0.0};
    for (carom_sphere_id id = 0; id < s->n; id++) {
        carom_sphere_state state;
        int here = carom_world_get_sphere(w, id, &state) == CAROM_OK;
        const stress_sphere *mine = &s->spheres[id];
        if (here != (mine->mass != 0.0)) {
            stress_fail(s, "stress: sphere %u was %s since the start, at t <= %.17g",
                        (unsigned)id, here ? "added" : "removed", t);
            return CAROM_ERR_INVALID_ARGUMENT;
        }
        if (!here)
            continue;
        if (state.radius != mine->radius) {
            stress_fail(s, "stress: sphere %u's radius changed since the start (%.17g, then "
                           "%.17g: growth?) at t <= %.17g",
                        (unsigned)id, mine->radius, state.radius, t);
            return CAROM_ERR_INVALID_ARGUMENT;
        }
        if (memcmp(state.velocity, mine->v, sizeof mine->v) != 0) {
            stress_fail(s, "stress: sphere %u's velocity changed other than in a contact the "
                           "observer was given (a thermostat, carom_world_set_velocity, a "
                           "callback?) at t <= %.17g",
                        (unsigned)id, t);
            return CAROM_ERR_INVALID_ARGUMENT;
        }
        add_kinetic(kinetic, mine->mass, mine->v, 1.0);
    }
    memcpy(s->kinetic, kinetic, sizeof kinetic);
    integrate_to(s, t);
    memcpy(integral, s->integral, sizeof s->integral);
    s->message[0] = '\0';
    return CAROM_OK;
}

double carom_viscosity(const double (*samples)[9], size_t count, size_t m, int dim,
                       double interval, double volume, double kT, double *error_out)
{
    if (error_out)
        *error_out = NAN;
    if (!samples || m < 1 || m >= count || (dim != 2 && dim != 3) || !(interval > 0.0) ||
        !(volume > 0.0) || !(kT > 0.0))
        return NAN;
    double lag = (double)m * interval, scale = 1.0 / (2.0 * volume * kT * lag);
    double sum = 0.0, window_sum = 0.0, window_sq = 0.0;
    size_t terms = 0, windows = 0;
    for (size_t k = 0; k + m < count; k++) {
        for (int a = 0; a < dim; a++) {
            for (int b = a + 1; b < dim; b++) {
                double d = 0.5 * ((samples[k + m][3 * a + b] - samples[k][3 * a + b]) +
                                  (samples[k + m][3 * b + a] - samples[k][3 * b + a]));
                double x = d * d * scale;
                sum += x;
                terms++;
                if (k % m == 0) {
                    window_sum += x;
                    window_sq += x * x;
                    windows++;
                }
            }
        }
    }
    if (error_out && windows >= 2) {
        double mean = window_sum / (double)windows;
        double var = (window_sq - (double)windows * mean * mean) / (double)(windows - 1);
        *error_out = sqrt(fmax(var, 0.0) / (double)windows);
    }
    return sum / (double)terms;
}

double carom_viscosity_enskog(int dim, double packing, double sigma, double kT, double mass)
{
    if (dim != 3 || !(packing >= 0.0 && packing < 1.0) || !(sigma > 0.0) || !(kT > 0.0) ||
        !(mass > 0.0))
        return NAN;
    const double pi = 3.14159265358979323846;
    double eta = packing;
    double chi = (1.0 - eta / 2.0) / ((1.0 - eta) * (1.0 - eta) * (1.0 - eta));
    double dilute = 5.0 / (16.0 * sigma * sigma) * sqrt(mass * kT / pi);
    return dilute * (1.0 / chi + 16.0 / 5.0 * eta + 64.0 / 25.0 * (1.0 + 12.0 / pi) * eta * eta * chi);
}
