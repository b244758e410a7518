/* Balls rolling on a plane (contract in rolling.h).
 *
 * The balls are sorted by radius once; a node of the collision tree is a
 * range of that order, S its lower half and L its upper half. A node's
 * entries are numbered locally: entry e < 2 |L| is a face of ball
 * L[e / 2]'s threshold box (lower if e is even), and the others are the
 * tangency points of S. Every entry moves on a line x0 + v t, so two
 * neighbours in a sorted list swap at one computable time. All nodes'
 * lists live in one array per axis (each node at its base offset), with
 * a version per certificate (neighbouring positions) that changes when
 * either position changes hands. The pair map counts, per pair (split at
 * exactly one node), the axes on which the smaller ball's point lies in
 * the larger one's box; a pair's version changes whenever the count
 * leaves 2, which invalidates its queued contact. */
#include "rolling.h"
#include "baseline_error.h"
#include "kinetic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SWAP, CONTACT };

typedef struct node {
    const uint32_t *small, *large; /* ball ids, each half by radius */
    uint32_t n_small, n_large;
    double half_factor; /* 2 sqrt(r_min of L): a box's half-width is this
                           times sqrt(r_i) */
    size_t base;        /* offset of its entries in the lists */
} node;

typedef struct rolling {
    const carom_rolling_ball *ball;
    size_t n;
    double now, t_end;
    uint32_t *by_size; /* ball ids by radius */
    node *nodes;
    size_t n_nodes;
    uint32_t *order[2], *where[2];
    uint64_t *cert_version[2];
    kinetic_heap queue;
    kinetic_pairs pairs;
    carom_rolling_fn on_contact;
    void *user_data;
    carom_rolling_stats stats;
    int out_of_memory;
} rolling;

static void push(rolling *r, kinetic_event e)
{
    if (kinetic_heap_push(&r->queue, e) != 0)
        r->out_of_memory = 1;
}

static uint32_t entries_of(const node *nd)
{
    return 2 * nd->n_large + nd->n_small;
}

static int is_point(const node *nd, uint32_t e)
{
    return e >= 2 * nd->n_large;
}

/* The ball an entry belongs to. */
static uint32_t ball_of(const node *nd, uint32_t e)
{
    return is_point(nd, e) ? nd->small[e - 2 * nd->n_large] : nd->large[e / 2];
}

/* Entry e's coordinate on an axis at t = 0, and its speed. */
static double value(const rolling *r, const node *nd, int axis, uint32_t e, double *speed)
{
    const carom_rolling_ball *b = &r->ball[ball_of(nd, e)];
    *speed = b->velocity[axis];
    if (is_point(nd, e))
        return b->position[axis];
    double half = nd->half_factor * sqrt(b->radius);
    return b->position[axis] + (e % 2 ? half : -half);
}

static void schedule_swap(rolling *r, uint32_t at, int axis, uint32_t p)
{
    const node *nd = &r->nodes[at];
    if (p + 1 >= entries_of(nd))
        return;
    size_t k = nd->base + p;
    r->cert_version[axis][k]++;
    double va, vb;
    double ca = value(r, nd, axis, r->order[axis][k], &va);
    double cb = value(r, nd, axis, r->order[axis][k + 1], &vb);
    if (!(va > vb))
        return;
    double t = fmax((cb - ca) / (va - vb), r->now);
    if (t <= r->t_end)
        push(r, (kinetic_event){t, r->cert_version[axis][k], SWAP, axis, at, p, 0});
}

/* When balls i and j begin to touch, at or after now (INFINITY: never). */
static double contact_time(const rolling *r, uint32_t i, uint32_t j)
{
    const carom_rolling_ball *a = &r->ball[i], *b = &r->ball[j];
    double dr[2], dv[2];
    for (int k = 0; k < 2; k++) {
        dv[k] = b->velocity[k] - a->velocity[k];
        dr[k] = b->position[k] - a->position[k] + dv[k] * r->now;
    }
    double bb = dr[0] * dv[0] + dr[1] * dv[1], v2 = dv[0] * dv[0] + dv[1] * dv[1];
    double c = dr[0] * dr[0] + dr[1] * dr[1] - 4.0 * a->radius * b->radius;
    if (!(bb < 0.0) || c < 0.0)
        return INFINITY; /* not approaching, or touching already */
    double disc = bb * bb - v2 * c;
    if (disc < 0.0)
        return INFINITY;
    return r->now + c / (-bb + sqrt(disc));
}

