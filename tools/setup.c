/* Building the initial scene; contract in setup.h. */
#include "setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "mesh.h"
#include "segments_file.h"
#include "obstacles.h"

/* Below this packing fraction spheres are placed at random; above, on a
 * lattice (which equilibrate melts). */
#define RANDOM_PLACEMENT_MAX_PACKING 0.1
/* ...and, when no lattice fits, up to this one (random sequential
 * placement stalls only near 0.38). */
#define RANDOM_FALLBACK_MAX_PACKING 0.35

static const double pi = 3.14159265358979323846;

/* Independent random streams from one seed. */
static uint64_t stream_seed(uint64_t seed, uint64_t stream)
{
    return seed ^ (stream * 0x9e3779b97f4a7c15ULL);
}

double setup_packing_fraction(const carom_scene *scene)
{
    double filled = 0.0, volume = 1.0;
    for (size_t i = 0; i < scene->n; i++) {
        double r = scene->radius[i];
        filled += scene->dim == 2 ? pi * r * r : (4.0 / 3.0) * pi * r * r * r;
    }
    for (int d = 0; d < scene->dim; d++)
        volume *= scene->box[d];
    return filled / volume;
}

/* Mean volume (area) of one sphere with radius uniform in [a, b]. */
static double mean_sphere_volume(int dim, double a, double b)
{
    if (b == a)
        return dim == 2 ? pi * a * a : (4.0 / 3.0) * pi * a * a * a;
    if (dim == 2)
        return pi * (b * b * b - a * a * a) / (3.0 * (b - a));
    return (4.0 / 3.0) * pi * (b * b * b * b - a * a * a * a) / (4.0 * (b - a));
}

static int scene_failed(cli_error *error, const char *what, const carom_error *e)
{
    return cli_fail(error, CLI_EXIT_USAGE, "%s: %s", what, e->message);
}

int setup_read_init(config *c, carom_scene *scene, cli_error *error)
{
    if (!config_is_set(c, KEY_INIT))
        return 0;
    int status = frames_read_init(c->value[KEY_INIT], scene, error);
    if (status)
        return status;
    /* The file's dimension is the default for dim (a user's dim must agree). */
    char origin[300];
    snprintf(origin, sizeof origin, "init file %s", c->value[KEY_INIT]);
    return config_apply_default(c, KEY_DIM, scene->dim == 2 ? "2" : "3", origin, error);
}

/* segments_file=FILE: its segments after segments='s, once the box is
 * known. */
static int load_segments_file(run_options *o, cli_error *error)
{
    if (!o->segments_file)
        return 0;
    double(*all)[4];
    int n;
    if (segments_gather((const double(*)[4])o->segment, o->nsegments, o->segments_file, o->box,
                        &all, &n, error))
        return error->exit_code;
    o->segments_from_file = (size_t)(n - o->nsegments);
    free(o->segment);
    o->segment = all;
    o->nsegments = n;
    return 0;
}

/* mesh=FILE: its triangles after triangles='s, and segments_file=FILE:
 * its segments after segments='s, once the box and the boundaries are
 * known. */
static int load_mesh(run_options *o, cli_error *error)
{
    if (load_segments_file(o, error))
        return error->exit_code;
    if (!o->mesh)
        return 0;
    double(*t)[9];
    size_t n;
    if (mesh_load(o->mesh, o->mesh_scale, o->mesh_shift, o->box, &t, &n, &o->mesh_loaded, error))
        return error->exit_code;
    if (n > (size_t)(0x7fffffff - o->ntriangles)) {
        free(t);
        return cli_fail(error, CLI_EXIT_USAGE, "mesh %s: too many triangles (%zu)", o->mesh, n);
    }
    size_t total = (size_t)o->ntriangles + n;
    double(*all)[9] = realloc(o->triangle, total * sizeof *all);
    if (!all) {
        free(t);
        return cli_fail(error, CLI_EXIT_RUNTIME, "mesh %s: out of memory", o->mesh);
    }
    memcpy(all + o->ntriangles, t, n * sizeof *t);
    free(t);
    o->triangle = all;
    o->ntriangles = (int)total;
    return 0;
}

