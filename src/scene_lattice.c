/* Equal spheres on a lattice filling the box (carom_scene_lattice).
 *
 * Every lattice here is a rectangular grid of points with spacing b[d]
 * along axis d, either all points (square / simple cubic) or only the
 * points whose index sum is even ("checkerboard": a hexagonal lattice in
 * 2D when b_y = sqrt(3) b_x, FCC in 3D when all b are equal). The grid
 * counts per axis are chosen to make the nearest-neighbour distance as
 * large as possible while holding at least n sites (find_grid), so the
 * lattice adapts to any box shape; the n spheres are then spread evenly
 * over the sites.
 *
 * Along a periodic axis the grid has m points at (i + 1/2) L/m; the site
 * distances are computed with the boundary in mind (for a checkerboard
 * with odd m, sites meet across it one spacing apart), so the lattice
 * always tiles periodically without overlap;
 * along a walled axis the points span [r + margin, L - r - margin] while
 * the counts are chosen, and are then spread like a periodic axis (equal
 * gaps, half a gap to each wall) if that still keeps every distance.
 * CAROM_LATTICE_AUTO falls back to the square / simple cubic lattice when
 * the close-packed one cannot hold n spheres (tiny boxes).
 */
#include "scene_internal.h"

#include <math.h>

#include "error_report.h"

typedef struct lattice_plan {
    int dim;
    int checkerboard;
    double extent[3];     /* periodic: L; walls: span available to centres */
    int periodic[3];
    double lo[3];         /* first centre on a walled axis */
    double length[3];     /* box length */
    int centred;          /* walled axes: centres at (i + 1/2) L / m */
    double m[3];          /* grid points per axis (integer valued) */
} lattice_plan;

/* Most grid points along axis d with spacing at least b_min. */
static double max_points(const lattice_plan *p, int d, double b_min)
{
    if (p->periodic[d])
        return floor(p->extent[d] / b_min);
    return p->extent[d] < 0.0 ? 0.0 : floor(p->extent[d] / b_min) + 1.0;
}

static double site_count(const lattice_plan *p, const double m[3])
{
    double total = 1.0;
    int all_odd = 1;
    for (int d = 0; d < p->dim; d++) {
        total *= m[d];
        if (fmod(m[d], 2.0) == 0.0)
            all_odd = 0;
    }
    if (!p->checkerboard)
        return total;
    return all_odd ? (total + 1.0) / 2.0 : total / 2.0;
}

/* Actual grid spacing along d (INFINITY when a walled axis has one point). */
static double spacing(const lattice_plan *p, int d)
{
    if (p->periodic[d] || p->centred)
        return p->length[d] / p->m[d];
    return p->m[d] > 1.0 ? p->extent[d] / (p->m[d] - 1.0) : INFINITY;
}

/* Smallest distance between two distinct sites (or a site and an image). */
static double nearest_distance(const lattice_plan *p)
{
    double b[3];
    for (int d = 0; d < p->dim; d++)
        b[d] = spacing(p, d);
    double best = INFINITY;
    for (int d = 0; d < p->dim; d++) {
        /* Along one axis: the next point (square) or the one after
         * (checkerboard). With an odd count on a periodic axis the
         * checkerboard pattern meets itself across the boundary with the
         * same parity, one spacing apart (with one point: its own image). */
        double along = p->checkerboard ? 2.0 * b[d] : b[d];
        if (p->periodic[d] && fmod(p->m[d], 2.0) != 0.0)
            along = b[d];
        best = fmin(best, along);
        if (p->checkerboard)
            for (int e = d + 1; e < p->dim; e++)
                best = fmin(best, hypot(b[d], b[e]));
    }
    return best;
}

static double site_coordinate(const lattice_plan *p, int d, double i)
{
    if (p->periodic[d] || p->centred)
        return (i + 0.5) * p->length[d] / p->m[d];
    if (p->m[d] <= 1.0)
        return p->lo[d] + 0.5 * p->extent[d];
    return p->lo[d] + i * p->extent[d] / (p->m[d] - 1.0);
}

/* An upper bound on the nearest-neighbour distance with m points along
 * axis d, whatever the other counts: the distance to the next site on
 * that axis. */
