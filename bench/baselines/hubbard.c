/* Hubbard's broad phase with space-time bounds, for driven spheres in a
 * walled box (see hubbard.h). Choices, and why:
 *
 * Bound. Every sphere is probed at the window's start T0 (x0, v0) and
 * bounded over [T0, T0 + H] by Hubbard's hypertrapezoid: along axis a its
 * extent at T0 + s (0 <= s <= H) is
 *     [x0_a + v0_a s - r - A H s / 2,  x0_a + v0_a s + r + A H s / 2],
 * the chord of the parabolic horn's half-width r + A s^2 / 2 (convex in s,
 * equal at s = 0 and s = H), so it encloses the horn, and the sphere, over
 * the whole window. H is the window length: fixed (def.horizon) or, by
 * default, twice a running mean of the lengths the recent windows were
 * actually used for (a window ends at the first contact, when everything
 * is rebuilt, or at T0 + H), clamped to [horizon_min, horizon_max]; a
 * longer window costs nothing by itself (the sweep below stops at the
 * first contact) but makes the bounds looser.
 *
 * Broad phase. The two faces normal to axis a project onto the (a, t)
 * plane as two segments over [T0, T0 + H]; the box faces are two more
 * (a = 0 and a = L). All segments of an axis span the same time interval,
 * so Bentley-Ottmann's sweep (in t) needs no insertion or deletion events:
 * the sweep structure is the array of segments sorted by their value at
 * the sweep time, an event is the crossing of two adjacent segments
 * (found when they become adjacent, kept in a heap with lazy
 * invalidation), and a crossing swaps two adjacent entries. The three
 * axes are swept together, in one time order. A crossing where the upper
 * face of sphere i passes the lower face of sphere j (their extents start
 * to overlap on that axis) is Hubbard's step 3: if the cross-sections
 * overlap on the other axes at that time, the hypertrapezoids meet then
 * (the first meeting of two hypertrapezoids is always such a crossing,
 * or the window's start). The upper face passing a = L, or the lower face
 * passing a = 0, is a candidate wall contact. Pairs whose bounds already
 * meet at T0 (cubes of half-width r around the spheres) are found by a
 * sort-and-sweep at T0. Comparisons are widened by a relative 1e-9: a
 * candidate too many costs a probe, one too few would lose a contact.
 *
 * Narrow phase. A candidate (pair, or sphere and face) is probed at its
 * time; the real spheres are in contact when their gap is within
 * round-off and they approach. Otherwise its contact time is found by
 * refinement: from the probed state the earliest time the candidate's
 * parabolic horns (Hubbard's exact bound, of which the hypertrapezoid is
 * the enclosure) can touch is the first downward zero of the quartic
 *     h(s) = |d + w s|^2 - (R + (A_i + A_j) s^2 / 2)^2
 * (d, w relative position and velocity, R the contact distance; for a
 * face the quadratic g - u s - A s^2 / 2), found by isolating the roots
 * of h's derivatives and bisecting. The candidate is probed again then,
 * and so on: the probe times increase to the true contact time and never
 * pass it (quadratic convergence for a non-grazing contact), so contacts
 * are found at their true time to round-off. Between contacts no
 * trajectory changes, so every bound stays valid and the sweep goes on
 * to the next candidate; probes of candidates are merged in time order
 * with the sweep's crossings.
 *
 * Response. Elastic (with restitution) along the line of centres; the
 * velocity changes go to the driver's kick; then ALL bounds are rebuilt
 * at the contact's time, as Kim, Guibas and Shin describe Hubbard's broad
 * phase.
 */
#include "hubbard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_INF INFINITY

typedef struct hb_sphere {
    double r, m, A;
    double t;            /* time of x, v */
    double x[3], v[3];   /* last probed (or kicked) state */
    double bx[3], bv[3]; /* state at the window's start */
} hb_sphere;

/* A heap entry: a crossing (key = s since T0, on axis `axis`, slot k with
 * segments a below b) or a probe of record a (key = absolute time). */
typedef struct hb_entry {
    double key;
    uint32_t a, b, k;
    uint32_t axis;
} hb_entry;

typedef struct hb_heap {
    hb_entry *e;
    size_t n, cap;
} hb_heap;

/* A candidate: sphere i with sphere j >= 0, or with face -(1 + 2 axis + side). */
typedef struct hb_record {
    uint32_t i;
    int32_t j;
} hb_record;

typedef struct hb_slot {
    uint64_t key;
    uint32_t rec;
    uint32_t gen;
} hb_slot;

