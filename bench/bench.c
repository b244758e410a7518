#define _POSIX_C_SOURCE 200809L
/* carom-bench: throughput of the event loop on standard scenes.
 *
 * Each configuration (dim, N, packing, mono/poly) runs `runs` times, each
 * in a child process so that peak memory is measured per run. A run builds
 * a lattice (FCC in 3D, hexagonal in 2D, periodic box), draws
 * Maxwell-Boltzmann velocities (kT = 1, m = 1), equilibrates for
 * `equilibrate` time units, then measures `time` time units. Reported per
 * configuration: the median over runs of collisions/s, events/s,
 * ns/collision, collisions per second of the process's CPU time and the
 * share of the wall time the process was on a CPU (on a loaded machine
 * the CPU-time figure is the steadier one), peak RSS (whole process) and peak RSS per sphere above the
 * resident memory the process had before building anything, and start-up
 * seconds (lattice, world, all first events). Writes JSON and CSV.
 *
 * Monodisperse: radius 0.5 (diameter 1). Polydisperse: target radii
 * uniform in [0.5, 1.0] (a 1:2 range), box sized from their mean volume.
 * A lattice cannot hold them at high packing and random placement fails
 * there too, so the polydisperse start is grown: the lattice is built for
 * radius 0.5, every sphere gets the largest radius up to its target that
 * its neighbours leave free, and then (run 0.1 time units of dynamics,
 * grow every sphere again as far as its neighbours allow) repeats until
 * every sphere has its target radius. The growth is not part of the
 * start-up figure (it is reported as prep seconds and cycles); start-up is
 * then building the final world and its first events. Growth stops when
 * at most one sphere in 1000 is still short of its target radius (the
 * packing actually reached is reported). The prepared start is built once
 * per configuration, in its own process, and every run of the
 * configuration starts from it with its own Maxwell-Boltzmann velocities.
 * CAROM_BENCH_DEBUG=1 prints the progress of the growth on stderr.
 *
 *   carom-bench [--dim 3] [--n 10000,100000] [--packing 0.45] [--poly 0|1]
 *               [--equilibrate 1] [--time 5] [--runs 3] [--seed 1]
 *               [--neighbours auto|cells|lists] [--prefetch auto|off|on]
 *               [--reorder auto|off] [--order sorted|shuffled]
 *               [--json FILE] [--csv FILE]
 *   carom-bench --matrix [--n 10000,100000,1000000] [--runs 3] [--runs-large 1]
 *               [--equilibrate 1] [--time 5] [--equilibrate-large 0.25]
 *               [--time-large 0.5] [--json FILE] [--csv FILE]
 *
 * --matrix runs the standard matrix: for each N, dim 3 at packing 0.45 and
 * 0.3, dim 2 at packing 0.6 and 0.4, each monodisperse and polydisperse.
 * Configurations with N > 100000 use --runs-large runs and the
 * --equilibrate-large / --time-large window. Each configuration's line is
 * written (and flushed) as soon as it is done, with the load average
 * before and after it.
 *
 * --order: the ids the world is given, along a space-filling curve as
 * `carom run` numbers its scenes (sorted, the default), or shuffled (as
 * an application adding spheres in no particular order would); with
 * --reorder auto (the default) a world of 50,000 spheres or more sorts
 * them itself when it is built (carom_reorder). The record's "reorders"
 * counts the world's sorts, from its build to the window's end.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "carom/carom.h"
#include "carom/scene.h"

#define MAX_RUNS 99
#define LARGE_N 100000
#define POLY_RADIUS_MIN 0.5
#define POLY_RADIUS_MAX 1.0
#define GROW_STEP 0.1        /* simulated time between two growth passes */
#define GROW_MAX_CYCLES 2000
#define GROW_MARGIN 1e-9     /* gap left to the nearest neighbour when growing */
#define GROW_SHORT_FRACTION 1000 /* growth stops when at most n / this are short */

typedef struct run_result {
    double collisions_per_second;
    double cpu_collisions_per_second; /* per second of the process's CPU time */
    double cpu_share;                 /* CPU time / wall time of the measured window */
    double setup_cpu_seconds;
    double events_per_second;
    double ns_per_collision;
    double bytes_per_sphere;
    double peak_rss_bytes;
    double setup_seconds;
    double prep_seconds;   /* polydisperse growth (0 for monodisperse) */
    double prep_cycles;
    double packing_start;  /* packing right after the lattice (poly: before growth) */
    double packing;        /* packing of the measured run */
    double compressibility;
    double max_overlap;    /* carom_world_max_overlap_now at the end */
    double collisions;
    double events;
    double list_rebuilds;  /* 0: the world used cells */
    double prefetch_advances; /* > 0: the loading helper ran */
    double reorders;       /* the world's sorts, from its build on */
    double baseline_bytes; /* resident memory before the run (program, libc) */
    int ok;
} run_result;

