/* Interpreting configuration values and scenario presets; contract in
 * options.h. The keys about species are read in options_species.c, with
 * the value parsers declared in options_parse.h. */
#include "options.h"
#include "options_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"

/* ---- scenario presets ---- */

typedef struct preset_value {
    config_key key;
    const char *value;
} preset_value;

typedef struct preset {
    const char *name;
    preset_value values[16];
} preset;

/* seed004: Kreylos' 2D box (radius 0.5, see shared/README.md) with gravity
 * so that the disks settle into dense stacks; restitution 0.9 dissipates
 * the fall. Hard disks can never come to rest: the world makes every
 * contact separate at restitution_min_speed at least, and under gravity a
 * settled disk bounces with period 2 v_min / g. With the default 1e-6 a
 * settled stack costs ~10^5 collisions per disk per time unit (and the
 * run never ends), so the preset uses v_min = 1 = sqrt(g * diameter): the
 * bed keeps vibrating a little (bounces of half a diameter at most) and
 * is settled into stacks at area fraction ~0.9 by t = 20 (~6 million
 * collisions).
 * seed003: Leong's 150 circles in a 10 x 15 grid with elastic walls; a
 * 10 x 15 box with circles of radius 0.25 on a square lattice (spacing
 * about 1), kT = 1, 10 time units (600 frames of 1/60).
 * seed000: Kim, Guibas and Shin's box of 200^3 with 1000 spheres of radii
 * uniform in 0.1-10, random positions, random directions and speeds
 * uniform in 2.5 sqrt(3) - 25 sqrt(3), 15 time units, ballistic.
 * kgs-forces: the same scene driven by random forces (seed 000 §4.2):
 * acceleration bounds uniform in [10, 20], forces redrawn every 0.1,
 * elastic response; beyond n = 3500 (the paper's largest) the box grows
 * to keep the density of the paper's reference run, 1000 spheres in 200^3
 * (options_from_config).
 * kgs-field: §4.3's 1000 particles of radii 1-10 at rest in the 200^3
 * box, driven towards the circulating velocity field with A = 30, 7 time
 * units (the paper's Fig. 8).
 * hopper: seed 004's disks (radius 0.5, gravity 1, restitution 0.9) in a
 * 60 x 60 box with a funnel of two fixed segments, its opening 6
 * diameters wide at y = 28: the disks placed in the funnel drain through
 * it onto those placed below (an hourglass's top and bottom), in about 60
 * time units.
 * silo: the hopper in 3D: spheres of radius 0.5 (gravity 1, restitution
 * 0.9) on an fcc lattice in a 24^3 box with a square funnel of eight
 * fixed triangles, from the box's sides at z = 16 down to an opening 4
 * diameters wide at z = 10; those placed in and above it drain onto
 * those below in about 40 time units. */
static const preset presets[] = {
    {"seed004",
     {{KEY_DIM, "2"}, {KEY_N, "8123"}, {KEY_RADIUS, "0.5"}, {KEY_BOX, "150"},
      {KEY_BOUNDARY, "walls"}, {KEY_GRAVITY, "1"}, {KEY_RESTITUTION, "0.9"},
      {KEY_WALL_RESTITUTION, "0.9"}, {KEY_RESTITUTION_MIN_SPEED, "1"}, {KEY_TEMPERATURE, "1"},
      {KEY_LATTICE, "hex"}, {KEY_EQUILIBRATE, "0"}, {KEY_TIME, "20"}, {KEY_COUNT, NULL}}},
    {"seed003",
     {{KEY_DIM, "2"}, {KEY_N, "150"}, {KEY_RADIUS, "0.25"}, {KEY_BOX, "10,15"},
      {KEY_BOUNDARY, "walls"}, {KEY_LATTICE, "square"}, {KEY_TEMPERATURE, "1"},
      {KEY_EQUILIBRATE, "0"}, {KEY_TIME, "10"}, {KEY_COUNT, NULL}}},
    {"seed000",
     {{KEY_DIM, "3"}, {KEY_N, "1000"}, {KEY_RADIUS, "0.1"}, {KEY_RADIUS_MAX, "10"},
      {KEY_BOX, "200"}, {KEY_BOUNDARY, "walls"},
      {KEY_SPEED, "4.3301270189221932,43.301270189221932"}, {KEY_EQUILIBRATE, "0"},
      {KEY_TIME, "15"}, {KEY_COUNT, NULL}}},
    {"kgs-forces",
     {{KEY_DIM, "3"}, {KEY_N, "1000"}, {KEY_RADIUS, "0.1"}, {KEY_RADIUS_MAX, "10"},
      {KEY_BOX, "200"}, {KEY_BOUNDARY, "walls"},
      {KEY_SPEED, "4.3301270189221932,43.301270189221932"}, {KEY_MOTION, "forces"},
      {KEY_ACCEL_BOUND, "10,20"}, {KEY_FORCE_INTERVAL, "0.1"}, {KEY_EQUILIBRATE, "0"},
      {KEY_TIME, "15"}, {KEY_COUNT, NULL}}},
    {"hopper",
     {{KEY_DIM, "2"}, {KEY_N, "1500"}, {KEY_RADIUS, "0.5"}, {KEY_BOX, "60"},
      {KEY_BOUNDARY, "walls"}, {KEY_GRAVITY, "1"}, {KEY_RESTITUTION, "0.9"},
      {KEY_WALL_RESTITUTION, "0.9"}, {KEY_RESTITUTION_MIN_SPEED, "1"}, {KEY_TEMPERATURE, "1"},
      {KEY_LATTICE, "hex"}, {KEY_SEGMENTS, "0,40,27,28/60,40,33,28"}, {KEY_EQUILIBRATE, "0"},
      {KEY_TIME, "60"}, {KEY_COUNT, NULL}}},
    {"silo",
     {{KEY_DIM, "3"}, {KEY_N, "2000"}, {KEY_RADIUS, "0.5"}, {KEY_BOX, "24"},
      {KEY_BOUNDARY, "walls"}, {KEY_GRAVITY, "1"}, {KEY_RESTITUTION, "0.9"},
      {KEY_WALL_RESTITUTION, "0.9"}, {KEY_RESTITUTION_MIN_SPEED, "1"}, {KEY_TEMPERATURE, "1"},
      {KEY_LATTICE, "fcc"},
      {KEY_TRIANGLES, /* four sides of two triangles each */
       "0,0,16,24,0,16,14,10,10/0,0,16,14,10,10,10,10,10/"
       "24,0,16,24,24,16,14,14,10/24,0,16,14,14,10,14,10,10/"
       "24,24,16,0,24,16,10,14,10/24,24,16,10,14,10,14,14,10/"
       "0,24,16,0,0,16,10,10,10/0,24,16,10,10,10,10,14,10"},
      {KEY_EQUILIBRATE, "0"}, {KEY_TIME, "40"}, {KEY_COUNT, NULL}}},
    {"kgs-field",
     {{KEY_DIM, "3"}, {KEY_N, "1000"}, {KEY_RADIUS, "1"}, {KEY_RADIUS_MAX, "10"},
      {KEY_BOX, "200"}, {KEY_BOUNDARY, "walls"}, {KEY_SPEED, "0"}, {KEY_MOTION, "field"},
      {KEY_ACCEL_BOUND, "30"}, {KEY_EQUILIBRATE, "0"}, {KEY_TIME, "7"}, {KEY_COUNT, NULL}}},
};

