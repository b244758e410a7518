/* Running a scene: world creation, equilibration, the measured run with
 * its trajectory frames and collision log, and the final state.
 *
 * Contract: statistics cover the measured run only (the world's stats are
 * reset after equilibration, and wall_seconds times only the measured
 * run, without the time g(r)'s and the transport samples took). With
 * viscosity=, bulk_viscosity= or conductivity= the world's contact
 * callback gives every contact to the stress observer (and to the
 * collision log, when there is one), and the stress and/or heat
 * integrals are sampled at the same instants from the measured run's
 * start (one set of samples of the stress for both viscosities); a world
 * the observer refuses (or, for conductivity=, spheres of unequal masses
 * or a net momentum at the start) stops the run with its message, naming
 * the keys on. Collisions are logged only during the measured run, one line
 * "time i j" with i < j per sphere-sphere contact, ids in scene order.
 * Progress goes to stderr only if it is a terminal. Errors of the world
 * (overlap at the start, sphere outside the box) come back verbatim.
 */
#ifndef CAROM_TOOLS_SIMULATE_H
#define CAROM_TOOLS_SIMULATE_H

#include "carom/carom.h"
#include "carom/scene.h"
#include "carom/thermostat.h"
#include "cli.h"
#include "displacement.h"
#include "motion.h"
#include "rdf.h"
#include "shear.h"
#include "options.h"

typedef struct run_result {
    carom_stats stats;             /* of the measured run */
    double start_time, end_time;   /* world time at the start and end of the measured run */
    double wall_seconds;           /* measured run only */
    double cpu_seconds;            /* the process's, all threads, measured run only */
    double equilibrate_wall_seconds;
    double kinetic_energy_initial, kinetic_energy_final;
    double temperature_initial, temperature_final;
    int rough;                     /* carom_world_is_rough: the world keeps spins */
    double rotational_energy_initial, rotational_energy_final; /* 0 for smooth spheres */
    double rotational_temperature_initial, rotational_temperature_final;
    double momentum_initial[3], momentum_final[3];
    /* With species (species > 1): each one's kinetic temperature at the
     * end, the mean of m v^2 / dim over its spheres of finite mass (NaN
     * when it has none). */
    double species_temperature_final[CAROM_SPECIES_MAX];
    double compressibility;
    double compressibility_error;  /* by block averaging (pressure_blocks.h); NaN: none */
    int pressure_blocks;           /* the blocks it used (0 with a thermostat) */
    double max_overlap;
    double list_skin;              /* of the world's neighbour lists; 0: cells */
    long frames;
    double mean_square_displacement; /* msd=on; NaN otherwise */
    size_t rdf_samples;              /* rdf=: samples of g(r) */
    double rdf_max, rdf_bin;         /* its range and bin width */
    double rdf_contact;              /* its contact value (equal spheres; NaN otherwise) */
    double rdf_seconds;              /* wall time of its samples, left out of wall_seconds */
    double viscosity;                /* viscosity=: eta at the lag (NaN otherwise) */
    double viscosity_error;          /* its standard error */
    double bulk_viscosity;           /* bulk_viscosity=: kappa at the lag (NaN otherwise) */
    double bulk_viscosity_error;     /* its standard error */
    double conductivity;             /* conductivity=: lambda at the lag (NaN otherwise) */
    double conductivity_error;       /* its standard error */
    size_t transport_lags;           /* the lag of all three in intervals: the option's, or
                                        50 mean free times of the run */
    double transport_lag;            /* in time */
    size_t transport_samples;        /* samples of the stress and/or heat integrals */
    double transport_seconds;        /* wall time of the samples, left out of wall_seconds */
    uint64_t thermostat_redraws;     /* velocities the bath redrew, whole run */
    /* shear=: the viscosity from the heat of the measured run, its error,
     * the heat, the mean kT relative to the profile, the rescalings. */
    double shear_viscosity, shear_viscosity_error, shear_heat, shear_temperature;
    double shear_interval; /* the one given, or chosen (shear_interval_for) */
    double shear_offset;   /* the images' displacement at the end */
    uint64_t shear_rescales;
    shear_pressure shear_pressure; /* the measured run's pressure tensor */
    double packing_compressed;       /* compress=: the packing reached */
    double compress_seconds;         /* its wall time */
} run_result;

/* m: the driver of driven spheres (motion=orbits, forces, field), or NULL
 * for ballistic spheres. The scene's spheres are freed once the world
 * holds them (its dimension, box and boundaries stay): at N = 10^6 they
 * are a fifth of the memory. */
int simulate(const run_options *o, carom_scene *scene, motion *m, run_result *result,
             cli_error *error);

#endif