typedef struct bench_config {
    int dim;
    size_t n;
    double packing;
    int poly;
    double eq, time;
    int runs;
    unsigned long long seed;
    carom_neighbours neighbours;
    carom_prefetch prefetch;
    carom_reorder reorder;
    int shuffled;
} bench_config;

/* --neighbours values, in carom_neighbours order. */
static const char *const neighbours_name[3] = {"auto", "cells", "lists"};
/* --prefetch values, in carom_prefetch order. */
static const char *const prefetch_name[3] = {"auto", "off", "on"};
/* --reorder values, in carom_reorder order, and --order values. */
static const char *const reorder_name[2] = {"auto", "off"};
static const char *const order_name[2] = {"sorted", "shuffled"};

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process (user + system). */
static double cpu_seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(const char *what, const char *msg)
{
    fprintf(stderr, "carom-bench: %s: %s\n", what, msg);
    return 1;
}

/* Current resident memory, from /proc/self/statm (0 if unavailable). */
static double resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0.0;
    unsigned long size = 0, resident = 0;
    int got = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    return got == 2 ? (double)resident * (double)sysconf(_SC_PAGESIZE) : 0.0;
}

/* One-minute load average (NaN if unavailable). */
static double load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return NAN;
    double l = NAN;
    if (fscanf(f, "%lf", &l) != 1)
        l = NAN;
    fclose(f);
    return l;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Target radius of sphere i of a polydisperse scene: uniform in
 * [POLY_RADIUS_MIN, POLY_RADIUS_MAX], a function of (seed, i) only, so no
 * array of targets has to stay alive beside the world. */
static double poly_target(unsigned long long seed, size_t i)
{
    uint64_t h = splitmix64(splitmix64((uint64_t)seed * 0x2545f4914f6cdd1dULL) ^ (uint64_t)i);
    double u = (double)(h >> 11) / 9007199254740992.0;
    return POLY_RADIUS_MIN + (POLY_RADIUS_MAX - POLY_RADIUS_MIN) * u;
}

static double scene_packing(const carom_scene *s)
{
    const double pi = 3.14159265358979323846;
    double filled = 0.0, volume = s->box[0] * s->box[1] * (s->dim == 3 ? s->box[2] : 1.0);
    for (size_t i = 0; i < s->n; i++) {
        double r = s->radius[i];
        filled += s->dim == 3 ? 4.0 / 3.0 * pi * r * r * r : pi * r * r;
    }
    return filled / volume;
}

/* A cell grid over a periodic box, cells at least `reach` wide, for the
 * neighbours of each sphere within `reach`. With fewer than 3 cells along
 * an axis the whole axis is one cell (every pair is then looked at). */
typedef struct pair_grid {
    int dim;
    double box[3];
    size_t cells[3];
    size_t *head, *next;
} pair_grid;

static size_t grid_cell_of(const pair_grid *g, const double x[3], size_t c[3])
{
    size_t idx = 0;
    for (int d = 0; d < g->dim; d++) {
        double f = x[d] / g->box[d];
        f -= floor(f);
        size_t k = (size_t)(f * (double)g->cells[d]);
        if (k >= g->cells[d])
            k = g->cells[d] - 1;
        c[d] = k;
        idx = idx * g->cells[d] + k;
    }
    return idx;
}

static int grid_build(pair_grid *g, const carom_scene *s, double reach)
{
    g->dim = s->dim;
    size_t total = 1;
    for (int d = 0; d < 3; d++) {
        g->box[d] = s->box[d];
        g->cells[d] = 1;
    }
    for (int d = 0; d < s->dim; d++) {
        double m = floor(s->box[d] / reach);
        g->cells[d] = m >= 3.0 ? (size_t)m : 1;
        total *= g->cells[d];
    }
    g->head = malloc(total * sizeof *g->head);
    g->next = malloc((s->n ? s->n : 1) * sizeof *g->next);
    if (!g->head || !g->next) {
        free(g->head);
        free(g->next);
        return -1;
    }
    for (size_t k = 0; k < total; k++)
        g->head[k] = SIZE_MAX;
    for (size_t i = 0; i < s->n; i++) {
        size_t c[3];
        size_t idx = grid_cell_of(g, s->position[i], c);
        g->next[i] = g->head[idx];
        g->head[idx] = i;
    }
    return 0;
}

