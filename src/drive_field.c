/* Velocity-field driver (seed 000 §4.3): particles circulating in a box.
 *
 * Contract: the field u (formula in carom/drive.h) rises along the
 * vertical centre line, spreads under the top face, sinks along the side
 * faces and edges and comes back in above the bottom face; it is exactly
 * divergence-free in a cubic box and has no flow through the faces. At
 * start_time + m * step each particle takes a = gain (u(x) - v), scaled
 * down to its bound, from its state at that instant, and keeps it until
 * the next step; kicks change the velocity and keep the acceleration. So
 * |a| <= bound exactly and the state is analytic within a step (shared
 * piecewise machinery, drive_internal.h). No globals, no output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/drive.h"
#include "drive_internal.h"
#include "error_report.h"

static const double pi = 3.14159265358979323846;

struct carom_field {
    drive_pw pw; /* first: the choose callback gets back to the field */
    carom_field_def def;
};

carom_field_def carom_field_default_def(void)
{
    carom_field_def d;
    d.box[0] = d.box[1] = d.box[2] = 200.0;
    d.speed = 40.0;
    d.gain = 2.0;
    d.step = 0.05;
    d.start_time = 0.0;
    d.first_id = 0;
    return d;
}

void carom_field_velocity(const carom_field_def *def, const double p[3], double u[3])
{
    double X = p[0] / def->box[0], Y = p[1] / def->box[1], Z = p[2] / def->box[2];
    double U = def->speed;
    u[0] = 0.25 * U * sin(2.0 * pi * X) * cos(pi * Z);
    u[1] = 0.25 * U * sin(2.0 * pi * Y) * cos(pi * Z);
    u[2] = 0.5 * U * (-cos(2.0 * pi * X) - cos(2.0 * pi * Y)) * sin(pi * Z);
}

static void choose_field(drive_pw *pw, size_t k, double t, const double x[3], const double v[3],
                         double a[3])
{
    (void)k;
    (void)t;
    carom_field *f = (carom_field *)pw;
    double u[3];
    carom_field_velocity(&f->def, x, u);
    for (int d = 0; d < 3; d++)
        a[d] = f->def.gain * (u[d] - v[d]);
}

carom_field *carom_field_create(const carom_field_def *def, size_t n,
                                const double (*position)[3], const double (*velocity)[3],
                                const double *radius, const double *accel_bound,
                                carom_error *error)
{
    if (!def) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT, "field definition is NULL");
        return NULL;
    }
    for (int d = 0; d < 3; d++)
        if (!isfinite(def->box[d]) || !(def->box[d] > 0.0)) {
            error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                         "field box length %g must be finite and positive", def->box[d]);
            return NULL;
        }
    if (!isfinite(def->speed) || !isfinite(def->gain) || !(def->gain >= 0.0)) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                     "field speed %g and gain %g must be finite (gain >= 0)", def->speed,
                     def->gain);
        return NULL;
    }
    if (!isfinite(def->step) || !(def->step > 0.0)) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                     "field step %g must be finite and positive", def->step);
        return NULL;
    }
    carom_field *f = calloc(1, sizeof *f);
    if (!f) {
        error_report(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    f->def = *def;
    if (drive_pw_init(&f->pw, 3, def->start_time, def->step, def->first_id, n, position,
                      velocity, radius, accel_bound, choose_field, error) != CAROM_OK) {
        free(f);
        return NULL;
    }
    return f;
}

void carom_field_free(carom_field *f)
{
    if (!f)
        return;
    drive_pw_free(&f->pw);
    free(f);
}

carom_driver carom_field_driver(carom_field *f)
{
    return drive_pw_driver(&f->pw);
}

carom_sphere_def carom_field_sphere_def(const carom_field *f, size_t k)
{
    return drive_pw_sphere_def(&f->pw, k);
}

carom_status carom_field_state(carom_field *f, size_t k, double t, double position[3],
                               double velocity[3], double acceleration[3])
{
    return f ? drive_pw_checked_state(&f->pw, k, t, position, velocity, acceleration)
             : CAROM_ERR_NO_SUCH_SPHERE;
}

uint64_t carom_field_misuse(const carom_field *f)
{
    return f ? f->pw.misuse : 0;
}
