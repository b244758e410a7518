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

#endif
