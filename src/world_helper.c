/* The loading helper; contract in world_helper.h. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_condattr_setclock */
#include "world_helper.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/* Buckets published ahead of the current one (about two events each):
 * far enough for the loads to arrive, near enough for them to stay in
 * the caches (docs/performance-notes.md, tenth pass). */
#define HELPER_AHEAD 64
#define RING 256            /* published buckets' first spheres (> AHEAD) */
#define CHAIN_MAX 16        /* spheres walked in one bucket at most */
/* CAROM_PREFETCH_AUTO: worlds with neighbour lists or one dense level of
 * cells, of at least this many spheres (smaller ones fit the caches). */
#define HELPER_MIN_SPHERES 50000
/* CAROM_PREFETCH_AUTO: event loops expected to run at least this many
 * events (waking the thread and parking it again costs tens of
 * microseconds). */
#define HELPER_MIN_EVENTS 5000
/* Periods of work, the shortest pause between them, the longest. */
#define WORK_NS 50000000u
#define PAUSE_NS 2000000u
#define PAUSE_MAX_NS 1000000000u
/* The start of a pause not counted in its progress: the loop first runs
 * on the data the helper loaded ahead (about HELPER_AHEAD buckets). */
#define SETTLE_NS 500000u

/* The helper thread's life: created at the first loop that wants it,
 * parked between loops (asleep), ended when the world is freed. */
enum helper_state { HELPER_RUN, HELPER_PARK, HELPER_EXIT };

struct world_helper {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;   /* the state changed (to the helper) */
    pthread_cond_t parked; /* it is parked (to the loop) */
    enum helper_state state; /* under lock */
    int is_parked;           /* under lock */
    /* Written by the loop, read by the helper. */
    _Atomic uint32_t ring[RING];
    _Alignas(64) _Atomic uint64_t written;
    _Atomic int stop; /* leave the current loop: state is no longer RUN */
    /* Set (under lock) before each loop; fixed while it runs. */
    _Alignas(64) const sphere *spheres;
    const sphere_info *info;
    const sphere_event *events;
    const double *event_time;
    const uint32_t *list_entry; /* NULL: cells */
    const uint8_t *list_count;
    const float (*list_centre)[4];
    event_queue_node *queue_node; /* the queue writes them as the bucket comes up */
    const uint32_t *cell_next;
    const grid *cells;       /* the one dense level, or NULL */
    uint32_t capacity;
    /* The helper's own, kept from one loop to the next. */
    uint64_t pause_ns;       /* the pause after a period of work */
    int pausing;             /* in a pause (else at work) */
    uint64_t period_ns;      /* of the current period so far */
    double period_progress;  /* buckets the loop published in it */
    double helped_rate;      /* in the last period of work */
    /* The loop's own. */
    _Alignas(64) size_t next_bucket; /* the first bucket not published */
    size_t year_buckets;
    double year_origin;
};

static inline uint32_t load_u32(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Sphere s's list entries in its own block (a longer list goes on in
 * the shared pool, which may move while the helper runs): sets *e to the
 * first and returns how many. */
static uint32_t own_block(const struct world_helper *h, uint32_t s, const uint32_t **e)
{
    uint32_t n = __atomic_load_n(&h->list_count[s], __ATOMIC_RELAXED);
    *e = &h->list_entry[(size_t)s * LIST_BLOCK];
    return n > LIST_BLOCK ? LIST_BLOCK - 1 : n;
}

/* Loads sphere s's list and the hot records and event times of the
 * spheres on it (the part of the list in s's own block). */
static void touch_list(const struct world_helper *h, uint32_t s)
{
    const uint32_t *e;
    uint32_t n = own_block(h, s, &e);
    for (uint32_t m = 0; m < n; m++) {
        uint32_t j = LIST_PARTNER(load_u32(&e[m]));
        if (j < h->capacity) {
            PREFETCH(&h->spheres[j]);
            PREFETCH(&h->event_time[j]);
        }
    }
}

/* Loads the lists sphere s leaves when it relists (its neighbours'). */
static void touch_old_lists(const struct world_helper *h, uint32_t s)
{
    const uint32_t *e;
    uint32_t n = own_block(h, s, &e);
    for (uint32_t m = 0; m < n; m++) {
        uint32_t j = LIST_PARTNER(load_u32(&e[m]));
        if (j < h->capacity)
            PREFETCH_FOR_WRITE(&h->list_entry[(size_t)j * LIST_BLOCK]);
    }
}

