/* carom-stepped-bench: carom's exact detection against time-stepped
 * detection (stepped.h) and kinetic sweep-and-prune (ksap.h) on the same
 * straight-flying spheres.
 *
 * The scene: n spheres in a periodic cube at a volume (2D: area) fraction,
 * radius 0.5 or radii uniform in [0.25, 0.5] (--poly 1), Maxwell-Boltzmann
 * velocities at m = 1 and --kT (default 1; faster spheres tunnel more),
 * no response (each method only detects; carom runs report-only). For
 * carom and for every dt the program times
 * detection over --time (median of --runs), and counts the contacts each
 * finds. carom's are every contact there is; stepping's recall is the
 * share of them it sees, and its depth how far spheres had gone into
 * each other when it saw them. With --ksap 1 (the default) the same
 * spheres also run in open space (the middle of a walled box that no
 * sphere reaches by the end), through carom and through kinetic
 * sweep-and-prune, which find the same contacts (test_ksap).
 *
 * Stepping finds each sample's overlaps with the broad phases of --broad
 * (grid, octree, all: seed 002's spatial partition and its O(n^2)
 * algorithms; all find the same pairs) and, with --boxes 1, also with
 * seed 002's bounding boxes instead of the spheres (its rows count the
 * false contacts: boxes that part before their spheres are seen to
 * overlap; share found counts contacts whose spheres were seen to
 * overlap; box rows give no depth). With --swept 1 it also runs
 * stepped continuous detection (swept.h: every contact at its exact time,
 * found from each step's broad phase widened by 2 v_max dt) at each dt
 * and broad phase; --stepped 0 leaves out the time-stepped rows.
 *
 *   carom-stepped-bench [--dim 3] [--n 10000] [--packing 0.1] [--poly 0]
 *                       [--time 2] [--kT 1] [--runs 3] [--ksap 1]
 *                       [--dt 0.001,0.002,0.005,0.01,0.02,0.05,0.1]
 *                       [--broad grid] [--boxes 0] [--stepped 1] [--swept 0]
 *                       [--seed 1] [--json FILE] [--csv FILE]
 *
 * Every dt must divide --time, so that the last sample is at the end:
 * a contact is then missed only if its overlap holds no sample. Prints a
 * Markdown table; --json and --csv write the same rows. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "carom/carom.h"
#include "carom/scene.h"
#include "ksap.h"
#include "stepped.h"
#include "swept.h"

#define MAX_DTS 16
#define MAX_RUNS 15
#define BROADS 3

typedef struct options {
    int dim, poly, runs, ksap, boxes, stepped, swept;
    size_t n;
    double packing, time, kT;
    double dt[MAX_DTS];
    int dts;
    carom_broad_kind broad[BROADS];
    int broads;
    uint64_t seed;
    const char *json, *csv;
} options;

typedef struct row {
    char method[32];
    double dt; /* 0: exact */
    double seconds;
    uint64_t contacts, false_contacts;
    double recall, max_depth, mean_depth;
} row;

static const char *const broad_name[BROADS] = {"grid", "octree", "all pairs"};

#define PROGRAM "carom-stepped-bench"

static void die(const char *what, const char *message)
{
    bench_die(PROGRAM, what, message);
}

static double number(const char *key, const char *text)
{
    return bench_number(PROGRAM, key, text);
}

