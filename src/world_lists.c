/* Neighbour lists with a skin: the candidates of dense, uniform scenes.
 *
 * Contract. In this mode (w->list_skin > 0) every sphere i has a list
 * centre c_i, where it was when its list was last made, and stays within
 * list_skin of it: leaving that ball is its EVENT_RELIST, predicted like
 * any other event (world_predict.c). Two spheres are in each other's lists
 * exactly when their centres are closer than r_i + r_j + 2 list_skin
 * (nearest periodic image, plus a relative 1e-6 for round-off and the
 * float radius); spheres
 * not in each other's lists cannot touch before one of them makes its
 * list again, so a prediction only needs the sphere's own list. Lists are
 * symmetric: when sphere i makes its list, it leaves the lists of its old
 * neighbours and joins those of its new ones (each entry carries the
 * periodic image it sees its partner through), so no other sphere needs
 * predicting again. The grid holds the spheres by their list centres
 * (its cells at least 2 (largest radius + list_skin) wide), and changes
 * only when a list is made: there are no cell-crossing events. Under
 * Lees-Edwards shear the grid's y axis does not wrap, so lists never hold
 * a pair across the sheared boundary: world_shear.c times those, and a
 * sphere leaving the grid along y remakes its list on the other side.
 *
 * Centres are stored as floats (with the radius, 16 bytes a sphere); whatever value is
 * stored is the centre used by both the event and the neighbour test, so
 * the rounding is harmless as long as it is far below the skin: the mode
 * is used only in boxes shorter than 65536 skins. Compared with cells of
 * one contact distance, a prediction reads about a third of the spheres
 * (a ball of radius 1.4 diameters instead of 27 cells) from one
 * contiguous array; at packing 0.45 a sphere makes its list about every
 * sixth of its collisions (docs/performance-notes.md). A list lives in
 * its sphere's own block of LIST_BLOCK entries and, when longer, goes on
 * in blocks of a shared pool (world_internal.h), so that the few large
 * spheres of a polydisperse scene do not make every sphere's room grow.
 * Past LIST_MAX entries, or out of memory, the event loop stops with an
 * error and the world goes back to cells.
 *
 * Used when the scene allows it (world_build.c): dense enough (packing at
 * least 0.4 in 3D, 0.62 in 2D; 0.28 in 3D and 0.55 in 2D for radii
 * spread by 1.5 or more),
 * one dense grid level, no driven spheres,
 * none kept out of the grid, at least 3 cells on every periodic axis, and
 * the world's definition does not ask for cells. */
#include <math.h>
#include <stdlib.h>

#include "roots.h"
#include "vec.h"
#include "world_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The skin, as a share of the mean diameter: more means fewer list
 * rebuilds but longer lists (measured in docs/performance-notes.md). In
 * 3D below LIST_MIN_PACKING_3D (a polydisperse scene, or lists asked for)
 * it is larger: spheres fly further between collisions. In worlds of
 * LIST_LARGE_WORLD spheres or more, whose records no longer fit the
 * caches, it is larger too: a rebuild's walk through the cells waits for
 * one load after another, while the extra entries of a longer list are
 * loaded side by side (3D 0.45, N = 10^6: about 15% more collisions a
 * second with 0.3 than with 0.2; N = 10^4 and 97,556: 2-10% fewer). */
#define LIST_SKIN_SHARE 0.2
#define LIST_SKIN_SHARE_DILUTE 0.4
#define LIST_SKIN_SHARE_LARGE 0.3
#define LIST_LARGE_WORLD 150000
#define FLOAT_CENTRE_RANGE 65536.0

/* Below these packing fractions a sphere flies further between
 * collisions, makes its list more often than lists save (3D 0.35: 0.8
 * rebuilds a collision), and cells are faster (docs/benchmarks.md).
 * Radii spread by LIST_SPREAD or more make cells (as wide as the largest
 * pair's contact) hold about twice the candidates of a one-size scene,
 * and lists pay down to the _SPREAD packings (2D disks 1:2 at 0.6: +34%
 * at N = 10^4, +27% at 10^6; at 0.55 +18% and +3%; at 0.5 even and -5%:
 * docs/performance-notes.md, twenty-first pass). */
