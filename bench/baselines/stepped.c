/* Time-stepped collision detection (contract in stepped.h).
 *
 * Every sample folds the straight paths into the box and collects the
 * overlapping pairs with one of three broad phases:
 * - a grid of cells at least as wide as the largest contact distance, so
 *   that overlapping spheres (and boxes) lie in the same or neighbouring
 *   cells; each sphere is tested against the spheres of higher index in
 *   its 3^dim neighbourhood. With fewer than three cells on an axis the
 *   neighbourhood would hold a cell twice, so such boxes test every pair;
 * - a point octree of the centres, queried for each sphere i with the
 *   box of half-width r_i + (largest radius) around its centre, and with
 *   each periodic image of that box that reaches into the cell;
 * - every pair.
 * The overlapping pairs of a sample are kept sorted and without repeats,
 * to tell new contacts from ones seen at the sample before. */
#include "stepped.h"
#include "baseline_error.h"
#include "octree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a pair's overlap episode (the samples in a row at which it
 * overlaps) has shown so far. */
enum {
    EPISODE_CONTACT = 1, /* began after t = 0: a detected contact */
    EPISODE_TOUCHED = 2  /* the spheres overlapped at one of its samples */
};

typedef struct pair_list {
    uint64_t *key;  /* i * n + j, i < j, sorted */
    uint8_t *flags; /* per key: EPISODE_ bits */
    size_t count, capacity;
} pair_list;

typedef struct stepper {
    const carom_scene *scene;
    carom_stepped_def def;
    size_t n;
    double largest; /* largest radius */
    double (*x)[3]; /* positions at the current sample, in the box */
    int cells[3];   /* grid: per axis; 0: test every pair */
    double cell[3]; /* grid: cell widths */
    int32_t *head;  /* grid: first sphere of each cell, -1: none */
    int32_t *next;  /* grid: next sphere in the same cell */
    carom_octree tree;
    pair_list now, before;
    carom_stepped_stats stats;
} stepper;

carom_stepped_def carom_stepped_default_def(double dt, double t_end)
{
    return (carom_stepped_def){dt, t_end, CAROM_STEPPED_GRID, CAROM_STEPPED_SPHERES};
}

static int pair_add(pair_list *p, uint64_t key)
{
    if (p->count == p->capacity) {
        size_t capacity = p->capacity ? 2 * p->capacity : 256;
        uint64_t *grown = realloc(p->key, capacity * sizeof *grown);
        if (grown)
            p->key = grown;
        uint8_t *flags = realloc(p->flags, capacity);
        if (flags)
            p->flags = flags;
        if (!grown || !flags)
            return -1;
        p->capacity = capacity;
    }
    p->key[p->count++] = key;
    return 0;
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts the keys and drops repeats. */
static void pair_sort(pair_list *p)
{
    if (p->count < 2)
        return;
    qsort(p->key, p->count, sizeof *p->key, by_key);
    size_t kept = 1;
    for (size_t m = 1; m < p->count; m++)
        if (p->key[m] != p->key[kept - 1])
            p->key[kept++] = p->key[m];
    p->count = kept;
}

/* Straight flight from the scene's positions, folded into the box. */
static void positions_at(stepper *s, double t)
{
    const carom_scene *sc = s->scene;
    for (size_t i = 0; i < s->n; i++) {
        for (int k = 0; k < 3; k++) {
            if (k >= sc->dim) {
                s->x[i][k] = 0.0;
                continue;
            }
            double L = sc->box[k], x = sc->position[i][k] + sc->velocity[i][k] * t;
            x -= L * floor(x / L);
            s->x[i][k] = x < L ? x : 0.0;
        }
    }
}

/* Separation of j from i on axis k (nearest image). */
static double separation(const stepper *s, size_t i, size_t j, int k)
{
    /* Both positions lie in [0, L), so one fold brings d into [-L/2, L/2]. */
    double L = s->scene->box[k], d = s->x[j][k] - s->x[i][k];
    return d > 0.5 * L ? d - L : d < -0.5 * L ? d + L : d;
}

/* Contact distance minus distance (nearest image) of spheres i and j. */
static double sphere_overlap(const stepper *s, size_t i, size_t j)
{
    double d2 = 0.0;
    for (int k = 0; k < s->scene->dim; k++) {
        double d = separation(s, i, j, k);
        d2 += d * d;
    }
    return s->scene->radius[i] + s->scene->radius[j] - sqrt(d2);
}

/* Whether spheres i and j overlap: their distance (nearest image) under
 * their contact distance, compared squared. */
static int spheres_overlap(const stepper *s, size_t i, size_t j)
{
    double d2 = 0.0, sigma = s->scene->radius[i] + s->scene->radius[j];
    for (int k = 0; k < s->scene->dim; k++) {
        double d = separation(s, i, j, k);
        d2 += d * d;
    }
    return d2 < sigma * sigma;
}

/* Whether the bounding boxes of i and j (cubes of side 2 r) overlap. */
static int boxes_overlap(const stepper *s, size_t i, size_t j)
{
    double reach = s->scene->radius[i] + s->scene->radius[j];
    for (int k = 0; k < s->scene->dim; k++)
        if (!(fabs(separation(s, i, j, k)) < reach))
            return 0;
    return 1;
}

static int test_pair(stepper *s, size_t i, size_t j)
{
    s->stats.pair_tests++;
    int overlaps =
        s->def.shape == CAROM_STEPPED_BOXES ? boxes_overlap(s, i, j) : spheres_overlap(s, i, j);
    return overlaps ? pair_add(&s->now, (uint64_t)i * s->n + j) : 0;
}

static int all_pairs(stepper *s)
{
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = i + 1; j < s->n; j++)
            if (test_pair(s, i, j))
                return -1;
    return 0;
}