typedef struct hb_line {
    double c, m;
    uint32_t id;
} hb_line;

struct carom_hubbard {
    carom_hubbard_def def;
    size_t n;
    hb_sphere *s;
    double now, T0, H, window_mean;
    int started;
    /* per axis: value at T0 and slope of each segment, sweep order */
    size_t nlines;
    double *c[3], *m[3];
    uint32_t *order[3], *pos[3];
    hb_line *sortbuf;
    uint32_t *active;
    hb_heap swaps, checks;
    hb_record *rec;
    size_t nrec, caprec;
    hb_slot *slot;
    size_t capslot;
    uint32_t gen;
    carom_hubbard_stats stats;
    char message[CAROM_ERROR_MESSAGE_SIZE];
};

carom_hubbard_def carom_hubbard_default_def(void)
{
    carom_hubbard_def d;
    memset(&d, 0, sizeof d);
    d.dim = 3;
    d.box[0] = d.box[1] = d.box[2] = 200.0;
    d.horizon = 0.0;
    d.horizon_min = 1e-3;
    d.horizon_max = 1.0;
    d.restitution = 1.0;
    d.wall_restitution = 1.0;
    return d;
}

static carom_status fail(carom_hubbard *h, carom_status st, const char *msg)
{
    snprintf(h->message, sizeof h->message, "%s", msg);
    return st;
}

/* ---- heap ---- */

static int entry_less(const hb_entry *x, const hb_entry *y)
{
    if (x->key != y->key)
        return x->key < y->key;
    if (x->axis != y->axis)
        return x->axis < y->axis;
    if (x->k != y->k)
        return x->k < y->k;
    return x->a < y->a;
}

static int heap_push(hb_heap *hp, hb_entry e)
{
    if (hp->n == hp->cap) {
        size_t cap = hp->cap ? 2 * hp->cap : 256;
        hb_entry *ne = realloc(hp->e, cap * sizeof *ne);
        if (!ne)
            return -1;
        hp->e = ne;
        hp->cap = cap;
    }
    size_t i = hp->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!entry_less(&e, &hp->e[p]))
            break;
        hp->e[i] = hp->e[p];
        i = p;
    }
    hp->e[i] = e;
    return 0;
}

static hb_entry heap_pop(hb_heap *hp)
{
    hb_entry top = hp->e[0];
    hb_entry last = hp->e[--hp->n];
    size_t i = 0, n = hp->n;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t c = l + 1 < n && entry_less(&hp->e[l + 1], &hp->e[l]) ? l + 1 : l;
        if (!entry_less(&hp->e[c], &last))
            break;
        hp->e[i] = hp->e[c];
        i = c;
    }
    if (n > 0)
        hp->e[i] = last;
    return top;
}

/* ---- polynomials (degree <= 4, coefficients low to high) ---- */

static double poly_eval(const double *p, int deg, double x)
{
    double y = p[deg];
    for (int k = deg - 1; k >= 0; k--)
        y = y * x + p[k];
    return y;
}

/* The crossing of a monotone piece [lo, hi] of p where p(lo) and p(hi)
 * have opposite signs; returns the end of the last bracket on lo's side. */
