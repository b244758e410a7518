/* Nested grid levels, dense or sparse; contract in grid_levels.h. */
#include "grid_levels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cells are wider than a reach-diameter by this relative margin (as in
 * grid.c), and a level is chosen when it keeps at least half of it. */
#define WIDTH_MARGIN 1e-9
/* A single-level grid of a dilute system is coarsened to about 2 cells a
 * sphere, but not by more than this factor along an axis: past it the
 * cells are kept at their natural width, in the hash table. */
#define MAX_COARSENING 4.0
/* A level of a hierarchy is dense when it has at most this many cells a
 * sphere (plus a constant). */
#define DENSE_CELLS_PER_SPHERE 4.0
#define DENSE_CELLS_EXTRA 1024.0

static uint64_t cell_key(int L, const int32_t c[3])
{
    return grid_levels_cell_key(L, c);
}

/* The fewest levels above level 0 (widths w0) whose coarsest cells are
 * at least wide enough for reach_max. */
static int levels_above(int dim, const double w0[3], double reach_max)
{
    int top = 0;
    for (int k = 0; k < dim; k++)
        while (top < GRID_LEVELS_MAX - 1 &&
               ldexp(w0[k], top) < 2.0 * reach_max * (1.0 + WIDTH_MARGIN))
            top++;
    return top;
}

/* The width below which level 0's cells are not made: about 2 cells per
 * sphere where the spheres are (volume: the volume they occupy), as a
 * single level is coarsened to (grid.c). Finer cells would hold hardly
 * any sphere and only add cell crossings. */
static double finest_width(int dim, double volume, double reach_min, size_t nspheres)
{
    double per_two_spheres = pow(volume / (2.0 * (double)nspheres + 64.0), 1.0 / dim);
    return fmax(2.0 * reach_min * (1.0 + WIDTH_MARGIN), per_two_spheres);
}

static int init_hierarchy(grid_levels *gl, int dim, const double length[3],
                          const int periodic[3], double finest, double reach_max,
                          size_t nspheres)
{
    double min_width = 2.0 * reach_max * (1.0 + WIDTH_MARGIN);
    int32_t n0[3] = {1, 1, 1};
    double w0[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < dim; k++) {
        if (periodic[k] && length[k] < 2.0 * min_width)
            return -1;
        double n = floor(length[k] / finest);
        n = fmin(fmax(n, 1.0), (double)(1 << GRID_COORD_BITS));
        n0[k] = (int32_t)n;
        w0[k] = length[k] / n0[k];
    }
    int top = levels_above(dim, w0, reach_max);
    /* A periodic axis must be tiled exactly by every level. */
    for (int k = 0; k < dim; k++) {
        if (!periodic[k])
            continue;
        int32_t step = (int32_t)1 << top;
        n0[k] = n0[k] < step ? step : n0[k] - n0[k] % step;
        w0[k] = length[k] / n0[k];
    }
    top = levels_above(dim, w0, reach_max); /* no more than before */
    gl->count = top + 1;
    double dense_max = DENSE_CELLS_PER_SPHERE * (double)nspheres + DENSE_CELLS_EXTRA;
    for (int l = 0; l <= top; l++) {
        int32_t n[3] = {1, 1, 1};
        double cells = 1.0;
        for (int k = 0; k < dim; k++) {
            int32_t step = (int32_t)1 << l;
            n[k] = periodic[k] ? n0[k] / step : (n0[k] + step - 1) / step;
            cells *= n[k];
        }
        int dense = cells <= dense_max;
        grid *g = &gl->level[l];
        if (grid_layout(g, dim, length, periodic, n, dense) != 0)
            return -2;
        for (int k = 0; k < dim; k++)
            g->width[k] = ldexp(w0[k], l); /* exactly nested, also along walls */
        if (dense && l > 0) {
            gl->finer_head[l] = malloc(g->ncells * sizeof *gl->finer_head[l]);
            if (!gl->finer_head[l])
                return -2;
            for (size_t c = 0; c < g->ncells; c++)
                gl->finer_head[l][c] = UINT32_MAX;
        }
    }
    return 0;
}

int grid_levels_init(grid_levels *gl, int dim, const double length[3], const int periodic[3],
                     double reach_min, double reach_max, size_t nspheres,
                     double volume, size_t sphere_capacity, int one_dense_level)
{
    memset(gl, 0, sizeof *gl);
    cell_table_init(&gl->table);
    int rc;
    double finest = finest_width(dim, volume, reach_min, nspheres);
    if (one_dense_level || 2.0 * reach_max * (1.0 + WIDTH_MARGIN) < 2.0 * finest) {
        /* Sizes within a factor 2 of the finest useful cells: one
         * level, the plain uniform grid (coarsened without limit when
         * it must be one dense level). */
        int32_t n[3];
        int too_many;
        if (grid_choose_counts(dim, length, periodic, 2.0 * reach_max, nspheres,
                               one_dense_level ? INFINITY : MAX_COARSENING, n,
                               &too_many) != 0)
            return -1;
        gl->count = 1;
        rc = grid_layout(&gl->level[0], dim, length, periodic, n, !too_many);
    } else {
        rc = init_hierarchy(gl, dim, length, periodic, finest, reach_max, nspheres);
    }
    if (rc == 0)
        rc = grid_levels_reserve_links(gl, sphere_capacity);
    if (rc != 0) {
        grid_levels_free(gl);
        return rc;
    }
    gl->simple = gl->count == 1 && gl->level[0].head != NULL;
    return 0;
}