static void grid_free(pair_grid *g)
{
    free(g->head);
    free(g->next);
}

/* min over the other spheres j near i of (distance(i, j) - r_j), the
 * largest radius sphere i can have (INFINITY if nothing is in reach);
 * *closest receives the smallest centre distance seen. */
static double grid_room(const pair_grid *g, const carom_scene *s, size_t i, double *closest)
{
    size_t c[3] = {0, 0, 0};
    grid_cell_of(g, s->position[i], c);
    int span[3] = {1, 1, 1};
    for (int d = 0; d < g->dim; d++)
        span[d] = g->cells[d] >= 3 ? 3 : 1;
    double room = INFINITY, dmin = INFINITY;
    for (int a = 0; a < span[0]; a++)
        for (int b = 0; b < span[1]; b++)
            for (int e = 0; e < (g->dim == 3 ? span[2] : 1); e++) {
                int off[3] = {a, b, e};
                size_t idx = 0;
                for (int d = 0; d < g->dim; d++) {
                    size_t m = g->cells[d];
                    size_t k = span[d] == 3 ? (c[d] + m + (size_t)off[d] - 1) % m : 0;
                    idx = idx * m + k;
                }
                for (size_t j = g->head[idx]; j != SIZE_MAX; j = g->next[j]) {
                    if (j == i)
                        continue;
                    double r2 = 0.0;
                    for (int d = 0; d < g->dim; d++) {
                        double dx = s->position[j][d] - s->position[i][d];
                        dx -= g->box[d] * nearbyint(dx / g->box[d]);
                        r2 += dx * dx;
                    }
                    double dist = sqrt(r2);
                    if (dist < dmin)
                        dmin = dist;
                    if (dist - s->radius[j] < room)
                        room = dist - s->radius[j];
                }
            }
    if (closest)
        *closest = dmin;
    return room;
}

/* One growth pass: every sphere, in a scrambled order, takes the largest
 * radius up to its target that its neighbours' current radii leave free
 * (never shrinking). Returns the number of spheres below their target, or
 * (size_t)-1 if memory ran out. */
static size_t grow_pass(carom_scene *s, unsigned long long seed, unsigned pass)
{
    pair_grid g;
    if (grid_build(&g, s, 2.0 * POLY_RADIUS_MAX * (1.0 + 1e-9)) != 0)
        return (size_t)-1;
    size_t n = s->n, below = 0;
    /* Order i_k = (start + k * stride) mod n with stride coprime to n. */
    size_t start = (size_t)(splitmix64(seed + pass) % n);
    size_t stride = (size_t)(0.6180339887 * (double)n) | 1;
    while (stride > 1) {
        size_t a = stride, b = n;
        while (b) {
            size_t t = a % b;
            a = b;
            b = t;
        }
        if (a == 1)
            break;
        stride += 2;
        if (stride >= n)
            stride = 1;
    }
    for (size_t k = 0, i = start; k < n; k++, i = (i + stride) % n) {
        double target = poly_target(seed, i);
        if (s->radius[i] < target) {
            double room = grid_room(&g, s, i, NULL) - GROW_MARGIN;
            double r = room < target ? room : target;
            if (r > s->radius[i])
                s->radius[i] = r;
        }
        if (s->radius[i] < target)
            below++;
    }
    grid_free(&g);
    return below;
}

/* Grows a lattice scene (positions, velocities set; box sized for the
 * target radii) to its polydisperse target radii; see the file comment. */
static int poly_grow(carom_scene *s, unsigned long long seed, run_result *out)
{
    carom_error err;
    /* Start: every radius min(target, half the closest lattice distance). */
    pair_grid g;
    if (grid_build(&g, s, 2.0 * POLY_RADIUS_MAX * (1.0 + 1e-9)) != 0)
        return fail("grow", "out of memory");
    double dmin = INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        double d;
        grid_room(&g, s, i, &d);
        if (d < dmin)
            dmin = d;
    }
    grid_free(&g);
    for (size_t i = 0; i < s->n; i++) {
        double t = poly_target(seed, i);
        double half = 0.5 * dmin - GROW_MARGIN;
        s->radius[i] = t < half ? t : half;
    }
    size_t below = grow_pass(s, seed, 0);
    out->packing_start = scene_packing(s);
    unsigned cycle = 0;
    carom_world_def def = carom_world_default_def();
    while (below > s->n / GROW_SHORT_FRACTION) {
        if (below == (size_t)-1)
            return fail("grow", "out of memory");
        if (++cycle > GROW_MAX_CYCLES) {
            char msg[160];
            snprintf(msg, sizeof msg, "%zu spheres still below their radius after %d cycles",
                     below, GROW_MAX_CYCLES);
            return fail("grow", msg);
        }
        carom_world *w = carom_scene_create_world(s, &def, &err);
        if (!w)
            return fail("grow: world", err.message);
        if (carom_world_advance_to(w, GROW_STEP) != CAROM_OK) {
            fail("grow: run", carom_world_error_message(w));
            carom_world_free(w);
            return 1;
        }
        if (carom_scene_from_world(s, w, &err) != CAROM_OK) {
            carom_world_free(w);
            return fail("grow: snapshot", err.message);
        }
        carom_world_free(w);
        below = grow_pass(s, seed, cycle);
        if (getenv("CAROM_BENCH_DEBUG"))
            fprintf(stderr, "cycle %u: %zu below, packing %.5f\n", cycle, below, scene_packing(s));
    }
    out->prep_cycles = cycle;
    return 0;
}

