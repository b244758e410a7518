/* The transport coefficients of the measured run (`viscosity=FILE|on`,
 * `bulk_viscosity=FILE|on`, `conductivity=FILE|on`): one observer keeps
 * the time integrals of the pressure tensor times the volume, S, and of
 * the heat flux, Q (carom/stress.h); both are sampled at the same
 * instants, every interval from the run's start, and Einstein-Helfand's
 * estimates come from the samples:
 *
 *     eta(m interval)    = < d^2 > / (2 V kT m interval),
 *     kappa(m interval)  = < d_b^2 > / (2 V kT m interval (1 - m / (samples - 1))),
 *     lambda(m interval) = < D_a^2 > / (2 V kT^2 m interval),
 *
 * d each shear part of the change of S over m intervals (five in 3D,
 * two in 2D: carom_viscosity), d_b the change of its trace / dim less
 * its mean, P V m interval (carom_bulk_viscosity), D_a Q's change along
 * each axis a (carom_conductivity), averaged over every origin. Both
 * viscosities come from the same samples of S, kept once.
 *
 * Contract: the observer (transport_observer) must be given every
 * contact of the world (as its contact callback, or from one that calls
 * carom_stress_on_contact); transport_start starts the integrals at the
 * world's time, and transport_sample appends S and/or Q (those asked
 * for) at the world's time now: samples k = 0, 1, ... are meant to be at
 * t0 + k interval, the first at the start (zero). Either fails (-1) with
 * the library's one-line message when the world is one whose velocities
 * change other than at its contacts of spheres (walls, gravity, a
 * thermostat, driven spheres...). With Q, transport_start fails (-2) where
 * the library refuses the heat integral at once (spheres of unequal
 * masses, naming two; a total momentum that is not zero within 1e-9 of
 * sum m |v|: Q is the heat flux only where sum v = 0), and
 * transport_sample after a rough or inelastic contact. At most the
 * capacity given to transport_create samples are kept. The CSVs have the
 * header `lag,viscosity,error`, `lag,bulk_viscosity,error` or
 * `lag,conductivity,error` and one row a lag of m = 1, 2, ... intervals
 * up to (samples - 1) / 2, stepping m_next = max(m + 1, floor(1.05 m)),
 * and the lag of m_report too (so the reported lag has its row); numbers
 * %.17g (as the JSON's).
 */
#ifndef CAROM_TOOLS_TRANSPORT_H
#define CAROM_TOOLS_TRANSPORT_H

#include <stddef.h>
#include <stdio.h>

#include "carom/carom.h"
#include "carom/stress.h"

/* Which coefficients are asked for, and which one a CSV is of; both
 * viscosities need the samples of S (TRANSPORT_STRESS), the conductivity
 * those of Q. */
enum {
    TRANSPORT_VISCOSITY = 1,
    TRANSPORT_CONDUCTIVITY = 2,
    TRANSPORT_BULK_VISCOSITY = 4,
    TRANSPORT_STRESS = TRANSPORT_VISCOSITY | TRANSPORT_BULK_VISCOSITY
};

typedef struct transport {
    carom_stress *stress;
    int kept;              /* the TRANSPORT_* coefficients asked for */
    double interval;
    double (*stress_samples)[9]; /* S at t0 + k interval (NULL without either viscosity) */
    double (*heat_samples)[3];   /* Q at t0 + k interval (NULL without conductivity) */
    size_t count, capacity;
    char message[CAROM_ERROR_MESSAGE_SIZE]; /* of the last failure */
} transport;

/* Room for `capacity` samples at `interval` of what `kept` (TRANSPORT_*
 * flags) asks for.
 * 0, or -1 when out of memory (message set). */
int transport_create(transport *t, int kept, double interval, size_t capacity);
/* The observer to give every contact of the world
 * (carom_stress_on_contact's user_data). */
carom_stress *transport_observer(const transport *t);
/* 0, or -1 with t->message; transport_start -2 (message set) when the
 * world holds S but not Q's conditions (equal masses, no net momentum). */
int transport_start(transport *t, const carom_world *w);
int transport_sample(transport *t, const carom_world *w);
/* The coefficient `which` (one TRANSPORT_* flag) at a lag of m intervals
 * and its standard error (carom_viscosity, carom_bulk_viscosity,
 * carom_conductivity; NaN when the samples are too few or not kept). */
double transport_estimate(const transport *t, int which, size_t m, int dim, double volume,
                          double kT, double *error);
/* Its name: "viscosity", "bulk_viscosity" or "conductivity" (the CLI's
 * key and the CSV's column). */
const char *transport_name(int which);
/* The CSV of `which` described above. 0, or -1 on a write error. */
int transport_write_csv(const transport *t, int which, FILE *f, size_t m_report, int dim,
                        double volume, double kT);
void transport_free(transport *t);

#endif
