/* Scene queries (include/carom/query.h): closed forms, an independent
 * reference, and refusals.
 *
 * - Closed forms: a ray head-on into a sphere, one off its centre (the
 *   point and normal of the circle), one grazing it, one that misses; a
 *   cast starting inside (f = 0); the cast's own sphere ignored; walls,
 *   a plane, a segment's face and end; a periodic image across the box;
 *   a growing sphere with its radius now; a driven sphere where its
 *   driver says.
 * - A reference of its own: for each sphere image, the distance from its
 *   centre to the swept segment (closest point, clamped) says whether it
 *   is hit at all, and bisection on the distance (which falls from f = 0
 *   to the closest point) finds when; 4,000 random casts in 2D and 3D
 *   gases, periodic and walled, after the gases have run (with three
 *   spheres larger than the queries' cells and two driven ones; a tenth
 *   of the casts across the box many times): the same sphere, f within
 *   1e-12. The overlap query against every sphere's nearest image.
 * - The queries' index: spheres moved, added or removed at the same
 *   time, or a world advanced, are seen where they are now.
 * - Refusals: NULL, NaN, coordinates beyond 1e100, a negative radius,
 *   z in 2D, a cast as wide as half a periodic box or spanning more than
 *   2^18 boxes; a cast from far outside a periodic box, and a query
 *   wider than it, still find what they should. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "carom/scene.h"
#include "check.h"
#include "path_driver.h"

static carom_world *make_world(int dim, double box, carom_boundary boundary)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int k = 0; k < 3; k++) {
        def.box[k] = box;
        def.boundary[k] = boundary;
    }
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static carom_sphere_id add(carom_world *w, double x, double y, double z, double r)
{
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = x;
    s.position[1] = y;
    s.position[2] = z;
    s.radius = r;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    return id;
}

static carom_cast cast_of(double ox, double oy, double oz, double mx, double my, double mz,
                          double radius)
{
    carom_cast c = {{ox, oy, oz}, {mx, my, mz}, radius, CAROM_QUERY_NO_SPHERE};
    return c;
}

static int cast(carom_world *w, carom_cast c, carom_cast_hit *hit)
{
    int found = -1;
    CHECK_OK(carom_world_cast_sphere(w, &c, hit, &found));
    return found;
}

/* ---- closed forms -------------------------------------------------------- */