/* Box edge that gives exactly `packing` for the scene's spheres: radius
 * 0.5 (mono) or the polydisperse targets of this seed. */
static double box_edge(const bench_config *c, unsigned long long seed)
{
    const double pi = 3.14159265358979323846;
    if (!c->poly)
        return carom_box_length_for_packing(c->dim, c->n, 0.5, c->packing);
    double filled = 0.0;
    for (size_t i = 0; i < c->n; i++) {
        double r = poly_target(seed, i);
        filled += c->dim == 3 ? 4.0 / 3.0 * pi * r * r * r : pi * r * r;
    }
    return pow(filled / c->packing, 1.0 / c->dim);
}

/* A lattice scene for c (positions only, velocities 0). */
static int lattice_scene(const bench_config *c, unsigned long long seed, carom_scene *scene)
{
    carom_error err;
    scene->dim = c->dim;
    double L = box_edge(c, seed);
    for (int k = 0; k < 3; k++) {
        scene->box[k] = c->dim == 2 && k == 2 ? 1.0 : L;
        scene->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    if (carom_scene_lattice(scene, c->n, 0.5, CAROM_LATTICE_AUTO, &err) != CAROM_OK)
        return fail("lattice", err.message);
    /* Ids along a space-filling curve, as `carom run` numbers its scenes. */
    if (carom_scene_sort_spatially(scene, &err) != CAROM_OK)
        return fail("lattice", err.message);
    return 0;
}

/* What the preparation of a polydisperse start writes to its file,
 * followed by the positions and radii. */
typedef struct prep_header {
    size_t n;
    int dim;
    double box[3];
    double prep_seconds, prep_cycles, packing_start;
} prep_header;

/* Builds and grows the polydisperse start of c (seed `seed`) in a child
 * process (so its heap does not count in the runs' peak memory) and
 * writes it to `path`. */
static int prepare_poly(const bench_config *c, unsigned long long seed, const char *path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        carom_error err;
        carom_scene scene;
        carom_scene_init(&scene);
        run_result r;
        memset(&r, 0, sizeof r);
        double t0 = seconds_now();
        if (lattice_scene(c, seed, &scene) != 0)
            _exit(1);
        if (carom_scene_maxwell_velocities(&scene, 1.0, seed, &err) != CAROM_OK)
            _exit(fail("velocities", err.message));
        if (poly_grow(&scene, seed, &r) != 0)
            _exit(1);
        prep_header h = {scene.n, scene.dim, {scene.box[0], scene.box[1], scene.box[2]},
                         seconds_now() - t0, r.prep_cycles, r.packing_start};
        FILE *f = fopen(path, "wb");
        int ok = f && fwrite(&h, sizeof h, 1, f) == 1 &&
                 fwrite(scene.position, sizeof *scene.position, scene.n, f) == scene.n &&
                 fwrite(scene.radius, sizeof *scene.radius, scene.n, f) == scene.n;
        if (!f || fclose(f) != 0 || !ok)
            _exit(fail(path, "cannot write the prepared scene"));
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int read_prepared(const char *path, carom_scene *scene, run_result *out)
{
    carom_error err;
    prep_header h;
    FILE *f = fopen(path, "rb");
    if (!f || fread(&h, sizeof h, 1, f) != 1) {
        if (f)
            fclose(f);
        return fail(path, "cannot read the prepared scene");
    }
    scene->dim = h.dim;
    for (int k = 0; k < 3; k++) {
        scene->box[k] = h.box[k];
        scene->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    if (carom_scene_resize(scene, h.n, &err) != CAROM_OK) {
        fclose(f);
        return fail("scene", err.message);
    }
    int ok = fread(scene->position, sizeof *scene->position, h.n, f) == h.n &&
             fread(scene->radius, sizeof *scene->radius, h.n, f) == h.n;
    fclose(f);
    if (!ok)
        return fail(path, "truncated prepared scene");
    out->prep_seconds = h.prep_seconds;
    out->prep_cycles = h.prep_cycles;
    out->packing_start = h.packing_start;
    return 0;
}

/* Shuffles the spheres' ids (positions and radii move together). */
static void shuffle_ids(carom_scene *s, unsigned long long seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (size_t i = s->n; i > 1; i--) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t j = (size_t)((x >> 33) % i);
        double p[3], r = s->radius[i - 1];
        memcpy(p, s->position[i - 1], sizeof p);
        memcpy(s->position[i - 1], s->position[j], sizeof p);
        memcpy(s->position[j], p, sizeof p);
        s->radius[i - 1] = s->radius[j];
        s->radius[j] = r;
    }
}

/* One measured run, in the current process. Polydisperse runs start from
 * the prepared scene in `prepared` with velocities drawn from `seed`. */
static int run_once(const bench_config *c, unsigned long long seed, const char *prepared,
                    run_result *out)
{
    carom_error err;
    carom_scene scene;
    carom_scene_init(&scene);
    double t0 = seconds_now(), c0 = cpu_seconds_now();
    if (c->poly) {
        if (read_prepared(prepared, &scene, out) != 0)
            return 1;
        t0 = seconds_now();
        c0 = cpu_seconds_now();
    } else {
        if (lattice_scene(c, seed, &scene) != 0)
            return 1;
        out->packing_start = scene_packing(&scene);
    }
    if (c->shuffled)
        shuffle_ids(&scene, seed);
    if (carom_scene_maxwell_velocities(&scene, 1.0, seed, &err) != CAROM_OK)
        return fail("velocities", err.message);
    out->packing = scene_packing(&scene);
    carom_world_def def = carom_world_default_def();
    def.neighbours = c->neighbours;
    def.prefetch = c->prefetch;
    def.reorder = c->reorder;
    carom_world *w = carom_scene_create_world(&scene, &def, &err);
    carom_scene_free(&scene);
    if (!w)
        return fail("world", err.message);
    if (carom_world_advance_to(w, 0.0) != CAROM_OK)
        return fail("start", carom_world_error_message(w));
    double t1 = seconds_now(), c1 = cpu_seconds_now();
    if (carom_world_advance_to(w, c->eq) != CAROM_OK)
        return fail("equilibrate", carom_world_error_message(w));
    carom_stats before;
    carom_world_get_stats(w, &before);
    carom_world_reset_stats(w);
    double t2 = seconds_now(), c2 = cpu_seconds_now();
    if (carom_world_advance_to(w, c->eq + c->time) != CAROM_OK)
        return fail("run", carom_world_error_message(w));
    double t3 = seconds_now(), c3 = cpu_seconds_now();
    carom_stats st;
    carom_world_get_stats(w, &st);
    if (st.collisions == 0)
        return fail("run", "no collision in the measured window (give a longer --time)");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    out->collisions = (double)st.collisions;
    out->events = (double)st.events;
    out->list_rebuilds = (double)st.list_rebuilds;
    out->prefetch_advances = (double)st.prefetch_advances;
    out->reorders = (double)(before.reorders + st.reorders);
    out->collisions_per_second = (double)st.collisions / (t3 - t2);
    out->events_per_second = (double)st.events / (t3 - t2);
    out->cpu_collisions_per_second = (double)st.collisions / (c3 - c2);
    out->cpu_share = (c3 - c2) / (t3 - t2);
    out->setup_cpu_seconds = c1 - c0;
    out->ns_per_collision = 1e9 * (t3 - t2) / (double)st.collisions;
    out->peak_rss_bytes = (double)ru.ru_maxrss * 1024.0;
    out->bytes_per_sphere = (out->peak_rss_bytes - out->baseline_bytes) / (double)c->n;
    out->setup_seconds = t1 - t0;
    out->compressibility = carom_world_compressibility(w);
    out->max_overlap = carom_world_max_overlap_now(w);
    out->ok = 1;
    carom_world_free(w);
    return 0;
}

static int run_in_child(const bench_config *c, unsigned long long seed, const char *prepared,
                        run_result *out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        run_result r;
        memset(&r, 0, sizeof r);
        r.baseline_bytes = resident_bytes();
        int rc = run_once(c, seed, prepared, &r);
        if (write(fds[1], &r, sizeof r) != (ssize_t)sizeof r)
            rc = 1;
        _exit(rc);
    }
    close(fds[1]);
    memset(out, 0, sizeof *out);
    ssize_t got = read(fds[0], out, sizeof *out);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return got == (ssize_t)sizeof *out && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_RUNS];
    memcpy(s, v, (size_t)n * sizeof *v);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static double min_of(const double *v, int n)
{
    double m = v[0];
    for (int k = 1; k < n; k++)
        m = v[k] < m ? v[k] : m;
    return m;
}

static double max_of(const double *v, int n)
{
    double m = v[0];
    for (int k = 1; k < n; k++)
        m = v[k] > m ? v[k] : m;
    return m;
}

typedef struct outputs {
    FILE *json, *csv;
    int first;
} outputs;

/* Runs one configuration c->runs times; prints a table row and writes the
 * medians to the outputs. */
static int bench_one(const bench_config *c, outputs *o)
{
    enum { CPS, EPS, NSC, BPS, RSS, SETUP, PREP, CYCLES, PACK0, PACK, Z, OVERLAP, COLL, EVENTS, RELIST,
           CCPS, SHARE, SETUPC, HELPED, SORTS, FIELDS };
    double v[FIELDS][MAX_RUNS];
    double load0 = load_average(), wall0 = seconds_now();
    time_t started = time(NULL);
    char prepared[64] = "";
    if (c->poly) {
        snprintf(prepared, sizeof prepared, "/tmp/carom-bench-XXXXXX");
        int fd = mkstemp(prepared);
        if (fd < 0)
            return fail("mkstemp", "cannot create a temporary file");
        close(fd);
        if (prepare_poly(c, c->seed, prepared) != 0) {
            unlink(prepared);
            fprintf(stderr, "carom-bench: preparing the polydisperse start failed (dim %d, N %zu, "
                            "packing %g)\n", c->dim, c->n, c->packing);
            return 1;
        }
    }
    for (int r = 0; r < c->runs; r++) {
        run_result res;
        if (run_in_child(c, c->seed + (unsigned)r, prepared, &res) != 0) {
            if (c->poly)
                unlink(prepared);
            fprintf(stderr, "carom-bench: run failed (dim %d, N %zu, packing %g, %s)\n", c->dim,
                    c->n, c->packing, c->poly ? "poly" : "mono");
            return 1;
        }
        v[CPS][r] = res.collisions_per_second;
        v[EPS][r] = res.events_per_second;
        v[NSC][r] = res.ns_per_collision;
        v[BPS][r] = res.bytes_per_sphere;
        v[RSS][r] = res.peak_rss_bytes;
        v[SETUP][r] = res.setup_seconds;
        v[PREP][r] = res.prep_seconds;
        v[CYCLES][r] = res.prep_cycles;
        v[PACK0][r] = res.packing_start;
        v[PACK][r] = res.packing;
        v[Z][r] = res.compressibility;
        v[OVERLAP][r] = res.max_overlap;
        v[COLL][r] = res.collisions;
        v[EVENTS][r] = res.events;
        v[RELIST][r] = res.list_rebuilds;
        v[CCPS][r] = res.cpu_collisions_per_second;
        v[SHARE][r] = res.cpu_share;
        v[SETUPC][r] = res.setup_cpu_seconds;
        v[HELPED][r] = res.prefetch_advances;
        v[SORTS][r] = res.reorders;
    }
    if (c->poly)
        unlink(prepared);
    double m[FIELDS];
    for (int f = 0; f < FIELDS; f++)
        m[f] = median(v[f], c->runs);
    double load1 = load_average(), wall = seconds_now() - wall0;
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&started));
    printf("| %d | %zu | %.3g | %s | %d | %.3g | %.3g | %.0f | %.3g | %.0f%% | %.0f | %.1f | %.2f | "
           "%.4f | %.1f-%.1f |\n",
           c->dim, c->n, c->packing, c->poly ? "poly 1:2" : "mono", c->runs, m[CPS], m[EPS],
           m[NSC], m[CCPS], 100.0 * m[SHARE], m[BPS], m[RSS] / 1048576.0, m[SETUP], m[Z], load0,
           load1);
    fflush(stdout);
    if (o->json) {
        fprintf(o->json,
                "%s  {\"dim\": %d, \"n\": %zu, \"packing\": %g, \"poly\": %d, \"radius_min\": %g, "
                "\"radius_max\": %g, \"runs\": %d, \"equilibrate\": %g, \"time\": %g, "
                "\"collisions_per_second\": %.6g, \"collisions_per_second_min\": %.6g, "
                "\"collisions_per_second_max\": %.6g, \"cpu_collisions_per_second\": %.6g, "
                "\"cpu_collisions_per_second_min\": %.6g, \"cpu_collisions_per_second_max\": %.6g, "
                "\"cpu_share\": %.3g, \"events_per_second\": %.6g, "
                "\"ns_per_collision\": %.4g, \"bytes_per_sphere\": %.1f, \"peak_rss_bytes\": %.0f, "
                "\"setup_seconds\": %.4g, \"setup_cpu_seconds\": %.4g, \"prep_seconds\": %.4g, "
                "\"prep_cycles\": %.0f, "
                "\"packing_start\": %.4g, \"packing_actual\": %.6g, \"compressibility\": %.6g, "
                "\"max_overlap_end\": %.3g, \"collisions\": %.0f, "
                "\"events\": %.0f, \"neighbours\": \"%s\", \"list_rebuilds\": %.0f, "
                "\"prefetch\": \"%s\", \"prefetch_thread\": %s, "
                "\"reorder\": \"%s\", \"order\": \"%s\", \"reorders\": %.0f, "
                "\"started_utc\": \"%s\", \"wall_seconds\": %.1f, "
                "\"load_average_start\": %.2f, \"load_average_end\": %.2f}",
                o->first ? "" : ",\n", c->dim, c->n, c->packing, c->poly,
                c->poly ? POLY_RADIUS_MIN : 0.5, c->poly ? POLY_RADIUS_MAX : 0.5, c->runs, c->eq,
                c->time, m[CPS], min_of(v[CPS], c->runs), max_of(v[CPS], c->runs), m[CCPS],
                min_of(v[CCPS], c->runs), max_of(v[CCPS], c->runs), m[SHARE], m[EPS], m[NSC],
                m[BPS], m[RSS], m[SETUP], m[SETUPC], m[PREP], m[CYCLES], m[PACK0], m[PACK], m[Z],
                max_of(v[OVERLAP], c->runs), m[COLL], m[EVENTS], neighbours_name[c->neighbours],
                m[RELIST], prefetch_name[c->prefetch], m[HELPED] > 0 ? "true" : "false",
                reorder_name[c->reorder], order_name[c->shuffled], m[SORTS], when, wall, load0,
                load1);
        fflush(o->json);
    }
    if (o->csv) {
        fprintf(o->csv,
                "%d,%zu,%g,%d,%d,%g,%g,%.6g,%.6g,%.6g,%.6g,%.3g,%.6g,%.4g,%.1f,%.0f,%.4g,%.4g,"
                "%.4g,%.0f,%.4g,%.6g,%.6g,%.0f,%s,%.1f,%.2f,%.2f\n",
                c->dim, c->n, c->packing, c->poly, c->runs, c->eq, c->time, m[CPS],
                min_of(v[CPS], c->runs), max_of(v[CPS], c->runs), m[CCPS], m[SHARE], m[EPS], m[NSC],
                m[BPS], m[RSS], m[SETUP], m[SETUPC], m[PREP], m[CYCLES], m[PACK0], m[PACK], m[Z],
                m[COLL], when, wall, load0, load1);
        fflush(o->csv);
    }
    o->first = 0;
    return 0;
}

