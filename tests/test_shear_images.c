/* Unwrapped positions under Lees-Edwards shear (def.count_images with
 * carom_world_set_shear): position + image * box, plus along x the y
 * image times carom_world_shear_offset, must move only as the sphere
 * does, in the unwrapped frame where a sphere in the image above moves
 * with it (its velocity there is its own plus image[1] * rate * Ly).
 *
 * - an ideal gas (one species passing through itself), 3D and 2D, cells
 *   and neighbour lists, positive and negative rates: every sphere's
 *   unwrapped position is a straight line (to 1e-9) over many crossings
 *   of the sheared boundary and many wraps of the offset, through a sort
 *   in memory, a change of rate (a sphere in image iy then changes its
 *   unwrapped velocity by iy times the change of the image's speed), a
 *   jump of the offset (carom_world_set_shear_offset: x moves by iy
 *   times the jump) and the shear stopped (by iy times minus the
 *   offset);
 * - a dense elastic fluid: the sum of the unwrapped positions moves at
 *   the sum of the unwrapped velocities, which contacts keep (to 1e-9 of
 *   the distance travelled): a crossing counted wrong is off by Lx or by
 *   the offset;
 * - carom_world_set_image under shear reports back what was set, and the
 *   position continues from it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "rng.h"

#define MAX_N 400

/* The unwrapped position of sphere id, and its velocity in the unwrapped
 * frame. */
static void unwrapped(const carom_world *w, carom_sphere_id id, double u[3], double vu[3],
                      int64_t image[3])
{
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(w, id, &s));
    CHECK_OK(carom_world_get_image(w, id, image));
    const carom_world_def *def = carom_world_get_def(w);
    double speed = carom_world_shear_rate(w) * def->box[1];
    for (int k = 0; k < 3; k++) {
        u[k] = s.position[k] + (double)image[k] * def->box[k];
        vu[k] = s.velocity[k];
    }
    u[0] += (double)image[1] * carom_world_shear_offset(w);
    vu[0] += (double)image[1] * speed;
}

/* n spheres of radius 0.5, apart (a dense world: on a lattice of
 * spacing L / cells), at random velocities up to speed. */
static void add_spheres(carom_world *w, int dim, double L, int n, double speed, rng *r)
{
    int per = 1;
    while ((int)pow(per, dim) < n)
        per++;
    for (int i = 0; i < n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        s.radius = 0.5;
        int rest = i;
        for (int k = 0; k < dim; k++) {
            s.position[k] = (rest % per + 0.5) * L / per;
            rest /= per;
            s.velocity[k] = rng_uniform_range(r, -speed, speed);
        }
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
}

/* A sheared periodic cube counting images, of n spheres (passing
 * through each other when ideal) at random velocities up to speed,
 * advanced to time 0. */
static carom_world *sheared_world(int dim, carom_neighbours neighbours, double L, double rate,
                                  int ideal, int n, double speed, uint64_t seed)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    def.box[0] = def.box[1] = def.box[2] = L;
    def.neighbours = neighbours;
    def.count_images = 1;
    carom_world *w = carom_world_create(&def, NULL);
    if (!w)
        abort();
    if (ideal)
        CHECK_OK(carom_world_set_pass_through(w, 0, 0, 1));
    CHECK_OK(carom_world_set_shear(w, rate));
    rng r;
    rng_seed(&r, seed);
    add_spheres(w, dim, L, n, speed, &r);
    CHECK_OK(carom_world_advance_to(w, 0.0));
    return w;
}

typedef struct line {
    double u[3], v[3]; /* where the sphere should be, its unwrapped velocity */
} line;

/* A new rate: the images move at the new speed, and so do the spheres
 * in them; stopped, the images line up again (the offset back to 0). */
