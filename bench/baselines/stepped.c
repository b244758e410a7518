/* Time-stepped collision detection (contract in stepped.h).
 *
 * Each sample bins the spheres into a grid of cells at least as wide as
 * the largest contact distance, so that overlapping spheres lie in the
 * same or neighbouring cells, and tests each sphere against the spheres
 * of higher index in its 3^dim neighbourhood (every pair once). With
 * fewer than three cells on an axis the neighbourhood would hold a cell
 * twice, so such boxes test every pair. The overlapping pairs of a sample
 * are kept sorted, to tell new contacts from ones seen at the sample
 * before. */
#include "stepped.h"
#include "baseline_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pair_list {
    uint64_t *key; /* i * n + j, i < j, sorted */
    size_t count, capacity;
} pair_list;

typedef struct stepper {
    const carom_scene *scene;
    size_t n;
    double (*x)[3];   /* positions at the current sample, in the box */
    int cells[3];     /* per axis; 0: test every pair */
    double cell[3];   /* cell widths */
    int32_t *head;    /* first sphere of each cell, -1: none */
    int32_t *next;    /* next sphere in the same cell */
    pair_list now, before;
    carom_stepped_stats stats;
} stepper;

static int pair_add(pair_list *p, uint64_t key)
{
    if (p->count == p->capacity) {
        size_t capacity = p->capacity ? 2 * p->capacity : 256;
        uint64_t *grown = realloc(p->key, capacity * sizeof *grown);
        if (!grown)
            return -1;
        p->key = grown;
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

static int pair_contains(const pair_list *p, uint64_t key)
{
    return p->count > 0 && bsearch(&key, p->key, p->count, sizeof key, by_key) != NULL;
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

/* Contact distance minus distance (nearest image) of i and j. */
static double overlap(stepper *s, size_t i, size_t j)
{
    const carom_scene *sc = s->scene;
    double d2 = 0.0;
    for (int k = 0; k < sc->dim; k++) {
        double L = sc->box[k], d = s->x[j][k] - s->x[i][k];
        d -= L * round(d / L);
        d2 += d * d;
    }
    s->stats.pair_tests++;
    return sc->radius[i] + sc->radius[j] - sqrt(d2);
}

static int test_pair(stepper *s, size_t i, size_t j)
{
    if (overlap(s, i, j) > 0.0)
        return pair_add(&s->now, (uint64_t)i * s->n + j);
    return 0;
}

static int cell_of(const stepper *s, const double x[3], int k)
{
    int c = (int)(x[k] / s->cell[k]);
    return c < s->cells[k] ? c : s->cells[k] - 1;
}

static size_t cell_index(const stepper *s, const int c[3])
{
    return ((size_t)c[2] * (size_t)s->cells[1] + (size_t)c[1]) * (size_t)s->cells[0] +
           (size_t)c[0];
}

/* The overlapping pairs at the current positions, into s->now. */
static int find_overlaps(stepper *s)
{
    int dim = s->scene->dim;
    s->now.count = 0;
    if (s->cells[0] == 0) { /* every pair, in the order of their keys */
        for (size_t i = 0; i < s->n; i++)
            for (size_t j = i + 1; j < s->n; j++)
                if (test_pair(s, i, j))
                    return -1;
        return 0;
    }
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
    if (s->now.count > 1)
        qsort(s->now.key, s->now.count, sizeof *s->now.key, by_key);
    return 0;
}

static carom_status set_up(stepper *s, const carom_scene *scene, double dt, double t_end,
                           carom_error *error)
{
    if (scene->dim != 2 && scene->dim != 3)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "the scene's dim is %d (2 or 3)",
                             scene->dim);
    if (!(dt > 0.0) || !isfinite(dt) || !(t_end >= 0.0) || !isfinite(t_end))
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "dt (%g) must be positive and t_end (%g) not negative, both finite",
                             dt, t_end);
    if (scene->n > (size_t)INT32_MAX)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "%zu spheres: at most %d", scene->n,
                             INT32_MAX);
    double largest = 0.0;
    for (size_t i = 0; i < scene->n; i++)
        if (scene->radius[i] > largest)
            largest = scene->radius[i];
    /* No more cells than about two per sphere: wider cells only hold more
     * spheres each. */
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
        if (scene->boundary[k] != CAROM_BOUNDARY_PERIODIC || !(scene->box[k] > 0.0))
            return baseline_fail(
                error, CAROM_ERR_INVALID_ARGUMENT,
                "axis %c: the stepped baseline needs a periodic box of positive length", "xyz"[k]);
        double cells = largest > 0.0 ? floor(scene->box[k] / (2.0 * largest)) : 1.0;
        s->cells[k] = (int)(cells < cap ? cells : cap);
        s->cell[k] = scene->box[k] / s->cells[k];
        total *= (size_t)s->cells[k];
    }
    if (s->cells[0] < 3 || s->cells[1] < 3 || (scene->dim == 3 && s->cells[2] < 3))
        s->cells[0] = 0; /* test every pair */
    s->scene = scene;
    s->n = scene->n;
    s->x = malloc((scene->n ? scene->n : 1) * sizeof *s->x);
    s->next = malloc((scene->n ? scene->n : 1) * sizeof *s->next);
    s->head = s->cells[0] ? malloc(total * sizeof *s->head) : NULL;
    if (!s->x || !s->next || (s->cells[0] && !s->head))
        return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres",
                             scene->n);
    return CAROM_OK;
}

static void tear_down(stepper *s)
{
    free(s->x);
    free(s->next);
    free(s->head);
    free(s->now.key);
    free(s->before.key);
}

carom_status carom_stepped_run(const carom_scene *scene, double dt, double t_end,
                               carom_stepped_fn on_contact, void *user_data,
                               carom_stepped_stats *stats, carom_error *error)
{
    stepper s;
    memset(&s, 0, sizeof s);
    carom_status status = set_up(&s, scene, dt, t_end, error);
    /* The last sample is t_end itself when t_end is a multiple of dt up
     * to round-off. */
    double last = floor(t_end / dt + 1e-9);
    for (uint64_t k = 0; status == CAROM_OK && (double)k <= last; k++) {
        double t = (double)k * dt;
        positions_at(&s, t);
        if (find_overlaps(&s) != 0) {
            status = baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY,
                                   "out of memory for overlapping pairs");
            break;
        }
        s.stats.samples++;
        for (size_t m = 0; m < s.now.count && k > 0; m++) {
            uint64_t key = s.now.key[m];
            if (pair_contains(&s.before, key))
                continue;
            uint32_t i = (uint32_t)(key / s.n), j = (uint32_t)(key % s.n);
            double depth = overlap(&s, i, j);
            double relative = depth / (scene->radius[i] + scene->radius[j]);
            if (relative > s.stats.max_depth)
                s.stats.max_depth = relative;
            s.stats.contacts++;
            if (on_contact)
                on_contact(user_data, i, j, t, depth);
        }
        pair_list swap = s.before;
        s.before = s.now;
        s.now = swap;
    }
    if (stats)
        *stats = s.stats;
    tear_down(&s);
    return status;
}
