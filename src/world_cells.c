/* The spheres in the grid levels (grid_levels.h), general case: more than
 * one level, or sparse cells. (One dense level, the common case, is
 * handled inline in world_internal.h.)
 *
 * A sphere of level l is in the own list of its cell at level l and in the
 * finer list of the cell containing its centre at every coarser level.
 * Its cell at a coarser level is its own cell coordinates shifted, so a
 * cell crossing at its own level (its only kind of crossing event: the
 * faces of coarser cells are faces of its own) relinks it at the coarser
 * levels whose coordinate changed.
 *
 * Pairs across levels: two spheres of levels a < b that touch are in
 * neighbouring cells at level b (cells there are at least as wide as the
 * sum of their reaches). The finer one finds the coarser one in the own
 * lists of the 3^d cells around it at level b; the coarser one finds the
 * finer one in the finer lists of the 3^d cells around it at level b. Each
 * side's view changes only at its own events (a crossing re-predicts), so
 * the engine's invariant holds: whichever of the two predicted last saw
 * the other.
 *
 * A sphere at least REGION_LEVELS above level 0 with finer spheres around
 * (a large sphere among many small ones) would scan thousands of them in
 * the finer lists of its 3^d cells. It scans instead the cells of level
 * l - REGION_LEVELS (and its own cells at the levels between) within its
 * reach plus a margin of half such a cell, the finer spheres' reach
 * included, and scans again after moving that margin (EVENT_RESCAN, as a
 * big sphere does). A finer sphere outside those cells must cross into
 * one of them (a crossing at its own level too, the grids being nested)
 * before it can touch the large one, and its prediction then finds the
 * large one in the coarse own lists. */
#include <math.h>

#include "world_internal.h"

/* A sphere this many levels above the finest scans the finer spheres
 * around it in a region (world_cells_finer_in_region) instead of the
 * finer lists of its 3^d cells. */
#define REGION_LEVELS 2

static void coarse_cell(const sphere_info *s, int L, int32_t c[3])
{
    for (int k = 0; k < 3; k++)
        c[k] = grid_levels_coarsen(s->cc[k], s->level, L);
}

static void own_link(carom_world *w, uint32_t id)
{
    grid_levels *gl = &w->levels;
    sphere_info *s = &w->info[id];
    int L = s->level;
    uint32_t *head = grid_levels_head(gl, L, s->cc, 0, 1);
    s->cell = gl->level[L].head ? grid_index(&gl->level[L], s->cc) : 0;
    s->cell_prev = SPHERE_NONE;
    uint32_t next = *head;
    w->cell_next[id] = next;
    if (next != SPHERE_NONE)
        w->info[next].cell_prev = id;
    *head = id;
    gl->own_count[L]++;
}

static void own_unlink(carom_world *w, uint32_t id)
{
    grid_levels *gl = &w->levels;
    sphere_info *s = &w->info[id];
    int L = s->level;
    uint32_t next = w->cell_next[id], prev = s->cell_prev;
    if (prev != SPHERE_NONE)
        w->cell_next[prev] = next;
    else
        *grid_levels_head(gl, L, s->cc, 0, 0) = next;
    if (next != SPHERE_NONE)
        w->info[next].cell_prev = prev;
    w->cell_next[id] = s->cell_prev = SPHERE_NONE;
    gl->own_count[L]--;
    if (prev == SPHERE_NONE && next == SPHERE_NONE)
        grid_levels_release(gl, L, s->cc);
}

static void finer_link(carom_world *w, uint32_t id, int L, const int32_t c[3])
{
    grid_levels *gl = &w->levels;
    uint32_t *head = grid_levels_head(gl, L, c, 1, 1);
    uint32_t next = *head;
    gl->finer_next[L][id] = next;
    gl->finer_prev[L][id] = SPHERE_NONE;
    if (next != SPHERE_NONE)
        gl->finer_prev[L][next] = id;
    *head = id;
    gl->finer_count[L]++;
}

