/* Building the initial scene; contract in setup.h. */
#include "setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "mesh.h"

/* Below this packing fraction spheres are placed at random; above, on a
 * lattice (which equilibrate melts). */
#define RANDOM_PLACEMENT_MAX_PACKING 0.1
/* ...and, when no lattice fits, up to this one (random sequential
 * placement stalls only near 0.38). */
#define RANDOM_FALLBACK_MAX_PACKING 0.35

static const double pi = 3.14159265358979323846;

/* Independent random streams from one seed. */
static uint64_t stream_seed(uint64_t seed, uint64_t stream)
{
    return seed ^ (stream * 0x9e3779b97f4a7c15ULL);
}

double setup_packing_fraction(const carom_scene *scene)
{
    double filled = 0.0, volume = 1.0;
    for (size_t i = 0; i < scene->n; i++) {
        double r = scene->radius[i];
        filled += scene->dim == 2 ? pi * r * r : (4.0 / 3.0) * pi * r * r * r;
    }
    for (int d = 0; d < scene->dim; d++)
        volume *= scene->box[d];
    return filled / volume;
}

/* Mean volume (area) of one sphere with radius uniform in [a, b]. */
static double mean_sphere_volume(int dim, double a, double b)
{
    if (b == a)
        return dim == 2 ? pi * a * a : (4.0 / 3.0) * pi * a * a * a;
    if (dim == 2)
        return pi * (b * b * b - a * a * a) / (3.0 * (b - a));
    return (4.0 / 3.0) * pi * (b * b * b * b - a * a * a * a) / (4.0 * (b - a));
}

static int scene_failed(cli_error *error, const char *what, const carom_error *e)
{
    return cli_fail(error, CLI_EXIT_USAGE, "%s: %s", what, e->message);
}

int setup_read_init(config *c, carom_scene *scene, cli_error *error)
{
    if (!config_is_set(c, KEY_INIT))
        return 0;
    int status = frames_read_init(c->value[KEY_INIT], scene, error);
    if (status)
        return status;
    /* The file's dimension is the default for dim (a user's dim must agree). */
    char origin[300];
    snprintf(origin, sizeof origin, "init file %s", c->value[KEY_INIT]);
    return config_apply_default(c, KEY_DIM, scene->dim == 2 ? "2" : "3", origin, error);
}

/* mesh=FILE: its triangles after triangles='s, once the box and the
 * boundaries are known. */
static int load_mesh(run_options *o, cli_error *error)
{
    if (!o->mesh)
        return 0;
    double(*t)[9];
    size_t n;
    if (mesh_load(o->mesh, o->mesh_scale, o->mesh_shift, o->box, &t, &n, &o->mesh_loaded, error))
        return error->exit_code;
    if (n > (size_t)(0x7fffffff - o->ntriangles)) {
        free(t);
        return cli_fail(error, CLI_EXIT_USAGE, "mesh %s: too many triangles (%zu)", o->mesh, n);
    }
    size_t total = (size_t)o->ntriangles + n;
    double(*all)[9] = realloc(o->triangle, total * sizeof *all);
    if (!all) {
        free(t);
        return cli_fail(error, CLI_EXIT_RUNTIME, "mesh %s: out of memory", o->mesh);
    }
    memcpy(all + o->ntriangles, t, n * sizeof *t);
    free(t);
    o->triangle = all;
    o->ntriangles = (int)total;
    return 0;
}

