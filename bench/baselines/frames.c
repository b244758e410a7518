/* Frame-by-frame detection with response (contract in frames.h).
 *
 * Within a frame each sphere keeps its own time t_i in [0, h] and its
 * position at that time; a pair's contact is searched from the later of
 * the two times, with the earlier sphere carried forward on its straight
 * path. The contact time is the root of |dr + dv tau| = sigma that does
 * not cancel, tau = c / (-b + sqrt(b^2 - v^2 c)) with b = dr . dv < 0 and
 * c = |dr|^2 - sigma^2 > 0; a pair already overlapping and approaching
 * meets at once (at its depth). Events of a frame or pass are sorted by
 * time (then by spheres, so runs repeat exactly) and taken in that order
 * by spheres that have not had one yet. */
#include "frames.h"
#include "baseline_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAIR (-1) /* an event's wall for a sphere pair */

typedef struct event {
    double t;
    uint32_t i, j; /* j unused for walls */
    int wall;      /* PAIR, or 2 axis + (1: the upper face) */
} event;

typedef struct framer {
    carom_scene *s;
    carom_frames_def def;
    double start;     /* the frame's start time */
    double *t;        /* per sphere: its time within the frame */
    uint8_t *taken;   /* per sphere: had an event in this frame or pass */
    uint8_t *changed; /* per sphere: changed in the pass before */
    event *events;
    size_t count, capacity;
    carom_frames_fn on_collision;
    void *user;
    carom_frames_stats stats;
} framer;

carom_frames_def carom_frames_default_def(carom_frames_method method)
{
    return (carom_frames_def){method, 1.0 / 60.0, 600, 1.0, 64, 1};
}

static double kinetic_energy(const carom_scene *s)
{
    double e = 0.0;
    for (size_t i = 0; i < s->n; i++)
        if (isfinite(s->mass[i]))
            for (int k = 0; k < s->dim; k++)
                e += 0.5 * s->mass[i] * s->velocity[i][k] * s->velocity[i][k];
    return e;
}

static double inverse_mass(const carom_scene *s, size_t i)
{
    return isfinite(s->mass[i]) ? 1.0 / s->mass[i] : 0.0;
}

static int add_event(framer *f, event e)
{
    if (f->count == f->capacity) {
        size_t capacity = f->capacity ? 2 * f->capacity : 256;
        event *grown = realloc(f->events, capacity * sizeof *grown);
        if (!grown)
            return -1;
        f->events = grown;
        f->capacity = capacity;
    }
    f->events[f->count++] = e;
    return 0;
}

static int by_time(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    if (x->wall != y->wall)
        return x->wall < y->wall ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Moves sphere i along its path to frame time t. */
static void advance(framer *f, size_t i, double t)
{
    for (int k = 0; k < f->s->dim; k++)
        f->s->position[i][k] += f->s->velocity[i][k] * (t - f->t[i]);
    f->t[i] = t;
}

/* The pair's separation j - i and relative velocity at frame time t. */
static void relative(const framer *f, size_t i, size_t j, double t, double dr[3], double dv[3])
{
    const carom_scene *s = f->s;
    for (int k = 0; k < 3; k++) {
        dr[k] = dv[k] = 0.0;
        if (k >= s->dim)
            continue;
        dv[k] = s->velocity[j][k] - s->velocity[i][k];
        dr[k] = s->position[j][k] + s->velocity[j][k] * (t - f->t[j]) -
                (s->position[i][k] + s->velocity[i][k] * (t - f->t[i]));
    }
}

/* The pair's contact in [max(t_i, t_j), h], if any. */
static int pair_event(framer *f, uint32_t i, uint32_t j)
{
    double t0 = fmax(f->t[i], f->t[j]), dr[3], dv[3];
    relative(f, i, j, t0, dr, dv);
    double b = 0.0, v2 = 0.0, r2 = 0.0, sigma = f->s->radius[i] + f->s->radius[j];
    for (int k = 0; k < 3; k++) {
        b += dr[k] * dv[k];
        v2 += dv[k] * dv[k];
        r2 += dr[k] * dr[k];
    }
    if (!(b < 0.0))
        return 0;
    double c = r2 - sigma * sigma, tau = 0.0;
    if (c > 0.0) {
        double disc = b * b - v2 * c;
        if (disc < 0.0)
            return 0;
        tau = c / (-b + sqrt(disc));
    }
    return t0 + tau <= f->def.frame ? add_event(f, (event){t0 + tau, i, j, PAIR}) : 0;
}

/* Sphere i's first wall contact in [t_i, h], if any (moving towards the
 * face; at once if already past it). */
static int wall_event(framer *f, uint32_t i)
{
    const carom_scene *s = f->s;
    double r = s->radius[i], best = INFINITY;
    int wall = PAIR;
    for (int k = 0; k < s->dim; k++) {
        double x = s->position[i][k], v = s->velocity[i][k], tau = INFINITY;
        if (v > 0.0)
            tau = fmax(0.0, (s->box[k] - r - x) / v);
        else if (v < 0.0)
            tau = fmax(0.0, (x - r) / -v);
        if (tau < best) {
            best = tau;
            wall = 2 * k + (v > 0.0);
        }
    }
    double t = f->t[i] + best;
    return wall != PAIR && t <= f->def.frame ? add_event(f, (event){t, i, 0, wall}) : 0;
}

static void note_depth(framer *f, double depth, double sigma)
{
    if (depth / sigma > f->stats.max_depth)
        f->stats.max_depth = depth / sigma;
}

/* The impulse of a touching or overlapping approaching pair (positions at
 * the same time). */
static void collide(framer *f, uint32_t i, uint32_t j, double t)
{
    carom_scene *s = f->s;
    double dr[3], dv[3];
    relative(f, i, j, fmax(f->t[i], f->t[j]), dr, dv);
    double d = sqrt(dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2]);
    double sigma = s->radius[i] + s->radius[j];
    if (!(d > 0.0))
        return;
    note_depth(f, sigma - d, sigma);
    double vn = 0.0, wi = inverse_mass(s, i), wj = inverse_mass(s, j);
    for (int k = 0; k < 3; k++)
        vn += dv[k] * dr[k] / d;
    if (!(vn < 0.0) || !(wi + wj > 0.0))
        return;
    double impulse = -(1.0 + f->def.restitution) * vn / (wi + wj);
    for (int k = 0; k < s->dim; k++) {
        s->velocity[i][k] -= impulse * wi * dr[k] / d;
        s->velocity[j][k] += impulse * wj * dr[k] / d;
    }
    f->stats.collisions++;
    if (f->on_collision)
        f->on_collision(f->user, i, j, f->start + t);
}