#define LIST_MIN_PACKING_3D 0.4
#define LIST_MIN_PACKING_2D 0.62
#define LIST_MIN_PACKING_3D_SPREAD 0.28
#define LIST_MIN_PACKING_2D_SPREAD 0.55
#define LIST_SPREAD 1.5

/* The packing fraction a sphere meets, and the alive spheres' largest
 * radius over their smallest. Where species pass through each other
 * (world_species.c), the packing is the mean over the spheres of the
 * packing of the species each meets: two fluids at 0.225 through each
 * other make cells, not lists (3D, 3,000 spheres: 11,000 instructions a
 * collision with cells against 19,800 with lists; docs/benchmarks.md). */
static void scene_shape(const carom_world *w, double *packing, double *spread)
{
    double filled[CAROM_SPECIES_MAX] = {0.0}, count[CAROM_SPECIES_MAX] = {0.0};
    double box = 1.0, lo = INFINITY, hi = 0.0, all = 0.0;
    for (uint32_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive)
            continue;
        double r = w->spheres[i].radius;
        uint8_t s = w->info[i].species;
        filled[s] += w->def.dim == 3 ? 4.0 / 3.0 * M_PI * r * r * r : M_PI * r * r;
        count[s] += 1.0;
        all += 1.0;
        lo = r < lo ? r : lo;
        hi = r > hi ? r : hi;
    }
    for (int k = 0; k < w->def.dim; k++)
        box *= w->def.box[k];
    double met = 0.0;
    for (int a = 0; a < CAROM_SPECIES_MAX; a++)
        for (int b = 0; b < CAROM_SPECIES_MAX && count[a] > 0.0; b++)
            if (!((w->pass_through[a] >> b) & 1u) || (w->sensing && ((w->sense[a] >> b) & 1u)))
                met += count[a] / all * filled[b]; /* listed: they meet or sense */
    *packing = all > 0.0 ? met / box : 0.0;
    *spread = hi > 0.0 ? hi / lo : 1.0;
}

/* The packing below which lists do not pay for this scene. */
static double least_packing(const carom_world *w, double spread)
{
    if (w->def.dim != 3)
        return spread >= LIST_SPREAD ? LIST_MIN_PACKING_2D_SPREAD : LIST_MIN_PACKING_2D;
    return spread >= LIST_SPREAD ? LIST_MIN_PACKING_3D_SPREAD : LIST_MIN_PACKING_3D;
}

int world_lists_wanted(const carom_world *w)
{
    if (w->def.neighbours == CAROM_NEIGHBOURS_CELLS || w->has_driven || w->nbig > 0 ||
        !(w->mean_radius > 0.0) || w->growth_rate > 0.0)
        return 0;
    if (w->def.neighbours == CAROM_NEIGHBOURS_LISTS)
        return 1;
    double packing, spread;
    scene_shape(w, &packing, &spread);
    return packing >= least_packing(w, spread);
}

double world_lists_skin(const carom_world *w)
{
    double packing, spread;
    scene_shape(w, &packing, &spread);
    double share = LIST_SKIN_SHARE;
    if (w->def.dim == 3 && packing < LIST_MIN_PACKING_3D)
        share = LIST_SKIN_SHARE_DILUTE;
    else if (w->alive_count >= LIST_LARGE_WORLD)
        share = LIST_SKIN_SHARE_LARGE;
    return share * 2.0 * w->mean_radius;
}

int world_lists_fit_grid(const carom_world *w)
{
    if (!w->levels.simple)
        return 0;
    const grid *g = &w->levels.level[0];
    for (int k = 0; k < w->def.dim; k++) {
        if (g->periodic[k] && g->n[k] < 3)
            return 0;
        if (g->length[k] > FLOAT_CENTRE_RANGE * w->list_skin)
            return 0;
    }
    return 1;
}