static int setup_from_file(run_options *o, carom_scene *scene, cli_error *error)
{
    carom_error e;
    if (o->n_given && scene->n != o->n)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "wrong particle count: n=%zu but %s holds %zu spheres", o->n, o->init,
                        scene->n);
    if (scene->n == 0)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: the file holds no spheres", o->init);
    if (o->dim != scene->dim)
        return cli_fail(error, CLI_EXIT_USAGE, "dim=%d but %s is %dD", o->dim, o->init,
                        scene->dim);
    /* A sheared state (its box tilted: the XYZ Lattice's second vector,
     * or the H5MD edges' second row): the run shears it on from there,
     * unless shear_offset= says otherwise. */
    if (scene->shear_offset != 0.0 && o->shear == 0.0)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s: the file's state is sheared (its box tilted by %.17g along x): give "
                        "shear= (a rate) to go on shearing it",
                        o->init, scene->shear_offset);
    if (scene->shear_offset != 0.0 && !o->shear_offset_given)
        o->shear_offset = scene->shear_offset;
    if (o->boundary_given)
        for (int d = 0; d < 3; d++)
            scene->boundary[d] = o->boundary[d];
    else
        for (int d = 0; d < 3; d++)
            o->boundary[d] = scene->boundary[d];
    for (int d = 0; d < 3; d++)
        o->box[d] = scene->box[d];
    if (scene->dim == 2)
        scene->boundary[2] = CAROM_BOUNDARY_PERIODIC;
    if (load_mesh(o, error))
        return error->exit_code;
    o->n = scene->n;
    o->radius = o->radius_max = scene->radius[0];
    for (size_t i = 0; i < scene->n; i++) {
        o->radius = fmin(o->radius, scene->radius[i]);
        o->radius_max = fmax(o->radius_max, scene->radius[i]);
    }
    if (o->speed_given) {
        if (carom_scene_random_velocities(scene, o->speed_min, o->speed_max,
                                          stream_seed(o->seed, 3), &e) != CAROM_OK)
            return scene_failed(error, "speed", &e);
    } else if (o->temperature_given) {
        if (carom_scene_maxwell_velocities(scene, o->temperature, stream_seed(o->seed, 2), &e) !=
            CAROM_OK)
            return scene_failed(error, "temperature", &e);
    }
    return 0;
}

/* Leaves out the generated spheres that overlap a plane, segment or
 * triangle (in order, the others keeping theirs, spins and species too),
 * counting them in o->behind_planes, on_segments and on_triangles by the
 * first kind each overlaps. The library's overlap query decides, through
 * a probe world holding only the obstacles, with a margin of 1e-9 radii
 * (so that the world's own check at the first advance passes). */
static int keep_clear(run_options *o, carom_scene *scene, cli_error *error)
{
    const obstacle_lists lists = {o->nplanes,    (const double(*)[4])o->plane,
                             o->nsegments,  (const double(*)[4])o->segment,
                             o->ntriangles, (const double(*)[9])o->triangle};
    carom_error e;
    obstacle_probe probe;
    o->behind_planes = o->on_segments = o->on_triangles = 0;
    if (obstacle_probe_init(&probe, scene->dim, scene->box, scene->boundary, &lists, &e))
        return cli_fail(error, CLI_EXIT_USAGE, "%s", e.message);
    size_t kept = 0;
    for (size_t i = 0; i < scene->n; i++) {
        int hit = obstacle_probe_hit(&probe, scene->position[i], scene->radius[i] * (1.0 + 1e-9));
        if (hit < 0) {
            cli_fail(error, CLI_EXIT_USAGE, "sphere %zu against the obstacles: %s", i,
                     carom_world_error_message(probe.world));
            obstacle_probe_free(&probe);
            return error->exit_code;
        }
        o->behind_planes += hit == CAROM_CONTACT_PLANE;
        o->on_segments += hit == CAROM_CONTACT_SEGMENT;
        o->on_triangles += hit == CAROM_CONTACT_TRIANGLE;
        if (hit)
            continue;
        for (int k = 0; k < 3; k++) {
            scene->position[kept][k] = scene->position[i][k];
            scene->velocity[kept][k] = scene->velocity[i][k];
            if (scene->spin)
                scene->spin[kept][k] = scene->spin[i][k];
        }
        if (scene->species)
            scene->species[kept] = scene->species[i];
        scene->radius[kept] = scene->radius[i];
        scene->mass[kept] = scene->mass[i];
        kept++;
    }
    obstacle_probe_free(&probe);
    scene->n = kept;
    o->n = kept;
    if (kept == 0) {
        if (o->on_segments == 0 && o->on_triangles == 0)
            return cli_fail(error, CLI_EXIT_USAGE, "planes: every sphere placed is behind one");
        if (o->on_segments)
            return cli_fail(error, CLI_EXIT_USAGE, "segments: every disk placed overlaps one");
        return cli_fail(error, CLI_EXIT_USAGE, "triangles: every sphere placed overlaps one");
    }
    return 0;
}

