/* Indexed binary min-heap; contract in event_queue.h. */
#include "event_queue.h"

#include <stdlib.h>

static inline int earlier(const event_queue *q, uint32_t a, uint32_t b)
{
    double ta = q->time[a], tb = q->time[b];
    return ta < tb || (ta == tb && a < b);
}

int event_queue_init(event_queue *q, size_t capacity)
{
    q->heap = NULL;
    q->slot = NULL;
    q->time = NULL;
    q->size = 0;
    q->capacity = 0;
    return event_queue_reserve(q, capacity, NULL);
}

void event_queue_free(event_queue *q)
{
    free(q->heap);
    free(q->slot);
    q->heap = q->slot = NULL;
    q->size = q->capacity = 0;
}

int event_queue_reserve(event_queue *q, size_t capacity, const double *time)
{
    q->time = time;
    if (capacity <= q->capacity)
        return 0;
    uint32_t *heap = realloc(q->heap, capacity * sizeof *heap);
    if (!heap)
        return -1;
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

static void sift_up(event_queue *q, size_t pos)
{
    uint32_t s = q->heap[pos];
    while (pos > 0) {
        size_t parent = (pos - 1) / 2;
        uint32_t p = q->heap[parent];
        if (!earlier(q, s, p))
            break;
        q->heap[pos] = p;
        q->slot[p] = (uint32_t)pos;
        pos = parent;
    }
    q->heap[pos] = s;
    q->slot[s] = (uint32_t)pos;
}

static void sift_down(event_queue *q, size_t pos)
{
    uint32_t s = q->heap[pos];
    for (;;) {
        size_t child = 2 * pos + 1;
        if (child >= q->size)
            break;
        if (child + 1 < q->size && earlier(q, q->heap[child + 1], q->heap[child]))
            child++;
        uint32_t c = q->heap[child];
        if (!earlier(q, c, s))
            break;
        q->heap[pos] = c;
        q->slot[c] = (uint32_t)pos;
        pos = child;
    }
    q->heap[pos] = s;
    q->slot[s] = (uint32_t)pos;
}

void event_queue_update(event_queue *q, uint32_t s)
{
    uint32_t pos = q->slot[s];
    if (pos == EVENT_QUEUE_ABSENT) {
        pos = (uint32_t)q->size++;
        q->heap[pos] = s;
        q->slot[s] = pos;
        sift_up(q, pos);
        return;
    }
    if (pos > 0 && earlier(q, s, q->heap[(pos - 1) / 2]))
        sift_up(q, pos);
    else
        sift_down(q, pos);
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
    uint32_t last = q->heap[q->size];
    q->heap[pos] = last;
    q->slot[last] = pos;
    event_queue_update(q, last);
}

int event_queue_is_valid(const event_queue *q)
{
    for (size_t k = 1; k < q->size; k++)
        if (earlier(q, q->heap[k], q->heap[(k - 1) / 2]))
            return 0;
    for (size_t k = 0; k < q->size; k++)
        if (q->slot[q->heap[k]] != k)
            return 0;
    return 1;
}