static int cell_of(const stepper *s, const double x[3], int k)
{
    int c = (int)(x[k] / s->cell[k]);
    return c < s->cells[k] ? c : s->cells[k] - 1;
}

static size_t cell_index(const stepper *s, const int c[3])
{
    return ((size_t)c[2] * (size_t)s->cells[1] + (size_t)c[1]) * (size_t)s->cells[0] + (size_t)c[0];
}

static int grid_pairs(stepper *s)
{
    if (s->cells[0] == 0)
        return all_pairs(s);
    int dim = s->scene->dim;
    size_t total = (size_t)s->cells[0] * (size_t)s->cells[1] * (size_t)s->cells[2];
    for (size_t c = 0; c < total; c++)
        s->head[c] = -1;
    for (size_t i = s->n; i-- > 0;) {
        int c[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++)
            c[k] = cell_of(s, s->x[i], k);
        size_t at = cell_index(s, c);
        s->next[i] = s->head[at];
        s->head[at] = (int32_t)i;
    }
    int reach[3] = {1, 1, dim == 3 ? 1 : 0};
    for (size_t i = 0; i < s->n; i++) {
        int home[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++)
            home[k] = cell_of(s, s->x[i], k);
        int d[3];
        for (d[2] = -reach[2]; d[2] <= reach[2]; d[2]++)
            for (d[1] = -reach[1]; d[1] <= reach[1]; d[1]++)
                for (d[0] = -reach[0]; d[0] <= reach[0]; d[0]++) {
                    int c[3];
                    for (int k = 0; k < 3; k++) {
                        int m = s->cells[k];
                        c[k] = ((home[k] + d[k]) % m + m) % m;
                    }
                    for (int32_t j = s->head[cell_index(s, c)]; j >= 0; j = s->next[j])
                        if ((size_t)j > i && test_pair(s, i, (size_t)j))
                            return -1;
                }
    }
    return 0;
}

typedef struct octree_query {
    stepper *s;
    size_t i;
} octree_query;

static int visit_candidate(void *user, uint32_t j)
{
    octree_query *q = user;
    return j > q->i ? test_pair(q->s, q->i, j) : 0;
}

