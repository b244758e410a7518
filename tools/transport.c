/* Samples of the stress and heat integrals, and the shear and bulk
 * viscosity and thermal conductivity from them; contract in transport.h. */
#include "transport.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int transport_create(transport *t, int kept, double interval, size_t capacity)
{
    memset(t, 0, sizeof *t);
    t->kept = kept;
    t->interval = interval;
    carom_error e;
    t->stress = carom_stress_create(&e);
    size_t room = capacity ? capacity : 1;
    int ok = t->stress != NULL;
    if (kept & TRANSPORT_STRESS)
        ok = ok && (t->stress_samples = malloc(room * sizeof *t->stress_samples)) != NULL;
    if (kept & TRANSPORT_CONDUCTIVITY)
        ok = ok && (t->heat_samples = malloc(room * sizeof *t->heat_samples)) != NULL;
    if (!ok) {
        snprintf(t->message, sizeof t->message, "out of memory for %zu samples", capacity);
        transport_free(t);
        return -1;
    }
    t->capacity = capacity;
    return 0;
}

carom_stress *transport_observer(const transport *t)
{
    return t->stress;
}

static int failed(transport *t)
{
    snprintf(t->message, sizeof t->message, "%s", carom_stress_error_message(t->stress));
    return -1;
}

int transport_start(transport *t, const carom_world *w)
{
    t->count = 0;
    if (carom_stress_start(t->stress, w) != CAROM_OK)
        return failed(t);
    /* Q's own conditions (equal masses, no net momentum) are known at
     * once: ask now rather than at the first sample. */
    double q[3];
    if ((t->kept & TRANSPORT_CONDUCTIVITY) &&
        carom_stress_heat_integral(t->stress, w, q) != CAROM_OK)
        return failed(t), -2;
    return 0;
}

int transport_sample(transport *t, const carom_world *w)
{
    double s[9], q[3];
    if ((t->kept & TRANSPORT_STRESS) && carom_stress_integral(t->stress, w, s) != CAROM_OK)
        return failed(t);
    if ((t->kept & TRANSPORT_CONDUCTIVITY) &&
        carom_stress_heat_integral(t->stress, w, q) != CAROM_OK)
        return failed(t);
    if (t->count < t->capacity) {
        if (t->stress_samples)
            memcpy(t->stress_samples[t->count], s, sizeof s);
        if (t->heat_samples)
            memcpy(t->heat_samples[t->count], q, sizeof q);
        t->count++;
    }
    return 0;
}

double transport_estimate(const transport *t, int which, size_t m, int dim, double volume,
                          double kT, double *error)
{
    const double (*s)[9] = (const double (*)[9])t->stress_samples;
    if (which == TRANSPORT_VISCOSITY && s)
        return carom_viscosity(s, t->count, m, dim, t->interval, volume, kT, error);
    if (which == TRANSPORT_BULK_VISCOSITY && s)
        return carom_bulk_viscosity(s, t->count, m, dim, t->interval, volume, kT, error);
    if (which == TRANSPORT_CONDUCTIVITY && t->heat_samples)
        return carom_conductivity((const double (*)[3])t->heat_samples, t->count, m, dim,
                                  t->interval, volume, kT, error);
    if (error)
        *error = NAN;
    return NAN;
}

const char *transport_name(int which)
{
    return which == TRANSPORT_VISCOSITY        ? "viscosity"
           : which == TRANSPORT_BULK_VISCOSITY ? "bulk_viscosity"
                                               : "conductivity";
}

int transport_write_csv(const transport *t, int which, FILE *f, size_t m_report, int dim,
                        double volume, double kT)
{
    if (fprintf(f, "lag,%s,error\n", transport_name(which)) < 0)
        return -1;
    size_t last = t->count > 0 ? (t->count - 1) / 2 : 0;
    for (size_t m = 1; m <= last;) {
        double error, value = transport_estimate(t, which, m, dim, volume, kT, &error);
        if (fprintf(f, "%.17g,%.17g,%.17g\n", (double)m * t->interval, value, error) < 0)
            return -1;
        size_t next = (size_t)floor(1.05 * (double)m);
        next = next > m + 1 ? next : m + 1;
        if (m < m_report && m_report < next)
            next = m_report; /* the reported lag has its row */
        m = next;
    }
    return 0;
}

void transport_free(transport *t)
{
    carom_stress_free(t->stress);
    free(t->stress_samples);
    free(t->heat_samples);
    t->stress = NULL;
    t->stress_samples = NULL;
    t->heat_samples = NULL;
    t->count = t->capacity = 0;
}
