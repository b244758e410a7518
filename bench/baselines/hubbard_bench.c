#define _POSIX_C_SOURCE 200809L
/* carom-hubbard-bench: seed 000's Table 1, carom's engine against
 * Hubbard's broad phase (hubbard.c) on the same driven scenes.
 *
 * Scene (Kim, Guibas, Shin 2005, §4.2): N spheres of radii uniform in
 * [0.1, 10] at random non-overlapping positions in a 200^3 box with
 * walls, random directions, speeds uniform in [2.5 sqrt 3, 25 sqrt 3],
 * acceleration bounds uniform in [10, 20], driven by carom's random-forces
 * driver (carom/drive.h: a random acceleration of norm <= A redrawn every
 * 0.1), elastic response, mass 1. Each run builds the scene from its seed
 * and gives each engine its own driver made from the same scene and seed,
 * so both start from exactly the same state and forces; they stay
 * identical until round-off separates them (the first contacts agree,
 * and the number of leading contacts found identically, same spheres and
 * time to 1e-9, is reported as a cross-check).
 *
 * Reported per N: processing seconds per simulated second for each
 * engine (median over runs, and mean), their ratio (Hubbard / carom), the
 * paper's numbers and ratio, contacts per simulated second, and Hubbard's
 * work counters per simulated second. Hubbard's engine may run a shorter
 * simulated time than carom's (--hubbard-time), since it is slow.
 *
 *   carom-hubbard-bench [--n 30,100,300,1000] [--time 15] [--hubbard-time 15,15,5,1]
 *                       [--runs 5] [--seed 1] [--horizon 0] [--eager 0|1]
 *                       [--json FILE] [--csv FILE]
 *
 * --horizon H fixes Hubbard's window (0: adaptive, see hubbard.c); --eager 1
 * sweeps each window whole at every rebuild (hubbard.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "carom/carom.h"
#include "carom/drive.h"
#include "carom/scene.h"
#include "hubbard.h"

#define MAXRUNS 99
#define NCHECK 64

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct first_contacts {
    int n;
    double t[NCHECK];
    int i[NCHECK], j[NCHECK];
} first_contacts;

static void record_contact(void *user, carom_contact *c)
{
    first_contacts *f = user;
    if (f->n >= NCHECK)
        return;
    f->t[f->n] = c->time;
    int i = (int)c->i, j = c->kind == CAROM_CONTACT_SPHERE ? (int)c->j : -1 - c->wall;
    if (j >= 0 && j < i) {
        int k = i;
        i = j;
        j = k;
    }
    f->i[f->n] = i;
    f->j[f->n] = j;
    f->n++;
}

static int leading_agreement(const first_contacts *a, const first_contacts *b)
{
    int k = 0;
    while (k < a->n && k < b->n && a->i[k] == b->i[k] && a->j[k] == b->j[k] &&
           fabs(a->t[k] - b->t[k]) <= 1e-9 * fmax(1.0, fabs(a->t[k])))
        k++;
    return k;
}

typedef struct scene_data {
    carom_scene scene;
    double *bound;
} scene_data;

static int build_scene(size_t n, unsigned long long seed, scene_data *sd)
{
    carom_error err;
    carom_scene_init(&sd->scene);
    sd->scene.dim = 3;
    for (int a = 0; a < 3; a++) {
        sd->scene.box[a] = 200.0;
        sd->scene.boundary[a] = CAROM_BOUNDARY_WALLS;
    }
    if (carom_scene_resize(&sd->scene, n, &err) != CAROM_OK ||
        carom_scene_random_radii(&sd->scene, 0.1, 10.0, seed, &err) != CAROM_OK ||
        carom_scene_place_random(&sd->scene, seed + 1, &err) != CAROM_OK ||
        carom_scene_random_velocities(&sd->scene, 2.5 * sqrt(3.0), 25 * sqrt(3.0), seed + 2,
                                      &err) != CAROM_OK) {
        fprintf(stderr, "carom-hubbard-bench: scene: %s\n", err.message);
        return -1;
    }
    sd->bound = malloc((n ? n : 1) * sizeof *sd->bound);
    if (!sd->bound)
        return -1;
    unsigned long long s = seed * 0x9E3779B97F4A7C15ULL + 3;
    for (size_t k = 0; k < n; k++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        sd->bound[k] = 10.0 + 10.0 * (double)(s >> 11) / 9007199254740992.0;
    }
    return 0;
}

static carom_forces *make_forces(const scene_data *sd, unsigned long long seed)
{
    carom_forces_def def = carom_forces_default_def();
    def.dim = 3;
    def.interval = 0.1;
    def.seed = seed + 5;
    carom_error err;
    carom_forces *f = carom_forces_create(&def, sd->scene.n,
                                          (const double (*)[3])sd->scene.position,
                                          (const double (*)[3])sd->scene.velocity,
                                          sd->scene.radius, sd->bound, &err);
    if (!f)
        fprintf(stderr, "carom-hubbard-bench: forces: %s\n", err.message);
    return f;
}

typedef struct run_result {
    double carom_seconds, carom_sim, carom_contacts, carom_events, carom_bound_collisions;
    double hub_seconds, hub_sim, hub_contacts;
    carom_hubbard_stats hs;
    int agree;
} run_result;

static int run_carom(const scene_data *sd, unsigned long long seed, double sim,
                     first_contacts *fc, run_result *out)
{
    carom_forces *f = make_forces(sd, seed);
    if (!f)
        return -1;
    carom_world_def def = carom_world_default_def();
    def.dim = 3;
    for (int a = 0; a < 3; a++) {
        def.box[a] = 200.0;
        def.boundary[a] = CAROM_BOUNDARY_WALLS;
    }
    def.driver = carom_forces_driver(f);
    def.on_contact = record_contact;
    def.user_data = fc;
    def.capacity_hint = sd->scene.n;
    carom_error err;
    carom_world *w = carom_world_create(&def, &err);
    if (!w) {
        fprintf(stderr, "carom-hubbard-bench: world: %s\n", err.message);
        carom_forces_free(f);
        return -1;
    }
    int rc = 0;
    for (size_t k = 0; k < sd->scene.n && rc == 0; k++) {
        carom_sphere_def s = carom_forces_sphere_def(f, k);
        s.mass = 1.0;
        if (carom_world_add_sphere(w, &s, NULL) != CAROM_OK)
            rc = -1;
    }
    /* the start (checks, grid) is not timed, for either engine */
    if (rc == 0 && carom_world_advance_to(w, 0.0) != CAROM_OK)
        rc = -1;
    double t0 = seconds_now();
    if (rc == 0 && carom_world_advance_to(w, sim) != CAROM_OK)
        rc = -1;
    double t1 = seconds_now();
    if (rc != 0)
        fprintf(stderr, "carom-hubbard-bench: carom: %s\n", carom_world_error_message(w));
    carom_stats st;
    carom_world_get_stats(w, &st);
    out->carom_seconds = t1 - t0;
    out->carom_sim = sim;
    out->carom_contacts = (double)(st.collisions + st.wall_hits);
    out->carom_events = (double)st.events;
    out->carom_bound_collisions = (double)st.bound_collisions;
    carom_world_free(w);
    carom_forces_free(f);
    return rc;
}

