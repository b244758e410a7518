/* Running a scene; contract in simulate.h. */
#define _POSIX_C_SOURCE 200809L
#include "simulate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "frames.h"
#include "obstacles.h"
#include "pressure_blocks.h"
#include "report.h"
#include "setup.h"
#include "shear.h"
#include "transport.h"

/* ---- collision log ---- */

typedef struct contact_log {
    FILE *file;
    int active; /* only the measured run is logged */
    int failed;
} contact_log;

static void log_contact(void *user_data, carom_contact *contact)
{
    contact_log *log = user_data;
    if (!log->active || contact->kind != CAROM_CONTACT_SPHERE || contact->parting)
        return;
    uint32_t i = contact->i < contact->j ? contact->i : contact->j;
    uint32_t j = contact->i < contact->j ? contact->j : contact->i;
    if (fprintf(log->file, "%.17g %lu %lu\n", contact->time, (unsigned long)i,
                (unsigned long)j) < 0)
        log->failed = 1;
}

/* The world's contact callback: the collision log, the stress observer
 * (viscosity=, bulk_viscosity=, conductivity=) and the sheared run's
 * pressure tensor, each when there is one; every contact goes to all. */
typedef struct contact_observers {
    contact_log *log;        /* NULL: no collision log */
    carom_stress *stress;    /* NULL: no transport coefficient */
    shear_run *sheared;      /* NULL: not sheared */
} contact_observers;

static void observe_contact(void *user_data, carom_contact *contact)
{
    contact_observers *o = user_data;
    if (o->log)
        log_contact(o->log, contact);
    if (o->stress)
        carom_stress_on_contact(o->stress, contact);
    if (o->sheared)
        shear_on_contact(o->sheared, contact);
}

/* ---- clock and progress ---- */

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* CPU time of the whole process (all its threads). */
static double cpu_seconds(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

typedef struct progress {
    int enabled;
    double last_print;
    const char *phase;
    double from, to; /* simulated times of the phase */
} progress;

static void progress_show(progress *p, const carom_world *w, int force)
{
    if (!p->enabled)
        return;
    double t = now_seconds();
    if (!force && t - p->last_print < 0.25)
        return;
    p->last_print = t;
    double span = p->to - p->from;
    double done = span > 0.0 ? (carom_world_time(w) - p->from) / span : 1.0;
    carom_stats st;
    carom_world_get_stats(w, &st);
    fprintf(stderr, "\rcarom: %s %5.1f%%  t = %-12.6g collisions %-14llu", p->phase,
            100.0 * done, carom_world_time(w), (unsigned long long)st.collisions);
    fflush(stderr);
}

static void progress_end(progress *p)
{
    if (p->enabled) {
        fprintf(stderr, "\r%79s\r", "");
        fflush(stderr);
    }
}

static int world_failed(const run_options *o, carom_world *w, cli_error *error)
{
    if (o->init)
        return cli_fail(error, CLI_EXIT_RUNTIME, "%s: %s", o->init, carom_world_error_message(w));
    return cli_fail(error, CLI_EXIT_RUNTIME, "%s", carom_world_error_message(w));
}

/* Advances to t (through the bath when there is one), showing progress
 * on the way. In pieces of events, which change nothing (the world stays
 * at its last event): the blocks of Z's error when given, and on a
 * terminal 200,000 events at most so that progress shows. Never in
 * pieces of simulated time: a stop at a time moves every sphere to it,
 * which would make a run on a terminal differ from one without in the
 * round-off, and so in everything after a while. */
static int advance(const run_options *o, carom_world *w, carom_andersen *bath, double t,
                   progress *p, pressure_blocks *blocks, cli_error *error)
{
    for (;;) {
        uint64_t budget = p->enabled ? 200000 : UINT64_MAX, processed;
        uint64_t block_left = blocks ? pressure_blocks_budget(blocks, w) : UINT64_MAX;
        if (block_left < budget)
            budget = block_left;
        int reached = 0;
        carom_status st =
            bath ? carom_andersen_advance_to_limited(bath, w, t, budget, &processed, &reached)
                 : carom_world_advance_to_limited(w, t, budget, &processed, &reached);
        if (st != CAROM_OK)
            return world_failed(o, w, error);
        if (blocks)
            pressure_blocks_note(blocks, w);
        progress_show(p, w, 0);
        if (reached)
            return 0;
    }
}

/* advance, stopping at the sheared run's rescalings on the way (sheared
 * NULL: none). */
static int advance_sheared(const run_options *o, carom_world *w, carom_andersen *bath,
                           shear_run *sheared, double t, progress *p, pressure_blocks *blocks,
                           cli_error *error)
{
    while (sheared && sheared->next <= t) {
        int status = advance(o, w, bath, sheared->next, p, blocks, error);
        if (status)
            return status;
        if (shear_rescale(sheared, w) != 0)
            return world_failed(o, w, error);
    }
    return advance(o, w, bath, t, p, blocks, error);
}

/* All velocities scaled to temperature kt (growing heats the spheres). */
static int rescale_velocities(const run_options *o, carom_world *w, double kt, cli_error *error)
{
    double now = carom_world_temperature(w), turning = carom_world_rotational_temperature(w);
    double f = now > 0.0 ? sqrt(kt / now) : 1.0;
    /* Rough spheres: their spins too, to the same temperature (they
     * start at none, and the growth heats them through rough contacts). */
    double g = carom_world_is_rough(w) && turning > 0.0 ? sqrt(kt / turning) : 1.0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state s;
        if (carom_world_get_sphere(w, id, &s) != CAROM_OK)
            continue;
        for (int k = 0; k < 3; k++)
            s.velocity[k] *= f;
        if (f != 1.0 && carom_world_set_velocity(w, id, s.velocity) != CAROM_OK)
            return world_failed(o, w, error);
        double spin[3];
        if (g != 1.0 && carom_world_get_spin(w, id, spin) == CAROM_OK) {
            for (int k = 0; k < 3; k++)
                spin[k] *= g;
            if (carom_world_set_spin(w, id, spin) != CAROM_OK)
                return world_failed(o, w, error);
        }
    }
    return 0;
}

