/* Calendar queue with a sorted current bucket; contract in event_queue.h. */
#include "event_queue.h"

#include <stdlib.h>

/* A hint to start loading what will be read soon (no effect on results). */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

#define ARITY 4
#define IN_HEAP 0x80000000u
#define DEFERRED 0x40000000u /* list numbers (at most 2^29 buckets + 2) stay below */
#define NONE UINT32_MAX
/* Pending events per bucket the year is sized for, and how many mean
 * spreads of the pending times a year spans. */
#define PER_BUCKET 2.0
#define YEAR_SPREADS 8.0
#define MIN_BUCKETS 64

/* Where the caller keeps sphere s's key, and the key. */
static inline const double *key_address(const event_queue *q, uint32_t s)
{
    return (const double *)(q->keys + (size_t)s * q->key_stride);
}

static inline double key_of(const event_queue *q, uint32_t s)
{
    return *key_address(q, s);
}

static inline int earlier(event_queue_entry a, event_queue_entry b)
{
    return a.time < b.time || (a.time == b.time && a.sphere < b.sphere);
}

/* List numbers after the buckets. */
static inline uint32_t overflow_list(const event_queue *q) { return (uint32_t)q->nb; }
static inline uint32_t never_list(const event_queue *q) { return (uint32_t)q->nb + 1; }

int event_queue_init(event_queue *q, size_t capacity)
{
    q->keys = NULL;
    q->key_stride = sizeof(double);
    q->node = NULL;
    q->capacity = 0;
    q->nb = 0;
    q->head = malloc(2 * sizeof *q->head);
    if (!q->head)
        return -1;
    q->head[0] = q->head[1] = NONE;
    q->cur = 0;
    q->origin = 0.0;
    q->width = q->inv_width = 1.0;
    q->listed = 0;
    q->over_earliest = INFINITY;
    q->spread = 0.0;
    q->heap = NULL;
    q->hsize = q->size = 0;
    q->deferred = 0;
    return event_queue_reserve(q, capacity);
}

void event_queue_set_keys(event_queue *q, const double *first, size_t stride)
{
    q->keys = (const char *)first;
    q->key_stride = stride;
}

void event_queue_free(event_queue *q)
{
    free(q->node);
    free(q->head);
    free(q->heap);
    q->keys = NULL;
    q->head = NULL;
    q->node = NULL;
    q->heap = NULL;
    q->capacity = q->size = q->hsize = q->listed = q->nb = 0;
}

static int grow(void **p, size_t bytes)
{
    void *n = realloc(*p, bytes);
    if (!n)
        return -1;
    *p = n;
    return 0;
}

int event_queue_reserve(event_queue *q, size_t capacity)
{
    if (capacity <= q->capacity)
        return 0;
    if (grow((void **)&q->node, capacity * sizeof *q->node) ||
        grow((void **)&q->heap, capacity * sizeof *q->heap))
        return -1;
    for (size_t k = q->capacity; k < capacity; k++)
        q->node[k].where = EVENT_QUEUE_ABSENT;
    q->capacity = capacity;
    return 0;
}

/* ---- the current bucket's heap ---- */

static void sift_up(event_queue *q, size_t pos, event_queue_entry e)
{
    while (pos > 0) {
        size_t parent = (pos - 1) / ARITY;
        event_queue_entry p = q->heap[parent];
        if (!earlier(e, p))
            break;
        q->heap[pos] = p;
        q->node[p.sphere].where = IN_HEAP | (uint32_t)pos;
        pos = parent;
    }
    q->heap[pos] = e;
    q->node[e.sphere].where = IN_HEAP | (uint32_t)pos;
}

static void sift_down(event_queue *q, size_t pos, event_queue_entry e)
{
    for (;;) {
        size_t first = ARITY * pos + 1;
        if (first >= q->hsize)
            break;
        size_t last = first + ARITY < q->hsize ? first + ARITY : q->hsize;
        size_t best = first;
        for (size_t c = first + 1; c < last; c++)
            if (earlier(q->heap[c], q->heap[best]))
                best = c;
        event_queue_entry c = q->heap[best];
        if (!earlier(c, e))
            break;
        q->heap[pos] = c;
        q->node[c.sphere].where = IN_HEAP | (uint32_t)pos;
        pos = best;
    }
    q->heap[pos] = e;
    q->node[e.sphere].where = IN_HEAP | (uint32_t)pos;
}

static void heap_remove(event_queue *q, size_t pos)
{
    q->hsize--;
    if (pos == q->hsize)
        return;
    event_queue_entry last = q->heap[q->hsize];
    if (pos > 0 && earlier(last, q->heap[(pos - 1) / ARITY]))
        sift_up(q, pos, last);
    else
        sift_down(q, pos, last);
}

/* ---- lists ---- */

static void list_push(event_queue *q, uint32_t list, uint32_t s)
{
    uint32_t h = q->head[list];
    q->node[s].prev = NONE;
    q->node[s].next = h;
    if (h != NONE)
        q->node[h].prev = s;
    q->head[list] = s;
    q->node[s].where = list;
}