static void test_spheres(void)
{
    carom_world *w = make_world(3, 20.0, CAROM_BOUNDARY_PERIODIC);
    carom_sphere_id a = add(w, 10.0, 10.0, 10.0, 1.0);
    carom_cast_hit h;
    /* Head-on from x = 2 along +x by 10: touches at x = 9, f = 0.7. */
    CHECK(cast(w, cast_of(2.0, 10.0, 10.0, 10.0, 0.0, 0.0, 0.0), &h) == 1);
    CHECK(h.kind == CAROM_CONTACT_SPHERE && h.sphere == a && h.wall == -1);
    CHECK_NEAR(h.fraction, 0.7, 1e-15);
    CHECK_NEAR(h.normal[0], -1.0, 1e-15);
    CHECK_NEAR(h.point[0], 9.0, 1e-14);
    /* Off-centre by 0.9 in y, cast radius 0.5: sigma 1.5, so the centres
     * are 1.2 apart along x at contact: x = 8.8, normal (-0.8, -0.6). */
    CHECK(cast(w, cast_of(2.0, 9.1, 10.0, 10.0, 0.0, 0.0, 0.5), &h) == 1);
    CHECK_NEAR(h.fraction, 0.68, 1e-14);
    CHECK_NEAR(h.normal[0], -0.8, 1e-14);
    CHECK_NEAR(h.normal[1], -0.6, 1e-14);
    CHECK_NEAR(h.point[0], 8.8 + 0.4, 1e-14);
    CHECK_NEAR(h.point[1], 9.1 + 0.3, 1e-14);
    /* Grazing (offset 1.5 = sigma) touches at x = 10; 1.5 + 1e-9 misses. */
    CHECK(cast(w, cast_of(2.0, 8.5, 10.0, 10.0, 0.0, 0.0, 0.5), &h) == 1);
    CHECK_NEAR(h.fraction, 0.8, 1e-12);
    CHECK(cast(w, cast_of(2.0, 8.5 - 1e-9, 10.0, 10.0, 0.0, 0.0, 0.5), &h) == 0);
    /* Too short: stops 0.1 before. */
    CHECK(cast(w, cast_of(2.0, 10.0, 10.0, 6.9, 0.0, 0.0, 0.0), &h) == 0);
    /* Starting inside, moving away: hit at 0, normal towards the origin. */
    CHECK(cast(w, cast_of(10.5, 10.0, 10.0, 3.0, 0.0, 0.0, 0.0), &h) == 1);
    CHECK(h.fraction == 0.0 && h.sphere == a);
    CHECK_NEAR(h.normal[0], 1.0, 1e-15);
    /* ... unless it is the sphere ignored. */
    carom_cast own = cast_of(10.5, 10.0, 10.0, 3.0, 0.0, 0.0, 0.0);
    own.ignore = a;
    int found = -1;
    CHECK_OK(carom_world_cast_sphere(w, &own, &h, &found));
    CHECK(found == 0);
    /* Periodic: from x = 18 along +x by 5, through x = 20 = 0, meets the
     * image at x = 30 - ... no: a sphere at x = 1 is met at x = 23 - 1 =
     * ... its image at 21, touched at 20, f = 0.4. */
    carom_sphere_id b = add(w, 1.0, 3.0, 3.0, 1.0);
    CHECK(cast(w, cast_of(18.0, 3.0, 3.0, 5.0, 0.0, 0.0, 0.0), &h) == 1);
    CHECK(h.sphere == b);
    CHECK_NEAR(h.fraction, 0.4, 1e-14);
    CHECK_NEAR(h.position[0], 20.0, 1e-14);
    /* A tiny sphere (radius 1e-6) far along the ray, at its centre and
     * 0.5e-6 off it: the cast's centre stops at its radius (to
     * round-off of the coordinates), which the textbook discriminant
     * b^2 - a c would lose (its two terms agree to 12 digits). */
    carom_world *far = make_world(3, 40.0, CAROM_BOUNDARY_WALLS);
    carom_sphere_id tiny = add(far, 38.0, 20.0, 20.0, 1e-6);
    for (int off = 0; off < 2; off++) {
        double dy = 0.5e-6 * off;
        CHECK(cast(far, cast_of(2.0, 20.0 + dy, 20.0, 37.0, 0.0, 0.0, 0.0), &h) == 1);
        CHECK(h.sphere == tiny);
        double gap = hypot(h.position[0] - 38.0, h.position[1] - 20.0) - 1e-6;
        CHECK(fabs(gap) < 1e-14);
        CHECK_NEAR(h.position[0], 38.0 - sqrt(1e-12 - dy * dy), 1e-14);
    }
    carom_world_free(far);
    /* Ties go to the lower id: two spheres touched at the same f. */
    carom_sphere_id c = add(w, 15.0, 14.0, 3.0, 1.0), d = add(w, 15.0, 16.0, 3.0, 1.0);
    CHECK(cast(w, cast_of(10.0, 15.0, 3.0, 10.0, 0.0, 0.0, 0.0), &h) == 1);
    CHECK(h.sphere == (c < d ? c : d));
    CHECK_NEAR(h.fraction, 0.5, 1e-15);
    carom_world_free(w);
}

