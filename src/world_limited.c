/* Advancing to a time under an event budget: the frame driver of an
 * interactive program processes a frame's events in chunks and stops when
 * its wall-clock budget is spent, without ever skipping an event. It is
 * carom_world_advance_to cut into resumable pieces. world_process_to is
 * the same without moving the spheres at the end: what a caller inside
 * the library uses to stop at an instant for one sphere's sake (the heat
 * bath) without touching the others. */
#include <math.h>

#include "world_internal.h"

carom_status world_process_to(carom_world *w, double t, uint64_t max_events,
                              uint64_t *processed, int *reached)
{
    if (processed)
        *processed = 0;
    if (reached)
        *reached = 0;
    if (w->busy)
        return world_busy_failure(w, "carom_world_advance_to");
    if (!isfinite(t) || t < w->time)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "cannot advance to time %g (world time is %g)", t, w->time);
    if (!w->built) {
        carom_status st = world_build(w, 0);
        if (st != CAROM_OK)
            return st;
    }
    uint64_t count = 0;
    carom_status st = world_process_until(w, t, max_events, &count);
    if (processed)
        *processed = count;
    if (st != CAROM_OK)
        return st;
    if (count == max_events) {
        uint32_t top = event_queue_top(&w->queue);
        if (top != EVENT_QUEUE_ABSENT && event_queue_top_time(&w->queue) <= t)
            return CAROM_OK; /* budget spent: the world stays at its last event */
    }
    w->time = t; /* no event before it is left */
    if (reached)
        *reached = 1;
    return CAROM_OK;
}

carom_status carom_world_advance_to_limited(carom_world *w, double t, uint64_t max_events,
                                            uint64_t *processed, int *reached)
{
    int arrived = 0;
    carom_status st = world_process_to(w, t, max_events, processed, &arrived);
    if (reached)
        *reached = arrived;
    if (st != CAROM_OK || !arrived)
        return st;
    for (size_t i = 0; i < w->count; i++)
        if (w->info[i].alive)
            world_advance_sphere(w, &w->spheres[i], t);
    return CAROM_OK;
}
