/* Random non-overlapping placement and random radii.
 *
 * Contract: placement is rejection sampling accelerated by a cell grid
 * whose cells are at least the largest diameter wide and hold about one
 * sphere each, so placing n spheres costs O(n) expected time at low
 * packing. Spheres are tried largest first; each gets a bounded number of
 * attempts, and all together at most ATTEMPTS_TOTAL_PER_SPHERE per sphere,
 * after which placement fails with a message (never loops forever). Pairs keep a tiny relative gap; walls keep centres at least
 * radius (plus that gap) away. Results depend only on the seed.
 */
#include "scene_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "error_report.h"
#include "rng.h"

/* Bounds on rejection sampling: per sphere, and in total per sphere (so a
 * hopelessly dense request fails in O(n) time too). */
#define ATTEMPTS_PER_SPHERE 20000
#define ATTEMPTS_TOTAL_PER_SPHERE 1000

typedef struct placement_grid {
    int dim;
    int periodic[3];
    double box[3];
    size_t cells[3];
    double width[3];
    size_t *head; /* first sphere in each cell, SIZE_MAX if none */
    size_t *next; /* next sphere in the same cell */
} placement_grid;

typedef struct by_radius {
    double radius;
    size_t index;
} by_radius;

static int larger_first(const void *a, const void *b)
{
    const by_radius *x = a, *y = b;
    if (x->radius != y->radius)
        return x->radius > y->radius ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

static size_t cell_coord(const placement_grid *g, int d, double x)
{
    double c = floor(x / g->width[d]);
    if (c < 0.0)
        c = 0.0;
    if (c > (double)(g->cells[d] - 1))
        c = (double)(g->cells[d] - 1);
    return (size_t)c;
}

static size_t cell_index(const placement_grid *g, const size_t c[3])
{
    size_t idx = c[0];
    for (int d = 1; d < g->dim; d++)
        idx = idx * g->cells[d] + c[d];
    return idx;
}

/* Neighbour coordinates of cell c along axis d, without duplicates. */
static int neighbour_coords(const placement_grid *g, int d, size_t c, size_t out[3])
{
    size_t m = g->cells[d];
    int k = 0;
    if (g->periodic[d]) {
        if (m == 1) {
            out[k++] = 0;
        } else if (m == 2) {
            out[k++] = 0;
            out[k++] = 1;
        } else {
            out[k++] = (c + m - 1) % m;
            out[k++] = c;
            out[k++] = (c + 1) % m;
        }
    } else {
        if (c > 0)
            out[k++] = c - 1;
        out[k++] = c;
        if (c + 1 < m)
            out[k++] = c + 1;
    }
    return k;
}

static int overlaps_any(const placement_grid *g, const carom_scene *scene, const double x[3],
                        double radius)
{
    size_t c[3] = {0, 0, 0}, nb[3][3];
    int count[3] = {1, 1, 1};
    for (int d = 0; d < g->dim; d++) {
        c[d] = cell_coord(g, d, x[d]);
        count[d] = neighbour_coords(g, d, c[d], nb[d]);
    }
    if (g->dim == 2)
        nb[2][0] = 0;
    for (int a = 0; a < count[0]; a++)
        for (int b = 0; b < count[1]; b++)
            for (int e = 0; e < count[2]; e++) {
                size_t cc[3] = {nb[0][a], nb[1][b], nb[2][e]};
                for (size_t s = g->head[cell_index(g, cc)]; s != SIZE_MAX; s = g->next[s]) {
                    double dist2 = 0.0;
                    for (int d = 0; d < g->dim; d++) {
                        double dx = x[d] - scene->position[s][d];
                        if (g->periodic[d])
                            dx -= g->box[d] * floor(dx / g->box[d] + 0.5);
                        dist2 += dx * dx;
                    }
                    double contact = (radius + scene->radius[s]) * (1.0 + SCENE_RELATIVE_MARGIN);
                    if (dist2 < contact * contact)
                        return 1;
                }
            }
    return 0;
}

carom_status carom_scene_place_random(carom_scene *scene, uint64_t seed, carom_error *error)
{
    carom_status st = scene_check_box(scene, error);
    if (st != CAROM_OK)
        return st;
    const int dim = scene->dim;
    const size_t n = scene->n;
    double r_max = 0.0, volume = 1.0, filled = 0.0;
    for (size_t i = 0; i < n; i++) {
        double r = scene->radius[i];
        if (!isfinite(r) || !(r > 0.0))
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "sphere %zu: radius must be finite and positive, not %g", i, r);
        r_max = fmax(r_max, r);
        filled += dim == 2 ? 3.14159265358979323846 * r * r
                           : (4.0 / 3.0) * 3.14159265358979323846 * r * r * r;
    }
    if (n == 0)
        return error_clear(error);
    for (int d = 0; d < dim; d++) {
        volume *= scene->box[d];
        if (scene->box[d] < 2.0 * r_max * (1.0 + 2.0 * SCENE_RELATIVE_MARGIN))
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "box length %g along axis %d is smaller than the largest "
                                "diameter %g", scene->box[d], d, 2.0 * r_max);
    }

    placement_grid g = {0};
    g.dim = dim;
    /* Cells at least one largest diameter wide, about one sphere each. */
    double cell = fmax(2.0 * r_max * (1.0 + 2.0 * SCENE_RELATIVE_MARGIN),
                       pow(volume / (double)n, 1.0 / dim));
    size_t total_cells = 1;
    for (int d = 0; d < 3; d++) {
        g.cells[d] = 1;
        g.width[d] = 1.0;
    }
    for (int d = 0; d < dim; d++) {
        g.periodic[d] = scene->boundary[d] == CAROM_BOUNDARY_PERIODIC;
        g.box[d] = scene->box[d];
        double k = floor(scene->box[d] / cell);
        g.cells[d] = k < 1.0 ? 1 : (size_t)k;
        g.width[d] = scene->box[d] / (double)g.cells[d];
        total_cells *= g.cells[d];
    }
    g.head = malloc(total_cells * sizeof *g.head);
    g.next = malloc(n * sizeof *g.next);
    by_radius *order = malloc(n * sizeof *order);
    if (!g.head || !g.next || !order) {
        free(g.head);
        free(g.next);
        free(order);
        return error_report(error, CAROM_ERR_OUT_OF_MEMORY,
                            "out of memory placing %zu spheres", n);
    }
    for (size_t c = 0; c < total_cells; c++)
        g.head[c] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        order[i].radius = scene->radius[i];
        order[i].index = i;
    }
    qsort(order, n, sizeof *order, larger_first);

    rng r;
    rng_seed(&r, seed);
    st = CAROM_OK;
    double budget = (double)ATTEMPTS_TOTAL_PER_SPHERE * (double)n + ATTEMPTS_PER_SPHERE;
    for (size_t k = 0; k < n && st == CAROM_OK; k++) {
        size_t i = order[k].index;
        double radius = scene->radius[i];
        double gap = radius * (1.0 + SCENE_RELATIVE_MARGIN);
        double x[3] = {0.0, 0.0, 0.0};
        int found = 0;
        int attempt = 0;
        for (; attempt < ATTEMPTS_PER_SPHERE && budget > 0.0 && !found; attempt++, budget--) {
            for (int d = 0; d < dim; d++)
                x[d] = g.periodic[d] ? rng_uniform_range(&r, 0.0, g.box[d])
                                     : rng_uniform_range(&r, gap, g.box[d] - gap);
            found = !overlaps_any(&g, scene, x, radius);
        }
        if (!found) {
            st = error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                              "random placement found no free spot for sphere %zu of %zu "
                              "(radius %g) after %d attempts: packing fraction %.4g is too "
                              "high for random placement (use a lattice)",
                              k + 1, n, radius, attempt, filled / volume);
            break;
        }
        for (int d = 0; d < 3; d++)
            scene->position[i][d] = d < dim ? x[d] : 0.0;
        size_t c[3] = {0, 0, 0};
        for (int d = 0; d < dim; d++)
            c[d] = cell_coord(&g, d, x[d]);
        size_t idx = cell_index(&g, c);
        g.next[i] = g.head[idx];
        g.head[idx] = i;
    }
    free(g.head);
    free(g.next);
    free(order);
    return st == CAROM_OK ? error_clear(error) : st;
}