/* The cells around sphere s's: with cells, loads the records of the
 * spheres in them (what its prediction reads); with lists, what remaking
 * its list reads and writes (the cells' chains, the list centres of the
 * spheres in them and their lists, which the new neighbours join). */
static void touch_cells(const struct world_helper *h, uint32_t s)
{
    const grid *g = h->cells;
    int32_t cc[3];
    for (int k = 0; k < 3; k++) {
        cc[k] = __atomic_load_n(&h->info[s].cc[k], __ATOMIC_RELAXED);
        if (cc[k] < 0 || cc[k] >= g->n[k])
            return;
    }
    grid_neighbourhood nb;
    grid_neighbourhood_of(g, cc, &nb);
    for (int c = 0; c < nb.count; c++) {
        uint32_t j = load_u32(&g->head[nb.cell[c]]);
        for (int k = 0; k < 8 && j < h->capacity; k++) {
            if (h->list_entry) {
                PREFETCH(&h->list_centre[j]);
                PREFETCH_FOR_WRITE(&h->list_entry[(size_t)j * LIST_BLOCK]);
            } else {
                PREFETCH(&h->spheres[j]);
            }
            j = load_u32(&h->cell_next[j]);
        }
    }
}

/* Loads what moving sphere s to another bucket reads and writes: its
 * place and links, and its neighbours' links in its bucket's list (the
 * partner of a collision is usually in a later bucket). */
static void touch_queue_links(const struct world_helper *h, uint32_t s)
{
    PREFETCH_FOR_WRITE(&h->queue_node[s]);
    uint32_t prev = load_u32(&h->queue_node[s].prev), next = load_u32(&h->queue_node[s].next);
    if (prev < h->capacity)
        PREFETCH_FOR_WRITE(&h->queue_node[prev]);
    if (next < h->capacity)
        PREFETCH_FOR_WRITE(&h->queue_node[next]);
}

/* Loads what processing sphere s's event will read. */
static void touch_sphere(const struct world_helper *h, uint32_t s)
{
    PREFETCH(&h->spheres[s]);
    PREFETCH(&h->info[s]);
    if (h->list_entry) {
        PREFETCH(&h->list_centre[s]);
        touch_list(h, s);
    }
    const sphere_event *ev = &h->events[s];
    uint32_t kind = load_u32(&ev->kind), partner = load_u32(&ev->partner);
    if (h->cells && (!h->list_entry || kind == EVENT_RELIST))
        touch_cells(h, s);
    if (h->list_entry && kind == EVENT_RELIST)
        touch_old_lists(h, s);
    if (kind == EVENT_COLLISION && partner < h->capacity) {
        PREFETCH(&h->spheres[partner]);
        PREFETCH(&h->info[partner]);
        PREFETCH(&h->events[partner]);
        touch_queue_links(h, partner);
        if (h->list_entry) {
            PREFETCH(&h->list_centre[partner]);
            touch_list(h, partner);
        } else if (h->cells) {
            touch_cells(h, partner);
        }
    }
}

static uint64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int stopped(struct world_helper *h)
{
    return atomic_load_explicit(&h->stop, memory_order_relaxed);
}

/* Sleeps ns, or until stopped; returns nonzero if stopped. */
static int pause_for(struct world_helper *h, uint64_t ns)
{
    uint64_t until = clock_ns() + ns;
    struct timespec ts = {(time_t)(until / 1000000000u), (long)(until % 1000000000u)};
    pthread_mutex_lock(&h->lock);
    while (!stopped(h) && clock_ns() < until)
        if (pthread_cond_timedwait(&h->wake, &h->lock, &ts) != 0)
            break;
    pthread_mutex_unlock(&h->lock);
    return stopped(h);
}

/* Loads ahead of the loop for ns, or until stopped; returns nonzero if
 * stopped. */
