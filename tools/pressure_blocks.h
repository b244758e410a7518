/* The statistical error of the measured run's Z = PV/NkT, by block
 * averaging (Flyvbjerg and Petersen, J. Chem. Phys. 91, 461 (1989)).
 *
 * Contract: the run is cut into blocks of equal numbers of events
 * without being stopped anywhere it would not stop anyway (a stop at a
 * time moves every sphere to it, which changes the round-off of what
 * follows; a stop after a number of events changes nothing).
 * - pressure_blocks_start resets the blocks at the run's start.
 * - pressure_blocks_budget says how many events the event loop may take
 *   before the current block ends (carom_world_advance_to_limited's
 *   budget); pressure_blocks_note, called after every piece the loop
 *   processed (whatever stopped it), closes the block when its events are
 *   done, reading the world's time and collision virial (carom_stats, kept
 *   since the run's start). Blocks start at 512 events; once 128 are
 *   closed, neighbours are merged into 64 of twice as many events.
 * - pressure_blocks_error, at the run's end, gives the standard error of
 *   Z. Each block's Z_b is 1 + (Z - 1) times its virial per unit time over
 *   the run's, so that the blocks' time-weighted mean is Z itself
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

#define PRESSURE_BLOCKS_MAX 128

typedef struct pressure_blocks {
    uint64_t per_block;           /* events a block holds */
    uint64_t events_closed;       /* events of the run up to the last closed block */
    double time_closed, virial_closed;
    int count;                    /* blocks closed */
    double duration[PRESSURE_BLOCKS_MAX], virial[PRESSURE_BLOCKS_MAX];
} pressure_blocks;

void pressure_blocks_start(pressure_blocks *b, const carom_world *w);
uint64_t pressure_blocks_budget(const pressure_blocks *b, const carom_world *w);
void pressure_blocks_note(pressure_blocks *b, const carom_world *w);
double pressure_blocks_error(const pressure_blocks *b, const carom_world *w, double z,
                             int *blocks);

#endif