/* The pool of continuation blocks is empty (every list fits its block). */
void world_lists_pool_clear(carom_world *w)
{
    w->list_more_used = 0;
    w->list_more_free = SPHERE_NONE;
}

void world_lists_free(carom_world *w)
{
    free(w->list_entry);
    free(w->list_count);
    free(w->list_centre);
    free(w->list_more);
    w->list_entry = NULL;
    w->list_count = NULL;
    w->list_centre = NULL;
    w->list_more = NULL;
    w->list_more_room = 0;
    world_lists_pool_clear(w);
    w->list_skin = 0.0;
}

int world_lists_reserve(carom_world *w, size_t capacity)
{
    if (!w->list_more)
        world_lists_pool_clear(w);
    uint32_t *e = realloc(w->list_entry, capacity * LIST_BLOCK * sizeof *e);
    if (!e)
        return -1;
    w->list_entry = e;
    uint8_t *c = realloc(w->list_count, capacity * sizeof *c);
    if (!c)
        return -1;
    w->list_count = c;
    float(*x0)[4] = realloc(w->list_centre, capacity * sizeof *x0);
    if (!x0)
        return -1;
    w->list_centre = x0;
    /* The images an entry can name: -1, 0, +1 box lengths per axis. */
    for (int code = 0; code < 27; code++) {
        int s[3] = {code % 3 - 1, code / 3 % 3 - 1, code / 9 - 1};
        for (int k = 0; k < 3; k++)
            w->list_image[code][k] = s[k] * w->def.box[k];
    }
    return 0;
}

/* A block from the pool (SPHERE_NONE: out of memory). */
static uint32_t take_block(carom_world *w)
{
    uint32_t k = w->list_more_free;
    if (k != SPHERE_NONE) {
        w->list_more_free = w->list_more[k][0];
        return k;
    }
    if (w->list_more_used == w->list_more_room) {
        uint32_t room = w->list_more_room ? 2 * w->list_more_room : 64;
        uint32_t(*more)[LIST_BLOCK] = realloc(w->list_more, room * sizeof *more);
        if (!more)
            return SPHERE_NONE;
        w->list_more = more;
        w->list_more_room = room;
    }
    return w->list_more_used++;
}

static void give_block(carom_world *w, uint32_t k)
{
    w->list_more[k][0] = w->list_more_free;
    w->list_more_free = k;
}

/* How many blocks a list of n entries takes. */
static inline int blocks_for(int n)
{
    return n <= LIST_BLOCK ? 1 : (n - 2) / (LIST_BLOCK - 1) + 1;
}

/* Block b of sphere i's list. */
static uint32_t *block_of(carom_world *w, uint32_t i, int b)
{
    uint32_t *block = &w->list_entry[(size_t)i * LIST_BLOCK];
    for (; b > 0; b--)
        block = w->list_more[block[LIST_BLOCK - 1]];
    return block;
}

/* Entry m of sphere i's list when it has n entries. */
static uint32_t *entry_at(carom_world *w, uint32_t i, int m, int n)
{
    int last = blocks_for(n) - 1, b = m / (LIST_BLOCK - 1);
    if (b > last)
        b = last;
    return &block_of(w, i, b)[m - b * (LIST_BLOCK - 1)];
}

static void add_entry(carom_world *w, uint32_t i, uint32_t j, int image)
{
    int n = w->list_count[i];
    uint32_t e = j << LIST_IMAGE_BITS | (uint32_t)image;
    if (n < LIST_BLOCK) { /* the common case: room in its own block */
        w->list_entry[(size_t)i * LIST_BLOCK + n] = e;
        w->list_count[i] = (uint8_t)(n + 1);
        return;
    }
    if (n == LIST_MAX) {
        w->list_failed = 1;
        return;
    }
    if (blocks_for(n + 1) > blocks_for(n)) {
        /* The last block is full: its last entry and the new one go on in
         * a new block, whose index takes that entry's place. */
        uint32_t k = take_block(w);
        if (k == SPHERE_NONE) {
            w->list_failed = 1;
            return;
        }
        uint32_t *last = block_of(w, i, blocks_for(n) - 1);
        w->list_more[k][0] = last[LIST_BLOCK - 1];
        w->list_more[k][1] = e;
        last[LIST_BLOCK - 1] = k;
    } else {
        *entry_at(w, i, n, n + 1) = e;
    }
    w->list_count[i] = (uint8_t)(n + 1);
}

