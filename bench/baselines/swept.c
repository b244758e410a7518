/* Stepped continuous detection (contract in swept.h).
 *
 * Each step folds the straight paths to its start, has the broad phase
 * offer the pairs within their contact distance plus the margin 2 v_max
 * dt, and solves |dr + dv tau| = sigma for those approaching and not yet
 * touching, with the root tau = c / (-b + sqrt(b^2 - v^2 c)) that does not
 * cancel (b = dr . dv < 0, c = |dr|^2 - sigma^2 > 0). A pair touching at
 * a step's start met in the step before (or at t = 0, which is not a
 * contact). The step's contacts are sorted by time, repeats dropped (the
 * broad phase may offer a pair twice), and reported. */
#include "swept.h"
#include "baseline_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct hit {
    double t;
    uint32_t i, j;
} hit;

typedef struct sweeper {
    const carom_scene *scene;
    double (*x)[3]; /* positions at the step's start, in the box */
    carom_broad_phase broad;
    double start, span; /* the current step */
    hit *hits;          /* its contacts */
    size_t count, capacity;
    carom_swept_stats stats;
} sweeper;

static int add_hit(sweeper *s, uint32_t i, uint32_t j, double t)
{
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? 2 * s->capacity : 256;
        hit *grown = realloc(s->hits, capacity * sizeof *grown);
        if (!grown)
            return -1;
        s->hits = grown;
        s->capacity = capacity;
    }
    s->hits[s->count++] = (hit){t, i, j};
    return 0;
}

static int offered(void *user, uint32_t i, uint32_t j)
{
    sweeper *s = user;
    const carom_scene *sc = s->scene;
    s->stats.candidates++;
    double b = 0.0, v2 = 0.0, r2 = 0.0;
    for (int k = 0; k < sc->dim; k++) {
        double dr = carom_broad_separation(s->x[i][k], s->x[j][k], sc->box[k]);
        double dv = sc->velocity[j][k] - sc->velocity[i][k];
        b += dr * dv;
        v2 += dv * dv;
        r2 += dr * dr;
    }
    double sigma = sc->radius[i] + sc->radius[j], c = r2 - sigma * sigma;
    if (!(b < 0.0) || !(c > 0.0))
        return 0;
    double disc = b * b - v2 * c;
    if (disc < 0.0)
        return 0;
    double tau = c / (-b + sqrt(disc));
    return tau <= s->span ? add_hit(s, i, j, s->start + tau) : 0;
}

static int by_time(const void *a, const void *b)
{
    const hit *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

static carom_status set_up(sweeper *s, const carom_scene *scene, const carom_swept_def *def,
                           carom_error *error)
{
    if (!(def->dt > 0.0) || !isfinite(def->dt) || !(def->t_end >= 0.0) || !isfinite(def->t_end))
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "dt (%g) must be positive and t_end (%g) not negative, both finite",
                             def->dt, def->t_end);
    double fastest = 0.0, largest = 0.0;
    for (size_t i = 0; i < scene->n; i++) {
        double v2 = 0.0;
        for (int k = 0; k < 3; k++)
            v2 += scene->velocity[i][k] * scene->velocity[i][k];
        if (!isfinite(v2))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "sphere %zu: its velocity is not finite", i);
        fastest = fmax(fastest, sqrt(v2));
        largest = fmax(largest, scene->radius[i]);
    }
    double margin = 2.0 * fastest * def->dt;
    carom_status status = carom_broad_phase_init(&s->broad, def->broad, scene, margin, error);
    if (status != CAROM_OK)
        return status;
    for (int k = 0; k < scene->dim; k++)
        if (!(scene->box[k] > 2.0 * (2.0 * largest + margin)))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "axis %c: the box (%g) must be wider than twice the largest "
                                 "contact distance plus 2 v_max dt (%g); take a shorter dt",
                                 "xyz"[k], scene -> box[k], 2.0 * (2.0 * largest + margin));
    s->scene = scene;
    s->x = malloc((scene->n ? scene->n : 1) * sizeof *s->x);
    if (!s->x)
        return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres",
                             scene->n);
    return CAROM_OK;
}

/* Reports the step's contacts in time order, each once. */
static void report_step(sweeper *s, carom_swept_fn on_contact, void *user_data)
{
    if (s->count > 1)
        qsort(s->hits, s->count, sizeof *s->hits, by_time);
    for (size_t m = 0; m < s->count; m++) {
        const hit *h = &s->hits[m];
        if (m > 0 && by_time(h, h - 1) == 0)
            continue;
        s->stats.contacts++;
        if (on_contact)
            on_contact(user_data, h->i, h->j, h->t);
    }
}

carom_status carom_swept_run(const carom_scene *scene, const carom_swept_def *def,
                             carom_swept_fn on_contact, void *user_data, carom_swept_stats *stats,
                             carom_error *error)
{
    sweeper s;
    memset(&s, 0, sizeof s);
    carom_status status = set_up(&s, scene, def, error);
    /* Steps of dt, the last one ending at t_end (shorter if dt does not
     * divide it, up to round-off of 1e-9 of a step). */
    double steps = status == CAROM_OK ? ceil(def->t_end / def->dt - 1e-9) : 0.0;
    for (uint64_t k = 0; status == CAROM_OK && (double)k < steps; k++) {
        s.start = (double)k * def->dt;
        s.span = fmin(def->dt, def->t_end - s.start);
        s.count = 0;
        carom_broad_straight_positions(scene, s.start, s.x);
        if (carom_broad_phase_pairs(&s.broad, (const double(*)[3])s.x, offered, &s) != 0) {
            status = baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for contacts");
            break;
        }
        s.stats.steps++;
        report_step(&s, on_contact, user_data);
    }
    if (stats)
        *stats = s.stats;
    free(s.x);
    free(s.hits);
    carom_broad_phase_free(&s.broad);
    return status;
}