static int setup_generated(run_options *o, carom_scene *scene, cli_error *error)
{
    carom_error e;
    scene->dim = o->dim;
    for (int d = 0; d < 3; d++)
        scene->boundary[d] = o->boundary[d];
    if (o->box_given) {
        for (int d = 0; d < 3; d++)
            scene->box[d] = o->box[d];
    } else {
        double l = o->dim == 2 ? sqrt((double)o->n * mean_sphere_volume(2, o->radius,
                                                                          o->radius_max) /
                                      o->packing)
                               : cbrt((double)o->n * mean_sphere_volume(3, o->radius,
                                                                         o->radius_max) /
                                      o->packing);
        for (int d = 0; d < 3; d++)
            scene->box[d] = o->dim == 2 && d == 2 ? 1.0 : l;
    }
    for (int d = 0; d < 3; d++)
        o->box[d] = scene->box[d];
    if (load_mesh(o, error))
        return error->exit_code;
    double volume = scene->box[0] * scene->box[1] * (o->dim == 3 ? scene->box[2] : 1.0);
    double expected = (double)o->n * mean_sphere_volume(o->dim, o->radius, o->radius_max) / volume;

    if (o->radius_max > o->radius) {
        /* Mixed sizes: random placement only. */
        if (carom_scene_resize(scene, o->n, &e) != CAROM_OK ||
            carom_scene_random_radii(scene, o->radius, o->radius_max, stream_seed(o->seed, 1),
                                     &e) != CAROM_OK)
            return scene_failed(error, "radii", &e);
        if (carom_scene_place_random(scene, stream_seed(o->seed, 0), &e) != CAROM_OK)
            return cli_fail(error, CLI_EXIT_USAGE, "%s", e.message);
    } else {
        int placed = 0;
        if (!o->lattice_given && expected <= RANDOM_PLACEMENT_MAX_PACKING)
            placed = carom_scene_random(scene, o->n, o->radius, stream_seed(o->seed, 0), &e) ==
                     CAROM_OK;
        if (!placed && carom_scene_lattice(scene, o->n, o->radius, o->lattice, &e) != CAROM_OK) {
            /* No lattice fits a few spheres in a cube at some packings
             * (9 to 12 at 0.3): random placement then, where it is sure
             * to be quick. Failing that, the lattice's reason. */
            carom_error random_error;
            if (o->lattice_given || expected > RANDOM_FALLBACK_MAX_PACKING ||
                carom_scene_random(scene, o->n, o->radius, stream_seed(o->seed, 0),
                                   &random_error) != CAROM_OK)
                return cli_fail(error, CLI_EXIT_USAGE, "%s", e.message);
        }
    }
    if (o->nplanes || o->nsegments || o->ntriangles) {
        int status = keep_clear(o, scene, error);
        if (status)
            return status;
    }
    /* Ids along a space-filling curve: neighbours in space are neighbours
     * in the world's arrays (faster for large N). */
    if (carom_scene_sort_spatially(scene, &e) != CAROM_OK)
        return scene_failed(error, "placement", &e);
    if (o->use_speed) {
        if (carom_scene_random_velocities(scene, o->speed_min, o->speed_max,
                                          stream_seed(o->seed, 3), &e) != CAROM_OK)
            return scene_failed(error, "speed", &e);
    } else if (carom_scene_maxwell_velocities(scene, o->temperature, stream_seed(o->seed, 2),
                                              &e) != CAROM_OK) {
        return scene_failed(error, "temperature", &e);
    }
    return 0;
}