/* kgs-forces beyond the paper's largest N (3500): the density of its
 * reference run, 1000 spheres in 200^3 (the N = 10^5 target is "at
 * the same density" as that run). */
#define KGS_FORCES_BOX 200.0
#define KGS_FORCES_MAX_N 3500.0
#define KGS_FORCES_REFERENCE_N 1000.0

/* Keys that exclude each other: a user setting of one drops the preset's
 * other. */
static const config_key exclusive[][2] = {
    {KEY_BOX, KEY_PACKING},
    {KEY_TEMPERATURE, KEY_SPEED},
    {KEY_RADIUS, KEY_RADIUS_MAX},
};

static int is_geometry_key(config_key k)
{
    return k == KEY_DIM || k == KEY_N || k == KEY_RADIUS || k == KEY_RADIUS_MAX ||
           k == KEY_BOX || k == KEY_PACKING || k == KEY_LATTICE || k == KEY_SPEED ||
           k == KEY_TEMPERATURE;
}

int options_apply_scenario(config *c, cli_error *error)
{
    if (!config_is_set(c, KEY_SCENARIO))
        return 0;
    const char *name = c->value[KEY_SCENARIO];
    const preset *p = NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(presets[i].name, name))
            p = &presets[i];
    if (!p)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s: scenario=%s: unknown scenario (expected seed004, seed003, "
                        "seed000, kgs-forces, kgs-field, hopper or silo)", c->origin[KEY_SCENARIO],
                        name);
    char origin[64];
    snprintf(origin, sizeof origin, "scenario %s", p->name);
    for (const preset_value *v = p->values; v->key != KEY_COUNT; v++) {
        int skip = 0;
        for (size_t g = 0; g < sizeof exclusive / sizeof exclusive[0]; g++)
            for (int side = 0; side < 2; side++)
                if (exclusive[g][side] == v->key && config_from_user(c, exclusive[g][1 - side]))
                    skip = 1;
        /* With an init file the file gives the geometry and velocities. */
        if (config_is_set(c, KEY_INIT) && is_geometry_key(v->key))
            skip = 1;
        if (!skip && config_apply_default(c, v->key, v->value, origin, error))
            return error->exit_code;
    }
    return 0;
}

/* ---- values (options_bad_value, options_parse_number, options_parse_list
 * and options_get_whole serve options_species.c too: options_parse.h) ---- */

int options_bad_value(const config *c, config_key key, cli_error *error, const char *problem)
{
    return cli_fail(error, CLI_EXIT_USAGE, "%s: %s=%s: %s", c->origin[key],
                    config_key_name(key), c->value[key], problem);
}

/* Parses one number of a value (the whole token [s, s+len)). */
/* One number in [s, s + len); infinity only if `infinite_ok`. */
static int parse_number(const config *c, config_key key, const char *s, size_t len,
                        int infinite_ok, double *out, cli_error *error)
{
    char buf[128];
    while (len > 0 && isspace((unsigned char)*s))
        s++, len--;
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0 || len >= sizeof buf)
        return options_bad_value(c, key, error, "malformed number");
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double x = strtod(buf, &end);
    if (*end != '\0' || end == buf)
        return options_bad_value(c, key, error, "malformed number");
    if (isnan(x))
        return options_bad_value(c, key, error, "NaN is not allowed");
    if (isinf(x) && !infinite_ok)
        return options_bad_value(c, key, error, "infinity is not allowed");
    *out = x;
    return 0;
}

int options_parse_number(const config *c, config_key key, const char *s, size_t len, double *out,
                         cli_error *error)
{
    return parse_number(c, key, s, len, 0, out, error);
}

int options_parse_limit(const config *c, config_key key, const char *s, size_t len, double *out,
                        cli_error *error)
{
    return parse_number(c, key, s, len, 1, out, error);
}

/* key's value, a limit >= 0 or inf (the fallback when not given). */
static int get_limit(const config *c, config_key key, double fallback, double *out,
                     cli_error *error)
{
    *out = fallback;
    if (!config_is_set(c, key))
        return 0;
    const char *v = c->value[key];
    if (options_parse_limit(c, key, v, strlen(v), out, error))
        return error->exit_code;
    if (*out < 0.0)
        return options_bad_value(c, key, error, "must be >= 0 (inf: no limit)");
    return 0;
}

/* A comma-separated list of 1..max numbers in s[0..len). */
static int parse_numbers(const config *c, config_key key, const char *s, size_t len, double *out,
                         int max, int *count, cli_error *error)
{
    *count = 0;
    for (;;) {
        const char *comma = memchr(s, ',', len);
        size_t part = comma ? (size_t)(comma - s) : len;
        if (*count == max) {
            char problem[64];
            snprintf(problem, sizeof problem, "expected at most %d comma-separated numbers", max);
            return options_bad_value(c, key, error, problem);
        }
        if (options_parse_number(c, key, s, part, &out[*count], error))
            return error->exit_code;
        (*count)++;
        if (!comma)
            return 0;
        len -= part + 1;
        s = comma + 1;
    }
}

/* A comma-separated list of 1..max numbers. */
int options_parse_list(const config *c, config_key key, double *out, int max, int *count,
                       cli_error *error)
{
    return parse_numbers(c, key, c->value[key], strlen(c->value[key]), out, max, count, error);
}

/* The '/'-separated items of key's value (planes=, segments=,
 * triangles=), each a comma-separated list of 1..width numbers (item k at
 * item[k * width]): at most max items, named `what` in the message when
 * there are more. */
static int parse_items(const config *c, config_key key, int max, const char *what, int width,
                       double *item, int count[], int *n, cli_error *error)
{
    *n = 0;
    const char *s = c->value[key];
    for (;;) {
        const char *slash = strchr(s, '/');
        size_t len = slash ? (size_t)(slash - s) : strlen(s);
        if (*n == max) {
            char problem[64];
            snprintf(problem, sizeof problem, "at most %d %s", max, what);
            return options_bad_value(c, key, error, problem);
        }
        if (parse_numbers(c, key, s, len, item + (size_t)*n * (size_t)width, width, &count[*n],
                          error))
            return error->exit_code;
        (*n)++;
        if (!slash)
            return 0;
        s = slash + 1;
    }
}

/* planes=nx,ny[,nz],d[/...]: up to RUN_PLANES_MAX planes of dim + 1
 * numbers each, kept as unit normals (the library checks the normals
 * against the box). */
int options_planes(const config *c, int dim, double plane[RUN_PLANES_MAX][4], int *nplanes,
                   cli_error *error)
{
    *nplanes = 0;
    if (!config_is_set(c, KEY_PLANES))
        return 0;
    double v[RUN_PLANES_MAX][4];
    int count[RUN_PLANES_MAX], n;
    if (parse_items(c, KEY_PLANES, RUN_PLANES_MAX, "planes", 4, &v[0][0], count, &n, error))
        return error->exit_code;
    for (int q = 0; q < n; q++) {
        if (count[q] != dim + 1)
            return options_bad_value(
                c, KEY_PLANES, error,
                dim == 2 ? "each plane is nx,ny,d in 2D (planes separated by /)"
                         : "each plane is nx,ny,nz,d in 3D (planes separated by /)");
        double largest = 0.0, length = 0.0;
        for (int k = 0; k < dim; k++)
            largest = fmax(largest, fabs(v[q][k]));
        if (!(largest > 0.0) || !isfinite(largest))
            return options_bad_value(c, KEY_PLANES, error,
                                     "the normal must have a nonzero, finite length");
        for (int k = 0; k < dim; k++)
            length += (v[q][k] / largest) * (v[q][k] / largest);
        length = largest * sqrt(length);
        /* Kept as a unit normal and the offset along it (huge or tiny
         * normals would overflow a squared length downstream). */
        double *p = plane[q];
        for (int k = 0; k < 4; k++)
            p[k] = 0.0;
        for (int k = 0; k < dim; k++)
            p[k] = v[q][k] / length;
        p[3] = v[q][dim] / length;
    }
    *nplanes = n;
    return 0;
}

