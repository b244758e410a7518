/* The viewer's simulation driver: a world built from a scene plus one
 * large sphere that the user drags, advanced frame by frame under a
 * wall-clock budget, with pause, single step, reset, time scale and
 * gravity on/off.
 *
 * Contract:
 * - driver_frame never skips an event: it advances the world towards the
 *   frame's target time in chunks of events (carom_world_advance_to_limited)
 *   and stops when the budget is spent; the next frame goes on towards the
 *   same target ("behind" is then set, and the simulation runs slower than
 *   real time). A new target is set only once the previous one is reached.
 * - The large sphere is a driven sphere of the world (carom_driver): the
 *   viewer integrates its motion itself, with an acceleration held
 *   constant over each target interval and never above big_accel (the
 *   bound the world is told), steering it towards the drag target at up
 *   to big_speed. Collisions reach the viewer's integrator as kicks for a
 *   large finite mass (see driver.c for why), so it pushes particles, never
 *   passes through one and never leaves a walled box. Fixed planes are
 *   added to every world built; the large sphere starts in front of
 *   them, and a drag target behind one is moved onto its near side.
 * - Driven particles (motion=forces or field): their motion is made for
 *   the scene once the large sphere has its place, and made again at
 *   every reset (orbits, read from their file, are taken as they are:
 *   their probe is stateless, and the large sphere must find a free
 *   place among them, since none can be moved); the world's driver passes them to it and the large
 *   sphere to the viewer's integrator. Gravity cannot be switched on or
 *   off there (driver_set_gravity does nothing: driven particles follow
 *   their motion, not gravity).
 * - Species: the scene's species are the world's, and the pairs of
 *   pass_through= pass through each other (those of sense= sense each
 *   other) in every world built (set before its first advance: they may
 *   start overlapping);
 *   pair_restitution=, species_wall_restitution=, pair_friction= and
 *   species_wall_friction= are set in every world built too. The large
 *   sphere takes the lowest species that none of these keys names, so
 *   that it meets every sphere as it does without species (species 0 if
 *   every species is named); it is drawn grey whatever its species.
 * - Errors (from the library) come back as nonzero with a one-line message
 *   in d->error; nothing is printed.
 */
#ifndef CAROM_VIEWER_DRIVER_H
#define CAROM_VIEWER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "frame.h"
#include "motion.h"
#include "options.h"

typedef struct driver_settings {
    carom_world_def def;  /* dim, box and boundaries come from the scene;
                             restitution_min_speed < 0: automatic, the
                             speed of a fall by one radius */
    int with_big;         /* add the large sphere */
    double big_radius;    /* 0: automatic */
    double big_mass;      /* 0: automatic */
    double big_speed;     /* largest speed of the large sphere; 0: automatic */
    double time_scale;    /* simulated time per real second (0: 1) */
    int nplanes;          /* fixed planes (carom_world_add_plane) */
    double plane[FRAME_PLANES_MAX][4]; /* unit normal, offset (as options.c gives them) */
    double shear;         /* Lees-Edwards shear rate (0: none; no large sphere then) */
    /* Particles driven by random forces or the velocity field (motion=
     * forces or field): the options their motion is made from. */
    int driven;
    run_options motion_options;
    motion orbits;        /* motion=orbits: read by viewer_prepare; driver_create
                             takes it over (and leaves it empty) */
    int nsegments;        /* fixed segments (2D): segments= and segments_file= */
    double (*segment)[4]; /* malloc'd; driver_create takes it over (leaving NULL) */
    int ntriangles;        /* fixed triangles (3D): triangles= and mesh= */
    double (*triangle)[9]; /* malloc'd; driver_create takes it over (leaving NULL) */
    /* The keys that name species, as options_from_config gives them
     * (their origin and text are not read). */
    species_values pass_through, sense, pair_restitution, species_wall_restitution;
    species_values pair_friction, species_wall_friction;
} driver_settings;