static int work_for(struct world_helper *h, uint64_t ns, uint64_t *done)
{
    uint64_t until = clock_ns() + ns;
    for (unsigned round = 0;; round++) {
        if (stopped(h))
            return 1;
        if ((round & 255) == 0 && clock_ns() >= until)
            return 0;
        uint64_t written = atomic_load_explicit(&h->written, memory_order_acquire);
        if (*done == written) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
            continue;
        }
        if (written - *done > HELPER_AHEAD)
            *done = written - HELPER_AHEAD; /* the loop has passed those */
        uint32_t s = atomic_load_explicit(&h->ring[*done % RING], memory_order_relaxed);
        (*done)++;
        for (int k = 0; k < CHAIN_MAX && s < h->capacity; k++) {
            touch_sphere(h, s);
            PREFETCH_FOR_WRITE(&h->queue_node[s]);
            PREFETCH(&h->event_time[s]); /* its key, read as its bucket is sorted */
            s = load_u32(&h->queue_node[s].next);
        }
    }
}

/* Helps one event loop, until it stops. Its periods of work and pause go
 * on across loops (a loop may be shorter than a period: a frame, or a
 * piece of a run showing progress), counting only time within loops. */
static void help_loop(struct world_helper *h)
{
    uint64_t done = 0;
    for (;;) {
        uint64_t period = h->pausing ? h->pause_ns : WORK_NS;
        uint64_t left = period > h->period_ns ? period - h->period_ns : 0;
        if (h->pausing && h->period_ns == 0 && pause_for(h, SETTLE_NS))
            return; /* the loop still runs on what was loaded: not counted */
        uint64_t t0 = clock_ns(), mark = atomic_load(&h->written);
        int stop = h->pausing ? pause_for(h, left) : work_for(h, left, &done);
        h->period_ns += clock_ns() - t0;
        h->period_progress += (double)(atomic_load(&h->written) - mark);
        if (stop)
            return;
        double rate = h->period_ns > 0 ? h->period_progress / (double)h->period_ns : 0.0;
        if (!h->pausing) {
            h->helped_rate = rate;
        } else {
            int paying = h->helped_rate >= rate;
            h->pause_ns = paying ? PAUSE_NS
                                 : (h->pause_ns * 2 < PAUSE_MAX_NS ? h->pause_ns * 2 : PAUSE_MAX_NS);
        }
        h->pausing = !h->pausing;
        h->period_ns = 0;
        h->period_progress = 0.0;
    }
}