static void list_unlink(event_queue *q, uint32_t s)
{
    uint32_t p = q->node[s].prev, n = q->node[s].next;
    if (p != NONE)
        q->node[p].next = n;
    else
        q->head[q->node[s].where] = n;
    if (n != NONE)
        q->node[n].prev = p;
}

/* Files the deferred entries in their buckets. */
static void file_deferred(event_queue *q)
{
    for (int k = 0; k < q->deferred; k++)
        if (q->deferred_sphere[k] != NONE)
            list_push(q, q->deferred_bucket[k], q->deferred_sphere[k]);
    q->deferred = 0;
}

/* Sphere s goes into bucket b (after the current one) soon: the bucket's
 * head starts loading now. */
static void defer(event_queue *q, uint32_t s, size_t b)
{
    if (q->deferred == EVENT_QUEUE_DEFERRED)
        file_deferred(q);
    int k = q->deferred++;
    q->deferred_sphere[k] = s;
    q->deferred_bucket[k] = (uint32_t)b;
    q->node[s].where = DEFERRED | (uint32_t)k;
    PREFETCH(&q->head[b]);
}

/* Files sphere s where its key belongs. */
static void place(event_queue *q, uint32_t s)
{
    double t = key_of(q, s);
    if (t == INFINITY) {
        list_push(q, never_list(q), s);
        return;
    }
    double f = (t - q->origin) * q->inv_width; /* monotone in t */
    if (q->nb == 0 || !(f < (double)q->nb)) {
        if (t < q->over_earliest)
            q->over_earliest = t;
        list_push(q, overflow_list(q), s);
        q->listed++;
        return;
    }
    size_t b = f > 0.0 ? (size_t)f : 0;
    if (b <= q->cur) {
        sift_up(q, q->hsize++, (event_queue_entry){t, s, 0});
        return;
    }
    defer(q, s, b);
    q->listed++;
}

static void take_out(event_queue *q, uint32_t s)
{
    uint32_t w = q->node[s].where;
    if (w & IN_HEAP) {
        heap_remove(q, w & ~IN_HEAP);
    } else if (w & DEFERRED) {
        q->deferred_sphere[w & ~DEFERRED] = NONE;
        q->listed--;
    } else {
        list_unlink(q, s);
        if (w != never_list(q))
            q->listed--;
    }
}

void event_queue_update(event_queue *q, uint32_t s, double time)
{
    uint32_t w = q->node[s].where;
    if (w == EVENT_QUEUE_ABSENT)
        q->size++;
    else if ((w & IN_HEAP) && time != INFINITY &&
             (time - q->origin) * q->inv_width < (double)q->cur + 1.0) {
        /* Stays in the current bucket: re-sift in place. */
        size_t pos = w & ~IN_HEAP;
        event_queue_entry e = {time, s, 0};
        if (pos > 0 && earlier(e, q->heap[(pos - 1) / ARITY]))
            sift_up(q, pos, e);
        else
            sift_down(q, pos, e);
        return;
    } else
        take_out(q, s);
    place(q, s);
}

void event_queue_remove(event_queue *q, uint32_t s)
{
    if (q->node[s].where == EVENT_QUEUE_ABSENT)
        return;
    take_out(q, s);
    q->node[s].where = EVENT_QUEUE_ABSENT;
    q->size--;
}

void event_queue_clear(event_queue *q)
{
    q->deferred = 0;
    for (size_t k = 0; k < q->capacity; k++)
        q->node[k].where = EVENT_QUEUE_ABSENT;
    for (size_t b = 0; b < q->nb + 2; b++)
        q->head[b] = NONE;
    q->hsize = q->size = q->listed = 0;
    q->over_earliest = INFINITY;
    q->spread = 0.0;
}

/* The mean of key - lo over a list. */
static double spread_of(const event_queue *q, uint32_t list, double lo)
{
    double sum = 0.0;
    size_t n = 0;
    for (uint32_t s = list; s != NONE; s = q->node[s].next, n++)
        sum += key_of(q, s) - lo;
    return n ? sum / (double)n : 0.0;
}

/* Files the last year's overflow (list, count entries, each still marked
 * as in list number tag) in the new year; returns the mean of key - lo
 * over it. When it holds a good share of all places, they are gone
 * through in memory order rather than along the list's links (a chain of
 * loads from all over memory); the order of filing does not change the
 * order events come out in. */
static double place_overflow(event_queue *q, uint32_t list, uint32_t tag, size_t count, double lo)
{
    double sum = 0.0;
    if (count >= q->capacity / 8) {
        for (size_t k = 0; k < q->capacity; k++) {
            uint32_t s = (uint32_t)k; /* a place filed already is not marked tag */
            if (q->node[s].where == tag) {
                sum += key_of(q, s) - lo;
                place(q, s);
            }
        }
    } else {
        for (uint32_t s = list, next; s != NONE; s = next) {
            next = q->node[s].next;
            sum += key_of(q, s) - lo;
            place(q, s);
        }
    }
    return count ? sum / (double)count : 0.0;
}