/* Z beyond which grown spheres count as jammed (compress=jam): they are
 * within about dim / Z of the densest packing they can reach. */
#define JAMMED_Z 1e3

/* compress=: the spheres grow (Lubachevsky-Stillinger) at compress_rate
 * until the packing is compress (exactly: the growth stops at the time
 * the law gives), or until jammed; in steps of 20 collisions a sphere,
 * after each of which the velocities (and rough spheres' spins) are
 * scaled back to the temperature the growth started at. */
static int compress(const run_options *o, carom_world *w, run_result *r, cli_error *error)
{
    double wall_start = now_seconds(), kt = carom_world_temperature(w);
    double t0 = carom_world_time(w), start = carom_world_packing_fraction(w);
    if (carom_world_set_growth(w, o->compress_rate) != CAROM_OK)
        return world_failed(o, w, error);
    double t_end = INFINITY;
    if (isfinite(o->compress)) {
        if (!(o->compress > start))
            return cli_fail(error, CLI_EXIT_USAGE,
                            "compress=%g: the spheres already fill %.6g of the box", o->compress,
                            start);
        t_end = t0 + (pow(o->compress / start, 1.0 / o->dim) - 1.0) / o->compress_rate;
    }
    uint64_t step = 20 * (uint64_t)carom_world_sphere_count(w) + 1;
    for (;;) {
        carom_world_reset_stats(w);
        uint64_t done;
        int reached = 0;
        carom_status st = isfinite(t_end)
                              ? carom_world_advance_to_limited(w, t_end, step, &done, &reached)
                              : carom_world_step_events(w, step, &done);
        if (st != CAROM_OK)
            return world_failed(o, w, error);
        double z = carom_world_compressibility(w);
        if (reached)
            break;
        if (z > JAMMED_Z) {
            if (isfinite(t_end))
                return cli_fail(error, CLI_EXIT_RUNTIME,
                                "compress=%g: the spheres jammed at packing %.6g (Z = %.3g)",
                                o->compress, carom_world_packing_fraction(w), z);
            break;
        }
        int status = rescale_velocities(o, w, kt, error);
        if (status)
            return status;
    }
    if (carom_world_set_growth(w, 0.0) != CAROM_OK)
        return world_failed(o, w, error);
    r->packing_compressed = carom_world_packing_fraction(w);
    r->compress_seconds = now_seconds() - wall_start;
    return rescale_velocities(o, w, kt, error);
}