static double distance_bound(const lattice_plan *p, int d, double m)
{
    double b = p->periodic[d] ? p->extent[d] / m
                              : (m > 1.0 ? p->extent[d] / (m - 1.0) : INFINITY);
    return p->checkerboard ? 2.0 * b : b;
}

/* Chooses the grid counts p->m: among the counts whose sites hold at
 * least `need` spheres with every pair at least min_distance apart, the
 * one with the largest nearest-neighbour distance (then the fewest sites).
 * All axes but the last are enumerated; the last gets the smallest count
 * that holds enough sites (or the one after, for parity), since more
 * points only bring sites closer.
 * Products beyond 2 need + 2 are never useful, which bounds the work by
 * O(need log need) even in huge boxes. Returns 0 if nothing fits. */
static int find_grid(lattice_plan *p, double need, double min_distance)
{
    const int dim = p->dim, last = dim - 1;
    double b_min = p->checkerboard ? 0.5 * min_distance : min_distance;
    double most[3];
    for (int d = 0; d < dim; d++) {
        most[d] = max_points(p, d, b_min);
        if (most[d] < 1.0)
            return 0;
    }
    const double useful = (p->checkerboard ? 2.0 : 1.0) * need + 2.0;
    double best_distance = -1.0, best_sites = INFINITY, best[3] = {1.0, 1.0, 1.0};
    double m[3] = {1.0, 1.0, 1.0};
    double outer_most = dim == 3 ? most[0] : 1.0;
    const int ia = dim == 3 ? 1 : 0; /* the inner enumerated axis */
    for (double a = 1.0; a <= outer_most; a += 1.0) {
        if (dim == 3 && distance_bound(p, 0, a) < best_distance)
            break; /* more points along this axis only bring sites closer */
        for (double b = 1.0; b <= most[ia]; b += 1.0) {
            if (distance_bound(p, ia, b) < best_distance)
                break;
            if (dim == 3) {
                m[0] = a;
                m[1] = b;
            } else {
                m[0] = b;
            }
            double others = dim == 3 ? a * b : b;
            /* Smallest count on the last axis that holds enough sites. */
            double c = ceil((p->checkerboard ? 2.0 : 1.0) * need / others) - 2.0;
            m[last] = fmax(1.0, c);
            while (site_count(p, m) < need && m[last] <= most[last])
                m[last] += 1.0;
            /* An odd count on a periodic checkerboard axis brings sites
             * together across the boundary, so try the next count too. */
            int tries = p->checkerboard && p->periodic[last] ? 2 : 1;
            for (int t = 0; t < tries && m[last] <= most[last]; t++, m[last] += 1.0) {
                for (int d = 0; d < 3; d++)
                    p->m[d] = m[d];
                double dist = nearest_distance(p);
                double sites = site_count(p, m);
                if (dist >= min_distance &&
                    (dist > best_distance * (1.0 + 1e-12) ||
                     (dist >= best_distance * (1.0 - 1e-12) && sites < best_sites))) {
                    best_distance = dist;
                    best_sites = sites;
                    for (int d = 0; d < 3; d++)
                        best[d] = m[d];
                }
            }
            if (others > useful)
                break;
        }
        if (a > useful)
            break;
    }
    for (int d = 0; d < 3; d++)
        p->m[d] = best[d];
    return best_distance >= min_distance;
}

static const char *lattice_name(int dim, carom_lattice lattice)
{
    switch (lattice) {
    case CAROM_LATTICE_AUTO: return dim == 2 ? "hexagonal" : "fcc";
    case CAROM_LATTICE_SQUARE: return dim == 2 ? "square" : "simple cubic";
    case CAROM_LATTICE_HEX: return "hexagonal";
    case CAROM_LATTICE_FCC: return "fcc";
    }
    return "unknown";
}