/* Takes j out of i's list: the last entry takes its place. */
static void remove_entry(carom_world *w, uint32_t i, uint32_t j)
{
    int n = w->list_count[i];
    if (n <= LIST_BLOCK) { /* the common case: all in its own block */
        uint32_t *e = &w->list_entry[(size_t)i * LIST_BLOCK];
        for (int m = 0; m < n; m++) {
            if (LIST_PARTNER(e[m]) == j) {
                e[m] = e[n - 1];
                w->list_count[i] = (uint8_t)(n - 1);
                return;
            }
        }
        return;
    }
    int m = 0;
    for (uint32_t *block = block_of(w, i, 0);; m += LIST_BLOCK - 1) {
        int here = n - m <= LIST_BLOCK ? n - m : LIST_BLOCK - 1, k = 0;
        while (k < here && LIST_PARTNER(block[k]) != j)
            k++;
        if (k < here) {
            m += k;
            break;
        }
        if (n - m <= LIST_BLOCK)
            return; /* the last block: not listed */
        block = w->list_more[block[LIST_BLOCK - 1]];
    }
    *entry_at(w, i, m, n) = *entry_at(w, i, n - 1, n);
    if (blocks_for(n - 1) < blocks_for(n)) {
        /* One entry is left in the last block: back into the block
         * before, in place of the link. */
        uint32_t *before = block_of(w, i, blocks_for(n) - 2);
        uint32_t k = before[LIST_BLOCK - 1];
        before[LIST_BLOCK - 1] = w->list_more[k][0];
        give_block(w, k);
    }
    w->list_count[i] = (uint8_t)(n - 1);
}

/* Sphere i's list empties (its pool blocks go back). */
static void clear_list(carom_world *w, uint32_t i)
{
    int n = w->list_count[i];
    const uint32_t *block = block_of(w, i, 0);
    for (; n > LIST_BLOCK; n -= LIST_BLOCK - 1) {
        uint32_t k = block[LIST_BLOCK - 1];
        block = w->list_more[k];
        give_block(w, k);
    }
    w->list_count[i] = 0;
}

/* Sphere i leaves the lists of its neighbours, and its own list empties. */
void world_lists_remove(carom_world *w, uint32_t i)
{
    uint32_t room[LIST_MAX];
    const uint32_t *e = world_list_entries(w, i, room); /* partners' lists change, not its own */
    int n = w->list_count[i];
    for (int m = 0; m < n; m++)
        PREFETCH(world_list_of(w, LIST_PARTNER(e[m])));
    for (int m = 0; m < n; m++)
        remove_entry(w, LIST_PARTNER(e[m]), i);
    clear_list(w, i);
}

/* The image code of a shift of -1, 0 or +1 box lengths per axis. */
static int image_code(const double shift[3])
{
    int code = 0, scale = 1;
    for (int k = 0; k < 3; k++, scale *= 3) {
        int s = shift[k] > 0.0 ? 1 : shift[k] < 0.0 ? -1 : 0;
        code += (s + 1) * scale;
    }
    return code;
}

/* How many spheres of the cells around are gathered before they are
 * tested (see gather). */
#define GATHER_BATCH 256

/* Entry (j, image) joins sphere i's list; in a part of a split build
 * (deferral not NULL) only where the part may write it itself, else it
 * waits in the deferral (world_lists_build.c). */