static FILE *open_output(const char *path, cli_error *error)
{
    FILE *f = fopen(path, "w");
    if (!f)
        cli_fail(error, CLI_EXIT_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
    return f;
}

static int close_output(FILE *f, const char *path, int status, cli_error *error)
{
    if (!f)
        return status;
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad && !status)
        return cli_fail(error, CLI_EXIT_RUNTIME, "error writing '%s'", path);
    return status;
}

/* Instants t0 + k * interval, k = 0 ... last (the last no later than the
 * end); none when interval is 0. */
typedef struct series {
    double interval;
    long k, last;
} series;

static series series_of(double interval, double span)
{
    series s = {interval, 0, -1};
    if (interval > 0.0)
        s.last = (long)floor(span / interval * (1.0 + 1e-12));
    return s;
}

static double series_time(const series *s, double t0, double t_end)
{
    if (s->k > s->last)
        return INFINITY;
    return s->k == 0 ? t0 : fmin(t0 + (double)s->k * s->interval, t_end);
}

/* Each species' kinetic temperature, as carom_world_temperature's for
 * all: the mean of m v^2 / dim over its spheres of finite mass (NaN for
 * a species without any). */
static void species_temperatures(const run_options *o, const carom_world *w, double *kt)
{
    double sum[CAROM_SPECIES_MAX] = {0.0};
    size_t count[CAROM_SPECIES_MAX] = {0};
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state s;
        if (carom_world_get_sphere(w, id, &s) != CAROM_OK || !isfinite(s.mass) ||
            s.species >= CAROM_SPECIES_MAX)
            continue;
        double v2 = 0.0;
        for (int k = 0; k < 3; k++) /* (0 along z in 2D) */
            v2 += s.velocity[k] * s.velocity[k];
        sum[s.species] += s.mass * v2;
        count[s.species]++;
    }
    for (int k = 0; k < CAROM_SPECIES_MAX; k++)
        kt[k] = count[k] ? sum[k] / (o->dim * (double)count[k]) : NAN;
}

/* ---- transport coefficients ---- */

/* The transport coefficients asked for (TRANSPORT_* flags). */
static int transport_kept(const run_options *o)
{
    return (o->viscosity ? TRANSPORT_VISCOSITY : 0) |
           (o->bulk_viscosity ? TRANSPORT_BULK_VISCOSITY : 0) |
           (o->conductivity ? TRANSPORT_CONDUCTIVITY : 0);
}

/* The transport keys on, for messages: "viscosity", "viscosity and
 * conductivity", "viscosity, bulk_viscosity and conductivity"... */
static const char *transport_keys(const run_options *o)
{
    static const char *const names[] = {
        [TRANSPORT_VISCOSITY] = "viscosity",
        [TRANSPORT_BULK_VISCOSITY] = "bulk_viscosity",
        [TRANSPORT_CONDUCTIVITY] = "conductivity",
        [TRANSPORT_VISCOSITY | TRANSPORT_BULK_VISCOSITY] = "viscosity and bulk_viscosity",
        [TRANSPORT_VISCOSITY | TRANSPORT_CONDUCTIVITY] = "viscosity and conductivity",
        [TRANSPORT_BULK_VISCOSITY | TRANSPORT_CONDUCTIVITY] = "bulk_viscosity and conductivity",
        [TRANSPORT_STRESS | TRANSPORT_CONDUCTIVITY] = "viscosity, bulk_viscosity and "
                                                      "conductivity",
    };
    return names[transport_kept(o)];
}