static void reflect(framer *f, uint32_t i, int wall)
{
    f->s->velocity[i][wall / 2] = -f->s->velocity[i][wall / 2];
    f->stats.wall_hits++;
}

/* Takes the sorted events in order: each sphere its first. Returns how
 * many were taken. */
static size_t take_events(framer *f)
{
    if (f->count > 1)
        qsort(f->events, f->count, sizeof *f->events, by_time);
    size_t taken = 0;
    for (size_t m = 0; m < f->count; m++) {
        const event *e = &f->events[m];
        if (f->taken[e->i] || (e->wall == PAIR && f->taken[e->j]))
            continue;
        advance(f, e->i, e->t);
        f->taken[e->i] = 1;
        if (e->wall == PAIR) {
            advance(f, e->j, e->t);
            f->taken[e->j] = 1;
            collide(f, e->i, e->j, e->t);
        } else {
            reflect(f, e->i, e->wall);
        }
        taken++;
    }
    return taken;
}

/* Events of the pairs with a changed sphere, and of changed spheres'
 * walls (all of them when every sphere counts as changed). */
static int find_events(framer *f)
{
    size_t n = f->s->n;
    f->count = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (f->changed[i] && wall_event(f, i))
            return -1;
        for (uint32_t j = i + 1; j < n; j++)
            if ((f->changed[i] || f->changed[j]) && pair_event(f, i, j))
                return -1;
    }
    return 0;
}

static int predictive_frame(framer *f)
{
    size_t n = f->s->n;
    double h = f->def.frame;
    for (size_t i = 0; i < n; i++) {
        f->t[i] = 0.0;
        f->changed[i] = 1;
    }
    int passes = f->def.method == CAROM_FRAMES_SINGLE ? 1 : f->def.max_passes;
    for (int pass = 0; pass < passes; pass++) {
        memset(f->taken, 0, n);
        if (find_events(f))
            return -1;
        f->stats.passes++;
        size_t taken = take_events(f);
        if (taken == 0)
            break;
        if (pass + 1 == passes && f->def.method == CAROM_FRAMES_MULTIPLE)
            f->stats.pass_limits++;
        memcpy(f->changed, f->taken, n);
    }
    for (size_t i = 0; i < n; i++) {
        if (f->def.method == CAROM_FRAMES_SINGLE && f->taken[i]) {
            f->stats.lost_travel += (h - f->t[i]) / h; /* stays at its collision */
            f->t[i] = h;
        }
        advance(f, i, h);
    }
    return 0;
}