static void test_fixed(void)
{
    /* Walls: a ray from (2, 5) along (10, 0) in a 10 box meets x = 10 at
     * f = 0.8; a cast of radius 1 at f = 0.7; starting 0.5 from the low
     * wall with radius 1: f = 0. */
    carom_world *w = make_world(2, 10.0, CAROM_BOUNDARY_WALLS);
    carom_cast_hit h;
    CHECK(cast(w, cast_of(2.0, 5.0, 0.0, 10.0, 0.0, 0.0, 0.0), &h) == 1);
    CHECK(h.kind == CAROM_CONTACT_WALL && h.wall == 1 && h.sphere == CAROM_QUERY_NO_SPHERE);
    CHECK_NEAR(h.fraction, 0.8, 1e-15);
    CHECK(h.normal[0] == -1.0);
    CHECK(cast(w, cast_of(2.0, 5.0, 0.0, 10.0, 0.0, 0.0, 1.0), &h) == 1);
    CHECK_NEAR(h.fraction, 0.7, 1e-15);
    CHECK_NEAR(h.point[0], 10.0, 1e-14);
    CHECK(cast(w, cast_of(0.5, 5.0, 0.0, 0.0, 1.0, 0.0, 1.0), &h) == 1);
    CHECK(h.fraction == 0.0 && h.wall == 0);
    /* A plane x + y >= 3 (unit normal (1, 1)/sqrt 2): from (5, 5) along
     * (-4, -4), radius 0.5, the centre reaches n.x = 3/sqrt2 + 0.5. */
    const double n[3] = {1.0, 1.0, 0.0};
    CHECK_OK(carom_world_add_plane(w, n, 3.0, NULL));
    CHECK(cast(w, cast_of(5.0, 5.0, 0.0, -4.0, -4.0, 0.0, 0.5), &h) == 1);
    CHECK(h.kind == CAROM_CONTACT_PLANE && h.wall == 0);
    double f = (10.0 / sqrt(2.0) - 3.0 / sqrt(2.0) - 0.5) / (8.0 / sqrt(2.0));
    CHECK_NEAR(h.fraction, f, 1e-14);
    CHECK_NEAR(h.normal[0], 1.0 / sqrt(2.0), 1e-15);
    carom_world_free(w);

    /* A segment (3, 2)-(7, 2): a ray down at x = 5 meets its face at
     * y = 2; a disk of radius 0.5 down at x = 7.3 meets its end at
     * (7.3, 2.4), normal (0.6, 0.8). */
    w = make_world(2, 10.0, CAROM_BOUNDARY_WALLS);
    const double a[2] = {3.0, 2.0}, b[2] = {7.0, 2.0};
    CHECK_OK(carom_world_add_segment(w, a, b, NULL));
    CHECK(cast(w, cast_of(5.0, 6.0, 0.0, 0.0, -5.0, 0.0, 0.0), &h) == 1);
    CHECK(h.kind == CAROM_CONTACT_SEGMENT && h.wall == 0);
    CHECK_NEAR(h.fraction, 0.8, 1e-15);
    CHECK(h.normal[1] == 1.0);
    CHECK(cast(w, cast_of(7.3, 6.0, 0.0, 0.0, -5.0, 0.0, 0.5), &h) == 1);
    CHECK(h.kind == CAROM_CONTACT_SEGMENT);
    CHECK_NEAR(h.fraction, 3.6 / 5.0, 1e-14);
    CHECK_NEAR(h.normal[0], 0.6, 1e-14);
    CHECK_NEAR(h.normal[1], 0.8, 1e-14);
    CHECK_NEAR(h.point[0], 7.0, 1e-14);
    CHECK_NEAR(h.point[1], 2.0, 1e-14);
    /* From below, beside the end at x = 7.6: misses the segment, meets
     * the top wall. */
    CHECK(cast(w, cast_of(7.6, 1.0, 0.0, 0.0, 9.0, 0.0, 0.5), &h) == 1);
    CHECK(h.kind == CAROM_CONTACT_WALL && h.wall == 3);
    CHECK_NEAR(h.fraction, 8.5 / 9.0, 1e-15);
    carom_world_free(w);
}

