/* The scene queries' index (query_index.h): a counting sort of the
 * ballistic spheres' positions now into a uniform grid of about one
 * sphere a cell. */
#include <math.h>
#include <stdlib.h>

#include "query_index.h"
#include "world_internal.h"

#define MAX_CELLS_PER_AXIS 1048576

static int reserve(void **p, size_t *room, size_t need, size_t size)
{
    if (need <= *room)
        return 0;
    size_t r = *room ? *room : 64;
    while (r < need)
        r *= 2;
    void *q = realloc(*p, r * size);
    if (!q)
        return -1;
    *p = q;
    *room = r;
    return 0;
}

/* The cells: about one ballistic sphere each, at least a mean diameter
 * wide, at most 4 N + 64 of them. */
static void choose_cells(const carom_world *w, query_index *q, size_t n, double mean_radius)
{
    int dim = w->def.dim;
    double volume = 1.0;
    for (int k = 0; k < dim; k++)
        volume *= w->def.box[k];
    double h = pow(volume / (double)(n ? n : 1), 1.0 / dim);
    if (h < 2.0 * mean_radius)
        h = 2.0 * mean_radius;
    for (;;) {
        double cells = 1.0;
        for (int k = 0; k < 3; k++) {
            double c = k < dim ? floor(w->def.box[k] / h) : 1.0;
            q->n[k] = (int32_t)(c < 1.0 ? 1.0 : c > MAX_CELLS_PER_AXIS ? MAX_CELLS_PER_AXIS : c);
            cells *= q->n[k];
        }
        if (cells <= 4.0 * (double)n + 64.0)
            break;
        h *= 1.25;
    }
    for (int k = 0; k < 3; k++) {
        q->width[k] = k < dim ? w->def.box[k] / q->n[k] : 1.0;
        q->inv_width[k] = 1.0 / q->width[k];
    }
}

/* The cell of a position (wrapped on periodic axes, clamped on walled
 * ones); x is wrapped in place. */
static size_t cell_of(const carom_world *w, const query_index *q, double x[3])
{
    size_t index = 0, stride = 1;
    for (int k = 0; k < w->def.dim; k++) {
        double L = w->def.box[k];
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC) {
            x[k] -= L * floor(x[k] / L);
            if (x[k] >= L) /* round-off of a tiny negative */
                x[k] = 0.0;
        }
        long c = (long)floor(x[k] * q->inv_width[k]);
        c = c < 0 ? 0 : c >= q->n[k] ? q->n[k] - 1 : c;
        index += (size_t)c * stride;
        stride *= (size_t)q->n[k];
    }
    return index;
}

static int build(carom_world *w, query_index *q)
{
    double grow = growth_factor(w, w->time), sum = 0.0;
    size_t n = 0;
    for (uint32_t slot = 0; slot < w->count; slot++)
        if (w->info[slot].alive && !w->info[slot].driven) {
            sum += w->spheres[slot].radius * grow;
            n++;
        }
    choose_cells(w, q, n, n ? sum / (double)n : 0.0);
    double limit = q->width[0];
    for (int k = 1; k < w->def.dim; k++)
        limit = fmin(limit, q->width[k]);
    q->ncells = (size_t)q->n[0] * (size_t)q->n[1] * (size_t)q->n[2];
    size_t some = n ? n : 1;
    if (reserve((void **)&q->start, &q->cells_room, q->ncells + 1, sizeof *q->start) ||
        reserve((void **)&q->slot, &q->room, some, sizeof *q->slot) ||
        reserve((void **)&q->others, &q->others_room, w->count ? w->count : 1, sizeof *q->others))
        return -1;
    double(*x)[4] = realloc(q->x, q->room * sizeof *x);
    if (!x)
        return -1;
    q->x = x;
    /* Count per cell, then place cell by cell (slot order within one). */
    uint32_t *cell = malloc(some * sizeof *cell), *from = malloc(some * sizeof *from);
    double(*at)[4] = malloc(some * sizeof *at);
    if (!cell || !from || !at) {
        free(cell);
        free(from);
        free(at);
        return -1;
    }
    for (size_t c = 0; c <= q->ncells; c++)
        q->start[c] = 0;
    q->nothers = 0;
    q->max_radius = 0.0;
    size_t m = 0;
    for (uint32_t slot = 0; slot < w->count; slot++) {
        if (!w->info[slot].alive)
            continue;
        double r = w->spheres[slot].radius * grow;
        if (w->info[slot].driven || r > limit) {
            q->others[q->nothers++] = slot;
            continue;
        }
        double p[3], v[3];
        world_sphere_at(w, &w->spheres[slot], w->time, p, v);
        cell[m] = (uint32_t)cell_of(w, q, p);
        q->start[cell[m] + 1]++;
        for (int k = 0; k < 3; k++)
            at[m][k] = p[k];
        at[m][3] = r;
        from[m] = slot;
        q->max_radius = fmax(q->max_radius, r);
        m++;
    }
    for (size_t c = 0; c < q->ncells; c++)
        q->start[c + 1] += q->start[c];
    for (size_t i = 0; i < m; i++) {
        uint32_t to = q->start[cell[i]]++; /* start[c] runs to start[c + 1] */
        q->slot[to] = from[i];
        for (int k = 0; k < 4; k++)
            q->x[to][k] = at[i][k];
    }
    for (size_t c = q->ncells; c > 0; c--) /* and back */
        q->start[c] = q->start[c - 1];
    q->start[0] = 0;
    q->count = m;
    free(cell);
    free(from);
    free(at);
    return 0;
}

const query_index *query_index_now(carom_world *w)
{
    query_index *q = &w->query;
    if (q->valid && q->time == w->time && q->epoch == w->query_epoch)
        return q;
    q->valid = 0;
    if (q->asked && q->asked_time == w->time && q->asked_epoch == w->query_epoch) {
        q->asked++;
    } else {
        q->asked = 1;
        q->asked_time = w->time;
        q->asked_epoch = w->query_epoch;
    }
    if (q->asked < 3)
        return NULL;
    if (build(w, q) != 0)
        return NULL;
    q->valid = 1;
    q->time = w->time;
    q->epoch = w->query_epoch;
    return q;
}

void query_index_free(query_index *q)
{
    free(q->start);
    free(q->slot);
    free(q->x);
    free(q->others);
    *q = (query_index){0};
}
