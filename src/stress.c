/* The time integrals of the pressure tensor and of the heat flux, kept
 * from the contacts it is told of; shear viscosity and thermal
 * conductivity from their samples. Contract in include/carom/stress.h.
 *
 * Between contacts every velocity is constant, so the kinetic parts
 * K = sum_i m_i v_i v_i^T and sum_i e_i v_i are too, and their integrals
 * grow by them times the time since the last contact. At a contact the
 * two spheres' terms change, the pressure's impulsive part gains
 * r_ab dp^T and the heat's r_ab (dE_b - dE_a) / 2. The observer keeps its
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

/* The fluxes kept: the pressure tensor's 9 entries (row-major), then the
 * heat flux's 3. */
enum { FLUXES = 12, HEAT = 9 };

typedef struct stress_sphere {
    double v[3];
    double mass;   /* 0: no sphere with this id at the start */
    double radius;
} stress_sphere;

struct carom_stress {
    int started;
    int failed;           /* a contact it cannot count: refuse at the next integral */
    int heat_failed;      /* Q is not the heat flux: refuse carom_stress_heat_integral */
    size_t n;             /* ids at the start */
    stress_sphere *spheres;
    double t_last;        /* the kinetic part is integrated up to here */
    double least_speed;   /* the world's restitution_min_speed */
    double kinetic[FLUXES];  /* K now, then sum e v */
    double integral[FLUXES]; /* S up to t_last, then Q */
    char message[CAROM_ERROR_MESSAGE_SIZE];
    char heat_message[CAROM_ERROR_MESSAGE_SIZE]; /* why, when heat_failed */
};

static void stress_fail(carom_stress *s, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(s->message, sizeof s->message, format, args);
    va_end(args);
}

/* Q is not the heat flux from here on (the first reason is kept). */
static void heat_fail(carom_stress *s, const char *format, ...)
{
    if (s->heat_failed)
        return;
    s->heat_failed = 1;
    va_list args;
    va_start(args, format);
    vsnprintf(s->heat_message, sizeof s->heat_message, format, args);
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

/* K += m v v^T * sign, and sum e v += (m v^2 / 2) v * sign. */
static void add_kinetic(double kinetic[FLUXES], double m, const double v[3], double sign)
{
    double energy = 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++)
            kinetic[3 * a + b] += sign * m * v[a] * v[b];
        kinetic[HEAT + a] += sign * energy * v[a];
    }
}

