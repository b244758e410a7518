/* A sheared run of `carom run` (shear=): Lees-Edwards boundaries
 * (carom_world_set_shear) at a rate, the spheres' velocities relative to
 * the profile u_x = rate (y - Ly/2) rescaled to the run's temperature
 * every shear_interval, and the shear viscosity from the heat the
 * boundaries made between rescalings.
 *
 * Contract: with elastic smooth contacts the energy of the velocities
 * relative to the profile, E = sum m |v - u(y)|^2 / 2, changes only
 * through the boundaries' work, at rate * integral of -V P_xy dt: exactly
 * (the kinetic and collisional parts of P_xy both), with nothing sampled;
 * under a heat bath (thermostat=), whose redraws are about the profile,
 * by that work plus what the bath gave (carom_andersen_energy_given),
 * which is taken off.
 * So eta = -P_xy / rate = (the heat of the measured intervals) / (rate^2
 * V (their time)), and its error is from 16 blocks of intervals (NaN with
 * fewer than 16). Whether contacts keep the energy is the caller's to
 * know (report.c gives eta only then). A rescaling is a stop of the
 * world at its time, and sets every velocity again (O(N)).
 *
 * The pressure tensor of the measured run (shear_stress.c) comes beside
 * it: each interval's integral of P V, the contacts' r_ab dp^T as they
 * come (shear_on_contact: smooth contacts, dp = impulse along the
 * normal) and the kinetic part sum m c c^T (c = v - u(y)) by the
 * trapezoid rule over the interval's ends. Its xy part is the same
 * -eta rate as the heat's, but with the kinetic part sampled; the normal
 * stress differences N1 = P_xx - P_yy and N2 = P_yy - P_zz are the
 * fluid's answer to shear that eta does not give. */
#ifndef CAROM_TOOLS_SHEAR_H
#define CAROM_TOOLS_SHEAR_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"
#include "carom/thermostat.h"

/* The six parts of a symmetric tensor: xx, yy, zz, xy, xz, yz. */
enum { SHEAR_PARTS = 6 };

/* A measured interval between rescalings: its heat, its length, E at its
 * middle (the mean of its ends), and the integral of P V over it. */
typedef struct shear_interval {
    double heat, span, mean_energy;
    double stress[SHEAR_PARTS];
} shear_interval;

typedef struct shear_run {
    double rate, interval, kt; /* interval 0: never rescaled */
    /* A heat bath (thermostat=) keeps the temperature instead: the
     * intervals are then only measured, never rescaled, and the heat
     * of each is its change of E less what the bath gave. */
    const carom_andersen *bath;
    double given;         /* the bath's energy given at the interval's start */
    int dim;
    double next;          /* the next rescaling's time (INFINITY: none) */
    int measuring;        /* the measured run's intervals are being kept */
    double from, energy;  /* the current interval's start and E then */
    shear_interval *kept; /* the measured intervals */
    size_t count, room;
    uint64_t rescales;    /* in the measured run */
    /* The current interval's kinetic tensor at its start, and its
     * contacts' sum of r_ab dp^T so far; the radii by sphere id. */
    double kinetic[SHEAR_PARTS], collided[SHEAR_PARTS];
    double *radius;
    size_t radii;
} shear_run;

/* The rescalings' interval when none is given: the time in which the
 * heat, by Enskog's viscosity of the spheres as they are (equal spheres
 * of their mean radius, mass 1, at kt; kt 0: their own), would raise the
 * temperature by 1%, at most 1. */
double shear_interval_for(const carom_world *w, double rate, double kt);
/* Sets the world's shear (after compress=) and its offset now, adds the profile to every
 * velocity unless profile is 0 (an init file's are taken as they are),
 * and plans the first rescaling an interval from now (bath: the run's
 * heat bath, whose redraws are about the profile, or NULL). 0, or -1
 * with the world's message. */
int shear_start(shear_run *s, carom_world *w, double rate, double offset, double interval,
                double kt, int dim, int profile, const carom_andersen *bath);
/* E now: the energy of the velocities relative to the profile. */
double shear_peculiar_energy(const carom_world *w, double rate);
/* Scales the velocities relative to the profile so that their kT is kt
 * (the spheres of finite mass). 0, or -1 with the world's message. */
int shear_scale_to(carom_world *w, double rate, double kt, int dim);
/* At the time of s->next: closes the interval (kept when measuring),
 * scales the velocities relative to the profile to kt (not under a
 * bath), plans the next. 0, or -1 (out of memory, or the world's
 * message). */
int shear_rescale(shear_run *s, carom_world *w);
/* The measured run starts now: its intervals are kept from here; at its
 * end, the last one is closed (each 0, or -1 out of memory). */
int shear_measure_start(shear_run *s, const carom_world *w);
int shear_measure_end(shear_run *s, const carom_world *w);
/* eta of the measured run (and its error, NaN with fewer than 16
 * intervals), its heat, and the mean kT of the velocities relative to the
 * profile over it (from each interval's mean E). */
double shear_viscosity(const shear_run *s, const carom_world *w, double *error, double *heat,
                       double *kt_mean);
void shear_free(shear_run *s);
/* Errors of values computed over runs of intervals: over(s, from, to,
 * volume, out) gives them for intervals [from, to); their spread over 16
 * blocks of whole intervals, as even as they come (NaN with fewer
 * intervals, or more than 3 values). */
typedef void (*shear_block_fn)(const shear_run *s, size_t from, size_t to, double volume,
                               double *out);
void shear_block_errors(const shear_run *s, const carom_world *w, shear_block_fn over,
                        int values, double *error);

/* shear_stress.c. sum m c c^T now (c the velocity relative to the
 * profile), in parts. */
void shear_kinetic_tensor(const carom_world *w, double rate, double out[SHEAR_PARTS]);
/* The radii of the world's spheres, by id, for the contacts to come
 * (0, or -1 out of memory). */
int shear_stress_start(shear_run *s, const carom_world *w);
/* A carom_contact_fn's work: a contact of two spheres while measuring
 * adds its r_ab dp^T. */
void shear_on_contact(shear_run *s, const carom_contact *c);
/* The measured run's pressure tensor (parts), and from it with errors
 * from 16 blocks of intervals (NaN with fewer): N1 = P_xx - P_yy,
 * N2 = P_yy - P_zz (3D; NaN in 2D) and -P_xy / rate. */
typedef struct shear_pressure {
    double tensor[SHEAR_PARTS];
    double n1, n1_error, n2, n2_error, eta, eta_error;
} shear_pressure;
void shear_pressure_of(const shear_run *s, const carom_world *w, shear_pressure *out);

#endif
