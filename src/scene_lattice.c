/* Equal spheres on a lattice filling the box (carom_scene_lattice).
 *
 * Every lattice here is a rectangular grid of points with spacing b[d]
 * along axis d, either all points (square / simple cubic) or only the
 * points whose index sum is even ("checkerboard": a hexagonal lattice in
 * 2D when b_y = sqrt(3) b_x, FCC in 3D when all b are equal). For a target
 * nearest-neighbour distance s each axis needs b[d] >= s * g[d], with
 * shape factors g chosen so that every neighbour pair is then >= s apart.
 * We find the largest s for which at least n sites fit (bisection over a
 * monotone site count), then spread the n spheres evenly over the sites.
 *
 * Along a periodic axis the grid has m points at (i + 1/2) L/m, with m even
 * for checkerboard lattices so that the pattern tiles across the boundary;
 * along a walled axis the points span [r + margin, L - r - margin].
 */
#include "scene_internal.h"

#include <math.h>

#include "error_report.h"

typedef struct lattice_plan {
    int dim;
    int checkerboard;
    double g[3];          /* spacing per unit neighbour distance */
    double extent[3];     /* periodic: L; walls: span available to centres */
    int periodic[3];
    double lo[3];         /* first centre on a walled axis */
    double m[3];          /* grid points per axis (integer valued) */
} lattice_plan;

/* Largest number of grid points along axis d with spacing >= s * g[d]. */
static double points_on_axis(const lattice_plan *p, int d, double s)
{
    double step = s * p->g[d];
    if (p->periodic[d]) {
        double m = floor(p->extent[d] / step);
        if (p->checkerboard)
            m = 2.0 * floor(m / 2.0);
        return m;
    }
    if (p->extent[d] < 0.0)
        return 0.0;
    return floor(p->extent[d] / step) + 1.0;
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

static double sites_for_spacing(const lattice_plan *p, double s)
{
    double m[3] = {1.0, 1.0, 1.0};
    for (int d = 0; d < p->dim; d++)
        m[d] = points_on_axis(p, d, s);
    return site_count(p, m);
}

/* Actual grid spacing along d (INFINITY when a walled axis has one point). */
static double spacing(const lattice_plan *p, int d)
{
    if (p->periodic[d])
        return p->extent[d] / p->m[d];
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
        /* Along one axis: the next point (square) or the one after. */
        double along = p->checkerboard ? 2.0 * b[d] : b[d];
        if (p->periodic[d] && p->extent[d] < along)
            along = p->extent[d]; /* a site's own periodic image */
        best = fmin(best, along);
        if (p->checkerboard)
            for (int e = d + 1; e < p->dim; e++)
                best = fmin(best, hypot(b[d], b[e]));
    }
    return best;
}

static double site_coordinate(const lattice_plan *p, int d, double i)
{
    if (p->periodic[d])
        return (i + 0.5) * p->extent[d] / p->m[d];
    if (p->m[d] <= 1.0)
        return p->lo[d] + 0.5 * p->extent[d];
    return p->lo[d] + i * p->extent[d] / (p->m[d] - 1.0);
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
    if (lattice == CAROM_LATTICE_AUTO)
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
        p.g[d] = 1.0;
    }
    if (lattice == CAROM_LATTICE_HEX) {
        p.g[0] = 0.5;
        p.g[1] = 0.5 * sqrt(3.0);
    } else if (lattice == CAROM_LATTICE_FCC) {
        p.g[0] = p.g[1] = p.g[2] = sqrt(0.5);
    }
    for (int d = 0; d < dim; d++) {
        p.periodic[d] = scene->boundary[d] == CAROM_BOUNDARY_PERIODIC;
        if (p.periodic[d]) {
            p.extent[d] = scene->box[d];
        } else {
            p.lo[d] = radius + margin;
            p.extent[d] = scene->box[d] - 2.0 * (radius + margin);
        }
    }

    const double need = (double)n;
    const double s_min = 2.0 * radius * (1.0 + 2.0 * SCENE_RELATIVE_MARGIN);
    double most = sites_for_spacing(&p, s_min);
    if (n > 0 && most < need) {
        double packing = dim == 2 ? need * 3.14159265358979323846 * radius * radius /
                                        (scene->box[0] * scene->box[1])
                                  : need * (4.0 / 3.0) * 3.14159265358979323846 * radius *
                                        radius * radius /
                                        (scene->box[0] * scene->box[1] * scene->box[2]);
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "cannot place %zu spheres of radius %g on a %s lattice in this box: "
                            "at most %.0f fit (packing fraction %.4g is too high)",
                            n, radius, lattice_name(dim, lattice), most, packing);
    }
    if (n == 0)
        return carom_scene_resize(scene, 0, error);

    /* Bisection for the largest spacing that still holds n sites. The
     * count is a nonincreasing step function of s. */
    double s_lo = s_min, s_hi = s_min;
    for (int d = 0; d < dim; d++)
        s_hi = fmax(s_hi, 4.0 * scene->box[d] / p.g[d]);
    if (sites_for_spacing(&p, s_hi) >= need) {
        s_lo = s_hi;
    } else {
        for (int it = 0; it < 200 && s_hi - s_lo > 1e-15 * s_hi; it++) {
            double mid = 0.5 * (s_lo + s_hi);
            if (sites_for_spacing(&p, mid) >= need)
                s_lo = mid;
            else
                s_hi = mid;
        }
    }
    for (int d = 0; d < dim; d++)
        p.m[d] = points_on_axis(&p, d, s_lo);
    /* Drop whole rows where n still fits: wider spacing, fewer holes. */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int d = 0; d < dim; d++) {
            double step = p.periodic[d] && p.checkerboard ? 2.0 : 1.0;
            double keep = p.m[d];
            if (keep - step < 1.0)
                continue;
            p.m[d] = keep - step;
            if (site_count(&p, p.m) >= need)
                changed = 1;
            else
                p.m[d] = keep;
        }
    }
    if (nearest_distance(&p) < 2.0 * radius * (1.0 + SCENE_RELATIVE_MARGIN))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "cannot place %zu spheres of radius %g on a %s lattice in this box "
                            "without overlap", n, radius, lattice_name(dim, lattice));

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
