/* Ordering a scene's spheres along a space-filling curve (Morton order of
 * their positions quantised to 2^21 steps per axis), so that spheres near
 * each other in space are near each other in the world's arrays: the
 * engine's prediction then reads neighbours that share cache lines and
 * pages, which matters once the arrays outgrow the caches (N >~ 10^5).
 * Only the order changes (positions, velocities, radii, masses, spins and
 * species move together); ids are the new indices. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "carom/scene.h"
#include "morton.h"

carom_status carom_scene_sort_spatially(carom_scene *scene, carom_error *error)
{
    size_t n = scene->n;
    if (n < 2)
        return CAROM_OK;
    morton_keyed *k = malloc(n * sizeof *k);
    double(*tmp3)[3] = malloc(n * sizeof *tmp3);
    double *tmp = malloc(n * sizeof *tmp);
    if (k && tmp3 && tmp) {
        for (size_t i = 0; i < n; i++)
            k[i] = (morton_keyed){morton_key(scene->position[i], scene->box, scene->dim), i};
    }
    if (!k || !tmp3 || !tmp || morton_sort(k, n) != 0) {
        free(k);
        free(tmp3);
        free(tmp);
        if (error) {
            error->status = CAROM_ERR_OUT_OF_MEMORY;
            strcpy(error->message, "out of memory sorting the scene");
        }
        return CAROM_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n; i++)
        memcpy(tmp3[i], scene->position[k[i].index], sizeof tmp3[i]);
    memcpy(scene->position, tmp3, n * sizeof *tmp3);
    for (size_t i = 0; i < n; i++)
        memcpy(tmp3[i], scene->velocity[k[i].index], sizeof tmp3[i]);
    memcpy(scene->velocity, tmp3, n * sizeof *tmp3);
    if (scene->spin) {
        for (size_t i = 0; i < n; i++)
            memcpy(tmp3[i], scene->spin[k[i].index], sizeof tmp3[i]);
        memcpy(scene->spin, tmp3, n * sizeof *tmp3);
    }
    for (size_t i = 0; i < n; i++)
        tmp[i] = scene->radius[k[i].index];
    memcpy(scene->radius, tmp, n * sizeof *tmp);
    for (size_t i = 0; i < n; i++)
        tmp[i] = scene->mass[k[i].index];
    memcpy(scene->mass, tmp, n * sizeof *tmp);
    if (scene->species) {
        /* Through tmp's doubles, which hold every uint32_t exactly. */
        for (size_t i = 0; i < n; i++)
            tmp[i] = (double)scene->species[k[i].index];
        for (size_t i = 0; i < n; i++)
            scene->species[i] = (uint32_t)tmp[i];
    }
    free(k);
    free(tmp3);
    free(tmp);
    return CAROM_OK;
}
