/* carom thermostat: Andersen's heat bath for event-driven worlds.
 *
 * Every sphere of finite mass that is not driven has its velocity redrawn
 * from the Maxwell-Boltzmann distribution of temperature kT (each
 * component normal with variance kT / m) at the instants of a Poisson
 * process of `rate` per sphere; in a world of rough spheres (a tangential
 * restitution other than -1) its spin too (each component about which it
 * turns normal with variance kT / I, I = inertia_factor m r^2; only z in
 * 2D). Between redraws the world runs as it would alone: the bath acts
 * only at its instants, which are exact times of the run (the world's
 * events are processed up to each and the sphere's velocity set there
 * with carom_world_set_velocity; the other spheres are not moved, so an
 * instant costs O(1), not O(N)). The temperature then relaxes as
 * dT/dt = rate (kT - T) on top of what collisions do: a gas of any start
 * reaches kT, and an inelastic (granular) gas reaches the steady
 * state where the bath's heating balances the collisions' cooling.
 *
 * In a sheared world (carom_world_set_shear) the bath is at rest in the
 * flow: a velocity is redrawn about the profile's, u_x = rate (y - Ly/2)
 * at the sphere's height y, and a spin about the flow's rotation, -rate/2
 * about z (half its vorticity). It then takes up the heat the
 * boundaries' work makes, and a sheared fluid reaches a steady state
 * about the profile. carom_andersen_energy_given counts there the change
 * of each sphere's energy relative to the flow, (1/2) m |v - u(y)|^2 (and
 * (1/2) I |w + rate/2 z|^2 in a rough world): the energy relative to the
 * flow then changes by the boundaries' work plus what the bath gave.
 *
 * The instants come from one process of rate `rate` times the number of
 * ids (live or not): each picks an id uniformly, and an id that is not a
 * sphere the bath acts on is passed over, so each eligible sphere sees
 * exactly `rate`. The same seed gives the same run. No globals; errors
 * are a carom_status with the message in a carom_error (definition) or
 * the world's (advance).
 */
#ifndef CAROM_THERMOSTAT_H
#define CAROM_THERMOSTAT_H

#include <stdint.h>

#include "carom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carom_andersen_def {
    double kT;     /* bath temperature, >= 0 (default 1) */
    double rate;   /* redraws per sphere per time unit, >= 0 (default 1) */
    uint64_t seed; /* default 1 */
} carom_andersen_def;

typedef struct carom_andersen carom_andersen;

carom_andersen_def carom_andersen_default_def(void);
/* NULL and *error filled for a bad definition (a NaN, a negative rate or
 * temperature) or no memory. */
carom_andersen *carom_andersen_create(const carom_andersen_def *def, carom_error *error);
void carom_andersen_free(carom_andersen *bath);

/* Advances the world to time t (carom_world_advance_to), stopping at each
 * of the bath's instants on the way to redraw a velocity. The bath's
 * process starts at the world's time at the first call, and starts anew
 * (it has no memory) when the number of ids has changed. An error of the
 * world comes back as it is (message: carom_world_error_message); the
 * world is then at the time it reached. */
carom_status carom_andersen_advance_to(carom_andersen *bath, carom_world *world, double t);
/* carom_andersen_advance_to in resumable pieces, as
 * carom_world_advance_to_limited is carom_world_advance_to's: at most
 * max_events events of the world (the redraws are not events), *processed
 * receives how many; *reached is 1 when the world is at t with every
 * position valid, 0 when the budget ran out first (the world is at its
 * last event's time, or at a later instant of the bath's; call again to
 * go on). A run in pieces is the run in one, to the last bit, whatever
 * the budgets. */
carom_status carom_andersen_advance_to_limited(carom_andersen *bath, carom_world *world, double t,
                                               uint64_t max_events, uint64_t *processed,
                                               int *reached);
/* Velocities redrawn so far. */
uint64_t carom_andersen_redraws(const carom_andersen *bath);
/* The energy the bath has given the world so far (kinetic, and in a
 * rough world rotational; negative where it took more than it gave):
 * *given = the sum over its redraws of each one's energy change dE,
 * *moment = the sum of dE t, t the redraw's time. In a world whose energy
 * changes only through the bath (elastic contacts, smooth or perfectly
 * rough without Coulomb's limit; no gravity, no driven spheres, no
 * velocities set by the application), the time integral of the world's
 * energy E from t0 to t1 follows exactly:
 *   E(t0) (t1 - t0) + (given1 - given0) t1 - (moment1 - moment0),
 * given and moment read at t0 and t1. Its mean temperature is what an
 * estimate of the pressure from the contacts' virial divides by. */
void carom_andersen_energy_given(const carom_andersen *bath, double *given, double *moment);

#ifdef __cplusplus
}
#endif

#endif