/* segments=x0,y0,x1,y1[/...]: up to RUN_SEGMENTS_MAX segments of four
 * numbers, 2D only (the library checks them against the box). */
int options_segments(const config *c, int dim, double segment[RUN_SEGMENTS_MAX][4],
                     int *nsegments, cli_error *error)
{
    *nsegments = 0;
    if (!config_is_set(c, KEY_SEGMENTS))
        return 0;
    if (dim != 2)
        return options_bad_value(c, KEY_SEGMENTS, error,
                                 "segments are for 2D worlds (planes= in 3D)");
    int count[RUN_SEGMENTS_MAX], n;
    if (parse_items(c, KEY_SEGMENTS, RUN_SEGMENTS_MAX, "segments", 4, &segment[0][0], count, &n,
                    error))
        return error->exit_code;
    for (int g = 0; g < n; g++)
        if (count[g] != 4)
            return options_bad_value(c, KEY_SEGMENTS, error,
                                     "each segment is x0,y0,x1,y1 (segments separated by /)");
    *nsegments = n;
    return 0;
}

/* segments_file=FILE: 2D only; the file is read by setup_scene
 * (segments_file.h), once the box is known. */
int options_segments_file(const config *c, int dim, const char **path, cli_error *error)
{
    *path = c->value[KEY_SEGMENTS_FILE];
    if (*path && dim != 2)
        return options_bad_value(c, KEY_SEGMENTS_FILE, error,
                                 "segments are for 2D worlds (planes= or mesh= in 3D)");
    return 0;
}

/* triangles=x0,y0,z0,x1,y1,z1,x2,y2,z2[/...]: up to RUN_TRIANGLES_MAX
 * triangles of nine numbers (three corners), 3D only (the library checks
 * them against the box and for an area). */
int options_triangles(const config *c, int dim, double triangle[RUN_TRIANGLES_MAX][9],
                      int *ntriangles, cli_error *error)
{
    *ntriangles = 0;
    if (!config_is_set(c, KEY_TRIANGLES))
        return 0;
    if (dim != 3)
        return options_bad_value(c, KEY_TRIANGLES, error,
                                 "triangles are for 3D worlds (segments= in 2D)");
    int count[RUN_TRIANGLES_MAX], n;
    if (parse_items(c, KEY_TRIANGLES, RUN_TRIANGLES_MAX, "triangles", 9, &triangle[0][0], count, &n,
                    error))
        return error->exit_code;
    for (int g = 0; g < n; g++)
        if (count[g] != 9)
            return options_bad_value(c, KEY_TRIANGLES, error,
                                     "each triangle is x0,y0,z0,x1,y1,z1,x2,y2,z2 (triangles "
                                     "separated by /)");
    *ntriangles = n;
    return 0;
}

static int get_double(const config *c, config_key key, double fallback, double *out,
                      cli_error *error)
{
    if (!config_is_set(c, key)) {
        *out = fallback;
        return 0;
    }
    const char *v = c->value[key];
    return options_parse_number(c, key, v, strlen(v), out, error);
}

static int get_range(const config *c, config_key key, double fallback, double lo, double hi,
                     int lo_open, double *out, cli_error *error)
{
    if (get_double(c, key, fallback, out, error))
        return error->exit_code;
    if (*out < lo || (lo_open && *out == lo) || *out > hi) {
        char problem[128];
        if (isinf(hi))
            snprintf(problem, sizeof problem, "must be %s %g", lo_open ? ">" : ">=", lo);
        else
            snprintf(problem, sizeof problem, "must be in %s%g, %g]", lo_open ? "(" : "[", lo, hi);
        return options_bad_value(c, key, error, problem);
    }
    return 0;
}

int options_get_whole(const config *c, config_key key, double fallback, double lo, double hi,
                      double *out, cli_error *error)
{
    if (get_double(c, key, fallback, out, error))
        return error->exit_code;
    if (*out != floor(*out))
        return options_bad_value(c, key, error, "not a whole number");
    if (*out < lo || *out > hi) {
        char problem[128];
        snprintf(problem, sizeof problem, "must be between %.0f and %.0f", lo, hi);
        return options_bad_value(c, key, error, problem);
    }
    return 0;
}

static int get_seed(const config *c, uint64_t *out, cli_error *error)
{
    *out = 1;
    if (!config_is_set(c, KEY_SEED))
        return 0;
    const char *s = c->value[KEY_SEED];
    if (!isdigit((unsigned char)s[0]))
        return options_bad_value(c, KEY_SEED, error, "not a nonnegative whole number");
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0')
        return options_bad_value(c, KEY_SEED, error, "not a nonnegative whole number");
    if (errno == ERANGE)
        return options_bad_value(c, KEY_SEED, error, "too large (at most 2^64-1)");
    *out = (uint64_t)v;
    return 0;
}

static int get_word(const config *c, config_key key, const char *const *words, int nwords,
                    int fallback, int *out, cli_error *error)
{
    *out = fallback;
    if (!config_is_set(c, key))
        return 0;
    for (int k = 0; k < nwords; k++)
        if (!strcmp(c->value[key], words[k])) {
            *out = k;
            return 0;
        }
    char problem[256] = "expected one of:";
    for (int k = 0; k < nwords; k++) {
        strncat(problem, " ", sizeof problem - strlen(problem) - 1);
        strncat(problem, words[k], sizeof problem - strlen(problem) - 1);
    }
    return options_bad_value(c, key, error, problem);
}

/* A key KEY=FILE|on|off (off when not set): whether it is on, and in
 * *file its FILE (NULL with on or off). */
static int get_output(const config *c, config_key key, const char **file)
{
    int on = config_is_set(c, key) && strcmp(c->value[key], "off") != 0;
    *file = on && strcmp(c->value[key], "on") != 0 ? c->value[key] : NULL;
    return on;
}

/* rdf=FILE|on and the keys that shape its samples (which need it). */
static int get_rdf(const config *c, run_options *o, cli_error *error)
{
    static const config_key needs_rdf[] = {KEY_RDF_INTERVAL, KEY_RDF_MAX, KEY_RDF_BIN};
    o->rdf = get_output(c, KEY_RDF, &o->rdf_file);
    for (size_t k = 0; k < sizeof needs_rdf / sizeof needs_rdf[0]; k++)
        if (config_is_set(c, needs_rdf[k]) && !o->rdf)
            return cli_fail(error, CLI_EXIT_USAGE, "%s: %s needs rdf=FILE or rdf=on",
                            c->origin[needs_rdf[k]], config_key_name(needs_rdf[k]));
    if (get_range(c, KEY_RDF_INTERVAL, o->time > 0.0 ? o->time / 100.0 : 1.0, 0.0, INFINITY, 1,
                  &o->rdf_interval, error) ||
        (config_is_set(c, KEY_RDF_MAX) &&
         get_range(c, KEY_RDF_MAX, 1.0, 0.0, INFINITY, 1, &o->rdf_max, error)) ||
        (config_is_set(c, KEY_RDF_BIN) &&
         get_range(c, KEY_RDF_BIN, 1.0, 0.0, INFINITY, 1, &o->rdf_bin, error)))
        return error->exit_code;
    if (o->rdf && o->time / o->rdf_interval > 1e6)
        return options_bad_value(c, KEY_RDF_INTERVAL, error, "more than 10^6 samples");
    return 0;
}

