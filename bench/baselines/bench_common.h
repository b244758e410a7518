/* What the benchmark programs (stepped_bench.c, frames_bench.c,
 * rolling_bench.c, ../query_bench.c) share: a monotonic clock, the median
 * of timed runs, reading numbers from the command line, where a bad value
 * ends the program with one line on stderr naming the program and the
 * option, timing carom report-only on a scene, and opening and closing
 * the JSON and CSV files. */
#ifndef CAROM_BENCH_COMMON_H
#define CAROM_BENCH_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "carom/carom.h"
#include "carom/scene.h"

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0 .. n), n >= 1 (sorts v). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_by_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline void bench_die(const char *program, const char *what, const char *message)
{
    fprintf(stderr, "%s: %s: %s\n", program, what, message);
    exit(1);
}

/* text as a finite number, or the end of the program. */
static inline double bench_number(const char *program, const char *key, const char *text)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v))
        bench_die(program, key, "expected a finite number");
    return v;
}

/* carom on the scene, report-only, from 0 to t_end: the median over runs
 * (1 to 15) of the seconds carom_world_advance_to takes (the world's
 * build not counted); the last run's stats into *stats. */
static inline double bench_time_carom(const char *program, const carom_scene *scene, double t_end,
                                      int runs, carom_stats *stats)
{
    double seconds[15];
    for (int r = 0; r < runs && r < 15; r++) {
        carom_world_def def = carom_world_default_def();
        def.response = CAROM_RESPONSE_NONE;
        carom_error e;
        carom_world *w = carom_scene_create_world(scene, &def, &e);
        if (!w)
            bench_die(program, "carom", e.message);
        double t0 = bench_now();
        if (carom_world_advance_to(w, t_end) != CAROM_OK)
            bench_die(program, "carom", carom_world_error_message(w));
        seconds[r] = bench_now() - t0;
        carom_world_get_stats(w, stats);
        carom_world_free(w);
    }
    return bench_median(seconds, runs < 15 ? runs : 15);
}

/* Opens path for writing (NULL: no file), or ends the program. */
static inline FILE *bench_open(const char *program, const char *path)
{
    FILE *f = path ? fopen(path, "w") : NULL;
    if (path && !f)
        bench_die(program, path, "cannot write");
    return f;
}

/* Ends the program now, not after the runs, if path (may be NULL) cannot
 * be written. */
static inline void bench_check_writable(const char *program, const char *path)
{
    FILE *f = bench_open(program, path);
    if (f)
        fclose(f);
}

/* Ends the JSON record's list of rows and closes both files (either may
 * be NULL). */
static inline void bench_close(FILE *json, FILE *csv)
{
    if (json) {
        fprintf(json, "]}\n");
        fclose(json);
    }
    if (csv)
        fclose(csv);
}

#endif
