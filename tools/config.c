/* Configuration keys: table, config file and argument parsing; contract
 * in config.h. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_fail(cli_error *error, int exit_code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error->message, sizeof error->message, fmt, ap);
    va_end(ap);
    error->exit_code = exit_code;
    return exit_code;
}

static const struct {
    const char *name;
    const char *help;
} key_table[KEY_COUNT] = {
    [KEY_DIM] = {"dim", "2 or 3 (default 3)"},
    [KEY_N] = {"n", "number of spheres (default 4000)"},
    [KEY_PACKING] = {"packing", "volume (area) fraction; sizes a cubic (square) box (default 0.3)"},
    [KEY_RADIUS] = {"radius", "sphere radius (default 0.5)"},
    [KEY_RADIUS_MAX] = {"radius_max", "if given, radii are uniform in [radius, radius_max]"},
    [KEY_BOX] = {"box", "box edge L, or Lx,Ly[,Lz] (instead of packing)"},
    [KEY_BOUNDARY] = {"boundary", "periodic or walls, or one per axis: walls,walls,periodic"},
    [KEY_GRAVITY] = {"gravity", "g (pulls along -y in 2D, -z in 3D) or gx,gy[,gz] (default 0)"},
    [KEY_PLANES] = {"planes", "fixed planes nx,ny[,nz],d separated by /: spheres stay where "
                              "n.x >= d + radius (walled axes only)"},
    [KEY_SEGMENTS] = {"segments", "fixed segments x0,y0,x1,y1 separated by /: thin walls (2D; "
                                  "repeated across periodic axes) disks bounce off on both "
                                  "sides"},
    [KEY_SEGMENTS_FILE] = {"segments_file", "a text file of fixed segments, a line 'x0 y0 x1 y1' "
                                            "or a path 'x0 y0 x1 y1 x2 y2 ...' (# comments): as "
                                            "segments=, any number, after segments='s"},
    [KEY_TRIANGLES] = {"triangles", "fixed triangles x0,y0,z0,x1,y1,z1,x2,y2,z2 separated by /: "
                                    "thin walls (3D; repeated across periodic axes) spheres "
                                    "bounce off on both sides"},
    [KEY_MESH] = {"mesh", "a triangle mesh file (OBJ, STL, PLY, ... as Assimp reads them): its "
                          "faces as fixed triangles (3D, as triangles=); points, lines "
                          "and faces without an area are skipped"},
    [KEY_MESH_SCALE] = {"mesh_scale", "mesh=: each vertex v becomes v * S + mesh_shift "
                                      "(default 1)"},
    [KEY_MESH_SHIFT] = {"mesh_shift", "mesh=: x,y,z added to each scaled vertex (default 0,0,0)"},
    [KEY_RESTITUTION] = {"restitution", "sphere-sphere coefficient of restitution (default 1)"},
    [KEY_WALL_RESTITUTION] = {"wall_restitution", "sphere-wall restitution (default 1)"},
    [KEY_RESTITUTION_MIN_SPEED] = {"restitution_min_speed",
                                   "contacts slower than this are elastic, and every contact "
                                   "separates at least this fast (default 1e-6)"},
    [KEY_TANGENTIAL_RESTITUTION] = {"tangential_restitution",
                                    "rough spheres: sphere-sphere tangential restitution in "
                                    "[-1, 1]: -1 smooth (default), 1 perfectly rough, 0 the "
                                    "surfaces stop slipping"},
    [KEY_WALL_TANGENTIAL_RESTITUTION] = {"wall_tangential_restitution",
                                         "the same against walls, planes, segments and "
                                         "triangles (default -1: smooth)"},
    [KEY_INERTIA_FACTOR] = {"inertia_factor", "moment of inertia k m r^2 of rough spheres, k in "
                                              "(0, 1] (default 0.4 in 3D, 0.5 in 2D: solid)"},
    [KEY_FRICTION] = {"friction", "rough spheres: Coulomb's limit mu >= 0 on the tangential "
                                  "impulse, mu times the normal one (default inf: none)"},
    [KEY_WALL_FRICTION] = {"wall_friction", "the same against walls, planes, segments and "
                                            "triangles (default inf: none)"},
    [KEY_RESPONSE] = {"response", "elastic (default) or none (report contacts only)"},
    [KEY_SPECIES] = {"species", "K in 1..32: spheres get species 0..K-1 at random (default 1)"},
    [KEY_SPECIES_FRACTION] = {"species_fraction", "f0,f1,...: the species' shares of the "
                                                  "spheres, K numbers >= 0 (default equal)"},
    [KEY_PASS_THROUGH] = {"pass_through", "a-b,c-d,...: these species pairs pass through each "
                                          "other (a-a: spheres of one species)"},
    [KEY_SENSE] = {"sense", "a-b,c-d,...: these species pairs pass through each other and "
                            "report each contact (sensors; JSON sensed_contacts)"},
    [KEY_PAIR_RESTITUTION] = {"pair_restitution",
                              "a-b:e,...: restitution e in [0, 1] of spheres of species a "
                              "and b (a-a: of one species); other pairs keep restitution="},
    [KEY_SPECIES_WALL_RESTITUTION] = {"species_wall_restitution",
                                      "s:e,...: restitution e in [0, 1] of species s with "
                                      "walls, planes, segments and triangles; other species "
                                      "keep wall_restitution="},
    [KEY_PAIR_FRICTION] = {"pair_friction",
                           "a-b:beta[:mu],...: rough contacts of species a and b, tangential "
                           "restitution beta in [-1, 1] and Coulomb's mu >= 0 or inf (default "
                           "friction=); other pairs keep tangential_restitution= and friction="},
    [KEY_SPECIES_WALL_FRICTION] = {"species_wall_friction",
                                   "s:beta[:mu],...: the same for species s with walls, planes, "
                                   "segments and triangles (mu default wall_friction=); other "
                                   "species keep wall_tangential_restitution= and wall_friction="},
    [KEY_NEIGHBOURS] = {"neighbours", "auto (default: neighbour lists in dense scenes), cells "
                                      "or lists (for comparisons; same results)"},
    [KEY_PREFETCH] = {"prefetch", "auto (default: a second thread loads ahead of the event loop "
                                  "in scenes of 50,000 spheres or more), off or on "
                                  "(same results)"},
    [KEY_REORDER] = {"reorder", "auto (default: scenes of 50,000 spheres or more keep their "
                                "memory in spatial order as spheres wander) or off"},
    [KEY_TEMPERATURE] = {"temperature",
                         "kT of Maxwell-Boltzmann velocities, zero momentum (default 1)"},
    [KEY_SPEED] = {"speed", "v or vmin,vmax: random directions, speeds uniform (no temperature)"},
    [KEY_SEED] = {"seed", "random seed (default 1)"},
    [KEY_EQUILIBRATE] = {"equilibrate", "simulated time run first, excluded from statistics "
                                        "(default 2; 0 with init)"},
    [KEY_TIME] = {"time", "simulated time of the measured run (default 20)"},
    [KEY_LATTICE] = {"lattice", "auto, square, hex, fcc or cubic (start lattice when dense)"},
    [KEY_INIT] = {"init", "extended XYZ file with the initial state"},
    [KEY_FINAL] = {"final", "write the final state to this extended XYZ file"},
    [KEY_TRAJECTORY] = {"trajectory", "write frames of the measured run (extended XYZ)"},
    [KEY_FRAME_INTERVAL] = {"frame_interval", "simulated time between frames (default time/100)"},
    [KEY_COLLISION_LOG] = {"collision_log",
                           "write 'time i j' (i<j) for each collision of the measured run"},
    [KEY_MSD] = {"msd", "on: the mean-square displacement of the measured run (periodic "
                        "wraps counted) and D = msd/(2 dim time); off (default)"},
    [KEY_RDF] = {"rdf", "FILE or on: g(r) of the measured run (CSV r,g,pairs to FILE) and its "
                        "contact value, the structural route to Z (periodic box)"},
    [KEY_RDF_INTERVAL] = {"rdf_interval", "simulated time between g(r) samples (default time/100)"},
    [KEY_RDF_MAX] = {"rdf_max", "largest r of g(r) (default 6 radius_max, at most half the box)"},
    [KEY_RDF_BIN] = {"rdf_bin", "width of g(r)'s bins (default radius/50)"},
    [KEY_VISCOSITY] = {"viscosity", "FILE or on: shear viscosity of the measured run by the "
                                    "Einstein-Helfand route (CSV lag,viscosity,error to FILE; "
                                    "elastic spheres in a periodic box)"},
    [KEY_BULK_VISCOSITY] = {"bulk_viscosity",
                            "FILE or on: bulk viscosity of the measured run by the "
                            "Einstein-Helfand route, from viscosity's samples (CSV "
                            "lag,bulk_viscosity,error to FILE; where viscosity is allowed)"},
    [KEY_CONDUCTIVITY] = {"conductivity", "FILE or on: thermal conductivity of the measured run "
                                          "by the Einstein-Helfand route (CSV "
                                          "lag,conductivity,error to FILE; elastic smooth "
                                          "spheres of equal masses in a periodic box)"},
    [KEY_TRANSPORT_INTERVAL] = {"transport_interval",
                                "simulated time between samples of the stress and heat "
                                "integrals (default lag/20, or time/1000 without a lag)"},
    [KEY_TRANSPORT_LAG] = {"transport_lag", "the lag of the viscosities and conductivity: a "
                                            "whole number of intervals, at most time/2 (default "
                                            "50 mean free times of the run)"},
    [KEY_THERMOSTAT] = {"thermostat", "nu > 0: Andersen heat bath at `temperature`, each "
                                      "sphere's velocity redrawn at rate nu (default 0: none)"},
    [KEY_SHEAR] = {"shear", "rate: Lees-Edwards shear flow along x, gradient along y, "
                            "profile rate (y - Ly/2); the shear viscosity from the heat it "
                            "makes (default 0: none)"},
    [KEY_SHEAR_INTERVAL] = {"shear_interval", "simulated time between the rescalings of the "
                                              "velocities relative to the profile back to "
                                              "`temperature` (default: Enskog's heat raises "
                                              "kT 1% in it; 0: never)"},
    [KEY_SHEAR_OFFSET] = {"shear_offset", "the sheared images' displacement along x at the "
                                          "start (default: the init file's Lattice tilt, as "
                                          "a sheared run writes it; else 0)"},
    [KEY_COMPRESS] = {"compress", "a packing fraction, or jam: grow the spheres "
                                  "(Lubachevsky-Stillinger) from `packing` to it before "
                                  "equilibrate"},
    [KEY_COMPRESS_RATE] = {"compress_rate", "relative growth of the radii per time unit "
                                            "(default 0.01)"},
    [KEY_MOTION] = {"motion", "ballistic (default), orbits, forces or field: how spheres are "
                              "driven (see below)"},
    [KEY_ORBITS] = {"orbits", "orbits file for motion=orbits: 'cx cy cz R omega phase radius' "
                              "per line"},
    [KEY_ACCEL_BOUND] = {"accel_bound", "A or Amin,Amax: acceleration bound of driven spheres "
                                        "(forces, field; default 10,20)"},
    [KEY_FORCE_INTERVAL] = {"force_interval", "motion=forces: time between random force "
                                              "draws (default 0.1)"},
    [KEY_FIELD_SPEED] = {"field_speed", "motion=field: speed U of the circulating field "
                                        "(default 40)"},
    [KEY_FIELD_GAIN] = {"field_gain", "motion=field: a = gain (u - v), clamped to A "
                                      "(default 2)"},
    [KEY_FIELD_STEP] = {"field_step", "motion=field: a is recomputed every step (default 0.05)"},
    [KEY_SCENARIO] = {"scenario", "preset scene: seed004, seed003, seed000, kgs-forces, "
                                  "kgs-field, hopper or silo"},
};

const char *config_key_name(config_key key)
{
    return key < KEY_COUNT ? key_table[key].name : "?";
}

const char *config_key_help(config_key key)
{
    return key < KEY_COUNT ? key_table[key].help : "";
}

config_key config_key_lookup(const char *name)
{
    for (int k = 0; k < KEY_COUNT; k++)
        if (!strcmp(key_table[k].name, name))
            return (config_key)k;
    return KEY_COUNT;
}

void config_init(config *c)
{
    memset(c, 0, sizeof *c);
}

void config_free(config *c)
{
    for (int k = 0; k < KEY_COUNT; k++) {
        free(c->value[k]);
        c->value[k] = NULL;
    }
}

int config_is_set(const config *c, config_key key)
{
    return c->source[key] != SOURCE_NONE;
}

int config_from_user(const config *c, config_key key)
{
    return c->source[key] == SOURCE_USER;
}

static int set_value(config *c, config_key key, const char *value, size_t len,
                     config_source source, const char *origin, cli_error *error)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory");
    memcpy(copy, value, len);
    copy[len] = '\0';
    free(c->value[key]);
    c->value[key] = copy;
    c->source[key] = source;
    snprintf(c->origin[key], sizeof c->origin[key], "%s", origin);
    return 0;
}

int config_apply_default(config *c, config_key key, const char *value, const char *origin,
                         cli_error *error)
{
    if (config_is_set(c, key))
        return 0;
    return set_value(c, key, value, strlen(value), SOURCE_PRESET, origin, error);
}

/* Trims blanks at both ends of [*begin, *end). */
static void trim(const char **begin, const char **end)
{
    while (*begin < *end && isspace((unsigned char)**begin))
        (*begin)++;
    while (*end > *begin && isspace((unsigned char)(*end)[-1]))
        (*end)--;
}