/* Which of the transport keys (viscosity=, bulk_viscosity=,
 * conductivity=) a refusal is about; of those, it names the ones that are
 * on. BY_STRESS: both viscosities (from S), BY_ANY: all three. */
enum {
    BY_VISCOSITY = 1,
    BY_BULK_VISCOSITY = 2,
    BY_CONDUCTIVITY = 4,
    BY_STRESS = BY_VISCOSITY | BY_BULK_VISCOSITY,
    BY_ANY = BY_STRESS | BY_CONDUCTIVITY
};

/* The transport keys, in the order messages name them, and their BY_*. */
static const config_key transport_key[] = {KEY_VISCOSITY, KEY_BULK_VISCOSITY, KEY_CONDUCTIVITY};
static const int transport_by[] = {BY_VISCOSITY, BY_BULK_VISCOSITY, BY_CONDUCTIVITY};
#define TRANSPORT_KEYS (sizeof transport_key / sizeof transport_key[0])

/* The BY_* of the transport keys that are on. */
static int transport_on(const run_options *o)
{
    return (o->viscosity ? BY_VISCOSITY : 0) | (o->bulk_viscosity ? BY_BULK_VISCOSITY : 0) |
           (o->conductivity ? BY_CONDUCTIVITY : 0);
}

int options_transport(const run_options *o)
{
    return transport_on(o) != 0;
}

/* The usage error "ORIGIN: KEY=VALUE: problem" for the transport keys of
 * `by` that are on: with two or three, "ORIGIN: viscosity=V,
 * conductivity=C: problem" (each with its own origin when it differs
 * from the first's). */
static int transport_bad_value(const config *c, const run_options *o, int by, const char *problem,
                               cli_error *error)
{
    int on = by & transport_on(o);
    char keys[sizeof error->message] = "";
    const char *first = NULL;
    for (size_t k = 0; k < TRANSPORT_KEYS; k++) {
        config_key key = transport_key[k];
        if (!(on & transport_by[k]))
            continue;
        int same = first && strcmp(c->origin[key], first) == 0;
        size_t used = strlen(keys);
        snprintf(keys + used, sizeof keys - used, "%s%s%s%s=%s", first ? ", " : "",
                 same ? "" : c->origin[key], same ? "" : ": ", config_key_name(key),
                 c->value[key]);
        first = first ? first : c->origin[key];
    }
    return cli_fail(error, CLI_EXIT_USAGE, "%s: %s", keys, problem);
}

/* The usage error "ORIGIN: viscosity=VALUE: cannot be combined with
 * KEY=VALUE (why)" (or bulk_viscosity=, conductivity=, or all of those
 * of `by` that are on: transport_bad_value) for a key whose setting
 * changes velocities other than in elastic contacts of spheres, or with
 * the contact given. */
static int transport_clash(const config *c, const run_options *o, int by, config_key key,
                           const char *value, const char *why, cli_error *error)
{
    char problem[700];
    snprintf(problem, sizeof problem, "cannot be combined with %s=%s (%s)", config_key_name(key),
             value ? value : "", why);
    return transport_bad_value(c, o, by, problem, error);
}

/* Why the run cannot give the stress integral S or the heat integral Q
 * (carom/stress.h: the velocities change only at elastic contacts of
 * spheres in a periodic box; for S rough contacts only if they keep the
 * energy, as the references need: smooth, or perfectly rough without
 * Coulomb's limit; for Q smooth contacts only, as it counts translational
 * energy alone); 0 if it can. Pairs of species are checked as given,
 * whether or not their species end up with spheres. Equal masses and no
 * net momentum (Q) are checked at the run's start (transport.c). */
static int transport_refused(const config *c, const run_options *o, cli_error *error)
{
    static const char *const motions[] = {"ballistic", "orbits", "forces", "field"};
    const char *alone = "the pressure tensor is that of spheres in a periodic box alone";
    if (o->nplanes)
        return transport_clash(c, o, BY_ANY, KEY_PLANES, c->value[KEY_PLANES], alone, error);
    if (o->nsegments)
        return transport_clash(c, o, BY_ANY, KEY_SEGMENTS, c->value[KEY_SEGMENTS], alone, error);
    if (o->segments_file)
        return transport_clash(c, o, BY_ANY, KEY_SEGMENTS_FILE, o->segments_file, alone, error);
    if (o->ntriangles && config_is_set(c, KEY_TRIANGLES))
        return transport_clash(c, o, BY_ANY, KEY_TRIANGLES, c->value[KEY_TRIANGLES], alone, error);
    if (o->mesh)
        return transport_clash(c, o, BY_ANY, KEY_MESH, o->mesh, alone, error);
    for (int d = 0; d < o->dim; d++)
        if (o->boundary[d] != CAROM_BOUNDARY_PERIODIC)
            return transport_clash(c, o, BY_ANY, KEY_BOUNDARY, c->value[KEY_BOUNDARY],
                                   "needs a box periodic along every axis: walls take momentum",
                                   error);
    for (int d = 0; d < 3; d++)
        if (o->gravity[d] != 0.0)
            return transport_clash(c, o, BY_ANY, KEY_GRAVITY, c->value[KEY_GRAVITY],
                                   "velocities would change between contacts", error);
    if (o->thermostat > 0.0)
        return transport_clash(c, o, BY_ANY, KEY_THERMOSTAT, c->value[KEY_THERMOSTAT],
                               "the bath redraws velocities outside contacts", error);
    if (o->motion != MOTION_BALLISTIC)
        return transport_clash(c, o, BY_ANY, KEY_MOTION, motions[o->motion],
                               "driven spheres are pushed between contacts", error);
    const char *cools = "contacts must be elastic: a granular gas cools";
    if (o->restitution < 1.0)
        return transport_clash(c, o, BY_ANY, KEY_RESTITUTION, c->value[KEY_RESTITUTION], cools,
                               error);
    for (int q = 0; q < o->pair_restitution.n; q++)
        if (o->pair_restitution.value[q][0] < 1.0)
            return transport_clash(c, o, BY_ANY, KEY_PAIR_RESTITUTION, o->pair_restitution.text,
                                   cools, error);
    /* Q: smooth contacts only (spins would carry energy it does not see). */
    const char *smooth = "the heat flux counts translational energy only: contacts must be "
                         "smooth (-1)";
    if (o->conductivity) {
        if (o->tangential_restitution != -1.0)
            return transport_clash(c, o, BY_CONDUCTIVITY, KEY_TANGENTIAL_RESTITUTION,
                                   c->value[KEY_TANGENTIAL_RESTITUTION], smooth, error);
        for (int q = 0; q < o->pair_friction.n; q++)
            if (o->pair_friction.value[q][0] != -1.0)
                return transport_clash(c, o, BY_CONDUCTIVITY, KEY_PAIR_FRICTION,
                                       o->pair_friction.text, smooth, error);
    }
    const char *rough = "rough contacts must keep the energy: smooth (-1), or perfectly rough "
                        "(1) without Coulomb's limit";
    double beta = o->tangential_restitution, mu = o->friction;
    if (beta != -1.0 && (beta != 1.0 || !isinf(mu)))
        return transport_clash(c, o, BY_STRESS,
                               beta != 1.0 ? KEY_TANGENTIAL_RESTITUTION : KEY_FRICTION,
                               c->value[beta != 1.0 ? KEY_TANGENTIAL_RESTITUTION : KEY_FRICTION],
                               rough, error);
    for (int q = 0; q < o->pair_friction.n; q++) {
        beta = o->pair_friction.value[q][0];
        mu = o->pair_friction.value[q][1];
        if (beta != -1.0 && (beta != 1.0 || !isinf(mu)))
            return transport_clash(c, o, BY_STRESS, KEY_PAIR_FRICTION, o->pair_friction.text,
                                   rough, error);
    }
    return 0;
}

