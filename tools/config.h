/* Configuration keys of `carom run`: raw text values and where each came
 * from (a config file line, the command line, or a scenario preset).
 *
 * Contract: config_read_file and config_set_argument accept only known
 * keys and `key = value` / `key=value` syntax, and name the file and line
 * (or the argument) in every error. A later setting of a key replaces an
 * earlier one; config_apply_default sets a key only if nothing set it.
 * Interpreting values (numbers, ranges) is options.c's job.
 */
#ifndef CAROM_TOOLS_CONFIG_H
#define CAROM_TOOLS_CONFIG_H

#include "cli.h"

typedef enum config_key {
    KEY_DIM,
    KEY_N,
    KEY_PACKING,
    KEY_RADIUS,
    KEY_RADIUS_MAX,
    KEY_BOX,
    KEY_BOUNDARY,
    KEY_GRAVITY,
    KEY_PLANES,
    KEY_SEGMENTS,
    KEY_SEGMENTS_FILE,
    KEY_TRIANGLES,
    KEY_MESH,
    KEY_MESH_SCALE,
    KEY_MESH_SHIFT,
    KEY_RESTITUTION,
    KEY_WALL_RESTITUTION,
    KEY_RESTITUTION_MIN_SPEED,
    KEY_TANGENTIAL_RESTITUTION,
    KEY_WALL_TANGENTIAL_RESTITUTION,
    KEY_INERTIA_FACTOR,
    KEY_FRICTION,
    KEY_WALL_FRICTION,
    KEY_RESPONSE,
    KEY_SPECIES,
    KEY_SPECIES_FRACTION,
    KEY_PASS_THROUGH,
    KEY_SENSE,
    KEY_PAIR_RESTITUTION,
    KEY_SPECIES_WALL_RESTITUTION,
    KEY_PAIR_FRICTION,
    KEY_SPECIES_WALL_FRICTION,
    KEY_NEIGHBOURS,
    KEY_PREFETCH,
    KEY_REORDER,
    KEY_TEMPERATURE,
    KEY_SPEED,
    KEY_SEED,
    KEY_EQUILIBRATE,
    KEY_TIME,
    KEY_LATTICE,
    KEY_INIT,
    KEY_FINAL,
    KEY_TRAJECTORY,
    KEY_FRAME_INTERVAL,
    KEY_COLLISION_LOG,
    KEY_MSD,
    KEY_RDF,
    KEY_RDF_INTERVAL,
    KEY_RDF_MAX,
    KEY_RDF_BIN,
    KEY_VISCOSITY,
    KEY_BULK_VISCOSITY,
    KEY_CONDUCTIVITY,
    KEY_TRANSPORT_INTERVAL,
    KEY_TRANSPORT_LAG,
    KEY_THERMOSTAT,
    KEY_SHEAR,
    KEY_SHEAR_INTERVAL,
    KEY_SHEAR_OFFSET,
    KEY_COMPRESS,
    KEY_COMPRESS_RATE,
    KEY_MOTION,
    KEY_ORBITS,
    KEY_ACCEL_BOUND,
    KEY_FORCE_INTERVAL,
    KEY_FIELD_SPEED,
    KEY_FIELD_GAIN,
    KEY_FIELD_STEP,
    KEY_SCENARIO,
    KEY_COUNT
} config_key;

typedef enum config_source {
    SOURCE_NONE = 0,   /* not set: the built-in default applies */
    SOURCE_PRESET,     /* from scenario= */
    SOURCE_USER        /* from the config file or the command line */
} config_source;

typedef struct config {
    char *value[KEY_COUNT];
    config_source source[KEY_COUNT];
    char origin[KEY_COUNT][300]; /* "file.cfg:3", "command line", "scenario seed004" */
} config;

/* Name and one-line description of a key (for --help). */
const char *config_key_name(config_key key);
const char *config_key_help(config_key key);
/* KEY_COUNT if the name is not a key. */
config_key config_key_lookup(const char *name);

void config_init(config *c);
void config_free(config *c);

int config_read_file(config *c, const char *path, cli_error *error);
/* One "key=value" command-line argument. */
int config_set_argument(config *c, const char *argument, cli_error *error);
/* Sets key from a preset unless it is already set. */
int config_apply_default(config *c, config_key key, const char *value, const char *origin,
                         cli_error *error);

int config_is_set(const config *c, config_key key);
int config_from_user(const config *c, config_key key);

#endif
