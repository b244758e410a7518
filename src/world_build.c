/* Building the grid and the first predictions, which happens on the first
 * advance (so adding N spheres is O(N) in all), and placing a sphere into
 * a built world. Checks every sphere added since the world was last built
 * (at the first build, all of them): inside the box, overlapping no
 * other by more than a relative 1e-10 (touching is fine; a tiny overlap
 * from round-off is resolved by the event loop, which makes an
 * overlapping approaching pair collide at once). The other spheres'
 * states come from the world's own events and are not checked again. A
 * report-only world's spheres pass through each other, so there overlaps
 * are no error at all, for spheres added too (an overlapping pair is
 * first reported when it meets again after separating): only the box is
 * checked. */
#include <math.h>
#include <stdlib.h>

#include "vec.h"
#include "world_internal.h"

#define OVERLAP_TOLERANCE 1e-10

/* Whether spheres may overlap: in a report-only world. */
static int overlaps_allowed(const carom_world *w)
{
    return w->def.response == CAROM_RESPONSE_NONE;
}

static const char axis_name[3] = {'x', 'y', 'z'};

/* Wraps periodic coordinates into [0, L) and checks walls. */
static carom_status fit_into_box(carom_world *w, uint32_t id, int check)
{
    sphere *s = &w->spheres[id];
    if (w->shear_rate != 0.0)
        world_shear_wrap(w, id); /* y through the sheared boundary, then x */
    for (int k = 0; k < w->def.dim; k++) {
        double L = w->def.box[k];
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC) {
            world_wrap_into_box(w, id, k);
        } else {
            double slack = OVERLAP_TOLERANCE * s->radius;
            if (check && (s->x[k] - s->radius < -slack || s->x[k] + s->radius > L + slack))
                return world_fail(w, CAROM_ERR_OUTSIDE_BOX,
                                  "sphere %u (%c = %.17g, radius %g) is outside the box "
                                  "[0, %g] along %c",
                                  (unsigned)world_id_of(w, id), axis_name[k], s->x[k],
                                  s->radius, L, axis_name[k]);
        }
    }
    if (check && w->nplanes) {
        carom_status behind = world_planes_check(w, id);
        if (behind != CAROM_OK)
            return behind;
    }
    if (check && w->nsegments) {
        carom_status overlap = world_segments_check(w, id);
        if (overlap != CAROM_OK)
            return overlap;
    }
    if (check && w->ntriangles) {
        carom_status overlap = world_triangles_check(w, id);
        if (overlap != CAROM_OK)
            return overlap;
    }
    INFO(s)->level = INFO(s)->big ? 0 : (uint8_t)grid_levels_level_of(&w->levels, sphere_reach(w, id));
    if (!INFO(s)->big && sphere_reach(w, id) > w->level_reach[INFO(s)->level])
        w->level_reach[INFO(s)->level] = sphere_reach(w, id);
    if (w->list_skin > 0.0) {
        world_lists_set_centre(w, id); /* its cell is its centre's */
        return CAROM_OK;
    }
    for (int k = 0; k < 3; k++)
        INFO(s)->cc[k] = grid_coordinate(sphere_grid(w, id), k, s->x[k]);
    return CAROM_OK;
}

static carom_status overlap_failure(carom_world *w, uint32_t id, uint32_t j, double dist,
                                    double sigma)
{
    id = world_id_of(w, id);
    j = world_id_of(w, j);
    uint32_t a = id < j ? id : j, b = id < j ? j : id;
    return world_fail(w, CAROM_ERR_OVERLAP,
                      "spheres %u and %u overlap (distance %.17g < contact distance %.17g)",
                      (unsigned)a, (unsigned)b, dist, sigma);
}

/* With neighbour lists, made before this check: every overlapping pair is
 * in the lists (they reach further than contact), so only the spheres of
 * sphere id's list with a higher index are checked (each pair once), and
 * without a square root unless one fails. All spheres are at one time.
 * Whether one overlaps id, which, and their distance. */
