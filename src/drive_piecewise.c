/* Piecewise-quadratic driven states shared by the random-force and
 * velocity-field drivers; contract in drive_internal.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drive_internal.h"
#include "error_report.h"

void drive_clamp_norm(double a[3], double bound)
{
    double norm = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(norm > bound)) {
        if (isfinite(norm))
            return;
        a[0] = a[1] = a[2] = 0.0; /* NaN or infinite input: no acceleration */
        return;
    }
    double s = bound / norm;
    for (int tries = 0; tries < 64; tries++) {
        double b[3] = {a[0] * s, a[1] * s, a[2] * s};
        if (sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) <= bound) {
            a[0] = b[0];
            a[1] = b[1];
            a[2] = b[2];
            return;
        }
        s *= 1.0 - 0x1.0p-50;
    }
    a[0] = a[1] = a[2] = 0.0;
}

static void new_piece_acceleration(drive_pw *pw, size_t k)
{
    drive_piece *p = &pw->piece[k];
    double a[3] = {0.0, 0.0, 0.0};
    pw->choose(pw, k, p->t, p->x, p->v, a);
    if (pw->dim == 2)
        a[2] = 0.0;
    drive_clamp_norm(a, pw->bound[k]);
    memcpy(p->a, a, sizeof a);
}

carom_status drive_pw_init(drive_pw *pw, int dim, double start, double step,
                           carom_sphere_id first_id, size_t n, const double (*position)[3],
                           const double (*velocity)[3], const double *radius,
                           const double *bound, drive_choose_fn choose, carom_error *error)
{
    memset(pw, 0, sizeof *pw);
    if (dim != 2 && dim != 3)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "dim %d must be 2 or 3", dim);
    if (!isfinite(start))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "start time must be finite");
    if (!isfinite(step) || !(step > 0.0))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "time step %g must be finite and positive", step);
    if (n > 0 && (!position || !velocity || !radius || !bound))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "a sphere array is NULL");
    if (n > (size_t)UINT32_MAX - first_id)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "too many spheres");
    for (size_t k = 0; k < n; k++) {
        for (int d = 0; d < 3; d++)
            if (!isfinite(position[k][d]) || !isfinite(velocity[k][d]))
                return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                    "sphere %zu: position and velocity must be finite", k);
        if (!isfinite(radius[k]) || !(radius[k] > 0.0))
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "sphere %zu: radius %g must be finite and positive", k,
                                radius[k]);
        if (!isfinite(bound[k]) || !(bound[k] >= 0.0))
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "sphere %zu: acceleration bound %g must be finite and >= 0", k,
                                bound[k]);
    }
    size_t count = n ? n : 1;
    pw->piece = calloc(count, sizeof *pw->piece);
    pw->radius = malloc(count * sizeof *pw->radius);
    pw->bound = malloc(count * sizeof *pw->bound);
    if (!pw->piece || !pw->radius || !pw->bound) {
        drive_pw_free(pw);
        return error_report(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory (%zu spheres)", n);
    }
    pw->dim = dim;
    pw->n = n;
    pw->start = start;
    pw->step = step;
    pw->first_id = first_id;
    pw->choose = choose;
    for (size_t k = 0; k < n; k++) {
        drive_piece *p = &pw->piece[k];
        p->t = start;
        p->m = 0;
        for (int d = 0; d < 3; d++) {
            p->x[d] = dim == 2 && d == 2 ? 0.0 : position[k][d];
            p->v[d] = dim == 2 && d == 2 ? 0.0 : velocity[k][d];
        }
        pw->radius[k] = radius[k];
        pw->bound[k] = bound[k];
    }
    /* First accelerations in sphere order, once every state is set. */
    for (size_t k = 0; k < n; k++)
        new_piece_acceleration(pw, k);
    return error_clear(error);
}

void drive_pw_free(drive_pw *pw)
{
    free(pw->piece);
    free(pw->radius);
    free(pw->bound);
    pw->piece = NULL;
    pw->radius = pw->bound = NULL;
    pw->n = 0;
}