static inline void add_or_defer(carom_world *w, list_deferral *deferral, uint32_t i, uint32_t j,
                                int image)
{
    if (!deferral) {
        add_entry(w, i, j, image);
        return;
    }
    if (i >= deferral->from && i < deferral->to && w->list_count[i] < LIST_BLOCK) {
        int n = w->list_count[i];
        w->list_entry[(size_t)i * LIST_BLOCK + n] = j << LIST_IMAGE_BITS | (uint32_t)image;
        w->list_count[i] = (uint8_t)(n + 1);
        return;
    }
    world_lists_defer(deferral, i, j << LIST_IMAGE_BITS | (uint32_t)image);
}

void world_lists_add(carom_world *w, uint32_t i, uint32_t entry)
{
    add_entry(w, i, LIST_PARTNER(entry), (int)LIST_IMAGE(entry));
}

/* The spheres of a gathered batch within reach of i's centre join i's
 * list, and i theirs (with the image each sees the other through): those
 * that meet i (world_species.c; the others need no list). */
static void gather_batch(carom_world *w, uint32_t i, const uint32_t *ids,
                         const uint8_t *cell_of, const grid_neighbourhood *nb, int n,
                         list_deferral *deferral)
{
    const float *ci = w->list_centre[i];
    double reach_i = w->spheres[i].radius + 2.0 * w->list_skin;
    /* First the ones within reach, without a branch on each (whether a
     * sphere of the cells around is within reach is a coin toss)... */
    int near[GATHER_BATCH], kept = 0;
    for (int m = 0; m < n; m++) {
        const double *shift = nb->shift[cell_of[m]];
        const float *cj = w->list_centre[ids[m]];
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = (double)cj[k] + shift[k] - (double)ci[k];
        /* float radius: a relative 1e-6 more covers its rounding */
        double reach = (reach_i + (double)cj[3]) * (1.0 + 1e-6);
        near[kept] = m;
        kept += vec_dot(d, d) < reach * reach;
    }
    /* ... then those that meet i join the lists. */
    for (int q = 0; q < kept; q++) {
        int m = near[q];
        if (w->species_filter && !spheres_interact(w, i, ids[m]))
            continue;
        int image = image_code(nb->shift[cell_of[m]]);
        add_or_defer(w, deferral, i, ids[m], image);
        add_or_defer(w, deferral, ids[m], i, 26 - image); /* j sees i through the opposite image */
    }
}

/* Sphere i's neighbourhood away from every boundary keeps only the cells
 * some point of which is within reach of i's centre: with cells about
 * one reach wide, a quarter of the 27 (most corners, some edges) are
 * not, and their spheres could only fail gather_batch's test. A cell's
 * spheres have their centres in it (grid_coordinate; a clamped one lies
 * beyond its cell), so a sliver of slack covers the round-off. */
static void drop_cells_out_of_reach(const carom_world *w, uint32_t i, double reach,
                                    grid_neighbourhood *nb)
{
    const grid *g = &w->levels.level[0];
    const int32_t *cc = w->info[i].cc;
    double gap2[3][3] = {{0.0}};
    for (int k = 0; k < g->dim; k++) {
        if (cc[k] < 1 || cc[k] > g->n[k] - 2)
            return; /* shifts or missing cells: keep them all */
        double slack = 1e-9 * g->width[k];
        double local = (double)w->list_centre[i][k] - cc[k] * g->width[k];
        double below = local - slack, above = g->width[k] - local - slack;
        below = below > 0.0 ? below : 0.0;
        above = above > 0.0 ? above : 0.0;
        gap2[k][0] = below * below;
        gap2[k][2] = above * above;
    }
    double reach2 = reach * reach;
    int kept = 0, m = 0;
    for (int z = g->dim > 2 ? 0 : 1; z <= (g->dim > 2 ? 2 : 1); z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 3; x++, m++)
                if (gap2[2][z] + gap2[1][y] + gap2[0][x] < reach2)
                    nb->cell[kept++] = nb->cell[m]; /* shifts: all zero here */
    nb->count = kept;
}

/* The spheres of the cells around sphere i gathered so far, each with
 * the cell of i's neighbourhood it was seen in (see gather). */
typedef struct gathering {
    uint32_t ids[GATHER_BATCH];
    uint8_t cell_of[GATHER_BATCH];
    int n;
} gathering;

