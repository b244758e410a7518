/* The event queue (src/event_queue.c) against a plain array searched in
 * full: after every operation of a long random sequence, used the way the
 * world uses it (pop the earliest, give it a new key no earlier than its
 * time, change and remove other spheres' keys, never keys, many exact
 * ties, bursts of keys far ahead that pass the year), the top sphere and
 * its key are the reference's earliest by (time, sphere), and the
 * structure checks out (event_queue_is_valid). Fails if a deferred entry
 * is lost or filed in the wrong bucket, or a tie comes out of order. Run
 * with room for just the spheres (a new year then files the overflow in
 * memory order) and with room for many more (along its list). */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "event_queue.h"
#include "rng.h"

#define SPHERES 3000

/* The earliest finite key by (time, sphere), or ABSENT. */
static uint32_t reference_top(const double *key, const int *present)
{
    uint32_t best = EVENT_QUEUE_ABSENT;
    for (uint32_t s = 0; s < SPHERES; s++) {
        if (!present[s] || key[s] == INFINITY)
            continue;
        if (best == EVENT_QUEUE_ABSENT || key[s] < key[best])
            best = s;
    }
    return best;
}

/* A key from now on: mostly near, some on a grid of exact ties, some far
 * ahead (past the year: overflow), a few never. */
static double next_key(rng *r, double now)
{
    double u = rng_uniform(r);
    if (u < 0.02)
        return INFINITY;
    if (u < 0.2)
        return ceil(now * 8.0) / 8.0 + 0.125 * floor(rng_uniform(r) * 4.0);
    if (u < 0.25)
        return now + 50.0 * rng_uniform(r);
    if (u < 0.3)
        return now; /* happens at once */
    return now - 0.3 * log(1.0 - rng_uniform(r));
}

static void test_queue_against_reference(uint64_t seed, int operations, size_t room)
{
    event_queue q;
    CHECK(event_queue_init(&q, 16) == 0);
    CHECK(event_queue_reserve(&q, room) == 0);
    static double key[SPHERES];
    static int present[SPHERES];
    event_queue_set_keys(&q, key, sizeof key[0]);
    rng r;
    rng_seed(&r, seed);
    double now = 0.0;
    for (uint32_t s = 0; s < SPHERES; s++) {
        key[s] = next_key(&r, now);
        present[s] = 1;
        event_queue_update(&q, s, key[s]);
    }
    int wrong = 0, invalid = 0, popped = 0;
    for (int op = 0; op < operations && !wrong && !invalid; op++) {
        double u = rng_uniform(&r);
        uint32_t s = (uint32_t)(rng_uniform(&r) * SPHERES);
        if (u < 0.5) {
            /* Pop: the earliest gets a new key (the world's event). */
            uint32_t top = event_queue_top(&q);
            uint32_t want = reference_top(key, present);
            if (top != want || (want != EVENT_QUEUE_ABSENT && event_queue_top_time(&q) != key[want]))
                wrong++;
            if (want == EVENT_QUEUE_ABSENT)
                break;
            now = key[want];
            key[want] = next_key(&r, now);
            event_queue_update(&q, want, key[want]);
            popped++;
        } else if (u < 0.9) {
            /* Another sphere's key changes (a partner told, a stale event). */
            if (!present[s])
                continue;
            key[s] = next_key(&r, now);
            event_queue_update(&q, s, key[s]);
        } else if (u < 0.95) {
            present[s] = 0;
            event_queue_remove(&q, s);
        } else {
            if (present[s])
                continue;
            present[s] = 1;
            key[s] = next_key(&r, now);
            event_queue_update(&q, s, key[s]);
        }
        if (!event_queue_is_valid(&q))
            invalid++;
    }
    printf("seed %llu, room %zu: %d pops up to t = %.2f\n", (unsigned long long)seed, room, popped,
           now);
    CHECK(wrong == 0);
    CHECK(invalid == 0);
    CHECK(popped > operations / 4);
    event_queue_free(&q);
}

int main(void)
{
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        test_queue_against_reference(seed, quick ? 20000 : 50000, SPHERES);
        test_queue_against_reference(seed, quick ? 10000 : 25000, 16 * SPHERES);
    }
    return CHECK_REPORT();
}