static void evaluate(const drive_piece *p, double t, double x[3], double v[3])
{
    double dt = t - p->t;
    for (int d = 0; d < 3; d++) {
        x[d] = p->x[d] + dt * (p->v[d] + 0.5 * dt * p->a[d]);
        v[d] = p->v[d] + dt * p->a[d];
    }
}

/* Moves the anchor over every step boundary <= t. */
static void advance(drive_pw *pw, size_t k, double t)
{
    drive_piece *p = &pw->piece[k];
    if (t < p->t) {
        pw->misuse++; /* going back: answer from the current piece */
        return;
    }
    for (;;) {
        double boundary = pw->start + (double)(p->m + 1) * pw->step;
        if (!(t >= boundary))
            return;
        double x[3], v[3];
        evaluate(p, boundary, x, v);
        memcpy(p->x, x, sizeof x);
        memcpy(p->v, v, sizeof v);
        p->t = boundary;
        p->m++;
        new_piece_acceleration(pw, k);
    }
}

void drive_pw_state(drive_pw *pw, size_t k, double t, double x[3], double v[3], double a[3])
{
    double xx[3], vv[3];
    advance(pw, k, t);
    evaluate(&pw->piece[k], t, xx, vv);
    if (x)
        memcpy(x, xx, sizeof xx);
    if (v)
        memcpy(v, vv, sizeof vv);
    if (a)
        memcpy(a, pw->piece[k].a, sizeof pw->piece[k].a);
}

void drive_pw_kick(drive_pw *pw, size_t k, double t, const double dv[3])
{
    drive_piece *p = &pw->piece[k];
    advance(pw, k, t);
    double x[3], v[3];
    evaluate(p, t, x, v);
    for (int d = 0; d < 3; d++) {
        p->x[d] = x[d];
        p->v[d] = v[d] + (pw->dim == 2 && d == 2 ? 0.0 : dv[d]);
    }
    p->t = t; /* a kick in the past (misuse, counted above) re-anchors there too */
}

size_t drive_pw_index(drive_pw *pw, carom_sphere_id id)
{
    if (id < pw->first_id || (size_t)(id - pw->first_id) >= pw->n) {
        pw->misuse++;
        return SIZE_MAX;
    }
    return (size_t)(id - pw->first_id);
}

carom_sphere_def drive_pw_sphere_def(const drive_pw *pw, size_t k)
{
    carom_sphere_def s = carom_sphere_default_def();
    if (k >= pw->n)
        return s;
    const drive_piece *p = &pw->piece[k];
    evaluate(p, p->t, s.position, s.velocity);
    s.radius = pw->radius[k];
    s.driven = 1;
    s.accel_bound = pw->bound[k];
    return s;
}

/* The driver callbacks: user_data is a struct whose first member is its
 * drive_pw (carom_forces, carom_field). */
static void pw_probe(void *user_data, carom_sphere_id id, double t, double position[3],
                     double velocity[3])
{
    drive_pw *pw = user_data;
    size_t k = drive_pw_index(pw, id);
    if (k == SIZE_MAX) {
        for (int d = 0; d < 3; d++)
            position[d] = velocity[d] = 0.0;
        return;
    }
    drive_pw_state(pw, k, t, position, velocity, NULL);
}

static void pw_kick(void *user_data, carom_sphere_id id, double t, const double dv[3])
{
    drive_pw *pw = user_data;
    size_t k = drive_pw_index(pw, id);
    if (k != SIZE_MAX)
        drive_pw_kick(pw, k, t, dv);
}

carom_driver drive_pw_driver(drive_pw *pw)
{
    carom_driver d;
    d.probe = pw_probe;
    d.kick = pw_kick;
    d.user_data = pw;
    return d;
}

carom_status drive_pw_checked_state(drive_pw *pw, size_t k, double t, double position[3],
                                    double velocity[3], double acceleration[3])
{
    if (!pw || k >= pw->n)
        return CAROM_ERR_NO_SUCH_SPHERE;
    if (!isfinite(t))
        return CAROM_ERR_INVALID_ARGUMENT;
    drive_pw_state(pw, k, t, position, velocity, acceleration);
    return CAROM_OK;
}
