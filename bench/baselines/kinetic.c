/* Event heap and pair map of the kinetic baselines (contract in
 * kinetic.h): a binary heap, and open addressing with linear probing
 * whose removal shifts back the entries that probed past the hole. */
#include "kinetic.h"

#include <stdlib.h>

static int earlier(const kinetic_event *x, const kinetic_event *y)
{
    return x->t < y->t;
}

int kinetic_heap_push(kinetic_heap *h, kinetic_event e)
{
    if (h->count == h->capacity) {
        size_t capacity = h->capacity ? 2 * h->capacity : 1024;
        kinetic_event *grown = realloc(h->e, capacity * sizeof *grown);
        if (!grown)
            return -1;
        h->e = grown;
        h->capacity = capacity;
    }
    size_t i = h->count++;
    while (i > 0 && earlier(&e, &h->e[(i - 1) / 2])) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = e;
    return 0;
}

kinetic_event kinetic_heap_pop(kinetic_heap *h)
{
    kinetic_event top = h->e[0], last = h->e[--h->count];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->count)
            break;
        if (c + 1 < h->count && earlier(&h->e[c + 1], &h->e[c]))
            c++;
        if (!earlier(&h->e[c], &last))
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->count > 0)
        h->e[i] = last;
    return top;
}

static size_t slot_of(const kinetic_pairs *m, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (m->capacity - 1);
}

static int grow(kinetic_pairs *m)
{
    size_t capacity = m->capacity ? 2 * m->capacity : 1024;
    kinetic_pair *slot = calloc(capacity, sizeof *slot), *old = m->slot;
    if (!slot)
        return -1;
    size_t old_capacity = m->capacity;
    m->slot = slot;
    m->capacity = capacity;
    for (size_t s = 0; s < old_capacity; s++) {
        if (!old[s].key)
            continue;
        size_t at = slot_of(m, old[s].key);
        while (slot[at].key)
            at = (at + 1) & (capacity - 1);
        slot[at] = old[s];
    }
    free(old);
    return 0;
}

kinetic_pair *kinetic_pairs_get(kinetic_pairs *m, uint64_t key)
{
    if (2 * (m->count + 1) > m->capacity && grow(m) != 0)
        return NULL;
    size_t at = slot_of(m, key);
    while (m->slot[at].key && m->slot[at].key != key)
        at = (at + 1) & (m->capacity - 1);
    if (!m->slot[at].key) {
        m->slot[at] = (kinetic_pair){key, 0, 0};
        m->count++;
    }
    return &m->slot[at];
}

const kinetic_pair *kinetic_pairs_find(const kinetic_pairs *m, uint64_t key)
{
    if (!m->capacity)
        return NULL;
    size_t at = slot_of(m, key);
    while (m->slot[at].key) {
        if (m->slot[at].key == key)
            return &m->slot[at];
        at = (at + 1) & (m->capacity - 1);
    }
    return NULL;
}

void kinetic_pairs_remove(kinetic_pairs *m, kinetic_pair *entry)
{
    size_t hole = (size_t)(entry - m->slot), at = hole;
    for (;;) {
        at = (at + 1) & (m->capacity - 1);
        if (!m->slot[at].key)
            break;
        size_t home = slot_of(m, m->slot[at].key);
        /* The entry at `at` may fill the hole if its home is not in
         * (hole, at] (cyclically). */
        int between = hole <= at ? (home > hole && home <= at) : (home > hole || home <= at);
        if (!between) {
            m->slot[hole] = m->slot[at];
            hole = at;
        }
    }
    m->slot[hole].key = 0;
    m->count--;
}

int kinetic_pairs_count(kinetic_pairs *m, uint64_t key, int change, int full, uint64_t *version)
{
    kinetic_pair *p = kinetic_pairs_get(m, key);
    if (!p)
        return -1;
    if (p->count == full)
        p->version++;
    p->count += change;
    if (p->count == full) {
        p->version++;
        *version = p->version;
        return 1;
    }
    if (p->count <= 0)
        kinetic_pairs_remove(m, p);
    return 0;
}

static int by_value(const void *x, const void *y)
{
    const kinetic_keyed *a = x, *b = y;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

void kinetic_sort_keyed(kinetic_keyed *k, size_t n)
{
    qsort(k, n, sizeof *k, by_value);
}
