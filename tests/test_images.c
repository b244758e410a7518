/* Unwrapped positions (def.count_images, carom_world_get_image).
 *
 * A sphere's position plus image * box must never jump by a box length,
 * whichever path wraps its stored position (a cell crossing, a neighbour
 * list remade, a big sphere's rescan, a driven sphere's bound restarted,
 * the check at a build):
 * - report-only worlds, where every sphere flies straight: the unwrapped
 *   position is the start plus velocity times time (to 1e-9), over many
 *   box lengths, with cells, neighbour lists, a hierarchy of cells for
 *   radii spread over a factor 20, and a big sphere; spheres start
 *   outside the box (their unwrapped positions continue the coordinates
 *   given), are sorted in memory on the way (ids stay, slots move) and
 *   moved (carom_world_set_position starts again from the new place);
 * - elastic worlds of mixed masses: sum of m * unwrapped position moves
 *   at the total momentum, P t, on every periodic axis (to 1e-9 of the
 *   distance travelled): a missed or doubled wrap is off by m L. 3D
 *   periodic with cells and lists, 2D with a big heavy disk, and 2D with
 *   walls and gravity along x (image 0 there; y checked);
 * - driven spheres on circles across periodic faces: unwrapped position
 *   minus the driver's own coordinates stays what it was at the start;
 * - refusals: a world that does not count images, a removed sphere. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/drive.h"
#include "check.h"
#include "rng.h"
#include "world_internal.h" /* to see that a big sphere is kept out of the grid */

#define MAX_N 1600

static void unwrapped(const carom_world *w, carom_sphere_id id, double u[3])
{
    carom_sphere_state s;
    int64_t image[3];
    CHECK_OK(carom_world_get_sphere(w, id, &s));
    CHECK_OK(carom_world_get_image(w, id, image));
    const carom_world_def *def = carom_world_get_def(w);
    for (int k = 0; k < 3; k++)
        u[k] = s.position[k] + (double)image[k] * def->box[k];
}

/* ---- report-only: straight lines ----------------------------------------- */

typedef struct straight_case {
    const char *name;
    int dim;
    carom_neighbours neighbours;
    double radius_min, radius_max; /* uniform radii */
    double big_radius;             /* > 0: sphere 0 is this large */
    double L;                      /* box length */
    size_t n;
} straight_case;

typedef struct line {
    double x0[3], v[3], t0;
} line;