static void change_rate(carom_world *w, line *lines, int n, double after)
{
    double before = carom_world_shear_rate(w), offset = carom_world_shear_offset(w);
    double Ly = carom_world_get_def(w)->box[1];
    CHECK_OK(carom_world_set_shear(w, after));
    for (int id = 0; id < n; id++) {
        double u[3], vu[3];
        int64_t image[3];
        unwrapped(w, (carom_sphere_id)id, u, vu, image);
        lines[id].v[0] += (double)image[1] * (after - before) * Ly;
        if (after == 0.0)
            lines[id].u[0] -= (double)image[1] * offset;
    }
}

/* The ideal gas: straight lines, through the changes listed above. */
static void check_straight(int dim, carom_neighbours neighbours, double rate)
{
    const double L = 8.0, dt = 0.05;
    const int n = dim == 3 ? 200 : 60;
    carom_world *w = sheared_world(dim, neighbours, L, rate, 1, n, 6.0, 7);
    static line lines[MAX_N];
    int64_t image[3];
    for (int id = 0; id < n; id++)
        unwrapped(w, (carom_sphere_id)id, lines[id].u, lines[id].v, image);
    double worst = 0.0, t = 0.0;
    int64_t most_y = 0, first_offset_wraps = 0;
    double last_offset = carom_world_shear_offset(w);
    for (int step = 1; step <= 400; step++) {
        t += dt;
        CHECK_OK(carom_world_advance_to(w, t));
        double offset = carom_world_shear_offset(w);
        first_offset_wraps += fabs(offset - last_offset) > 0.5 * L;
        last_offset = offset;
        for (int id = 0; id < n; id++) {
            double u[3], vu[3];
            unwrapped(w, (carom_sphere_id)id, u, vu, image);
            line *l = &lines[id];
            for (int k = 0; k < 3; k++) {
                l->u[k] += l->v[k] * dt;
                double err = fabs(u[k] - l->u[k]) / (1.0 + fabs(l->u[k]));
                worst = fmax(worst, err);
                if (!(err <= 1e-9) || !(fabs(vu[k] - l->v[k]) <= 1e-9 * (1.0 + fabs(l->v[k])))) {
                    fprintf(stderr,
                            "%dD rate %g: sphere %d axis %d at t = %g: unwrapped %.17g "
                            "(velocity %.17g), expected %.17g (%.17g); image %lld %lld\n",
                            dim, rate, id, k, t, u[k], vu[k], l->u[k], l->v[k],
                            (long long)image[0], (long long)image[1]);
                    check_failures++;
                    step = 10000;
                    break;
                }
                l->u[k] = u[k]; /* round-off does not add up */
            }
            most_y = llabs(image[1]) > most_y ? llabs(image[1]) : most_y;
        }
        if (step == 80)
            CHECK_OK(carom_world_sort_spatially(w)); /* slots move, ids stay */
        if (step == 160)
            change_rate(w, lines, n, -0.7 * rate); /* the other way */
        if (step == 240) {
            change_rate(w, lines, n, 0.0); /* stopped: the images line up */
            change_rate(w, lines, n, rate); /* and on again from offset 0 */
        }
        if (step == 320) {
            /* The offset jumps by 1.25: x of a sphere in image iy with it. */
            double jump = 1.25, was = carom_world_shear_offset(w);
            CHECK_OK(carom_world_set_shear_offset(w, was + jump));
            for (int id = 0; id < n; id++) {
                double u[3], vu[3];
                unwrapped(w, (carom_sphere_id)id, u, vu, image);
                double moved = fmod(was + jump, L) - was; /* as the offset moved, mod L */
                lines[id].u[0] += (double)image[1] * moved;
            }
        }
    }
    /* Spheres crossed the sheared boundary over and over, and the offset
     * wrapped many times: the test means something. */
    CHECK(most_y >= 5 && first_offset_wraps >= 4);
    fprintf(stderr, "  %dD %s rate %+g: largest error %.2e, y images up to %lld, offset wrapped "
                    "%lld times\n",
            dim, neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", rate, worst,
            (long long)most_y, (long long)first_offset_wraps);
    carom_world_free(w);
}

