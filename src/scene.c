/* Scenes as plain arrays: creation, resizing, and the bridge to worlds.
 *
 * Contract: a scene owns its four arrays (NULL when n == 0) and its
 * optional ones, the spins (NULL: none) and the species (NULL: all 0);
 * resizing keeps the first min(old, new) spheres and gives new ones
 * radius 0.5, mass 1, position, velocity and spin 0, species 0. On
 * failure a scene is left as it was.
 */
#include "scene_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_report.h"

void carom_scene_init(carom_scene *scene)
{
    memset(scene, 0, sizeof *scene);
    scene->dim = 3;
    for (int d = 0; d < 3; d++)
        scene->boundary[d] = CAROM_BOUNDARY_PERIODIC;
}

void carom_scene_free(carom_scene *scene)
{
    if (!scene)
        return;
    free(scene->position);
    free(scene->velocity);
    free(scene->radius);
    free(scene->mass);
    free(scene->spin);
    free(scene->species);
    scene->spin = NULL;
    scene->species = NULL;
    scene->position = NULL;
    scene->velocity = NULL;
    scene->radius = NULL;
    scene->mass = NULL;
    scene->n = 0;
}

/* realloc that frees on size 0 and leaves *p untouched on failure. */
static int resize_array(void **p, size_t count, size_t size)
{
    if (count == 0) {
        free(*p);
        *p = NULL;
        return 1;
    }
    if (count > SIZE_MAX / size)
        return 0;
    void *q = realloc(*p, count * size);
    if (!q)
        return 0;
    *p = q;
    return 1;
}

carom_status carom_scene_resize(carom_scene *scene, size_t n, carom_error *error)
{
    if (!scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "scene is NULL");
    size_t old = scene->n;
    /* Each array is resized on its own; if one fails, the others may have
     * grown, but the scene stays consistent because n is unchanged. */
    void *pos = scene->position, *vel = scene->velocity;
    void *rad = scene->radius, *mass = scene->mass;
    int ok = resize_array(&pos, n, sizeof scene->position[0]);
    scene->position = pos;
    ok = ok && resize_array(&vel, n, sizeof scene->velocity[0]);
    scene->velocity = vel;
    ok = ok && resize_array(&rad, n, sizeof scene->radius[0]);
    scene->radius = rad;
    ok = ok && resize_array(&mass, n, sizeof scene->mass[0]);
    scene->mass = mass;
    if (scene->spin) {
        void *spin = scene->spin;
        ok = ok && resize_array(&spin, n, sizeof scene->spin[0]);
        scene->spin = spin; /* NULL with no spheres left */
    }
    if (scene->species) {
        void *species = scene->species;
        ok = ok && resize_array(&species, n, sizeof scene->species[0]);
        scene->species = species; /* NULL with no spheres left */
    }
    if (!ok) {
        if (n < old) /* shrinking cannot leave n past an array's end */
            scene->n = n;
        return error_report(error, CAROM_ERR_OUT_OF_MEMORY,
                            "out of memory resizing a scene to %zu spheres", n);
    }
    for (size_t i = old; i < n; i++) {
        for (int d = 0; d < 3; d++) {
            scene->position[i][d] = 0.0;
            scene->velocity[i][d] = 0.0;
        }
        scene->radius[i] = 0.5;
        scene->mass[i] = 1.0;
        if (scene->spin)
            for (int d = 0; d < 3; d++)
                scene->spin[i][d] = 0.0;
        if (scene->species)
            scene->species[i] = 0;
    }
    scene->n = n;
    return error_clear(error);
}

carom_status carom_scene_add_spins(carom_scene *scene, carom_error *error)
{
    if (!scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "scene is NULL");
    if (scene->spin || scene->n == 0)
        return error_clear(error);
    scene->spin = calloc(scene->n, sizeof *scene->spin);
    if (!scene->spin)
        return error_report(error, CAROM_ERR_OUT_OF_MEMORY,
                            "out of memory for the spins of %zu spheres", scene->n);
    return error_clear(error);
}

carom_status carom_scene_add_species(carom_scene *scene, carom_error *error)
{
    if (!scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "scene is NULL");
    if (scene->species || scene->n == 0)
        return error_clear(error);
    scene->species = calloc(scene->n, sizeof *scene->species);
    if (!scene->species)
        return error_report(error, CAROM_ERR_OUT_OF_MEMORY,
                            "out of memory for the species of %zu spheres", scene->n);
    return error_clear(error);
}

double carom_box_length_for_packing(int dim, size_t n, double radius, double packing)
{
    const double pi = 3.14159265358979323846;
    if ((dim != 2 && dim != 3) || !(radius > 0.0) || !(packing > 0.0) || !isfinite(radius) ||
        !isfinite(packing))
        return NAN;
    if (dim == 2)
        return sqrt((double)n * pi * radius * radius / packing);
    return cbrt((double)n * (4.0 / 3.0) * pi * radius * radius * radius / packing);
}

