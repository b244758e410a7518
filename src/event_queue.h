/* The event queue: an indexed 4-ary min-heap holding one entry per sphere,
 * keyed by that sphere's next event time (ties broken by sphere index, so
 * runs are deterministic). Each heap entry holds its key and its sphere,
 * so sifting compares entries without looking anything up elsewhere, and
 * the four children of a node share one 64-byte cache line. A sphere's key
 * can be changed in place, which is what lets each sphere keep exactly one
 * pending event and makes lazy invalidation cheap (see world_events.c).
 * All operations O(log N). */
#ifndef CAROM_EVENT_QUEUE_H
#define CAROM_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#define EVENT_QUEUE_ABSENT UINT32_MAX

typedef struct event_queue_entry {
    double time;
    uint32_t sphere;
    uint32_t unused;
} event_queue_entry;

typedef struct event_queue {
    event_queue_entry *heap; /* heap order; children of k: 4k+1 .. 4k+4 */
    void *block;             /* the allocation heap points into */
    uint32_t *slot;          /* slot[sphere] = position in heap, or ABSENT */
    size_t size;
    size_t capacity;
} event_queue;

int event_queue_init(event_queue *q, size_t capacity);
void event_queue_free(event_queue *q);
/* Grows to hold spheres 0..capacity-1. */
int event_queue_reserve(event_queue *q, size_t capacity);
/* Inserts sphere s with key time, or changes its key. */
void event_queue_update(event_queue *q, uint32_t s, double time);
void event_queue_remove(event_queue *q, uint32_t s);
/* Empties the queue. */
void event_queue_clear(event_queue *q);
static inline uint32_t event_queue_top(const event_queue *q)
{
    return q->size ? q->heap[0].sphere : EVENT_QUEUE_ABSENT;
}
/* Key of the top entry (only when not empty). */
static inline double event_queue_top_time(const event_queue *q)
{
    return q->heap[0].time;
}
/* Checks the heap property (validation builds and tests). */
int event_queue_is_valid(const event_queue *q);

#endif