static int run_hubbard(const scene_data *sd, unsigned long long seed, double sim, double horizon,
                       int eager,
                       first_contacts *fc, run_result *out)
{
    carom_forces *f = make_forces(sd, seed);
    if (!f)
        return -1;
    size_t n = sd->scene.n;
    carom_sphere_def *defs = malloc((n ? n : 1) * sizeof *defs);
    if (!defs) {
        carom_forces_free(f);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        defs[k] = carom_forces_sphere_def(f, k);
        defs[k].mass = 1.0;
    }
    carom_hubbard_def def = carom_hubbard_default_def();
    def.horizon = horizon;
    def.eager_sweep = eager;
    def.driver = carom_forces_driver(f);
    def.on_contact = record_contact;
    def.user_data = fc;
    carom_error err;
    carom_hubbard *h = carom_hubbard_create(&def, n, defs, 0.0, &err);
    free(defs);
    if (!h) {
        fprintf(stderr, "carom-hubbard-bench: hubbard: %s\n", err.message);
        carom_forces_free(f);
        return -1;
    }
    int rc = carom_hubbard_advance_to(h, 0.0) == CAROM_OK ? 0 : -1;
    double t0 = seconds_now();
    if (rc == 0 && carom_hubbard_advance_to(h, sim) != CAROM_OK)
        rc = -1;
    double t1 = seconds_now();
    if (rc != 0)
        fprintf(stderr, "carom-hubbard-bench: hubbard: %s\n", carom_hubbard_error_message(h));
    carom_hubbard_get_stats(h, &out->hs);
    out->hub_seconds = t1 - t0;
    out->hub_sim = sim;
    out->hub_contacts = (double)(out->hs.collisions + out->hs.wall_hits);
    carom_hubbard_free(h);
    carom_forces_free(f);
    return rc;
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

static double mean(const double *v, int n)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        s += v[k];
    return s / n;
}