/* The usage error for a value of key, or of the transport keys that are
 * on when key is KEY_COUNT. */
static int transport_blame(const config *c, const run_options *o, config_key key,
                           const char *problem, cli_error *error)
{
    return key == KEY_COUNT ? transport_bad_value(c, o, BY_ANY, problem, error)
                            : options_bad_value(c, key, error, problem);
}

/* viscosity=FILE|on, bulk_viscosity=FILE|on, conductivity=FILE|on, and
 * transport_interval and transport_lag (which need one of them; one set
 * of samples serves all three): the lag a whole number m >= 1 of
 * intervals (a lag given with an interval must be one, within rounding),
 * at most half the measured time. Without transport_lag, m is 0 here:
 * the run chooses it from its mean free time (simulate.c), and the
 * interval defaults to time/1000. Needs motion, species and the geometry
 * keys read. */
static int get_transport(const config *c, run_options *o, cli_error *error)
{
    static const config_key needs[] = {KEY_TRANSPORT_INTERVAL, KEY_TRANSPORT_LAG};
    o->viscosity = get_output(c, KEY_VISCOSITY, &o->viscosity_file);
    o->bulk_viscosity = get_output(c, KEY_BULK_VISCOSITY, &o->bulk_viscosity_file);
    o->conductivity = get_output(c, KEY_CONDUCTIVITY, &o->conductivity_file);
    int any = options_transport(o);
    for (size_t k = 0; k < sizeof needs / sizeof needs[0]; k++)
        if (config_is_set(c, needs[k]) && !any)
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: %s needs viscosity=FILE|on, bulk_viscosity=FILE|on or "
                            "conductivity=FILE|on",
                            c->origin[needs[k]], config_key_name(needs[k]));
    if (!any)
        return 0;
    if (transport_refused(c, o, error))
        return error->exit_code;
    char problem[256];
    if (!(o->time / 200.0 > 0.0)) {
        snprintf(problem, sizeof problem, "needs a measured run (time=%g)", o->time);
        return transport_bad_value(c, o, BY_ANY, problem, error);
    }
    int lag_given = config_is_set(c, KEY_TRANSPORT_LAG);
    int interval_given = config_is_set(c, KEY_TRANSPORT_INTERVAL);
    double lag, interval;
    if (get_range(c, KEY_TRANSPORT_LAG, o->time / 10.0, 0.0, INFINITY, 1, &lag, error) ||
        get_range(c, KEY_TRANSPORT_INTERVAL, lag_given ? lag / 20.0 : o->time / 1000.0, 0.0,
                  INFINITY, 1, &interval, error))
        return error->exit_code;
    /* The key whose value is at fault (the transport keys that are on
     * when both are defaults: KEY_COUNT here). */
    config_key blamed = lag_given ? KEY_TRANSPORT_LAG
                        : interval_given ? KEY_TRANSPORT_INTERVAL
                                         : KEY_COUNT;
    if (!(interval > 0.0)) {
        snprintf(problem, sizeof problem, "an interval of %g between samples", interval);
        return transport_blame(c, o, blamed, problem, error);
    }
    if (o->time / interval > 1e6) {
        snprintf(problem, sizeof problem,
                 "more than 10^6 samples of the stress and heat integrals (time=%g, "
                 "transport_interval=%g)",
                 o->time, interval);
        return transport_blame(c, o, interval_given ? KEY_TRANSPORT_INTERVAL : blamed, problem,
                               error);
    }
    if (lag_given && interval_given && interval > lag) {
        snprintf(problem, sizeof problem, "longer than the lag (transport_lag=%g)", lag);
        return options_bad_value(c, KEY_TRANSPORT_INTERVAL, error, problem);
    }
    if (!lag_given) { /* only the interval to check */
        if (2.0 * interval > o->time * (1.0 + 1e-12)) {
            snprintf(problem, sizeof problem, "more than half the measured time (time=%g)",
                     o->time);
            return options_bad_value(c, KEY_TRANSPORT_INTERVAL, error, problem);
        }
        o->transport_interval = interval;
        o->transport_lags = 0;
        o->transport_lag = NAN;
        return 0;
    }
    if (lag > 0.5 * o->time * (1.0 + 1e-9)) {
        snprintf(problem, sizeof problem, "more than half the measured time (time=%g)", o->time);
        return options_bad_value(c, KEY_TRANSPORT_LAG, error, problem);
    }
    double ratio = lag / interval, m = fmax(1.0, floor(ratio + 0.5));
    if (lag_given && interval_given && fabs(ratio - m) > 1e-9 * m) {
        snprintf(problem, sizeof problem,
                 "not a whole number of intervals (transport_interval=%g: %.10g of them)",
                 interval, ratio);
        return options_bad_value(c, KEY_TRANSPORT_LAG, error, problem);
    }
    /* Samples k = 0 .. last at t0 + k interval; the lag needs two windows. */
    double last = floor(o->time / interval * (1.0 + 1e-12));
    if (2.0 * m > last) {
        snprintf(problem, sizeof problem,
                 "a lag of %.0f interval%s of %g is more than half the measured time (time=%g)",
                 m, m == 1.0 ? "" : "s", interval, o->time);
        return transport_blame(c, o, blamed, problem, error);
    }
    o->transport_interval = interval;
    o->transport_lags = (size_t)m;
    o->transport_lag = m * interval;
    return 0;
}

/* compress: a packing above the start's, or jam; and its rate. */
static int get_compress(const config *c, run_options *o, cli_error *error)
{
    o->compress = 0.0;
    if (config_is_set(c, KEY_COMPRESS) && !strcmp(c->value[KEY_COMPRESS], "jam")) {
        o->compress = INFINITY;
    } else if (config_is_set(c, KEY_COMPRESS)) {
        if (get_range(c, KEY_COMPRESS, 0.0, 0.0, 1.0, 1, &o->compress, error))
            return error->exit_code;
        if (!o->init && o->compress <= o->packing)
            return options_bad_value(c, KEY_COMPRESS, error,
                                     "must be above the packing it starts from (packing=), or jam");
    }
    if (config_is_set(c, KEY_COMPRESS_RATE) && !o->compress)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: compress_rate needs compress=",
                        c->origin[KEY_COMPRESS_RATE]);
    if (get_range(c, KEY_COMPRESS_RATE, 0.01, 0.0, INFINITY, 1, &o->compress_rate, error))
        return error->exit_code;
    if (o->compress && (o->motion != MOTION_BALLISTIC || o->response == CAROM_RESPONSE_NONE ||
                        o->gravity[0] != 0.0 || o->gravity[1] != 0.0 || o->gravity[2] != 0.0))
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s: compress needs ballistic spheres, a response and no gravity",
                        c->origin[KEY_COMPRESS]);
    return 0;
}

