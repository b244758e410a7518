/* The loading helper (carom_world_def.prefetch): a second thread that
 * runs ahead of the event loop through the event queue and loads into
 * the caches what the coming events will read (their spheres' records,
 * events, event times, neighbour lists and places in the queue, which the
 * queue writes when their bucket comes up, and the records and event
 * times of the spheres on those lists; for a list's remaking, the cells
 * around, their spheres' list centres and lists, and the lists it
 * leaves; with cells, the records of the spheres in the cells around
 * them), so that the loop, which waits mostly for memory once the world
 * outgrows the caches, finds them there. It only reads and prefetches:
 * the results are the same with and without it, to the last bit.
 *
 * The event loop publishes the first sphere of each calendar bucket
 * HELPER_AHEAD buckets ahead of the current one (world_helper_publish);
 * the helper walks those buckets' lists. It reads the world's per-sphere
 * arrays while the loop writes them: every index it reads is checked
 * against the capacity before use, and every array it reads keeps its
 * place while it runs (it is stopped before the world's arrays are
 * reallocated or freed: world_helper_stop). Its loads of words the loop
 * may be writing are relaxed atomic loads.
 *
 * The thread is made at the first loop that wants it, parked (asleep)
 * between loops, and ended with the world. It checks that it pays: it
 * works in periods and sleeps between them, comparing the loop's
 * progress alone (after the first part of a pause, while the loop still
 * runs on what was loaded) with its progress helped (periods go on
 * across loops);
 * while helping does not pay (the threads share a core, or the machine
 * is busy) the pauses double, up to a second, so that it mostly sleeps. */
#ifndef CAROM_WORLD_HELPER_H
#define CAROM_WORLD_HELPER_H

#include "world_internal.h"

/* Starts the helper for an event loop over world w up to t_end, of at
 * most max_events events, if the world's prefetch setting asks for it
 * there (AUTO: a large world with neighbour lists, a long loop, two
 * CPUs). */
void world_helper_start(carom_world *w, double t_end, uint64_t max_events);
/* Parks it: when this returns it reads nothing of the world (nothing if
 * it is not running). */
void world_helper_stop(carom_world *w);
/* Ends the thread and frees what world_helper_start made. */
void world_helper_free(carom_world *w);

/* The event loop's part, at each event while the helper runs: publishes
 * the buckets that have come within reach. */
void world_helper_publish(carom_world *w);

#endif