/* Table 1 of seed 000 (seconds of computing per simulated second, 195 MHz R10000). */
static const struct {
    int n;
    double kgs, hubbard;
} paper[] = {{30, 0.00576, 0.94064},
             {100, 0.02776, 13.36050},
             {300, 0.15844, 150.28884},
             {1000, 1.37200, 2767.82990}};

static int parse_list(const char *s, double *out, int max)
{
    int k = 0;
    while (*s && k < max) {
        char *end;
        out[k++] = strtod(s, &end);
        if (end == s)
            return -1;
        s = *end == ',' ? end + 1 : end;
    }
    return k;
}

int main(int argc, char **argv)
{
    const char *nlist = "30,100,300,1000", *htlist = "15,15,5,1", *json = NULL, *csv = NULL;
    double sim = 15.0, horizon = 0.0;
    int runs = 5, eager = 0;
    unsigned long long seed = 1;
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (!val) {
            fprintf(stderr, "carom-hubbard-bench: option %s needs a value\n", opt);
            return 2;
        }
        a++;
        if (!strcmp(opt, "--n")) nlist = val;
        else if (!strcmp(opt, "--time")) sim = atof(val);
        else if (!strcmp(opt, "--hubbard-time")) htlist = val;
        else if (!strcmp(opt, "--runs")) runs = atoi(val);
        else if (!strcmp(opt, "--seed")) seed = strtoull(val, NULL, 10);
        else if (!strcmp(opt, "--horizon")) horizon = atof(val);
        else if (!strcmp(opt, "--eager")) eager = atoi(val);
        else if (!strcmp(opt, "--json")) json = val;
        else if (!strcmp(opt, "--csv")) csv = val;
        else {
            fprintf(stderr, "carom-hubbard-bench: unknown option %s\n", opt);
            return 2;
        }
    }
    double ns[16], hts[16];
    int nn = parse_list(nlist, ns, 16), nht = parse_list(htlist, hts, 16);
    if (nn < 1 || nht < 1 || runs < 1 || runs > MAXRUNS || !(sim > 0) || !(horizon >= 0)) {
        fprintf(stderr, "carom-hubbard-bench: bad arguments\n");
        return 2;
    }
    FILE *jf = json ? fopen(json, "w") : NULL, *cf = csv ? fopen(csv, "w") : NULL;
    if ((json && !jf) || (csv && !cf)) {
        fprintf(stderr, "carom-hubbard-bench: cannot write output file\n");
        return 1;
    }
    if (cf)
        fprintf(cf, "n,runs,carom_time,hubbard_time,carom_s_per_s,hubbard_s_per_s,ratio,"
                    "paper_kgs_s_per_s,paper_hubbard_s_per_s,paper_ratio,carom_contacts_per_s,"
                    "hubbard_contacts_per_s,rebuilds_per_s,swaps_per_s,candidates_per_s,"
                    "narrow_checks_per_s,agree_min\n");
    char head[256];
    snprintf(head, sizeof head,
             "{\"bench\": \"carom-hubbard-bench\", \"runs\": %d, \"seed\": %llu, "
             "\"horizon\": %g, \"eager\": %d, \"results\": [\n",
             runs, seed, horizon, eager);
    fputs(head, stdout);
    if (jf)
        fputs(head, jf);
    int status = 0;
    for (int q = 0; q < nn; q++) {
        size_t n = (size_t)ns[q];
        double ht = hts[q < nht ? q : nht - 1];
        if (ht > sim)
            ht = sim;
        double cs[MAXRUNS], hsps[MAXRUNS], ccs[MAXRUNS], hcs[MAXRUNS];
        double reb = 0, swp = 0, cand = 0, chk = 0, cev = 0, cbc = 0;
        int agree_min = NCHECK;
        for (int r = 0; r < runs; r++) {
            unsigned long long rs = seed + 1000ULL * (unsigned long long)r;
            scene_data sd;
            if (build_scene(n, rs, &sd) != 0)
                return 1;
            static first_contacts fa, fb;
            fa.n = fb.n = 0;
            run_result res;
            memset(&res, 0, sizeof res);
            if (run_carom(&sd, rs, sim, &fa, &res) != 0 ||
                run_hubbard(&sd, rs, ht, horizon, eager, &fb, &res) != 0)
                status = 1;
            carom_scene_free(&sd.scene);
            free(sd.bound);
            /* compare only contacts both had time to find */
            first_contacts fa_cut = fa;
            int k = 0;
            while (k < fa_cut.n && fa_cut.t[k] <= ht)
                k++;
            fa_cut.n = k;
            int ag = leading_agreement(&fa_cut, &fb);
            int possible = fa_cut.n < fb.n ? fa_cut.n : fb.n;
            if (ag < possible && ag < agree_min)
                agree_min = ag;
            else if (ag == possible && possible < agree_min)
                agree_min = possible;
            cs[r] = res.carom_seconds / res.carom_sim;
            hsps[r] = res.hub_seconds / res.hub_sim;
            ccs[r] = res.carom_contacts / res.carom_sim;
            hcs[r] = res.hub_contacts / res.hub_sim;
            cev += res.carom_events / res.carom_sim / runs;
            cbc += res.carom_bound_collisions / res.carom_sim / runs;
            reb += (double)res.hs.rebuilds / res.hub_sim / runs;
            swp += (double)res.hs.swaps / res.hub_sim / runs;
            cand += (double)res.hs.candidates / res.hub_sim / runs;
            chk += (double)res.hs.narrow_checks / res.hub_sim / runs;
            fprintf(stderr, "n %zu run %d: carom %.4g s/s, hubbard %.4g s/s (%.3g s simulated), "
                            "contacts/s %.0f vs %.0f, first contacts agreeing %d\n",
                    n, r, cs[r], hsps[r], ht, ccs[r], hcs[r], ag);
        }
        double cmean = mean(cs, runs), hmean = mean(hsps, runs);
        double cmed = median(cs, runs), hmed = median(hsps, runs);
        double ccm = median(ccs, runs), hcm = median(hcs, runs);
        double pk = NAN, ph = NAN;
        for (size_t p = 0; p < sizeof paper / sizeof paper[0]; p++)
            if ((size_t)paper[p].n == n) {
                pk = paper[p].kgs;
                ph = paper[p].hubbard;
            }
        char line[1024];
        snprintf(line, sizeof line,
                 "  {\"n\": %zu, \"carom_time\": %g, \"hubbard_time\": %g, "
                 "\"carom_s_per_s_median\": %.6g, \"carom_s_per_s_mean\": %.6g, "
                 "\"hubbard_s_per_s_median\": %.6g, \"hubbard_s_per_s_mean\": %.6g, "
                 "\"ratio_median\": %.6g, \"paper_kgs_s_per_s\": %.6g, "
                 "\"paper_hubbard_s_per_s\": %.6g, \"paper_ratio\": %.6g, "
                 "\"carom_contacts_per_s\": %.6g, \"hubbard_contacts_per_s\": %.6g, "
                 "\"carom_events_per_s\": %.6g, \"carom_bound_collisions_per_s\": %.6g, "
                 "\"hubbard_rebuilds_per_s\": %.6g, \"hubbard_swaps_per_s\": %.6g, "
                 "\"hubbard_candidates_per_s\": %.6g, \"hubbard_narrow_checks_per_s\": %.6g, "
                 "\"first_contacts_agreeing_min\": %d}%s\n",
                 n, sim, ht, cmed, cmean, hmed, hmean, hmed / cmed, pk, ph, ph / pk, ccm, hcm,
                 cev, cbc, reb, swp, cand, chk, agree_min, q + 1 < nn ? "," : "");
        fputs(line, stdout);
        fflush(stdout);
        if (jf)
            fputs(line, jf);
        if (cf)
            fprintf(cf, "%zu,%d,%g,%g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d\n",
                    n, runs, sim, ht, cmed, hmed, hmed / cmed, pk, ph, ph / pk, ccm, hcm, reb,
                    swp, cand, chk, agree_min);
    }
    printf("]}\n");
    if (jf) {
        fprintf(jf, "]}\n");
        fclose(jf);
    }
    if (cf)
        fclose(cf);
    return status;
}
