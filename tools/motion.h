/* Driven motion for `carom run` (motion=orbits, forces, field): the scene
 * of an orbits file, and the driver (carom/drive.h) that moves the
 * spheres of a generated scene.
 *
 * Contract: motion_read_orbits fills the scene (radii, positions and
 * velocities at t = 0, box and boundaries from the options) from the
 * orbits file, every error naming the file and line. motion_create makes
 * the driver for the scene's spheres (ids 0..n-1 in scene order), with
 * acceleration bounds uniform in [accel_min, accel_max] from the seed;
 * motion_world builds the world with every sphere driven through it
 * (and the scene's spins, if it has them).
 * The motion must outlive the world; motion_free releases it.
 */
#ifndef CAROM_TOOLS_MOTION_H
#define CAROM_TOOLS_MOTION_H

#include "carom/carom.h"
#include "carom/drive.h"
#include "carom/scene.h"
#include "cli.h"
#include "options.h"

typedef struct motion {
    run_motion kind;
    carom_orbits orbits;
    carom_forces *forces;
    carom_field *field;
} motion;

void motion_init(motion *m);
void motion_free(motion *m);

/* Reads o->orbits into m and the scene (motion=orbits). */
int motion_read_orbits(run_options *o, motion *m, carom_scene *scene, cli_error *error);
/* Creates the driver for a generated scene (forces, field); nothing for
 * ballistic motion; orbits are ready after motion_read_orbits. */
int motion_create(const run_options *o, const carom_scene *scene, motion *m, cli_error *error);
/* The world with the scene's box and every sphere driven by m; def gives
 * the other settings. NULL and *error on failure. */
carom_world *motion_world(motion *m, const carom_scene *scene, carom_world_def def,
                          cli_error *error);
/* m's driver (zero for ballistic motion). */
carom_driver motion_driver(motion *m);
/* motion_world with def.driver as given: one that passes m's spheres
 * (ids 0..n-1) on to motion_driver(m) and may drive more spheres added
 * after them (the viewer's large sphere). */
carom_world *motion_world_driven_by(motion *m, const carom_scene *scene, carom_world_def def,
                                    cli_error *error);

#endif