/* A driven sphere is where its driver says; a growing one has the radius
 * it has reached. */
static void test_moving(void)
{
    path p = {{3.0, 5.0, 0.0}, {1.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 20.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.driver = (carom_driver){path_probe, path_kick, &p}; /* bounces off the walls */
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    carom_sphere_def sd = carom_sphere_default_def();
    sd.position[0] = 3.0;
    sd.position[1] = 5.0;
    sd.driven = 1;
    sd.accel_bound = 1.0;
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &sd, &id));
    CHECK_OK(carom_world_advance_to(w, 4.0)); /* at x = 7 */
    carom_cast_hit h;
    CHECK(cast(w, cast_of(7.0, 15.0, 0.0, 0.0, -10.0, 0.0, 0.0), &h) == 1);
    CHECK(h.sphere == id);
    CHECK_NEAR(h.position[1], 5.0 + sd.radius, 1e-12);
    size_t count = 0;
    carom_sphere_id got[4];
    const double at[3] = {7.0, 5.0 + sd.radius + 0.1, 0.0};
    CHECK_OK(carom_world_query_sphere(w, at, 0.2, got, 4, &count));
    CHECK(count == 1 && got[0] == id);
    CHECK_OK(carom_world_query_sphere(w, at, 0.05, got, 4, &count));
    CHECK(count == 0);
    carom_world_free(w);

    /* Growing at rate 1 from radius 0.5: 1 at t = 1. */
    w = make_world(2, 20.0, CAROM_BOUNDARY_WALLS);
    carom_sphere_id g = add(w, 10.0, 10.0, 0.0, 0.5);
    CHECK_OK(carom_world_set_growth(w, 1.0));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(cast(w, cast_of(2.0, 10.0, 0.0, 10.0, 0.0, 0.0, 0.0), &h) == 1);
    CHECK(h.sphere == g);
    CHECK_NEAR(h.position[0], 9.0, 1e-12);
    carom_world_free(w);
}

/* ---- against a reference of its own -------------------------------------- */

static double uniform(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (double)(*state >> 8) / 16777216.0;
}

/* Driven spheres at rest at still[id - first], the first two ids after
 * the scene's (user_data: the positions; the scene's size is in id). */
static void probe_still(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    const double(*still)[3] = user;
    (void)t;
    /* The driven spheres are the last two ids: 60 or 150 scene spheres. */
    int q = (int)id - (id >= 150 ? 150 : 60);
    for (int k = 0; k < 3; k++) {
        x[k] = still[q][k];
        v[k] = 0.0;
    }
}

/* The reference's first hit among the spheres: for each image within
 * reach, the closest point of the swept segment to its centre says
 * whether the cast comes within sigma; if so, the distance falls from
 * f = 0 to that point, and bisection finds where it reaches sigma. */
