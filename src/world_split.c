/* A build's work in two parts, on two threads when the world may use
 * them.
 *
 * Contract. world_split_run(w, work, ctx) calls work for part 0 on the
 * spheres [0, mid) and for part 1 on [mid, count), mid = count / 2: on
 * two threads (part 1 on a thread of its own, part 0 on the caller's)
 * when the world's prefetch setting allows a second thread (ON, or AUTO
 * for worlds of at least SPLIT_MIN_SPHERES alive spheres when the process
 * may use two CPUs), else one after the other on the caller's thread (and
 * so if the thread cannot be made). The parts are the same either way,
 * so a work that writes only what its part owns, and reads nothing the
 * other part writes, gives the same results to the last bit on one
 * thread or two. It returns when both parts are done. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "world_internal.h"

/* AUTO: smaller worlds build in a few milliseconds, less than a thread
 * costs to be worth it (and the loading helper's own threshold). */
#define SPLIT_MIN_SPHERES 50000

int world_may_use_two_cpus(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set) >= 2;
#endif
    return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

static int two_threads(const carom_world *w)
{
    carom_prefetch setting = w->def.prefetch;
    return setting == CAROM_PREFETCH_ON ||
           (setting == CAROM_PREFETCH_AUTO && w->alive_count >= SPLIT_MIN_SPHERES &&
            world_may_use_two_cpus());
}

typedef struct split_part {
    carom_world *w;
    world_split_work work;
    void *ctx;
    uint32_t from, to;
} split_part;

static void *run_second_part(void *arg)
{
    const split_part *p = arg;
    p->work(p->w, p->ctx, 1, p->from, p->to);
    return NULL;
}

void world_split_run(carom_world *w, world_split_work work, void *ctx)
{
    uint32_t mid = w->count / 2;
    split_part second = {w, work, ctx, mid, w->count};
    pthread_t thread;
    int threaded = two_threads(w) && pthread_create(&thread, NULL, run_second_part, &second) == 0;
    work(w, ctx, 0, 0, mid);
    if (threaded)
        pthread_join(thread, NULL);
    else
        run_second_part(&second);
}