void grid_levels_free(grid_levels *gl)
{
    for (int l = 0; l < GRID_LEVELS_MAX; l++) {
        grid_free(&gl->level[l]);
        free(gl->finer_head[l]);
        free(gl->finer_next[l]);
        free(gl->finer_prev[l]);
        gl->finer_head[l] = gl->finer_next[l] = gl->finer_prev[l] = NULL;
    }
    cell_table_free(&gl->table);
    gl->count = 0;
    gl->simple = 0;
    gl->link_capacity = 0;
}

int grid_levels_reserve_links(grid_levels *gl, size_t capacity)
{
    if (capacity <= gl->link_capacity)
        return 0;
    if (capacity < 2 * gl->link_capacity)
        capacity = 2 * gl->link_capacity;
    for (int l = 1; l < gl->count; l++) {
        uint32_t *next = realloc(gl->finer_next[l], capacity * sizeof *next);
        if (!next)
            return -2;
        gl->finer_next[l] = next;
        uint32_t *prev = realloc(gl->finer_prev[l], capacity * sizeof *prev);
        if (!prev)
            return -2;
        gl->finer_prev[l] = prev;
    }
    gl->link_capacity = capacity;
    return 0;
}

int grid_levels_reserve_sphere(grid_levels *gl, int level)
{
    size_t keys = 0;
    for (int L = level; L < gl->count; L++)
        keys += gl->level[L].head == NULL;
    if (keys == 0)
        return 0;
    if (cell_table_reserve(&gl->table, gl->table_keys + keys) != 0)
        return -2;
    gl->table_keys += keys;
    return 0;
}

int grid_levels_level_of(const grid_levels *gl, double reach)
{
    double need = 2.0 * reach * (1.0 + 0.5 * WIDTH_MARGIN);
    for (int l = 0; l < gl->count; l++) {
        int wide = 1;
        for (int k = 0; k < gl->level[l].dim; k++)
            wide &= gl->level[l].width[k] >= need;
        if (wide)
            return l;
    }
    return gl->count - 1;
}

uint32_t *grid_levels_head(grid_levels *gl, int L, const int32_t c[3], int finer, int create)
{
    grid *g = &gl->level[L];
    if (g->head) {
        uint32_t index = grid_index(g, c);
        return finer ? &gl->finer_head[L][index] : &g->head[index];
    }
    uint64_t key = cell_key(L, c);
    cell_slot *s = create ? cell_table_insert(&gl->table, key) : cell_table_find(&gl->table, key);
    if (!s)
        return NULL;
    return finer ? &s->finer : &s->own;
}

uint32_t grid_levels_first(const grid_levels *gl, int L, const int32_t c[3], int finer)
{
    const grid *g = &gl->level[L];
    if (g->head) {
        uint32_t index = grid_index(g, c);
        return finer ? gl->finer_head[L][index] : g->head[index];
    }
    const cell_slot *s = cell_table_find(&gl->table, cell_key(L, c));
    if (!s)
        return UINT32_MAX;
    return finer ? s->finer : s->own;
}

void grid_levels_release(grid_levels *gl, int L, const int32_t c[3])
{
    if (gl->level[L].head)
        return;
    cell_slot *s = cell_table_find(&gl->table, cell_key(L, c));
    if (s)
        cell_table_release(&gl->table, s);
}

double grid_levels_occupied_volume(int dim, const double length[3], double width,
                                   const double *x, size_t stride, size_t n)
{
    double box = 1.0, cell = 1.0;
    for (int k = 0; k < dim; k++) {
        box *= length[k];
        cell *= width;
    }
    cell_table seen;
    cell_table_init(&seen);
    if (cell_table_reserve(&seen, n) != 0)
        return 0.0;
    const int32_t mask = (1 << GRID_COORD_BITS) - 1;
    for (size_t i = 0; i < n; i++) {
        int32_t c[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++)
            c[k] = (int32_t)((int64_t)floor(x[i * stride + k] / width) & mask);
        cell_table_insert(&seen, cell_key(0, c));
    }
    double occupied = (double)seen.used * cell;
    cell_table_free(&seen);
    return occupied < box ? occupied : box;
}
