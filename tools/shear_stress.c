/* The pressure tensor of a sheared run (see shear.h): the kinetic part
 * sampled at the rescalings, the contacts' part summed as they come. */
#include <math.h>
#include <stdlib.h>

#include "shear.h"

/* The parts' axes: xx, yy, zz, xy, xz, yz. */
static const int part_a[SHEAR_PARTS] = {0, 1, 2, 0, 0, 1};
static const int part_b[SHEAR_PARTS] = {0, 1, 2, 1, 2, 2};

void shear_kinetic_tensor(const carom_world *w, double rate, double out[SHEAR_PARTS])
{
    double half_height = 0.5 * carom_world_get_def(w)->box[1];
    for (int p = 0; p < SHEAR_PARTS; p++)
        out[p] = 0.0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, id, &st) != CAROM_OK || !isfinite(st.mass))
            continue;
        double c[3] = {st.velocity[0] - rate * (st.position[1] - half_height), st.velocity[1],
                       st.velocity[2]};
        for (int p = 0; p < SHEAR_PARTS; p++)
            out[p] += st.mass * c[part_a[p]] * c[part_b[p]];
    }
}

int shear_stress_start(shear_run *s, const carom_world *w)
{
    size_t n = carom_world_sphere_capacity(w);
    double *radius = realloc(s->radius, (n ? n : 1) * sizeof *radius);
    if (!radius)
        return -1;
    s->radius = radius;
    s->radii = n;
    for (carom_sphere_id id = 0; id < n; id++) {
        carom_sphere_state st;
        radius[id] = carom_world_get_sphere(w, id, &st) == CAROM_OK ? st.radius : 0.0;
    }
    return 0;
}

void shear_on_contact(shear_run *s, const carom_contact *c)
{
    if (!s->measuring || c->kind != CAROM_CONTACT_SPHERE || c->parting || c->i >= s->radii ||
        c->j >= s->radii)
        return;
    /* j, at sigma n from i, gains the impulse along n. */
    double sigma_j = (s->radius[c->i] + s->radius[c->j]) * c->impulse;
    for (int p = 0; p < SHEAR_PARTS; p++)
        s->collided[p] += sigma_j * c->normal[part_a[p]] * c->normal[part_b[p]];
}

/* The tensor over intervals [from, to): the integral of P V over their
 * time and volume. */
static void tensor_over(const shear_run *s, size_t from, size_t to, double volume,
                        double P[SHEAR_PARTS])
{
    double span = 0.0;
    for (int p = 0; p < SHEAR_PARTS; p++)
        P[p] = 0.0;
    for (size_t k = from; k < to; k++) {
        span += s->kept[k].span;
        for (int p = 0; p < SHEAR_PARTS; p++)
            P[p] += s->kept[k].stress[p];
    }
    for (int p = 0; p < SHEAR_PARTS; p++)
        P[p] = span > 0.0 ? P[p] / (span * volume) : NAN;
}

/* N1, N2 and eta over intervals [from, to) (a shear_block_fn). */
static void derived_over(const shear_run *s, size_t from, size_t to, double volume,
                         double out[3])
{
    double P[SHEAR_PARTS];
    tensor_over(s, from, to, volume, P);
    out[0] = P[0] - P[1];
    out[1] = s->dim == 3 ? P[1] - P[2] : NAN;
    out[2] = -P[3] / s->rate;
}

void shear_pressure_of(const shear_run *s, const carom_world *w, shear_pressure *out)
{
    double value[3], error[3];
    tensor_over(s, 0, s->count, carom_world_volume(w), out->tensor);
    derived_over(s, 0, s->count, carom_world_volume(w), value);
    shear_block_errors(s, w, derived_over, 3, error);
    out->n1 = value[0];
    out->n1_error = error[0];
    out->n2 = value[1];
    out->n2_error = error[1];
    out->eta = value[2];
    out->eta_error = error[2];
}