static void test_straight_lines(void)
{
    check_straight(3, CAROM_NEIGHBOURS_CELLS, 1.5);
    check_straight(3, CAROM_NEIGHBOURS_LISTS, -1.5);
    check_straight(2, CAROM_NEIGHBOURS_CELLS, -2.0);
    check_straight(2, CAROM_NEIGHBOURS_AUTO, 3.0);
}

/* The dense elastic fluid: the sum of unwrapped positions moves at the
 * sum of unwrapped velocities, which the contacts keep. */
static void check_momentum(int dim, carom_neighbours neighbours, double rate)
{
    const double L = dim == 3 ? 7.0 : 14.0;
    const int n = dim == 3 ? 216 : 144;
    carom_world *w = sheared_world(dim, neighbours, L, rate, 0, n, 2.0, 11);
    double sum0[3] = {0, 0, 0}, p0[3] = {0, 0, 0};
    int64_t image[3];
    for (int id = 0; id < n; id++) {
        double u[3], vu[3];
        unwrapped(w, (carom_sphere_id)id, u, vu, image);
        for (int k = 0; k < 3; k++) {
            sum0[k] += u[k];
            p0[k] += vu[k];
        }
    }
    double worst = 0.0;
    int crossed = 0; /* spheres in another image along y at the end */
    for (int step = 1; step <= 40; step++) {
        double t = 0.25 * step;
        CHECK_OK(carom_world_advance_to(w, t));
        double sum[3] = {0, 0, 0}, p[3] = {0, 0, 0}, travelled = 0.0;
        for (int id = 0; id < n; id++) {
            double u[3], vu[3];
            unwrapped(w, (carom_sphere_id)id, u, vu, image);
            for (int k = 0; k < 3; k++) {
                sum[k] += u[k];
                p[k] += vu[k];
            }
            crossed += step == 40 && image[1] != 0;
            travelled += 6.0 * t;
        }
        for (int k = 0; k < dim; k++) {
            double err = fabs(sum[k] - sum0[k] - p0[k] * t) / travelled;
            worst = fmax(worst, err);
            CHECK(err <= 1e-9);
            CHECK(fabs(p[k] - p0[k]) <= 1e-9 * n);
        }
        if (step == 20)
            CHECK_OK(carom_world_sort_spatially(w));
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(crossed >= n / 10 && st.collisions > 10000);
    fprintf(stderr, "  fluid %dD %s rate %g: %llu collisions, largest error %.2e, %d of %d "
                    "spheres in another image along y at the end\n",
            dim, neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", rate,
            (unsigned long long)st.collisions, worst, crossed, n);
    carom_world_free(w);
}

static void test_fluid_momentum(void)
{
    check_momentum(3, CAROM_NEIGHBOURS_CELLS, 1.0);
    check_momentum(3, CAROM_NEIGHBOURS_LISTS, -1.0);
    check_momentum(2, CAROM_NEIGHBOURS_AUTO, 0.5);
}

/* carom_world_set_image under shear: read back as set, and the position
 * goes on from it (a straight line in the ideal gas). */
static void test_set_image(void)
{
    const double L = 8.0;
    carom_world *w = sheared_world(3, CAROM_NEIGHBOURS_AUTO, L, 0.8, 1, 27, 5.0, 3);
    CHECK_OK(carom_world_advance_to(w, 3.3));
    const int64_t set[3] = {-7, 4, 2};
    CHECK_OK(carom_world_set_image(w, 5, set));
    int64_t got[3];
    double u0[3], v0[3], u1[3], v1[3];
    unwrapped(w, 5, u0, v0, got);
    CHECK(got[0] == set[0] && got[1] == set[1] && got[2] == set[2]);
    CHECK_OK(carom_world_advance_to(w, 9.1));
    unwrapped(w, 5, u1, v1, got);
    for (int k = 0; k < 3; k++)
        CHECK_NEAR(u1[k], u0[k] + v0[k] * (9.1 - 3.3), 1e-9 * (1.0 + fabs(u1[k])));
    carom_world_free(w);
}

int main(void)
{
    RUN(test_straight_lines);
    RUN(test_fluid_momentum);
    RUN(test_set_image);
    return CHECK_REPORT();
}
