/* The statistical error of the measured run's Z = PV/NkT, by block
 * averaging (Flyvbjerg and Petersen, J. Chem. Phys. 91, 461 (1989)).
 *
 * Contract: the run is cut into blocks of equal numbers of events
 * without being stopped anywhere it would not stop anyway (a stop at a
 * time moves every sphere to it, which changes the round-off of what
 * follows; a stop after a number of events changes nothing).
 * - pressure_blocks_start resets the blocks at the run's start. With a
 *   heat bath (not NULL) the world must be one whose energy changes only
 *   through it (thermostat.h: carom_andersen_energy_given): the blocks
 *   then weigh the time by the world's energy (see below).
 * - pressure_blocks_budget says how many events the event loop may take
 *   before the current block ends (carom_world_advance_to_limited's
 *   budget); pressure_blocks_note, called after every piece the loop
 *   processed (whatever stopped it), closes the block when its events are
 *   done, reading the world's time and collision virial (carom_stats, kept
 *   since the run's start) and its weight: the block's duration, or with a
 *   bath the time integral of the world's energy over it. Blocks start at
 *   512 events; once 128 are closed, neighbours are merged into 64 of
 *   twice as many events.
 * - pressure_blocks_z, with a bath: Z = 1 + f W / (2 d I), W the run's
 *   virial, I the time integral of its energy, f the degrees of freedom
 *   a sphere (d, and its spin's axes in a rough world): the pressure over
 *   the mean temperature of the run, which the bath makes fluctuate
 *   (slowly, over 1/rate) while the virial follows it. The mean of the
 *   run's ends, which a world alone keeps (carom_world_compressibility),
 *   would then be off by about sqrt(1 / (d N)) however long the run. NaN
 *   without a bath.
 * - pressure_blocks_error, at the run's end, gives the standard error of
 *   Z. Each block's Z_b is 1 + (Z - 1) times its virial per unit of weight
 *   over the run's, so that the blocks' weighted mean is Z itself
 *   (whatever the temperature's definition; a last, partial block of fewer
 *   than half a block's events joins the one before). The error is the
 *   largest of the standard errors of the mean over the blocks, over pairs
 *   of them and over groups of four, which would still grow if the blocks
 *   were correlated. NaN when Z is not finite or fewer than 16 blocks were
 *   closed; *blocks gets their number. */
#ifndef CAROM_TOOLS_PRESSURE_BLOCKS_H
#define CAROM_TOOLS_PRESSURE_BLOCKS_H

#include <stdint.h>

#include "carom/carom.h"
#include "carom/thermostat.h"

#define PRESSURE_BLOCKS_MAX 128

typedef struct pressure_blocks {
    uint64_t per_block;           /* events a block holds */
    uint64_t events_closed;       /* events of the run up to the last closed block */
    double weight_closed, virial_closed;
    int count;                    /* blocks closed */
    double weight[PRESSURE_BLOCKS_MAX], virial[PRESSURE_BLOCKS_MAX];
    /* With a bath: the world's energy, the bath's sums and the time at
     * the run's start. */
    const carom_andersen *bath;
    double energy_start, given_start, moment_start, time_start;
} pressure_blocks;

void pressure_blocks_start(pressure_blocks *b, const carom_world *w, const carom_andersen *bath);
uint64_t pressure_blocks_budget(const pressure_blocks *b, const carom_world *w);
void pressure_blocks_note(pressure_blocks *b, const carom_world *w);
double pressure_blocks_z(const pressure_blocks *b, const carom_world *w);
double pressure_blocks_error(const pressure_blocks *b, const carom_world *w, double z,
                             int *blocks);

#endif