static int find_listed_overlap(const carom_world *w, uint32_t id, uint32_t *with, double *dist)
{
    const sphere *s = &w->spheres[id];
    uint32_t room[LIST_MAX];
    const uint32_t *list = world_list_entries(w, id, room);
    int listed = w->list_count[id];
    for (int m = 0; m < listed; m++) {
        uint32_t j = LIST_PARTNER(list[m]);
        if (j < id || !spheres_meet(w, id, j))
            continue;
        const sphere *o = &w->spheres[j];
        const double *shift = w->list_image[LIST_IMAGE(list[m])];
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = o->x[k] + shift[k] - s->x[k];
        double least = (s->radius + o->radius) * (1.0 - OVERLAP_TOLERANCE);
        if (vec_dot(d, d) < least * least) {
            *with = j;
            *dist = sqrt(vec_dot(d, d));
            return 1;
        }
    }
    return 0;
}

/* Whether sphere o, seen through shift at s's time, overlaps s by more
 * than the tolerance; with their distance and contact distance. A driven
 * sphere is where its driver says, not at its bound's centre. Spheres
 * that pass through each other (world_species.c) never overlap. */
static int overlaps(const carom_world *w, const sphere *s, const sphere *o, const double shift[3],
                    double *dist, double *sigma)
{
    if (!spheres_meet(w, (uint32_t)(s - w->spheres), (uint32_t)(o - w->spheres)))
        return 0;
    double xo[3], vo[3], d[3];
    world_true_state(w, (uint32_t)(o - w->spheres), s->t, xo, vo);
    for (int k = 0; k < 3; k++)
        d[k] = xo[k] + shift[k] - s->x[k];
    *sigma = s->radius + o->radius;
    *dist = sqrt(vec_dot(d, d));
    return *dist < *sigma * (1.0 - OVERLAP_TOLERANCE);
}

/* Fails if sphere id overlaps a sphere already in the grid (only those
 * with index below `below` are considered, to check each pair once). */
static carom_status check_overlaps(carom_world *w, uint32_t id, uint32_t below)
{
    const sphere *s = &w->spheres[id];
    neighbour_lists nl;
    world_neighbour_lists(w, id, 0, &nl);
    for (int c = 0; c < nl.count; c++) {
        for (uint32_t j = nl.list[c].head; j != SPHERE_NONE; j = nl.list[c].next[j]) {
            if (j == id || j >= below)
                continue;
            double dist, sigma;
            if (overlaps(w, s, &w->spheres[j], nl.list[c].shift, &dist, &sigma))
                return overlap_failure(w, id, j, dist, sigma);
        }
    }
    uint32_t j;
    double dist, sigma;
    if (w->shear_rate != 0.0 && world_shear_overlap_across(w, id, below, OVERLAP_TOLERANCE, &j, &dist, &sigma))
        return overlap_failure(w, id, j, dist, sigma);
    return CAROM_OK;
}

/* The live sphere of largest reach in the grid (not kept out of it). */
static uint32_t largest_in_grid(const carom_world *w)
{
    uint32_t largest = 0;
    double most = -1.0;
    for (uint32_t i = 0; i < w->count; i++) {
        if (w->info[i].alive && !w->info[i].big && sphere_reach(w, i) > most) {
            most = sphere_reach(w, i);
            largest = i;
        }
    }
    return largest;
}

/* With neighbour lists, one part of the spheres: the first that
 * overlaps a listed sphere of higher index (SPHERE_NONE: none), and
 * whom. Reads only. */
typedef struct listed_overlap {
    uint32_t first[2], with[2];
    double dist[2];
} listed_overlap;

static void check_listed_part(carom_world *w, void *ctx, int part, uint32_t from, uint32_t to)
{
    listed_overlap *o = ctx;
    o->first[part] = SPHERE_NONE;
    for (uint32_t i = from; i < to; i++) {
        if (w->info[i].alive && find_listed_overlap(w, i, &o->with[part], &o->dist[part])) {
            o->first[part] = i;
            return;
        }
    }
}

/* A first build (every sphere new): each pair once. */
static carom_status check_every_pair(carom_world *w)
{
    carom_status st = CAROM_OK;
    if (w->list_skin > 0.0) {
        /* Two parts, on two threads if the world may use them; the
         * sphere named is the same either way. */
        listed_overlap o;
        world_split_run(w, check_listed_part, &o);
        int part = o.first[0] != SPHERE_NONE ? 0 : 1;
        if (o.first[part] != SPHERE_NONE)
            return overlap_failure(w, o.first[part], o.with[part], o.dist[part],
                                   w->spheres[o.first[part]].radius +
                                       w->spheres[o.with[part]].radius);
        /* Lists never reach across the sheared boundary. */
        for (uint32_t i = 0; i < w->count && w->shear_rate != 0.0; i++) {
            uint32_t j;
            double dist, sigma;
            if (w->info[i].alive &&
                world_shear_overlap_across(w, i, i, OVERLAP_TOLERANCE, &j, &dist, &sigma))
                return overlap_failure(w, i, j, dist, sigma);
        }
    } else {
        for (uint32_t i = 0; i < w->count && st == CAROM_OK; i++)
            if (w->info[i].alive && !w->info[i].big)
                st = check_overlaps(w, i, i);
    }
    for (size_t b = 0; b < w->nbig && st == CAROM_OK; b++)
        st = world_big_check_overlaps(w, w->big[b]);
    return st;
}

