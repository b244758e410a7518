/* carom-segments-bench: what fixed segments (carom_world_add_segment, 2D)
 * cost the event loop as their number grows. A periodic square of G x G
 * cells of side 10 holds one segment of length about 5 in each (G^2
 * segments, stored with their periodic images: 9 G^2) and disks of radius
 * 0.5 on a lattice of spacing 2 clear of them (about 20 a cell), at
 * speed 1 in directions of their own, elastic. Per grid and run: the
 * world advances to t = 1 (not timed) and then to t = 21; the row is the
 * median over the runs of the seconds of the second advance, with the
 * last run's sphere collisions and segment contacts (wall hits), and
 * contacts (both) per second.
 *
 * usage: carom-segments-bench [--grids G,G,...] [--runs R] [--csv FILE]
 * (defaults 2,5,10,20 and 3; CSV to stdout without --csv) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "baselines/bench_common.h"

#define PROGRAM "carom-segments-bench"
#define MAX_GRIDS 16
#define MAX_RUNS 15

static int usage(const char *why)
{
    fprintf(stderr, PROGRAM ": %s\nusage: " PROGRAM " [--grids G,G,...] [--runs R] [--csv FILE]\n",
            why);
    return 2;
}

/* The world for a grid of g x g cells: segments first, then the disks. */
static carom_world *maze(int g, int *disks)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 10.0 * g;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        bench_die(PROGRAM, "world", e.message);
    for (int i = 0; i < g; i++)
        for (int j = 0; j < g; j++) {
            const double a[2] = {10.0 * i + 1.0, 10.0 * j + 5.0};
            const double b[2] = {10.0 * i + 6.0, 10.0 * j + 5.0 + (i + j) % 3 - 1.0};
            if (carom_world_add_segment(w, a, b, NULL) != CAROM_OK)
                bench_die(PROGRAM, "segment", carom_world_error_message(w));
        }
    unsigned long long seed = 1;
    *disks = 0;
    for (int i = 0; i < 5 * g; i++)
        for (int j = 0; j < 5 * g; j++) {
            double y = 2.0 * j + 1.0, in_cell = fmod(y, 10.0);
            if (in_cell >= 3.5 && in_cell <= 6.5)
                continue; /* the segments' rows */
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            double angle = (double)(seed >> 11) * (6.283185307179586 / 9007199254740992.0);
            carom_sphere_def s = carom_sphere_default_def();
            s.position[0] = 2.0 * i + 1.0;
            s.position[1] = y;
            s.velocity[0] = cos(angle);
            s.velocity[1] = sin(angle);
            if (carom_world_add_sphere(w, &s, NULL) != CAROM_OK)
                bench_die(PROGRAM, "disk", carom_world_error_message(w));
            (*disks)++;
        }
    return w;
}

int main(int argc, char **argv)
{
    int grids[MAX_GRIDS] = {2, 5, 10, 20}, ngrids = 4, runs = 3;
    const char *csv_path = NULL;
    for (int a = 1; a < argc; a++) {
        if (a + 1 >= argc)
            return usage("every option takes a value");
        if (strcmp(argv[a], "--grids") == 0) {
            ngrids = 0;
            for (char *p = argv[++a]; *p;) {
                char *end;
                long g = strtol(p, &end, 10);
                if (end == p || g < 1 || g > 100 || ngrids == MAX_GRIDS || (*end && *end != ','))
                    return usage("--grids takes up to 16 whole numbers from 1 to 100, by commas");
                grids[ngrids++] = (int)g;
                p = *end ? end + 1 : end;
            }
            if (ngrids == 0)
                return usage("--grids takes up to 16 whole numbers from 1 to 100, by commas");
        } else if (strcmp(argv[a], "--runs") == 0) {
            double r = bench_number(PROGRAM, "--runs", argv[++a]);
            if (r < 1 || r > MAX_RUNS || r != floor(r))
                return usage("--runs takes a whole number from 1 to 15");
            runs = (int)r;
        } else if (strcmp(argv[a], "--csv") == 0) {
            csv_path = argv[++a];
        } else {
            return usage("unknown option");
        }
    }
    bench_check_writable(PROGRAM, csv_path);
    FILE *csv = csv_path ? bench_open(PROGRAM, csv_path) : stdout;
    fprintf(csv, "segments,stored,disks,seconds,collisions,segment_contacts,events,"
                 "contacts_per_second\n");
    for (int k = 0; k < ngrids; k++) {
        double seconds[MAX_RUNS];
        carom_stats st = {0};
        int disks = 0;
        size_t given = 0;
        for (int r = 0; r < runs; r++) {
            carom_world *w = maze(grids[k], &disks);
            given = carom_world_segment_count(w);
            if (carom_world_advance_to(w, 1.0) != CAROM_OK)
                bench_die(PROGRAM, "advance", carom_world_error_message(w));
            carom_world_reset_stats(w);
            double t0 = bench_now();
            if (carom_world_advance_to(w, 21.0) != CAROM_OK)
                bench_die(PROGRAM, "advance", carom_world_error_message(w));
            seconds[r] = bench_now() - t0;
            carom_world_get_stats(w, &st);
            carom_world_free(w);
        }
        double median = bench_median(seconds, runs);
        fprintf(csv, "%zu,%zu,%d,%.6f,%llu,%llu,%llu,%.0f\n", given, 9 * given, disks, median,
                (unsigned long long)st.collisions, (unsigned long long)st.wall_hits,
                (unsigned long long)st.events,
                (double)(st.collisions + st.wall_hits) / median);
        fflush(csv);
    }
    if (csv != stdout)
        fclose(csv);
    return 0;
}