static void finer_unlink(carom_world *w, uint32_t id, int L, const int32_t c[3])
{
    grid_levels *gl = &w->levels;
    uint32_t next = gl->finer_next[L][id], prev = gl->finer_prev[L][id];
    if (prev != SPHERE_NONE)
        gl->finer_next[L][prev] = next;
    else
        *grid_levels_head(gl, L, c, 1, 0) = next;
    if (next != SPHERE_NONE)
        gl->finer_prev[L][next] = prev;
    gl->finer_count[L]--;
    if (prev == SPHERE_NONE && next == SPHERE_NONE)
        grid_levels_release(gl, L, c);
}

void world_cells_link(carom_world *w, uint32_t id)
{
    own_link(w, id);
    const sphere_info *s = &w->info[id];
    for (int L = s->level + 1; L < w->levels.count; L++) {
        int32_t c[3];
        coarse_cell(s, L, c);
        finer_link(w, id, L, c);
    }
}

void world_cells_unlink(carom_world *w, uint32_t id)
{
    own_unlink(w, id);
    const sphere_info *s = &w->info[id];
    for (int L = s->level + 1; L < w->levels.count; L++) {
        int32_t c[3];
        coarse_cell(s, L, c);
        finer_unlink(w, id, L, c);
    }
}

void world_cells_cross(carom_world *w, uint32_t id, int axis, int up)
{
    sphere_info *s = &w->info[id];
    const grid *g = &w->levels.level[s->level];
    int32_t before[3] = {s->cc[0], s->cc[1], s->cc[2]};
    own_unlink(w, id);
    cell_step(w, id, g, axis, up);
    own_link(w, id);
    /* Coarser levels, up to the first whose cell did not change (nested
     * cells: none above it changes either). */
    for (int L = s->level + 1; L < w->levels.count; L++) {
        int32_t from[3], to[3];
        for (int k = 0; k < 3; k++) {
            from[k] = grid_levels_coarsen(before[k], s->level, L);
            to[k] = grid_levels_coarsen(s->cc[k], s->level, L);
        }
        if (from[axis] == to[axis])
            break;
        finer_unlink(w, id, L, from);
        finer_link(w, id, L, to);
    }
}

/* Adds the non-empty lists of the 3^d cells around cell c of level L:
 * own lists if `own`, finer lists if `finer`. */
static void add_level_lists(const carom_world *w, int L, const int32_t c[3], int own,
                            int finer, neighbour_lists *out)
{
    const grid_levels *gl = &w->levels;
    const grid *g = &gl->level[L];
    /* Per axis, the three neighbouring coordinates and shifts (absent
     * past a wall, and beyond the first axes in 2D). */
    int32_t nc[3][3];
    double sh[3][3];
    int valid[3][3];
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++) {
            int32_t v = c[k] + i - 1;
            double shift = 0.0;
            int ok = k < g->dim || i == 1;
            if (ok && (v < 0 || v >= g->n[k])) {
                ok = g->periodic[k];
                shift = v < 0 ? -g->length[k] : g->length[k];
                v += v < 0 ? g->n[k] : -g->n[k];
            }
            nc[k][i] = v;
            sh[k][i] = shift;
            valid[k][i] = ok;
        }
    }
    const uint32_t *own_head = own ? g->head : NULL;
    const uint32_t *finer_head = finer && g->head ? gl->finer_head[L] : NULL;
    for (int iz = 0; iz < 3; iz++)
        for (int iy = 0; iy < 3; iy++)
            for (int ix = 0; ix < 3; ix++) {
                if (!valid[2][iz] || !valid[1][iy] || !valid[0][ix])
                    continue;
                int32_t cell[3] = {nc[0][ix], nc[1][iy], nc[2][iz]};
                uint32_t heads[2] = {SPHERE_NONE, SPHERE_NONE};
                if (g->head) {
                    uint32_t index = grid_index(g, cell);
                    if (own_head)
                        heads[0] = own_head[index];
                    if (finer_head)
                        heads[1] = finer_head[index];
                } else {
                    if (own)
                        heads[0] = grid_levels_first(gl, L, cell, 0);
                    if (finer)
                        heads[1] = grid_levels_first(gl, L, cell, 1);
                }
                for (int kind = 0; kind < 2; kind++) {
                    if (heads[kind] == SPHERE_NONE)
                        continue;
                    cell_list *e = &out->list[out->count++];
                    e->head = heads[kind];
                    e->next = kind ? gl->finer_next[L] : w->cell_next;
                    e->shift[0] = sh[0][ix];
                    e->shift[1] = sh[1][iy];
                    e->shift[2] = sh[2][iz];
                }
            }
}