/* A later build: only the spheres added since the world was last built,
 * each against every other. The others' states come from the world's
 * own events (a report-only world's spheres may overlap: that is not an
 * error). */
static carom_status check_unchecked(carom_world *w)
{
    carom_status st = CAROM_OK;
    for (uint32_t i = 0; i < w->count && st == CAROM_OK; i++) {
        if (!w->info[i].alive || !w->info[i].unchecked)
            continue;
        if (!w->info[i].big)
            st = check_overlaps(w, i, UINT32_MAX);
        if (st == CAROM_OK)
            st = world_big_check_overlaps(w, i);
    }
    return st;
}

void world_unbuild(carom_world *w)
{
    if (!w->built)
        return;
    world_lists_free(w);
    grid_levels_free(&w->levels);
    world_big_clear(w);
    event_queue_clear(&w->queue);
    w->built = 0;
}

/* The grid levels for the spheres not kept out of the grid (reaches up
 * to `radius`); the levels' link arrays and cell table sized for them. */
static int make_grid(carom_world *w, double radius)
{
    int periodic[3];
    for (int k = 0; k < 3; k++)
        periodic[k] = w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC;
    if (w->shear_rate != 0.0)
        periodic[1] = 0; /* cells never neighbour across the sheared boundary */
    double reach_min = radius;
    for (uint32_t i = 0; i < w->count; i++)
        if (w->info[i].alive && !w->info[i].big && sphere_reach(w, i) < reach_min)
            reach_min = sphere_reach(w, i);
    /* Where the spheres are, in cells for the largest: how dense the
     * hierarchy's finest cells should be (removed spheres count too, as
     * they keep their last position: a rough estimate is enough). */
    double volume = 1.0;
    for (int k = 0; k < w->def.dim; k++)
        volume *= w->def.box[k];
    if (reach_min < 0.5 * radius && w->count > 0)
        volume = grid_levels_occupied_volume(w->def.dim, w->def.box, 2.0 * radius,
                                             w->spheres[0].x, sizeof(sphere) / sizeof(double),
                                             w->count);
    if (volume == 0.0)
        return -2;
    int rc = grid_levels_init(&w->levels, w->def.dim, w->def.box, periodic, reach_min, radius,
                              w->alive_count, volume, w->capacity, w->shear_rate != 0.0);
    for (uint32_t i = 0; i < w->count && rc == 0; i++) {
        if (w->info[i].alive && !w->info[i].big &&
            grid_levels_reserve_sphere(
                &w->levels, grid_levels_level_of(&w->levels, sphere_reach(w, i))) != 0) {
            grid_levels_free(&w->levels);
            rc = -2;
        }
    }
    return rc;
}

