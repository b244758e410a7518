/* Candidate pairs in a periodic box (contract in broad_phase.h). */
#include "broad_phase.h"
#include "baseline_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void carom_broad_straight_positions(const carom_scene *scene, double t, double (*x)[3])
{
    for (size_t i = 0; i < scene->n; i++)
        for (int k = 0; k < 3; k++) {
            if (k >= scene->dim) {
                x[i][k] = 0.0;
                continue;
            }
            double L = scene->box[k], p = scene->position[i][k] + scene->velocity[i][k] * t;
            p -= L * floor(p / L);
            x[i][k] = p < L ? p : 0.0;
        }
}

static int all_pairs(const carom_broad_phase *b, carom_broad_pair_fn fn, void *user)
{
    for (size_t i = 0; i < b->n; i++)
        for (size_t j = i + 1; j < b->n; j++) {
            int stop = fn(user, (uint32_t)i, (uint32_t)j);
            if (stop)
                return stop;
        }
    return 0;
}

static int cell_of(const carom_broad_phase *b, const double x[3], int k)
{
    int c = (int)(x[k] / b->cell[k]);
    return c < b->cells[k] ? c : b->cells[k] - 1;
}

static size_t cell_index(const carom_broad_phase *b, const int c[3])
{
    return ((size_t)c[2] * (size_t)b->cells[1] + (size_t)c[1]) * (size_t)b->cells[0] + (size_t)c[0];
}

static int grid_pairs(carom_broad_phase *b, const double (*x)[3], carom_broad_pair_fn fn,
                      void *user)
{
    if (b->cells[0] == 0)
        return all_pairs(b, fn, user);
    int dim = b->dim;
    size_t total = (size_t)b->cells[0] * (size_t)b->cells[1] * (size_t)b->cells[2];
    for (size_t c = 0; c < total; c++)
        b->head[c] = -1;
    for (size_t i = b->n; i-- > 0;) {
        int c[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++)
            c[k] = cell_of(b, x[i], k);
        size_t at = cell_index(b, c);
        b->next[i] = b->head[at];
        b->head[at] = (int32_t)i;
    }
    int reach[3] = {1, 1, dim == 3 ? 1 : 0};
    for (size_t i = 0; i < b->n; i++) {
        int home[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++)
            home[k] = cell_of(b, x[i], k);
        int d[3];
        for (d[2] = -reach[2]; d[2] <= reach[2]; d[2]++)
            for (d[1] = -reach[1]; d[1] <= reach[1]; d[1]++)
                for (d[0] = -reach[0]; d[0] <= reach[0]; d[0]++) {
                    int c[3];
                    for (int k = 0; k < 3; k++) { /* one period over at most */
                        c[k] = home[k] + d[k];
                        c[k] += c[k] < 0 ? b->cells[k] : c[k] >= b->cells[k] ? -b->cells[k] : 0;
                    }
                    for (int32_t j = b->head[cell_index(b, c)]; j >= 0; j = b->next[j])
                        if ((size_t)j > i) {
                            int stop = fn(user, (uint32_t)i, (uint32_t)j);
                            if (stop)
                                return stop;
                        }
                }
    }
    return 0;
}

typedef struct octree_query {
    carom_broad_pair_fn fn;
    void *user;
    uint32_t i;
} octree_query;

static int visit_candidate(void *user, uint32_t j)
{
    octree_query *q = user;
    return j > q->i ? q->fn(q->user, q->i, j) : 0;
}

static int octree_pairs(carom_broad_phase *b, const double (*x)[3], carom_broad_pair_fn fn,
                        void *user)
{
    int dim = b->dim;
    double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < dim; k++)
        hi[k] = b->box[k];
    if (carom_octree_build(&b->tree, dim, x, b->n, lo, hi, NULL) != CAROM_OK)
        return -1;
    octree_query q = {fn, user, 0};
    for (size_t i = 0; i < b->n; i++) {
        q.i = (uint32_t)i;
        double reach = b->radius[i] + b->largest + b->margin;
        /* Shifts of the query box on each axis: itself, and the image
         * one period over where it reaches out of the cell. */
        double shift[3][3];
        int shifts[3] = {1, 1, 1};
        for (int k = 0; k < 3; k++) {
            shift[k][0] = 0.0;
            if (k >= dim)
                continue;
            double L = b->box[k];
            if (x[i][k] - reach < 0.0)
                shift[k][shifts[k]++] = L;
            if (x[i][k] + reach > L)
                shift[k][shifts[k]++] = -L;
        }
        for (int s0 = 0; s0 < shifts[0]; s0++)
            for (int s1 = 0; s1 < shifts[1]; s1++)
                for (int s2 = 0; s2 < shifts[2]; s2++) {
                    double qlo[3], qhi[3], by[3] = {shift[0][s0], shift[1][s1], shift[2][s2]};
                    for (int k = 0; k < 3; k++) {
                        qlo[k] = x[i][k] + by[k] - reach;
                        qhi[k] = x[i][k] + by[k] + reach;
                    }
                    int stop = carom_octree_query(&b->tree, qlo, qhi, visit_candidate, &q);
                    if (stop)
                        return stop;
                }
    }
    return 0;
}

