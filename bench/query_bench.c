/* carom-query-bench: the cost of the scene queries (include/carom/query.h)
 * in an equilibrated hard-sphere gas, N spheres at packing fraction 0.3
 * in a periodic box. Per run: 2,000 ray casts and 2,000 casts of a sphere
 * of radius 0.5, each over a tenth of the box in a random direction from
 * a random point, and 2,000 overlap queries of radius 2; a row per kind
 * with the median over the runs of the time per query and per sphere.
 * The queries of a run share the index the third one builds; the next
 * row is what the first three queries at a new time cost together (two
 * full scans and the build; median of 21 after short advances). The
 * last row is the obstacle query (radius 2) over a fixed mesh of 9,800
 * triangles, a bumpy floor across a walled 3D box of the same side, at
 * points within 2 of it (per triangle instead of per sphere).
 *
 * usage: carom-query-bench [--n N] [--dim 2|3] [--runs R] [--json FILE]
 * (defaults 100000, 3, 5; JSON to stdout without --json) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "carom/scene.h"
#include "baselines/bench_common.h"

#define QUERIES 2000
#define MAX_RUNS 51

static double uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

static int usage(const char *why)
{
    fprintf(stderr,
            "carom-query-bench: %s\nusage: carom-query-bench [--n N] [--dim 2|3] "
            "[--runs R] [--json FILE]\n",
            why);
    return 2;
}

/* A fixed world of its own for the obstacle query: a bumpy floor of
 * 2 MESH_CELLS^2 triangles over a walled box of side L, no spheres. */