/* splitmix64: the species' own stream of random numbers. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1 (rejection: no bias). */
static size_t random_below(uint64_t *state, size_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % (uint64_t)n;
    uint64_t x;
    do
        x = next_random(state);
    while (x >= limit);
    return (size_t)(x % (uint64_t)n);
}

int setup_species(run_options *o, carom_scene *scene, cli_error *error)
{
    memset(o->species_count, 0, sizeof o->species_count);
    if (o->init) {
        /* The file's: as many as its largest + 1 (xyz.c and h5md_in.c
         * checked the range). */
        int k = 1;
        for (size_t i = 0; scene->species && i < scene->n; i++)
            if ((int)scene->species[i] + 1 > k)
                k = (int)scene->species[i] + 1;
        o->species = k;
        for (size_t i = 0; i < scene->n; i++)
            o->species_count[scene->species ? scene->species[i] : 0]++;
        char whose[320];
        snprintf(whose, sizeof whose, "init file %s", o->init);
        return options_check_species_keys(o, k, whose, error);
    }
    size_t n = scene->n;
    if (o->species <= 1) {
        o->species = 1;
        o->species_count[0] = n;
        return 0; /* (no species array: the files are as before species existed) */
    }
    /* Exact counts round(f_k n), the last species taking what is left,
     * then shuffled over the spheres. */
    size_t given = 0;
    for (int k = 0; k < o->species; k++) {
        size_t c = n - given;
        if (k < o->species - 1) {
            double want = floor(o->species_fraction[k] * (double)n + 0.5);
            c = want < (double)c ? (size_t)want : c;
        }
        o->species_count[k] = c;
        given += c;
    }
    carom_error e;
    if (carom_scene_add_species(scene, &e) != CAROM_OK)
        return cli_fail(error, CLI_EXIT_RUNTIME, "species: %s", e.message);
    size_t i = 0;
    for (int k = 0; k < o->species; k++)
        for (size_t c = 0; c < o->species_count[k]; c++)
            scene->species[i++] = (uint32_t)k;
    uint64_t state = stream_seed(o->seed, 6);
    for (size_t j = n; j > 1; j--) {
        size_t r = random_below(&state, j);
        uint32_t t = scene->species[j - 1];
        scene->species[j - 1] = scene->species[r];
        scene->species[r] = t;
    }
    return 0;
}

const char *setup_species_keys(carom_world *w, const species_values *pass_through,
                               const species_values *sense,
                               const species_values *pair_restitution,
                               const species_values *species_wall_restitution,
                               const species_values *pair_friction,
                               const species_values *species_wall_friction)
{
    const species_values *v = pass_through;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_pass_through(w, v->who[q][0], v->who[q][1], 1) != CAROM_OK)
            return "pass_through";
    v = sense;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_sense(w, v->who[q][0], v->who[q][1], 1) != CAROM_OK)
            return "sense";
    v = pair_restitution;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_pair_restitution(w, v->who[q][0], v->who[q][1], v->value[q][0]) !=
            CAROM_OK)
            return "pair_restitution";
    v = species_wall_restitution;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_wall_restitution(w, v->who[q][0], v->value[q][0]) != CAROM_OK)
            return "species_wall_restitution";
    v = pair_friction;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_pair_friction(w, v->who[q][0], v->who[q][1], v->value[q][0],
                                          v->value[q][1]) != CAROM_OK)
            return "pair_friction";
    v = species_wall_friction;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_wall_friction(w, v->who[q][0], v->value[q][0], v->value[q][1]) !=
            CAROM_OK)
            return "species_wall_friction";
    return NULL;
}

int setup_species_laws(const run_options *o, carom_world *w, cli_error *error)
{
    const char *refused =
        setup_species_keys(w, &o->pass_through, &o->sense, &o->pair_restitution,
                           &o->species_wall_restitution, &o->pair_friction,
                           &o->species_wall_friction);
    if (refused)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: %s", refused, carom_world_error_message(w));
    return 0;
}

int setup_scene(run_options *o, carom_scene *scene, cli_error *error)
{
    int status = o->init ? setup_from_file(o, scene, error) : setup_generated(o, scene, error);
    if (!status)
        status = setup_species(o, scene, error);
    if (status)
        return status;
    o->packing = setup_packing_fraction(scene);
    return 0;
}