static size_t next_n(const char **p)
{
    size_t n = strtoull(*p, NULL, 10);
    while (**p && **p != ',')
        (*p)++;
    if (**p == ',')
        (*p)++;
    return n;
}

/* The index of val among an option's count names, or -1 (said on
 * stderr). */
static int choice(const char *opt, const char *val, const char *const names[], int count)
{
    for (int k = 0; k < count; k++)
        if (!strcmp(val, names[k]))
            return k;
    fprintf(stderr, "carom-bench: %s %s: expected ", opt, val);
    for (int k = 0; k < count; k++)
        fprintf(stderr, "%s%s", names[k], k + 2 < count ? ", " : k + 1 < count ? " or " : "\n");
    return -1;
}

int main(int argc, char **argv)
{
    int dim = 3, poly = 0, runs = 3, runs_large = 1, matrix = 0;
    double packing = 0.45, eq = 1.0, time = 5.0, eq_large = 0.25, time_large = 0.5;
    unsigned long long seed = 1;
    carom_neighbours neighbours = CAROM_NEIGHBOURS_AUTO;
    carom_prefetch prefetch = CAROM_PREFETCH_AUTO;
    carom_reorder reorder = CAROM_REORDER_AUTO;
    int shuffled = 0;
    const char *nlist = NULL, *json = NULL, *csv = NULL;
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a];
        if (!strcmp(opt, "--matrix")) {
            matrix = 1;
            continue;
        }
        const char *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (!val) {
            fprintf(stderr, "carom-bench: option %s needs a value\n", opt);
            return 2;
        }
        a++;
        if (!strcmp(opt, "--dim")) dim = atoi(val);
        else if (!strcmp(opt, "--n")) nlist = val;
        else if (!strcmp(opt, "--packing")) packing = atof(val);
        else if (!strcmp(opt, "--poly")) poly = atoi(val);
        else if (!strcmp(opt, "--equilibrate")) eq = atof(val);
        else if (!strcmp(opt, "--time")) time = atof(val);
        else if (!strcmp(opt, "--equilibrate-large")) eq_large = atof(val);
        else if (!strcmp(opt, "--time-large")) time_large = atof(val);
        else if (!strcmp(opt, "--runs")) runs = atoi(val);
        else if (!strcmp(opt, "--runs-large")) runs_large = atoi(val);
        else if (!strcmp(opt, "--seed")) seed = strtoull(val, NULL, 10);
        else if (!strcmp(opt, "--json")) json = val;
        else if (!strcmp(opt, "--csv")) csv = val;
        else if (!strcmp(opt, "--neighbours")) {
            int k = choice(opt, val, neighbours_name, 3);
            if (k < 0)
                return 2;
            neighbours = (carom_neighbours)k;
        }
        else if (!strcmp(opt, "--prefetch")) {
            int k = choice(opt, val, prefetch_name, 3);
            if (k < 0)
                return 2;
            prefetch = (carom_prefetch)k;
        }
        else if (!strcmp(opt, "--reorder")) {
            int k = choice(opt, val, reorder_name, 2);
            if (k < 0)
                return 2;
            reorder = (carom_reorder)k;
        }
        else if (!strcmp(opt, "--order")) {
            shuffled = choice(opt, val, order_name, 2);
            if (shuffled < 0)
                return 2;
        }
        else {
            fprintf(stderr, "carom-bench: unknown option %s\n", opt);
            return 2;
        }
    }
    if (!nlist)
        nlist = matrix ? "10000,100000,1000000" : "10000,100000";
    if ((dim != 2 && dim != 3) || runs < 1 || runs > MAX_RUNS || runs_large < 1 ||
        runs_large > MAX_RUNS || !(packing > 0) || !(time > 0) || !(time_large > 0) ||
        !(eq >= 0) || !(eq_large >= 0)) {
        fprintf(stderr, "carom-bench: bad arguments\n");
        return 2;
    }
    outputs o = {json ? fopen(json, "w") : NULL, csv ? fopen(csv, "w") : NULL, 1};
    if ((json && !o.json) || (csv && !o.csv)) {
        fprintf(stderr, "carom-bench: cannot write output file\n");
        return 1;
    }
    if (o.json)
        fprintf(o.json, "[\n");
    if (o.csv)
        fprintf(o.csv, "dim,n,packing,poly,runs,equilibrate,time,collisions_per_second,"
                       "collisions_per_second_min,collisions_per_second_max,"
                       "cpu_collisions_per_second,cpu_share,events_per_second,"
                       "ns_per_collision,bytes_per_sphere,peak_rss_bytes,setup_seconds,"
                       "setup_cpu_seconds,prep_seconds,prep_cycles,packing_start,packing_actual,compressibility,collisions,"
                       "started_utc,wall_seconds,load_average_start,load_average_end\n");
    printf("| dim | N | packing | radii | runs | collisions/s | events/s | ns/collision | "
           "collisions/CPU-s | CPU share | bytes/sphere | peak RSS MiB | start-up s | Z | "
           "load avg |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | "
           "--- |\n");
    int status = 0;
    for (const char *p = nlist; *p && !status;) {
        size_t n = next_n(&p);
        if (n == 0)
            continue;
        bench_config c = {dim,  n,    packing,    poly,     eq,      time,
                          runs, seed, neighbours, prefetch, reorder, shuffled};
        if (matrix && n > LARGE_N) {
            c.eq = eq_large;
            c.time = time_large;
            c.runs = runs_large;
        }
        if (!matrix) {
            status = bench_one(&c, &o);
            continue;
        }
        static const int dims[2] = {3, 2};
        static const double packings[2][2] = {{0.45, 0.3}, {0.6, 0.4}};
        for (int d = 0; d < 2 && !status; d++)
            for (int k = 0; k < 2 && !status; k++)
                for (int pl = 0; pl < 2 && !status; pl++) {
                    c.dim = dims[d];
                    c.packing = packings[d][k];
                    c.poly = pl;
                    status = bench_one(&c, &o);
                }
    }
    if (o.json) {
        fprintf(o.json, "\n]\n");
        fclose(o.json);
    }
    if (o.csv)
        fclose(o.csv);
    return status;
}