/* Parses "key = value" in [text, text+len); where names the place. */
static int parse_assignment(config *c, const char *text, size_t len, const char *where,
                            cli_error *error)
{
    const char *end = text + len;
    const char *eq = memchr(text, '=', len);
    if (!eq)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: expected key=value, found '%.*s'", where,
                        (int)len, text);
    const char *kb = text, *ke = eq, *vb = eq + 1, *ve = end;
    trim(&kb, &ke);
    trim(&vb, &ve);
    char name[64];
    size_t klen = (size_t)(ke - kb);
    if (klen == 0)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: missing key before '=' in '%.*s'", where,
                        (int)len, text);
    if (klen >= sizeof name)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: unknown key '%.*s' (see carom --help)",
                        where, (int)klen, kb);
    memcpy(name, kb, klen);
    name[klen] = '\0';
    config_key key = config_key_lookup(name);
    if (key == KEY_COUNT)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: unknown key '%s' (see carom --help)", where,
                        name);
    if (vb == ve)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: key '%s' has no value", where, name);
    return set_value(c, key, vb, (size_t)(ve - vb), SOURCE_USER, where, error);
}

int config_set_argument(config *c, const char *argument, cli_error *error)
{
    if (!strchr(argument, '='))
        return cli_fail(error, CLI_EXIT_USAGE,
                        "argument '%s' is missing '=' (expected key=value)", argument);
    return parse_assignment(c, argument, strlen(argument), "command line", error);
}

int config_read_file(config *c, const char *path, cli_error *error)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_fail(error, CLI_EXIT_USAGE, "cannot open config file '%s': %s", path,
                        strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long number = 0;
    int status = 0;
    while (status == 0 && (len = getline(&line, &cap, f)) >= 0) {
        number++;
        char *hash = memchr(line, '#', (size_t)len);
        size_t used = hash ? (size_t)(hash - line) : (size_t)len;
        const char *b = line, *e = line + used;
        trim(&b, &e);
        if (b == e)
            continue;
        if (memchr(b, '\0', (size_t)(e - b))) {
            status = cli_fail(error, CLI_EXIT_USAGE, "%s:%ld: unexpected NUL byte", path, number);
            break;
        }
        char where[300];
        snprintf(where, sizeof where, "%s:%ld", path, number);
        status = parse_assignment(c, b, (size_t)(e - b), where, error);
    }
    if (status == 0 && ferror(f))
        status = cli_fail(error, CLI_EXIT_USAGE, "error reading config file '%s'", path);
    free(line);
    fclose(f);
    return status;
}