/* A transport coefficient of the run: where its value and error go, and
 * its CSV (file NULL: none). */
typedef struct transport_output {
    int which; /* TRANSPORT_* */
    int on;
    const char *file;
    FILE *csv;
    double *value, *error;
} transport_output;

/* Each coefficient on at a lag of m intervals into the run's result, and
 * its CSV written. */
static int transport_results(const run_options *o, const transport *flux,
                             transport_output *out, size_t count, size_t m, double volume,
                             double kt, cli_error *error)
{
    for (size_t k = 0; k < count; k++) {
        if (!out[k].on)
            continue;
        *out[k].value =
            transport_estimate(flux, out[k].which, m, o->dim, volume, kt, out[k].error);
        if (out[k].csv &&
            transport_write_csv(flux, out[k].which, out[k].csv, m, o->dim, volume, kt) != 0)
            return cli_fail(error, CLI_EXIT_RUNTIME, "error writing '%s'", out[k].file);
    }
    return 0;
}

/* ---- the measured run ---- */

static int measured_run(const run_options *o, carom_world *w, carom_andersen *bath,
                        shear_run *sheared, contact_log *log, frames *trajectory,
                        rdf *structure, transport *flux, run_result *r, progress *p,
                        cli_error *error)
{
    const double t0 = carom_world_time(w), t_end = t0 + o->time;
    carom_world_reset_stats(w);
    /* With a bath, in the fluid the reference describes (whose energy
     * changes only through the bath), Z over the run's mean temperature
     * with its error; in other runs with a bath, neither (see below). */
    const carom_andersen *canonical = bath && report_reference_applies(o) ? bath : NULL;
    pressure_blocks blocks;
    pressure_blocks_start(&blocks, w, canonical);
    r->start_time = t0;
    r->kinetic_energy_initial = carom_world_kinetic_energy(w);
    r->temperature_initial = carom_world_temperature(w);
    r->rotational_energy_initial = carom_world_rotational_energy(w);
    r->rotational_temperature_initial = carom_world_rotational_temperature(w);
    carom_world_momentum(w, r->momentum_initial);
    p->phase = "run";
    p->from = t0;
    p->to = t_end;
    double wall_start = now_seconds(), cpu_start = cpu_seconds();
    log->active = 1;
    int status = 0;
    displacement moved = {0, 0, NULL, NULL};
    r->mean_square_displacement = NAN;
    if (o->msd && displacement_start(&moved, w) != 0)
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory for msd");
    if (sheared && shear_measure_start(sheared, w) != 0) {
        displacement_free(&moved);
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory for shear");
    }
    int started = flux ? transport_start(flux, w) : 0;
    if (started != 0) { /* -2: Q's own conditions, conductivity='s */
        displacement_free(&moved);
        return cli_fail(error, CLI_EXIT_RUNTIME, "%s: %s",
                        started == -2 ? "conductivity" : transport_keys(o), flux->message);
    }
    /* Frames, g(r) samples and samples of the stress and heat integrals at
     * t0 + k * interval, k = 0, 1, ... up to the end, in time order. */
    double sampling_cpu = 0.0;
    series frames_due = series_of(trajectory ? o->frame_interval : 0.0, o->time);
    series rdf_due = series_of(structure ? o->rdf_interval : 0.0, o->time);
    series stress_due = series_of(flux ? o->transport_interval : 0.0, o->time);
    for (;;) {
        double tf = series_time(&frames_due, t0, t_end), tg = series_time(&rdf_due, t0, t_end);
        double ts = series_time(&stress_due, t0, t_end);
        double t = fmin(fmin(tf, tg), ts);
        if (status || t == INFINITY)
            break;
        status = advance_sheared(o, w, bath, sheared, t, p, &blocks, error);
        if (!status && tf == t) {
            status = frames_write(trajectory, w, error);
            r->frames++;
            frames_due.k++;
        }
        if (!status && tg == t) {
            double wall = now_seconds(), cpu = cpu_seconds();
            if (rdf_sample(structure, w) != 0)
                status = cli_fail(error, CLI_EXIT_RUNTIME, "out of memory for rdf");
            r->rdf_seconds += now_seconds() - wall;
            sampling_cpu += cpu_seconds() - cpu;
            rdf_due.k++;
        }
        if (!status && ts == t) {
            double wall = now_seconds(), cpu = cpu_seconds();
            if (transport_sample(flux, w) != 0)
                status = cli_fail(error, CLI_EXIT_RUNTIME, "%s: %s", transport_keys(o),
                                  flux->message);
            r->transport_seconds += now_seconds() - wall;
            sampling_cpu += cpu_seconds() - cpu;
            stress_due.k++;
        }
    }
    if (!status)
        status = advance_sheared(o, w, bath, sheared, t_end, p, &blocks, error);
    if (!status && sheared && shear_measure_end(sheared, w) != 0)
        status = cli_fail(error, CLI_EXIT_RUNTIME, "out of memory for shear");
    log->active = 0;
    r->wall_seconds = now_seconds() - wall_start - r->rdf_seconds - r->transport_seconds;
    r->cpu_seconds = cpu_seconds() - cpu_start - sampling_cpu;
    progress_end(p);
    if (!status && o->msd)
        r->mean_square_displacement = displacement_msd(&moved, w);
    displacement_free(&moved);
    if (status)
        return status;
    if (log->failed)
        return cli_fail(error, CLI_EXIT_RUNTIME, "error writing '%s'", o->collision_log);
    r->end_time = carom_world_time(w);
    carom_world_get_stats(w, &r->stats);
    r->kinetic_energy_final = carom_world_kinetic_energy(w);
    r->temperature_final = carom_world_temperature(w);
    r->rotational_energy_final = carom_world_rotational_energy(w);
    r->rotational_temperature_final = carom_world_rotational_temperature(w);
    carom_world_momentum(w, r->momentum_final);
    if (o->species > 1)
        species_temperatures(o, w, r->species_temperature_final);
    /* The world's Z divides by the mean temperature of the run's ends: with
     * a bath, off by about sqrt(1 / (d N)) of itself however long the run,
     * an error the blocks do not see; so no error then, unless the bath's
     * energy gives the run's mean temperature. */
    r->compressibility =
        canonical ? pressure_blocks_z(&blocks, w) : carom_world_compressibility(w);
    r->compressibility_error =
        bath && !canonical
            ? NAN
            : pressure_blocks_error(&blocks, w, r->compressibility, &r->pressure_blocks);
    if (sheared) {
        /* The viscosity from the heat; Z over the run's mean temperature
         * relative to the profile (the blocks' error assumes a fixed
         * energy: none). */
        r->shear_viscosity = shear_viscosity(sheared, w, &r->shear_viscosity_error,
                                             &r->shear_heat, &r->shear_temperature);
        r->shear_rescales = sheared->rescales;
        r->shear_offset = carom_world_shear_offset(w);
        shear_pressure_of(sheared, w, &r->shear_pressure);
        double spheres = 0.0;
        for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
            carom_sphere_state st;
            spheres += carom_world_get_sphere(w, id, &st) == CAROM_OK && isfinite(st.mass);
        }
        double span = r->end_time - r->start_time;
        r->compressibility =
            span > 0.0 && spheres > 0.0
                ? 1.0 + r->stats.virial / (o->dim * span * spheres * r->shear_temperature)
                : NAN;
        r->compressibility_error = NAN;
    }
    r->max_overlap = fmax(r->stats.max_overlap, carom_world_max_overlap_now(w));
    r->list_skin = carom_world_list_skin(w);
    return 0;
}