static void check_straight(const straight_case *c)
{
    const size_t n = c->n;
    const double L = c->L;
    rng r;
    rng_seed(&r, 31);
    carom_world_def def = carom_world_default_def();
    def.dim = c->dim;
    def.box[0] = def.box[1] = def.box[2] = L;
    def.response = CAROM_RESPONSE_NONE;
    def.neighbours = c->neighbours;
    def.count_images = 1;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        abort();
    static line lines[MAX_N];
    for (size_t i = 0; i < n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        s.radius = rng_uniform_range(&r, c->radius_min, c->radius_max);
        if (i == 0 && c->big_radius > 0.0)
            s.radius = c->big_radius;
        for (int k = 0; k < c->dim; k++) {
            /* A tenth start outside the box, up to two lengths away. */
            s.position[k] = i % 10 == 3 ? rng_uniform_range(&r, -2.0 * L, 3.0 * L)
                                        : rng_uniform_range(&r, 0.0, L);
            s.velocity[k] = rng_uniform_range(&r, -6.0, 6.0);
        }
        carom_sphere_id id;
        CHECK_OK(carom_world_add_sphere(w, &s, &id));
        memcpy(lines[id].x0, s.position, sizeof s.position);
        memcpy(lines[id].v, s.velocity, sizeof s.velocity);
        lines[id].t0 = 0.0;
    }
    CHECK_OK(carom_world_advance_to(w, 0.0));
    CHECK(w->nbig == (c->big_radius > 0.0 ? 1u : 0u));
    double worst = 0.0;
    int64_t most_wraps = 0;
    for (int step = 1; step <= 24; step++) {
        double t = 0.5 * step;
        CHECK_OK(carom_world_advance_to(w, t));
        for (carom_sphere_id id = 0; id < n; id++) {
            double u[3];
            unwrapped(w, id, u);
            int64_t image[3];
            CHECK_OK(carom_world_get_image(w, id, image));
            const line *l = &lines[id];
            for (int k = 0; k < 3; k++) {
                double expect = l->x0[k] + l->v[k] * (t - l->t0);
                double err = fabs(u[k] - expect) / (1.0 + fabs(expect));
                worst = fmax(worst, err);
                if (!(err <= 1e-9)) {
                    fprintf(stderr,
                            "%s: sphere %u axis %d at t = %g: unwrapped %.17g, "
                            "expected %.17g\n",
                            c->name, (unsigned)id, k, t, u[k], expect);
                    check_failures++;
                    step = 1000; /* one report is enough */
                    break;
                }
                most_wraps = image[k] > most_wraps ? image[k] : most_wraps;
            }
            if (step > 24)
                break;
        }
        if (step == 8)
            CHECK_OK(carom_world_sort_spatially(w)); /* slots move, ids stay */
        if (step == 14) {
            /* Moved: the unwrapped position starts again where it is put,
             * outside the box or in. */
            for (carom_sphere_id id = 5; id < n; id += 23) {
                double x[3] = {0.0, 0.0, 0.0};
                for (int k = 0; k < c->dim; k++)
                    x[k] = rng_uniform_range(&r, -1.5 * L, 2.5 * L);
                CHECK_OK(carom_world_set_position(w, id, x));
                memcpy(lines[id].x0, x, sizeof x);
                lines[id].t0 = t;
            }
        }
    }
    /* Fast spheres cross the box many times: the test means something. */
    CHECK(most_wraps >= 4);
    fprintf(stderr, "  %-24s largest error %.2e, most wraps %lld\n", c->name, worst,
            (long long)most_wraps);
    carom_world_free(w);
}

static void test_straight_lines(void)
{
    const straight_case cases[] = {
        {"3D cells", 3, CAROM_NEIGHBOURS_CELLS, 0.5, 0.5, 0.0, 14.0, 240},
        {"3D lists", 3, CAROM_NEIGHBOURS_LISTS, 0.5, 0.5, 0.0, 14.0, 240},
        {"3D hierarchy", 3, CAROM_NEIGHBOURS_CELLS, 0.1, 2.0, 0.0, 14.0, 240},
        {"3D big sphere", 3, CAROM_NEIGHBOURS_CELLS, 0.3, 0.5, 3.0, 30.0, 1500},
        {"2D cells", 2, CAROM_NEIGHBOURS_CELLS, 0.5, 0.5, 0.0, 14.0, 240},
        {"2D lists", 2, CAROM_NEIGHBOURS_LISTS, 0.4, 0.6, 0.0, 14.0, 240},
        {"2D big disk", 2, CAROM_NEIGHBOURS_CELLS, 0.3, 0.5, 3.0, 30.0, 1500},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_straight(&cases[k]);
}

/* ---- elastic: the centre of mass moves at the total momentum ------------- */

typedef struct gas_case {
    const char *name;
    int dim;
    carom_neighbours neighbours;
    int walls_x;       /* walls and gravity along x; y (and z) periodic */
    double big_radius; /* > 0: sphere 0 is this large (and 20 times heavier) */
    size_t n;
    double L;
} gas_case;

static int clear_of(const double (*x)[3], const double *radius, size_t n, const double y[3],
                    double ry, double L, const int periodic[3])
{
    for (size_t j = 0; j < n; j++) {
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = y[k] - x[j][k];
            if (periodic[k])
                d -= L * round(d / L);
            d2 += d * d;
        }
        if (d2 < (ry + radius[j]) * (ry + radius[j]) * 1.0001)
            return 0;
    }
    return 1;
}

