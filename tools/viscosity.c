/* Samples of the stress integral and the shear viscosity from them;
 * contract in viscosity.h. */
#include "viscosity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int viscosity_create(viscosity *v, double interval, size_t capacity)
{
    memset(v, 0, sizeof *v);
    v->interval = interval;
    carom_error e;
    v->stress = carom_stress_create(&e);
    v->samples = malloc((capacity ? capacity : 1) * sizeof *v->samples);
    if (!v->stress || !v->samples) {
        snprintf(v->message, sizeof v->message, "out of memory for %zu samples of the stress",
                 capacity);
        viscosity_free(v);
        return -1;
    }
    v->capacity = capacity;
    return 0;
}

carom_stress *viscosity_observer(const viscosity *v)
{
    return v->stress;
}

static int failed(viscosity *v)
{
    snprintf(v->message, sizeof v->message, "%s", carom_stress_error_message(v->stress));
    return -1;
}

int viscosity_start(viscosity *v, const carom_world *w)
{
    v->count = 0;
    return carom_stress_start(v->stress, w) == CAROM_OK ? 0 : failed(v);
}

int viscosity_sample(viscosity *v, const carom_world *w)
{
    double s[9];
    if (carom_stress_integral(v->stress, w, s) != CAROM_OK)
        return failed(v);
    if (v->count < v->capacity)
        memcpy(v->samples[v->count++], s, sizeof s);
    return 0;
}

double viscosity_estimate(const viscosity *v, size_t m, int dim, double volume, double kT,
                          double *error)
{
    return carom_viscosity((const double (*)[9])v->samples, v->count, m, dim, v->interval, volume,
                           kT, error);
}

int viscosity_write_csv(const viscosity *v, FILE *f, size_t m_report, int dim, double volume,
                        double kT)
{
    if (fprintf(f, "lag,viscosity,error\n") < 0)
        return -1;
    size_t last = v->count > 0 ? (v->count - 1) / 2 : 0;
    for (size_t m = 1; m <= last;) {
        double error, eta = viscosity_estimate(v, m, dim, volume, kT, &error);
        if (fprintf(f, "%.17g,%.17g,%.17g\n", (double)m * v->interval, eta, error) < 0)
            return -1;
        size_t next = (size_t)floor(1.05 * (double)m);
        next = next > m + 1 ? next : m + 1;
        if (m < m_report && m_report < next)
            next = m_report; /* the reported lag has its row */
        m = next;
    }
    return 0;
}

void viscosity_free(viscosity *v)
{
    carom_stress_free(v->stress);
    free(v->samples);
    v->stress = NULL;
    v->samples = NULL;
    v->count = v->capacity = 0;
}