int carom_broad_phase_pairs(carom_broad_phase *b, const double (*x)[3], carom_broad_pair_fn fn,
                            void *user_data)
{
    switch (b->kind) {
    case CAROM_BROAD_OCTREE:
        return octree_pairs(b, x, fn, user_data);
    case CAROM_BROAD_ALL_PAIRS:
        return all_pairs(b, fn, user_data);
    default:
        return grid_pairs(b, x, fn, user_data);
    }
}

/* The grid's cells: at least as wide as the largest contact distance plus
 * the margin, and no more than about two per sphere (wider cells only
 * hold more spheres each). Returns their number, 0 to offer every pair. */
static size_t set_up_grid(carom_broad_phase *b)
{
    double cap = ceil(pow(2.0 * (double)(b->n ? b->n : 1), 1.0 / b->dim));
    if (cap < 3.0)
        cap = 3.0;
    double width = 2.0 * b->largest + b->margin;
    size_t total = 1;
    for (int k = 0; k < 3; k++) {
        if (k >= b->dim) {
            b->cells[k] = 1;
            b->cell[k] = 1.0;
            continue;
        }
        double cells = width > 0.0 ? floor(b->box[k] / width) : 1.0;
        b->cells[k] = (int)(cells < cap ? cells : cap);
        b->cell[k] = b->box[k] / b->cells[k];
        total *= (size_t)b->cells[k];
    }
    if (b->cells[0] < 3 || b->cells[1] < 3 || (b->dim == 3 && b->cells[2] < 3)) {
        b->cells[0] = 0;
        return 0;
    }
    return total;
}

carom_status carom_broad_phase_init(carom_broad_phase *b, carom_broad_kind kind,
                                    const carom_scene *scene, double margin, carom_error *error)
{
    memset(b, 0, sizeof *b);
    carom_octree_init(&b->tree);
    if (kind != CAROM_BROAD_GRID && kind != CAROM_BROAD_OCTREE && kind != CAROM_BROAD_ALL_PAIRS)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "unknown broad phase %d",
                             (int)kind);
    if (scene->dim != 2 && scene->dim != 3)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "the scene's dim is %d (2 or 3)",
                             scene->dim);
    if (!(margin >= 0.0) || !isfinite(margin))
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                             "the margin (%g) must be finite and not negative", margin);
    if (scene->n > (size_t)INT32_MAX)
        return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT, "%zu spheres: at most %d", scene->n,
                             INT32_MAX);
    for (int k = 0; k < scene->dim; k++)
        if (scene->boundary[k] != CAROM_BOUNDARY_PERIODIC || !(scene->box[k] > 0.0) ||
            !isfinite(scene->box[k]))
            return baseline_fail(error, CAROM_ERR_INVALID_ARGUMENT,
                                 "axis %c: the stepped baselines need a periodic box "
                                 "of positive length",
                                 "xyz"[k]);
    b->kind = kind;
    b->dim = scene->dim;
    b->n = scene->n;
    b->radius = scene->radius;
    b->margin = margin;
    for (int k = 0; k < 3; k++)
        b->box[k] = k < scene->dim ? scene->box[k] : 0.0;
    for (size_t i = 0; i < scene->n; i++)
        if (scene->radius[i] > b->largest)
            b->largest = scene->radius[i];
    if (kind != CAROM_BROAD_GRID)
        return CAROM_OK;
    size_t cells = set_up_grid(b);
    b->next = malloc((scene->n ? scene->n : 1) * sizeof *b->next);
    b->head = cells ? malloc(cells * sizeof *b->head) : NULL;
    if (!b->next || (cells && !b->head)) {
        carom_broad_phase_free(b);
        return baseline_fail(error, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu spheres",
                             scene->n);
    }
    return CAROM_OK;
}

void carom_broad_phase_free(carom_broad_phase *b)
{
    free(b->head);
    free(b->next);
    carom_octree_free(&b->tree);
    b->head = NULL;
    b->next = NULL;
}