/* sense=: the world refuses sensing pairs with growing spheres (in a
 * world that responds); said here, naming the keys. */
static int sense_refused(const config *c, const run_options *o, cli_error *error)
{
    if (o->sense.n == 0 || o->response == CAROM_RESPONSE_NONE)
        return 0;
    if (o->compress)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s: sense=%s cannot be combined with compress=%s (growing spheres "
                        "cannot sense)", o->sense.origin, o->sense.text, c->value[KEY_COMPRESS]);
    return 0;
}

double options_packing_measured(const run_options *o)
{
    return o->compress > 0.0 && isfinite(o->compress) ? o->compress : o->packing;
}

static int get_boundary(const config *c, run_options *o, cli_error *error)
{
    for (int d = 0; d < 3; d++)
        o->boundary[d] = CAROM_BOUNDARY_PERIODIC;
    o->boundary_given = config_is_set(c, KEY_BOUNDARY);
    if (!o->boundary_given)
        return 0;
    const char *s = c->value[KEY_BOUNDARY];
    int count = 0;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        carom_boundary b;
        if (len == 8 && !strncmp(s, "periodic", 8))
            b = CAROM_BOUNDARY_PERIODIC;
        else if (len == 5 && !strncmp(s, "walls", 5))
            b = CAROM_BOUNDARY_WALLS;
        else
            return options_bad_value(
                c, KEY_BOUNDARY, error,
                "expected periodic or walls (or one per axis, comma-separated)");
        if (count == 3)
            return options_bad_value(c, KEY_BOUNDARY, error, "more than 3 axes");
        o->boundary[count++] = b;
        if (!comma)
            break;
        s = comma + 1;
    }
    if (count == 1) {
        o->boundary[1] = o->boundary[2] = o->boundary[0];
    } else if (count != o->dim) {
        return options_bad_value(c, KEY_BOUNDARY, error,
                                 o->dim == 2 ? "give one kind, or two (one per axis) in 2D"
                                             : "give one kind, or three (one per axis) in 3D");
    }
    if (o->dim == 2)
        o->boundary[2] = CAROM_BOUNDARY_PERIODIC;
    return 0;
}

/* Densest packing of equal spheres (disks): no configuration beyond. */
static double close_packing(int dim)
{
    return dim == 2 ? 0.90689968211710892 : 0.74048048969306104;
}

/* motion= and its keys: orbits, accel_bound, force_interval, field_*. */
static int get_motion(const config *c, run_options *o, cli_error *error)
{
    static const char *const motions[] = {"ballistic", "orbits", "forces", "field"};
    int word = 0;
    o->orbits = c->value[KEY_ORBITS];
    if (get_word(c, KEY_MOTION, motions, 4, o->orbits ? MOTION_ORBITS : MOTION_BALLISTIC, &word,
                 error))
        return error->exit_code;
    o->motion = (run_motion)word;
    if (o->motion == MOTION_ORBITS && !o->orbits)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: motion=orbits needs orbits=FILE",
                        c->origin[KEY_MOTION]);
    if (o->orbits && o->motion != MOTION_ORBITS)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: orbits=%s needs motion=orbits (not %s)",
                        c->origin[KEY_ORBITS], o->orbits, motions[o->motion]);
    /* Keys of one motion given with another are mistakes. */
    static const struct {
        config_key key;
        run_motion motion;
    } owner[] = {{KEY_FORCE_INTERVAL, MOTION_FORCES}, {KEY_FIELD_SPEED, MOTION_FIELD},
                 {KEY_FIELD_GAIN, MOTION_FIELD}, {KEY_FIELD_STEP, MOTION_FIELD}};
    for (size_t k = 0; k < sizeof owner / sizeof owner[0]; k++)
        if (config_from_user(c, owner[k].key) && o->motion != owner[k].motion)
            return cli_fail(error, CLI_EXIT_USAGE, "%s: %s applies to motion=%s only",
                            c->origin[owner[k].key], config_key_name(owner[k].key),
                            motions[owner[k].motion]);
    if (config_from_user(c, KEY_ACCEL_BOUND) &&
        (o->motion == MOTION_BALLISTIC || o->motion == MOTION_ORBITS))
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s: accel_bound applies to motion=forces or field (orbits have R omega^2)",
                        c->origin[KEY_ACCEL_BOUND]);
    o->accel_min = 10.0;
    o->accel_max = 20.0;
    if (config_is_set(c, KEY_ACCEL_BOUND)) {
        double a[2];
        int count;
        if (options_parse_list(c, KEY_ACCEL_BOUND, a, 2, &count, error))
            return error->exit_code;
        o->accel_min = a[0];
        o->accel_max = count == 2 ? a[1] : a[0];
        if (o->accel_min < 0.0 || o->accel_max < o->accel_min)
            return options_bad_value(c, KEY_ACCEL_BOUND, error, "expected 0 <= Amin <= Amax");
    }
    if (get_range(c, KEY_FORCE_INTERVAL, 0.1, 0.0, INFINITY, 1, &o->force_interval, error) ||
        get_double(c, KEY_FIELD_SPEED, 40.0, &o->field_speed, error) ||
        get_range(c, KEY_FIELD_GAIN, 2.0, 0.0, INFINITY, 0, &o->field_gain, error) ||
        get_range(c, KEY_FIELD_STEP, 0.05, 0.0, INFINITY, 1, &o->field_step, error))
        return error->exit_code;
    if (o->motion == MOTION_BALLISTIC)
        return 0;
    /* Driven scenes are run from their start (orbit times are absolute). */
    if (!config_is_set(c, KEY_EQUILIBRATE))
        o->equilibrate = 0.0;
    for (int d = 0; d < 3; d++)
        if (o->gravity[d] != 0.0)
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: gravity does not act on driven spheres (motion=%s): their "
                            "driver moves them", c->origin[KEY_GRAVITY], motions[o->motion]);
    if (o->init)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: init cannot be combined with motion=%s",
                        c->origin[KEY_INIT], motions[o->motion]);
    if (o->motion == MOTION_ORBITS) {
        if (!o->box_given)
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: motion=orbits needs box= (the orbits file gives no box)",
                            c->origin[KEY_MOTION][0] ? c->origin[KEY_MOTION]
                                                     : c->origin[KEY_ORBITS]);
        /* Orbits are set paths: contacts do not move them, so they
         * would pass through planes, segments and triangles. */
        if (o->nplanes || o->nsegments || o->segments_file || o->ntriangles || o->mesh) {
            config_key key = o->nplanes         ? KEY_PLANES
                             : o->nsegments     ? KEY_SEGMENTS
                             : o->segments_file ? KEY_SEGMENTS_FILE
                             : o->ntriangles    ? KEY_TRIANGLES
                                                : KEY_MESH;
            const char *file = key == KEY_MESH ? o->mesh
                               : key == KEY_SEGMENTS_FILE ? o->segments_file : NULL;
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: %s%s%s cannot be combined with motion=orbits (orbits are set "
                            "paths that contacts do not move: they would pass through them)",
                            c->origin[key], config_key_name(key), file ? "=" : "",
                            file ? file : "");
        }
        static const config_key clash[] = {KEY_PACKING, KEY_RADIUS, KEY_RADIUS_MAX,
                                           KEY_LATTICE, KEY_SPEED, KEY_TEMPERATURE};
        for (size_t k = 0; k < sizeof clash / sizeof clash[0]; k++)
            if (config_from_user(c, clash[k]))
                return cli_fail(error, CLI_EXIT_USAGE,
                                "%s: %s cannot be combined with motion=orbits (the orbits file "
                                "%s sets it)", c->origin[clash[k]], config_key_name(clash[k]),
                                o->orbits);
    }
    if (o->motion == MOTION_FIELD && o->dim != 3)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: motion=field is 3D only (dim=%d)",
                        c->origin[KEY_MOTION], o->dim);
    /* kgs-forces beyond n = 3500: the box grows with n at the density of
     * 1000 spheres in 200^3, unless a box was given. */
    if (o->scenario && !strcmp(o->scenario, "kgs-forces") && !config_from_user(c, KEY_BOX) &&
        (double)o->n > KGS_FORCES_MAX_N) {
        double l = KGS_FORCES_BOX * cbrt((double)o->n / KGS_FORCES_REFERENCE_N);
        for (int d = 0; d < 3; d++)
            o->box[d] = l;
    }
    return 0;
}

