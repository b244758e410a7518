/* Random-forces driver (seed 000 §4.2).
 *
 * Contract: sphere k (world id first_id + k) moves with a piecewise-
 * constant acceleration, redrawn at start_time + m * interval as a vector
 * uniform in the ball (disk in 2D) of radius accel_bound[k]; the draws
 * come from sphere k's own xoshiro stream seeded from (seed, k), so the
 * whole motion is a function of the seed, the initial states and the
 * kicks, and never of the probe times. probe(t) advances the exact
 * piecewise-quadratic state to t; kick(t, dv) advances to t and adds dv
 * (position continuous, acceleration kept). |a| <= accel_bound[k] holds
 * for the computed vectors exactly. No globals, no output.
 */
#include <math.h>
#include <stdlib.h>

#include "carom/drive.h"
#include "drive_internal.h"
#include "error_report.h"
#include "rng.h"

struct carom_forces {
    drive_pw pw; /* first: the choose callback gets back to the forces */
    rng *stream; /* one per sphere */
};

carom_forces_def carom_forces_default_def(void)
{
    carom_forces_def d;
    d.dim = 3;
    d.interval = 0.1;
    d.seed = 1;
    d.start_time = 0.0;
    d.first_id = 0;
    return d;
}

/* Seed of sphere k's stream: splitmix-style mixing of (seed, k). */
static uint64_t sphere_seed(uint64_t seed, size_t k)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * ((uint64_t)k + 1);
    z = (z ^ (z >> 31)) * 0xd6e8feb86659fd93ULL;
    z = (z ^ (z >> 29)) * 0x9e3779b97f4a7c15ULL;
    return z ^ (z >> 32) ^ seed;
}

static void choose_random(drive_pw *pw, size_t k, double t, const double x[3],
                          const double v[3], double a[3])
{
    (void)t;
    (void)x;
    (void)v;
    carom_forces *f = (carom_forces *)pw;
    rng *r = &f->stream[k];
    /* Uniform in the ball by rejection from its cube (accepted with
     * probability pi/6 in 3D, pi/4 in 2D): no powers or sines. */
    double u[3] = {0.0, 0.0, 0.0}, u2;
    do {
        u2 = 0.0;
        for (int d = 0; d < pw->dim; d++) {
            u[d] = 2.0 * rng_uniform(r) - 1.0;
            u2 += u[d] * u[d];
        }
    } while (u2 > 1.0);
    for (int d = 0; d < 3; d++)
        a[d] = pw->bound[k] * u[d];
}

carom_forces *carom_forces_create(const carom_forces_def *def, size_t n,
                                  const double (*position)[3], const double (*velocity)[3],
                                  const double *radius, const double *accel_bound,
                                  carom_error *error)
{
    if (!def) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT, "forces definition is NULL");
        return NULL;
    }
    if (!isfinite(def->interval) || !(def->interval > 0.0)) {
        error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                     "force interval %g must be finite and positive", def->interval);
        return NULL;
    }
    carom_forces *f = calloc(1, sizeof *f);
    if (!f) {
        error_report(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    f->stream = malloc((n ? n : 1) * sizeof *f->stream);
    if (!f->stream) {
        free(f);
        error_report(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory (%zu spheres)", n);
        return NULL;
    }
    for (size_t k = 0; k < n; k++)
        rng_seed(&f->stream[k], sphere_seed(def->seed, k));
    if (drive_pw_init(&f->pw, def->dim, def->start_time, def->interval, def->first_id, n,
                      position, velocity, radius, accel_bound, choose_random,
                      error) != CAROM_OK) {
        free(f->stream);
        free(f);
        return NULL;
    }
    return f;
}

void carom_forces_free(carom_forces *f)
{
    if (!f)
        return;
    drive_pw_free(&f->pw);
    free(f->stream);
    free(f);
}

carom_driver carom_forces_driver(carom_forces *f)
{
    return drive_pw_driver(&f->pw);
}

carom_sphere_def carom_forces_sphere_def(const carom_forces *f, size_t k)
{
    return drive_pw_sphere_def(&f->pw, k);
}

carom_status carom_forces_state(carom_forces *f, size_t k, double t, double position[3],
                                double velocity[3], double acceleration[3])
{
    return f ? drive_pw_checked_state(&f->pw, k, t, position, velocity, acceleration)
             : CAROM_ERR_NO_SUCH_SPHERE;
}

uint64_t carom_forces_misuse(const carom_forces *f)
{
    return f ? f->pw.misuse : 0;
}
