/* Reading a multi-frame extended XYZ file (as `carom run trajectory=`
 * writes it) one frame at a time, for `carom render input=FILE`; or an
 * H5MD file (a name ending in .h5 or .h5md; tools/h5md_in.h), in a build
 * with HDF5.
 *
 * Contract: traj_next reads the next frame into f (positions, velocities
 * if present, radii; f->big = -1; spins about z into f->spin, 0 without
 * them, and f->spokes set for a 2D file with spins: an XYZ spin:R:3
 * column, or omega or angular_velocity, or H5MD /particles/all/spin; the
 * angles are the caller's; species into f->species as xyz.c reads them,
 * "S" and other names 0, "S<k>" species k, f->has_species set when some
 * line of the frame names one so, or with H5MD /particles/all/species)
 * and returns 1, returns 0 at the end of
 * the file, or -1 with a one-line message naming the file and line. The
 * header line must hold Lattice="Lx 0 0 0 Ly 0 0 0 Lz" and a Properties
 * with pos:R:3 (radius:R:1 and velo:R:3 optional: radius 0.5, velocity 0);
 * dim=2 marks a 2D file. Frames may differ in size. */
#ifndef CAROM_VIEWER_TRAJ_READER_H
#define CAROM_VIEWER_TRAJ_READER_H

#include <stdio.h>

#include "frame.h"

typedef struct traj_reader {
    FILE *file;
    struct h5md_in *h5md; /* an H5MD file instead */
    char path[512];
    long line;
    char text[8192];
} traj_reader;

int traj_open(traj_reader *r, const char *path, char *err, size_t err_size);
int traj_next(traj_reader *r, view_frame *f, char *err, size_t err_size);
void traj_close(traj_reader *r);

#endif