/* mesh=FILE, mesh_scale=S (finite, > 0) and mesh_shift=x,y,z: the file
 * is read by setup_scene (mesh_load), once the box is known. */
int options_mesh(const config *c, int dim, const char **mesh, double *scale, double shift[3],
                 cli_error *error)
{
    *mesh = c->value[KEY_MESH];
    *scale = 1.0;
    for (int d = 0; d < 3; d++)
        shift[d] = 0.0;
    static const config_key needs_mesh[] = {KEY_MESH_SCALE, KEY_MESH_SHIFT};
    for (size_t k = 0; k < sizeof needs_mesh / sizeof needs_mesh[0]; k++)
        if (config_is_set(c, needs_mesh[k]) && !*mesh)
            return cli_fail(error, CLI_EXIT_USAGE, "%s: %s needs mesh=FILE",
                            c->origin[needs_mesh[k]], config_key_name(needs_mesh[k]));
    if (!*mesh)
        return 0;
#ifndef CAROM_HAVE_MESH
    (void)dim;
    return options_bad_value(c, KEY_MESH, error, MESH_WITHOUT_ASSIMP ", so it reads no meshes");
#else
    if (dim != 3)
        return options_bad_value(c, KEY_MESH, error, "meshes are for 3D worlds (segments= in 2D)");
    int count = 3;
    if (get_range(c, KEY_MESH_SCALE, 1.0, 0.0, INFINITY, 1, scale, error) ||
        (config_is_set(c, KEY_MESH_SHIFT) &&
         (options_parse_list(c, KEY_MESH_SHIFT, shift, 3, &count, error) ||
          (count != 3 && options_bad_value(c, KEY_MESH_SHIFT, error, "expected x,y,z"))))) {
        /* ...naming the mesh too. */
        size_t len = strlen(error->message);
        snprintf(error->message + len, sizeof error->message - len, " (mesh %s)", *mesh);
        return error->exit_code;
    }
    return 0;
#endif
}

/* A malloc'd copy of n items of size bytes (NULL for none, or without
 * memory). */
static void *malloc_copy(const void *items, size_t n, size_t size)
{
    void *copy = n ? malloc(n * size) : NULL;
    if (copy)
        memcpy(copy, items, n * size);
    return copy;
}

void options_free(run_options *o)
{
    free(o->segment);
    o->segment = NULL;
    o->nsegments = 0;
    free(o->triangle);
    o->triangle = NULL;
    o->ntriangles = 0;
}

