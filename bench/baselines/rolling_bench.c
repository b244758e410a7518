/* carom-rolling-bench: carom's exact detection against seed 001's
 * kinetic data structure for balls rolling on a plane (rolling.h) and
 * against kinetic sweep-and-prune (ksap.h), on the same balls.
 *
 * The scene: n balls with radii uniform in [--radius-min, --radius-max]
 * at random places (apart) in a square of side --side, velocities uniform
 * in [-1, 1]^2, straight paths, no response. carom and kinetic
 * sweep-and-prune see them as 3D spheres resting at height r_i above a
 * plane and moving parallel to it (carom report-only, in a walled box
 * that no ball reaches by the end); all three find the same contacts
 * (test_rolling, test_ksap). Each is timed over --time (median of
 * --runs); events are swaps for the kinetic structures and every event
 * popped for carom.
 *
 *   carom-rolling-bench [--n 3000] [--radius-min 0.1] [--radius-max 2]
 *                       [--side 300] [--time 20] [--runs 3] [--seed 1]
 *                       [--json FILE] [--csv FILE]
 *
 * Prints a Markdown table; --json and --csv write the same rows. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "carom/carom.h"
#include "carom/scene.h"
#include "ksap.h"
#include "rolling.h"

#define MAX_RUNS 15
#define PROGRAM "carom-rolling-bench"

typedef struct options {
    size_t n;
    double radius_min, radius_max, side, time;
    int runs;
    uint64_t seed;
    const char *json, *csv;
} options;

typedef struct row {
    const char *method;
    double seconds;
    uint64_t contacts, events;
} row;

static options parse(int argc, char **argv)
{
    options o = {3000, 0.1, 2.0, 300.0, 20.0, 3, 1, NULL, NULL};
    for (int a = 1; a < argc; a++) {
        const char *key = argv[a];
        if (a + 1 >= argc)
            bench_die(PROGRAM, key, "needs a value");
        const char *v = argv[++a];
        if (!strcmp(key, "--json"))
            o.json = v;
        else if (!strcmp(key, "--csv"))
            o.csv = v;
        else {
            double x = bench_number(PROGRAM, key, v);
            if (!strcmp(key, "--n"))
                o.n = (size_t)x;
            else if (!strcmp(key, "--radius-min"))
                o.radius_min = x;
            else if (!strcmp(key, "--radius-max"))
                o.radius_max = x;
            else if (!strcmp(key, "--side"))
                o.side = x;
            else if (!strcmp(key, "--time"))
                o.time = x;
            else if (!strcmp(key, "--runs"))
                o.runs = (int)x;
            else if (!strcmp(key, "--seed"))
                o.seed = (uint64_t)x;
            else
                bench_die(PROGRAM, key, "unknown option");
        }
    }
    if (o.n < 2 || !(o.radius_min > 0.0) || !(o.radius_max >= o.radius_min) || !(o.side > 0.0) ||
        !(o.time > 0.0) || o.runs < 1 || o.runs > MAX_RUNS)
        bench_die(PROGRAM, "options",
                  "need n >= 2, 0 < radius-min <= radius-max, side > 0, time > 0, "
                  "1 <= runs <= 15");
    return o;
}

static double uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

/* Random places, apart, by a grid of cells as wide as the largest contact
 * distance (2 radius-max). */
static carom_rolling_ball *make_balls(const options *o)
{
    carom_rolling_ball *b = malloc(o->n * sizeof *b);
    double cell = 2.0 * o->radius_max;
    int cells = (int)fmax(1.0, floor(o->side / cell));
    int32_t *head = malloc((size_t)cells * (size_t)cells * sizeof *head);
    int32_t *next = malloc(o->n * sizeof *next);
    if (!b || !head || !next)
        bench_die(PROGRAM, "scene", "out of memory");
    for (size_t c = 0; c < (size_t)cells * (size_t)cells; c++)
        head[c] = -1;
    uint64_t state = o->seed;
    for (size_t i = 0; i < o->n; i++) {
        b[i].radius = o->radius_min + (o->radius_max - o->radius_min) * uniform(&state);
        int tries = 0, cx = 0, cy = 0;
        for (int placed = 0; !placed; tries++) {
            if (tries > 10000)
                bench_die(PROGRAM, "scene", "too dense to place the balls; take a larger --side");
            b[i].position[0] = o->side * uniform(&state);
            b[i].position[1] = o->side * uniform(&state);
            cx = (int)fmin(cells - 1, b[i].position[0] / (o->side / cells));
            cy = (int)fmin(cells - 1, b[i].position[1] / (o->side / cells));
            placed = 1;
            for (int y = cy - 1; y <= cy + 1 && placed; y++)
                for (int x = cx - 1; x <= cx + 1 && placed; x++) {
                    if (x < 0 || y < 0 || x >= cells || y >= cells)
                        continue;
                    for (int32_t j = head[y * cells + x]; j >= 0 && placed; j = next[j]) {
                        double dx = b[i].position[0] - b[j].position[0];
                        double dy = b[i].position[1] - b[j].position[1];
                        placed = dx * dx + dy * dy > 4.0 * b[i].radius * b[j].radius * 1.0001;
                    }
                }
        }
        next[i] = head[cy * cells + cx];
        head[cy * cells + cx] = (int32_t)i;
        b[i].velocity[0] = 2.0 * uniform(&state) - 1.0;
        b[i].velocity[1] = 2.0 * uniform(&state) - 1.0;
    }
    free(head);
    free(next);
    return b;
}

