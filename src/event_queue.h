/* The event queue: an indexed binary min-heap holding one entry per sphere,
 * keyed by that sphere's next event time (ties broken by sphere index, so
 * runs are deterministic). A sphere's key can be changed in place, which
 * is what lets each sphere keep exactly one pending event and makes lazy
 * invalidation cheap (see world_events.c). All operations O(log N). */
#ifndef CAROM_EVENT_QUEUE_H
#define CAROM_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#define EVENT_QUEUE_ABSENT UINT32_MAX

typedef struct event_queue {
    uint32_t *heap;     /* sphere indices in heap order */
    uint32_t *slot;     /* slot[sphere] = position in heap, or ABSENT */
    const double *time; /* time[sphere]: the key, owned by the caller */
    size_t size;
    size_t capacity;
} event_queue;

int event_queue_init(event_queue *q, size_t capacity);
void event_queue_free(event_queue *q);
/* Grows to hold spheres 0..capacity-1; time may have moved (realloc). */
int event_queue_reserve(event_queue *q, size_t capacity, const double *time);
/* Inserts sphere s, or restores heap order after time[s] changed. */
void event_queue_update(event_queue *q, uint32_t s);
void event_queue_remove(event_queue *q, uint32_t s);
static inline uint32_t event_queue_top(const event_queue *q)
{
    return q->size ? q->heap[0] : EVENT_QUEUE_ABSENT;
}
/* Checks the heap property (validation builds and tests). */
int event_queue_is_valid(const event_queue *q);

#endif
