/* Uniform cell grid; contract in grid.h. */
#include "grid.h"

#include <math.h>
#include <stdlib.h>

int grid_choose_counts(int dim, const double length[3], const int periodic[3],
                       double contact_distance, size_t nspheres, double max_coarsening,
                       int32_t n_out[3], int *too_many)
{
    /* A relative margin keeps cells wider than the contact distance even
     * after the round-off of L / n. */
    double min_width = contact_distance * (1.0 + 1e-9);
    double cells_total = 1.0;
    int32_t natural[3];
    for (int k = 0; k < 3; k++) {
        if (k >= dim) {
            n_out[k] = natural[k] = 1;
            continue;
        }
        double n = floor(length[k] / min_width);
        if (n > 1 << 20)
            n = 1 << 20;
        if (n < 1)
            n = 1;
        /* A periodic axis with fewer than 3 cells is fine (a neighbour cell
         * then appears once per image), but a sphere must not touch two
         * images of another at once. */
        if (periodic[k] && length[k] < 2.0 * min_width)
            return -1;
        n_out[k] = natural[k] = (int32_t)n;
        cells_total *= n;
    }
    /* Dilute systems: no more than about two cells per sphere. */
    double cap = 2.0 * (double)nspheres + 64.0;
    *too_many = 0;
    while (cells_total > cap) {
        double f = pow(cap / cells_total, 1.0 / dim);
        int changed = 0;
        cells_total = 1.0;
        for (int k = 0; k < dim; k++) {
            int32_t floor_n = periodic[k] ? 3 : 1;
            int32_t n = (int32_t)floor(n_out[k] * f);
            if (n < floor_n)
                n = floor_n;
            if (n < n_out[k]) {
                n_out[k] = n;
                changed = 1;
            }
            cells_total *= n_out[k];
        }
        if (!changed)
            break;
    }
    for (int k = 0; k < dim; k++) {
        if ((double)natural[k] > max_coarsening * (double)n_out[k]) {
            for (int a = 0; a < 3; a++)
                n_out[a] = natural[a];
            *too_many = 1;
            return 0;
        }
    }
    return 0;
}

int grid_layout(grid *g, int dim, const double length[3], const int periodic[3],
                const int32_t n[3], int dense)
{
    g->dim = dim;
    g->head = NULL;
    for (int k = 0; k < 3; k++) {
        g->length[k] = length[k];
        g->periodic[k] = periodic[k];
        g->n[k] = n[k];
        g->width[k] = length[k] / n[k];
    }
    g->ncells = (size_t)g->n[0] * (size_t)g->n[1] * (size_t)g->n[2];
    g->ninterior = 0;
    for (int dz = dim > 2 ? -1 : 0; dz <= (dim > 2 ? 1 : 0); dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                g->interior_offset[g->ninterior++] =
                    ((int64_t)dz * g->n[1] + dy) * g->n[0] + dx;
    if (!dense)
        return 0;
    g->head = malloc(g->ncells * sizeof *g->head);
    if (!g->head)
        return -2;
    for (size_t c = 0; c < g->ncells; c++)
        g->head[c] = UINT32_MAX;
    return 0;
}

void grid_free(grid *g)
{
    free(g->head);
    g->head = NULL;
}

int32_t grid_coordinate(const grid *g, int axis, double x)
{
    double c = floor(x / g->width[axis]);
    if (!(c >= 0))
        return 0;
    if (c >= g->n[axis])
        return g->n[axis] - 1;
    return (int32_t)c;
}

void grid_neighbourhood_of(const grid *g, const int32_t c[3], grid_neighbourhood *out)
{
    int interior = 1;
    for (int k = 0; k < g->dim; k++)
        interior &= c[k] >= 1 && c[k] <= g->n[k] - 2;
    if (interior) {
        /* The common case: no wrapping, no shifts. */
        int64_t base = grid_index(g, c);
        out->count = g->ninterior;
        for (int m = 0; m < g->ninterior; m++) {
            out->cell[m] = (uint32_t)(base + g->interior_offset[m]);
            out->shift[m][0] = out->shift[m][1] = out->shift[m][2] = 0.0;
        }
        return;
    }
    int lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = k < g->dim ? -1 : 0;
        hi[k] = k < g->dim ? 1 : 0;
    }
    out->count = 0;
    for (int dz = lo[2]; dz <= hi[2]; dz++)
        for (int dy = lo[1]; dy <= hi[1]; dy++)
            for (int dx = lo[0]; dx <= hi[0]; dx++) {
                int d[3] = {dx, dy, dz};
                int32_t nc[3];
                double shift[3] = {0.0, 0.0, 0.0};
                int inside = 1;
                for (int k = 0; k < 3; k++) {
                    nc[k] = c[k] + d[k];
                    if (nc[k] < 0 || nc[k] >= g->n[k]) {
                        if (!g->periodic[k]) {
                            inside = 0;
                            break;
                        }
                        if (nc[k] < 0) {
                            nc[k] += g->n[k];
                            shift[k] = -g->length[k];
                        } else {
                            nc[k] -= g->n[k];
                            shift[k] = g->length[k];
                        }
                    }
                }
                if (!inside)
                    continue;
                int m = out->count++;
                out->cell[m] = grid_index(g, nc);
                for (int k = 0; k < 3; k++)
                    out->shift[m][k] = shift[k];
            }
}
