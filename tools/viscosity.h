/* The shear viscosity of the measured run (`viscosity=FILE|on`): samples
 * of S, the time integral of the pressure tensor times the volume
 * (carom/stress.h), taken every interval from the run's start, and the
 * Einstein-Helfand estimate from them,
 *
 *     eta(m interval) = < D_ab^2 > / (2 V kT m interval),
 *
 * D the symmetrised change of S over m intervals, averaged over every
 * origin and every off-diagonal pair a < b (carom_viscosity).
 *
 * Contract: the observer (viscosity_observer) must be given every
 * contact of the world (as its contact callback, or from one that calls
 * carom_stress_on_contact); viscosity_start starts the integral at the
 * world's time, and viscosity_sample appends S at the world's time now:
 * samples k = 0, 1, ... are meant to be at t0 + k interval, the first at
 * the start (S = 0). Either fails (-1) with the library's one-line
 * message when the world is one whose velocities change other than at
 * its contacts of spheres (walls, gravity, a thermostat, driven
 * spheres...). At most the capacity given to viscosity_create samples
 * are kept. The CSV has the header `lag,viscosity,error` and one row a
 * lag of m = 1, 2, ... intervals up to (samples - 1) / 2, stepping
 * m_next = max(m + 1, floor(1.05 m)), and the lag of m_report too (so
 * the reported lag has its row); numbers %.17g (as the JSON's).
 */
#ifndef CAROM_TOOLS_VISCOSITY_H
#define CAROM_TOOLS_VISCOSITY_H

#include <stddef.h>
#include <stdio.h>

#include "carom/carom.h"
#include "carom/stress.h"

typedef struct viscosity {
    carom_stress *stress;
    double interval;
    double (*samples)[9]; /* S at t0 + k interval */
    size_t count, capacity;
    char message[CAROM_ERROR_MESSAGE_SIZE]; /* of the last failure */
} viscosity;

/* Room for `capacity` samples at `interval`. 0, or -1 when out of
 * memory (message set). */
int viscosity_create(viscosity *v, double interval, size_t capacity);
/* The observer to give every contact of the world
 * (carom_stress_on_contact's user_data). */
carom_stress *viscosity_observer(const viscosity *v);
/* 0, or -1 with v->message. */
int viscosity_start(viscosity *v, const carom_world *w);
int viscosity_sample(viscosity *v, const carom_world *w);
/* eta at a lag of m intervals and its standard error (carom_viscosity;
 * NaN when the samples are too few). */
double viscosity_estimate(const viscosity *v, size_t m, int dim, double volume, double kT,
                          double *error);
/* The CSV described above. 0, or -1 on a write error. */
int viscosity_write_csv(const viscosity *v, FILE *f, size_t m_report, int dim, double volume,
                        double kT);
void viscosity_free(viscosity *v);

#endif