static int setup_from_file(run_options *o, carom_scene *scene, cli_error *error)
{
    carom_error e;
    if (o->n_given && scene->n != o->n)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "wrong particle count: n=%zu but %s holds %zu spheres", o->n, o->init,
                        scene->n);
    if (scene->n == 0)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: the file holds no spheres", o->init);
    if (o->dim != scene->dim)
        return cli_fail(error, CLI_EXIT_USAGE, "dim=%d but %s is %dD", o->dim, o->init,
                        scene->dim);
    if (o->boundary_given)
        for (int d = 0; d < 3; d++)
            scene->boundary[d] = o->boundary[d];
    else
        for (int d = 0; d < 3; d++)
            o->boundary[d] = scene->boundary[d];
    for (int d = 0; d < 3; d++)
        o->box[d] = scene->box[d];
    if (scene->dim == 2)
        scene->boundary[2] = CAROM_BOUNDARY_PERIODIC;
    if (load_mesh(o, error))
        return error->exit_code;
    o->n = scene->n;
    o->radius = o->radius_max = scene->radius[0];
    for (size_t i = 0; i < scene->n; i++) {
        o->radius = fmin(o->radius, scene->radius[i]);
        o->radius_max = fmax(o->radius_max, scene->radius[i]);
    }
    if (o->speed_given) {
        if (carom_scene_random_velocities(scene, o->speed_min, o->speed_max,
                                          stream_seed(o->seed, 3), &e) != CAROM_OK)
            return scene_failed(error, "speed", &e);
    } else if (o->temperature_given) {
        if (carom_scene_maxwell_velocities(scene, o->temperature, stream_seed(o->seed, 2), &e) !=
            CAROM_OK)
            return scene_failed(error, "temperature", &e);
    }
    return 0;
}

/* Whether a sphere of radius r at x is clear of every plane (the
 * placement knows the box, not the planes). */
static int clear_of_planes(const void *context, const double x[3], double r)
{
    const run_options *o = context;
    for (int p = 0; p < o->nplanes; p++) {
        const double *q = o->plane[p]; /* unit normal (options.c) */
        if (q[0] * x[0] + q[1] * x[1] + q[2] * x[2] < q[3] + r * (1.0 + 1e-9))
            return 0;
    }
    return 1;
}

/* And of every segment (2D), and of its images along periodic axes
 * (where the world repeats it with the box): the centre moved by -L, 0
 * and +L along each. */
static int clear_of_segments(const void *context, const double x[3], double r)
{
    const run_options *o = context;
    for (int c = 0; c < 9; c++) {
        int step[2] = {c % 3 - 1, c / 3 - 1};
        if ((step[0] && o->boundary[0] != CAROM_BOUNDARY_PERIODIC) ||
            (step[1] && o->boundary[1] != CAROM_BOUNDARY_PERIODIC))
            continue;
        double y[2] = {x[0] + step[0] * o->box[0], x[1] + step[1] * o->box[1]};
        for (int g = 0; g < o->nsegments; g++) {
            const double *q = o->segment[g];
            double dx = q[2] - q[0], dy = q[3] - q[1], len2 = dx * dx + dy * dy;
            double u = len2 > 0.0 ? ((y[0] - q[0]) * dx + (y[1] - q[1]) * dy) / len2 : 0.0;
            u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
            if (hypot(y[0] - q[0] - u * dx, y[1] - q[1] - u * dy) < r * (1.0 + 1e-9))
                return 0;
        }
    }
    return 1;
}

/* Distance from x to the segment a-b (3D). */
static double segment_distance(const double a[3], const double b[3], const double x[3])
{
    double d[3], len2 = 0.0, u = 0.0;
    for (int k = 0; k < 3; k++) {
        d[k] = b[k] - a[k];
        len2 += d[k] * d[k];
        u += (x[k] - a[k]) * d[k];
    }
    u = len2 > 0.0 ? u / len2 : 0.0;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    double e[3];
    for (int k = 0; k < 3; k++)
        e[k] = x[k] - a[k] - u * d[k];
    return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
}

