/* A growing list of sphere contacts (pair i < j, time, depth) and their
 * order by pair then time, for tests that compare two methods' contacts
 * one by one (test_stepped, test_ksap, test_drive_orbits). */
#ifndef CAROM_TEST_PAIR_CONTACTS_H
#define CAROM_TEST_PAIR_CONTACTS_H

#include <stdint.h>
#include <stdlib.h>

#include "carom/carom.h"

typedef struct contact {
    uint32_t i, j;
    double t, depth;
} contact;

typedef struct contact_log {
    contact *c;
    size_t n, capacity;
} contact_log;

/* Adds the contact of i and j (either order) at t. */
static inline void log_add(contact_log *log, uint32_t i, uint32_t j, double t, double depth)
{
    if (log->n == log->capacity) {
        log->capacity = log->capacity ? 2 * log->capacity : 1024;
        log->c = realloc(log->c, log->capacity * sizeof *log->c);
        if (!log->c)
            abort();
    }
    log->c[log->n++] = (contact){i < j ? i : j, i < j ? j : i, t, depth};
}

/* A carom contact callback (user_data: a contact_log): sphere contacts
 * only, depth 0. */
static inline void log_carom_contact(void *user, carom_contact *c)
{
    if (c->kind == CAROM_CONTACT_SPHERE)
        log_add(user, (uint32_t)c->i, (uint32_t)c->j, c->time, 0.0);
}

static inline int by_pair_time(const void *a, const void *b)
{
    const contact *x = a, *y = b;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

#endif