static void *helper_main(void *arg)
{
    struct world_helper *h = arg;
    pthread_mutex_lock(&h->lock);
    for (;;) {
        h->is_parked = 1;
        pthread_cond_signal(&h->parked);
        while (h->state == HELPER_PARK)
            pthread_cond_wait(&h->wake, &h->lock);
        if (h->state == HELPER_EXIT)
            break;
        h->is_parked = 0;
        pthread_mutex_unlock(&h->lock);
        help_loop(h);
        pthread_mutex_lock(&h->lock);
    }
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

/* The world's one dense level of cells (the lists' grid too), or NULL. */
static const grid *dense_cells(const carom_world *w)
{
    return w->levels.simple && w->levels.level[0].head ? &w->levels.level[0] : NULL;
}

/* A loop up to t_end, of at most max_events events, is long: by the
 * world's event rate so far (unknown: long). */
static int long_loop(const carom_world *w, double t_end, uint64_t max_events)
{
    if (max_events < HELPER_MIN_EVENTS)
        return 0;
    double elapsed = w->time - w->stats.start_time;
    if (!(t_end < INFINITY) || !(elapsed > 0.0) || w->stats.events == 0)
        return 1;
    return (t_end - w->time) * ((double)w->stats.events / elapsed) >= HELPER_MIN_EVENTS;
}

static int wanted(const carom_world *w, double t_end, uint64_t max_events)
{
    switch (w->def.prefetch) {
    case CAROM_PREFETCH_ON:
        return 1;
    case CAROM_PREFETCH_OFF:
        return 0;
    default:
        return (w->list_skin > 0.0 || dense_cells(w)) &&
               w->alive_count >= HELPER_MIN_SPHERES && long_loop(w, t_end, max_events) &&
               world_may_use_two_cpus();
    }
}

/* The helper's record and its thread, parked; NULL if either cannot be
 * made (the loop then runs alone). */
static struct world_helper *make_helper(void)
{
    struct world_helper *h = aligned_alloc(64, (sizeof *h + 63) / 64 * 64);
    if (!h)
        return NULL;
    pthread_condattr_t attr;
    int ok = pthread_condattr_init(&attr) == 0;
    ok = ok && pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0;
    ok = ok && pthread_cond_init(&h->wake, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!ok) {
        free(h);
        return NULL;
    }
    if (pthread_cond_init(&h->parked, NULL) != 0 || pthread_mutex_init(&h->lock, NULL) != 0) {
        pthread_cond_destroy(&h->wake);
        free(h);
        return NULL;
    }
    h->state = HELPER_PARK;
    h->is_parked = 0;
    h->pause_ns = PAUSE_NS;
    h->pausing = 0;
    h->period_ns = 0;
    h->period_progress = 0.0;
    h->helped_rate = 0.0;
    atomic_store(&h->stop, 1);
    atomic_store(&h->written, 0);
    if (pthread_create(&h->thread, NULL, helper_main, h) != 0) {
        pthread_cond_destroy(&h->wake);
        pthread_cond_destroy(&h->parked);
        pthread_mutex_destroy(&h->lock);
        free(h);
        return NULL;
    }
    return h;
}

void world_helper_start(carom_world *w, double t_end, uint64_t max_events)
{
    if (w->helper_running || !w->built || w->helper_failed || !wanted(w, t_end, max_events))
        return;
    if (!w->helper) {
        w->helper = make_helper();
        if (!w->helper) {
            w->helper_failed = 1; /* it only helps: go on without */
            return;
        }
    }
    struct world_helper *h = w->helper;
    pthread_mutex_lock(&h->lock);
    h->spheres = w->spheres;
    h->info = w->info;
    h->events = w->events;
    h->event_time = w->event_time;
    h->list_entry = w->list_skin > 0.0 ? w->list_entry : NULL;
    h->list_count = w->list_count;
    h->list_centre = (const float(*)[4])w->list_centre;
    h->queue_node = w->queue.node;
    h->cell_next = w->cell_next;
    h->cells = dense_cells(w);
    h->capacity = (uint32_t)w->capacity;
    h->next_bucket = w->queue.cur + 1;
    h->year_buckets = w->queue.nb;
    h->year_origin = w->queue.origin;
    atomic_store(&h->written, 0);
    atomic_store(&h->stop, 0);
    h->state = HELPER_RUN;
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
    w->helper_running = 1;
    w->stats.prefetch_advances++;
}

/* Moves the helper to state and, unless it ends, waits until it is
 * parked (reading nothing of the world). */
static void leave_loop(struct world_helper *h, enum helper_state state)
{
    pthread_mutex_lock(&h->lock);
    atomic_store(&h->stop, 1);
    h->state = state;
    pthread_cond_signal(&h->wake);
    while (state == HELPER_PARK && !h->is_parked)
        pthread_cond_wait(&h->parked, &h->lock);
    pthread_mutex_unlock(&h->lock);
}

void world_helper_stop(carom_world *w)
{
    if (!w->helper_running)
        return;
    leave_loop(w->helper, HELPER_PARK);
    w->helper_running = 0;
}

void world_helper_free(carom_world *w)
{
    struct world_helper *h = w->helper;
    if (!h)
        return;
    leave_loop(h, HELPER_EXIT);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->wake);
    pthread_cond_destroy(&h->parked);
    pthread_mutex_destroy(&h->lock);
    free(h);
    w->helper = NULL;
    w->helper_running = 0;
}

void world_helper_publish(carom_world *w)
{
    struct world_helper *h = w->helper;
    const event_queue *q = &w->queue;
    if (q->nb == 0)
        return;
    if (q->nb != h->year_buckets || q->origin != h->year_origin) { /* a new year */
        h->year_buckets = q->nb;
        h->year_origin = q->origin;
        h->next_bucket = q->cur + 1;
    }
    if (h->next_bucket <= q->cur)
        h->next_bucket = q->cur + 1;
    size_t last = q->cur + HELPER_AHEAD < q->nb ? q->cur + HELPER_AHEAD : q->nb - 1;
    if (h->next_bucket > last)
        return;
    uint64_t written = atomic_load_explicit(&h->written, memory_order_relaxed);
    for (; h->next_bucket <= last; h->next_bucket++) {
        uint32_t s = q->head[h->next_bucket];
        if (s == EVENT_QUEUE_ABSENT)
            continue;
        atomic_store_explicit(&h->ring[written % RING], s, memory_order_relaxed);
        written++;
    }
    atomic_store_explicit(&h->written, written, memory_order_release);
}