/* g(r) over the measured run: its range and bins from the spheres as
 * they are now (after any compression), its contact value for equal
 * spheres (NaN otherwise, in r->rdf_contact until the end). */
static int structure_start(const run_options *o, const carom_world *w, rdf *g, run_result *r,
                           cli_error *error)
{
    double smallest = INFINITY, largest = 0.0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state s;
        if (carom_world_get_sphere(w, id, &s) == CAROM_OK) {
            smallest = fmin(smallest, s.radius);
            largest = fmax(largest, s.radius);
        }
    }
    const carom_world_def *def = carom_world_get_def(w);
    double half = INFINITY;
    for (int k = 0; k < def->dim; k++)
        half = fmin(half, 0.5 * def->box[k]);
    r->rdf_max = o->rdf_max > 0.0 ? o->rdf_max : fmin(half, 6.0 * largest);
    r->rdf_bin = o->rdf_bin > 0.0 ? o->rdf_bin : smallest / 50.0;
    double bins = ceil(r->rdf_max / r->rdf_bin * (1.0 - 1e-12));
    if (!(bins >= 1.0 && bins <= 1e7))
        return cli_fail(error, CLI_EXIT_USAGE, "rdf: %g bins of %g up to %g: 1 to 10^7 bins",
                        bins, r->rdf_bin, r->rdf_max);
    char message[CAROM_ERROR_MESSAGE_SIZE];
    if (rdf_start(g, w, r->rdf_max, (size_t)bins, message, sizeof message) != 0)
        return cli_fail(error, CLI_EXIT_USAGE, "%s", message);
    r->rdf_bin = r->rdf_max / (double)bins;
    r->rdf_contact = smallest == largest ? 2.0 * smallest : NAN; /* sigma, for now */
    return 0;
}