carom_status world_build(carom_world *w, int resorted)
{
    if (!resorted) {
        carom_status st = world_reorder_at_build(w);
        if (st != CAROM_OK)
            return st;
    }
    world_growth_bake(w); /* growing spheres: the radii now */
    carom_status indexed = world_triangles_index(w);
    if (indexed == CAROM_OK)
        indexed = world_segments_index(w);
    if (indexed != CAROM_OK)
        return indexed;
    double rmax = 0.0, rsum = 0.0;
    for (uint32_t i = 0; i < w->count; i++)
        rsum += w->info[i].alive ? w->spheres[i].radius : 0.0;
    w->mean_radius = w->alive_count ? rsum / (double)w->alive_count : 0.0;
    world_driven_choose_growth(w);
    for (uint32_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive)
            continue;
        if (w->info[i].driven) {
            world_driven_size_bound(w, i);
            if (world_driven_restart(w, i, 0) != CAROM_OK) /* the first probe */
                return CAROM_ERR_INVALID_ARGUMENT;
        }
        if (sphere_reach(w, i) > rmax)
            rmax = sphere_reach(w, i);
    }
    if (rmax == 0.0)
        rmax = 0.5;
    /* The grid is sized for all but a few big spheres, if there are such
     * and the box allows it (world_big.c). */
    if (w->shear_rate != 0.0 && world_shear_refusal(w))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "Lees-Edwards shear (carom_world_set_shear) is not supported with %s",
                          world_shear_refusal(w));
    double rgrid = world_big_choose(w);
    /* Neighbour lists where the scene allows them (world_lists.c): every
     * reach grows by the skin, and the grid must come out as one dense
     * level; otherwise cells. */
    double rspheres = rgrid;
    w->list_skin = 0.0;
    if (world_lists_wanted(w) && !w->lists_refused) {
        w->list_skin = world_lists_skin(w);
        rgrid = rspheres + w->list_skin;
    }
    int rc = make_grid(w, rgrid);
    if (w->list_skin > 0.0 &&
        (rc != 0 || !world_lists_fit_grid(w) || world_lists_reserve(w, w->capacity) != 0)) {
        if (rc == 0)
            grid_levels_free(&w->levels);
        rgrid = rspheres;
        world_lists_free(w); /* list_skin 0: cells */
        rc = make_grid(w, rgrid);
    }
    if (rc == 0 && w->nbig > 0) {
        w->grid_radius = rgrid;
        if (!world_big_fits_grid(w)) {
            world_big_clear(w);
            grid_levels_free(&w->levels);
            rgrid = rmax;
            rc = make_grid(w, rgrid);
        }
    }
    rmax = rgrid;
    if (rc == -1) {
        uint32_t largest = largest_in_grid(w);
        return world_fail(w, CAROM_ERR_BOX_TOO_SMALL,
                          "the periodic box (%g x %g%s%g) must be at least 2 largest diameters "
                          "(2 x %g, sphere %u) long on every periodic axis",
                          w->def.box[0], w->def.box[1], w->def.dim == 3 ? " x " : "",
                          w->def.dim == 3 ? w->def.box[2] : 0.0, 2.0 * rmax,
                          (unsigned)world_id_of(w, largest));
    }
    if (rc != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the cell grid");
    if (w->shear_rate != 0.0 && world_shear_grid_refusal(w)) {
        const char *refused = world_shear_grid_refusal(w);
        grid_levels_free(&w->levels);
        world_big_clear(w);
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "Lees-Edwards shear (carom_world_set_shear) is not supported with %s",
                          refused);
    }
    w->grid_radius = rmax;
    for (int L = 0; L < GRID_LEVELS_MAX; L++)
        w->level_reach[L] = 0.0;
    carom_status st = CAROM_OK;
    size_t unchecked = 0;
    for (uint32_t i = 0; i < w->count && st == CAROM_OK; i++) {
        if (!w->info[i].alive)
            continue;
        unchecked += w->info[i].unchecked;
        world_advance_sphere(w, &w->spheres[i], w->time);
        st = fit_into_box(w, i, w->info[i].unchecked);
        if (st == CAROM_OK && !w->info[i].big)
            cell_link(w, i);
    }
    if (st == CAROM_OK && w->list_skin > 0.0)
        world_lists_build(w);
    if (st == CAROM_OK && !overlaps_allowed(w)) {
        if (unchecked == w->alive_count)
            st = check_every_pair(w);
        else if (unchecked > 0)
            st = check_unchecked(w);
    }
    if (st == CAROM_OK && w->has_driven && (overlaps_allowed(w) || w->sensing)) {
        /* Pairs with a driven sphere that may overlap (all in a
         * report-only world, sensing ones in one that responds). */
        for (uint32_t i = 0; i < w->count && st == CAROM_OK; i++)
            if (w->info[i].alive && w->info[i].driven)
                st = world_driven_note_overlaps(w, i);
    }
    for (uint32_t i = 0; i < w->count && st == CAROM_OK && w->sensing; i++)
        if (w->info[i].alive)
            st = world_sensing_note_overlaps(w, i);
    if (st != CAROM_OK) {
        grid_levels_free(&w->levels);
        world_big_clear(w);
        world_lists_free(w);
        return st;
    }
    w->built = 1;
    for (uint32_t i = 0; i < w->count; i++) {
        if (w->info[i].alive) {
            w->info[i].unchecked = 0;
            w->event_time[i] = INFINITY;
            w->events[i].kind = EVENT_NONE;
        }
    }
    world_growth_built(w);
    world_predict_first(w);
    world_reorder_watch_start(w);
    return CAROM_OK;
}