/* Sum over spheres of mass times unwrapped position, per axis. */
static void mass_moment(const carom_world *w, size_t n, double out[3], double *scale)
{
    out[0] = out[1] = out[2] = 0.0;
    *scale = 0.0;
    for (carom_sphere_id id = 0; id < n; id++) {
        carom_sphere_state s;
        CHECK_OK(carom_world_get_sphere(w, id, &s));
        double u[3];
        unwrapped(w, id, u);
        for (int k = 0; k < 3; k++) {
            out[k] += s.mass * u[k];
            *scale += s.mass * fabs(u[k]);
        }
    }
}

static void check_gas(const gas_case *c)
{
    const size_t n = c->n;
    const double L = c->L;
    int periodic[3] = {!c->walls_x, 1, c->dim == 3};
    rng r;
    rng_seed(&r, 77);
    carom_world_def def = carom_world_default_def();
    def.dim = c->dim;
    def.box[0] = def.box[1] = def.box[2] = L;
    if (c->walls_x) {
        def.boundary[0] = CAROM_BOUNDARY_WALLS;
        def.gravity[0] = -0.7;
    }
    def.neighbours = c->neighbours;
    def.count_images = 1;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        abort();
    static double x[MAX_N][3], radius[MAX_N];
    for (size_t i = 0; i < n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        s.radius = i == 0 && c->big_radius > 0.0 ? c->big_radius : 0.4;
        s.mass = i == 0 && c->big_radius > 0.0 ? 20.0 : 1.0 + 3.0 * rng_uniform(&r);
        do {
            for (int k = 0; k < 3; k++)
                s.position[k] = k < c->dim ? rng_uniform_range(&r, 1.0, L - 1.0) : 0.0;
        } while (!clear_of((const double(*)[3])x, radius, i, s.position, s.radius, L, periodic));
        for (int k = 0; k < c->dim; k++)
            s.velocity[k] = rng_uniform_range(&r, -2.0, 2.0);
        memcpy(x[i], s.position, sizeof x[i]);
        radius[i] = s.radius;
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    double m0[3], scale, p[3];
    CHECK_OK(carom_world_advance_to(w, 0.0));
    CHECK(w->nbig == (c->big_radius > 0.0 ? 1u : 0u));
    carom_world_momentum(w, p);
    mass_moment(w, n, m0, &scale);
    double t0 = 0.0, worst = 0.0;
    uint64_t collisions = 0;
    for (int step = 1; step <= 16; step++) {
        double t = 0.75 * step;
        CHECK_OK(carom_world_advance_to(w, t));
        double m[3], now_scale;
        mass_moment(w, n, m, &now_scale);
        for (int k = 0; k < c->dim; k++) {
            if (!periodic[k]) {
                for (carom_sphere_id id = 0; id < n; id++) {
                    int64_t image[3];
                    CHECK_OK(carom_world_get_image(w, id, image));
                    CHECK(image[k] == 0);
                }
                continue;
            }
            double err = fabs(m[k] - m0[k] - p[k] * (t - t0)) / (scale + now_scale);
            worst = fmax(worst, err);
            if (!(err <= 1e-9)) {
                fprintf(stderr, "%s: axis %d at t = %g: sum m u moved %.17g, P t = %.17g\n",
                        c->name, k, t, m[k] - m0[k], p[k] * (t - t0));
                check_failures++;
            }
        }
        if (step == 5)
            CHECK_OK(carom_world_sort_spatially(w));
        if (step == 9) {
            /* A teleport changes the sum: start measuring again after it. */
            carom_sphere_state s;
            CHECK_OK(carom_world_get_sphere(w, 7, &s));
            double y[3] = {s.position[0], s.position[1] + 0.3 * L, s.position[2]};
            carom_status st = carom_world_set_position(w, 7, y);
            CHECK(st == CAROM_OK || st == CAROM_ERR_OVERLAP);
            mass_moment(w, n, m0, &scale);
            t0 = t;
        }
    }
    carom_stats stats;
    carom_world_get_stats(w, &stats);
    collisions = stats.collisions;
    CHECK(collisions > 10 * n); /* the momentum is passed around a lot */
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    fprintf(stderr, "  %-24s largest error %.2e, %llu collisions\n", c->name, worst,
            (unsigned long long)collisions);
    carom_world_free(w);
}

static void test_centre_of_mass(void)
{
    const gas_case cases[] = {
        {"3D cells", 3, CAROM_NEIGHBOURS_CELLS, 0, 0.0, 300, 8.0},
        {"3D lists", 3, CAROM_NEIGHBOURS_LISTS, 0, 0.0, 300, 8.0},
        {"2D walls along x", 2, CAROM_NEIGHBOURS_CELLS, 1, 0.0, 100, 12.0},
        {"2D lists, walls", 2, CAROM_NEIGHBOURS_LISTS, 1, 0.0, 100, 12.0},
        {"2D big disk, periodic", 2, CAROM_NEIGHBOURS_CELLS, 0, 1.8, 300, 20.0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_gas(&cases[k]);
}

/* ---- driven spheres on circles across the faces -------------------------- */

static void test_driven_orbits(void)
{
    const double L = 16.0;
    carom_orbits o;
    carom_orbits_init(&o);
    carom_error e;
    rng r;
    rng_seed(&r, 5);
    const size_t n = 60;
    for (size_t i = 0; i < n; i++) {
        /* Centres near the faces: the circles cross them. */
        carom_orbit orbit = {{rng_uniform_range(&r, -2.0, 2.0), rng_uniform_range(&r, 0.0, L),
                              rng_uniform_range(&r, 0.0, L)},
                             rng_uniform_range(&r, 3.0, 6.0),
                             rng_uniform_range(&r, -4.0, 4.0),
                             rng_uniform_range(&r, 0.0, 6.28),
                             0.3};
        CHECK_OK(carom_orbits_add(&o, &orbit, &e));
    }
    carom_world_def def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = L;
    def.response = CAROM_RESPONSE_NONE;
    def.driver = carom_orbits_driver(&o);
    def.count_images = 1;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        abort();
    for (size_t i = 0; i < n; i++) {
        carom_sphere_def s = carom_orbits_sphere_def(&o, i, 0.0);
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 0.0));
    static double offset[MAX_N][3];
    for (carom_sphere_id id = 0; id < n; id++) {
        double u[3], x[3], v[3];
        unwrapped(w, id, u);
        carom_orbit_state(&o.orbit[id], 0.0, x, v);
        for (int k = 0; k < 3; k++)
            offset[id][k] = u[k] - x[k];
    }
    int64_t turns = 0;
    for (int step = 1; step <= 40; step++) {
        double t = 0.25 * step;
        CHECK_OK(carom_world_advance_to(w, t));
        for (carom_sphere_id id = 0; id < n; id++) {
            double u[3], x[3], v[3];
            unwrapped(w, id, u);
            carom_orbit_state(&o.orbit[id], t, x, v);
            for (int k = 0; k < 3; k++)
                CHECK_NEAR(u[k] - x[k], offset[id][k], 1e-9 * L);
            int64_t image[3];
            CHECK_OK(carom_world_get_image(w, id, image));
            turns += image[0] != 0;
        }
    }
    CHECK(turns > 0); /* some circles were across a face when looked at */
    carom_stats stats;
    carom_world_get_stats(w, &stats);
    CHECK(stats.bound_breaks == 0);
    carom_world_free(w);
    carom_orbits_free(&o);
}

/* ---- refusals ------------------------------------------------------------ */

static void test_refusals(void)
{
    carom_world_def def = carom_world_default_def();
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = 25.0; /* outside the box of 10 */
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    int64_t image[3] = {7, 7, 7};
    CHECK(carom_world_get_image(w, id, image) == CAROM_ERR_INVALID_ARGUMENT);
    carom_world_free(w);

    def.count_images = 1;
    def.boundary[2] = CAROM_BOUNDARY_WALLS;
    w = carom_world_create(&def, &e);
    s.position[2] = 5.0;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    CHECK_OK(carom_world_get_image(w, id, image));
    CHECK(image[0] == 2 && image[1] == 0 && image[2] == 0);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, id, &st));
    CHECK(st.position[0] == 5.0 && image[0] == 2); /* 5 + 2 * 10 = 25 */
    CHECK(carom_world_get_image(w, id + 1, image) == CAROM_ERR_NO_SUCH_SPHERE);
    CHECK_OK(carom_world_remove_sphere(w, id));
    CHECK(carom_world_get_image(w, id, image) == CAROM_ERR_NO_SUCH_SPHERE);
    carom_world_free(w);
}