/* The lag when transport_lag is not given: 50 mean free times of the
 * measured run (N time / (2 collisions), N the spheres of finite mass),
 * by when Einstein-Helfand's estimate has reached its plateau in dilute
 * to dense fluids (docs/viscosity.md), and its error keeps falling with
 * a longer run; time/10 in a run without collisions. A whole number of
 * intervals, at least one, at most half the samples. */
static size_t default_lag(const run_options *o, const run_result *r, const transport *flux,
                          const carom_world *w)
{
    double spheres = 0.0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state s;
        spheres += carom_world_get_sphere(w, id, &s) == CAROM_OK && isfinite(s.mass);
    }
    double free_time = r->stats.collisions > 0
                           ? spheres * o->time / (2.0 * (double)r->stats.collisions)
                           : o->time / 500.0;
    double m = floor(50.0 * free_time / o->transport_interval + 0.5);
    double most = floor((double)(flux->count - 1) / 2.0);
    return (size_t)fmax(1.0, fmin(m, most));
}

/* shear=: the world sheared at the rate and offset asked, the profile
 * added to generated velocities, the rescalings' interval chosen. */
static int start_shear(const run_options *o, carom_world *w, const carom_andersen *bath,
                       shear_run *sheared, run_result *r, cli_error *error)
{
    double kt = o->init || o->use_speed ? 0.0 : o->temperature;
    r->shear_interval = isnan(o->shear_interval) ? shear_interval_for(w, o->shear, kt)
                                                 : o->shear_interval;
    if (shear_start(sheared, w, o->shear, o->shear_offset, r->shear_interval, kt, o->dim,
                    !o->init, bath) != 0)
        return world_failed(o, w, error);
    return 0;
}

