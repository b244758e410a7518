/* Driven motion for `carom run`; contract in motion.h. */
#include "motion.h"

#include <math.h>
#include <stdlib.h>

void motion_init(motion *m)
{
    m->kind = MOTION_BALLISTIC;
    carom_orbits_init(&m->orbits);
    m->forces = NULL;
    m->field = NULL;
}

void motion_free(motion *m)
{
    carom_orbits_free(&m->orbits);
    carom_forces_free(m->forces);
    carom_field_free(m->field);
    motion_init(m);
}

int motion_read_orbits(run_options *o, motion *m, carom_scene *scene, cli_error *error)
{
    carom_error e;
    m->kind = MOTION_ORBITS;
    if (carom_orbits_read(o->orbits, &m->orbits, &e) != CAROM_OK)
        return cli_fail(error, CLI_EXIT_USAGE, "%s", e.message);
    if (o->n_given && o->n != m->orbits.n)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "wrong particle count: n=%zu but %s holds %zu orbits", o->n, o->orbits,
                        m->orbits.n);
    scene->dim = o->dim;
    for (int d = 0; d < 3; d++) {
        scene->box[d] = o->box[d];
        scene->boundary[d] = o->boundary[d];
    }
    if (carom_scene_resize(scene, m->orbits.n, &e) != CAROM_OK)
        return cli_fail(error, CLI_EXIT_RUNTIME, "%s", e.message);
    o->n = m->orbits.n;
    o->radius = o->radius_max = m->orbits.orbit[0].radius;
    for (size_t k = 0; k < m->orbits.n; k++) {
        const carom_orbit *orbit = &m->orbits.orbit[k];
        carom_orbit_state(orbit, 0.0, scene->position[k], scene->velocity[k]);
        if (o->dim == 2)
            scene->position[k][2] = scene->velocity[k][2] = 0.0;
        scene->radius[k] = orbit->radius;
        scene->mass[k] = 1.0;
        o->radius = fmin(o->radius, orbit->radius);
        o->radius_max = fmax(o->radius_max, orbit->radius);
        /* With walls the whole circle must stay inside: nothing moves an
         * orbiting sphere back. */
        for (int d = 0; d < o->dim; d++) {
            if (o->boundary[d] != CAROM_BOUNDARY_WALLS)
                continue;
            double reach = orbit->radius + (d < 2 ? orbit->orbit_radius : 0.0);
            if (orbit->center[d] - reach < 0.0 || orbit->center[d] + reach > o->box[d])
                return cli_fail(error, CLI_EXIT_USAGE,
                                "%s: orbit %zu (line order) leaves the box along axis %d: "
                                "centre %g, reach %g, box %g", o->orbits, k + 1, d,
                                orbit->center[d], reach, o->box[d]);
        }
    }
    return 0;
}

/* splitmix64: a uniform double in [0, 1). */
static double uniform01(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

int motion_create(const run_options *o, const carom_scene *scene, motion *m, cli_error *error)
{
    if (o->motion != MOTION_FORCES && o->motion != MOTION_FIELD)
        return 0;
    m->kind = o->motion;
    size_t n = scene->n;
    double *bound = malloc((n ? n : 1) * sizeof *bound);
    if (!bound)
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory");
    /* Bounds uniform in [accel_min, accel_max], from their own stream. */
    uint64_t state = o->seed ^ (4 * 0x9e3779b97f4a7c15ULL);
    for (size_t k = 0; k < n; k++)
        bound[k] = o->accel_min + (o->accel_max - o->accel_min) * uniform01(&state);
    carom_error e;
    int status = 0;
    if (o->motion == MOTION_FORCES) {
        carom_forces_def def = carom_forces_default_def();
        def.dim = scene->dim;
        def.interval = o->force_interval;
        def.seed = o->seed ^ (5 * 0x9e3779b97f4a7c15ULL);
        m->forces = carom_forces_create(&def, n, (const double (*)[3])scene->position,
                                        (const double (*)[3])scene->velocity, scene->radius,
                                        bound, &e);
        if (!m->forces)
            status = cli_fail(error, CLI_EXIT_USAGE, "motion=forces: %s", e.message);
    } else {
        carom_field_def def = carom_field_default_def();
        for (int d = 0; d < 3; d++)
            def.box[d] = scene->box[d];
        def.speed = o->field_speed;
        def.gain = o->field_gain;
        def.step = o->field_step;
        m->field = carom_field_create(&def, n, (const double (*)[3])scene->position,
                                      (const double (*)[3])scene->velocity, scene->radius, bound,
                                      &e);
        if (!m->field)
            status = cli_fail(error, CLI_EXIT_USAGE, "motion=field: %s", e.message);
    }
    free(bound);
    return status;
}

carom_driver motion_driver(motion *m)
{
    switch (m->kind) {
    case MOTION_ORBITS: return carom_orbits_driver(&m->orbits);
    case MOTION_FORCES: return carom_forces_driver(m->forces);
    case MOTION_FIELD: return carom_field_driver(m->field);
    case MOTION_BALLISTIC: break;
    }
    return (carom_driver){0};
}

carom_world *motion_world(motion *m, const carom_scene *scene, carom_world_def def,
                          cli_error *error)
{
    if (m->kind != MOTION_BALLISTIC)
        def.driver = motion_driver(m);
    return motion_world_driven_by(m, scene, def, error);
}

carom_world *motion_world_driven_by(motion *m, const carom_scene *scene, carom_world_def def,
                                    cli_error *error)
{
    def.dim = scene->dim;
    for (int d = 0; d < 3; d++) {
        def.box[d] = scene->box[d];
        def.boundary[d] = scene->boundary[d];
    }
    def.capacity_hint = scene->n;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w) {
        cli_fail(error, CLI_EXIT_RUNTIME, "%s", e.message);
        return NULL;
    }
    for (size_t k = 0; k < scene->n; k++) {
        carom_sphere_def s;
        switch (m->kind) {
        case MOTION_ORBITS: s = carom_orbits_sphere_def(&m->orbits, k, 0.0); break;
        case MOTION_FORCES: s = carom_forces_sphere_def(m->forces, k); break;
        case MOTION_FIELD: s = carom_field_sphere_def(m->field, k); break;
        default: s = carom_sphere_default_def(); break;
        }
        if (scene->dim == 2)
            s.position[2] = s.velocity[2] = 0.0;
        s.mass = scene->mass[k];
        s.species = scene->species ? scene->species[k] : 0;
        carom_sphere_id id;
        if (carom_world_add_sphere(w, &s, &id) != CAROM_OK ||
            (scene->spin && carom_world_set_spin(w, id, scene->spin[k]) != CAROM_OK)) {
            cli_fail(error, CLI_EXIT_RUNTIME, "sphere %zu: %s", k, carom_world_error_message(w));
            carom_world_free(w);
            return NULL;
        }
    }
    return w;
}