/* The balls as 3D spheres resting on the plane z = 1 in a walled box that
 * no ball reaches by the end. */
static void sphere_scene(const options *o, const carom_rolling_ball *b, carom_scene *s)
{
    carom_error e;
    if (carom_scene_resize(s, o->n, &e) != CAROM_OK)
        bench_die(PROGRAM, "scene", e.message);
    double margin = 1.5 * o->time + 2.0 * o->radius_max + 1.0; /* speeds <= sqrt(2) */
    s->dim = 3;
    for (int k = 0; k < 3; k++)
        s->boundary[k] = CAROM_BOUNDARY_WALLS;
    s->box[0] = s->box[1] = o->side + 2.0 * margin;
    s->box[2] = 2.0 * o->radius_max + 2.0;
    for (size_t i = 0; i < o->n; i++) {
        for (int k = 0; k < 2; k++) {
            s->position[i][k] = b[i].position[k] + margin;
            s->velocity[i][k] = b[i].velocity[k];
        }
        s->position[i][2] = 1.0 + b[i].radius;
        s->velocity[i][2] = 0.0;
        s->radius[i] = b[i].radius;
    }
}

static row run_carom(const options *o, const carom_scene *s)
{
    carom_stats st = {0};
    double seconds = bench_time_carom(PROGRAM, s, o->time, o->runs, &st);
    return (row){"carom", seconds, st.collisions, st.events};
}

static row run_rolling(const options *o, const carom_rolling_ball *b)
{
    double seconds[MAX_RUNS];
    carom_rolling_stats st = {0};
    for (int r = 0; r < o->runs; r++) {
        carom_error e;
        double t0 = bench_now();
        if (carom_rolling_run(b, o->n, o->time, NULL, NULL, &st, &e) != CAROM_OK)
            bench_die(PROGRAM, "rolling", e.message);
        seconds[r] = bench_now() - t0;
    }
    return (row){"rolling (collision tree)", bench_median(seconds, o->runs), st.contacts, st.swaps};
}

static row run_ksap(const options *o, const carom_scene *s)
{
    double seconds[MAX_RUNS];
    carom_ksap_stats st = {0};
    for (int r = 0; r < o->runs; r++) {
        carom_error e;
        double t0 = bench_now();
        if (carom_ksap_run(s, o->time, NULL, NULL, &st, &e) != CAROM_OK)
            bench_die(PROGRAM, "ksap", e.message);
        seconds[r] = bench_now() - t0;
    }
    return (row){"ksap", bench_median(seconds, o->runs), st.contacts, st.swaps};
}

static void write_rows(const options *o, const row *rows, int n)
{
    printf("| method | seconds per simulated second | contacts | events |\n"
           "| --- | --- | --- | --- |\n");
    for (int k = 0; k < n; k++)
        printf("| %s | %.4g | %llu | %llu |\n", rows[k].method, rows[k].seconds / o->time,
               (unsigned long long)rows[k].contacts, (unsigned long long)rows[k].events);
    FILE *json = bench_open(PROGRAM, o->json), *csv = bench_open(PROGRAM, o->csv);
    if (json)
        fprintf(json,
                "{\"n\": %zu, \"radius_min\": %g, \"radius_max\": %g, \"side\": %g, "
                "\"time\": %g, \"runs\": %d, \"seed\": %llu, \"rows\": [",
                o->n, o->radius_min, o->radius_max, o->side, o->time, o->runs,
                (unsigned long long)o->seed);
    if (csv)
        fprintf(csv, "method,seconds_per_simulated_second,contacts,events\n");
    for (int k = 0; k < n; k++) {
        const row *r = &rows[k];
        if (json)
            fprintf(json,
                    "%s{\"method\": \"%s\", \"seconds_per_simulated_second\": %.6g, "
                    "\"contacts\": %llu, \"events\": %llu}",
                    k ? ", " : "", r->method, r->seconds / o->time, (unsigned long long)r->contacts,
                    (unsigned long long)r->events);
        if (csv)
            fprintf(csv, "%s,%.6g,%llu,%llu\n", r->method, r->seconds / o->time,
                    (unsigned long long)r->contacts, (unsigned long long)r->events);
    }
    bench_close(json, csv);
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    bench_check_writable(PROGRAM, o.json);
    bench_check_writable(PROGRAM, o.csv);
    carom_rolling_ball *b = make_balls(&o);
    carom_scene s;
    carom_scene_init(&s);
    sphere_scene(&o, b, &s);
    row rows[3] = {run_carom(&o, &s), run_rolling(&o, b), run_ksap(&o, &s)};
    if (rows[1].contacts != rows[0].contacts || rows[2].contacts != rows[0].contacts)
        bench_die(PROGRAM, "contacts", "the methods disagree (see test_rolling and test_ksap)");
    write_rows(&o, rows, 3);
    carom_scene_free(&s);
    free(b);
    return 0;
}