/* ---- images set by the application (a restart) ------------------------- */

/* A sphere given image (3, -2) continues from there: unwrapped, it is at
 * its position plus (3, -2) box lengths, before and after the build, and
 * moves on in a straight line across faces. Set again mid-flight, the
 * image is the one given at that instant. */
static void test_set_image(void)
{
    carom_world_def def = carom_world_default_def();
    def.count_images = 1;
    def.boundary[2] = CAROM_BOUNDARY_WALLS;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = 12.5; /* outside the box of 10: the world reports 2.5 */
    s.position[1] = 4.0;
    s.position[2] = 5.0;
    s.velocity[0] = 3.0;
    s.velocity[1] = -7.0;
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    const int64_t given[3] = {3, -2, 0};
    CHECK_OK(carom_world_set_image(w, id, given));
    int64_t image[3];
    CHECK_OK(carom_world_get_image(w, id, image));
    CHECK(image[0] == 3 && image[1] == -2 && image[2] == 0);
    double u[3];
    unwrapped(w, id, u);
    CHECK(u[0] == 2.5 + 30.0 && u[1] == 4.0 - 20.0); /* the image of the reported position */
    for (int step = 1; step <= 8; step++) {
        double t = 0.75 * step;
        CHECK_OK(carom_world_advance_to(w, t));
        unwrapped(w, id, u);
        CHECK_NEAR(u[0], 32.5 + 3.0 * t, 1e-12);
        CHECK_NEAR(u[1], -16.0 - 7.0 * t, 1e-12);
    }
    const int64_t again[3] = {-1, 5, 0};
    CHECK_OK(carom_world_set_image(w, id, again));
    CHECK_OK(carom_world_get_image(w, id, image));
    CHECK(image[0] == -1 && image[1] == 5 && image[2] == 0);
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, id, &st));
    CHECK_OK(carom_world_advance_to(w, 7.0));
    unwrapped(w, id, u);
    CHECK_NEAR(u[0], st.position[0] - 10.0 + 3.0, 1e-12);
    CHECK_NEAR(u[1], st.position[1] + 50.0 - 7.0, 1e-12);
    int64_t before[3];
    CHECK_OK(carom_world_get_image(w, id, before));

    /* Refusals, each with a message naming what is wrong. */
    const int64_t walled[3] = {0, 0, 1};
    CHECK(carom_world_set_image(w, id, walled) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "axis 2") != NULL);
    CHECK(carom_world_set_image(w, id + 1, given) == CAROM_ERR_NO_SUCH_SPHERE);
    CHECK(strstr(carom_world_error_message(w), "no sphere with id 1") != NULL);
    CHECK(carom_world_set_image(w, id, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK_OK(carom_world_get_image(w, id, image));
    CHECK(image[0] == before[0] && image[1] == before[1] && image[2] == 0); /* unchanged */
    carom_world_free(w);

    def.count_images = 0;
    w = carom_world_create(&def, &e);
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    CHECK(carom_world_set_image(w, id, given) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "count_images") != NULL);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_straight_lines);
    RUN(test_centre_of_mass);
    RUN(test_driven_orbits);
    RUN(test_refusals);
    RUN(test_set_image);
    return CHECK_REPORT();
}