carom_status carom_scene_lattice(carom_scene *scene, size_t n, double radius,
                                 carom_lattice lattice, carom_error *error)
{
    carom_status st = scene_check_box(scene, error);
    if (st != CAROM_OK)
        return st;
    const int dim = scene->dim;
    if (!isfinite(radius) || !(radius > 0.0))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "radius must be finite and positive, not %g", radius);
    const int auto_lattice = lattice == CAROM_LATTICE_AUTO;
    if (auto_lattice)
        lattice = dim == 2 ? CAROM_LATTICE_HEX : CAROM_LATTICE_FCC;
    if (lattice != CAROM_LATTICE_SQUARE && lattice != CAROM_LATTICE_HEX &&
        lattice != CAROM_LATTICE_FCC)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "unknown lattice kind %d",
                            (int)lattice);
    if (lattice == CAROM_LATTICE_HEX && dim != 2)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "the hexagonal lattice is 2D only (use fcc in 3D)");
    if (lattice == CAROM_LATTICE_FCC && dim != 3)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "the fcc lattice is 3D only (use hex in 2D)");

    lattice_plan p = {0};
    p.dim = dim;
    p.checkerboard = lattice != CAROM_LATTICE_SQUARE;
    const double margin = SCENE_RELATIVE_MARGIN * radius;
    for (int d = 0; d < 3; d++) {
        p.m[d] = 1.0;
    }
    for (int d = 0; d < dim; d++) {
        p.periodic[d] = scene->boundary[d] == CAROM_BOUNDARY_PERIODIC;
        p.length[d] = scene->box[d];
        if (p.periodic[d]) {
            p.extent[d] = scene->box[d];
        } else {
            p.lo[d] = radius + margin;
            p.extent[d] = scene->box[d] - 2.0 * (radius + margin);
        }
    }

    const double need = (double)n;
    const double min_distance = 2.0 * radius * (1.0 + SCENE_RELATIVE_MARGIN);
    if (n == 0)
        return carom_scene_resize(scene, 0, error);
    int found = find_grid(&p, need, min_distance);
    if (!found && auto_lattice) {
        lattice = CAROM_LATTICE_SQUARE;
        p.checkerboard = 0;
        found = find_grid(&p, need, min_distance);
    }
    if (!found) {
        double volume = 1.0;
        for (int d = 0; d < dim; d++)
            volume *= scene->box[d];
        double packing = need * 3.14159265358979323846 * radius * radius *
                         (dim == 2 ? 1.0 : (4.0 / 3.0) * radius) / volume;
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "cannot place %zu spheres of radius %g on a %s lattice in this box "
                            "without overlap (packing fraction %.4g is too high for it)",
                            n, radius,
                            auto_lattice ? (dim == 2 ? "hexagonal or square" : "fcc or cubic")
                                         : lattice_name(dim, lattice),
                            packing);
    }

    /* With walls, prefer the same grid spread evenly with half a spacing
     * to each wall (equal gaps everywhere) when that still fits. */
    int walls = 0;
    double clearance = INFINITY;
    for (int d = 0; d < dim; d++)
        if (!p.periodic[d]) {
            walls = 1;
            clearance = fmin(clearance, 0.5 * p.length[d] / p.m[d]);
        }
    if (walls) {
        p.centred = 1;
        if (clearance < radius + margin || nearest_distance(&p) < min_distance)
            p.centred = 0;
    }

    st = carom_scene_resize(scene, n, error);
    if (st != CAROM_OK)
        return st;
    /* Walk the sites in order; take site floor(k * total / n) for the
     * k-th sphere, so that the empty sites are spread evenly. */
    const double total = site_count(&p, p.m);
    size_t placed = 0;
    double site = 0.0; /* index of the current site among valid sites */
    double next_take = 0.0;
    double mz = dim == 3 ? p.m[2] : 1.0;
    for (double i = 0.0; i < p.m[0] && placed < n; i += 1.0)
        for (double j = 0.0; j < p.m[1] && placed < n; j += 1.0)
            for (double k = 0.0; k < mz && placed < n; k += 1.0) {
                if (p.checkerboard && fmod(i + j + k, 2.0) != 0.0)
                    continue;
                if (site == next_take) {
                    double *x = scene->position[placed];
                    x[0] = site_coordinate(&p, 0, i);
                    x[1] = site_coordinate(&p, 1, j);
                    x[2] = dim == 3 ? site_coordinate(&p, 2, k) : 0.0;
                    for (int d = 0; d < 3; d++)
                        scene->velocity[placed][d] = 0.0;
                    scene->radius[placed] = radius;
                    scene->mass[placed] = 1.0;
                    placed++;
                    next_take = floor((double)placed * total / need);
                }
                site += 1.0;
            }
    if (placed != n) /* cannot happen: total >= n */
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "lattice placement stopped after %zu of %zu spheres", placed, n);
    return error_clear(error);
}
