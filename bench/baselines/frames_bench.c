/* carom-frames-bench: carom's exact, event-driven detection and response
 * against seed 003's frame-by-frame algorithms (frames.h) on Leong's
 * experiment: circles on a square lattice in a box with elastic walls,
 * Maxwell-Boltzmann velocities, elastic collisions, frames of 1/60.
 *
 * For each method the program times the run (median of --runs; carom
 * advances to every frame's end, as a game loop would call it) and, in
 * one more run, measures what each method does to the motion: collisions
 * answered (against carom's, which are every collision there is), wall
 * hits, the depth at which collisions were answered, the overlap left at
 * frames' ends, the single collision method's lost travel, and the
 * kinetic energy's change.
 *
 *   carom-frames-bench [--dim 2] [--n 150] [--box 10,15] [--radius 0.25]
 *                      [--kT 1] [--frames 600] [--frame 0.0166667]
 *                      [--restitution 1] [--runs 5] [--seed 1]
 *                      [--json FILE] [--csv FILE]
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
#include "frames.h"

#define MAX_RUNS 15

typedef struct options {
    int dim, runs;
    size_t n;
    double box[3], radius, kT, frame, restitution;
    uint64_t frames, seed;
    const char *json, *csv;
} options;

typedef struct row {
    const char *method;
    double seconds_per_frame;
    uint64_t collisions, wall_hits;
    double share, max_depth, max_overlap, lost_travel, energy_change;
} row;

#define PROGRAM "carom-frames-bench"

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
    options o = {.dim = 2,
                 .runs = 5,
                 .n = 150,
                 .box = {10.0, 15.0, 10.0},
                 .radius = 0.25,
                 .kT = 1.0,
                 .frame = 1.0 / 60.0,
                 .restitution = 1.0,
                 .frames = 600,
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
        else if (!strcmp(key, "--radius"))
            o.radius = number(key, v);
        else if (!strcmp(key, "--kT"))
            o.kT = number(key, v);
        else if (!strcmp(key, "--frames"))
            o.frames = (uint64_t)number(key, v);
        else if (!strcmp(key, "--frame"))
            o.frame = number(key, v);
        else if (!strcmp(key, "--restitution"))
            o.restitution = number(key, v);
        else if (!strcmp(key, "--runs"))
            o.runs = (int)number(key, v);
        else if (!strcmp(key, "--seed"))
            o.seed = (uint64_t)number(key, v);
        else if (!strcmp(key, "--json"))
            o.json = v;
        else if (!strcmp(key, "--csv"))
            o.csv = v;
        else if (!strcmp(key, "--box")) {
            char buffer[128];
            snprintf(buffer, sizeof buffer, "%s", v);
            int k = 0;
            for (char *t = strtok(buffer, ","); t; t = strtok(NULL, ","))
                if (k < 3)
                    o.box[k++] = number(key, t);
            for (; k > 0 && k < 3; k++)
                o.box[k] = o.box[k - 1];
        } else
            die(key, "unknown option");
    }
    if ((o.dim != 2 && o.dim != 3) || o.n < 1 || !(o.radius > 0.0) || !(o.kT > 0.0) ||
        o.frames < 1 || !(o.frame > 0.0) || !(o.restitution >= 0.0 && o.restitution <= 1.0) ||
        o.runs < 1 || o.runs > MAX_RUNS)
        die("options", "need dim 2 or 3, n >= 1, radius > 0, kT > 0, frames >= 1, frame > 0, "
                       "restitution in [0, 1], 1 <= runs <= 15");
    return o;
}

static void build_scene(const options *o, carom_scene *s)
{
    carom_error e;
    s->dim = o->dim;
    for (int k = 0; k < 3; k++) {
        s->box[k] = o->box[k];
        s->boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    if (carom_scene_lattice(s, o->n, o->radius, CAROM_LATTICE_SQUARE, &e) != CAROM_OK ||
        carom_scene_maxwell_velocities(s, o->kT, o->seed, &e) != CAROM_OK)
        die("scene", e.message);
}

static void copy_scene(const carom_scene *from, carom_scene *to)
{
    carom_error e;
    if (carom_scene_resize(to, from->n, &e) != CAROM_OK)
        die("scene", e.message);
    to->dim = from->dim;
    memcpy(to->box, from->box, sizeof to->box);
    memcpy(to->boundary, from->boundary, sizeof to->boundary);
    memcpy(to->position, from->position, from->n * sizeof *from->position);
    memcpy(to->velocity, from->velocity, from->n * sizeof *from->velocity);
    memcpy(to->radius, from->radius, from->n * sizeof *from->radius);
    memcpy(to->mass, from->mass, from->n * sizeof *from->mass);
}

static double kinetic_energy(const carom_scene *s)
{
    double e = 0.0;
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < s->dim; k++)
            e += 0.5 * s->mass[i] * s->velocity[i][k] * s->velocity[i][k];
    return e;
}

/* The largest overlap of the scene's spheres, relative to the contact
 * distance (every pair). */
