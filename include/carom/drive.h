/* carom drivers: ready-made implementations of carom_driver (carom.h) for
 * driven spheres, the motions of Kim, Guibas and Shin 2005 (seed 000):
 *
 *   orbits         each sphere moves on a circle, known in closed form
 *                  (an analytic validation scene);
 *   random forces  piecewise-constant random accelerations of norm at most
 *                  the sphere's bound, redrawn at fixed intervals (§4.2);
 *   velocity field particles accelerated towards a circulating velocity
 *                  field in a box, acceleration clamped to the bound (§4.3).
 *
 * Each driver covers the spheres with ids first_id .. first_id + n - 1 of
 * one world (driver sphere k is world sphere first_id + k), so a world can
 * mix ballistic spheres with one set of driven ones. Fill the world's
 * def.driver from carom_*_driver(), then add the spheres with the
 * carom_sphere_def that carom_*_sphere_def() gives (driven = 1, the
 * acceleration bound, radius, and the state at the driver's start time
 * when called before the sphere is probed), in order, so that the ids
 * match.
 *
 * A probe of an id the driver does not cover, or one going back in time
 * (carom.h promises neither happens), never crashes: it is counted
 * (carom_*_misuse) and answers with the driver's best knowledge.
 *
 * Like the rest of the library: no globals, nothing printed, errors as a
 * carom_status with a message in a carom_error.
 */
#ifndef CAROM_DRIVE_H
#define CAROM_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "carom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- orbits ---- */

/* A sphere on a circle in the plane z = center[2]:
 *   position(t) = center + orbit_radius (cos(omega t + phase), sin(omega t + phase), 0)
 * Its acceleration has the constant norm orbit_radius omega^2, which is its
 * exact bound. orbit_radius = 0 is a sphere at rest. */
typedef struct carom_orbit {
    double center[3];
    double orbit_radius; /* R >= 0 */
    double omega;        /* angular speed, radians per time unit (any sign) */
    double phase;        /* radians */
    double radius;       /* sphere radius > 0 */
} carom_orbit;

typedef struct carom_orbits {
    size_t n;
    carom_orbit *orbit;       /* owned; carom_orbits_free releases it */
    carom_sphere_id first_id; /* world id of orbit 0 (default 0) */
    uint64_t misuse;          /* probes of ids not covered */
} carom_orbits;

void carom_orbits_init(carom_orbits *orbits);
void carom_orbits_free(carom_orbits *orbits);
/* Appends one orbit after checking it (finite numbers, R >= 0, radius > 0). */
carom_status carom_orbits_add(carom_orbits *orbits, const carom_orbit *orbit,
                              carom_error *error);

/* Reads an orbits file: one sphere per line, seven numbers
 *   cx cy cz R omega phase radius
 * separated by blanks; blank lines and `#` comments are skipped. Any
 * error names the file, the line and the field ("orbits.txt:4: field 5
 * (omega): 'abc' is not a number"). On failure *orbits is left empty. */
carom_status carom_orbits_read(const char *path, carom_orbits *orbits, carom_error *error);

/* Exact position and velocity of one orbit at time t. */
void carom_orbit_state(const carom_orbit *orbit, double t, double position[3],
                       double velocity[3]);
/* R omega^2. */
double carom_orbit_accel_bound(const carom_orbit *orbit);

/* probe = the analytic state, kick = NULL (contacts do not move orbiting
 * spheres); user_data = orbits, which must outlive the world. */
carom_driver carom_orbits_driver(carom_orbits *orbits);
/* The definition of orbit k's sphere at time t (mass 1). */
carom_sphere_def carom_orbits_sphere_def(const carom_orbits *orbits, size_t k, double t);

/* ---- random forces (seed 000 §4.2) ---- */

