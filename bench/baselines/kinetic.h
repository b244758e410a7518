/* What the kinetic baselines (ksap.c, rolling.c) share: an event heap
 * (earliest first) and a hash map from sphere pairs to the state of their
 * certificates (a version that invalidates queued events, and a count of
 * the axes on which the pair overlaps). Not part of the library. */
#ifndef CAROM_KINETIC_H
#define CAROM_KINETIC_H

#include <stddef.h>
#include <stdint.h>

typedef struct kinetic_event {
    double t;
    uint64_t version; /* valid only while it matches its certificate's */
    int kind, axis;
    uint32_t list; /* which sorted list (rolling.c: a node of the tree) */
    uint32_t a, b; /* a swap: position a; a contact: spheres a < b */
} kinetic_event;

typedef struct kinetic_heap {
    kinetic_event *e;
    size_t count, capacity;
} kinetic_heap;

/* Returns -1 when out of memory (the event is dropped). */
int kinetic_heap_push(kinetic_heap *h, kinetic_event e);
/* The earliest event; the heap must not be empty. */
kinetic_event kinetic_heap_pop(kinetic_heap *h);

typedef struct kinetic_pair {
    uint64_t key; /* i * n + j + 1, i < j; 0: empty slot */
    uint64_t version;
    int count; /* axes on which the pair overlaps */
} kinetic_pair;

typedef struct kinetic_pairs {
    kinetic_pair *slot;
    size_t count, capacity; /* capacity: a power of two */
} kinetic_pairs;

/* The pair's entry, created with version and count 0 if absent; NULL
 * when out of memory. The pointer holds until the next get or remove. */
kinetic_pair *kinetic_pairs_get(kinetic_pairs *m, uint64_t key);
const kinetic_pair *kinetic_pairs_find(const kinetic_pairs *m, uint64_t key);
void kinetic_pairs_remove(kinetic_pairs *m, kinetic_pair *entry);

/* Adds change (+1 or -1) to the pair's count of overlapping axes, where
 * full axes make it a candidate. Leaving full changes the pair's version
 * (its queued contact no longer holds); a count of 0 removes the pair.
 * Returns 1 when the count has just become full (the caller then queues
 * the contact with *version), 0 otherwise, -1 when out of memory. */
int kinetic_pairs_count(kinetic_pairs *m, uint64_t key, int change, int full, uint64_t *version);

/* A value and what it belongs to, sorted by value (ties by id): the
 * entries of a sorted list at the start. */
typedef struct kinetic_keyed {
    double value;
    uint32_t id;
} kinetic_keyed;

void kinetic_sort_keyed(kinetic_keyed *k, size_t n);

#endif
