/* Trajectory frames of the measured run, in the format the file's name
 * asks for: H5MD (HDF5; names ending in .h5 or .h5md, when carom was
 * built with Debian's libhdf5-dev) or extended XYZ (any other name).
 *
 * Contract: frames_open creates the file (truncating it); each
 * frames_write appends the world's spheres at its current time, ids in
 * order, with their spins when the world is rough or some sphere spins
 * (XYZ: a spin:R:3 column; H5MD: /particles/all/spin), else as before
 * spins existed, and with their species when some sphere's is not 0 (XYZ:
 * S0, S1, ...; H5MD: /particles/all/species, the first frame's);
 * frames_close finishes the file and reports any write error that was
 * pending, returning status when it is already an error.
 * Errors are one cli_fail line naming the file. */
#ifndef CAROM_TOOLS_FRAMES_H
#define CAROM_TOOLS_FRAMES_H

#include <stdio.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "cli.h"

typedef struct frames frames;

/* What a build without HDF5 says of an H5MD file. */
#define FRAMES_WITHOUT_HDF5 "this carom was built without HDF5 (Debian: libhdf5-dev)"

/* The name asks for H5MD (it ends in .h5 or .h5md). */
int frames_name_is_h5md(const char *path);
/* Whether this build can write such a file; else a usage error naming
 * the key's origin (for the options, before anything runs). */
int frames_format_available(const char *path, const char *origin, cli_error *error);
/* like: the dimension, box and boundaries of the frames; sheared: the
 * world is sheared (carom_world_set_shear), so every frame has its box
 * tilted by the images' offset (XYZ: the Lattice, as always; H5MD: the
 * edges as a series of matrices, h5md_out.h). */
frames *frames_open(const char *path, const carom_scene *like, int sheared, cli_error *error);
int frames_write(frames *f, const carom_world *w, cli_error *error);
int frames_close(frames *f, int status, cli_error *error);

/* The spheres, spins and species (if the file has them) and box of an
 * initial state file: extended XYZ, or the last frame of an H5MD trajectory (a name
 * frames_name_is_h5md; in a build with HDF5). A usage error naming the
 * file when it cannot be read. */
int frames_read_init(const char *path, carom_scene *scene, cli_error *error);
/* After a restart from an H5MD file (frames_read_init) into world w, whose
 * sphere ids are the file's rows: when the world counts images and the
 * file holds them, each sphere's image is the file's, so unwrapped
 * positions go on from the file's (along axes the run makes walls, the
 * image is 0). A usage error naming the file when its images are
 * malformed. */
int frames_restore_images(const char *path, carom_world *w, cli_error *error);

/* Rough contacts: carom_world_is_rough (some tangential restitution in
 * force, def's or a species', other than -1, with the elastic response). */
int frames_world_is_rough(const carom_world *w);

/* One extended XYZ frame of the world now (also the run's final state),
 * with the spins as frames_write writes them. */
int write_xyz_state(const carom_scene *like, const carom_world *w, FILE *f, const char *path,
                    cli_error *error);

#endif
