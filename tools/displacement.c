/* Mean-square displacement; contract in displacement.h. */
#include "displacement.h"

#include <math.h>
#include <stdlib.h>

static int unwrapped_now(const carom_world *w, carom_sphere_id id, double u[3], double *mass)
{
    carom_sphere_state s;
    int64_t image[3];
    if (carom_world_get_sphere(w, id, &s) != CAROM_OK ||
        carom_world_get_image(w, id, image) != CAROM_OK)
        return 0;
    const carom_world_def *def = carom_world_get_def(w);
    for (int k = 0; k < 3; k++)
        u[k] = s.position[k] + (double)image[k] * def->box[k];
    u[0] += (double)image[1] * carom_world_shear_offset(w); /* 0 unsheared */
    *mass = s.mass;
    return 1;
}

int displacement_start(displacement *d, const carom_world *w)
{
    d->n = carom_world_sphere_capacity(w);
    d->first_axis = carom_world_shear_rate(w) != 0.0;
    d->start = malloc((d->n ? d->n : 1) * sizeof *d->start);
    d->live = calloc(d->n ? d->n : 1, 1);
    if (!d->start || !d->live) {
        displacement_free(d);
        return -1;
    }
    for (carom_sphere_id id = 0; id < d->n; id++) {
        double mass = INFINITY;
        d->live[id] = unwrapped_now(w, id, d->start[id], &mass) && isfinite(mass);
    }
    return 0;
}

double displacement_msd(const displacement *d, const carom_world *w)
{
    int dim = carom_world_dim(w);
    double sum = 0.0;
    size_t count = 0;
    for (carom_sphere_id id = 0; id < d->n; id++) {
        double u[3], mass;
        if (!d->live[id] || !unwrapped_now(w, id, u, &mass))
            continue;
        for (int k = d->first_axis; k < dim; k++)
            sum += (u[k] - d->start[id][k]) * (u[k] - d->start[id][k]);
        count++;
    }
    return count ? sum / (double)count : NAN;
}

void displacement_free(displacement *d)
{
    free(d->start);
    free(d->live);
    d->start = NULL;
    d->live = NULL;
    d->n = 0;
}

double displacement_enskog(int dim, double packing, double radius, double kt, double mass)
{
    const double pi = 3.14159265358979323846;
    double sigma = 2.0 * radius, eta = packing;
    double thermal = sqrt(kt / (pi * mass));
    if (dim == 3) {
        double rho = 6.0 * eta / (pi * sigma * sigma * sigma);
        double g = (1.0 - eta / 2.0) / ((1.0 - eta) * (1.0 - eta) * (1.0 - eta));
        return 3.0 / (8.0 * rho * sigma * sigma * g) * thermal;
    }
    double rho = 4.0 * eta / (pi * sigma * sigma);
    double g = (1.0 - 7.0 * eta / 16.0) / ((1.0 - eta) * (1.0 - eta));
    return 1.0 / (2.0 * rho * sigma * g) * thermal;
}
