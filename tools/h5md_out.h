/* Trajectory frames as H5MD 1.1 (de Buyl et al. 2014), the HDF5 layout
 * that LAMMPS's dump h5md writes and MDAnalysis and VMD read:
 *
 *   /h5md                      version = [1, 1]; author, creator (carom)
 *   /particles/all/box         dimension, boundary ("periodic" or "none"
 *                              per axis); edges [dim]; or, when the world
 *                              is sheared (Lees-Edwards), edges a series
 *                              (step, time, value [frames][dim][dim])
 *                              whose rows are the edge vectors, the
 *                              second tilted along x by the images'
 *                              offset: the triclinic box of H5MD
 *   /particles/all/position    step [frames], time [frames],
 *                              value [frames][N][dim]
 *   /particles/all/velocity    the same
 *   /particles/all/image       the same, integers (when the world counts
 *                              images and some axis is periodic):
 *                              position + image * edges is unwrapped
 *                              (image times the matrix, when sheared)
 *   /particles/all/spin        the same, value [frames][N][3] (in 2D
 *                              too: only z nonzero), the angular
 *                              velocities (when the frames have spins:
 *                              a rough world, or spinning spheres)
 *   /particles/all/radius      [N], /particles/all/mass [N] (inf: an obstacle)
 *   /particles/all/species     [N] integers 0..31, fixed in time (when the
 *                              first frame's scene has species)
 *   /observables/kinetic_energy  step, time, value [frames]
 *
 * step is the frame's number (an event-driven run has no time step).
 * Built only with HDF5 (CAROM_HAVE_HDF5). HDF5's own error printing is
 * switched off: errors are one cli_fail line naming the file. */
#ifndef CAROM_TOOLS_H5MD_OUT_H
#define CAROM_TOOLS_H5MD_OUT_H

#include <stdint.h>

#include "carom/scene.h"
#include "cli.h"

typedef struct h5md_out h5md_out;

/* sheared: the world is sheared (carom_world_set_shear), so the box's
 * edges are written with every frame, tilted by its shear_offset. */
h5md_out *h5md_open(const char *path, const carom_scene *like, int sheared, cli_error *error);
/* Appends a frame: the scene's spheres (the same count every frame) at
 * time, with the world's kinetic energy; image: their periodic images,
 * row for row, or NULL (the first frame decides for all, as its
 * now->spin does for the spins). */
int h5md_write(h5md_out *h, const carom_scene *now, const int64_t (*image)[3], double time,
               double kinetic_energy, cli_error *error);
/* Closes the file; 0 or a cli_fail exit code. */
int h5md_close(h5md_out *h, cli_error *error);

#endif