/* Ball j's point comes inside (+1) or leaves (-1) ball i's box on an axis. */
static void containment_changed(rolling *r, uint32_t i, uint32_t j, int change)
{
    uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
    uint64_t version;
    int full = kinetic_pairs_count(&r->pairs, (uint64_t)lo * r->n + hi + 1, change, 2, &version);
    if (full < 0) {
        r->out_of_memory = 1;
    } else if (full) {
        r->stats.candidates++;
        double t = contact_time(r, lo, hi);
        if (t <= r->t_end)
            push(r, (kinetic_event){t, version, CONTACT, 0, 0, lo, hi});
    }
}

/* ---- setting up ---- */

/* Ball ids by radius (ties by id), by insertion into a sorted array of
 * (radius, id) keys. */
static int sort_by_size(rolling *r)
{
    kinetic_keyed *k = malloc(r->n * sizeof *k);
    if (!k)
        return -1;
    for (uint32_t i = 0; i < r->n; i++)
        k[i] = (kinetic_keyed){r->ball[i].radius, i};
    kinetic_sort_keyed(k, r->n);
    for (size_t i = 0; i < r->n; i++)
        r->by_size[i] = k[i].id;
    free(k);
    return 0;
}

/* The nodes of the ranges [lo, hi) of by_size with more than one ball,
 * and each node's entries' offset. */
static size_t build_nodes(rolling *r, size_t lo, size_t hi, size_t base)
{
    if (hi - lo < 2)
        return base;
    size_t mid = lo + (hi - lo) / 2;
    node *nd = &r->nodes[r->n_nodes++];
    nd->small = &r->by_size[lo];
    nd->n_small = (uint32_t)(mid - lo);
    nd->large = &r->by_size[mid];
    nd->n_large = (uint32_t)(hi - mid);
    nd->half_factor = 2.0 * sqrt(r->ball[r->by_size[mid]].radius);
    nd->base = base;
    base += entries_of(nd);
    base = build_nodes(r, lo, mid, base);
    return build_nodes(r, mid, hi, base);
}

/* Sorts a node's entries on an axis at t = 0 and counts, in one sweep,
 * the points inside each open box. */
static int sort_node(rolling *r, uint32_t at, int axis, kinetic_keyed *sorted, uint32_t *active,
                     uint32_t *slot)
{
    const node *nd = &r->nodes[at];
    uint32_t m = entries_of(nd), live = 0;
    for (uint32_t e = 0; e < m; e++) {
        double v;
        sorted[e] = (kinetic_keyed){value(r, nd, axis, e, &v), e};
    }
    kinetic_sort_keyed(sorted, m);
    for (uint32_t p = 0; p < m && !r->out_of_memory; p++) {
        uint32_t e = sorted[p].id;
        r->order[axis][nd->base + p] = e;
        r->where[axis][nd->base + e] = p;
        if (is_point(nd, e)) {
            for (uint32_t q = 0; q < live; q++)
                containment_changed(r, nd->large[active[q]], ball_of(nd, e), +1);
        } else if (e % 2 == 0) { /* a box opens */
            slot[e / 2] = live;
            active[live++] = e / 2;
        } else { /* it closes */
            uint32_t last = active[--live];
            active[slot[e / 2]] = last;
            slot[last] = slot[e / 2];
        }
    }
    return r->out_of_memory ? -1 : 0;
}

static int set_up(rolling *r)
{
    r->by_size = malloc(r->n * sizeof *r->by_size);
    r->nodes = malloc(r->n * sizeof *r->nodes);
    if (!r->by_size || !r->nodes || sort_by_size(r) != 0)
        return -1;
    size_t total = build_nodes(r, 0, r->n, 0);
    r->stats.nodes = r->n_nodes;
    r->stats.entries = total;
    kinetic_keyed *sorted = malloc((r->n * 2 + 1) * sizeof *sorted);
    uint32_t *active = malloc(r->n * sizeof *active), *slot = malloc(r->n * sizeof *slot);
    int ok = sorted && active && slot;
    for (int a = 0; a < 2 && ok; a++) {
        r->order[a] = malloc((total + 1) * sizeof *r->order[a]);
        r->where[a] = malloc((total + 1) * sizeof *r->where[a]);
        r->cert_version[a] = calloc(total + 1, sizeof *r->cert_version[a]);
        ok = r->order[a] && r->where[a] && r->cert_version[a];
        for (uint32_t at = 0; ok && at < r->n_nodes; at++)
            ok = sort_node(r, at, a, sorted, active, slot) == 0;
    }
    for (int a = 0; a < 2 && ok; a++)
        for (uint32_t at = 0; at < r->n_nodes; at++)
            for (uint32_t p = 0; p + 1 < entries_of(&r->nodes[at]); p++)
                schedule_swap(r, at, a, p);
    free(sorted);
    free(active);
    free(slot);
    return ok && !r->out_of_memory ? 0 : -1;
}

