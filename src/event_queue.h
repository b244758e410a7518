/* The event queue: one entry per sphere, keyed by that sphere's next event
 * time, popped in order of (time, sphere index) exactly, so runs are
 * deterministic. A sphere's key can be changed in place, which is what
 * lets each sphere keep exactly one pending event and makes lazy
 * invalidation cheap (see world_events.c).
 *
 * It is a calendar queue (after Paul, J. Comput. Phys. 221 (2007) 615):
 * a "year" of nb buckets of equal width in time, each an unsorted doubly
 * linked list; events past the year wait in an overflow list, and events
 * that can never happen (infinite time) in a list of their own. Only the
 * current bucket is kept sorted, in a small 4-ary heap of (time, sphere)
 * entries. The bucket of a time is a monotone function of it, so buckets
 * never reorder events, and ties within a bucket are ordered by the heap.
 * When the year is used up, the overflow is spread over a new year that
 * starts at its earliest event, with the bucket width and count re-tuned
 * from the spread of the pending times (a few events per bucket). Insert,
 * change and remove are O(1) but for the small heap; finding the next
 * event is O(1) amortized.
 *
 * The keys are the caller's: event_queue_set_keys says where sphere s's
 * key is (a double at a fixed stride, e.g. in the caller's per-sphere
 * event records), so that the queue keeps no copy to load and store. The
 * caller writes a sphere's new key there and then calls
 * event_queue_update; it changes the key nowhere else while the sphere
 * is queued.
 *
 * Memory order: the bucket heads are one large array touched at random,
 * and so are the other spheres of a bucket's list. An event for a later
 * bucket therefore waits in a small buffer (its bucket head being loaded
 * meanwhile) and is filed when the buffer fills or before the calendar
 * moves on; and moving to a bucket starts loading the next buckets'
 * first entries. None of this changes the order events come out in. */
#ifndef CAROM_EVENT_QUEUE_H
#define CAROM_EVENT_QUEUE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define EVENT_QUEUE_ABSENT UINT32_MAX

typedef struct event_queue_entry {
    double time;
    uint32_t sphere;
    uint32_t unused;
} event_queue_entry;

/* A sphere's place in the queue, in one record: moving a sphere reads and
 * writes its place and its links together (and its list neighbours'
 * links), so they mostly come in one cache line (12 bytes: one record in
 * eight straddles two lines, and no memory is spent on padding). */
typedef struct event_queue_node {
    uint32_t where;      /* ABSENT, a list (bucket, OVERFLOW, NEVER), IN_HEAP | pos
                            or DEFERRED | slot */
    uint32_t next, prev; /* its list links */
} event_queue_node;

#define EVENT_QUEUE_DEFERRED 16

typedef struct event_queue {
    /* per sphere */
    const char *keys;        /* its key: the double at keys + s * key_stride */
    size_t key_stride;
    event_queue_node *node;  /* its place and links */
    size_t capacity;
    /* the year */
    uint32_t *head;          /* nb buckets, then the overflow and never lists */
    size_t nb;               /* buckets per year (0 before the first year) */
    size_t cur;              /* current bucket: everything up to it is in the heap */
    double origin, width, inv_width;
    size_t listed;           /* entries in buckets and overflow */
    /* for the next year, without walking the overflow first */
    double over_earliest;    /* earliest key filed in the overflow this year */
    double spread;           /* mean of key - earliest over the overflow at
                                the last new year; 0: not known */
    /* the current bucket, sorted */
    event_queue_entry *heap; /* children of k: 4k+1 .. 4k+4 */
    size_t hsize;
    size_t size;             /* all entries */
    /* entries for later buckets not filed yet (counted in listed) */
    uint32_t deferred_sphere[EVENT_QUEUE_DEFERRED]; /* NONE: taken out again */
    uint32_t deferred_bucket[EVENT_QUEUE_DEFERRED];
    int deferred;
} event_queue;

int event_queue_init(event_queue *q, size_t capacity);
/* Sphere s's key is the double at first + s * stride bytes (set again
 * whenever the caller's array moves). */
void event_queue_set_keys(event_queue *q, const double *first, size_t stride);
void event_queue_free(event_queue *q);
/* Grows to hold spheres 0..capacity-1. */
int event_queue_reserve(event_queue *q, size_t capacity);
/* Inserts sphere s with key time, or changes its key (the caller has
 * written time as its key). */
void event_queue_update(event_queue *q, uint32_t s, double time);
void event_queue_remove(event_queue *q, uint32_t s);
/* Empties the queue. */
void event_queue_clear(event_queue *q);
/* The sphere with the earliest key (not removed), or ABSENT. */
uint32_t event_queue_top(event_queue *q);
/* Key of the top entry (only after event_queue_top found one). */
static inline double event_queue_top_time(const event_queue *q)
{
    return q->hsize ? q->heap[0].time : (double)INFINITY;
}
/* A guess at the sphere whose event comes after the top one (the earliest
 * of the top's children in the current bucket's heap), or ABSENT: for
 * starting to load its data early. */
static inline uint32_t event_queue_peek_second(const event_queue *q)
{
    size_t n = q->hsize < 5 ? q->hsize : 5;
    if (n < 2) /* the next bucket's first, if it is not empty */
        return q->cur + 1 < q->nb ? q->head[q->cur + 1] : EVENT_QUEUE_ABSENT;
    size_t best = 1;
    for (size_t c = 2; c < n; c++)
        if (q->heap[c].time < q->heap[best].time)
            best = c;
    return q->heap[best].sphere;
}
/* Checks the queue's structure (validation builds and tests). */
int event_queue_is_valid(const event_queue *q);

#endif
