/* A growing list of sphere contacts (pair i < j, time, depth), their
 * order by pair then time, and the count of differences between two
 * lists, for tests that compare two methods' contacts one by one
 * (test_stepped, test_swept, test_ksap, test_frames, test_drive_orbits). */
#ifndef CAROM_TEST_PAIR_CONTACTS_H
#define CAROM_TEST_PAIR_CONTACTS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

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

/* carom's sphere contacts of the scene from t = 0 to T with the given
 * response, and the world's stats (stats may be NULL). A world that
 * cannot be made fails a check and gives no contacts. */
static inline contact_log carom_contacts_of(const carom_scene *scene, carom_response response,
                                            double T, carom_stats *stats)
{
    contact_log log = {0};
    carom_world_def def = carom_world_default_def();
    def.response = response;
    def.on_contact = log_carom_contact;
    def.user_data = &log;
    carom_error e;
    carom_world *w = carom_scene_create_world(scene, &def, &e);
    CHECK(w != NULL);
    if (stats)
        *stats = (carom_stats){0};
    if (!w)
        return log;
    CHECK_OK(carom_world_advance_to(w, T));
    if (stats)
        carom_world_get_stats(w, stats);
    carom_world_free(w);
    return log;
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

/* Sorts both lists by pair then time and counts the contacts that differ
 * in pair, in time by more than time_tol, or (depth_tol >= 0) in depth
 * by more than depth_tol; each contact one list has beyond the other's
 * length counts once too. */
static inline int log_mismatches(contact_log *got, contact_log *want, double time_tol,
                                 double depth_tol)
{
    if (got->n > 1)
        qsort(got->c, got->n, sizeof *got->c, by_pair_time);
    if (want->n > 1)
        qsort(want->c, want->n, sizeof *want->c, by_pair_time);
    int bad = got->n > want->n ? (int)(got->n - want->n) : (int)(want->n - got->n);
    for (size_t k = 0; k < got->n && k < want->n; k++)
        if (got->c[k].i != want->c[k].i || got->c[k].j != want->c[k].j ||
            !(fabs(got->c[k].t - want->c[k].t) <= time_tol) ||
            (depth_tol >= 0.0 && !(fabs(got->c[k].depth - want->c[k].depth) <= depth_tol)))
            bad++;
    return bad;
}

#endif