typedef struct driver {
    carom_scene initial;      /* the scene reset returns to (with the large sphere) */
    carom_world_def def;
    double gravity_on[3];     /* the gravity that "gravity on" means */
    int gravity_enabled;
    carom_world *world;
    double time_offset;       /* simulated time before the current world was built */

    int has_big;
    carom_sphere_id big;
    double big_radius, big_mass, big_speed;
    double big_target[3];     /* where the large sphere is asked to go */
    double big_accel;         /* bound on its acceleration */
    double big_t, big_x[3], big_v[3], big_a[3]; /* its motion: state at big_t,
                                                   acceleration until the next
                                                   steering */
    size_t relocated;         /* spheres moved to make room for it */
    int nplanes;
    double plane[FRAME_PLANES_MAX][4]; /* unit normal, offset */
    int nsegments;
    double (*segment)[4];       /* the driver's (freed by driver_free) */
    int ntriangles;
    double (*triangle)[9];      /* the driver's (freed by driver_free) */
    /* Pairs of species that pass through each other; pairs and species
     * with their own restitution, and their own beta and mu. */
    species_values pass_through, sense, pair_restitution, species_wall_restitution;
    species_values pair_friction, species_wall_friction;
    uint32_t big_species;       /* the large sphere's (meets every species if it can) */
    int has_species;            /* the scene came with species: coloured by them */
    int driven;                 /* the particles are driven by `motion` */
    run_options motion_options;
    motion motion;

    /* shear=: the rate, and the temperature relative to the profile that
     * the frames keep (the initial scene's). */
    double shear, shear_kt;

    double time_scale;
    int paused;
    double target;            /* world time the current interval heads to */
    int behind;               /* the last frame ran out of budget */

    uint64_t collisions_base; /* collisions of worlds replaced by rebuilds */
    uint64_t collisions_last_frame;
    uint64_t frame_events;
    double seconds_per_event; /* running estimate, sizes the chunks */

    unsigned char (*bands)[3]; /* colour of each sphere id */
    size_t n_bands;

    int spokes;    /* 2D, and rough or with spins: disks show spokes */
    double *angle; /* spoke angle of each sphere id (radians) */
    size_t n_angle;
    char error[1200];
} driver;

/* Takes s->orbits and s->triangle over (leaving them empty), whatever the
 * outcome. */
int driver_create(driver *d, const carom_scene *scene, driver_settings *s);
void driver_free(driver *d);

/* Advances by real_dt seconds of real time (times the time scale), or by
 * one 1/60 s step when `single_step` (also while paused), spending at most
 * budget_seconds of wall-clock time on events. */
int driver_frame(driver *d, double real_dt, double budget_seconds, int single_step);

/* Back to the initial scene (time 0 again). */
int driver_reset(driver *d);
/* Gravity on or off: the world is rebuilt from its current state. */
int driver_set_gravity(driver *d, int on);
/* Asks the large sphere to go to p (kept inside the box and in front of
 * the fixed planes, so that it slides along them). */
void driver_drag_to(driver *d, const double p[3]);
/* Current position of the large sphere (0 if there is none). */
int driver_big_position(const driver *d, double out[3]);

double driver_time(const driver *d);
uint64_t driver_collisions(const driver *d);

/* Spheres at the world's current time, with their species, coloured
 * as `colour` says (frame.h: COLOUR_AUTO is by species when the scene
 * came with species, else by band), with their spokes' angles when
 * d->spokes (2D, a rough world or one with spins): each angle starts at
 * 0 and driver_frame turns it by the spin about z times the simulated
 * time the frame advanced. */
int driver_fill_frame(driver *d, view_frame *f, view_colour colour);
/* Writes the current state (the large sphere last) as extended XYZ, with
 * a spin column as `carom run` writes one (a rough world, or spins). */
int driver_dump(driver *d, const char *path);

#endif
