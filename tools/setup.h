/* The initial scene of `carom run`: from an init file, or generated
 * (lattice when dense, random placement when dilute or polydisperse),
 * with Maxwell-Boltzmann or ballistic random velocities.
 *
 * Contract: on success the scene is ready for carom_scene_create_world and
 * o->packing holds the actual volume (area) fraction. Overlaps and spheres
 * outside the box in an init file are left for the world to report.
 */
#ifndef CAROM_TOOLS_SETUP_H
#define CAROM_TOOLS_SETUP_H

#include "carom/scene.h"
#include "cli.h"
#include "config.h"
#include "options.h"

/* Reads the init file (if the config names one) into scene, spins and
 * all, and makes its dimension the default for dim. Call before
 * options_from_config. */
int setup_read_init(config *c, carom_scene *scene, cli_error *error);

/* Generates the scene, or finishes the one setup_read_init read. */
int setup_scene(run_options *o, carom_scene *scene, cli_error *error);

/* The species of the scene's spheres (setup_scene calls it; motion=orbits
 * after reading its spheres): with init, the file's (o->species then
 * their largest + 1, and pass_through=, pair_restitution=,
 * species_wall_restitution=, pair_friction= and species_wall_friction=
 * are checked against them); else,
 * with species=K > 1, species 0..K-1 in the counts round(f_k N) of
 * species_fraction=, the last one taking what is left, shuffled over the
 * spheres from the run's seed (with K = 1 the scene keeps no species
 * array). Fills o->species_count. */
int setup_species(run_options *o, carom_scene *scene, cli_error *error);

/* The keys that name species into w, in this order: pass_through='s and
 * sense='s pairs (before the first advance, which would refuse such
 * pairs overlapping), pair_restitution=, species_wall_restitution=,
 * pair_friction= and species_wall_friction= (pairs and species not named
 * keep def's laws; a beta other than -1 makes the world rough, every
 * spin zero). NULL, or the key whose setting w refused (its message says
 * why). The viewer's driver keeps its own copies of the keys. */
const char *setup_species_keys(carom_world *w, const species_values *pass_through,
                               const species_values *sense,
                               const species_values *pair_restitution,
                               const species_values *species_wall_restitution,
                               const species_values *pair_friction,
                               const species_values *species_wall_friction);
/* The same from the options; a refusal is a usage error naming the key. */
int setup_species_laws(const run_options *o, carom_world *w, cli_error *error);

/* Volume (area) fraction of the scene's spheres in its box. */
double setup_packing_fraction(const carom_scene *scene);

#endif