/* To its face where x projects inside it, else to its nearest edge. */
double setup_triangle_distance(const double corner[9], const double x[3])
{
    const double *p[3] = {corner, corner + 3, corner + 6};
    double best = INFINITY;
    for (int k = 0; k < 3; k++)
        best = fmin(best, segment_distance(p[k], p[(k + 1) % 3], x));
    double ab[3], ac[3], n[3];
    for (int k = 0; k < 3; k++) {
        ab[k] = p[1][k] - p[0][k];
        ac[k] = p[2][k] - p[0][k];
    }
    n[0] = ab[1] * ac[2] - ab[2] * ac[1];
    n[1] = ab[2] * ac[0] - ab[0] * ac[2];
    n[2] = ab[0] * ac[1] - ab[1] * ac[0];
    double area2 = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(area2 > 0.0))
        return best; /* no face (the library refuses such a triangle) */
    for (int e = 0; e < 3; e++) {
        const double *a = p[e], *b = p[(e + 1) % 3];
        double edge[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double w[3] = {x[0] - a[0], x[1] - a[1], x[2] - a[2]};
        double side = n[0] * (edge[1] * w[2] - edge[2] * w[1]) +
                      n[1] * (edge[2] * w[0] - edge[0] * w[2]) +
                      n[2] * (edge[0] * w[1] - edge[1] * w[0]);
        if (side < 0.0)
            return best; /* projects outside: an edge or corner is nearest */
    }
    double h =
        (n[0] * (x[0] - p[0][0]) + n[1] * (x[1] - p[0][1]) + n[2] * (x[2] - p[0][2])) / area2;
    return fmin(best, fabs(h));
}

/* Triangles binned on a grid of the box for clear_of_triangles: each
 * triangle is listed in every cell that its bounding box, grown by the
 * largest radius, touches; a sphere's centre then needs the triangles of
 * its own cell only. (A plain loop over every triangle for every sphere
 * would take N T distances: 5 * 10^7 for 10,000 spheres and a mesh of
 * 5,000 triangles.) */
#define BINS_PER_AXIS_MAX 64
#define BINS_ENTRIES_MAX (1u << 24)

typedef struct triangle_bins {
    const run_options *o;
    int m[3];       /* cells per axis; 0: no grid (a plain loop) */
    double cell[3]; /* cell edge */
    size_t *start;  /* cell c's triangles are item[start[c] .. start[c + 1]) */
    int *item;
} triangle_bins;

static int bin_of(const triangle_bins *b, int axis, double x)
{
    double u = floor(x / b->cell[axis]);
    return u < 0.0 ? 0 : u >= (double)b->m[axis] ? b->m[axis] - 1 : (int)u;
}

/* The cells triangle g's grown bounding box touches, lo[k]..hi[k]. */
static void bin_range(const triangle_bins *b, const double t[9], double reach, int lo[3], int hi[3])
{
    for (int k = 0; k < 3; k++) {
        double a = fmin(t[k], fmin(t[3 + k], t[6 + k])) - reach;
        double z = fmax(t[k], fmax(t[3 + k], t[6 + k])) + reach;
        lo[k] = bin_of(b, k, a);
        hi[k] = bin_of(b, k, z);
    }
}

static size_t bin_index(const triangle_bins *b, int i, int j, int k)
{
    return ((size_t)k * (size_t)b->m[1] + (size_t)j) * (size_t)b->m[0] + (size_t)i;
}

/* Builds the grid; without memory (or with too many entries) b->m stays
 * 0 and clear_of_triangles loops over every triangle. */
static void bins_build(triangle_bins *b, const run_options *o)
{
    memset(b, 0, sizeof *b);
    b->o = o;
    double reach = o->radius_max * 1.001;
    size_t cells = 1;
    for (int k = 0; k < 3; k++) {
        double m = floor(o->box[k] / (2.0 * o->radius_max));
        b->m[k] = m < 1.0 ? 1 : m > BINS_PER_AXIS_MAX ? BINS_PER_AXIS_MAX : (int)m;
        b->cell[k] = o->box[k] / b->m[k];
        cells *= (size_t)b->m[k];
    }
    size_t entries = 0;
    for (int g = 0; g < o->ntriangles && entries <= BINS_ENTRIES_MAX; g++) {
        int lo[3], hi[3];
        bin_range(b, o->triangle[g], reach, lo, hi);
        entries +=
            (size_t)(hi[0] - lo[0] + 1) * (size_t)(hi[1] - lo[1] + 1) * (size_t)(hi[2] - lo[2] + 1);
    }
    b->start = entries <= BINS_ENTRIES_MAX ? calloc(cells + 1, sizeof *b->start) : NULL;
    b->item = b->start ? malloc((entries ? entries : 1) * sizeof *b->item) : NULL;
    if (!b->item) {
        free(b->start);
        b->start = NULL;
        b->m[0] = b->m[1] = b->m[2] = 0;
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int g = 0; g < o->ntriangles; g++) {
            int lo[3], hi[3];
            bin_range(b, o->triangle[g], reach, lo, hi);
            for (int k = lo[2]; k <= hi[2]; k++)
                for (int j = lo[1]; j <= hi[1]; j++)
                    for (int i = lo[0]; i <= hi[0]; i++) {
                        size_t c = bin_index(b, i, j, k);
                        if (pass == 0)
                            b->start[c + 1]++;
                        else
                            b->item[b->start[c]++] = g;
                    }
        }
        if (pass == 0) {
            for (size_t c = 0; c < cells; c++)
                b->start[c + 1] += b->start[c];
        } else {
            /* Filling moved each start to the next cell's: back by one. */
            memmove(b->start + 1, b->start, cells * sizeof *b->start);
            b->start[0] = 0;
        }
    }
}

