/* Reading an H5MD trajectory one frame at a time (for `carom render
 * input=FILE.h5`): the layout h5md_out.h writes, and any H5MD file with
 * the same elements (/particles/all/position with value [frames][N][dim]
 * and time; a fixed /particles/all/box/edges [dim], or a time series of
 * [dim][dim] edges that only a shear tilts (edges[1][0]: the box's
 * lengths are the same in every frame); velocity and a fixed
 * radius [N] if present, else velocity 0 and radius 0.5).
 *
 * Contract: h5md_in_open checks that layout and returns NULL with a
 * one-line message naming the file and the element when it is not there;
 * h5md_in_next reads the next frame into the caller's arrays of
 * h5md_in_count spheres and returns 1, 0 after the last frame, or -1 with
 * a message. HDF5's own error printing is switched off. */
#ifndef CAROM_TOOLS_H5MD_IN_H
#define CAROM_TOOLS_H5MD_IN_H

#include <stddef.h>
#include <stdint.h>

#include "carom/scene.h"

typedef struct h5md_in h5md_in;

h5md_in *h5md_in_open(const char *path, char *err, size_t err_size);
size_t h5md_in_count(const h5md_in *h);
int h5md_in_dim(const h5md_in *h);
/* Box edges; 0 beyond the dimension. */
void h5md_in_box(const h5md_in *h, double box[3]);
/* spin_z (may be NULL): each sphere's spin about z (/particles/all/spin,
 * [frames][N][3]), 0 when the file has none (h5md_in_has_spin). */
int h5md_in_next(h5md_in *h, double *time, double (*position)[3], double (*velocity)[3],
                 double *radius, double *spin_z, char *err, size_t err_size);
int h5md_in_has_spin(const h5md_in *h);
/* The species (/particles/all/species: fixed [N], or a time series whose
 * value is [frames][N], integers 0 to 31) of the frame h5md_in_next read
 * last, into species[h5md_in_count]: 1, 0 when the file holds none (all
 * 0 then), or -1 with a message naming the file. */
int h5md_in_species(const h5md_in *h, uint32_t *species, char *err, size_t err_size);
void h5md_in_close(h5md_in *h);

/* The last frame of an H5MD trajectory as a scene (for `carom run
 * init=FILE.h5`): dimension, box edges, boundaries ("periodic", else
 * walls), positions and velocities, radii (0.5 if absent) and masses (1 if
 * absent), spins (/particles/all/spin, value [frames][N][3], finite,
 * in 2D about z only) and species (/particles/all/species, integers 0
 * to 31: [N], or a time series of [frames][N]) if present, and a sheared
 * box's last tilt as scene.shear_offset (in [0, box[0])). 0, or -1 with a
 * message naming the file. */
int h5md_in_last_scene(const char *path, carom_scene *scene, char *err, size_t err_size);

/* The images of the last frame (/particles/all/image, [frames][n][dim]
 * integers) into image[n] (0 beyond the dimension): 1, 0 when the file
 * holds no images, or -1 with a message naming the file. */
int h5md_in_last_images(const char *path, size_t n, int64_t (*image)[3], char *err,
                        size_t err_size);

#endif