carom_status scene_check_box(const carom_scene *scene, carom_error *error)
{
    if (!scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "scene is NULL");
    if (scene->dim != 2 && scene->dim != 3)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "dimension must be 2 or 3, not %d", scene->dim);
    for (int d = 0; d < scene->dim; d++) {
        if (!isfinite(scene->box[d]) || !(scene->box[d] > 0.0))
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "box length along axis %d must be finite and positive, not %g",
                                d, scene->box[d]);
        if (scene->boundary[d] != CAROM_BOUNDARY_PERIODIC &&
            scene->boundary[d] != CAROM_BOUNDARY_WALLS)
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "unknown boundary kind %d on axis %d", (int)scene->boundary[d], d);
    }
    return error_clear(error);
}

carom_world *carom_scene_create_world(const carom_scene *scene, const carom_world_def *base,
                                      carom_error *error)
{
    if (scene_check_box(scene, error) != CAROM_OK)
        return NULL;
    carom_world_def def = base ? *base : carom_world_default_def();
    def.dim = scene->dim;
    for (int d = 0; d < 3; d++) {
        def.box[d] = scene->box[d];
        def.boundary[d] = scene->boundary[d];
    }
    if (scene->dim == 2) {
        /* z is unused in 2D; give it a harmless valid value. */
        if (!(def.box[2] > 0.0) || !isfinite(def.box[2]))
            def.box[2] = 1.0;
        def.boundary[2] = CAROM_BOUNDARY_PERIODIC;
    }
    def.capacity_hint = scene->n;
    carom_world *world = carom_world_create(&def, error);
    if (!world)
        return NULL;
    for (size_t i = 0; i < scene->n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        for (int d = 0; d < 3; d++) {
            s.position[d] = scene->position[i][d];
            s.velocity[d] = scene->velocity[i][d];
        }
        if (scene->dim == 2) {
            s.position[2] = 0.0;
            s.velocity[2] = 0.0;
        }
        s.radius = scene->radius[i];
        s.mass = scene->mass[i];
        if (scene->species) {
            if (scene->species[i] >= CAROM_SPECIES_MAX) {
                error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                             "sphere %zu: species %lu out of range (0 to %d)", i,
                             (unsigned long)scene->species[i], CAROM_SPECIES_MAX - 1);
                carom_world_free(world);
                return NULL;
            }
            s.species = scene->species[i];
        }
        carom_sphere_id id;
        carom_status st = carom_world_add_sphere(world, &s, &id);
        if (st != CAROM_OK) {
            error_report(error, st, "sphere %zu: %s", i, carom_world_error_message(world));
            carom_world_free(world);
            return NULL;
        }
        if (id != (carom_sphere_id)i) {
            error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                         "sphere %zu received id %lu from a fresh world", i, (unsigned long)id);
            carom_world_free(world);
            return NULL;
        }
        st = scene->spin ? carom_world_set_spin(world, id, scene->spin[i]) : CAROM_OK;
        if (st != CAROM_OK) {
            error_report(error, st, "sphere %zu: %s", i, carom_world_error_message(world));
            carom_world_free(world);
            return NULL;
        }
    }
    error_clear(error);
    return world;
}

carom_status carom_scene_from_world(carom_scene *scene, const carom_world *world,
                                    carom_error *error)
{
    if (!scene || !world)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "scene or world is NULL");
    size_t capacity = carom_world_sphere_capacity(world);
    size_t count = carom_world_sphere_count(world);
    free(scene->spin); /* the world's spins and species, if any, replace the scene's */
    scene->spin = NULL;
    free(scene->species);
    scene->species = NULL;
    carom_status st = carom_scene_resize(scene, count, error);
    if (st != CAROM_OK)
        return st;
    const carom_world_def *def = carom_world_get_def(world);
    scene->dim = def->dim;
    for (int d = 0; d < 3; d++) {
        scene->box[d] = def->box[d];
        scene->boundary[d] = def->boundary[d];
    }
    scene->shear_offset = carom_world_shear_offset(world);
    size_t k = 0;
    for (size_t id = 0; id < capacity && k < count; id++) {
        if (!carom_world_sphere_exists(world, (carom_sphere_id)id))
            continue;
        carom_sphere_state s;
        st = carom_world_get_sphere(world, (carom_sphere_id)id, &s);
        if (st != CAROM_OK)
            return error_report(error, st, "sphere %zu: %s", id,
                                carom_world_error_message(world));
        for (int d = 0; d < 3; d++) {
            scene->position[k][d] = s.position[d];
            scene->velocity[k][d] = s.velocity[d];
        }
        scene->radius[k] = s.radius;
        scene->mass[k] = s.mass;
        double spin[3];
        st = carom_world_get_spin(world, (carom_sphere_id)id, spin);
        if (st == CAROM_OK && !scene->spin && (spin[0] != 0.0 || spin[1] != 0.0 || spin[2] != 0.0))
            st = carom_scene_add_spins(scene, error); /* the spheres before had none */
        if (st != CAROM_OK)
            return st;
        if (scene->spin)
            for (int d = 0; d < 3; d++)
                scene->spin[k][d] = spin[d];
        if (!scene->species && s.species != 0)
            st = carom_scene_add_species(scene, error); /* the spheres before were 0 */
        if (st != CAROM_OK)
            return st;
        if (scene->species)
            scene->species[k] = s.species;
        k++;
    }
    if (k != count) {
        carom_scene_resize(scene, k, NULL);
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "world reports %zu spheres but %zu exist", count, k);
    }
    return error_clear(error);
}