static void bins_free(triangle_bins *b)
{
    free(b->start);
    free(b->item);
}

/* And of every triangle (3D): those of the centre's cell. */
/* Whether a centre at x (in the box or a box beyond it) is clear of every
 * triangle by r. */
static int clear_of_triangles_at(const triangle_bins *b, const double x[3], double r)
{
    const run_options *o = b->o;
    if (b->m[0] == 0) {
        for (int g = 0; g < o->ntriangles; g++)
            if (setup_triangle_distance(o->triangle[g], x) < r * (1.0 + 1e-9))
                return 0;
        return 1;
    }
    size_t c = bin_index(b, bin_of(b, 0, x[0]), bin_of(b, 1, x[1]), bin_of(b, 2, x[2]));
    for (size_t e = b->start[c]; e < b->start[c + 1]; e++)
        if (setup_triangle_distance(o->triangle[b->item[e]], x) < r * (1.0 + 1e-9))
            return 0;
    return 1;
}

/* Clear of every triangle and, along periodic axes (where the world
 * repeats each triangle with the box), of their images: the centre moved
 * by -L, 0 and +L along each (a centre beyond the box falls in the edge
 * bins, which hold the triangles near that side). */
static int clear_of_triangles(const void *context, const double x[3], double r)
{
    const triangle_bins *b = context;
    const run_options *o = b->o;
    for (int c = 0; c < 27; c++) {
        int step[3] = {c % 3 - 1, c / 3 % 3 - 1, c / 9 - 1};
        double y[3];
        int fits = 1;
        for (int k = 0; k < 3; k++) {
            fits &= step[k] == 0 || o->boundary[k] == CAROM_BOUNDARY_PERIODIC;
            y[k] = x[k] + step[k] * o->box[k];
        }
        if (fits && !clear_of_triangles_at(b, y, r))
            return 0;
    }
    return 1;
}

/* Leaves out the generated spheres that are not clear (in order, the
 * others keeping theirs, spins and species too); returns how many. */
static size_t keep_clear(const void *context, carom_scene *scene,
                         int (*clear)(const void *, const double[3], double))
{
    size_t kept = 0;
    for (size_t i = 0; i < scene->n; i++) {
        if (!clear(context, scene->position[i], scene->radius[i]))
            continue;
        for (int k = 0; k < 3; k++) {
            scene->position[kept][k] = scene->position[i][k];
            scene->velocity[kept][k] = scene->velocity[i][k];
            if (scene->spin)
                scene->spin[kept][k] = scene->spin[i][k];
        }
        if (scene->species)
            scene->species[kept] = scene->species[i];
        scene->radius[kept] = scene->radius[i];
        scene->mass[kept] = scene->mass[i];
        kept++;
    }
    size_t dropped = scene->n - kept;
    scene->n = kept;
    return dropped;
}

