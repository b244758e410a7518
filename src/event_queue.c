/* Indexed 4-ary min-heap with inline keys; contract in event_queue.h. */
#include "event_queue.h"

#include <stdlib.h>
#include <string.h>

#define ARITY 4
/* heap[1] starts a cache line: children groups 4k+1..4k+4 are aligned. */
#define HEAP_OFFSET 3

static inline int earlier(event_queue_entry a, event_queue_entry b)
{
    return a.time < b.time || (a.time == b.time && a.sphere < b.sphere);
}

int event_queue_init(event_queue *q, size_t capacity)
{
    q->heap = NULL;
    q->block = NULL;
    q->slot = NULL;
    q->size = 0;
    q->capacity = 0;
    return event_queue_reserve(q, capacity);
}

void event_queue_free(event_queue *q)
{
    free(q->block);
    free(q->slot);
    q->heap = NULL;
    q->block = NULL;
    q->slot = NULL;
    q->size = q->capacity = 0;
}

int event_queue_reserve(event_queue *q, size_t capacity)
{
    if (capacity <= q->capacity)
        return 0;
    size_t bytes = (capacity + HEAP_OFFSET + 1) * sizeof(event_queue_entry);
    bytes = (bytes + 63) / 64 * 64;
    void *block = aligned_alloc(64, bytes);
    if (!block)
        return -1;
    event_queue_entry *heap = (event_queue_entry *)block + HEAP_OFFSET;
    if (q->size)
        memcpy(heap, q->heap, q->size * sizeof *heap);
    free(q->block);
    q->block = block;
    q->heap = heap;
    uint32_t *slot = realloc(q->slot, capacity * sizeof *slot);
    if (!slot)
        return -1;
    q->slot = slot;
    for (size_t k = q->capacity; k < capacity; k++)
        slot[k] = EVENT_QUEUE_ABSENT;
    q->capacity = capacity;
    return 0;
}

static void sift_up(event_queue *q, size_t pos, event_queue_entry e)
{
    while (pos > 0) {
        size_t parent = (pos - 1) / ARITY;
        event_queue_entry p = q->heap[parent];
        if (!earlier(e, p))
            break;
        q->heap[pos] = p;
        q->slot[p.sphere] = (uint32_t)pos;
        pos = parent;
    }
    q->heap[pos] = e;
    q->slot[e.sphere] = (uint32_t)pos;
}

static void sift_down(event_queue *q, size_t pos, event_queue_entry e)
{
    for (;;) {
        size_t first = ARITY * pos + 1;
        if (first >= q->size)
            break;
        size_t last = first + ARITY < q->size ? first + ARITY : q->size;
        size_t best = first;
        for (size_t c = first + 1; c < last; c++)
            if (earlier(q->heap[c], q->heap[best]))
                best = c;
        event_queue_entry c = q->heap[best];
        if (!earlier(c, e))
            break;
        q->heap[pos] = c;
        q->slot[c.sphere] = (uint32_t)pos;
        pos = best;
    }
    q->heap[pos] = e;
    q->slot[e.sphere] = (uint32_t)pos;
}

void event_queue_update(event_queue *q, uint32_t s, double time)
{
    event_queue_entry e = {time, s, 0};
    uint32_t pos = q->slot[s];
    if (pos == EVENT_QUEUE_ABSENT) {
        sift_up(q, q->size++, e);
        return;
    }
    if (pos > 0 && earlier(e, q->heap[(pos - 1) / ARITY]))
        sift_up(q, pos, e);
    else
        sift_down(q, pos, e);
}

void event_queue_remove(event_queue *q, uint32_t s)
{
    uint32_t pos = q->slot[s];
    if (pos == EVENT_QUEUE_ABSENT)
        return;
    q->slot[s] = EVENT_QUEUE_ABSENT;
    q->size--;
    if (pos == q->size)
        return;
    event_queue_entry last = q->heap[q->size];
    if (pos > 0 && earlier(last, q->heap[(pos - 1) / ARITY]))
        sift_up(q, pos, last);
    else
        sift_down(q, pos, last);
}

void event_queue_clear(event_queue *q)
{
    for (size_t k = 0; k < q->size; k++)
        q->slot[q->heap[k].sphere] = EVENT_QUEUE_ABSENT;
    q->size = 0;
}

int event_queue_is_valid(const event_queue *q)
{
    for (size_t k = 1; k < q->size; k++)
        if (earlier(q->heap[k], q->heap[(k - 1) / ARITY]))
            return 0;
    for (size_t k = 0; k < q->size; k++)
        if (q->slot[q->heap[k].sphere] != k)
            return 0;
    return 1;
}
