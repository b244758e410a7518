/* Radial distribution function; contract in rdf.h. */
#include "rdf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

static const double pi = 3.14159265358979323846;

int rdf_start(rdf *g, const carom_world *w, double r_max, size_t bins, char *err, size_t err_size)
{
    memset(g, 0, sizeof *g);
    const carom_world_def *def = carom_world_get_def(w);
    g->dim = def->dim;
    double shortest = INFINITY;
    for (int k = 0; k < g->dim; k++) {
        if (def->boundary[k] != CAROM_BOUNDARY_PERIODIC) {
            snprintf(err, err_size,
                     "rdf: needs a box periodic along every axis (walls would bias g(r))");
            return -1;
        }
        g->box[k] = def->box[k];
        shortest = fmin(shortest, def->box[k]);
    }
    if (!(r_max > 0.0) || !(r_max <= 0.5 * shortest)) {
        snprintf(err, err_size, "rdf_max: %g is not in (0, %g], half the shortest box edge", r_max,
                 0.5 * shortest);
        return -1;
    }
    if (bins == 0) {
        snprintf(err, err_size, "rdf_bins: at least one bin");
        return -1;
    }
    g->r_max = r_max;
    g->bins = bins;
    g->count = calloc(bins, sizeof *g->count);
    if (!g->count) {
        snprintf(err, err_size, "rdf: out of memory for %zu bins", bins);
        return -1;
    }
    return 0;
}

/* Counts pair (i, j) at its nearest-image distance. Positions are
 * sheared ones (gather): the plain nearest image of those, then x moved
 * back by the tilt, and to its own nearest image. */
static void count_pair(rdf *g, size_t i, size_t j)
{
    double d[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < g->dim; k++) {
        d[k] = g->x[i][k] - g->x[j][k];
        if (d[k] > 0.5 * g->box[k])
            d[k] -= g->box[k];
        else if (d[k] < -0.5 * g->box[k])
            d[k] += g->box[k];
    }
    if (g->tilt != 0.0) {
        d[0] += g->tilt * d[1];
        if (d[0] > 0.5 * g->box[0])
            d[0] -= g->box[0];
        else if (d[0] < -0.5 * g->box[0])
            d[0] += g->box[0];
    }
    double d2 = 0.0;
    for (int k = 0; k < g->dim; k++)
        d2 += d[k] * d[k];
    if (d2 >= g->r_max * g->r_max)
        return;
    size_t b = (size_t)(sqrt(d2) / g->r_max * (double)g->bins);
    g->count[b < g->bins ? b : g->bins - 1] += 1.0;
}

/* Positions of the live spheres into g->x (x less tilt y under shear:
 * periodic as a plain box is); their number, or NONE when out of
 * memory. */
static size_t gather(rdf *g, const carom_world *w)
{
    size_t capacity = carom_world_sphere_capacity(w);
    if (capacity > g->capacity) {
        double(*x)[3] = realloc(g->x, capacity * sizeof *x);
        if (x)
            g->x = x;
        size_t *next = realloc(g->next, capacity * sizeof *next);
        if (next)
            g->next = next;
        if (!x || !next)
            return NONE;
        g->capacity = capacity;
    }
    size_t n = 0;
    for (carom_sphere_id id = 0; id < capacity; id++) {
        carom_sphere_state s;
        if (carom_world_get_sphere(w, id, &s) != CAROM_OK)
            continue;
        s.position[0] -= g->tilt * s.position[1];
        for (int k = 0; k < 3; k++) {
            double x = k < g->dim ? fmod(s.position[k], g->box[k]) : 0.0;
            g->x[n][k] = x < 0.0 ? x + g->box[k] : x;
        }
        n++;
    }
    return n;
}

/* Cells along axis k: as many as fit at least r_max / reach wide, at most
 * about the cube (square) root of 4 n in all. */
static size_t cells_along(const rdf *g, int k, size_t n, long reach)
{
    double most = g->dim == 3 ? cbrt(4.0 * (double)n + 27.0) : sqrt(4.0 * (double)n + 9.0);
    double fit = floor(g->box[k] * (double)reach / g->r_max);
    return (size_t)fmax(1.0, fmin(fit, most));
}

static size_t cell_index(const size_t m[3], const long c[3])
{
    return ((size_t)c[2] * m[1] + (size_t)c[1]) * m[0] + (size_t)c[0];
}

static void count_cell_pair(rdf *g, size_t here, size_t there)
{
    for (size_t i = g->head[here]; i != NONE; i = g->next[i])
        for (size_t j = g->head[there]; j != NONE; j = g->next[j])
            count_pair(g, i, j);
}

/* The pairs of n spheres through m[k] cells along each axis, each at
 * least r_max / reach wide, m[k] >= 2 reach[k] + 1 (so that the cells
 * within reach of one are distinct). */