static int setup_generated(run_options *o, carom_scene *scene, cli_error *error)
{
    carom_error e;
    scene->dim = o->dim;
    for (int d = 0; d < 3; d++)
        scene->boundary[d] = o->boundary[d];
    if (o->box_given) {
        for (int d = 0; d < 3; d++)
            scene->box[d] = o->box[d];
    } else {
        double l = o->dim == 2 ? sqrt((double)o->n * mean_sphere_volume(2, o->radius,
                                                                          o->radius_max) /
                                      o->packing)
                               : cbrt((double)o->n * mean_sphere_volume(3, o->radius,
                                                                         o->radius_max) /
                                      o->packing);
        for (int d = 0; d < 3; d++)
            scene->box[d] = o->dim == 2 && d == 2 ? 1.0 : l;
    }
    for (int d = 0; d < 3; d++)
        o->box[d] = scene->box[d];
    if (load_mesh(o, error))
        return error->exit_code;
    double volume = scene->box[0] * scene->box[1] * (o->dim == 3 ? scene->box[2] : 1.0);
    double expected = (double)o->n * mean_sphere_volume(o->dim, o->radius, o->radius_max) / volume;

    if (o->radius_max > o->radius) {
        /* Mixed sizes: random placement only. */
        if (carom_scene_resize(scene, o->n, &e) != CAROM_OK ||
            carom_scene_random_radii(scene, o->radius, o->radius_max, stream_seed(o->seed, 1),
                                     &e) != CAROM_OK)
            return scene_failed(error, "radii", &e);
        if (carom_scene_place_random(scene, stream_seed(o->seed, 0), &e) != CAROM_OK)
            return cli_fail(error, CLI_EXIT_USAGE, "%s", e.message);
    } else {
        int placed = 0;
        if (!o->lattice_given && expected <= RANDOM_PLACEMENT_MAX_PACKING)
            placed = carom_scene_random(scene, o->n, o->radius, stream_seed(o->seed, 0), &e) ==
                     CAROM_OK;
        if (!placed && carom_scene_lattice(scene, o->n, o->radius, o->lattice, &e) != CAROM_OK) {
            /* No lattice fits a few spheres in a cube at some packings
             * (9 to 12 at 0.3): random placement then, where it is sure
             * to be quick. Failing that, the lattice's reason. */
            carom_error random_error;
            if (o->lattice_given || expected > RANDOM_FALLBACK_MAX_PACKING ||
                carom_scene_random(scene, o->n, o->radius, stream_seed(o->seed, 0),
                                   &random_error) != CAROM_OK)
                return cli_fail(error, CLI_EXIT_USAGE, "%s", e.message);
        }
    }
    if (o->nplanes) {
        o->behind_planes = keep_clear(o, scene, clear_of_planes);
        if (scene->n == 0)
            return cli_fail(error, CLI_EXIT_USAGE, "planes: every sphere placed is behind one");
        o->n = scene->n;
    }
    if (o->nsegments) {
        o->on_segments = keep_clear(o, scene, clear_of_segments);
        if (scene->n == 0)
            return cli_fail(error, CLI_EXIT_USAGE, "segments: every disk placed overlaps one");
        o->n = scene->n;
    }
    if (o->ntriangles) {
        triangle_bins bins;
        bins_build(&bins, o);
        o->on_triangles = keep_clear(&bins, scene, clear_of_triangles);
        bins_free(&bins);
        if (scene->n == 0)
            return cli_fail(error, CLI_EXIT_USAGE, "triangles: every sphere placed overlaps one");
        o->n = scene->n;
    }
    /* Ids along a space-filling curve: neighbours in space are neighbours
     * in the world's arrays (faster for large N). */
    if (carom_scene_sort_spatially(scene, &e) != CAROM_OK)
        return scene_failed(error, "placement", &e);
    if (o->use_speed) {
        if (carom_scene_random_velocities(scene, o->speed_min, o->speed_max,
                                          stream_seed(o->seed, 3), &e) != CAROM_OK)
            return scene_failed(error, "speed", &e);
    } else if (carom_scene_maxwell_velocities(scene, o->temperature, stream_seed(o->seed, 2),
                                              &e) != CAROM_OK) {
        return scene_failed(error, "temperature", &e);
    }
    return 0;
}

/* splitmix64: the species' own stream of random numbers. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1 (rejection: no bias). */
static size_t random_below(uint64_t *state, size_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % (uint64_t)n;
    uint64_t x;
    do
        x = next_random(state);
    while (x >= limit);
    return (size_t)(x % (uint64_t)n);
}