/* Sphere j, seen in cell c of i's neighbourhood, is gathered; a full
 * batch is tested. */
static inline void gather_one(carom_world *w, uint32_t i, const grid_neighbourhood *nb,
                              gathering *b, uint32_t j, int c, list_deferral *deferral)
{
    PREFETCH(&w->list_centre[j]);
    b->ids[b->n] = j;
    b->cell_of[b->n] = (uint8_t)c;
    if (++b->n == GATHER_BATCH) {
        gather_batch(w, i, b->ids, b->cell_of, nb, b->n, deferral);
        b->n = 0;
    }
}

/* Sphere i joins the lists of the spheres whose centres are within reach
 * of its own, and they its list (only those with index below `below`: a
 * build adds each pair once). The cells' spheres are gathered first and
 * their centres prefetched, so that the loads overlap; from cell ranges
 * when the build has made them (lowest index first, so the walk of a
 * cell stops at the first not below), else along the cells' lists. */
void world_lists_gather(carom_world *w, uint32_t i, uint32_t below, const cell_ranges *ranges,
                        list_deferral *deferral)
{
    const grid *g = &w->levels.level[0];
    grid_neighbourhood nb;
    grid_neighbourhood_of(g, w->info[i].cc, &nb);
    /* No pair reaches further than i's list radius and the largest other
     * (the float radii: a relative 1e-6 more, as in gather_batch). */
    double reach = (w->spheres[i].radius + w->list_skin + w->level_reach[0]) * (1.0 + 1e-6);
    drop_cells_out_of_reach(w, i, reach, &nb);
    gathering b;
    b.n = 0;
    if (ranges) {
        for (int c = 0; c < nb.count; c++) {
            uint32_t end = ranges->first[nb.cell[c] + 1];
            for (uint32_t m = ranges->first[nb.cell[c]]; m < end; m++) {
                uint32_t j = ranges->order[m];
                if (j >= below)
                    break; /* and all after it */
                if (j != i)
                    gather_one(w, i, &nb, &b, j, c, deferral);
            }
        }
    } else {
        /* The cells' first spheres all at once (no branch waits on
         * them), then their links, so that each chain starts loaded. */
        uint32_t first[sizeof nb.cell / sizeof nb.cell[0]];
        for (int c = 0; c < nb.count; c++)
            first[c] = g->head[nb.cell[c]];
        for (int c = 0; c < nb.count; c++)
            if (first[c] != SPHERE_NONE)
                PREFETCH(&w->cell_next[first[c]]);
        for (int c = 0; c < nb.count; c++)
            for (uint32_t j = first[c]; j != SPHERE_NONE; j = w->cell_next[j])
                if (j != i && j < below)
                    gather_one(w, i, &nb, &b, j, c, deferral);
    }
    gather_batch(w, i, b.ids, b.cell_of, &nb, b.n, deferral);
}

/* Sphere i's list centre at x (rounded to floats), and its cell that of
 * the centre. */
static void centre_at(carom_world *w, uint32_t i, const double x[3])
{
    const grid *g = &w->levels.level[0];
    for (int k = 0; k < 3; k++) {
        w->list_centre[i][k] = (float)x[k];
        w->info[i].cc[k] = grid_coordinate(g, k, (double)w->list_centre[i][k]);
    }
}

void world_lists_set_centre(carom_world *w, uint32_t i)
{
    centre_at(w, i, w->spheres[i].x);
    w->list_centre[i][3] = (float)w->spheres[i].radius; /* rounded the same way every time */
}

void world_lists_insert(carom_world *w, uint32_t i)
{
    w->list_count[i] = 0;
    world_lists_gather(w, i, UINT32_MAX, NULL, NULL);
}