static double reference_cast(const double (*x)[3], const double *r, const carom_sphere_id *id,
                             int n, int dim, const double box[3], const int periodic[3],
                             const carom_cast *c, carom_sphere_id *hit)
{
    double best = INFINITY;
    *hit = CAROM_QUERY_NO_SPHERE;
    for (int i = 0; i < n; i++) {
        /* Every image the cast's box can reach, and one more each way. */
        long first[3] = {0, 0, 0}, last[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++) {
            if (!periodic[k])
                continue;
            double end = c->origin[k] + c->motion[k], reach = c->radius + r[i];
            first[k] = (long)floor((fmin(c->origin[k], end) - reach - x[i][k]) / box[k]) - 1;
            last[k] = (long)ceil((fmax(c->origin[k], end) + reach - x[i][k]) / box[k]) + 1;
        }
        long m[3];
        for (m[2] = first[2]; m[2] <= last[2]; m[2]++)
            for (m[1] = first[1]; m[1] <= last[1]; m[1]++)
                for (m[0] = first[0]; m[0] <= last[0]; m[0]++) {
                    double p[3];
                    for (int k = 0; k < 3; k++)
                        p[k] = x[i][k] + (double)m[k] * box[k];
                    double sigma = c->radius + r[i];
                    double mm = 0.0, dm = 0.0;
                    for (int k = 0; k < 3; k++) {
                        mm += c->motion[k] * c->motion[k];
                        dm += (p[k] - c->origin[k]) * c->motion[k];
                    }
                    double closest = mm > 0.0 ? fmin(1.0, fmax(0.0, dm / mm)) : 0.0;
                    double dist2 = 0.0, d0 = 0.0;
                    for (int k = 0; k < 3; k++) {
                        double e = c->origin[k] + closest * c->motion[k] - p[k];
                        double e0 = c->origin[k] - p[k];
                        dist2 += e * e;
                        d0 += e0 * e0;
                    }
                    double f;
                    if (d0 < sigma * sigma) {
                        f = 0.0;
                    } else if (dist2 > sigma * sigma) {
                        continue;
                    } else {
                        double lo = 0.0, hi = closest;
                        for (int it = 0; it < 200; it++) {
                            double mid = 0.5 * (lo + hi), m2 = 0.0;
                            for (int k = 0; k < 3; k++) {
                                double e = c->origin[k] + mid * c->motion[k] - p[k];
                                m2 += e * e;
                            }
                            if (m2 > sigma * sigma)
                                lo = mid;
                            else
                                hi = mid;
                        }
                        f = hi;
                    }
                    if (f < best || (f == best && id[i] < *hit)) {
                        best = f;
                        *hit = id[i];
                    }
                }
    }
    return best;
}

