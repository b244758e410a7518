/* Mean-square displacement of a world's spheres over the measured run
 * (`msd=on`), from unwrapped positions (carom_world_get_image).
 *
 * Contract: displacement_start records every live sphere's unwrapped
 * position (the world must count images: def.count_images; under shear,
 * x adds the y image times the offset, carom_world_get_image); the mean
 * is over spheres of finite mass live at both ends, along every axis of
 * the world's dimension, but x in a sheared world (from the start): the
 * flow carries the spheres along x, and their spread there grows as t^3
 * (Taylor's dispersion), not as t. The self-diffusion coefficient is
 * msd / (2 d t), d the axes counted,
 * its long-time meaning needing t far beyond the time between
 * collisions; Enskog's value is the dense-gas theory it is compared
 * with (REFERENCE.md's g(sigma), diameter 2 radius). */
#ifndef CAROM_TOOLS_DISPLACEMENT_H
#define CAROM_TOOLS_DISPLACEMENT_H

#include "carom/carom.h"

typedef struct displacement {
    size_t n;            /* ids recorded */
    int first_axis;      /* 1 in a sheared world: along y (and z) only */
    double (*start)[3];  /* unwrapped positions at the start, by id */
    unsigned char *live; /* by id: live with finite mass at the start */
} displacement;

/* 0, or -1 when out of memory. */
int displacement_start(displacement *d, const carom_world *w);
/* The mean over spheres of |unwrapped now - unwrapped at start|^2 (NaN
 * with no sphere). */
double displacement_msd(const displacement *d, const carom_world *w);
void displacement_free(displacement *d);

/* Enskog's self-diffusion coefficient of equal hard spheres (3D) or disks
 * (2D) of the given radius at number density rho and temperature kT,
 * mass m: 3/(8 rho sigma^2 g) sqrt(kT/(pi m)) in 3D, 1/(2 rho sigma g)
 * sqrt(kT/(pi m)) in 2D, g the contact value of Carnahan-Starling or
 * Henderson. */
double displacement_enskog(int dim, double packing, double radius, double kt, double mass);

#endif
