/* Scenes shared by the tests of the stepped baselines (test_stepped,
 * test_swept): straight-flying spheres in a periodic box. */
#ifndef CAROM_TEST_STEPPED_SCENES_H
#define CAROM_TEST_STEPPED_SCENES_H

#include <stdint.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

/* n spheres of radii uniform in [0.1, 0.5] at random places in a periodic
 * cube of side 14 (3D) or square of side 40 (2D), Maxwell-Boltzmann
 * velocities at kT = 1. */
static inline void random_periodic_scene(carom_scene *s, int dim, size_t n, uint64_t seed)
{
    carom_error e;
    s->dim = dim;
    for (int k = 0; k < 3; k++) {
        s->box[k] = dim == 3 ? 14.0 : 40.0;
        s->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK_OK(carom_scene_resize(s, n, &e));
    CHECK_OK(carom_scene_random_radii(s, 0.1, 0.5, seed, &e));
    CHECK_OK(carom_scene_place_random(s, seed + 1, &e));
    CHECK_OK(carom_scene_maxwell_velocities(s, 1.0, seed + 2, &e));
}

/* Two spheres of radius 0.05 in a periodic cube of side 10, one flying
 * at speed 100 head on at the other: they touch at t = 0.0045 and
 * overlap for 0.002 only. */
static inline void head_on_crossing_scene(carom_scene *s)
{
    carom_error e;
    s->dim = 3;
    for (int k = 0; k < 3; k++) {
        s->box[k] = 10.0;
        s->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK_OK(carom_scene_resize(s, 2, &e));
    for (int i = 0; i < 2; i++) {
        s->radius[i] = 0.05;
        s->position[i][1] = s->position[i][2] = 5.0;
    }
    s->position[0][0] = 4.45;
    s->velocity[0][0] = 100.0;
    s->position[1][0] = 5.0;
}

#endif
