/* Initial velocities: Maxwell-Boltzmann and ballistic random speeds.
 *
 * Contract: only finite-mass spheres receive velocities; infinite-mass
 * ones are set to rest. Maxwell-Boltzmann velocities have exactly zero
 * total momentum (up to round-off) and are rescaled so that
 * 2 KE / (dim N) equals kT to round-off, N counting finite-mass spheres.
 */
#include "scene_internal.h"

#include <math.h>

#include "error_report.h"
#include "rng.h"

static carom_status check_masses(const carom_scene *scene, carom_error *error)
{
    if (!scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "scene is NULL");
    if (scene->dim != 2 && scene->dim != 3)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "dimension must be 2 or 3, not %d", scene->dim);
    for (size_t i = 0; i < scene->n; i++) {
        double m = scene->mass[i];
        if (isnan(m) || !(m > 0.0))
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "sphere %zu: mass must be positive, not %g", i, m);
    }
    return error_clear(error);
}

carom_status carom_scene_maxwell_velocities(carom_scene *scene, double kT, uint64_t seed,
                                            carom_error *error)
{
    carom_status st = check_masses(scene, error);
    if (st != CAROM_OK)
        return st;
    if (!isfinite(kT) || kT < 0.0)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "temperature must be finite and nonnegative, not %g", kT);
    const int dim = scene->dim;
    rng r;
    rng_seed(&r, seed);
    double momentum[3] = {0.0, 0.0, 0.0}, total_mass = 0.0;
    size_t moving = 0;
    for (size_t i = 0; i < scene->n; i++) {
        double *v = scene->velocity[i];
        v[0] = v[1] = v[2] = 0.0;
        if (isinf(scene->mass[i]))
            continue;
        double sigma = sqrt(kT / scene->mass[i]);
        for (int d = 0; d < dim; d++) {
            v[d] = sigma * rng_normal(&r);
            momentum[d] += scene->mass[i] * v[d];
        }
        total_mass += scene->mass[i];
        moving++;
    }
    if (moving == 0 || kT == 0.0) {
        for (size_t i = 0; i < scene->n; i++)
            for (int d = 0; d < 3; d++)
                scene->velocity[i][d] = 0.0;
        return error_clear(error);
    }
    double drift[3] = {0.0, 0.0, 0.0};
    for (int d = 0; d < dim; d++)
        drift[d] = momentum[d] / total_mass;
    double twice_ke = 0.0;
    for (size_t i = 0; i < scene->n; i++) {
        if (isinf(scene->mass[i]))
            continue;
        for (int d = 0; d < dim; d++) {
            scene->velocity[i][d] -= drift[d];
            twice_ke += scene->mass[i] * scene->velocity[i][d] * scene->velocity[i][d];
        }
    }
    if (!(twice_ke > 0.0))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "cannot give %zu moving sphere(s) temperature %g with zero total "
                            "momentum", moving, kT);
    double scale = sqrt(kT * (double)dim * (double)moving / twice_ke);
    for (size_t i = 0; i < scene->n; i++)
        for (int d = 0; d < dim; d++)
            scene->velocity[i][d] *= scale;
    return error_clear(error);
}

carom_status carom_scene_random_velocities(carom_scene *scene, double speed_min,
                                           double speed_max, uint64_t seed, carom_error *error)
{
    carom_status st = check_masses(scene, error);
    if (st != CAROM_OK)
        return st;
    if (!isfinite(speed_min) || !isfinite(speed_max) || speed_min < 0.0 ||
        speed_max < speed_min)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "speed range [%g, %g] must be finite, nonnegative and ordered",
                            speed_min, speed_max);
    rng r;
    rng_seed(&r, seed);
    for (size_t i = 0; i < scene->n; i++) {
        double *v = scene->velocity[i];
        v[0] = v[1] = v[2] = 0.0;
        if (isinf(scene->mass[i]))
            continue;
        double dir[3];
        rng_unit_vector(&r, scene->dim, dir);
        double speed = rng_uniform_range(&r, speed_min, speed_max);
        for (int d = 0; d < scene->dim; d++)
            v[d] = speed * dir[d];
    }
    return error_clear(error);
}