int setup_species(run_options *o, carom_scene *scene, cli_error *error)
{
    memset(o->species_count, 0, sizeof o->species_count);
    if (o->init) {
        /* The file's: as many as its largest + 1 (xyz.c and h5md_in.c
         * checked the range). */
        int k = 1;
        for (size_t i = 0; scene->species && i < scene->n; i++)
            if ((int)scene->species[i] + 1 > k)
                k = (int)scene->species[i] + 1;
        o->species = k;
        for (size_t i = 0; i < scene->n; i++)
            o->species_count[scene->species ? scene->species[i] : 0]++;
        char whose[320];
        snprintf(whose, sizeof whose, "init file %s", o->init);
        return options_check_species_keys(o, k, whose, error);
    }
    size_t n = scene->n;
    if (o->species <= 1) {
        o->species = 1;
        o->species_count[0] = n;
        return 0; /* (no species array: the files are as before species existed) */
    }
    /* Exact counts round(f_k n), the last species taking what is left,
     * then shuffled over the spheres. */
    size_t given = 0;
    for (int k = 0; k < o->species; k++) {
        size_t c = n - given;
        if (k < o->species - 1) {
            double want = floor(o->species_fraction[k] * (double)n + 0.5);
            c = want < (double)c ? (size_t)want : c;
        }
        o->species_count[k] = c;
        given += c;
    }
    carom_error e;
    if (carom_scene_add_species(scene, &e) != CAROM_OK)
        return cli_fail(error, CLI_EXIT_RUNTIME, "species: %s", e.message);
    size_t i = 0;
    for (int k = 0; k < o->species; k++)
        for (size_t c = 0; c < o->species_count[k]; c++)
            scene->species[i++] = (uint32_t)k;
    uint64_t state = stream_seed(o->seed, 6);
    for (size_t j = n; j > 1; j--) {
        size_t r = random_below(&state, j);
        uint32_t t = scene->species[j - 1];
        scene->species[j - 1] = scene->species[r];
        scene->species[r] = t;
    }
    return 0;
}

const char *setup_species_keys(carom_world *w, const species_values *pass_through,
                               const species_values *pair_restitution,
                               const species_values *species_wall_restitution,
                               const species_values *pair_friction,
                               const species_values *species_wall_friction)
{
    const species_values *v = pass_through;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_pass_through(w, v->who[q][0], v->who[q][1], 1) != CAROM_OK)
            return "pass_through";
    v = pair_restitution;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_pair_restitution(w, v->who[q][0], v->who[q][1], v->value[q][0]) !=
            CAROM_OK)
            return "pair_restitution";
    v = species_wall_restitution;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_wall_restitution(w, v->who[q][0], v->value[q][0]) != CAROM_OK)
            return "species_wall_restitution";
    v = pair_friction;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_pair_friction(w, v->who[q][0], v->who[q][1], v->value[q][0],
                                          v->value[q][1]) != CAROM_OK)
            return "pair_friction";
    v = species_wall_friction;
    for (int q = 0; q < v->n; q++)
        if (carom_world_set_wall_friction(w, v->who[q][0], v->value[q][0], v->value[q][1]) !=
            CAROM_OK)
            return "species_wall_friction";
    return NULL;
}

int setup_species_laws(const run_options *o, carom_world *w, cli_error *error)
{
    const char *refused =
        setup_species_keys(w, &o->pass_through, &o->pair_restitution,
                           &o->species_wall_restitution, &o->pair_friction,
                           &o->species_wall_friction);
    if (refused)
        return cli_fail(error, CLI_EXIT_USAGE, "%s: %s", refused, carom_world_error_message(w));
    return 0;
}

int setup_scene(run_options *o, carom_scene *scene, cli_error *error)
{
    int status = o->init ? setup_from_file(o, scene, error) : setup_generated(o, scene, error);
    if (!status)
        status = setup_species(o, scene, error);
    if (status)
        return status;
    o->packing = setup_packing_fraction(scene);
    return 0;
}
