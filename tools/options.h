/* Typed settings of `carom run`, interpreted from a config (options.c)
 * after scenario presets have filled in their defaults.
 *
 * Contract: options_from_config either fills every field with a checked
 * value (finite numbers in range, known words) or fails naming the key,
 * its value and where it came from. Cross-key conflicts (box and packing
 * together, init with geometry keys...) are reported here too.
 */
#ifndef CAROM_TOOLS_OPTIONS_H
#define CAROM_TOOLS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "cli.h"
#include "config.h"
#include "mesh.h"

/* How the spheres move (motion=). */
typedef enum run_motion {
    MOTION_BALLISTIC = 0, /* free flight between events (and gravity) */
    MOTION_ORBITS,        /* driven on circles from an orbits file */
    MOTION_FORCES,        /* driven by random forces (seed 000 §4.2) */
    MOTION_FIELD          /* driven towards a circulating velocity field (§4.3) */
} run_motion;

#define RUN_PLANES_MAX 16
#define RUN_SEGMENTS_MAX 16
#define RUN_TRIANGLES_MAX 16
/* Pairs of species a <= b: every pair at most once. */
#define RUN_PASS_MAX (CAROM_SPECIES_MAX * (CAROM_SPECIES_MAX + 1) / 2)

/* Species or pairs of species given by a key, each once, with 0, 1 or 2
 * numbers: pass_through=a-b,... (none), pair_restitution=a-b:e,...,
 * species_wall_restitution=s:e,..., pair_friction=a-b:beta[:mu],... and
 * species_wall_friction=s:beta[:mu],... (mu: friction=, wall_friction=
 * when not given). */
typedef struct species_values {
    int n;
    unsigned char who[RUN_PASS_MAX][2]; /* a pair a <= b; a species s: s, s */
    double value[RUN_PASS_MAX][2];      /* e (value[q][1] unused); or beta, mu */
    const char *origin, *text;          /* where the key was given, and its value */
} species_values;

typedef struct run_options {
    int dim;
    size_t n;
    int n_given;
    double packing;          /* requested; or derived from box when box is given */
    int packing_given;
    double radius, radius_max; /* radius_max == radius for equal spheres */
    double box[3];
    int box_given;
    carom_boundary boundary[3];
    int boundary_given;
    double gravity[3];
    double restitution, wall_restitution, restitution_min_speed;
    double tangential_restitution, wall_tangential_restitution; /* -1: smooth */
    double inertia_factor;   /* I = inertia_factor m r^2 (0.4 in 3D, 0.5 in 2D by default) */
    double friction, wall_friction; /* Coulomb's mu for rough contacts (INFINITY: none) */
    carom_response response;
    int species;             /* K: species 0..K-1 (species=, or the init file's largest + 1) */
    double species_fraction[CAROM_SPECIES_MAX]; /* species=: their shares, summing to 1 */
    size_t species_count[CAROM_SPECIES_MAX];    /* spheres of each species (setup_scene) */
    /* Species and pairs of species that keys give (options_species.c). */
    species_values pass_through;             /* pairs a <= b that pass through each other */
    species_values sense;                    /* pairs a <= b that sense each other */
    species_values pair_restitution;         /* pairs a <= b and their coefficient e */
    species_values species_wall_restitution; /* species and their wall coefficient e */
    species_values pair_friction;            /* pairs a <= b, their beta and mu */
    species_values species_wall_friction;    /* species, their wall beta and mu */
    carom_neighbours neighbours;
    carom_prefetch prefetch;
    carom_reorder reorder;
    double temperature;
    int temperature_given;   /* by the user: redraws velocities of an init file */
    int use_speed;           /* ballistic speeds instead of a temperature */
    int speed_given;
    double speed_min, speed_max;
    uint64_t seed;
    double equilibrate, time;
    carom_lattice lattice;
    int lattice_given;
    const char *init, *final, *trajectory, *collision_log;
    double frame_interval;
    run_motion motion;
    const char *orbits;      /* orbits file (motion=orbits) */
    double accel_min, accel_max; /* acceleration bounds, uniform in [min, max] */
    double force_interval;
    double field_speed, field_gain, field_step;
    int nplanes;             /* planes=: fixed planes, n . x >= d + radius */
    double plane[RUN_PLANES_MAX][4]; /* unit normal nx, ny, nz and d (nz 0 in 2D) */
    size_t behind_planes;    /* generated spheres left out behind them */
    int nsegments;           /* fixed segments (2D): segments='s, then segments_file='s */
    double (*segment)[4];    /* x0, y0, x1, y1 (malloc'd: options_free) */
    const char *segments_file; /* segments_file=FILE (NULL if none): loaded by setup_scene */
    size_t segments_from_file; /* how many setup_scene loaded from it */
    size_t on_segments;      /* generated spheres left out overlapping them */
    int ntriangles;          /* fixed triangles (3D): triangles='s, then the mesh's */
    double (*triangle)[9];   /* corners x0, y0, z0, x1, ..., z2 (malloc'd: options_free) */
    size_t on_triangles;     /* generated spheres left out overlapping them */
    const char *mesh;        /* mesh=FILE (NULL if none): loaded by setup_scene */
    double mesh_scale;       /* each vertex v becomes v * mesh_scale + mesh_shift */
    double mesh_shift[3];
    mesh_stats mesh_loaded;  /* what setup_scene loaded (triangles, skipped) */
    int msd;                 /* msd=on: mean-square displacement of the measured run */
    int rdf;                 /* rdf=FILE|on: g(r) of the measured run */
    const char *rdf_file;    /* its CSV, or NULL (rdf=on) */
    double rdf_interval;     /* between samples */
    double rdf_max, rdf_bin; /* 0: the defaults, set once the spheres are known */
    int viscosity;           /* viscosity=FILE|on: shear viscosity of the measured run */
    const char *viscosity_file; /* its CSV, or NULL (viscosity=on) */
    int bulk_viscosity;      /* bulk_viscosity=FILE|on: bulk viscosity of the measured run */
    const char *bulk_viscosity_file; /* its CSV, or NULL (bulk_viscosity=on) */
    int conductivity;        /* conductivity=FILE|on: thermal conductivity of the measured run */
    const char *conductivity_file; /* its CSV, or NULL (conductivity=on) */
    double transport_interval;  /* between samples of the stress and heat integrals S, Q
                                   (of any of the three above) */
    size_t transport_lags;      /* the lag in intervals (m >= 1); 0: chosen by the run
                                   (50 mean free times, run_result's) */
    double transport_lag;       /* transport_lags * transport_interval (NaN with 0) */
    double thermostat;       /* Andersen bath's rate per sphere (0: none), at temperature */
    double shear;            /* Lees-Edwards shear rate (0: none) */
    double shear_interval;   /* time between rescalings to temperature (0: none; NaN:
                                the run's choice, shear_interval_for) */
    double shear_offset;     /* the images' displacement at the start (an init file's
                                sheared Lattice's unless given: setup.c) */
    int shear_offset_given;
    double compress;         /* packing to grow the spheres to first; 0: none; INFINITY: jam */
    double compress_rate;
    const char *scenario;    /* NULL if none */
    int json;
} run_options;

