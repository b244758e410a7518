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
    /* Per axis, the neighbouring coordinates (below, same, above) that
     * exist, with their shifts; then every combination, x fastest. */
    int count[3];
    int32_t coord[3][3];
    double shift[3][3];
    for (int k = 0; k < 3; k++) {
        count[k] = 0;
        for (int d = k < g->dim ? -1 : 0; d <= (k < g->dim ? 1 : 0); d++) {
            int32_t nc = c[k] + d;
            double sh = 0.0;
            if (nc < 0 || nc >= g->n[k]) {
                if (!g->periodic[k])
                    continue;
                sh = nc < 0 ? -g->length[k] : g->length[k];
                nc += nc < 0 ? g->n[k] : -g->n[k];
            }
            coord[k][count[k]] = nc;
            shift[k][count[k]++] = sh;
        }
    }
    int m = 0;
    for (int z = 0; z < count[2]; z++)
        for (int y = 0; y < count[1]; y++) {
            uint32_t row = (uint32_t)((coord[2][z] * g->n[1] + coord[1][y]) * g->n[0]);
            for (int x = 0; x < count[0]; x++, m++) {
                out->cell[m] = row + (uint32_t)coord[0][x];
                out->shift[m][0] = shift[0][x];
                out->shift[m][1] = shift[1][y];
                out->shift[m][2] = shift[2][z];
            }
        }
    out->count = m;
}