int world_cells_scans_region(const carom_world *w, uint32_t id)
{
    const grid_levels *gl = &w->levels;
    const sphere_info *s = &w->info[id];
    return !gl->simple && !s->big && s->level >= REGION_LEVELS && gl->finer_count[s->level] > 0;
}

/* The finer level whose cells a region scan walks. */
static int region_level(const sphere_info *s)
{
    return s->level - REGION_LEVELS;
}

double world_cells_region_margin(const carom_world *w, uint32_t id)
{
    const grid *g = &w->levels.level[region_level(&w->info[id])];
    double width = g->width[0];
    for (int k = 1; k < g->dim; k++)
        width = width < g->width[k] ? width : g->width[k];
    return 0.5 * width;
}

/* Visits the list from first (linked through next) of sparse cell c
 * (wrapped) of grid g at every image of it whose unwrapped coordinates
 * lie in [lo, hi] on every axis: the cells that a loop over the region
 * would have visited. */
static void visit_images(const carom_world *w, const grid *g, const int32_t c[3], uint32_t first,
                         const uint32_t *next, const int32_t lo[3], const int32_t hi[3],
                         sphere_batch_fn visit, void *ctx)
{
    int32_t from[3], to[3];
    for (int k = 0; k < 3; k++) {
        if (!g->periodic[k]) {
            from[k] = to[k] = 0;
            if (c[k] < lo[k] || c[k] > hi[k])
                return;
            continue;
        }
        /* Images m with lo <= c + m n <= hi. */
        from[k] = (int32_t)ceil((double)(lo[k] - c[k]) / g->n[k]);
        to[k] = (int32_t)floor((double)(hi[k] - c[k]) / g->n[k]);
        if (from[k] > to[k])
            return;
    }
    uint32_t ids[64];
    const double *shifts[64];
    double shift[3];
    int32_t m[3];
    for (m[2] = from[2]; m[2] <= to[2]; m[2]++)
        for (m[1] = from[1]; m[1] <= to[1]; m[1]++)
            for (m[0] = from[0]; m[0] <= to[0]; m[0]++) {
                for (int k = 0; k < 3; k++)
                    shift[k] = m[k] * g->length[k];
                int n = 0;
                for (uint32_t j = first; j != SPHERE_NONE; j = next[j]) {
                    ids[n] = j;
                    shifts[n] = shift;
                    if (++n == 64) {
                        visit(w, ctx, ids, shifts, n);
                        n = 0;
                    }
                }
                visit(w, ctx, ids, shifts, n);
            }
}

/* Whether a region [lo, hi] of a level is better visited through the
 * occupied cells: a sparse level whose region holds more cells than the
 * table has slots (a big or fast driven sphere over fine levels). */
static int region_is_wide(const grid_levels *gl, int L, const int32_t lo[3], const int32_t hi[3])
{
    const grid *g = &gl->level[L];
    double cells = 1.0;
    for (int k = 0; k < g->dim; k++)
        cells *= (double)hi[k] - (double)lo[k] + 1.0;
    return !g->head && cells > (double)gl->table.capacity;
}

/* The own (finer = 0) or finer (finer = 1) lists of a sparse level's
 * occupied cells, each at its images in the region [lo, hi]: the same
 * cells and shifts as the loop over the region, in table order. */
static void visit_occupied(const carom_world *w, int L, int finer, const int32_t lo[3],
                           const int32_t hi[3], sphere_batch_fn visit, void *ctx)
{
    const cell_table *t = &w->levels.table;
    const uint32_t *next = finer ? w->levels.finer_next[L] : w->cell_next;
    for (size_t k = 0; k < t->capacity; k++) {
        const cell_slot *slot = &t->slot[k];
        uint32_t first = finer ? slot->finer : slot->own;
        if (slot->key == CELL_TABLE_EMPTY || first == SPHERE_NONE ||
            grid_levels_key_level(slot->key) != L)
            continue;
        int32_t c[3];
        grid_levels_key_cell(slot->key, c);
        visit_images(w, &w->levels.level[L], c, first, next, lo, hi, visit, ctx);
    }
}

/* Visits the spheres of the own (finer = 0) or finer (finer = 1) lists of
 * the cells of level L within reach of x along every axis. */