int simulate(const run_options *o, carom_scene *scene, motion *m, run_result *r,
             cli_error *error)
{
    memset(r, 0, sizeof *r);
    contact_log log = {NULL, 0, 0};
    contact_observers observers = {NULL, NULL, NULL};
    transport flux = {0};
    r->viscosity = r->viscosity_error = NAN;
    r->bulk_viscosity = r->bulk_viscosity_error = NAN;
    r->conductivity = r->conductivity_error = NAN;
    transport_output outputs[] = {
        {TRANSPORT_VISCOSITY, o->viscosity, o->viscosity_file, NULL, &r->viscosity,
         &r->viscosity_error},
        {TRANSPORT_BULK_VISCOSITY, o->bulk_viscosity, o->bulk_viscosity_file, NULL,
         &r->bulk_viscosity, &r->bulk_viscosity_error},
        {TRANSPORT_CONDUCTIVITY, o->conductivity, o->conductivity_file, NULL, &r->conductivity,
         &r->conductivity_error},
    };
    const size_t noutputs = sizeof outputs / sizeof outputs[0];
    carom_world_def def = carom_world_default_def();
    for (int d = 0; d < 3; d++)
        def.gravity[d] = o->gravity[d];
    def.restitution = o->restitution;
    def.wall_restitution = o->wall_restitution;
    def.tangential_restitution = o->tangential_restitution;
    def.wall_tangential_restitution = o->wall_tangential_restitution;
    def.inertia_factor = o->inertia_factor;
    def.friction = o->friction;
    def.wall_friction = o->wall_friction;
    def.restitution_min_speed = o->restitution_min_speed;
    def.response = o->response;
    def.neighbours = o->neighbours;
    def.prefetch = o->prefetch;
    def.reorder = o->reorder;
    /* Unwrapped positions for msd, and for an H5MD trajectory's images. */
    def.count_images = o->msd || (o->trajectory && frames_name_is_h5md(o->trajectory));
    frames *trajectory = NULL;
    carom_andersen *bath = NULL;
    shear_run sheared_run = {0}, *sheared = NULL;
    rdf structure = {0};
    FILE *rdf_csv = NULL;
    carom_world *w = NULL;
    int status = 0;
    if (o->rdf_file && !(rdf_csv = open_output(o->rdf_file, error)))
        return error->exit_code;
    for (size_t k = 0; k < noutputs; k++)
        if (outputs[k].file && !(outputs[k].csv = open_output(outputs[k].file, error))) {
            status = error->exit_code;
            goto done;
        }
    if (o->collision_log) {
        log.file = open_output(o->collision_log, error);
        if (!log.file) {
            status = error->exit_code;
            goto done;
        }
        observers.log = &log;
    }
    if (options_transport(o)) {
        /* Samples k = 0 .. last at t0 + k interval (series_of's count). */
        size_t samples = (size_t)series_of(o->transport_interval, o->time).last + 1;
        if (transport_create(&flux, transport_kept(o), o->transport_interval, samples) != 0) {
            status = cli_fail(error, CLI_EXIT_RUNTIME, "%s: %s", transport_keys(o),
                              flux.message);
            goto done;
        }
        observers.stress = transport_observer(&flux);
    }
    if (o->shear != 0.0)
        observers.sheared = &sheared_run;
    if (observers.log || observers.stress || observers.sheared) {
        def.on_contact = observe_contact;
        def.user_data = &observers;
    }
    carom_error e;
    if (m && m->kind != MOTION_BALLISTIC) {
        w = motion_world(m, scene, def, error);
        if (!w) {
            status = error->exit_code;
            goto done;
        }
    } else {
        w = carom_scene_create_world(scene, &def, &e);
    }
    if (!w) {
        status = cli_fail(error, CLI_EXIT_RUNTIME, "%s%s%s", o->init ? o->init : "",
                          o->init ? ": " : "", e.message);
        goto done;
    }
    carom_scene_free(scene); /* the world has its own copy */
    status = setup_species_laws(o, w, error);
    if (status)
        goto done;
    r->rough = carom_world_is_rough(w);
    const obstacle_lists lists = {o->nplanes,    (const double(*)[4])o->plane,
                             o->nsegments,  (const double(*)[4])o->segment,
                             o->ntriangles, (const double(*)[9])o->triangle};
    if (obstacles_add(w, &lists)) {
        status = cli_fail(error, CLI_EXIT_USAGE, "%s%s%s", o->init ? o->init : "",
                          o->init ? ": " : "", carom_world_error_message(w));
        goto done;
    }
    if (o->init) {
        status = frames_restore_images(o->init, w, error);
        if (status)
            goto done;
    }
    if (o->thermostat > 0.0) {
        carom_andersen_def bath_def = carom_andersen_default_def();
        bath_def.kT = o->temperature;
        bath_def.rate = o->thermostat;
        bath_def.seed = o->seed ^ 0x5eed5eed5eedULL; /* not the velocities' stream */
        bath = carom_andersen_create(&bath_def, &e);
        if (!bath) {
            status = cli_fail(error, CLI_EXIT_USAGE, "thermostat: %s", e.message);
            goto done;
        }
    }
    progress p = {isatty(fileno(stderr)), 0.0, "equilibrate", 0.0, o->equilibrate};
    /* Sheared from the start, unless the spheres are first compressed
     * (growth and shear do not go together): then after it. */
    if (o->shear != 0.0 && !o->compress) {
        status = start_shear(o, w, bath, &sheared_run, r, error);
        if (status)
            goto done;
        sheared = &sheared_run;
    }
    /* The first advance checks the initial state (overlaps, box). */
    if (carom_world_advance_to(w, carom_world_time(w)) != CAROM_OK) {
        status = world_failed(o, w, error);
        goto done;
    }
    if (o->compress > 0.0) {
        status = compress(o, w, r, error);
        if (status)
            goto done;
    }
    if (o->shear != 0.0 && o->compress) {
        status = start_shear(o, w, bath, &sheared_run, r, error);
        if (!status && carom_world_advance_to(w, carom_world_time(w)) != CAROM_OK)
            status = world_failed(o, w, error); /* checked sheared */
        if (status)
            goto done;
        sheared = &sheared_run;
    }
    double wall_start = now_seconds();
    if (o->equilibrate > 0.0) {
        status = advance_sheared(o, w, bath, sheared, carom_world_time(w) + o->equilibrate, &p,
                                 NULL, error);
        progress_end(&p);
        if (status)
            goto done;
    }
    r->equilibrate_wall_seconds = now_seconds() - wall_start;
    if (o->trajectory) {
        trajectory = frames_open(o->trajectory, scene, o->shear != 0.0, error);
        if (!trajectory) {
            status = error->exit_code;
            goto done;
        }
    }
    if (o->rdf) {
        status = structure_start(o, w, &structure, r, error);
        if (status)
            goto done;
    }
    status = measured_run(o, w, bath, sheared, &log, trajectory, o->rdf ? &structure : NULL,
                          options_transport(o) ? &flux : NULL, r, &p, error);
    if (!status && o->rdf) {
        r->rdf_samples = structure.samples;
        r->rdf_contact = rdf_contact(&structure, r->rdf_contact, 0.1 * r->rdf_contact);
        if (rdf_csv && rdf_write_csv(&structure, rdf_csv) != 0)
            status = cli_fail(error, CLI_EXIT_RUNTIME, "error writing '%s'", o->rdf_file);
    }
    if (!status && options_transport(o)) {
        /* At the mean of the run's initial and final temperatures. */
        double kt = 0.5 * (r->temperature_initial + r->temperature_final);
        double volume = carom_world_volume(w);
        r->transport_samples = flux.count;
        r->transport_lags = o->transport_lags ? o->transport_lags : default_lag(o, r, &flux, w);
        r->transport_lag = (double)r->transport_lags * o->transport_interval;
        status = transport_results(o, &flux, outputs, noutputs, r->transport_lags, volume, kt,
                                   error);
    }
    r->thermostat_redraws = bath ? carom_andersen_redraws(bath) : 0;
    if (!status && o->final) {
        FILE *f = open_output(o->final, error);
        if (!f)
            status = error->exit_code;
        else
            status = close_output(f, o->final, write_xyz_state(scene, w, f, o->final, error),
                                  error);
    }
done:
    status = frames_close(trajectory, status, error);
    status = close_output(log.file, o->collision_log, status, error);
    status = close_output(rdf_csv, o->rdf_file, status, error);
    for (size_t k = 0; k < noutputs; k++)
        status = close_output(outputs[k].csv, outputs[k].file, status, error);
    rdf_free(&structure);
    transport_free(&flux);
    carom_andersen_free(bath);
    shear_free(&sheared_run);
    carom_world_free(w);
    return status;
}