static double bisect(const double *p, int deg, double lo, double hi)
{
    int lo_positive = poly_eval(p, deg, lo) > 0;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        if ((poly_eval(p, deg, mid) > 0) == lo_positive)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Sorted roots of p in the open interval (lo, hi), by isolating them
 * between the roots of p' (recursively). Returns their number (<= deg). */
static int poly_roots(const double *p, int deg, double lo, double hi, double *out)
{
    while (deg > 0 && p[deg] == 0.0)
        deg--;
    if (deg == 0)
        return 0;
    if (deg == 1) {
        double x = -p[0] / p[1];
        if (x > lo && x < hi) {
            out[0] = x;
            return 1;
        }
        return 0;
    }
    double dp[4] = {0, 0, 0, 0}, crit[4] = {0, 0, 0, 0};
    for (int k = 1; k <= deg; k++)
        dp[k - 1] = k * p[k];
    int nc = poly_roots(dp, deg - 1, lo, hi, crit);
    int nr = 0;
    double a = lo, pa = poly_eval(p, deg, lo);
    for (int k = 0; k <= nc; k++) {
        double b = k < nc ? crit[k] : hi;
        double pb = poly_eval(p, deg, b);
        if ((pa < 0 && pb > 0) || (pa > 0 && pb < 0))
            out[nr++] = bisect(p, deg, a, b);
        else if (pb == 0 && k < nc)
            out[nr++] = b;
        a = b;
        pa = pb;
    }
    return nr;
}

/* The earliest s in (0, S] where p comes down to <= 0, after having been
 * > 0 (at s = 0 or since). Returns a time at which p is still > 0, within
 * round-off of the crossing (never after it), or -1 if there is none. */
static double first_down_crossing(const double *p, int deg, double S)
{
    double dp[4] = {0, 0, 0, 0}, crit[4] = {0, 0, 0, 0};
    int d = deg;
    while (d > 0 && p[d] == 0.0)
        d--;
    for (int k = 1; k <= d; k++)
        dp[k - 1] = k * p[k];
    int nc = d > 0 ? poly_roots(dp, d - 1, 0.0, S, crit) : 0;
    double a = 0.0;
    int armed = p[0] > 0;
    for (int k = 0; k <= nc; k++) {
        double b = k < nc ? crit[k] : S;
        double pb = poly_eval(p, d, b);
        if (armed && pb <= 0)
            return bisect(p, d, a, b);
        if (pb > 0)
            armed = 1;
        a = b;
    }
    return -1.0;
}

/* ---- records (candidates of the current window) ---- */

static uint64_t pair_key(uint32_t i, int32_t j)
{
    return ((uint64_t)i << 32) | (uint32_t)j;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int slots_grow(carom_hubbard *h)
{
    size_t cap = h->capslot ? 2 * h->capslot : 1024;
    hb_slot *ns = calloc(cap, sizeof *ns);
    if (!ns)
        return -1;
    uint32_t gen = h->gen ? h->gen : 1;
    for (size_t r = 0; r < h->nrec; r++) {
        uint64_t key = pair_key(h->rec[r].i, h->rec[r].j);
        size_t at = (size_t)mix(key) & (cap - 1);
        while (ns[at].gen == gen)
            at = (at + 1) & (cap - 1);
        ns[at].key = key;
        ns[at].rec = (uint32_t)r;
        ns[at].gen = gen;
    }
    free(h->slot);
    h->slot = ns;
    h->capslot = cap;
    h->gen = gen;
    return 0;
}

/* Adds candidate (i, j) with its first probe at time t, unless the window
 * has it already. */
static carom_status add_candidate(carom_hubbard *h, uint32_t i, int32_t j, double t)
{
    if (2 * (h->nrec + 1) > h->capslot && slots_grow(h) != 0)
        return fail(h, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory (candidates)");
    uint64_t key = pair_key(i, j);
    size_t at = (size_t)mix(key) & (h->capslot - 1);
    while (h->slot[at].gen == h->gen) {
        if (h->slot[at].key == key)
            return CAROM_OK;
        at = (at + 1) & (h->capslot - 1);
    }
    if (h->nrec == h->caprec) {
        size_t cap = h->caprec ? 2 * h->caprec : 256;
        hb_record *nr = realloc(h->rec, cap * sizeof *nr);
        if (!nr)
            return fail(h, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory (candidates)");
        h->rec = nr;
        h->caprec = cap;
    }
    h->rec[h->nrec].i = i;
    h->rec[h->nrec].j = j;
    h->slot[at].key = key;
    h->slot[at].rec = (uint32_t)h->nrec;
    h->slot[at].gen = h->gen;
    hb_entry e = {t, (uint32_t)h->nrec, 0, 0, 0};
    h->nrec++;
    h->stats.candidates++;
    if (heap_push(&h->checks, e) != 0)
        return fail(h, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory (probe queue)");
    return CAROM_OK;
}

/* ---- bounds and sweep ---- */

static void probe_to(carom_hubbard *h, uint32_t i, double t)
{
    hb_sphere *sp = &h->s[i];
    if (sp->t == t)
        return;
    double x[3] = {0, 0, 0}, v[3] = {0, 0, 0};
    h->def.driver.probe(h->def.driver.user_data, h->def.first_id + i, t, x, v);
    for (int a = 0; a < 3; a++) {
        sp->x[a] = a < h->def.dim ? x[a] : 0.0;
        sp->v[a] = a < h->def.dim ? v[a] : 0.0;
    }
    sp->t = t;
}

static double slack_of(const carom_hubbard *h, double width)
{
    return 1e-9 * width + 1e-13 * h->def.box[0];
}

/* Extent of sphere i's bound on axis a at s after T0. */
static void extent(const carom_hubbard *h, uint32_t i, int a, double s, double *lo, double *hi)
{
    const hb_sphere *sp = &h->s[i];
    double c = sp->bx[a] + sp->bv[a] * s;
    double w = sp->r + 0.5 * sp->A * h->H * s;
    *lo = c - w;
    *hi = c + w;
}

/* Do the bounds of i and j overlap on every axis but `skip` at s? */
static int cross_sections_meet(const carom_hubbard *h, uint32_t i, uint32_t j, int skip, double s)
{
    for (int a = 0; a < h->def.dim; a++) {
        if (a == skip)
            continue;
        double li, hi_, lj, hj;
        extent(h, i, a, s, &li, &hi_);
        extent(h, j, a, s, &lj, &hj);
        double slack = slack_of(h, (hi_ - li) + (hj - lj));
        if (li > hj + slack || lj > hi_ + slack)
            return 0;
    }
    return 1;
}

static int push_crossing(carom_hubbard *h, int a, size_t k, double s_now)
{
    uint32_t lo = h->order[a][k], up = h->order[a][k + 1];
    double ml = h->m[a][lo], mu = h->m[a][up];
    if (!(ml > mu))
        return 0;
    double s = (h->c[a][up] - h->c[a][lo]) / (ml - mu);
    if (s < s_now)
        s = s_now;
    if (s > h->H)
        return 0;
    hb_entry e = {s, lo, up, (uint32_t)k, (uint32_t)a};
    return heap_push(&h->swaps, e);
}

static int line_cmp(const void *x, const void *y)
{
    const hb_line *p = x, *q = y;
    if (p->c != q->c)
        return p->c < q->c ? -1 : 1;
    if (p->m != q->m)
        return p->m < q->m ? -1 : 1;
    return (p->id > q->id) - (p->id < q->id);
}

static void update_horizon(carom_hubbard *h, double used)
{
    if (h->def.horizon > 0) {
        h->H = h->def.horizon;
        return;
    }
    h->window_mean = 0.75 * h->window_mean + 0.25 * used;
    double H = 2.0 * h->window_mean;
    if (H < h->def.horizon_min)
        H = h->def.horizon_min;
    if (H > h->def.horizon_max)
        H = h->def.horizon_max;
    h->H = H;
}

/* Probes every sphere at T and rebuilds every bound, the sweep and the
 * candidates that already meet at T. */
static carom_status rebuild(carom_hubbard *h, double T)
{
    if (h->started) {
        h->stats.window_sum += T - h->T0;
        update_horizon(h, T - h->T0);
    }
    h->stats.rebuilds++;
    h->T0 = T;
    const int dim = h->def.dim;
    const size_t n = h->n;
    for (uint32_t i = 0; i < n; i++) {
        probe_to(h, i, T);
        memcpy(h->s[i].bx, h->s[i].x, sizeof h->s[i].x);
        memcpy(h->s[i].bv, h->s[i].v, sizeof h->s[i].v);
    }
    h->swaps.n = 0;
    h->checks.n = 0;
    h->nrec = 0;
    h->gen++;
    if (h->gen == 0) { /* wrapped: clear the table for real */
        memset(h->slot, 0, h->capslot * sizeof *h->slot);
        h->gen = 1;
    }
    for (int a = 0; a < dim; a++) {
        double *c = h->c[a], *m = h->m[a];
        for (uint32_t i = 0; i < n; i++) {
            const hb_sphere *sp = &h->s[i];
            double grow = 0.5 * sp->A * h->H;
            c[2 * i] = sp->bx[a] - sp->r;
            m[2 * i] = sp->bv[a] - grow;
            c[2 * i + 1] = sp->bx[a] + sp->r;
            m[2 * i + 1] = sp->bv[a] + grow;
        }
        c[2 * n] = 0.0;
        m[2 * n] = 0.0;
        c[2 * n + 1] = h->def.box[a];
        m[2 * n + 1] = 0.0;
        for (uint32_t l = 0; l < h->nlines; l++) {
            h->sortbuf[l].c = c[l];
            h->sortbuf[l].m = m[l];
            h->sortbuf[l].id = l;
        }
        qsort(h->sortbuf, h->nlines, sizeof *h->sortbuf, line_cmp);
        for (uint32_t k = 0; k < h->nlines; k++) {
            h->order[a][k] = h->sortbuf[k].id;
            h->pos[a][h->sortbuf[k].id] = k;
        }
        for (size_t k = 0; k + 1 < h->nlines; k++)
            if (push_crossing(h, a, k, 0.0) != 0)
                return fail(h, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory (sweep)");
    }
    /* Bounds meeting already at T: sort-and-sweep along axis 0 (the order
     * just built), lower faces in increasing order. */
    size_t nactive = 0;
    for (size_t k = 0; k < h->nlines; k++) {
        uint32_t l = h->order[0][k];
        if (l >= 2 * n || (l & 1))
            continue;
        uint32_t j = l / 2;
        double lj = h->c[0][l];
        size_t keep = 0;
        for (size_t q = 0; q < nactive; q++) {
            uint32_t i = h->active[q];
            double hi_ = h->c[0][2 * i + 1];
            if (lj > hi_ + slack_of(h, 2 * (h->s[i].r + h->s[j].r)))
                continue; /* i's extent ended before j's starts */
            h->active[keep++] = i;
            if (cross_sections_meet(h, i, j, 0, 0.0)) {
                carom_status st = add_candidate(h, i < j ? i : j, (int32_t)(i < j ? j : i), T);
                if (st != CAROM_OK)
                    return st;
            }
        }
        nactive = keep;
        h->active[nactive++] = j;
    }
    for (uint32_t i = 0; i < n; i++)
        for (int a = 0; a < dim; a++) {
            const hb_sphere *sp = &h->s[i];
            double slack = slack_of(h, 2 * sp->r);
            carom_status st = CAROM_OK;
            if (sp->bx[a] - sp->r <= slack)
                st = add_candidate(h, i, -(1 + 2 * a), T);
            if (st == CAROM_OK && sp->bx[a] + sp->r >= h->def.box[a] - slack)
                st = add_candidate(h, i, -(2 + 2 * a), T);
            if (st != CAROM_OK)
                return st;
        }
    return CAROM_OK;
}

/* One crossing of the sweep. */
static carom_status process_swap(carom_hubbard *h, hb_entry e)
{
    int a = (int)e.axis;
    size_t k = e.k;
    uint32_t *order = h->order[a];
    if (order[k] != e.a || order[k + 1] != e.b)
        return CAROM_OK; /* stale */
    h->stats.swaps++;
    order[k] = e.b;
    order[k + 1] = e.a;
    h->pos[a][e.b] = (uint32_t)k;
    h->pos[a][e.a] = (uint32_t)(k + 1);
    const uint32_t n2 = (uint32_t)(2 * h->n);
    double t = h->T0 + e.key;
    carom_status st = CAROM_OK;
    if (e.a < n2 && (e.a & 1)) { /* an upper face passes ... */
        uint32_t i = e.a / 2;
        if (e.b < n2 && !(e.b & 1) && e.b / 2 != i) { /* ... a lower face */
            uint32_t j = e.b / 2;
            if (cross_sections_meet(h, i, j, a, e.key))
                st = add_candidate(h, i < j ? i : j, (int32_t)(i < j ? j : i), t);
        } else if (e.b == n2 + 1) { /* ... the face a = L */
            st = add_candidate(h, i, -(2 + 2 * a), t);
        }
    } else if (e.a == n2 && e.b < n2 && !(e.b & 1)) { /* a lower face passes a = 0 */
        st = add_candidate(h, e.b / 2, -(1 + 2 * a), t);
    }
    if (st != CAROM_OK)
        return st;
    if ((k > 0 && push_crossing(h, a, k - 1, e.key) != 0) ||
        (k + 2 < h->nlines && push_crossing(h, a, k + 1, e.key) != 0))
        return fail(h, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory (sweep)");
    return CAROM_OK;
}

/* ---- narrow phase ---- */

static double min_step(double t)
{
    return 1e-13 * (fabs(t) > 1.0 ? fabs(t) : 1.0);
}

static void kick(carom_hubbard *h, uint32_t i, double t, const double dv[3])
{
    if (dv[0] == 0 && dv[1] == 0 && dv[2] == 0)
        return;
    for (int a = 0; a < 3; a++)
        h->s[i].v[a] += dv[a];
    h->def.driver.kick(h->def.driver.user_data, h->def.first_id + i, t, dv);
}

static carom_status sphere_contact(carom_hubbard *h, uint32_t i, uint32_t j, double t,
                                   const double d[3], double dist, double gap)
{
    hb_sphere *si = &h->s[i], *sj = &h->s[j];
    carom_contact c;
    memset(&c, 0, sizeof c);
    c.kind = CAROM_CONTACT_SPHERE;
    c.time = t;
    c.i = h->def.first_id + i;
    c.j = h->def.first_id + j;
    double nrm[3] = {0, 0, 0}, wn = 0.0;
    for (int a = 0; a < 3; a++) {
        nrm[a] = d[a] / dist;
        wn += (sj->v[a] - si->v[a]) * nrm[a];
    }
    double inv = (isinf(si->m) ? 0.0 : 1.0 / si->m) + (isinf(sj->m) ? 0.0 : 1.0 / sj->m);
    double J = inv > 0 ? -(1.0 + h->def.restitution) * wn / inv : 0.0;
    double dvi[3], dvj[3];
    for (int a = 0; a < 3; a++) {
        dvi[a] = isinf(si->m) ? 0.0 : -J / si->m * nrm[a];
        dvj[a] = isinf(sj->m) ? 0.0 : J / sj->m * nrm[a];
        c.normal[a] = nrm[a];
    }
    kick(h, i, t, dvi);
    kick(h, j, t, dvj);
    c.impulse = J;
    memcpy(c.velocity_after[0], si->v, sizeof si->v);
    memcpy(c.velocity_after[1], sj->v, sizeof sj->v);
    c.depth = gap < 0 ? -gap : 0.0;
    h->stats.collisions++;
    if (c.depth > h->stats.max_depth)
        h->stats.max_depth = c.depth;
    if (c.depth > 1e-9 * (si->r + sj->r))
        h->stats.late_contacts++;
    if (h->def.on_contact)
        h->def.on_contact(h->def.user_data, &c);
    return rebuild(h, t);
}

static carom_status wall_contact(carom_hubbard *h, uint32_t i, int a, int side, double t,
                                 double gap)
{
    hb_sphere *sp = &h->s[i];
    carom_contact c;
    memset(&c, 0, sizeof c);
    c.kind = CAROM_CONTACT_WALL;
    c.time = t;
    c.i = h->def.first_id + i;
    c.wall = 2 * a + side;
    c.normal[a] = side ? 1.0 : -1.0;
    double dv[3] = {0, 0, 0};
    dv[a] = -(1.0 + h->def.wall_restitution) * sp->v[a];
    c.impulse = fabs(dv[a]) * sp->m;
    kick(h, i, t, dv);
    memcpy(c.velocity_after[0], sp->v, sizeof sp->v);
    c.depth = gap < 0 ? -gap : 0.0;
    h->stats.wall_hits++;
    if (c.depth > h->stats.max_depth)
        h->stats.max_depth = c.depth;
    if (c.depth > 1e-9 * sp->r)
        h->stats.late_contacts++;
    if (h->def.on_contact)
        h->def.on_contact(h->def.user_data, &c);
    return rebuild(h, t);
}

/* Probes candidate r at time t: a contact, or its next probe. */
static carom_status process_check(carom_hubbard *h, uint32_t r, double t)
{
    h->stats.narrow_checks++;
    uint32_t i = h->rec[r].i;
    int32_t j = h->rec[r].j;
    probe_to(h, i, t);
    const hb_sphere *si = &h->s[i];
    double p[5] = {0, 0, 0, 0, 0};
    int deg;
    int approaching;
    double gap, eps;
    if (j >= 0) {
        probe_to(h, (uint32_t)j, t);
        const hb_sphere *sj = &h->s[j];
        double d[3], w[3], dd = 0, dw = 0, ww = 0, xs = 0;
        for (int a = 0; a < 3; a++) {
            d[a] = sj->x[a] - si->x[a];
            w[a] = sj->v[a] - si->v[a];
            dd += d[a] * d[a];
            dw += d[a] * w[a];
            ww += w[a] * w[a];
            xs += fabs(si->x[a]) + fabs(sj->x[a]);
        }
        double dist = sqrt(dd), R = si->r + sj->r, A = si->A + sj->A;
        gap = dist - R;
        eps = 1e-12 * R + 1e-15 * xs;
        approaching = dw < 0;
        if (gap <= eps && approaching)
            return sphere_contact(h, i, (uint32_t)j, t, d, dist, gap);
        /* h(s) = |d + w s|^2 - (R + A s^2 / 2)^2 */
        p[0] = gap * (dist + R);
        p[1] = 2 * dw;
        p[2] = ww - R * A;
        p[3] = 0.0;
        p[4] = -0.25 * A * A;
        deg = 4;
    } else {
        int code = -j - 1, a = code / 2, side = code & 1;
        double u = side ? si->v[a] : -si->v[a];
        gap = side ? h->def.box[a] - si->x[a] - si->r : si->x[a] - si->r;
        eps = 1e-12 * si->r + 1e-15 * h->def.box[a];
        approaching = u > 0;
        if (gap <= eps && approaching)
            return wall_contact(h, i, a, side, t, gap);
        p[0] = gap;
        p[1] = -u;
        p[2] = -0.5 * si->A;
        deg = 2;
    }
    double end = h->T0 + h->H;
    double s = first_down_crossing(p, deg, end - t);
    if (s < 0)
        return CAROM_OK; /* cannot touch in this window */
    if (s < min_step(t)) {
        if (approaching) { /* converged: the contact is now (to round-off) */
            if (j >= 0) {
                const hb_sphere *sj = &h->s[j];
                double d[3], dd = 0;
                for (int a = 0; a < 3; a++) {
                    d[a] = sj->x[a] - si->x[a];
                    dd += d[a] * d[a];
                }
                return sphere_contact(h, i, (uint32_t)j, t, d, sqrt(dd), gap);
            }
            int code = -j - 1;
            return wall_contact(h, i, code / 2, code & 1, t, gap);
        }
        s = min_step(t);
    }
    if (t + s > end)
        return CAROM_OK;
    hb_entry e = {t + s, r, 0, 0, 0};
    if (heap_push(&h->checks, e) != 0)
        return fail(h, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory (probe queue)");
    return CAROM_OK;
}

/* ---- public ---- */

void carom_hubbard_free(carom_hubbard *h)
{
    if (!h)
        return;
    free(h->s);
    for (int a = 0; a < 3; a++) {
        free(h->c[a]);
        free(h->m[a]);
        free(h->order[a]);
        free(h->pos[a]);
    }
    free(h->sortbuf);
    free(h->active);
    free(h->swaps.e);
    free(h->checks.e);
    free(h->rec);
    free(h->slot);
    free(h);
}

static void set_error(carom_error *error, carom_status st, const char *msg)
{
    if (!error)
        return;
    error->status = st;
    snprintf(error->message, sizeof error->message, "%s", msg);
}

carom_hubbard *carom_hubbard_create(const carom_hubbard_def *def, size_t n,
                                    const carom_sphere_def *spheres, double start_time,
                                    carom_error *error)
{
    if (!def || (n > 0 && !spheres) || (def->dim != 2 && def->dim != 3) ||
        !def->driver.probe || !def->driver.kick || !isfinite(start_time) ||
        !(def->restitution >= 0 && def->restitution <= 1) ||
        !(def->wall_restitution >= 0 && def->wall_restitution <= 1) ||
        !(def->horizon >= 0) || !isfinite(def->horizon) ||
        (def->horizon == 0 && !(def->horizon_min > 0 && def->horizon_max >= def->horizon_min &&
                                isfinite(def->horizon_max))) ||
        n > (size_t)(UINT32_MAX / 4 - 4)) {
        set_error(error, CAROM_ERR_INVALID_ARGUMENT,
                  "hubbard: bad definition (dim 2 or 3, probe and kick, restitutions in "
                  "[0, 1], horizon >= 0 or 0 < horizon_min <= horizon_max)");
        return NULL;
    }
    for (int a = 0; a < def->dim; a++)
        if (!(def->box[a] > 0) || !isfinite(def->box[a])) {
            set_error(error, CAROM_ERR_INVALID_ARGUMENT, "hubbard: box lengths must be > 0");
            return NULL;
        }
    for (size_t i = 0; i < n; i++)
        if (!(spheres[i].radius > 0) || !isfinite(spheres[i].radius) ||
            !(spheres[i].mass > 0) || !(spheres[i].accel_bound >= 0) ||
            !isfinite(spheres[i].accel_bound)) {
            char msg[128];
            snprintf(msg, sizeof msg,
                     "hubbard: sphere %zu: radius > 0, mass > 0, accel_bound >= 0 needed", i);
            set_error(error, CAROM_ERR_INVALID_ARGUMENT, msg);
            return NULL;
        }
    carom_hubbard *h = calloc(1, sizeof *h);
    if (!h) {
        set_error(error, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory");
        return NULL;
    }
    h->def = *def;
    h->n = n;
    h->now = start_time;
    h->nlines = 2 * n + 2;
    h->window_mean = 0.5 * def->horizon_max;
    h->H = def->horizon > 0 ? def->horizon : def->horizon_max;
    h->s = calloc(n ? n : 1, sizeof *h->s);
    h->sortbuf = malloc(h->nlines * sizeof *h->sortbuf);
    h->active = malloc((n ? n : 1) * sizeof *h->active);
    int ok = h->s && h->sortbuf && h->active;
    for (int a = 0; a < def->dim; a++) {
        h->c[a] = malloc(h->nlines * sizeof(double));
        h->m[a] = malloc(h->nlines * sizeof(double));
        h->order[a] = malloc(h->nlines * sizeof(uint32_t));
        h->pos[a] = malloc(h->nlines * sizeof(uint32_t));
        ok = ok && h->c[a] && h->m[a] && h->order[a] && h->pos[a];
    }
    if (!ok || slots_grow(h) != 0) {
        carom_hubbard_free(h);
        set_error(error, CAROM_ERR_OUT_OF_MEMORY, "hubbard: out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        h->s[i].r = spheres[i].radius;
        h->s[i].m = spheres[i].mass;
        h->s[i].A = spheres[i].accel_bound;
        h->s[i].t = -HB_INF;
    }
    if (error) {
        error->status = CAROM_OK;
        error->message[0] = '\0';
    }
    return h;
}

const char *carom_hubbard_error_message(const carom_hubbard *h)
{
    return h ? h->message : "";
}

double carom_hubbard_time(const carom_hubbard *h)
{
    return h->now;
}

void carom_hubbard_get_stats(const carom_hubbard *h, carom_hubbard_stats *out)
{
    *out = h->stats;
}

/* The start: no sphere outside the box, no two overlapping. */
static carom_status check_start(carom_hubbard *h)
{
    char msg[160];
    for (uint32_t i = 0; i < h->n; i++)
        for (int a = 0; a < h->def.dim; a++) {
            const hb_sphere *sp = &h->s[i];
            double tol = 1e-9 * sp->r;
            if (!isfinite(sp->x[a]) || !isfinite(sp->v[a]) || sp->x[a] - sp->r < -tol ||
                sp->x[a] + sp->r > h->def.box[a] + tol) {
                snprintf(msg, sizeof msg, "hubbard: sphere %u is (partly) outside the box", i);
                return fail(h, CAROM_ERR_OUTSIDE_BOX, msg);
            }
        }
    for (size_t r = 0; r < h->nrec; r++) {
        if (h->rec[r].j < 0)
            continue;
        const hb_sphere *si = &h->s[h->rec[r].i], *sj = &h->s[h->rec[r].j];
        double dd = 0;
        for (int a = 0; a < 3; a++)
            dd += (sj->x[a] - si->x[a]) * (sj->x[a] - si->x[a]);
        if (sqrt(dd) < (si->r + sj->r) * (1 - 1e-9)) {
            snprintf(msg, sizeof msg, "hubbard: spheres %u and %d overlap at the start",
                     h->rec[r].i, h->rec[r].j);
            return fail(h, CAROM_ERR_OVERLAP, msg);
        }
    }
    return CAROM_OK;
}

carom_status carom_hubbard_advance_to(carom_hubbard *h, double t_end)
{
    if (!(t_end >= h->now) || !isfinite(t_end))
        return fail(h, CAROM_ERR_INVALID_ARGUMENT, "hubbard: time must not go back");
    carom_status st = CAROM_OK;
    if (!h->started) {
        if ((st = rebuild(h, h->now)) != CAROM_OK)
            return st;
        h->started = 1;
        if ((st = check_start(h)) != CAROM_OK)
            return st;
    }
    for (;;) {
        double ts = h->swaps.n ? h->T0 + h->swaps.e[0].key : HB_INF;
        double tc = h->checks.n ? h->checks.e[0].key : HB_INF;
        double th = h->T0 + h->H;
        if (h->def.eager_sweep && h->swaps.n) {
            /* the whole window's intersections now (candidates wait in time order) */
            while (h->swaps.n && st == CAROM_OK)
                st = process_swap(h, heap_pop(&h->swaps));
            if (st != CAROM_OK)
                return st;
            continue;
        }
        if (ts <= tc && ts <= th) {
            if (ts > t_end)
                break;
            st = process_swap(h, heap_pop(&h->swaps));
        } else if (tc <= th) {
            if (tc > t_end)
                break;
            hb_entry e = heap_pop(&h->checks);
            st = process_check(h, e.a, e.key);
        } else {
            if (th > t_end)
                break;
            h->stats.horizon_ends++;
            st = rebuild(h, th);
        }
        if (st != CAROM_OK)
            return st;
    }
    h->now = t_end;
    return CAROM_OK;
}
