/* Kinetic sweep-and-prune (contract in ksap.h).
 *
 * Endpoint e of sphere e / 2 is its box's lower (e even) or upper (e odd)
 * face on an axis: x0 + v t -/+ r, a line in t, so two neighbours in a
 * sorted list swap at one computable time. Each axis keeps its endpoints
 * sorted (order) and where each one is (where); the certificate between
 * positions k and k + 1 has a version that changes whenever either
 * position changes hands, so a queued swap is valid only with its
 * version. A lower face passing an upper one starts or ends the two
 * spheres' overlap on that axis; a hash map counts, per pair, the axes on
 * which their boxes overlap, and a pair's version changes whenever the
 * count leaves dim, which invalidates its queued contact. */
#include "ksap.h"
#include "baseline_error.h"
#include "kinetic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SWAP, CONTACT };

typedef struct ksap {
    const carom_scene *scene;
    size_t n;
    int dim;
    double now, t_end;
    uint32_t *order[3], *where[3];
    uint64_t *cert_version[3];
    kinetic_heap queue;
    kinetic_pairs pairs;
    carom_ksap_fn on_contact;
    void *user_data;
    carom_ksap_stats stats;
    int out_of_memory;
} ksap;

static void push(ksap *k, kinetic_event e)
{
    if (kinetic_heap_push(&k->queue, e) != 0)
        k->out_of_memory = 1;
}

/* ---- geometry ---- */

static double face(const ksap *k, int axis, uint32_t e, double *speed)
{
    uint32_t s = e / 2;
    *speed = k->scene->velocity[s][axis];
    double r = k->scene->radius[s];
    return k->scene->position[s][axis] + (e % 2 ? r : -r);
}

/* When endpoint order[axis][p] passes order[axis][p + 1] (INFINITY: never). */
static double swap_time(const ksap *k, int axis, uint32_t p)
{
    double va, vb;
    double ca = face(k, axis, k->order[axis][p], &va);
    double cb = face(k, axis, k->order[axis][p + 1], &vb);
    if (!(va > vb))
        return INFINITY;
    double t = (cb - ca) / (va - vb);
    return t > k->now ? t : k->now;
}

static void schedule_swap(ksap *k, int axis, uint32_t p)
{
    if ((size_t)p + 1 >= 2 * k->n)
        return;
    k->cert_version[axis][p]++;
    double t = swap_time(k, axis, p);
    if (t <= k->t_end)
        push(k, (kinetic_event){t, k->cert_version[axis][p], SWAP, axis, 0, p, 0});
}

/* When spheres i and j (straight paths) begin to touch, at or after now
 * (INFINITY: never). */
static double contact_time(const ksap *k, uint32_t i, uint32_t j)
{
    const carom_scene *s = k->scene;
    double dr[3] = {0.0, 0.0, 0.0}, dv[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < k->dim; a++) {
        dv[a] = s->velocity[j][a] - s->velocity[i][a];
        dr[a] = s->position[j][a] - s->position[i][a] + dv[a] * k->now;
    }
    double sigma = s->radius[i] + s->radius[j];
    double b = dr[0] * dv[0] + dr[1] * dv[1] + dr[2] * dv[2];
    double a = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2];
    double c = dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2] - sigma * sigma;
    if (!(b < 0.0) || c < 0.0)
        return INFINITY; /* not approaching, or overlapping already */
    double disc = b * b - a * c;
    if (disc < 0.0)
        return INFINITY;
    return k->now + c / (-b + sqrt(disc)); /* the smaller root, without cancellation */
}

/* Sphere pair (i, j)'s boxes start (+1) or stop (-1) overlapping on one
 * more axis. */
static void overlap_changed(ksap *k, uint32_t i, uint32_t j, int change)
{
    if (i > j) {
        uint32_t t = i;
        i = j;
        j = t;
    }
    uint64_t version;
    int full = kinetic_pairs_count(&k->pairs, (uint64_t)i * k->n + j + 1, change, k->dim, &version);
    if (full < 0) {
        k->out_of_memory = 1;
    } else if (full) {
        k->stats.candidates++;
        double t = contact_time(k, i, j);
        if (t <= k->t_end)
            push(k, (kinetic_event){t, version, CONTACT, 0, 0, i, j});
    }
}

/* ---- setting up ---- */

/* Sorts each axis's endpoints at t = 0 and counts, by a sweep per axis,
 * the axes on which each pair's boxes overlap; pairs overlapping on every
 * axis become candidates. */