static void check_random(int dim, carom_boundary boundary)
{
    const double L = 20.0;
    carom_scene sc;
    carom_scene_init(&sc);
    sc.dim = dim;
    for (int k = 0; k < 3; k++) {
        sc.box[k] = L;
        sc.boundary[k] = boundary;
    }
    carom_error e;
    CHECK_OK(carom_scene_random(&sc, dim == 2 ? 60 : 150, 0.5, 11u + (unsigned)dim, &e));
    CHECK_OK(carom_scene_random_radii(&sc, 0.3, 0.9, 5u, &e));
    for (int k = 0; k < 3; k++) /* larger than the queries' cells */
        sc.radius[k] = 2.5;
    CHECK_OK(carom_scene_place_random(&sc, 3u, &e));
    CHECK_OK(carom_scene_random_velocities(&sc, 0.5, 1.5, 9u, &e));
    /* Two driven spheres at rest, clear of the others: where their probe
     * says. */
    static double still[2][3];
    int placed = 0;
    unsigned seed = 99u;
    while (placed < 2) {
        double p[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < dim; k++)
            p[k] = 1.0 + (L - 2.0) * uniform(&seed);
        int clear = 1;
        for (size_t j = 0; j < sc.n && clear; j++) {
            double d2 = 0.0;
            for (int k = 0; k < dim; k++)
                d2 += (p[k] - sc.position[j][k]) * (p[k] - sc.position[j][k]);
            clear = d2 > (sc.radius[j] + 0.6) * (sc.radius[j] + 0.6);
        }
        for (int q = 0; q < placed && clear; q++) {
            double d2 = 0.0;
            for (int k = 0; k < dim; k++)
                d2 += (p[k] - still[q][k]) * (p[k] - still[q][k]);
            clear = d2 > 1.0;
        }
        if (clear)
            memcpy(still[placed++], p, sizeof p);
    }
    carom_world_def base = carom_world_default_def();
    base.driver = (carom_driver){probe_still, NULL, still};
    carom_world *w = carom_scene_create_world(&sc, &base, &e);
    CHECK(w != NULL);
    for (int q = 0; q < 2; q++) {
        carom_sphere_def d = carom_sphere_default_def();
        memcpy(d.position, still[q], sizeof d.position);
        d.radius = 0.5;
        d.driven = 1;
        d.accel_bound = 1.0;
        carom_sphere_id driven_id;
        CHECK_OK(carom_world_add_sphere(w, &d, &driven_id));
        CHECK(driven_id == sc.n + (size_t)q);
    }
    double box[3] = {L, L, L};
    carom_scene_free(&sc);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    /* The spheres now, from the public API. */
    int n = (int)carom_world_sphere_count(w);
    double(*x)[3] = calloc((size_t)n, sizeof *x);
    double *r = calloc((size_t)n, sizeof *r);
    carom_sphere_id *id = calloc((size_t)n, sizeof *id);
    int m = 0;
    for (carom_sphere_id k = 0; k < carom_world_sphere_capacity(w); k++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, k, &st) != CAROM_OK)
            continue;
        memcpy(x[m], st.position, sizeof x[m]);
        r[m] = st.radius;
        id[m] = k;
        m++;
    }
    CHECK(m == n);
    int periodic[3] = {boundary == CAROM_BOUNDARY_PERIODIC, boundary == CAROM_BOUNDARY_PERIODIC,
                       boundary == CAROM_BOUNDARY_PERIODIC};
    unsigned state = 7u + (unsigned)dim;
    int hits = 0, at_zero = 0, mismatched = 0;
    double worst = 0.0;
    for (int trial = 0; trial < 1000; trial++) {
        carom_cast c = cast_of(0, 0, 0, 0, 0, 0, trial % 3 == 0 ? 0.0 : 0.8 * uniform(&state));
        for (int k = 0; k < dim; k++) {
            c.origin[k] = L * uniform(&state);
            c.motion[k] = (trial % 2 ? 6.0 : 25.0) * (uniform(&state) - 0.5);
        }
        if (trial % 10 == 5) /* across the box many times */
            c.motion[0] *= 40.0;
        if (boundary == CAROM_BOUNDARY_WALLS) /* keep the walls out of it */
            for (int k = 0; k < dim; k++) {
                c.origin[k] = 2.0 + (L - 4.0) * uniform(&state);
                double end = c.origin[k] + c.motion[k];
                if (end < 1.0 || end > L - 1.0)
                    c.motion[k] = -c.motion[k] * 0.5;
                if (c.origin[k] + c.motion[k] < 1.0 || c.origin[k] + c.motion[k] > L - 1.0)
                    c.motion[k] = 0.0;
            }
        carom_sphere_id want;
        double f = reference_cast((const double(*)[3])x, r, id, n, dim, box, periodic, &c, &want);
        carom_cast_hit h;
        int found = cast(w, c, &h);
        int sphere_hit = found && h.kind == CAROM_CONTACT_SPHERE;
        if (isfinite(f)) {
            hits++;
            at_zero += f == 0.0;
            if (!sphere_hit || h.sphere != want || fabs(h.fraction - f) > 1e-12) {
                if (mismatched++ < 5)
                    fprintf(stderr, "  cast %d: reference %u at %.17g, cast %d %u at %.17g\n",
                            trial, want, f, sphere_hit, sphere_hit ? h.sphere : 0,
                            found ? h.fraction : -1.0);
            } else {
                worst = fmax(worst, fabs(h.fraction - f));
            }
        } else if (sphere_hit) {
            if (mismatched++ < 5)
                fprintf(stderr, "  cast %d: reference none, cast %u at %.17g\n", trial, h.sphere,
                        h.fraction);
        }
    }
    /* The overlap query against every sphere's nearest image. */
    int query_mismatches = 0;
    size_t total = 0;
    for (int trial = 0; trial < 300; trial++) {
        double centre[3] = {0.0, 0.0, 0.0};
        double radius = (trial % 10 == 0 ? 12.0 : 3.0) * uniform(&state);
        for (int k = 0; k < dim; k++)
            centre[k] = L * uniform(&state);
        carom_sphere_id got[256];
        size_t count = 0;
        CHECK_OK(carom_world_query_sphere(w, centre, radius, got, 256, &count));
        size_t want = 0;
        for (int i = 0; i < n; i++) {
            double d2 = 0.0;
            for (int k = 0; k < dim; k++) {
                double d = fabs(x[i][k] - centre[k]);
                if (periodic[k] && d > 0.5 * L)
                    d = L - d;
                d2 += d * d;
            }
            if (d2 < (radius + r[i]) * (radius + r[i])) {
                want++;
                int listed = 0;
                for (size_t q = 0; q < count && q < 256; q++)
                    listed |= got[q] == id[i];
                query_mismatches += !listed;
            }
        }
        query_mismatches += count != want;
        total += count;
    }
    printf("  %dD %s: 1000 casts, %d hit a sphere (%d at 0), %d mismatched, f off by %.2g; 300 "
           "overlap queries, %zu spheres found, %d mismatched\n",
           dim, boundary == CAROM_BOUNDARY_PERIODIC ? "periodic" : "walls", hits, at_zero,
           mismatched, worst, total, query_mismatches);
    CHECK(mismatched == 0 && query_mismatches == 0);
    CHECK(hits > 300 && total > 100);
    free(x);
    free(r);
    free(id);
    carom_world_free(w);
}