static void visit_cells(const carom_world *w, int L, int finer, const double x[3],
                        double reach, sphere_batch_fn visit, void *ctx)
{
    const grid_levels *gl = &w->levels;
    const grid *g = &gl->level[L];
    const uint32_t *next = finer ? gl->finer_next[L] : w->cell_next;
    uint32_t ids[64];
    const double *shifts[64];
    double shift[3] = {0.0, 0.0, 0.0};
    int32_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int k = 0; k < g->dim; k++) {
        lo[k] = (int32_t)floor((x[k] - reach) / g->width[k]);
        hi[k] = (int32_t)floor((x[k] + reach) / g->width[k]);
        if (!g->periodic[k]) {
            lo[k] = lo[k] < 0 ? 0 : lo[k];
            hi[k] = hi[k] > g->n[k] - 1 ? g->n[k] - 1 : hi[k];
        } /* periodic: a cell may come twice, once per image */
    }
    if (region_is_wide(gl, L, lo, hi)) {
        visit_occupied(w, L, finer, lo, hi, visit, ctx);
        return;
    }
    int n = 0;
    int32_t c[3];
    for (c[2] = lo[2]; c[2] <= hi[2]; c[2]++)
        for (c[1] = lo[1]; c[1] <= hi[1]; c[1]++)
            for (c[0] = lo[0]; c[0] <= hi[0]; c[0]++) {
                int32_t wrapped[3];
                for (int k = 0; k < 3; k++) {
                    int32_t images = (int32_t)floor((double)c[k] / g->n[k]);
                    wrapped[k] = c[k] - images * g->n[k];
                }
                uint32_t head = grid_levels_first(gl, L, wrapped, finer);
                if (head == SPHERE_NONE)
                    continue;
                /* One shift per cell: flush the batch before it changes. */
                visit(w, ctx, ids, shifts, n);
                n = 0;
                for (int k = 0; k < 3; k++)
                    shift[k] = floor((double)c[k] / g->n[k]) * g->length[k];
                for (uint32_t j = head; j != SPHERE_NONE; j = next[j]) {
                    ids[n] = j;
                    shifts[n] = shift;
                    PREFETCH(&w->spheres[j]);
                    if (++n == 64) {
                        visit(w, ctx, ids, shifts, n);
                        n = 0;
                    }
                }
            }
    visit(w, ctx, ids, shifts, n);
}

void world_cells_finer_in_region(const carom_world *w, uint32_t id, const double x[3],
                                 sphere_batch_fn visit, void *ctx)
{
    const grid_levels *gl = &w->levels;
    const sphere_info *s = &w->info[id];
    int m = region_level(s);
    double base = sphere_reach(w, id) + world_cells_region_margin(w, id);
    /* Levels m .. l-1 through their own cells; the levels below m through
     * the finer lists of level m. */
    for (int b = m; b < s->level; b++)
        if (gl->own_count[b] > 0)
            visit_cells(w, b, 0, x, base + w->level_reach[b], visit, ctx);
    if (m > 0 && gl->finer_count[m] > 0) {
        double reach = 0.0;
        for (int b = 0; b < m; b++)
            reach = reach > w->level_reach[b] ? reach : w->level_reach[b];
        visit_cells(w, m, 1, x, base + reach, visit, ctx);
    }
}

void world_neighbour_lists(const carom_world *w, uint32_t id, int predicting,
                           neighbour_lists *out)
{
    const grid_levels *gl = &w->levels;
    const sphere_info *s = &w->info[id];
    int l = s->level;
    out->count = 0;
    /* Finer spheres: the finer lists of the cells around, unless they are
     * scanned in a region (world_cells_finer_in_region). */
    int finer = l > 0 && gl->finer_count[l] > 0 && !(predicting && world_cells_scans_region(w, id));
    add_level_lists(w, l, s->cc, 1, finer, out);
    for (int L = l + 1; L < gl->count; L++) {
        if (gl->own_count[L] == 0)
            continue;
        int32_t c[3];
        coarse_cell(s, L, c);
        add_level_lists(w, L, c, 1, 0, out);
    }
}

/* world_visit_near's visits across the sheared boundary. */
typedef struct near_across {
    carom_world *w;
    carom_status (*visit)(carom_world *w, uint32_t id, uint32_t j);
    carom_status st;
} near_across;