static options parse(int argc, char **argv)
{
    options o = {.dim = 3,
                 .runs = 3,
                 .ksap = 1,
                 .stepped = 1,
                 .n = 10000,
                 .packing = 0.1,
                 .time = 2.0,
                 .kT = 1.0,
                 .dt = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1},
                 .dts = 7,
                 .broad = {CAROM_BROAD_GRID},
                 .broads = 1,
                 .seed = 1};
    for (int a = 1; a < argc; a++) {
        const char *key = argv[a];
        if (a + 1 >= argc)
            die(key, "needs a value");
        const char *v = argv[++a];
        if (!strcmp(key, "--dim"))
            o.dim = (int)number(key, v);
        else if (!strcmp(key, "--n"))
            o.n = (size_t)number(key, v);
        else if (!strcmp(key, "--packing"))
            o.packing = number(key, v);
        else if (!strcmp(key, "--poly"))
            o.poly = (int)number(key, v);
        else if (!strcmp(key, "--time"))
            o.time = number(key, v);
        else if (!strcmp(key, "--kT"))
            o.kT = number(key, v);
        else if (!strcmp(key, "--runs"))
            o.runs = (int)number(key, v);
        else if (!strcmp(key, "--ksap"))
            o.ksap = (int)number(key, v);
        else if (!strcmp(key, "--boxes"))
            o.boxes = (int)number(key, v);
        else if (!strcmp(key, "--stepped"))
            o.stepped = (int)number(key, v);
        else if (!strcmp(key, "--swept"))
            o.swept = (int)number(key, v);
        else if (!strcmp(key, "--seed"))
            o.seed = (uint64_t)number(key, v);
        else if (!strcmp(key, "--json"))
            o.json = v;
        else if (!strcmp(key, "--csv"))
            o.csv = v;
        else if (!strcmp(key, "--dt")) {
            char buffer[512];
            snprintf(buffer, sizeof buffer, "%s", v);
            o.dts = 0;
            for (char *t = strtok(buffer, ","); t; t = strtok(NULL, ","))
                if (o.dts < MAX_DTS)
                    o.dt[o.dts++] = number(key, t);
        } else if (!strcmp(key, "--broad")) {
            char buffer[64];
            snprintf(buffer, sizeof buffer, "%s", v);
            o.broads = 0;
            for (char *t = strtok(buffer, ","); t; t = strtok(NULL, ",")) {
                int b = !strcmp(t, "grid")     ? 0
                        : !strcmp(t, "octree") ? 1
                        : !strcmp(t, "all")    ? 2
                                               : -1;
                if (b < 0 || o.broads == BROADS)
                    die(key, "expected up to three of grid, octree, all");
                o.broad[o.broads++] = (carom_broad_kind)b;
            }
        } else
            die(key, "unknown option");
    }
    if ((o.dim != 2 && o.dim != 3) || o.n < 2 || !(o.packing > 0.0 && o.packing < 0.5) ||
        !(o.time > 0.0) || !(o.kT > 0.0) || o.runs < 1 || o.runs > MAX_RUNS || o.dts < 1)
        die("options", "need dim 2 or 3, n >= 2, 0 < packing < 0.5, time > 0, kT > 0, "
                       "1 <= runs <= 15, and at least one dt");
    for (int k = 0; k < o.dts; k++) {
        double steps = o.time / o.dt[k];
        if (!(o.dt[k] > 0.0) || fabs(steps - round(steps)) > 1e-9 * steps)
            die("--dt", "every dt must be positive and divide --time (so that the "
                        "last sample "
                        "is at the end and every method sees the same contacts)");
    }
    return o;
}