/* The first sphere of the region scanned that overlaps sphere id, at x
 * at the world's time. */
typedef struct overlap_search {
    uint32_t id;
    const double *x;
    uint32_t found;
    double dist, sigma;
} overlap_search;

static void find_overlap(const carom_world *w, void *ctx, const uint32_t *ids,
                         const double *const *shifts, int n)
{
    overlap_search *o = ctx;
    for (int m = 0; m < n && o->found == SPHERE_NONE; m++) {
        uint32_t j = ids[m];
        if (j == o->id || !spheres_meet(w, o->id, j))
            continue;
        double xj[3], vj[3], d[3];
        world_true_state(w, j, w->time, xj, vj);
        for (int k = 0; k < 3; k++)
            d[k] = xj[k] + shifts[m][k] - o->x[k];
        double sigma = w->spheres[o->id].radius + w->spheres[j].radius;
        double dist = sqrt(vec_dot(d, d));
        if (dist < sigma * (1.0 - OVERLAP_TOLERANCE)) {
            o->found = j;
            o->dist = dist;
            o->sigma = sigma;
        }
    }
}

/* Sphere id, at x at the world's time (in the box), against the spheres
 * of the grid within its reach, and the big ones. The grid holds spheres
 * of reach up to grid_radius, each within the skin of its cell's place
 * with neighbour lists. */
static carom_status check_region(carom_world *w, uint32_t id, const double x[3])
{
    double reach = (w->spheres[id].radius + w->grid_radius + w->list_skin) * (1.0 + 1e-9);
    overlap_search o = {id, x, SPHERE_NONE, 0.0, 0.0};
    world_cells_in_region(w, x, reach, find_overlap, &o);
    if (o.found != SPHERE_NONE)
        return overlap_failure(w, id, o.found, o.dist, o.sigma);
    return world_big_check_overlaps(w, id);
}

carom_status world_check_unplaced(carom_world *w, uint32_t id)
{
    world_advance_sphere(w, &w->spheres[id], w->time);
    carom_status st = fit_into_box(w, id, 1);
    if (st != CAROM_OK || overlaps_allowed(w))
        return st;
    return check_region(w, id, w->spheres[id].x);
}

carom_status world_check_placed(carom_world *w, uint32_t id)
{
    if (overlaps_allowed(w))
        return CAROM_OK;
    double x[3], v[3];
    world_true_state(w, id, w->time, x, v);
    if (w->shear_rate != 0.0) {
        /* The region does not reach across the sheared boundary. */
        world_shear_into_box(w, w->time, x, v);
        uint32_t j;
        double dist, sigma;
        if (world_shear_overlap_across(w, id, UINT32_MAX, OVERLAP_TOLERANCE, &j, &dist, &sigma))
            return overlap_failure(w, id, j, dist, sigma);
    }
    for (int k = 0; k < w->def.dim; k++) /* stored positions may lie a little outside */
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC)
            world_wrap_coordinate(&x[k], w->def.box[k]);
    return check_region(w, id, x);
}

carom_status world_place_sphere(carom_world *w, uint32_t id)
{
    world_advance_sphere(w, &w->spheres[id], w->time);
    carom_status st = fit_into_box(w, id, 1);
    if (st == CAROM_OK && (grid_levels_reserve_links(&w->levels, (size_t)id + 1) != 0 ||
                           grid_levels_reserve_sphere(&w->levels, w->info[id].level) != 0))
        st = world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for the cell grid");
    if (st == CAROM_OK && !overlaps_allowed(w)) {
        st = check_overlaps(w, id, UINT32_MAX);
        if (st == CAROM_OK)
            st = world_big_check_overlaps(w, id);
    }
    if (st == CAROM_OK && w->has_driven && (overlaps_allowed(w) || w->sensing)) {
        st = world_driven_note_overlaps(w, id);
        if (st != CAROM_OK) /* the id goes to the next sphere added */
            pair_set_remove_all_with(&w->lingering, world_id_of(w, id));
    }
    if (st == CAROM_OK)
        st = world_sensing_note_overlaps(w, id);
    if (st == CAROM_OK) {
        w->info[id].unchecked = 0;
        cell_link(w, id);
    }
    if (st == CAROM_OK && w->list_skin > 0.0)
        world_lists_insert(w, id);
    return st;
}