static int count_in_cells(rdf *g, size_t n, const size_t m[3], const long reach[3])
{
    size_t cells = m[0] * m[1] * m[2];
    if (cells > g->cells_capacity) {
        size_t *head = realloc(g->head, cells * sizeof *head);
        if (!head)
            return -1;
        g->head = head;
        g->cells_capacity = cells;
    }
    for (size_t c = 0; c < cells; c++)
        g->head[c] = NONE;
    for (size_t i = 0; i < n; i++) {
        long c[3] = {0, 0, 0};
        for (int k = 0; k < g->dim; k++) {
            c[k] = (long)(g->x[i][k] / g->box[k] * (double)m[k]);
            if (c[k] >= (long)m[k])
                c[k] = (long)m[k] - 1;
        }
        size_t h = cell_index(m, c);
        g->next[i] = g->head[h];
        g->head[h] = i;
    }
    for (long z = 0; z < (long)m[2]; z++)
        for (long y = 0; y < (long)m[1]; y++)
            for (long x = 0; x < (long)m[0]; x++) {
                long c[3] = {x, y, z};
                size_t here = cell_index(m, c);
                for (size_t i = g->head[here]; i != NONE; i = g->next[i])
                    for (size_t j = g->next[i]; j != NONE; j = g->next[j])
                        count_pair(g, i, j);
                /* The half of the cells within reach that come after this
                 * one: each pair of cells once. */
                for (long dz = 0; dz <= reach[2]; dz++)
                    for (long dy = dz > 0 ? -reach[1] : 0; dy <= reach[1]; dy++)
                        for (long dx = dz > 0 || dy > 0 ? -reach[0] : 1; dx <= reach[0];
                             dx++) {
                            long o[3] = {x + dx, y + dy, z + dz};
                            for (int k = 0; k < 3; k++)
                                o[k] = (o[k] + (long)m[k]) % (long)m[k];
                            count_cell_pair(g, here, cell_index(m, o));
                        }
            }
    return 0;
}

/* Every pair of the n spheres in g->x once: through cells at least half
 * r_max wide where five fit along every axis, else all pairs (small or
 * narrow boxes). Under shear a pair r_max apart is up to r_max (1 +
 * |tilt|) apart along x in the sheared positions: more cells along x. */
static int count_pairs(rdf *g, size_t n)
{
    const long per_rmax = 2;
    long reach[3] = {0, 0, 0};
    size_t m[3] = {1, 1, 1};
    int fits = 1;
    for (int k = 0; k < g->dim; k++) {
        reach[k] = k == 0 ? (long)ceil(per_rmax * (1.0 + fabs(g->tilt))) : per_rmax;
        m[k] = cells_along(g, k, n, per_rmax);
        fits &= m[k] >= (size_t)(2 * reach[k] + 1);
    }
    if (fits)
        return count_in_cells(g, n, m, reach);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            count_pair(g, i, j);
    return 0;
}

int rdf_sample(rdf *g, const carom_world *w)
{
    /* Lees-Edwards: the image above is displaced by the offset (taken
     * in [-Lx/2, Lx/2)) along x. */
    g->tilt = 0.0;
    if (carom_world_shear_rate(w) != 0.0) {
        double offset = carom_world_shear_offset(w);
        if (offset >= 0.5 * g->box[0])
            offset -= g->box[0];
        g->tilt = offset / g->box[1];
    }
    size_t n = gather(g, w);
    if (n == NONE)
        return -1;
    if (count_pairs(g, n) != 0)
        return -1;
    g->samples++;
    g->pairs += 0.5 * (double)n * (double)(n > 0 ? n - 1 : 0);
    return 0;
}

double rdf_radius(const rdf *g, size_t b)
{
    return ((double)b + 0.5) * g->r_max / (double)g->bins;
}

double rdf_value(const rdf *g, size_t b)
{
    double volume = 1.0;
    for (int k = 0; k < g->dim; k++)
        volume *= g->box[k];
    double width = g->r_max / (double)g->bins;
    double lo = (double)b * width, hi = lo + width;
    double shell =
        g->dim == 3 ? 4.0 / 3.0 * pi * (hi * hi * hi - lo * lo * lo) : pi * (hi * hi - lo * lo);
    double ideal = g->pairs / volume * shell;
    return ideal > 0.0 ? g->count[b] / ideal : NAN;
}

double rdf_contact(const rdf *g, double sigma, double width)
{
    /* Normal equations of g = a + b u + c u^2, u = r - sigma. */
    double s[5] = {0, 0, 0, 0, 0}, t[3] = {0, 0, 0};
    size_t used = 0;
    double bin = g->r_max / (double)g->bins;
    for (size_t b = 0; b < g->bins; b++) {
        double u = rdf_radius(g, b) - sigma;
        if ((double)b * bin < sigma * (1.0 - 1e-12) || u > width)
            continue;
        double y = rdf_value(g, b), p = 1.0;
        for (int k = 0; k < 5; k++, p *= u) {
            s[k] += p;
            if (k < 3)
                t[k] += p * y;
        }
        used++;
    }
    if (used < 3 || g->samples == 0)
        return NAN;
    double a[3][4] = {{s[0], s[1], s[2], t[0]}, {s[1], s[2], s[3], t[1]}, {s[2], s[3], s[4], t[2]}};
    for (int c = 0; c < 3; c++) { /* Gauss-Jordan with partial pivoting */
        int pivot = c;
        for (int r = c + 1; r < 3; r++)
            if (fabs(a[r][c]) > fabs(a[pivot][c]))
                pivot = r;
        for (int k = 0; k < 4; k++) {
            double swap = a[c][k];
            a[c][k] = a[pivot][k];
            a[pivot][k] = swap;
        }
        if (a[c][c] == 0.0)
            return NAN;
        for (int r = 0; r < 3; r++) {
            if (r == c)
                continue;
            double f = a[r][c] / a[c][c];
            for (int k = c; k < 4; k++)
                a[r][k] -= f * a[c][k];
        }
    }
    return a[0][3] / a[0][0];
}

int rdf_write_csv(const rdf *g, FILE *f)
{
    if (fprintf(f, "r,g,pairs\n") < 0)
        return -1;
    for (size_t b = 0; b < g->bins; b++)
        if (fprintf(f, "%.9g,%.9g,%.0f\n", rdf_radius(g, b), rdf_value(g, b), g->count[b]) < 0)
            return -1;
    return 0;
}

void rdf_free(rdf *g)
{
    free(g->count);
    free(g->x);
    free(g->next);
    free(g->head);
    memset(g, 0, sizeof *g);
}