/* A new year starting at the overflow's earliest event (or earlier: the
 * earliest ever filed there this year), sized from the spread of the
 * pending times: that of the overflow when the last year began, measured
 * as it was placed (walking the overflow's list, once more only at the
 * first year). Every bucket is empty when this runs, so every listed
 * entry is in the overflow. */
static void new_year(event_queue *q)
{
    file_deferred(q);
    uint32_t list = q->head[overflow_list(q)];
    uint32_t never = q->head[never_list(q)];
    uint32_t tag = overflow_list(q); /* before the year's size changes */
    size_t count = q->listed;
    double lo = q->over_earliest;
    double spread = q->spread > 0.0 ? q->spread : spread_of(q, list, lo);
    q->over_earliest = INFINITY;
    size_t nb = MIN_BUCKETS;
    while ((double)nb < (double)q->size / PER_BUCKET * YEAR_SPREADS && nb < ((size_t)1 << 29))
        nb *= 2;
    if (nb != q->nb) {
        uint32_t *head = realloc(q->head, (nb + 2) * sizeof *head);
        if (head) {
            q->head = head;
            q->nb = nb;
        }
    }
    for (size_t b = 0; b < q->nb + 2; b++)
        q->head[b] = NONE;
    q->head[never_list(q)] = never;
    for (uint32_t s = never; s != NONE; s = q->node[s].next)
        q->node[s].where = never_list(q);
    double width = YEAR_SPREADS * spread / (double)q->nb;
    if (width > 0.0 && isfinite(width) && isfinite(1.0 / width)) {
        q->width = width;
        q->inv_width = 1.0 / width;
    }
    q->origin = lo;
    q->cur = 0;
    q->listed = 0;
    double measured = place_overflow(q, list, tag, count, lo);
    if (count)
        q->spread = measured;
}

/* Moves to the next bucket (or year) and sorts its events into the heap. */
static void advance(event_queue *q)
{
    file_deferred(q);
    q->cur++;
    if (q->cur >= q->nb) {
        new_year(q);
        return;
    }
    uint32_t s = q->head[q->cur];
    q->head[q->cur] = NONE;
    for (uint32_t next; s != NONE; s = next) {
        next = q->node[s].next;
        q->listed--;
        sift_up(q, q->hsize++, (event_queue_entry){key_of(q, s), s, 0});
    }
    /* The next buckets' lists: the second entry of the next one (its
     * first was loaded at the last move), the first of the one after. */
    if (q->cur + 2 < q->nb) {
        uint32_t a = q->head[q->cur + 1], b = q->head[q->cur + 2];
        if (a != NONE && q->node[a].next != NONE) {
            PREFETCH(key_address(q, q->node[a].next));
            PREFETCH(&q->node[q->node[a].next]);
        }
        if (b != NONE) {
            PREFETCH(key_address(q, b));
            PREFETCH(&q->node[b]);
        }
    }
}

uint32_t event_queue_top(event_queue *q)
{
    while (q->hsize == 0 && q->listed > 0)
        advance(q);
    if (q->hsize)
        return q->heap[0].sphere;
    return q->head[never_list(q)]; /* NONE == ABSENT when empty */
}

int event_queue_is_valid(const event_queue *q)
{
    for (int k = 0; k < q->deferred; k++) {
        uint32_t s = q->deferred_sphere[k];
        if (s != NONE && (q->node[s].where != (DEFERRED | (uint32_t)k) ||
                          q->deferred_bucket[k] <= q->cur || q->deferred_bucket[k] >= q->nb))
            return 0;
    }
    for (size_t k = 1; k < q->hsize; k++)
        if (earlier(q->heap[k], q->heap[(k - 1) / ARITY]))
            return 0;
    for (size_t k = 0; k < q->hsize; k++)
        if (q->node[q->heap[k].sphere].where != (IN_HEAP | (uint32_t)k) ||
            key_of(q, q->heap[k].sphere) != q->heap[k].time)
            return 0;
    size_t listed = 0;
    for (size_t b = 0; b < q->nb + 2; b++)
        for (uint32_t s = q->head[b]; s != NONE; s = q->node[s].next) {
            if (q->node[s].where != b)
                return 0;
            if (b < q->nb + 1)
                listed++;
            if (b < q->nb && b <= q->cur)
                return 0; /* buckets up to the current one are in the heap */
            if (b < q->nb && q->hsize && !(key_of(q, s) > q->heap[0].time))
                return 0;
            if (b == overflow_list(q) && !(key_of(q, s) >= q->over_earliest))
                return 0; /* the next year would start too late */
        }
    for (int k = 0; k < q->deferred; k++)
        if (q->deferred_sphere[k] != NONE)
            listed++;
    return listed == q->listed;
}