static int octree_pairs(stepper *s)
{
    int dim = s->scene->dim;
    double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < dim; k++)
        hi[k] = s->scene->box[k];
    if (carom_octree_build(&s->tree, dim, (const double(*)[3])s->x, s->n, lo, hi, NULL) != CAROM_OK)
        return -1;
    octree_query q = {s, 0};
    for (q.i = 0; q.i < s->n; q.i++) {
        double reach = s->scene->radius[q.i] + s->largest;
        /* Shifts of the query box on each axis: itself, and the image
         * one period over where it reaches out of the cell. */
        double shift[3][3];
        int shifts[3] = {1, 1, 1};
        for (int k = 0; k < 3; k++) {
            shift[k][0] = 0.0;
            if (k >= dim)
                continue;
            double L = s->scene->box[k];
            if (s->x[q.i][k] - reach < 0.0)
                shift[k][shifts[k]++] = L;
            if (s->x[q.i][k] + reach > L)
                shift[k][shifts[k]++] = -L;
        }
        for (int a = 0; a < shifts[0]; a++)
            for (int b = 0; b < shifts[1]; b++)
                for (int c = 0; c < shifts[2]; c++) {
                    double qlo[3], qhi[3], by[3] = {shift[0][a], shift[1][b], shift[2][c]};
                    for (int k = 0; k < 3; k++) {
                        qlo[k] = s->x[q.i][k] + by[k] - reach;
                        qhi[k] = s->x[q.i][k] + by[k] + reach;
                    }
                    if (carom_octree_query(&s->tree, qlo, qhi, visit_candidate, &q))
                        return -1;
                }
    }
    return 0;
}

/* The overlapping pairs at the current positions, into s->now. */
static int find_overlaps(stepper *s)
{
    s->now.count = 0;
    int failed = s->def.broad == CAROM_STEPPED_OCTREE      ? octree_pairs(s)
                 : s->def.broad == CAROM_STEPPED_ALL_PAIRS ? all_pairs(s)
                                                           : grid_pairs(s);
    if (failed)
        return -1;
    pair_sort(&s->now);
    return 0;
}

/* The grid's cells: at least as wide as the largest contact distance, and
 * no more than about two per sphere (wider cells only hold more spheres
 * each). */
static size_t set_up_grid(stepper *s, const carom_scene *scene)
{
    double cap = ceil(pow(2.0 * (double)(scene->n ? scene->n : 1), 1.0 / scene->dim));
    if (cap < 3.0)
        cap = 3.0;
    size_t total = 1;
    for (int k = 0; k < 3; k++) {
        if (k >= scene->dim) {
            s->cells[k] = 1;
            s->cell[k] = 1.0;
            continue;
        }
        double cells = s->largest > 0.0 ? floor(scene->box[k] / (2.0 * s->largest)) : 1.0;
        s->cells[k] = (int)(cells < cap ? cells : cap);
        s->cell[k] = scene->box[k] / s->cells[k];
        total *= (size_t)s->cells[k];
    }
    if (s->cells[0] < 3 || s->cells[1] < 3 || (scene->dim == 3 && s->cells[2] < 3)) {
        s->cells[0] = 0; /* test every pair */
        return 0;
    }
    return total;
}

static carom_status set_up(stepper *s, const carom_scene *scene, const carom_stepped_def *def,
                           carom_error *error)
{
    if (scene->dim != 2 && scene->dim != 3)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "the scene's dim is %d (2 or 3)",
                             scene->dim);
    if (!(def->dt > 0.0) || !isfinite(def->dt) || !(def->t_end >= 0.0) || !isfinite(def->t_end))
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "dt (%g) must be positive and t_end (%g) not negative, both finite",
                             def->dt, def->t_end);
    if (def->broad != CAROM_STEPPED_GRID && def->broad != CAROM_STEPPED_OCTREE &&
        def->broad != CAROM_STEPPED_ALL_PAIRS)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "unknown broad phase %d",
                             (int)def->broad);
    if (def->shape != CAROM_STEPPED_SPHERES && def->shape != CAROM_STEPPED_BOXES)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "unknown shape %d",
                             (int)def->shape);
    if (scene->n > (size_t)INT32_MAX)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "%zu spheres: at most %d", scene->n,
                             INT32_MAX);
    for (int k = 0; k < scene->dim; k++)
        if (scene->boundary[k] != CAROM_BOUNDARY_PERIODIC || !(scene->box[k] > 0.0))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "axis %c: the stepped baseline needs a periodic box "
                                 "of positive length",
                                 "xyz"[k]);
    s->scene = scene;
    s->def = *def;
    s->n = scene->n;
    for (size_t i = 0; i < scene->n; i++)
        if (scene->radius[i] > s->largest)
            s->largest = scene->radius[i];
    size_t cells = def->broad == CAROM_STEPPED_GRID ? set_up_grid(s, scene) : 0;
    s->x = malloc((scene->n ? scene->n : 1) * sizeof *s->x);
    s->next = malloc((scene->n ? scene->n : 1) * sizeof *s->next);
    s->head = cells ? malloc(cells * sizeof *s->head) : NULL;
    if (!s->x || !s->next || (cells && !s->head))
        return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres",
                             scene->n);
    return CAROM_OK;
}