static void test_random(void)
{
    check_random(2, CAROM_BOUNDARY_PERIODIC);
    check_random(3, CAROM_BOUNDARY_PERIODIC);
    check_random(2, CAROM_BOUNDARY_WALLS);
    check_random(3, CAROM_BOUNDARY_WALLS);
}

/* Three times (the third query at a time builds the index, the first
 * two test every sphere): the same answer each time. */
static int cast_thrice(carom_world *w, carom_cast c, carom_cast_hit *hit)
{
    carom_cast_hit h[3];
    int found[3];
    for (int k = 0; k < 3; k++)
        found[k] = cast(w, c, &h[k]);
    for (int k = 1; k < 3; k++)
        CHECK(found[k] == found[0] &&
              (!found[0] || (h[k].sphere == h[0].sphere && h[k].fraction == h[0].fraction)));
    *hit = h[2];
    return found[2];
}

/* The queries keep an index of where the spheres are at the world's
 * time: a sphere moved, removed or added since, at the same time, or the
 * world advanced, is seen where it is now. */
static void test_index_follows_changes(void)
{
    carom_world *w = make_world(3, 20.0, CAROM_BOUNDARY_PERIODIC);
    carom_sphere_id a = add(w, 10.0, 10.0, 10.0, 1.0);
    add(w, 4.0, 4.0, 4.0, 1.0);
    carom_cast_hit h;
    carom_cast ray = cast_of(2.0, 10.0, 10.0, 10.0, 0.0, 0.0, 0.0);
    CHECK(cast_thrice(w, ray, &h) == 1 && h.sphere == a);
    const double away[3] = {10.0, 16.0, 10.0};
    CHECK_OK(carom_world_set_position(w, a, away));
    CHECK(cast_thrice(w, ray, &h) == 0);
    carom_sphere_id b = add(w, 8.0, 10.0, 10.0, 0.5);
    CHECK(cast_thrice(w, ray, &h) == 1 && h.sphere == b);
    CHECK_NEAR(h.fraction, 0.55, 1e-15);
    CHECK_OK(carom_world_remove_sphere(w, b));
    CHECK(cast_thrice(w, ray, &h) == 0);
    /* Moving at 1 along -y: at t = 2 it is at y = 14, on the ray x 10. */
    const double down[3] = {0.0, -1.0, 0.0};
    CHECK_OK(carom_world_set_velocity(w, a, down));
    CHECK(cast_thrice(w, cast_of(10.0, 2.0, 10.0, 0.0, 20.0, 0.0, 0.0), &h) == 1);
    CHECK_NEAR(h.position[1], 15.0, 1e-14);
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(cast_thrice(w, cast_of(10.0, 2.0, 10.0, 0.0, 20.0, 0.0, 0.0), &h) == 1);
    CHECK_NEAR(h.position[1], 13.0, 1e-12);
    size_t count = 0;
    carom_sphere_id got[2];
    const double at[3] = {10.0, 14.0, 10.0};
    CHECK_OK(carom_world_query_sphere(w, at, 0.0, got, 2, &count));
    CHECK(count == 1 && got[0] == a);
    carom_world_free(w);
}