/* Fills preset values for config->value[KEY_SCENARIO] (if set). */
int options_apply_scenario(config *c, cli_error *error);

/* Fills o (o need not be initialized; on failure options_free still
 * applies). */
int options_from_config(const config *c, run_options *o, cli_error *error);
/* Frees what options_from_config (and setup_scene) allocated; o may also
 * be all zeros. */
void options_free(run_options *o);

/* planes= read for a world of dimension dim (options_from_config uses it;
 * `carom render input=` too, with the trajectory's dimension). */
int options_planes(const config *c, int dim, double plane[RUN_PLANES_MAX][4], int *nplanes,
                   cli_error *error);
/* segments= read for a world of dimension dim (2D only). */
int options_segments(const config *c, int dim, double segment[RUN_SEGMENTS_MAX][4],
                     int *nsegments, cli_error *error);
/* segments_file= for a world of dimension dim (2D only; *path NULL when
 * it is not given); setup_scene reads the file. */
int options_segments_file(const config *c, int dim, const char **path, cli_error *error);
/* triangles= read for a world of dimension dim (3D only). */
int options_triangles(const config *c, int dim, double triangle[RUN_TRIANGLES_MAX][9],
                      int *ntriangles, cli_error *error);

/* mesh=, mesh_scale= and mesh_shift= read for a world of dimension dim
 * (3D only; *mesh NULL when mesh= is not given). Refused without Assimp. */
int options_mesh(const config *c, int dim, const char **mesh, double *scale, double shift[3],
                 cli_error *error);

/* Whether pass_through=, sense=, pair_restitution=, species_wall_restitution=,
 * pair_friction= and species_wall_friction= name species of species
 * 0..k-1 only; else a usage error naming the
 * key, its value and `whose` (what gives the species: "species=2", "init
 * file x.xyz"). options_from_config checks species='s; setup_scene an
 * init file's. */
int options_check_species_keys(const run_options *o, int k, const char *whose,
                               cli_error *error);

/* The coefficient of restitution of species a and b in force:
 * pair_restitution='s, else restitution=. */
double options_pair_restitution(const run_options *o, int a, int b);
/* The tangential restitution beta and Coulomb's mu of species a and b in
 * force: pair_friction='s, else tangential_restitution= and friction=. */
void options_pair_friction(const run_options *o, int a, int b, double *beta, double *mu);

/* Whether any transport coefficient is asked for (viscosity=,
 * bulk_viscosity=, conductivity=): the run samples S and/or Q. */
int options_transport(const run_options *o);

/* The packing the measured run has: compress's target, or packing. */
double options_packing_measured(const run_options *o);

#endif