static void build_scene(const options *o, carom_scene *s)
{
    carom_error e;
    double mean_radius = o->poly ? 0.375 : 0.5;
    double L = carom_box_length_for_packing(o->dim, o->n, mean_radius, o->packing);
    s->dim = o->dim;
    for (int k = 0; k < 3; k++) {
        s->box[k] = L;
        s->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    if (carom_scene_resize(s, o->n, &e) != CAROM_OK ||
        (o->poly && carom_scene_random_radii(s, 0.25, 0.5, o->seed, &e) != CAROM_OK) ||
        carom_scene_place_random(s, o->seed + 1, &e) != CAROM_OK ||
        carom_scene_maxwell_velocities(s, o->kT, o->seed + 2, &e) != CAROM_OK)
        die("scene", e.message);
}

static row run_carom(const options *o, const carom_scene *s)
{
    carom_stats st = {0};
    double seconds = bench_time_carom(PROGRAM, s, o->time, o->runs, &st);
    return (row){"carom", 0.0, seconds, st.collisions, 0, 1.0, 0.0, 0.0};
}

typedef struct depth_sum {
    const carom_scene *s;
    double total;
} depth_sum;

static void add_depth(void *user, uint32_t i, uint32_t j, double t, double depth)
{
    depth_sum *d = user;
    (void)t;
    d->total += depth / (d->s->radius[i] + d->s->radius[j]);
}

/* Stepping at dt with a broad phase and shape. Share found counts the
 * contacts whose spheres overlap; depths are means over those. */
static row run_stepped(const options *o, const carom_scene *s, double dt, carom_broad_kind broad,
                       carom_stepped_shape shape, uint64_t exact)
{
    double seconds[MAX_RUNS];
    carom_stepped_stats st = {0};
    depth_sum depths = {s, 0.0};
    carom_stepped_def def = carom_stepped_default_def(dt, o->time);
    def.broad = broad;
    def.shape = shape;
    for (int r = 0; r < o->runs; r++) {
        carom_error e;
        depths.total = 0.0;
        double t0 = bench_now();
        if (carom_stepped_run(s, &def, add_depth, &depths, &st, &e) != CAROM_OK)
            die("stepped", e.message);
        seconds[r] = bench_now() - t0;
    }
    /* A box contact's depth is the spheres' when the boxes meet, most
     * often before the spheres do: none is given. */
    int boxes = shape == CAROM_STEPPED_BOXES;
    double recall = exact ? (double)st.touched_contacts / (double)exact : 0.0;
    double mean = st.contacts && !boxes ? depths.total / (double)st.contacts : 0.0;
    row out = {.dt = dt,
               .seconds = bench_median(seconds, o->runs),
               .contacts = st.contacts,
               .false_contacts = st.false_contacts,
               .recall = recall,
               .max_depth = boxes ? 0.0 : st.max_depth,
               .mean_depth = mean};
    const char *what = boxes ? "boxes" : "stepped";
    if (broad == CAROM_BROAD_GRID)
        snprintf(out.method, sizeof out.method, "%s", what);
    else
        snprintf(out.method, sizeof out.method, "%s, %s", what, broad_name[broad]);
    return out;
}

/* Stepped continuous detection at dt with a broad phase: exact contacts,
 * so no depth. */
static row run_swept(const options *o, const carom_scene *s, double dt, carom_broad_kind broad,
                     uint64_t exact)
{
    double seconds[MAX_RUNS];
    carom_swept_stats st = {0};
    carom_swept_def def = {dt, o->time, broad};
    for (int r = 0; r < o->runs; r++) {
        carom_error e;
        double t0 = bench_now();
        if (carom_swept_run(s, &def, NULL, NULL, &st, &e) != CAROM_OK)
            die("swept", e.message);
        seconds[r] = bench_now() - t0;
    }
    row out = {.dt = dt,
               .seconds = bench_median(seconds, o->runs),
               .contacts = st.contacts,
               .recall = exact ? (double)st.contacts / (double)exact : 0.0};
    if (broad == CAROM_BROAD_GRID)
        snprintf(out.method, sizeof out.method, "swept");
    else
        snprintf(out.method, sizeof out.method, "swept, %s", broad_name[broad]);
    return out;
}

/* The same spheres in open space: in the middle of a walled box that no
 * sphere reaches by the end, where kinetic sweep-and-prune and carom see
 * the same straight paths. */
static void open_scene(const options *o, const carom_scene *periodic, carom_scene *s)
{
    carom_error e;
    if (carom_scene_resize(s, periodic->n, &e) != CAROM_OK)
        die("scene", e.message);
    double fastest = 0.0;
    for (size_t i = 0; i < periodic->n; i++) {
        double v2 = 0.0;
        for (int k = 0; k < 3; k++)
            v2 += periodic->velocity[i][k] * periodic->velocity[i][k];
        fastest = fmax(fastest, sqrt(v2));
    }
    double margin = fastest * o->time + 2.0;
    s->dim = periodic->dim;
    for (int k = 0; k < 3; k++) {
        s->box[k] = periodic->box[k] + 2.0 * margin;
        s->boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    for (size_t i = 0; i < s->n; i++) {
        for (int k = 0; k < 3; k++) {
            s->position[i][k] = periodic->position[i][k] + (k < s->dim ? margin : 0.0);
            s->velocity[i][k] = periodic->velocity[i][k];
        }
        s->radius[i] = periodic->radius[i];
        s->mass[i] = periodic->mass[i];
    }
}

/* carom and kinetic sweep-and-prune on the open scene: rows 0 and 1. */
static void run_open(const options *o, const carom_scene *s, row out[2])
{
    double seconds[MAX_RUNS];
    carom_ksap_stats ks = {0};
    for (int r = 0; r < o->runs; r++) {
        carom_error e;
        double t0 = bench_now();
        if (carom_ksap_run(s, o->time, NULL, NULL, &ks, &e) != CAROM_OK)
            die("ksap", e.message);
        seconds[r] = bench_now() - t0;
    }
    out[0] = run_carom(o, s);
    snprintf(out[0].method, sizeof out[0].method, "carom (open)");
    double recall = out[0].contacts ? (double)ks.contacts / (double)out[0].contacts : 0.0;
    out[1] =
        (row){"ksap (open)", 0.0, bench_median(seconds, o->runs), ks.contacts, 0, recall, 0.0, 0.0};
}

static void write_rows(const options *o, const row *rows, int n)
{
    printf("| method | dt | seconds per simulated second | contacts | false "
           "contacts | share found "
           "| mean depth | largest depth |\n| --- | --- | --- | --- | --- | --- "
           "| --- | --- |\n");
    for (int k = 0; k < n; k++) {
        const row *r = &rows[k];
        char dt[32] = "exact";
        if (r->dt > 0.0)
            snprintf(dt, sizeof dt, "%.3g", r->dt);
        printf("| %s | %s | %.4g | %llu | %llu | %.4f | %.3g | %.3g |\n", r->method, dt,
               r->seconds / o->time, (unsigned long long)r->contacts,
               (unsigned long long)r->false_contacts, r->recall, r->mean_depth, r->max_depth);
    }
    FILE *json = bench_open(PROGRAM, o->json), *csv = bench_open(PROGRAM, o->csv);
    if (json)
        fprintf(json,
                "{\"dim\": %d, \"n\": %zu, \"packing\": %g, \"poly\": %d, "
                "\"time\": %g, "
                "\"kT\": %g, \"runs\": %d, \"seed\": %llu, \"rows\": [",
                o->dim, o->n, o->packing, o->poly, o->time, o->kT, o->runs,
                (unsigned long long)o->seed);
    if (csv)
        fprintf(csv, "method,dt,seconds_per_simulated_second,contacts,false_contacts,"
                     "share_found,mean_depth,largest_depth\n");
    for (int k = 0; k < n; k++) {
        const row *r = &rows[k];
        const char *method = r->method;
        if (json)
            fprintf(json,
                    "%s{\"method\": \"%s\", \"dt\": %.17g, "
                    "\"seconds_per_simulated_second\": %.6g, \"contacts\": %llu, "
                    "\"false_contacts\": %llu, \"share_found\": %.6g, "
                    "\"mean_depth\": %.6g, \"largest_depth\": %.6g}",
                    k ? ", " : "", method, r->dt, r->seconds / o->time,
                    (unsigned long long)r->contacts, (unsigned long long)r->false_contacts,
                    r->recall, r->mean_depth, r->max_depth);
        if (csv)
            fprintf(csv, "\"%s\",%.17g,%.6g,%llu,%llu,%.6g,%.6g,%.6g\n", method, r->dt,
                    r->seconds / o->time, (unsigned long long)r->contacts,
                    (unsigned long long)r->false_contacts, r->recall, r->mean_depth, r->max_depth);
    }
    bench_close(json, csv);
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    bench_check_writable(PROGRAM, o.json);
    bench_check_writable(PROGRAM, o.csv);
    carom_scene s;
    carom_scene_init(&s);
    build_scene(&o, &s);
    row rows[3 * BROADS * MAX_DTS + 3];
    rows[0] = run_carom(&o, &s);
    int count = 1;
    for (int b = 0; b < o.broads; b++) {
        for (int shape = 0; o.stepped && shape <= (o.boxes ? 1 : 0); shape++)
            for (int k = 0; k < o.dts; k++)
                rows[count++] = run_stepped(&o, &s, o.dt[k], o.broad[b], (carom_stepped_shape)shape,
                                            rows[0].contacts);
        for (int k = 0; o.swept && k < o.dts; k++)
            rows[count++] = run_swept(&o, &s, o.dt[k], o.broad[b], rows[0].contacts);
    }
    if (o.ksap) {
        carom_scene open;
        carom_scene_init(&open);
        open_scene(&o, &s, &open);
        run_open(&o, &open, &rows[count]);
        count += 2;
        carom_scene_free(&open);
    }
    write_rows(&o, rows, count);
    carom_scene_free(&s);
    return 0;
}