static void visit_across(const carom_world *w, void *ctx, uint32_t i, uint32_t j, int side,
                         double zshift)
{
    (void)w;
    (void)side;
    (void)zshift;
    near_across *a = ctx;
    if (a->st == CAROM_OK)
        a->st = a->visit(a->w, i, j);
}

carom_status world_visit_near(carom_world *w, uint32_t id,
                              carom_status (*visit)(carom_world *w, uint32_t id, uint32_t j))
{
    carom_status st = CAROM_OK;
    if (w->shear_rate != 0.0) { /* those overlapping now, through the moving images */
        near_across a = {w, visit, CAROM_OK};
        world_shear_across(w, id, w->time, visit_across, &a);
        st = a.st;
    }
    if (st == CAROM_OK && !w->info[id].big) {
        neighbour_lists nl;
        world_neighbour_lists(w, id, 0, &nl);
        for (int c = 0; c < nl.count; c++)
            for (uint32_t j = nl.list[c].head; j != SPHERE_NONE && st == CAROM_OK;
                 j = nl.list[c].next[j])
                if (j != id)
                    st = visit(w, id, j);
        for (size_t k = 0; k < w->nbig && st == CAROM_OK; k++)
            if (w->big[k] != id)
                st = visit(w, id, w->big[k]);
    } else if (st == CAROM_OK) {
        for (uint32_t j = 0; j < w->count && st == CAROM_OK; j++)
            if (w->info[j].alive && j != id)
                st = visit(w, id, j);
    }
    return st;
}

#define REGION_BATCH 64

/* The spheres of every cell within reach of x, level by level, each cell
 * once per image in the region (a shift per batch). Where a sparse
 * level's region holds more cells than the table has slots (a big or
 * fast driven sphere over fine levels), the occupied cells are visited
 * instead, in table order: the same cells and shifts. */
void world_cells_in_region(const carom_world *w, const double x[3], double reach,
                           sphere_batch_fn visit, void *ctx)
{
    const grid_levels *gl = &w->levels;
    uint32_t ids[REGION_BATCH];
    const double *shifts[REGION_BATCH];
    double shift[3] = {0.0, 0.0, 0.0};
    for (int L = 0; L < gl->count; L++) {
        if (!gl->simple && gl->own_count[L] == 0)
            continue; /* (one dense level does not count its spheres) */
        const grid *g = &gl->level[L];
        int32_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        for (int k = 0; k < g->dim; k++) {
            lo[k] = (int32_t)floor((x[k] - reach) / g->width[k]);
            hi[k] = (int32_t)floor((x[k] + reach) / g->width[k]);
            if (!g->periodic[k]) {
                if (lo[k] < 0)
                    lo[k] = 0;
                if (hi[k] > g->n[k] - 1)
                    hi[k] = g->n[k] - 1;
            }
        }
        if (region_is_wide(gl, L, lo, hi)) {
            visit_occupied(w, L, 0, lo, hi, visit, ctx);
            continue;
        }
        int n = 0;
        int32_t c[3];
        for (c[2] = lo[2]; c[2] <= hi[2]; c[2]++)
            for (c[1] = lo[1]; c[1] <= hi[1]; c[1]++)
                for (c[0] = lo[0]; c[0] <= hi[0]; c[0]++) {
                    /* One shift per cell: flush the batch before it changes. */
                    visit(w, ctx, ids, shifts, n);
                    n = 0;
                    int32_t wrapped[3];
                    for (int k = 0; k < 3; k++) {
                        int32_t images = (int32_t)floor((double)c[k] / g->n[k]);
                        wrapped[k] = c[k] - images * g->n[k];
                        shift[k] = images * g->length[k];
                    }
                    for (uint32_t j = grid_levels_first(gl, L, wrapped, 0); j != SPHERE_NONE;
                         j = w->cell_next[j]) {
                        ids[n] = j;
                        shifts[n] = shift;
                        PREFETCH(&w->spheres[j]);
                        if (++n == REGION_BATCH) {
                            visit(w, ctx, ids, shifts, n);
                            n = 0;
                        }
                    }
                }
        visit(w, ctx, ids, shifts, n);
    }
}