/* Sphere k's acceleration is constant on each interval
 * [start + m interval, start + (m+1) interval) and redrawn at its start as
 * a vector uniformly distributed in the ball of radius accel_bound[k]
 * (the disk in 2D), from sphere k's own random stream (seeded from seed
 * and k): the true acceleration never exceeds the bound. The state is
 * exact piecewise-quadratic: within a piece, position and velocity are
 * evaluated from the piece's anchor, so they do not depend on how often
 * the sphere is probed. kick(t, dv) starts a new piece at t with the
 * velocity changed (the acceleration is kept). */
typedef struct carom_forces_def {
    int dim;                  /* 2 or 3 (default 3) */
    double interval;          /* > 0 (default 0.1) */
    uint64_t seed;            /* default 1 */
    double start_time;        /* time of the initial states (default 0) */
    carom_sphere_id first_id; /* default 0 */
} carom_forces_def;

typedef struct carom_forces carom_forces;

carom_forces_def carom_forces_default_def(void);
/* n spheres with initial positions, velocities, radii and acceleration
 * bounds (>= 0, finite). NULL and *error filled on failure. */
carom_forces *carom_forces_create(const carom_forces_def *def, size_t n,
                                  const double (*position)[3], const double (*velocity)[3],
                                  const double *radius, const double *accel_bound,
                                  carom_error *error);
void carom_forces_free(carom_forces *forces);
carom_driver carom_forces_driver(carom_forces *forces);
carom_sphere_def carom_forces_sphere_def(const carom_forces *forces, size_t k);
/* Advances sphere k (not an id) to t >= its last probe and gives its state
 * and current acceleration (any may be NULL). */
carom_status carom_forces_state(carom_forces *forces, size_t k, double t, double position[3],
                                double velocity[3], double acceleration[3]);
uint64_t carom_forces_misuse(const carom_forces *forces);

/* ---- velocity field (seed 000 §4.3) ---- */

/* Particles in the box [0, Lx] x [0, Ly] x [0, Lz] (3D only) follow the
 * steady, exactly divergence-free circulating field, with
 * X = x/Lx, Y = y/Ly, Z = z/Lz in [0, 1] and U = speed:
 *
 *   u_x = (U/4) sin(2 pi X) cos(pi Z)
 *   u_y = (U/4) sin(2 pi Y) cos(pi Z)
 *   u_z = (U/2) (-cos(2 pi X) - cos(2 pi Y)) sin(pi Z)
 *
 * (divergence zero when Lx = Ly = Lz; no flow through the faces). It
 * rises at speed U along the vertical centre line, spreads out under the
 * top face, sinks along the vertical edges and side faces (the mean over
 * each side face is downward) and comes back in above the bottom face.
 *
 * Every `step` (from start_time) each particle takes the acceleration
 *   a = gain (u(x) - v), scaled down to norm accel_bound[k] if longer,
 * from its state at the step's start, and keeps it until the next step
 * (or a kick, which changes the velocity and keeps the acceleration):
 * |a| <= A exactly, and probes are analytic within a step. */
typedef struct carom_field_def {
    double box[3];            /* default 200^3 */
    double speed;             /* U (default 40) */
    double gain;              /* 1/time (default 2) */
    double step;              /* > 0 (default 0.05) */
    double start_time;        /* default 0 */
    carom_sphere_id first_id; /* default 0 */
} carom_field_def;

typedef struct carom_field carom_field;

carom_field_def carom_field_default_def(void);
carom_field *carom_field_create(const carom_field_def *def, size_t n,
                                const double (*position)[3], const double (*velocity)[3],
                                const double *radius, const double *accel_bound,
                                carom_error *error);
void carom_field_free(carom_field *field);
carom_driver carom_field_driver(carom_field *field);
carom_sphere_def carom_field_sphere_def(const carom_field *field, size_t k);
carom_status carom_field_state(carom_field *field, size_t k, double t, double position[3],
                               double velocity[3], double acceleration[3]);
/* The field u at a point. */
void carom_field_velocity(const carom_field_def *def, const double position[3],
                          double u[3]);
uint64_t carom_field_misuse(const carom_field *field);

#ifdef __cplusplus
}
#endif
#endif
