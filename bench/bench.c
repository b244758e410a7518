#define _POSIX_C_SOURCE 200809L
/* carom-bench: throughput of the event loop on standard scenes.
 *
 * Each configuration (dim, N, packing, mono/poly) runs `runs` times, each
 * in a child process so that peak memory is measured per run. A run builds
 * a lattice, draws Maxwell-Boltzmann velocities (kT = 1), equilibrates for
 * `equilibrate` time units, then measures `time` time units. Reported per
 * configuration: the median over runs of collisions/s, events/s,
 * ns/collision, and peak RSS per sphere (above the resident memory the
 * process had before building anything). Writes JSON and CSV.
 *
 *   carom-bench [--dim 3] [--n 10000,100000] [--packing 0.45] [--poly 0|1]
 *               [--equilibrate 1] [--time 5] [--runs 3] [--seed 1]
 *               [--json FILE] [--csv FILE]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "carom/carom.h"
#include "carom/scene.h"

typedef struct run_result {
    double collisions_per_second;
    double events_per_second;
    double ns_per_collision;
    double bytes_per_sphere;
    double setup_seconds;
    double compressibility;
    double collisions;
    double baseline_bytes; /* resident memory before the run (program, libc) */
    int ok;
} run_result;

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

/* One measured run, in the current process; writes its result to fd. */
static int run_once(int dim, size_t n, double packing, int poly, double eq, double time,
                    unsigned long long seed, run_result *out)
{
    carom_error err;
    carom_scene scene;
    carom_scene_init(&scene);
    scene.dim = dim;
    /* Polydisperse: radii uniform in [0.5, 1.0] x r0, box from their volume. */
    double radius = 0.5;
    double L = carom_box_length_for_packing(dim, n, radius, packing);
    if (poly) {
        double mean_power = dim == 3 ? (pow(1.0, 4) - pow(0.5, 4)) / (4 * 0.5)
                                     : (pow(1.0, 3) - pow(0.5, 3)) / (3 * 0.5);
        double mono_power = dim == 3 ? pow(0.5, 3) : pow(0.5, 2);
        L *= pow(mean_power / mono_power, 1.0 / dim);
    }
    for (int k = 0; k < 3; k++) {
        scene.box[k] = L;
        scene.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    double t0 = seconds_now();
    if (carom_scene_lattice(&scene, n, poly ? 1.0 : radius, CAROM_LATTICE_AUTO, &err) != CAROM_OK)
        return fail("lattice", err.message);
    if (poly) {
        unsigned long long s = seed * 2654435761ULL + 12345;
        for (size_t i = 0; i < n; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            scene.radius[i] = 0.5 + 0.5 * (double)(s >> 11) / 9007199254740992.0;
        }
    }
    if (carom_scene_maxwell_velocities(&scene, 1.0, seed, &err) != CAROM_OK)
        return fail("velocities", err.message);
    carom_world_def def = carom_world_default_def();
    carom_world *w = carom_scene_create_world(&scene, &def, &err);
    carom_scene_free(&scene);
    if (!w)
        return fail("world", err.message);
    if (carom_world_advance_to(w, 0.0) != CAROM_OK)
        return fail("start", carom_world_error_message(w));
    double t1 = seconds_now();
    if (carom_world_advance_to(w, eq) != CAROM_OK)
        return fail("equilibrate", carom_world_error_message(w));
    carom_world_reset_stats(w);
    double t2 = seconds_now();
    if (carom_world_advance_to(w, eq + time) != CAROM_OK)
        return fail("run", carom_world_error_message(w));
    double t3 = seconds_now();
    carom_stats st;
    carom_world_get_stats(w, &st);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    out->collisions = (double)st.collisions;
    out->collisions_per_second = (double)st.collisions / (t3 - t2);
    out->events_per_second = (double)st.events / (t3 - t2);
    out->ns_per_collision = 1e9 * (t3 - t2) / (double)st.collisions;
    out->bytes_per_sphere = ((double)ru.ru_maxrss * 1024.0 - out->baseline_bytes) / (double)n;
    out->setup_seconds = t1 - t0;
    out->compressibility = carom_world_compressibility(w);
    out->ok = 1;
    carom_world_free(w);
    return 0;
}

static int run_in_child(int dim, size_t n, double packing, int poly, double eq, double time,
                        unsigned long long seed, run_result *out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        run_result r;
        memset(&r, 0, sizeof r);
        r.baseline_bytes = resident_bytes();
        int rc = run_once(dim, n, packing, poly, eq, time, seed, &r);
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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    int dim = 3, poly = 0, runs = 3;
    double packing = 0.45, eq = 1.0, time = 5.0;
    unsigned long long seed = 1;
    const char *nlist = "10000,100000", *json = NULL, *csv = NULL;
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
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
        else if (!strcmp(opt, "--runs")) runs = atoi(val);
        else if (!strcmp(opt, "--seed")) seed = strtoull(val, NULL, 10);
        else if (!strcmp(opt, "--json")) json = val;
        else if (!strcmp(opt, "--csv")) csv = val;
        else {
            fprintf(stderr, "carom-bench: unknown option %s\n", opt);
            return 2;
        }
    }
    if ((dim != 2 && dim != 3) || runs < 1 || runs > 99 || !(packing > 0) || !(time > 0)) {
        fprintf(stderr, "carom-bench: bad arguments\n");
        return 2;
    }
    FILE *fj = json ? fopen(json, "w") : NULL;
    FILE *fc = csv ? fopen(csv, "w") : NULL;
    if ((json && !fj) || (csv && !fc)) {
        fprintf(stderr, "carom-bench: cannot write output file\n");
        return 1;
    }
    if (fj)
        fprintf(fj, "[\n");
    if (fc)
        fprintf(fc, "dim,n,packing,poly,runs,collisions_per_second,events_per_second,"
                    "ns_per_collision,bytes_per_sphere,setup_seconds,compressibility\n");
    printf("| dim | N | packing | radii | collisions/s | events/s | ns/collision | bytes/sphere | setup s | Z |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    int first = 1;
    for (const char *p = nlist; *p;) {
        size_t n = strtoull(p, NULL, 10);
        while (*p && *p != ',')
            p++;
        if (*p == ',')
            p++;
        if (n == 0)
            continue;
        double cps[99], eps[99], nsc[99], bps[99], setup[99], z[99];
        for (int r = 0; r < runs; r++) {
            run_result res;
            if (run_in_child(dim, n, packing, poly, eq, time, seed + (unsigned)r, &res) != 0) {
                fprintf(stderr, "carom-bench: run failed (dim %d, N %zu)\n", dim, n);
                return 1;
            }
            cps[r] = res.collisions_per_second;
            eps[r] = res.events_per_second;
            nsc[r] = res.ns_per_collision;
            bps[r] = res.bytes_per_sphere;
            setup[r] = res.setup_seconds;
            z[r] = res.compressibility;
        }
        double m_cps = median(cps, runs), m_eps = median(eps, runs), m_nsc = median(nsc, runs);
        double m_bps = median(bps, runs), m_setup = median(setup, runs), m_z = median(z, runs);
        printf("| %d | %zu | %.3g | %s | %.3g | %.3g | %.0f | %.0f | %.2f | %.4f |\n", dim, n, packing,
               poly ? "poly 1:2" : "mono", m_cps, m_eps, m_nsc, m_bps, m_setup, m_z);
        fflush(stdout);
        if (fj) {
            fprintf(fj,
                    "%s  {\"dim\": %d, \"n\": %zu, \"packing\": %g, \"poly\": %d, \"runs\": %d, "
                    "\"equilibrate\": %g, \"time\": %g, \"collisions_per_second\": %.6g, "
                    "\"events_per_second\": %.6g, \"ns_per_collision\": %.4g, "
                    "\"bytes_per_sphere\": %.1f, \"setup_seconds\": %.4g, \"compressibility\": %.6g}",
                    first ? "" : ",\n", dim, n, packing, poly, runs, eq, time, m_cps, m_eps, m_nsc,
                    m_bps, m_setup, m_z);
        }
        if (fc)
            fprintf(fc, "%d,%zu,%g,%d,%d,%.6g,%.6g,%.4g,%.1f,%.4g,%.6g\n", dim, n, packing, poly,
                    runs, m_cps, m_eps, m_nsc, m_bps, m_setup, m_z);
        first = 0;
    }
    if (fj) {
        fprintf(fj, "\n]\n");
        fclose(fj);
    }
    if (fc)
        fclose(fc);
    return 0;
}
