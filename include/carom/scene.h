/* carom scenes: plain arrays of spheres plus a box, for building worlds,
 * reading and writing files, and generating initial configurations
 * (lattices, random placement, Maxwell-Boltzmann velocities).
 * A scene owns its arrays; carom_scene_free releases them. */
#ifndef CAROM_SCENE_H
#define CAROM_SCENE_H

#include <stdint.h>
#include <stdio.h>

#include "carom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carom_scene {
    int dim;                      /* 2 or 3 */
    double box[3];                /* box lengths (box[2] ignored in 2D) */
    carom_boundary boundary[3];
    size_t n;
    double (*position)[3];
    double (*velocity)[3];
    double *radius;
    double *mass;                 /* INFINITY allowed */
    double (*spin)[3];            /* angular velocities (carom_world_get_spin), or
                                     NULL: every sphere without spin. When
                                     set, resizing, sorting, reading and
                                     writing keep it with the spheres */
    uint32_t *species;            /* species (carom_world_set_pass_through), or
                                     NULL: every sphere of species 0. Kept
                                     with the spheres as spin is */
    double shear_offset;          /* a sheared state's (carom_world_set_shear):
                                     the displacement along x of the image
                                     above the box, in [0, box[0]); 0 for
                                     none. carom_scene_from_world takes it
                                     (carom_world_shear_offset); XYZ files
                                     keep it as the Lattice's tilt; a world
                                     made from the scene is not sheared
                                     (set the rate, then the offset) */
} carom_scene;

typedef enum carom_lattice {
    CAROM_LATTICE_AUTO = 0,   /* hexagonal in 2D, FCC in 3D */
    CAROM_LATTICE_SQUARE = 1, /* square (2D) or simple cubic (3D) */
    CAROM_LATTICE_HEX = 2,    /* hexagonal (2D) */
    CAROM_LATTICE_FCC = 3     /* face-centred cubic (3D) */
} carom_lattice;

void carom_scene_init(carom_scene *scene);
void carom_scene_free(carom_scene *scene);
/* Resizes the arrays to n spheres (new ones zeroed, mass 1, radius 0.5). */
carom_status carom_scene_resize(carom_scene *scene, size_t n, carom_error *error);
/* Gives the scene a spin array (all zero) if it has none. */
carom_status carom_scene_add_spins(carom_scene *scene, carom_error *error);
/* Gives the scene a species array (all 0) if it has none. */
carom_status carom_scene_add_species(carom_scene *scene, carom_error *error);

/* Edge of the cubic (square) box holding n spheres of the given radius at
 * the given volume (area) fraction. */
double carom_box_length_for_packing(int dim, size_t n, double radius, double packing);

/* Renumbers the spheres along a space-filling curve (Morton order of their
 * positions), so that spheres close in space get close ids: the world then
 * reads neighbours from nearby memory (faster for large N). Positions,
 * velocities, radii, masses and spins move together. */
carom_status carom_scene_sort_spatially(carom_scene *scene, carom_error *error);

/* Places n spheres of equal radius on a lattice filling scene->box
 * (dim, box and boundary must be set). With walls the lattice keeps clear of
 * them. When the lattice has more sites than n, sites are left empty spread
 * evenly. Fails with a clear message if n spheres cannot fit. Velocities 0. */
carom_status carom_scene_lattice(carom_scene *scene, size_t n, double radius,
                                 carom_lattice lattice, carom_error *error);

/* Places n spheres at random non-overlapping positions (dilute systems),
 * mass 1 and velocity 0, using a cell grid (O(n) expected). Fails with a
 * clear message after a bounded number of attempts when too dense. */
carom_status carom_scene_random(carom_scene *scene, size_t n, double radius,
                                uint64_t seed, carom_error *error);

/* Places the scene's current spheres, keeping their radii (any mix of
 * sizes), at random non-overlapping positions inside the box; the largest
 * are placed first. Fails with a clear message when the box is too full. */
carom_status carom_scene_place_random(carom_scene *scene, uint64_t seed,
                                      carom_error *error);

/* Gives every sphere a radius drawn uniformly from [radius_min, radius_max]. */
carom_status carom_scene_random_radii(carom_scene *scene, double radius_min,
                                      double radius_max, uint64_t seed,
                                      carom_error *error);

/* Ballistic velocities for the finite-mass spheres: uniformly random
 * directions, speeds uniform in [speed_min, speed_max]. */
carom_status carom_scene_random_velocities(carom_scene *scene, double speed_min,
                                           double speed_max, uint64_t seed,
                                           carom_error *error);

/* Maxwell-Boltzmann velocities at temperature kT for the finite-mass
 * spheres, with zero total momentum, rescaled so that the kinetic
 * temperature 2KE/(dim N) is exactly kT. */
carom_status carom_scene_maxwell_velocities(carom_scene *scene, double kT,
                                            uint64_t seed, carom_error *error);

/* A world with the scene's dim, box and boundaries (other settings from
 * base, which may be NULL for defaults) holding the scene's spheres, with
 * ids 0..n-1 in scene order, and their spins if the scene has them. NULL
 * and *error filled on failure. */
carom_world *carom_scene_create_world(const carom_scene *scene,
                                      const carom_world_def *base, carom_error *error);

/* Copies the world's box, boundaries and spheres (at the world's current time, ids in order,
 * removed spheres skipped) into the scene, with their spins if any sphere
 * has one (else scene->spin is NULL). */
carom_status carom_scene_from_world(carom_scene *scene, const carom_world *world,
                                    carom_error *error);

/* Extended XYZ, as ASE and OVITO read it:
 *   N
 *   Lattice="Lx 0 0 0 Ly 0 0 0 Lz" Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1[:mass:R:1][:spin:R:3] pbc="T T T" [Time=t]
 *   species x y z vx vy vz radius [mass] [wx wy wz]
 * A sheared state (scene.shear_offset) is written with the Lattice's
 * second vector tilted, "Lx 0 0 offset Ly 0 0 0 Lz": the periodic images
 * of Lees-Edwards boundaries, as OVITO and ASE draw a triclinic cell.
 * Reading takes that tilt (x and y periodic, any other off-diagonal entry
 * refused) as the offset, mod Lx. Reading names the file and line of any
 * error. */
carom_status carom_xyz_read(const char *path, carom_scene *scene, carom_error *error);
carom_status carom_xyz_write(FILE *out, const carom_scene *scene, double time,
                             carom_error *error);

#ifdef __cplusplus
}
#endif
#endif