static int set_up(ksap *k)
{
    size_t m = 2 * k->n;
    kinetic_keyed *sorted = malloc(m * sizeof *sorted);
    uint32_t *active = malloc(k->n * sizeof *active), *slot = malloc(k->n * sizeof *slot);
    int ok = sorted && active && slot;
    for (int a = 0; a < k->dim && ok; a++) {
        k->order[a] = malloc(m * sizeof *k->order[a]);
        k->where[a] = malloc(m * sizeof *k->where[a]);
        k->cert_version[a] = calloc(m, sizeof *k->cert_version[a]);
        ok = k->order[a] && k->where[a] && k->cert_version[a];
        if (!ok)
            break;
        for (uint32_t e = 0; e < m; e++) {
            double v;
            sorted[e] = (kinetic_keyed){face(k, a, e, &v), e};
        }
        kinetic_sort_keyed(sorted, m);
        size_t live = 0;
        for (uint32_t p = 0; p < m && !k->out_of_memory; p++) {
            uint32_t e = sorted[p].id, s = e / 2;
            k->order[a][p] = e;
            k->where[a][e] = p;
            if (e % 2 == 0) { /* a box opens: it overlaps every open one */
                for (size_t q = 0; q < live; q++)
                    overlap_changed(k, active[q], s, +1);
                slot[s] = (uint32_t)live;
                active[live++] = s;
            } else { /* it closes */
                uint32_t last = active[--live];
                active[slot[s]] = last;
                slot[last] = slot[s];
            }
        }
    }
    for (int a = 0; a < k->dim && ok; a++)
        for (uint32_t p = 0; p + 1 < m; p++)
            schedule_swap(k, a, p);
    free(sorted);
    free(active);
    free(slot);
    return ok && !k->out_of_memory ? 0 : -1;
}

/* Processes the swap at position p of an axis. */
static void swap(ksap *k, int axis, uint32_t p)
{
    uint32_t *order = k->order[axis], *where = k->where[axis];
    uint32_t e1 = order[p], e2 = order[p + 1];
    order[p] = e2;
    order[p + 1] = e1;
    where[e2] = p;
    where[e1] = p + 1;
    k->stats.swaps++;
    uint32_t s1 = e1 / 2, s2 = e2 / 2;
    if (s1 != s2 && e1 % 2 != e2 % 2)
        /* e2 passes e1: an opening face passing a closing one starts the
         * overlap, a closing one passing an opening one ends it. */
        overlap_changed(k, s1, s2, e2 % 2 == 0 ? +1 : -1);
    if (p > 0)
        schedule_swap(k, axis, p - 1);
    schedule_swap(k, axis, p);
    schedule_swap(k, axis, p + 1);
}

static void tear_down(ksap *k)
{
    for (int a = 0; a < 3; a++) {
        free(k->order[a]);
        free(k->where[a]);
        free(k->cert_version[a]);
    }
    free(k->queue.e);
    free(k->pairs.slot);
}

carom_status carom_ksap_run(const carom_scene *scene, double t_end, carom_ksap_fn on_contact,
                            void *user_data, carom_ksap_stats *stats, carom_error *error)
{
    if (scene->dim != 2 && scene->dim != 3)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "the scene's dim is %d (2 or 3)",
                             scene->dim);
    if (!(t_end >= 0.0) || !isfinite(t_end))
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "t_end (%g) must be finite, not negative", t_end);
    if (scene->n < 1 || scene->n > (size_t)UINT32_MAX / 2)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "%zu spheres: 1 to %u", scene->n,
                             (unsigned)(UINT32_MAX / 2));
    ksap k;
    memset(&k, 0, sizeof k);
    k.scene = scene;
    k.n = scene->n;
    k.dim = scene->dim;
    k.t_end = t_end;
    k.on_contact = on_contact;
    k.user_data = user_data;
    carom_status status = CAROM_OK;
    if (set_up(&k) != 0)
        status =
            baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", k.n);
    while (status == CAROM_OK && k.queue.count > 0) {
        kinetic_event e = kinetic_heap_pop(&k.queue);
        k.now = e.t;
        if (e.kind == SWAP) {
            if (e.version != k.cert_version[e.axis][e.a]) {
                k.stats.stale++;
                continue;
            }
            swap(&k, e.axis, e.a);
        } else {
            const kinetic_pair *p = kinetic_pairs_find(&k.pairs, (uint64_t)e.a * k.n + e.b + 1);
            if (!p || p->version != e.version) {
                k.stats.stale++;
                continue;
            }
            k.stats.contacts++;
            if (k.on_contact)
                k.on_contact(k.user_data, e.a, e.b, e.t);
        }
        if (k.out_of_memory)
            status =
                baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for events or pairs");
    }
    if (stats)
        *stats = k.stats;
    tear_down(&k);
    return status;
}