/* Processes the swap at position p of a node's list on an axis. */
static void swap(rolling *r, uint32_t at, int axis, uint32_t p)
{
    const node *nd = &r->nodes[at];
    uint32_t *order = &r->order[axis][nd->base], *where = &r->where[axis][nd->base];
    uint32_t e1 = order[p], e2 = order[p + 1];
    order[p] = e2;
    order[p + 1] = e1;
    where[e2] = p;
    where[e1] = p + 1;
    r->stats.swaps++;
    if (is_point(nd, e1) != is_point(nd, e2)) {
        /* e2 passes below e1. A lower face passing below a point, or the
         * point passing below an upper face, brings the point inside. */
        uint32_t face = is_point(nd, e1) ? e2 : e1;
        int lower = face % 2 == 0;
        int enters = is_point(nd, e1) ? lower : !lower;
        containment_changed(r, ball_of(nd, face), ball_of(nd, is_point(nd, e1) ? e1 : e2),
                            enters ? +1 : -1);
    }
    if (p > 0)
        schedule_swap(r, at, axis, p - 1);
    schedule_swap(r, at, axis, p);
    schedule_swap(r, at, axis, p + 1);
}

static void tear_down(rolling *r)
{
    for (int a = 0; a < 2; a++) {
        free(r->order[a]);
        free(r->where[a]);
        free(r->cert_version[a]);
    }
    free(r->by_size);
    free(r->nodes);
    free(r->queue.e);
    free(r->pairs.slot);
}

carom_status carom_rolling_run(const carom_rolling_ball *balls, size_t n, double t_end,
                               carom_rolling_fn on_contact, void *user_data,
                               carom_rolling_stats *stats, carom_error *error)
{
    if (!(t_end >= 0.0) || !isfinite(t_end))
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "t_end (%g) must be finite, not negative", t_end);
    if (n < 1 || n > (size_t)UINT32_MAX / 4)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "%zu balls: 1 to %u", n,
                             (unsigned)(UINT32_MAX / 4));
    for (size_t i = 0; i < n; i++) {
        const carom_rolling_ball *b = &balls[i];
        if (!(b->radius > 0.0) || !isfinite(b->radius) || !isfinite(b->position[0]) ||
            !isfinite(b->position[1]) || !isfinite(b->velocity[0]) || !isfinite(b->velocity[1]))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "ball %zu: its radius must be positive and its numbers finite", i);
    }
    rolling r;
    memset(&r, 0, sizeof r);
    r.ball = balls;
    r.n = n;
    r.t_end = t_end;
    r.on_contact = on_contact;
    r.user_data = user_data;
    carom_status status = CAROM_OK;
    if (set_up(&r) != 0)
        status = baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu balls", n);
    while (status == CAROM_OK && r.queue.count > 0) {
        kinetic_event e = kinetic_heap_pop(&r.queue);
        r.now = e.t;
        if (e.kind == SWAP) {
            if (e.version != r.cert_version[e.axis][r.nodes[e.list].base + e.a]) {
                r.stats.stale++;
                continue;
            }
            swap(&r, e.list, e.axis, e.a);
        } else {
            const kinetic_pair *p = kinetic_pairs_find(&r.pairs, (uint64_t)e.a * r.n + e.b + 1);
            if (!p || p->version != e.version) {
                r.stats.stale++;
                continue;
            }
            r.stats.contacts++;
            if (r.on_contact)
                r.on_contact(r.user_data, e.a, e.b, e.t);
        }
        if (r.out_of_memory)
            status =
                baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for events or pairs");
    }
    if (stats)
        *stats = r.stats;
    tear_down(&r);
    return status;
}