/* ---- refusals ------------------------------------------------------------ */

static void test_refusals(void)
{
    carom_world *w = make_world(2, 10.0, CAROM_BOUNDARY_WALLS);
    carom_cast_hit h;
    int found;
    carom_cast c = cast_of(1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0);
    CHECK(carom_world_cast_sphere(w, NULL, &h, &found) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "must not be NULL") != NULL);
    c.motion[1] = NAN;
    CHECK(carom_world_cast_sphere(w, &c, &h, &found) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "motion must be finite") != NULL);
    c.motion[1] = 0.0;
    c.radius = -1.0;
    CHECK(carom_world_cast_sphere(w, &c, &h, &found) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "radius must be finite and >= 0") != NULL);
    c.radius = 0.0;
    c.origin[2] = 1.0;
    CHECK(carom_world_cast_sphere(w, &c, &h, &found) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "z component") != NULL);
    c.origin[2] = 0.0;
    c.origin[0] = 1e101;
    CHECK(carom_world_cast_sphere(w, &c, &h, &found) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "magnitude at most 1e100") != NULL);
    carom_world *p = make_world(3, 10.0, CAROM_BOUNDARY_PERIODIC);
    add(p, 5.0, 5.0, 5.0, 0.5);
    carom_cast wide = cast_of(1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 5.0);
    CHECK(carom_world_cast_sphere(p, &wide, &h, &found) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(p), "not below half the periodic box") != NULL);
    carom_cast endless = cast_of(1.0, 1.0, 1.0, 1e7, 0.0, 0.0, 0.0);
    CHECK(carom_world_cast_sphere(p, &endless, &h, &found) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(p), "box lengths along periodic axis 0") != NULL);
    /* Along y = z = 5 through the sphere's images: the first at x = 4.5,
     * from x = 1 + 10^5 boxes (origin far out, wrapped); and a query
     * reaching round the box (8.2 + 0.5 > 5 sqrt 3) finds it from anywhere. */
    carom_cast far_out = cast_of(1.0 + 1e6, 5.0, 5.0, 50.0, 0.0, 0.0, 0.0);
    CHECK_OK(carom_world_cast_sphere(p, &far_out, &h, &found));
    CHECK(found == 1 && h.kind == CAROM_CONTACT_SPHERE);
    CHECK_NEAR(h.fraction, 3.5 / 50.0, 1e-9);
    CHECK_NEAR(h.position[0], 1e6 + 4.5, 1e-9);
    size_t all = 0;
    const double anywhere[3] = {-3e7, 2.0, 9.0};
    for (int q = 0; q < 3; q++) /* (the third through the index) */
        CHECK_OK(carom_world_query_sphere(p, anywhere, 8.2, NULL, 0, &all));
    CHECK(all == 1);
    carom_world_free(p);
    size_t count;
    const double centre[3] = {1.0, 1.0, 0.0};
    CHECK(carom_world_query_sphere(w, centre, INFINITY, NULL, 0, &count) ==
          CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_query_sphere(w, centre, 1.0, NULL, 3, &count) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK_OK(carom_world_query_sphere(w, centre, 1.0, NULL, 0, &count));
    CHECK(count == 0);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_spheres);
    RUN(test_fixed);
    RUN(test_moving);
    RUN(test_random);
    RUN(test_index_follows_changes);
    RUN(test_refusals);
    return CHECK_REPORT();
}
