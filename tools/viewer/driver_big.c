/* The large sphere's motion in the viewer (see driver.h): the viewer
 * integrates it (an acceleration held constant over each target
 * interval, at most big_accel), steers it towards the drag target, and
 * hands the world its state (probe) and takes the world's collisions
 * (kick); drag targets are kept inside the walls and in front of the
 * fixed planes. */
#include "driver_big.h"

#include <math.h>
#include <string.h>

static void big_move(driver *d, double t)
{
    double dt = t - d->big_t;
    if (!(dt > 0.0))
        return;
    for (int k = 0; k < 3; k++) {
        d->big_x[k] += dt * (d->big_v[k] + 0.5 * d->big_a[k] * dt);
        d->big_v[k] += d->big_a[k] * dt;
    }
    d->big_t = t;
}

void driver_big_probe(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    (void)id;
    driver *d = user;
    big_move(d, t);
    memcpy(x, d->big_x, sizeof d->big_x);
    memcpy(v, d->big_v, sizeof d->big_v);
}

void driver_big_kick(void *user, carom_sphere_id id, double t, const double dv[3])
{
    (void)id;
    driver *d = user;
    big_move(d, t);
    for (int k = 0; k < 3; k++)
        d->big_v[k] += dv[k];
}

/* Keeps x inside the walls, leaving a margin of 1e-4 radii. */
static void clamp_to_box(const driver *d, double x[3])
{
    const carom_scene *s = &d->initial;
    for (int k = 0; k < s->dim; k++) {
        double lo = d->big_radius * 1.0001, hi = s->box[k] - d->big_radius * 1.0001;
        x[k] = x[k] < lo ? lo : x[k] > hi ? hi : x[k];
    }
}

void driver_drag_to(driver *d, const double p[3])
{
    if (!d->has_big)
        return;
    double x[3];
    memcpy(x, d->big_target, sizeof x);
    for (int k = 0; k < d->initial.dim; k++)
        if (isfinite(p[k]))
            x[k] = p[k];
    clamp_to_box(d, x);
    /* Onto the near side of each plane it is behind, then back into the
     * box: alternating projections, which approach a place in front of
     * all of them when the planes leave one. */
    for (int round = 0; round < 16; round++) {
        int moved = 0;
        for (int q = 0; q < d->nplanes; q++) {
            const double *n = d->plane[q];
            double gap = n[0] * x[0] + n[1] * x[1] + n[2] * x[2] - (n[3] + d->big_radius * 1.0001);
            if (gap < 0.0) {
                for (int k = 0; k < 3; k++)
                    x[k] -= gap * n[k];
                moved = 1;
            }
        }
        if (!moved)
            break;
        clamp_to_box(d, x);
    }
    memcpy(d->big_target, x, sizeof x);
}

int driver_big_position(const driver *d, double out[3])
{
    carom_sphere_state st;
    if (!d->has_big || carom_world_get_sphere(d->world, d->big, &st) != CAROM_OK)
        return 0;
    memcpy(out, st.position, sizeof st.position);
    return 1;
}

/* The large sphere's acceleration for the next dt: towards the velocity
 * that would take it to its target in dt (at most big_speed, and at most
 * the speed it can brake from over the distance left), at most
 * big_accel. */
int driver_steer_big(driver *d, double dt)
{
    if (!d->has_big)
        return 0;
    big_move(d, carom_world_time(d->world));
    double want[3] = {0.0, 0.0, 0.0}, speed2 = 0.0, a2 = 0.0, dist2 = 0.0;
    for (int k = 0; k < d->initial.dim; k++) {
        double gap = d->big_target[k] - d->big_x[k];
        want[k] = gap / dt;
        speed2 += want[k] * want[k];
        dist2 += gap * gap;
    }
    /* No faster than it can brake from, so that it stops at the target. */
    double limit = fmin(d->big_speed, sqrt(2.0 * d->big_accel * sqrt(dist2)));
    if (speed2 > limit * limit) {
        double f = limit / sqrt(speed2);
        for (int k = 0; k < 3; k++)
            want[k] *= f;
    }
    for (int k = 0; k < 3; k++) {
        d->big_a[k] = (want[k] - d->big_v[k]) / dt;
        a2 += d->big_a[k] * d->big_a[k];
    }
    if (a2 > d->big_accel * d->big_accel) {
        double f = d->big_accel / sqrt(a2);
        for (int k = 0; k < 3; k++)
            d->big_a[k] *= f;
    }
    return 0;
}