void world_lists_remake(carom_world *w, uint32_t i, uint32_t face)
{
    sphere *s = &w->spheres[i];
    if (face)
        world_shear_relist_through(w, i, face == 2);
    /* Its position now (the stored state is not advanced, as at a cell
     * crossing), kept in the box on periodic axes: a skin's length out of
     * it as a rule, but after a crossing of the sheared boundary, which
     * puts the stored x (of its own, earlier time) in the box, the
     * position now may be many lengths out. */
    double x[3], v[3];
    world_sphere_at(w, s, w->time, x, v);
    const grid *g = &w->levels.level[0];
    for (int k = 0; k < w->def.dim; k++) {
        if (!g->periodic[k])
            continue;
        int64_t n = world_wrap_coordinate(&x[k], g->length[k]);
        if (n) {
            s->x[k] -= (double)n * g->length[k];
            world_note_wrap(w, i, k, n);
        }
    }
    world_lists_remove(w, i);
    cell_unlink(w, i);
    centre_at(w, i, x);
    cell_link(w, i);
    world_lists_gather(w, i, UINT32_MAX, NULL, NULL);
}

double world_lists_relist_time(const carom_world *w, const sphere *s, const double x[3],
                               const double v[3], double now)
{
    uint32_t i = (uint32_t)(s - w->spheres);
    const float *c = w->list_centre[i];
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = x[k] - (double)c[k];
    double skin = w->list_skin;
    double c0 = vec_dot(d, d) - skin * skin;
    if (w->has_gravity && INFO(s)->falls) {
        /* |d + v tau + g tau^2 / 2|^2 - skin^2 */
        double h[3];
        for (int k = 0; k < 3; k++)
            h[k] = 0.5 * w->gravity[k];
        double p[5] = {c0, 2.0 * vec_dot(d, v), vec_dot(v, v) + 2.0 * vec_dot(d, h),
                       2.0 * vec_dot(v, h), vec_dot(h, h)};
        return now + roots_first_upcrossing_poly(p, 4);
    }
    return now + roots_first_upcrossing_quadratic(c0, 2.0 * vec_dot(d, v), vec_dot(v, v));
}

#ifdef CAROM_VALIDATE
static int listed(const carom_world *w, uint32_t i, uint32_t j, int image)
{
    uint32_t room[LIST_MAX];
    const uint32_t *e = world_list_entries(w, i, room);
    int n = w->list_count[i];
    for (int m = 0; m < n; m++)
        if (e[m] == (j << LIST_IMAGE_BITS | (uint32_t)image))
            return 1;
    return 0;
}

int world_lists_valid(const carom_world *w)
{
    const grid *g = &w->levels.level[0];
    for (uint32_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive)
            continue;
        double x[3], v[3], d[3];
        world_sphere_at(w, &w->spheres[i], w->time, x, v);
        for (int k = 0; k < 3; k++) {
            d[k] = x[k] - (double)w->list_centre[i][k];
            if (w->info[i].cc[k] != grid_coordinate(g, k, (double)w->list_centre[i][k]))
                return 0;
        }
        double slack = 1e-9 * (w->list_skin + sqrt(vec_dot(x, x)));
        if (sqrt(vec_dot(d, d)) > w->list_skin + slack)
            return 0;
        /* Every pair within reach is listed, both ways, with its image;
         * none is listed twice. */
        int found = 0;
        grid_neighbourhood nb;
        grid_neighbourhood_of(g, w->info[i].cc, &nb);
        for (int c = 0; c < nb.count; c++) {
            for (uint32_t j = g->head[nb.cell[c]]; j != SPHERE_NONE; j = w->cell_next[j]) {
                if (j == i || !spheres_interact(w, i, j))
                    continue;
                double e[3];
                for (int k = 0; k < 3; k++)
                    e[k] = (double)w->list_centre[j][k] + nb.shift[c][k] -
                           (double)w->list_centre[i][k];
                double reach = w->spheres[i].radius + w->spheres[j].radius + 2.0 * w->list_skin;
                if (sqrt(vec_dot(e, e)) > reach * (1.0 - 1e-9))
                    continue;
                int image = image_code(nb.shift[c]);
                if (!listed(w, i, j, image) || !listed(w, j, i, 26 - image))
                    return 0;
                found++;
            }
        }
        if (found > w->list_count[i])
            return 0;
    }
    return 1;
}
#endif
