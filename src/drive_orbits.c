/* Orbits driver: spheres on circles, in closed form.
 *
 * Contract: orbit k (world sphere first_id + k) is at
 *   center + R (cos(omega t + phase), sin(omega t + phase), 0)
 * with velocity the exact derivative R omega (-sin, cos, 0); its
 * acceleration has norm R omega^2 at every instant, the sphere's bound.
 * The probe is stateless (any t, any order); kick is NULL, so contacts do
 * not move orbiting spheres. A probe of an id outside the orbits answers
 * zeros and is counted in orbits->misuse. carom_orbits_add checks each
 * orbit (finite numbers, R >= 0, radius > 0). No globals, no output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/drive.h"
#include "error_report.h"

void carom_orbits_init(carom_orbits *orbits)
{
    memset(orbits, 0, sizeof *orbits);
}

void carom_orbits_free(carom_orbits *orbits)
{
    if (!orbits)
        return;
    free(orbits->orbit);
    carom_orbits_init(orbits);
}

carom_status carom_orbits_add(carom_orbits *orbits, const carom_orbit *o, carom_error *error)
{
    if (!orbits || !o)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "orbits or orbit is NULL");
    const double v[7] = {o->center[0], o->center[1], o->center[2], o->orbit_radius,
                         o->omega,     o->phase,     o->radius};
    for (int f = 0; f < 7; f++)
        if (!isfinite(v[f]))
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "orbit %zu: a number is not finite", orbits->n);
    if (!(o->orbit_radius >= 0.0))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "orbit %zu: orbit radius %g must be >= 0", orbits->n,
                            o->orbit_radius);
    if (!(o->radius > 0.0))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "orbit %zu: sphere radius %g must be positive", orbits->n, o->radius);
    /* Capacity doubles at powers of two. */
    size_t n = orbits->n;
    if ((n & (n - 1)) == 0) {
        size_t cap = n ? 2 * n : 1;
        carom_orbit *p = realloc(orbits->orbit, cap * sizeof *p);
        if (!p)
            return error_report(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory (%zu orbits)", n);
        orbits->orbit = p;
    }
    orbits->orbit[n] = *o;
    orbits->n = n + 1;
    return error_clear(error);
}

void carom_orbit_state(const carom_orbit *o, double t, double position[3], double velocity[3])
{
    double angle = o->omega * t + o->phase;
    double c = cos(angle), s = sin(angle);
    if (position) {
        position[0] = o->center[0] + o->orbit_radius * c;
        position[1] = o->center[1] + o->orbit_radius * s;
        position[2] = o->center[2];
    }
    if (velocity) {
        double speed = o->orbit_radius * o->omega;
        velocity[0] = -speed * s;
        velocity[1] = speed * c;
        velocity[2] = 0.0;
    }
}

double carom_orbit_accel_bound(const carom_orbit *o)
{
    return o->orbit_radius * o->omega * o->omega;
}

static void orbits_probe(void *user_data, carom_sphere_id id, double t, double position[3],
                         double velocity[3])
{
    carom_orbits *orbits = user_data;
    if (id < orbits->first_id || (size_t)(id - orbits->first_id) >= orbits->n) {
        orbits->misuse++;
        for (int d = 0; d < 3; d++)
            position[d] = velocity[d] = 0.0;
        return;
    }
    carom_orbit_state(&orbits->orbit[id - orbits->first_id], t, position, velocity);
}

carom_driver carom_orbits_driver(carom_orbits *orbits)
{
    carom_driver d;
    d.probe = orbits_probe;
    d.kick = NULL;
    d.user_data = orbits;
    return d;
}

carom_sphere_def carom_orbits_sphere_def(const carom_orbits *orbits, size_t k, double t)
{
    carom_sphere_def s = carom_sphere_default_def();
    if (!orbits || k >= orbits->n)
        return s;
    const carom_orbit *o = &orbits->orbit[k];
    carom_orbit_state(o, t, s.position, s.velocity);
    s.radius = o->radius;
    s.driven = 1;
    s.accel_bound = carom_orbit_accel_bound(o);
    return s;
}