static double largest_overlap(const carom_scene *s)
{
    double worst = 0.0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = i + 1; j < s->n; j++) {
            double d2 = 0.0, sigma = s->radius[i] + s->radius[j];
            for (int k = 0; k < s->dim; k++) {
                double d = s->position[j][k] - s->position[i][k];
                d2 += d * d;
            }
            worst = fmax(worst, (sigma - sqrt(d2)) / sigma);
        }
    return worst;
}

/* carom, advanced to every frame's end; with measure, the overlap there. */
static double carom_run(const options *o, const carom_scene *s, int measure, row *out)
{
    carom_world_def def = carom_world_default_def();
    def.restitution = o->restitution;
    carom_error e;
    carom_world *w = carom_scene_create_world(s, &def, &e);
    if (!w)
        die("carom", e.message);
    carom_scene at;
    carom_scene_init(&at);
    double t0 = bench_now();
    for (uint64_t f = 1; f <= o->frames; f++) {
        if (carom_world_advance_to(w, (double)f * o->frame) != CAROM_OK)
            die("carom", carom_world_error_message(w));
        if (measure) {
            if (carom_scene_from_world(&at, w, &e) != CAROM_OK)
                die("carom", e.message);
            out->max_overlap = fmax(out->max_overlap, largest_overlap(&at));
        }
    }
    double seconds = bench_now() - t0;
    if (measure) {
        carom_stats st;
        carom_world_get_stats(w, &st);
        out->collisions = st.collisions;
        out->wall_hits = st.wall_hits;
        out->energy_change = kinetic_energy(&at) / kinetic_energy(s) - 1.0;
    }
    carom_scene_free(&at);
    carom_world_free(w);
    return seconds;
}

static row measure_carom(const options *o, const carom_scene *s)
{
    row out = {"carom", 0.0, 0, 0, 1.0, 0.0, 0.0, 0.0, 0.0};
    double seconds[MAX_RUNS];
    for (int r = 0; r < o->runs; r++)
        seconds[r] = carom_run(o, s, 0, &out);
    out.seconds_per_frame = bench_median(seconds, o->runs) / (double)o->frames;
    carom_run(o, s, 1, &out);
    return out;
}