int options_from_config(const config *c, run_options *o, cli_error *error)
{
    memset(o, 0, sizeof *o);
    double x = 0.0;
    int count;
#define TRY(call)                                                                          \
    do {                                                                                   \
        if (call)                                                                          \
            return error->exit_code;                                                       \
    } while (0)

    TRY(options_get_whole(c, KEY_DIM, 3, -1e18, 1e18, &x, error));
    if (x != 2 && x != 3)
        return options_bad_value(c, KEY_DIM, error, "dimension must be 2 or 3");
    o->dim = (int)x;
    o->n_given = config_is_set(c, KEY_N);
    TRY(options_get_whole(c, KEY_N, 4000, 1, 4294967295.0, &x, error));
    o->n = (size_t)x;
    o->packing_given = config_is_set(c, KEY_PACKING);
    TRY(get_range(c, KEY_PACKING, 0.3, 0.0, 1.0, 1, &o->packing, error));
    if (o->packing >= close_packing(o->dim)) {
        char problem[160];
        snprintf(problem, sizeof problem,
                 "packing too high: equal %s cannot be packed denser than %.4f",
                 o->dim == 2 ? "disks" : "spheres", close_packing(o->dim));
        return options_bad_value(c, KEY_PACKING, error, problem);
    }
    TRY(get_range(c, KEY_RADIUS, 0.5, 0.0, INFINITY, 1, &o->radius, error));
    o->radius_max = o->radius;
    if (config_is_set(c, KEY_RADIUS_MAX)) {
        TRY(get_range(c, KEY_RADIUS_MAX, 0.5, 0.0, INFINITY, 1, &o->radius_max, error));
        if (o->radius_max < o->radius)
            return options_bad_value(c, KEY_RADIUS_MAX, error, "must be at least radius");
    }
    o->box_given = config_is_set(c, KEY_BOX);
    if (o->box_given) {
        double b[3];
        TRY(options_parse_list(c, KEY_BOX, b, 3, &count, error));
        if (count != 1 && count != o->dim)
            return options_bad_value(c, KEY_BOX, error,
                                     o->dim == 2 ? "give one length or Lx,Ly in 2D"
                                                 : "give one length or Lx,Ly,Lz in 3D");
        for (int d = 0; d < 3; d++)
            o->box[d] = count == 1 ? b[0] : (d < count ? b[d] : 1.0);
        if (o->dim == 2)
            o->box[2] = 1.0;
        for (int d = 0; d < o->dim; d++)
            if (!(o->box[d] > 0.0))
                return options_bad_value(c, KEY_BOX, error, "box lengths must be positive");
        if (o->packing_given && config_from_user(c, KEY_PACKING))
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: packing and box cannot both be given (packing sizes the box)",
                            c->origin[KEY_PACKING]);
    }
    TRY(get_boundary(c, o, error));

    if (config_is_set(c, KEY_GRAVITY)) {
        double g[3];
        TRY(options_parse_list(c, KEY_GRAVITY, g, 3, &count, error));
        if (count == 1) {
            o->gravity[o->dim - 1] = -g[0];
        } else if (count == o->dim) {
            for (int d = 0; d < count; d++)
                o->gravity[d] = g[d];
        } else {
            return options_bad_value(c, KEY_GRAVITY, error,
                                     o->dim == 2 ? "give g (pulls along -y) or gx,gy in 2D"
                                                 : "give g (pulls along -z) or gx,gy,gz in 3D");
        }
    }
    TRY(options_planes(c, o->dim, o->plane, &o->nplanes, error));
    {
        double segment[RUN_SEGMENTS_MAX][4], triangle[RUN_TRIANGLES_MAX][9];
        TRY(options_segments(c, o->dim, segment, &o->nsegments, error));
        TRY(options_segments_file(c, o->dim, &o->segments_file, error));
        TRY(options_triangles(c, o->dim, triangle, &o->ntriangles, error));
        o->segment = malloc_copy(segment, (size_t)o->nsegments, sizeof *o->segment);
        o->triangle = malloc_copy(triangle, (size_t)o->ntriangles, sizeof *o->triangle);
        if ((o->nsegments && !o->segment) || (o->ntriangles && !o->triangle))
            return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory");
    }
    TRY(options_mesh(c, o->dim, &o->mesh, &o->mesh_scale, o->mesh_shift, error));
    TRY(get_range(c, KEY_RESTITUTION, 1.0, 0.0, 1.0, 0, &o->restitution, error));
    TRY(get_range(c, KEY_WALL_RESTITUTION, 1.0, 0.0, 1.0, 0, &o->wall_restitution, error));
    TRY(get_range(c, KEY_RESTITUTION_MIN_SPEED, carom_world_default_def().restitution_min_speed,
                  0.0, INFINITY, 1, &o->restitution_min_speed, error));
    TRY(get_range(c, KEY_TANGENTIAL_RESTITUTION, -1.0, -1.0, 1.0, 0, &o->tangential_restitution,
                  error));
    TRY(get_range(c, KEY_WALL_TANGENTIAL_RESTITUTION, -1.0, -1.0, 1.0, 0,
                  &o->wall_tangential_restitution, error));
    /* The library's 0 (its default) is spelled out: a solid sphere or disk. */
    TRY(get_limit(c, KEY_FRICTION, INFINITY, &o->friction, error));
    TRY(get_limit(c, KEY_WALL_FRICTION, INFINITY, &o->wall_friction, error));
    TRY(get_range(c, KEY_INERTIA_FACTOR, o->dim == 2 ? 0.5 : 0.4, 0.0, 1.0, 1, &o->inertia_factor,
                  error));
    static const char *const responses[] = {"elastic", "none"};
    int word;
    TRY(get_word(c, KEY_RESPONSE, responses, 2, 0, &word, error));
    o->response = word == 0 ? CAROM_RESPONSE_ELASTIC : CAROM_RESPONSE_NONE;
    static const char *const neighbours[] = {"auto", "cells", "lists"};
    TRY(get_word(c, KEY_NEIGHBOURS, neighbours, 3, 0, &word, error));
    o->neighbours = word == 0 ? CAROM_NEIGHBOURS_AUTO
                    : word == 1 ? CAROM_NEIGHBOURS_CELLS : CAROM_NEIGHBOURS_LISTS;
    static const char *const prefetch[] = {"auto", "off", "on"};
    TRY(get_word(c, KEY_PREFETCH, prefetch, 3, 0, &word, error));
    o->prefetch = word == 0 ? CAROM_PREFETCH_AUTO : word == 1 ? CAROM_PREFETCH_OFF : CAROM_PREFETCH_ON;
    static const char *const reorder[] = {"auto", "off"};
    TRY(get_word(c, KEY_REORDER, reorder, 2, 0, &word, error));
    o->reorder = word == 0 ? CAROM_REORDER_AUTO : CAROM_REORDER_OFF;

    o->temperature_given = config_from_user(c, KEY_TEMPERATURE);
    TRY(get_range(c, KEY_TEMPERATURE, 1.0, 0.0, INFINITY, 0, &o->temperature, error));
    if (config_is_set(c, KEY_SPEED)) {
        if (config_is_set(c, KEY_TEMPERATURE) && config_from_user(c, KEY_SPEED) &&
            config_from_user(c, KEY_TEMPERATURE))
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: speed and temperature cannot both be given",
                            c->origin[KEY_SPEED]);
        double v[2];
        TRY(options_parse_list(c, KEY_SPEED, v, 2, &count, error));
        o->speed_min = v[0];
        o->speed_max = count == 2 ? v[1] : v[0];
        if (o->speed_min < 0.0 || o->speed_max < o->speed_min)
            return options_bad_value(c, KEY_SPEED, error, "expected 0 <= vmin <= vmax");
        o->use_speed = 1;
        o->speed_given = config_from_user(c, KEY_SPEED);
    }
    TRY(get_seed(c, &o->seed, error));
    /* A state read from a file is run from where it is, unless asked. */
    double equilibrate_default = config_is_set(c, KEY_INIT) ? 0.0 : 2.0;
    TRY(get_range(c, KEY_EQUILIBRATE, equilibrate_default, 0.0, INFINITY, 0, &o->equilibrate,
                  error));
    TRY(get_range(c, KEY_TIME, 20.0, 0.0, INFINITY, 0, &o->time, error));

    static const char *const lattices[] = {"auto", "square", "hex", "fcc", "cubic"};
    o->lattice_given = config_is_set(c, KEY_LATTICE);
    TRY(get_word(c, KEY_LATTICE, lattices, 5, 0, &word, error));
    static const carom_lattice lattice_kinds[] = {CAROM_LATTICE_AUTO, CAROM_LATTICE_SQUARE,
                                                  CAROM_LATTICE_HEX, CAROM_LATTICE_FCC,
                                                  CAROM_LATTICE_SQUARE};
    o->lattice = lattice_kinds[word];
    if (o->lattice == CAROM_LATTICE_HEX && o->dim != 2)
        return options_bad_value(c, KEY_LATTICE, error,
                                 "hex is a 2D lattice (use fcc or cubic in 3D)");
    if (o->lattice == CAROM_LATTICE_FCC && o->dim != 3)
        return options_bad_value(c, KEY_LATTICE, error,
                                 "fcc is a 3D lattice (use hex or square in 2D)");

    o->init = c->value[KEY_INIT];
    o->final = c->value[KEY_FINAL];
    o->trajectory = c->value[KEY_TRAJECTORY];
    o->collision_log = c->value[KEY_COLLISION_LOG];
    o->scenario = c->value[KEY_SCENARIO];
    static const char *const off_on[] = {"off", "on"};
    TRY(get_word(c, KEY_MSD, off_on, 2, 0, &o->msd, error));
    TRY(get_range(c, KEY_THERMOSTAT, 0.0, 0.0, INFINITY, 0, &o->thermostat, error));
    TRY(get_rdf(c, o, error));
    if (config_is_set(c, KEY_FRAME_INTERVAL)) {
        if (!o->trajectory)
            return cli_fail(error, CLI_EXIT_USAGE, "%s: frame_interval needs trajectory=FILE",
                            c->origin[KEY_FRAME_INTERVAL]);
        TRY(get_range(c, KEY_FRAME_INTERVAL, 1.0, 0.0, INFINITY, 1, &o->frame_interval, error));
    } else {
        o->frame_interval = o->time > 0.0 ? o->time / 100.0 : 1.0;
    }
    if (o->trajectory && o->time / o->frame_interval > 1e7)
        return options_bad_value(c, KEY_FRAME_INTERVAL, error, "more than 10^7 frames");
    if (o->trajectory)
        TRY(frames_format_available(o->trajectory, c->origin[KEY_TRAJECTORY], error));

    TRY(get_motion(c, o, error));
    TRY(get_compress(c, o, error));
    TRY(options_get_species(c, o, error));
    TRY(sense_refused(c, o, error));

    TRY(get_transport(c, o, error));
    TRY(options_get_shear(c, o, error));

    if (o->init) {
        /* The file gives the geometry: keys that would contradict it. */
        static const config_key clash[] = {KEY_PACKING, KEY_RADIUS, KEY_RADIUS_MAX, KEY_BOX,
                                           KEY_LATTICE};
        for (size_t k = 0; k < sizeof clash / sizeof clash[0]; k++)
            if (config_from_user(c, clash[k]))
                return cli_fail(error, CLI_EXIT_USAGE,
                                "%s: %s cannot be combined with init (the file %s sets it)",
                                c->origin[clash[k]], config_key_name(clash[k]), o->init);
    }
#undef TRY
    return 0;
}