static void tear_down(stepper *s)
{
    free(s->x);
    free(s->next);
    free(s->head);
    carom_octree_free(&s->tree);
    free(s->now.key);
    free(s->now.flags);
    free(s->before.key);
    free(s->before.flags);
}

static void report(stepper *s, uint64_t key, double t, carom_stepped_fn on_contact, void *user_data)
{
    const carom_scene *scene = s->scene;
    uint32_t i = (uint32_t)(key / s->n), j = (uint32_t)(key % s->n);
    double depth = sphere_overlap(s, i, j);
    double relative = depth / (scene->radius[i] + scene->radius[j]);
    if (relative > s->stats.max_depth)
        s->stats.max_depth = relative;
    s->stats.contacts++;
    if (on_contact)
        on_contact(user_data, i, j, t, depth);
}

/* A contact whose episode is over: false if its spheres never overlapped
 * at a sample. */
static void close_episode(stepper *s, uint8_t flags)
{
    if ((flags & EPISODE_CONTACT) && !(flags & EPISODE_TOUCHED))
        s->stats.false_contacts++;
}

/* Walks the sorted pairs of this sample (s->now) and of the one before:
 * a pair only in s->now begins an episode (a contact, reported, unless
 * this is the first sample), one in both continues it, one only before
 * ends it. */
static void follow_episodes(stepper *s, uint64_t k, double t, carom_stepped_fn on_contact,
                            void *user_data)
{
    pair_list *now = &s->now, *before = &s->before;
    size_t b = 0;
    for (size_t m = 0; m < now->count; m++) {
        uint64_t key = now->key[m];
        while (b < before->count && before->key[b] < key)
            close_episode(s, before->flags[b++]);
        uint8_t flags = 0;
        if (b < before->count && before->key[b] == key)
            flags = before->flags[b++];
        else if (k > 0) {
            flags = EPISODE_CONTACT;
            report(s, key, t, on_contact, user_data);
        }
        uint32_t i = (uint32_t)(key / s->n), j = (uint32_t)(key % s->n);
        if (!(flags & EPISODE_TOUCHED) &&
            (s->def.shape == CAROM_STEPPED_SPHERES || spheres_overlap(s, i, j))) {
            flags |= EPISODE_TOUCHED;
            s->stats.touched_contacts += (flags & EPISODE_CONTACT) != 0;
        }
        now->flags[m] = flags;
    }
    while (b < before->count)
        close_episode(s, before->flags[b++]);
}

carom_status carom_stepped_run(const carom_scene *scene, const carom_stepped_def *def,
                               carom_stepped_fn on_contact, void *user_data,
                               carom_stepped_stats *stats, carom_error *error)
{
    stepper s;
    memset(&s, 0, sizeof s);
    carom_octree_init(&s.tree);
    carom_status status = set_up(&s, scene, def, error);
    /* The last sample is t_end itself when t_end is a multiple of dt up
     * to round-off. */
    double last = status == CAROM_OK ? floor(def->t_end / def->dt + 1e-9) : -1.0;
    for (uint64_t k = 0; status == CAROM_OK && (double)k <= last; k++) {
        double t = (double)k * def->dt;
        positions_at(&s, t);
        if (find_overlaps(&s) != 0) {
            status = baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY,
                                   "out of memory for overlapping pairs");
            break;
        }
        s.stats.samples++;
        follow_episodes(&s, k, t, on_contact, user_data);
        pair_list swap = s.before;
        s.before = s.now;
        s.now = swap;
    }
    if (stats)
        *stats = s.stats;
    tear_down(&s);
    return status;
}