static row measure_frames(const options *o, const carom_scene *s, carom_frames_method method,
                          const char *name, uint64_t exact)
{
    carom_frames_def def = carom_frames_default_def(method);
    def.frame = o->frame;
    def.frames = o->frames;
    def.restitution = o->restitution;
    carom_scene copy;
    carom_scene_init(&copy);
    double seconds[MAX_RUNS];
    carom_frames_stats st;
    carom_error e;
    for (int r = 0; r <= o->runs; r++) {
        def.measure = r == o->runs; /* the last run measures, untimed */
        copy_scene(s, &copy);
        double t0 = bench_now();
        if (carom_frames_run(&copy, &def, NULL, NULL, &st, &e) != CAROM_OK)
            die(name, e.message);
        if (r < o->runs)
            seconds[r] = bench_now() - t0;
    }
    carom_scene_free(&copy);
    return (row){name,
                 bench_median(seconds, o->runs) / (double)o->frames,
                 st.collisions,
                 st.wall_hits,
                 exact ? (double)st.collisions / (double)exact : 0.0,
                 st.max_depth,
                 st.max_overlap,
                 st.lost_travel,
                 st.energy_end / st.energy_start - 1.0};
}

static void write_rows(const options *o, const row *rows, int n)
{
    printf("| method | µs per frame | collisions | share of carom's | wall hits | largest depth "
           "answered | largest overlap left | lost travel | energy change |\n"
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int k = 0; k < n; k++) {
        const row *r = &rows[k];
        printf("| %s | %.4g | %llu | %.4f | %llu | %.3g | %.3g | %.3g | %.2g |\n", r->method,
               1e6 * r->seconds_per_frame, (unsigned long long)r->collisions, r->share,
               (unsigned long long)r->wall_hits, r->max_depth, r->max_overlap, r->lost_travel,
               r->energy_change);
    }
    FILE *json = bench_open(PROGRAM, o->json), *csv = bench_open(PROGRAM, o->csv);
    if (json)
        fprintf(json,
                "{\"dim\": %d, \"n\": %zu, \"box\": [%g, %g, %g], \"radius\": %g, \"kT\": %g, "
                "\"frames\": %llu, \"frame\": %.17g, \"restitution\": %g, \"runs\": %d, "
                "\"seed\": %llu, \"rows\": [",
                o->dim, o->n, o->box[0], o->box[1], o->box[2], o->radius, o->kT,
                (unsigned long long)o->frames, o->frame, o->restitution, o->runs,
                (unsigned long long)o->seed);
    if (csv)
        fprintf(csv, "method,seconds_per_frame,collisions,share_of_carom,wall_hits,largest_depth,"
                     "largest_overlap_left,lost_travel,energy_change\n");
    for (int k = 0; k < n; k++) {
        const row *r = &rows[k];
        if (json)
            fprintf(json,
                    "%s{\"method\": \"%s\", \"seconds_per_frame\": %.6g, \"collisions\": %llu, "
                    "\"share_of_carom\": %.6g, \"wall_hits\": %llu, \"largest_depth\": %.6g, "
                    "\"largest_overlap_left\": %.6g, \"lost_travel\": %.6g, "
                    "\"energy_change\": %.6g}",
                    k ? ", " : "", r->method, r->seconds_per_frame,
                    (unsigned long long)r->collisions, r->share, (unsigned long long)r->wall_hits,
                    r->max_depth, r->max_overlap, r->lost_travel, r->energy_change);
        if (csv)
            fprintf(csv, "%s,%.6g,%llu,%.6g,%llu,%.6g,%.6g,%.6g,%.6g\n", r->method,
                    r->seconds_per_frame, (unsigned long long)r->collisions, r->share,
                    (unsigned long long)r->wall_hits, r->max_depth, r->max_overlap, r->lost_travel,
                    r->energy_change);
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
    row rows[4];
    rows[0] = measure_carom(&o, &s);
    rows[1] = measure_frames(&o, &s, CAROM_FRAMES_RETROACTIVE, "retroactive", rows[0].collisions);
    rows[2] = measure_frames(&o, &s, CAROM_FRAMES_SINGLE, "single collision", rows[0].collisions);
    rows[3] =
        measure_frames(&o, &s, CAROM_FRAMES_MULTIPLE, "multiple collision", rows[0].collisions);
    write_rows(&o, rows, 4);
    carom_scene_free(&s);
    return 0;
}