carom_status carom_scene_random(carom_scene *scene, size_t n, double radius, uint64_t seed,
                                carom_error *error)
{
    carom_status st = scene_check_box(scene, error);
    if (st != CAROM_OK)
        return st;
    if (!isfinite(radius) || !(radius > 0.0))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "radius must be finite and positive, not %g", radius);
    st = carom_scene_resize(scene, n, error);
    if (st != CAROM_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        scene->radius[i] = radius;
        scene->mass[i] = 1.0;
        for (int d = 0; d < 3; d++)
            scene->velocity[i][d] = 0.0;
    }
    return carom_scene_place_random(scene, seed, error);
}

carom_status carom_scene_random_radii(carom_scene *scene, double radius_min, double radius_max,
                                      uint64_t seed, carom_error *error)
{
    if (!scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "scene is NULL");
    if (!isfinite(radius_min) || !isfinite(radius_max) || !(radius_min > 0.0) ||
        radius_max < radius_min)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "radius range [%g, %g] must be finite, positive and ordered",
                            radius_min, radius_max);
    rng r;
    rng_seed(&r, seed);
    for (size_t i = 0; i < scene->n; i++) {
        double x = rng_uniform_range(&r, radius_min, radius_max);
        scene->radius[i] = x > 0.0 ? x : radius_min;
    }
    return error_clear(error);
}