static double energy_of(double m, const double v[3])
{
    return 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static void integrate_to(carom_stress *s, double t)
{
    double dt = t - s->t_last;
    if (dt > 0.0) {
        for (int k = 0; k < FLUXES; k++)
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
    /* The energy carried from a to b: half of b's gain and of a's loss. */
    double a_before = energy_of(a->mass, a->v), a_after = energy_of(a->mass, c->velocity_after[0]);
    double b_before = energy_of(b->mass, b->v), b_after = energy_of(b->mass, c->velocity_after[1]);
    double carried = 0.5 * (b_after - b_before + a_before - a_after);
    double change = a_after + b_after - a_before - b_before;
    /* Round-off, and the least separating speed given to a grazing
     * contact (src/response.c): up to mu least^2 / 2. */
    double mu = a->mass * b->mass / (a->mass + b->mass);
    double allowed = 1e-9 * (a_before + a_after + b_before + b_after) +
                     mu * s->least_speed * s->least_speed;
    if (!s->heat_failed && !(fabs(change) <= allowed))
        heat_fail(s, "stress: the contact of spheres %u and %u at t = %.17g changed their "
                     "translational energy by %.3g (a rough or inelastic contact): the heat flux "
                     "is that of smooth elastic contacts",
                  (unsigned)c->i, (unsigned)c->j, c->time, change);
    add_kinetic(s->kinetic, a->mass, a->v, -1.0);
    add_kinetic(s->kinetic, b->mass, b->v, -1.0);
    memcpy(a->v, c->velocity_after[0], sizeof a->v);
    memcpy(b->v, c->velocity_after[1], sizeof b->v);
    add_kinetic(s->kinetic, a->mass, a->v, 1.0);
    add_kinetic(s->kinetic, b->mass, b->v, 1.0);
    double reach = a->radius + b->radius;
    for (int p = 0; p < 3; p++) {
        for (int q = 0; q < 3; q++)
            s->integral[3 * p + q] += reach * c->normal[p] * gained[q];
        s->integral[HEAT + p] += reach * c->normal[p] * carried;
    }
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
    if (w->ntriangles || w->nsegments)
        return "fixed triangles or segments (they take momentum)";
    return NULL;
}

/* Q is the heat flux where sum_i v_i = 0: equal masses and no net
 * momentum, which contacts that keep momentum keep. */
static void check_heat_flux(carom_stress *s)
{
    double momentum[3] = {0.0, 0.0, 0.0}, carried = 0.0;
    const stress_sphere *first = NULL;
    for (size_t id = 0; id < s->n; id++) {
        const stress_sphere *x = &s->spheres[id];
        if (x->mass == 0.0)
            continue;
        if (!first) {
            first = x;
        } else if (x->mass != first->mass) {
            heat_fail(s, "stress: spheres %zu and %zu have unequal masses (%.17g and %.17g): "
                         "the heat flux of a mixture also carries the energy of the "
                         "interdiffusion (Q needs sum v = 0)",
                      (size_t)(first - s->spheres), id, first->mass, x->mass);
            return;
        }
        for (int k = 0; k < 3; k++)
            momentum[k] += x->mass * x->v[k];
        carried += x->mass * sqrt(x->v[0] * x->v[0] + x->v[1] * x->v[1] + x->v[2] * x->v[2]);
    }
    double total = sqrt(momentum[0] * momentum[0] + momentum[1] * momentum[1] +
                        momentum[2] * momentum[2]);
    if (total > 1e-9 * carried)
        heat_fail(s, "stress: the total momentum (%.6g, %.6g, %.6g) is not zero (|P| = %.3g, "
                     "more than 1e-9 of sum m|v| = %.6g): the heat flux needs sum v = 0",
                  momentum[0], momentum[1], momentum[2], total, carried);
}

carom_status carom_stress_start(carom_stress *s, const carom_world *w)
{
    s->started = 0;
    s->failed = 0;
    s->heat_failed = 0;
    s->message[0] = '\0';
    s->heat_message[0] = '\0';
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
    s->t_last = carom_world_time(w);
    s->least_speed = w->def.restitution_min_speed;
    memset(s->integral, 0, sizeof s->integral);
    check_heat_flux(s);
    s->started = 1;
    return CAROM_OK;
}

/* Checks the observer's velocities against the world's and integrates
 * up to the world's time. */
static carom_status bring_up_to_date(carom_stress *s, const carom_world *w)
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
    double kinetic[FLUXES] = {0.0};
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
    s->message[0] = '\0';
    return CAROM_OK;
}

carom_status carom_stress_integral(carom_stress *s, const carom_world *w, double integral[9])
{
    carom_status status = bring_up_to_date(s, w);
    if (status == CAROM_OK)
        memcpy(integral, s->integral, 9 * sizeof s->integral[0]);
    return status;
}

carom_status carom_stress_heat_integral(carom_stress *s, const carom_world *w, double heat[3])
{
    carom_status status = bring_up_to_date(s, w);
    if (status != CAROM_OK)
        return status;
    if (s->heat_failed) {
        memcpy(s->message, s->heat_message, sizeof s->message);
        return CAROM_ERR_INVALID_ARGUMENT;
    }
    memcpy(heat, s->integral + HEAT, 3 * sizeof s->integral[0]);
    return CAROM_OK;
}

/* The parts of a change of the samples over a lag whose squares
 * Einstein-Helfand averages; `mean` is the change the run's mean rate
 * gives over the lag (the bulk part's only). Returns how many. */
typedef int parts_fn(const double *from, const double *to, int dim, double mean,
                     double parts[5]);

/* The independent shear parts of a change D of S over a lag (each with
 * the statistics of a symmetrised off-diagonal entry in an isotropic
 * fluid): the off-diagonal pairs, (D_xx - D_yy) / 2 and, in 3D,
 * (D_xx + D_yy - 2 D_zz) / (2 sqrt 3). */
static int shear_parts(const double *from, const double *to, int dim, double mean,
                       double parts[5])
{
    (void)mean;
    double d[9];
    for (int k = 0; k < 9; k++)
        d[k] = to[k] - from[k];
    int n = 0;
    for (int a = 0; a < dim; a++)
        for (int b = a + 1; b < dim; b++)
            parts[n++] = 0.5 * (d[3 * a + b] + d[3 * b + a]);
    parts[n++] = 0.5 * (d[0] - d[4]);
    if (dim == 3)
        parts[n++] = (d[0] + d[4] - 2.0 * d[8]) / (2.0 * sqrt(3.0));
    return n;
}

/* The bulk part: the change of tr S / dim less its mean, P V lag. */
static double trace_over_dim(const double *s, int dim)
{
    double sum = 0.0;
    for (int a = 0; a < dim; a++)
        sum += s[4 * a];
    return sum / dim;
}

static int bulk_part(const double *from, const double *to, int dim, double mean, double parts[5])
{
    parts[0] = trace_over_dim(to, dim) - trace_over_dim(from, dim) - mean;
    return 1;
}

/* The heat flux's parts: its change along each axis. */
static int heat_parts(const double *from, const double *to, int dim, double mean,
                      double parts[5])
{
    (void)mean;
    for (int a = 0; a < dim; a++)
        parts[a] = to[a] - from[a];
    return dim;
}

/* Einstein-Helfand: the mean of part^2 * scale over every origin and
 * part of samples `stride` doubles apart, and the standard error of the
 * values of the non-overlapping windows. */
static double helfand(const double *samples, size_t stride, size_t count, size_t m, int dim,
                      parts_fn *parts_of, double mean, double scale, double *error_out)
{
    double sum = 0.0, window_sum = 0.0, window_sq = 0.0;
    size_t terms = 0, windows = 0;
    for (size_t k = 0; k + m < count; k++) {
        double parts[5];
        int n = parts_of(samples + k * stride, samples + (k + m) * stride, dim, mean, parts);
        for (int p = 0; p < n; p++) {
            double x = parts[p] * parts[p] * scale;
            sum += x;
            terms++;
            if (k % m == 0) {
                window_sum += x;
                window_sq += x * x;
                windows++;
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

static int estimate_ok(const void *samples, size_t count, size_t m, int dim, double interval,
                       double volume, double kT)
{
    return samples && m >= 1 && m < count && (dim == 2 || dim == 3) && interval > 0.0 &&
           volume > 0.0 && kT > 0.0;
}

double carom_viscosity(const double (*samples)[9], size_t count, size_t m, int dim,
                       double interval, double volume, double kT, double *error_out)
{
    if (error_out)
        *error_out = NAN;
    if (!estimate_ok(samples, count, m, dim, interval, volume, kT))
        return NAN;
    double scale = 1.0 / (2.0 * volume * kT * (double)m * interval);
    return helfand(&samples[0][0], 9, count, m, dim, shear_parts, 0.0, scale, error_out);
}

double carom_bulk_viscosity(const double (*samples)[9], size_t count, size_t m, int dim,
                            double interval, double volume, double kT, double *error_out)
{
    if (error_out)
        *error_out = NAN;
    if (!estimate_ok(samples, count, m, dim, interval, volume, kT) || m + 1 >= count)
        return NAN;
    /* P V over the whole run, and the bridge's correction: a walk whose
     * mean rate is taken from its own two ends has, over a lag of m out
     * of count - 1 intervals, (1 - m / (count - 1)) of its variance. */
    double whole = (double)(count - 1);
    double mean = (trace_over_dim(samples[count - 1], dim) - trace_over_dim(samples[0], dim)) *
                  (double)m / whole;
    double scale = 1.0 / (2.0 * volume * kT * (double)m * interval * (1.0 - (double)m / whole));
    double kappa = helfand(&samples[0][0], 9, count, m, dim, bulk_part, mean, scale, error_out);
    /* Windows that tile the run sum to zero once the mean is taken out:
     * with two of them their values are equal and opposite, and the
     * error they give means nothing. */
    if (error_out && (count - 1) / m < 3)
        *error_out = NAN;
    return kappa;
}

double carom_conductivity(const double (*samples)[3], size_t count, size_t m, int dim,
                          double interval, double volume, double kT, double *error_out)
{
    if (error_out)
        *error_out = NAN;
    if (!estimate_ok(samples, count, m, dim, interval, volume, kT))
        return NAN;
    double scale = 1.0 / (2.0 * volume * kT * kT * (double)m * interval);
    return helfand(&samples[0][0], 3, count, m, dim, heat_parts, 0.0, scale, error_out);
}

static const double pi = 3.14159265358979323846;

/* Enskog's formulas in d = dim dimensions (Chapman and Enskog's first
 * approximation), with eta_0 and lambda_0 = d (d + 2) / (2 (d - 1)) eta_0 / m
 * the dilute values and K = 2^(2d+2) / (pi (d + 2)) (256 / (5 pi) in 3D,
 * 16 / pi in 2D):
 *     kappa_E  = eta_0 K packing^2 chi,
 *     eta_E    = eta_0 (1 + 2^d / (d + 2) packing chi)^2 / chi + d / (d + 2) kappa_E,
 *     lambda_E = lambda_0 (1 + 3 2^(d-1) / (d + 2) packing chi)^2 / chi + d / (2 m) kappa_E.
 * The collisional parts are the shot noise of the contacts' transfers in
 * a Maxwellian fluid (docs/viscosity.md), which tests/test_stress.c
 * measures in both dimensions. */
typedef struct enskog_terms {
    double chi;           /* the contact value; NaN where the formulas do not apply */
    double eta0, lambda0; /* the dilute viscosity and conductivity */
    double bulk;          /* kappa_E */
    double shear_rise;    /* 2^d / (d + 2) */
    double heat_rise;     /* 3 2^(d-1) / (d + 2) */
    double shear_share;   /* d / (d + 2) */
    double heat_share;    /* d / (2 m) */
} enskog_terms;

/* The contact value is Carnahan-Starling's in 3D, Henderson's
 * (1 - 7/16 packing) / (1 - packing)^2 in 2D. */
static enskog_terms enskog(int dim, double packing, double sigma, double kT, double mass)
{
    enskog_terms e = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    if (!(dim == 2 || dim == 3) || !(packing >= 0.0 && packing < 1.0) || !(sigma > 0.0) ||
        !(kT > 0.0) || !(mass > 0.0))
        return e;
    double gap = 1.0 - packing, d = (double)dim;
    if (dim == 3) {
        e.chi = (1.0 - packing / 2.0) / (gap * gap * gap);
        e.eta0 = 5.0 / (16.0 * sigma * sigma) * sqrt(mass * kT / pi);
        e.bulk = e.eta0 * 256.0 / (5.0 * pi) * packing * packing * e.chi;
    } else {
        e.chi = (1.0 - 7.0 / 16.0 * packing) / (gap * gap);
        e.eta0 = 1.0 / (2.0 * sigma) * sqrt(mass * kT / pi);
        e.bulk = e.eta0 * 16.0 / pi * packing * packing * e.chi;
    }
    e.lambda0 = d * (d + 2.0) / (2.0 * (d - 1.0)) * e.eta0 / mass;
    e.shear_rise = ldexp(1.0, dim) / (d + 2.0);
    e.heat_rise = 3.0 * ldexp(1.0, dim - 1) / (d + 2.0);
    e.shear_share = d / (d + 2.0);
    e.heat_share = d / (2.0 * mass);
    return e;
}

double carom_viscosity_enskog(int dim, double packing, double sigma, double kT, double mass)
{
    enskog_terms e = enskog(dim, packing, sigma, kT, mass);
    double kinetic = 1.0 + e.shear_rise * packing * e.chi;
    return e.eta0 * kinetic * kinetic / e.chi + e.shear_share * e.bulk;
}

double carom_bulk_viscosity_enskog(int dim, double packing, double sigma, double kT, double mass)
{
    return enskog(dim, packing, sigma, kT, mass).bulk;
}

double carom_conductivity_enskog(int dim, double packing, double sigma, double kT, double mass)
{
    enskog_terms e = enskog(dim, packing, sigma, kT, mass);
    double kinetic = 1.0 + e.heat_rise * packing * e.chi;
    return e.lambda0 * kinetic * kinetic / e.chi + e.heat_share * e.bulk;
}