#define MESH_CELLS 70
static carom_world *mesh_world(double L, carom_error *e)
{
    carom_world_def def = carom_world_default_def();
    for (int k = 0; k < 3; k++) {
        def.box[k] = L;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    carom_world *w = carom_world_create(&def, e);
    double h = L / MESH_CELLS;
    for (int i = 0; w && i < MESH_CELLS; i++)
        for (int j = 0; j < MESH_CELLS; j++) {
            double c[4][3];
            for (int k = 0; k < 4; k++) {
                int a = i + (k == 1 || k == 2), b = j + (k >= 2);
                c[k][0] = a * h;
                c[k][1] = b * h;
                c[k][2] = 0.5 * L + 0.3 * ((a * 7 + b * 3) % 5);
            }
            if (carom_world_add_triangle(w, c[0], c[1], c[2], NULL) != CAROM_OK ||
                carom_world_add_triangle(w, c[0], c[2], c[3], NULL) != CAROM_OK) {
                carom_world_free(w);
                return NULL;
            }
        }
    return w;
}

/* One run of one kind: seconds for QUERIES queries; *found counts hits.
 * Kind 3, the obstacle query, asks at points within 2 of the floor. */
static double run_kind(carom_world *w, int kind, int dim, double L, unsigned long long seed,
                       long *found)
{
    unsigned long long state = seed;
    double t0 = bench_now();
    for (int q = 0; q < QUERIES; q++) {
        double origin[3] = {0.0, 0.0, 0.0}, motion[3] = {0.0, 0.0, 0.0}, norm = 0.0;
        for (int k = 0; k < dim; k++) {
            origin[k] = L * uniform(&state);
            motion[k] = uniform(&state) - 0.5;
            norm += motion[k] * motion[k];
        }
        norm = sqrt(norm);
        for (int k = 0; k < dim; k++)
            motion[k] *= 0.1 * L / (norm > 0.0 ? norm : 1.0);
        if (kind < 2) {
            carom_cast c = {{origin[0], origin[1], origin[2]},
                            {motion[0], motion[1], motion[2]},
                            kind == 0 ? 0.0 : 0.5,
                            CAROM_QUERY_NO_SPHERE};
            carom_cast_hit h;
            int hit = 0;
            if (carom_world_cast_sphere(w, &c, &h, &hit) != CAROM_OK)
                return -1.0;
            *found += hit;
        } else if (kind == 2) {
            size_t count = 0;
            if (carom_world_query_sphere(w, origin, 2.0, NULL, 0, &count) != CAROM_OK)
                return -1.0;
            *found += (long)count;
        } else {
            size_t count = 0;
            origin[2] = 0.5 * L + 0.6 + 4.0 * (uniform(&state) - 0.5);
            if (carom_world_query_obstacles(w, origin, 2.0, NULL, 0, &count) != CAROM_OK)
                return -1.0;
            *found += (long)count;
        }
    }
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    long n = 100000;
    int dim = 3, runs = 5;
    const char *json = NULL;
    for (int a = 1; a < argc; a++) {
        if (a + 1 >= argc)
            return usage("every option takes a value");
        char *end;
        if (!strcmp(argv[a], "--n")) {
            n = strtol(argv[++a], &end, 10);
            if (*end || n < 10 || n > 100000000)
                return usage("--n: an integer from 10 to 10^8");
        } else if (!strcmp(argv[a], "--dim")) {
            dim = (int)strtol(argv[++a], &end, 10);
            if (*end || (dim != 2 && dim != 3))
                return usage("--dim: 2 or 3");
        } else if (!strcmp(argv[a], "--runs")) {
            runs = (int)strtol(argv[++a], &end, 10);
            if (*end || runs < 1 || runs > MAX_RUNS)
                return usage("--runs: an integer from 1 to 51");
        } else if (!strcmp(argv[a], "--json")) {
            json = argv[++a];
        } else {
            return usage("unknown option");
        }
    }
    carom_error e;
    carom_scene sc;
    carom_scene_init(&sc);
    sc.dim = dim;
    double L = carom_box_length_for_packing(dim, (size_t)n, 0.5, 0.3);
    for (int k = 0; k < 3; k++) {
        sc.box[k] = L;
        sc.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    if (carom_scene_lattice(&sc, (size_t)n, 0.5, CAROM_LATTICE_AUTO, &e) != CAROM_OK ||
        carom_scene_maxwell_velocities(&sc, 1.0, 5, &e) != CAROM_OK) {
        fprintf(stderr, "carom-query-bench: %s\n", e.message);
        return 1;
    }
    carom_world *w = carom_scene_create_world(&sc, NULL, &e);
    carom_scene_free(&sc);
    if (!w || carom_world_advance_to(w, 2.0) != CAROM_OK) {
        fprintf(stderr, "carom-query-bench: %s\n", w ? carom_world_error_message(w) : e.message);
        return 1;
    }
    static const char *const names[3] = {"ray cast", "sphere cast (radius 0.5)",
                                         "overlap query (radius 2)"};
    FILE *out = json ? fopen(json, "w") : stdout;
    if (!out) {
        fprintf(stderr, "carom-query-bench: cannot write '%s'\n", json);
        return 1;
    }
    fprintf(out,
            "{\"n\": %ld, \"dim\": %d, \"packing\": 0.3, \"runs\": %d, \"queries\": %d, "
            "\"rows\": [",
            n, dim, runs, QUERIES);
    for (int kind = 0; kind < 3; kind++) {
        double seconds[MAX_RUNS];
        long found = 0;
        for (int r = 0; r < runs; r++) {
            seconds[r] =
                run_kind(w, kind, dim, L, 1000003ULL * (unsigned long long)(r + 1), &found);
            if (seconds[r] < 0.0) {
                fprintf(stderr, "carom-query-bench: %s\n", carom_world_error_message(w));
                return 1;
            }
        }
        double per_query = bench_median(seconds, runs) / QUERIES;
        fprintf(out,
                "%s{\"query\": \"%s\", \"ns_per_query\": %.1f, \"ns_per_sphere\": %.3f, "
                "\"found_per_query\": %.3f}",
                kind ? ", " : "", names[kind], 1e9 * per_query, 1e9 * per_query / (double)n,
                (double)found / ((double)runs * QUERIES));
    }
    /* The index's build: the first three queries after each of 21 short
     * advances, together (two full scans, then the build and one query
     * through it; the event work of the advance is not timed). */
    double build[21];
    for (int r = 0; r < 21; r++) {
        if (carom_world_advance_to(w, carom_world_time(w) + 1e-3) != CAROM_OK) {
            fprintf(stderr, "carom-query-bench: %s\n", carom_world_error_message(w));
            return 1;
        }
        size_t count = 0;
        const double centre[3] = {0.5 * L, 0.5 * L, dim == 3 ? 0.5 * L : 0.0};
        double t0 = bench_now();
        for (int q = 0; q < 3; q++)
            carom_world_query_sphere(w, centre, 2.0, NULL, 0, &count);
        build[r] = bench_now() - t0;
    }
    double b = bench_median(build, 21);
    fprintf(out,
            ", {\"query\": \"the first three queries after an advance, together\", "
            "\"ns_per_query\": %.1f, \"ns_per_sphere\": %.3f, \"found_per_query\": 0}",
            1e9 * b, 1e9 * b / (double)n);
    /* The obstacle query over a mesh, in a 3D world of its own (the
     * first query builds the triangles' tree: not timed). */
    carom_world *m = mesh_world(L, &e);
    size_t none = 0;
    const double corner[3] = {0.0, 0.0, 0.0};
    if (!m || carom_world_query_obstacles(m, corner, 0.0, NULL, 0, &none) != CAROM_OK) {
        fprintf(stderr, "carom-query-bench: %s\n", m ? carom_world_error_message(m) : e.message);
        return 1;
    }
    double seconds[MAX_RUNS];
    long found = 0;
    for (int r = 0; r < runs; r++)
        seconds[r] = run_kind(m, 3, 2, L, 1000003ULL * (unsigned long long)(r + 1), &found);
    double per_query = bench_median(seconds, runs) / QUERIES;
    fprintf(out,
            ", {\"query\": \"obstacle query (radius 2) over %d triangles\", "
            "\"ns_per_query\": %.1f, \"ns_per_triangle\": %.3f, \"found_per_query\": %.3f}",
            2 * MESH_CELLS * MESH_CELLS, 1e9 * per_query,
            1e9 * per_query / (2.0 * MESH_CELLS * MESH_CELLS),
            (double)found / ((double)runs * QUERIES));
    carom_world_free(m);
    fprintf(out, "]}\n");
    if (json)
        fclose(out);
    carom_world_free(w);
    return 0;
}