static void retroactive_frame(framer *f)
{
    carom_scene *s = f->s;
    double h = f->def.frame;
    for (size_t i = 0; i < s->n; i++) {
        f->t[i] = 0.0;
        advance(f, i, h);
        for (int k = 0; k < s->dim; k++) {
            double r = s->radius[i], *x = &s->position[i][k], *v = &s->velocity[i][k];
            if (*x < r || *x > s->box[k] - r) {
                int upper = *x > s->box[k] - r;
                *x = upper ? s->box[k] - r : r;
                if (upper ? *v > 0.0 : *v < 0.0)
                    reflect(f, (uint32_t)i, 2 * k + upper);
            }
        }
    }
    for (uint32_t i = 0; i < s->n; i++)
        for (uint32_t j = i + 1; j < s->n; j++) {
            double dr[3], dv[3];
            relative(f, i, j, h, dr, dv);
            double d2 = dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2];
            double sigma = s->radius[i] + s->radius[j];
            if (!(d2 < sigma * sigma))
                continue;
            collide(f, i, j, h);
            double d = sqrt(d2), wi = inverse_mass(s, i), wj = inverse_mass(s, j);
            if (!(d > 0.0) || !(wi + wj > 0.0))
                continue;
            double push = (sigma - d) / d / (wi + wj); /* apart until touching */
            for (int k = 0; k < s->dim; k++) {
                s->position[i][k] -= push * wi * dr[k];
                s->position[j][k] += push * wj * dr[k];
            }
        }
}

static void measure_overlaps(framer *f)
{
    const carom_scene *s = f->s;
    for (uint32_t i = 0; i < s->n; i++)
        for (uint32_t j = i + 1; j < s->n; j++) {
            double dr[3], dv[3];
            relative(f, i, j, f->def.frame, dr, dv);
            double sigma = s->radius[i] + s->radius[j];
            double depth = sigma - sqrt(dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2]);
            if (depth / sigma > f->stats.max_overlap)
                f->stats.max_overlap = depth / sigma;
        }
}

static carom_status check(const carom_scene *s, const carom_frames_def *def, carom_error *error)
{
    if (s->dim != 2 && s->dim != 3)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "the scene's dim is %d (2 or 3)",
                             s->dim);
    if (def->method != CAROM_FRAMES_RETROACTIVE && def->method != CAROM_FRAMES_SINGLE &&
        def->method != CAROM_FRAMES_MULTIPLE)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "unknown method %d",
                             (int)def->method);
    if (!(def->frame > 0.0) || !isfinite(def->frame) || !(def->restitution >= 0.0) ||
        !(def->restitution <= 1.0) || def->max_passes < 1)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "need frame > 0 (%g), restitution in [0, 1] (%g), max_passes >= 1 "
                             "(%d)",
                             def->frame, def->restitution, def->max_passes);
    if (s->n > UINT32_MAX)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "%zu spheres: too many", s->n);
    for (int k = 0; k < s->dim; k++)
        if (s->boundary[k] != CAROM_BOUNDARY_WALLS || !(s->box[k] > 0.0) || !isfinite(s->box[k]))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "axis %c: the frames baseline needs walls and a positive length",
                                 "xyz"[k]);
    for (size_t i = 0; i < s->n; i++) {
        if (!(s->radius[i] > 0.0) || !(s->mass[i] > 0.0))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "sphere %zu: radius and mass must be positive", i);
        for (int k = 0; k < s->dim; k++)
            if (!isfinite(s->velocity[i][k]) || !(s->position[i][k] >= s->radius[i]) ||
                !(s->position[i][k] <= s->box[k] - s->radius[i]))
                return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                     "sphere %zu: not inside the box, or its velocity is not "
                                     "finite",
                                     i);
    }
    return CAROM_OK;
}

carom_status carom_frames_run(carom_scene *scene, const carom_frames_def *def,
                              carom_frames_fn on_collision, void *user_data,
                              carom_frames_stats *stats, carom_error *error)
{
    carom_status status = check(scene, def, error);
    if (status != CAROM_OK)
        return status;
    framer f;
    memset(&f, 0, sizeof f);
    f.s = scene;
    f.def = *def;
    f.on_collision = on_collision;
    f.user = user_data;
    size_t n = scene->n ? scene->n : 1;
    f.t = calloc(n, sizeof *f.t);
    f.taken = calloc(n, 1);
    f.changed = calloc(n, 1);
    f.stats.energy_start = kinetic_energy(scene);
    if (!f.t || !f.taken || !f.changed)
        status = baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres", n);
    for (uint64_t frame = 0; status == CAROM_OK && frame < def->frames; frame++) {
        f.start = (double)frame * def->frame;
        if (def->method == CAROM_FRAMES_RETROACTIVE)
            retroactive_frame(&f);
        else if (predictive_frame(&f) != 0)
            status = baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for events");
        if (def->measure)
            measure_overlaps(&f);
        for (size_t i = 0; i < scene->n; i++)
            f.t[i] = 0.0; /* positions are at the frame's end: its new start */
    }
    f.stats.energy_end = kinetic_energy(scene);
    if (scene->n && def->frames)
        f.stats.lost_travel /= (double)scene->n * (double)def->frames;
    if (stats)
        *stats = f.stats;
    free(f.t);
    free(f.taken);
    free(f.changed);
    free(f.events);
    return status;
}
