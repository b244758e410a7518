/* Time-stepped collision detection (contract in stepped.h).
 *
 * Every sample folds the straight paths into the box, lets the broad
 * phase (broad_phase.h) offer the pairs that could overlap, and keeps
 * those that do (as spheres or as boxes), sorted and without repeats, to
 * tell new contacts from ones seen at the sample before. */
#include "stepped.h"
#include "baseline_error.h"

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
    double (*x)[3]; /* positions at the current sample, in the box */
    carom_broad_phase broad;
    pair_list now, before;
    carom_stepped_stats stats;
} stepper;

carom_stepped_def carom_stepped_default_def(double dt, double t_end)
{
    return (carom_stepped_def){dt, t_end, CAROM_BROAD_GRID, CAROM_STEPPED_SPHERES};
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

/* Separation of j from i on axis k (nearest image). */
static double separation(const stepper *s, size_t i, size_t j, int k)
{
    return carom_broad_separation(s->x[i][k], s->x[j][k], s->scene->box[k]);
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

static int test_pair(stepper *s, uint32_t i, uint32_t j)
{
    s->stats.pair_tests++;
    int overlaps =
        s->def.shape == CAROM_STEPPED_BOXES ? boxes_overlap(s, i, j) : spheres_overlap(s, i, j);
    return overlaps ? pair_add(&s->now, (uint64_t)i * s->n + j) : 0;
}

static int offered(void *user, uint32_t i, uint32_t j)
{
    return test_pair(user, i, j);
}

/* The overlapping pairs at the current positions, into s->now. */
static int find_overlaps(stepper *s)
{
    s->now.count = 0;
    if (carom_broad_phase_pairs(&s->broad, (const double(*)[3])s->x, offered, s) != 0)
        return -1;
    pair_sort(&s->now);
    return 0;
}

static carom_status set_up(stepper *s, const carom_scene *scene, const carom_stepped_def *def,
                           carom_error *error)
{
    if (!(def->dt > 0.0) || !isfinite(def->dt) || !(def->t_end >= 0.0) || !isfinite(def->t_end))
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "dt (%g) must be positive and t_end (%g) not negative, both finite",
                             def->dt, def->t_end);
    if (def->shape != CAROM_STEPPED_SPHERES && def->shape != CAROM_STEPPED_BOXES)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "unknown shape %d",
                             (int)def->shape);
    carom_status status = carom_broad_phase_init(&s->broad, def->broad, scene, 0.0, error);
    if (status != CAROM_OK)
        return status;
    s->scene = scene;
    s->def = *def;
    s->n = scene->n;
    s->x = malloc((scene->n ? scene->n : 1) * sizeof *s->x);
    if (!s->x)
        return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres",
                             scene->n);
    return CAROM_OK;
}

static void tear_down(stepper *s)
{
    free(s->x);
    carom_broad_phase_free(&s->broad);
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
    carom_status status = set_up(&s, scene, def, error);
    /* The last sample is t_end itself when t_end is a multiple of dt up
     * to round-off. */
    double last = status == CAROM_OK ? floor(def->t_end / def->dt + 1e-9) : -1.0;
    for (uint64_t k = 0; status == CAROM_OK && (double)k <= last; k++) {
        double t = (double)k * def->dt;
        carom_broad_straight_positions(scene, t, s.x);
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
