/* A driver for tests of driven spheres whose true path is known in
 * closed form: x0 + v0 t + a t^2 / 2, each kick added to v0 (and x0
 * moved so that the path stays continuous) (test_planes,
 * test_segments_driven). One path per driver: the sphere's id is
 * ignored. */
#ifndef CAROM_TEST_PATH_DRIVER_H
#define CAROM_TEST_PATH_DRIVER_H

#include "carom/carom.h"

typedef struct path {
    double x0[3], v0[3], a[3];
} path;

static void path_probe(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    const path *p = user;
    (void)id;
    for (int k = 0; k < 3; k++) {
        x[k] = p->x0[k] + p->v0[k] * t + 0.5 * p->a[k] * t * t;
        v[k] = p->v0[k] + p->a[k] * t;
    }
}

static void path_kick(void *user, carom_sphere_id id, double t, const double dv[3])
{
    path *p = user;
    (void)id;
    for (int k = 0; k < 3; k++) {
        p->v0[k] += dv[k];
        p->x0[k] -= dv[k] * t;
    }
}

#endif
