/* Fixed planes (carom_world_add_plane): closed forms, conservation and
 * refusals. test_reference compares scenes with planes against its own
 * event loop; here:
 *
 * - a ball thrown at an incline under gravity meets it when the quadratic
 *   says, and bounces off with its normal velocity reversed (or scaled by
 *   the wall restitution), reported as a plane contact with its impulse;
 * - a gas in a box whose corners are cut off by tilted planes, with cells
 *   and with neighbour lists, keeps its energy, never puts a sphere
 *   behind a plane, and hits the planes often;
 * - a driven sphere flying straight bounces off planes when a ballistic
 *   one does, and one pushed onto an incline with restitution 0 slides
 *   down it in pressed contacts without ever sinking in;
 * - a plane that a sphere is behind (a growing one with the radius it has
 *   reached), bad normals, periodic axes, and a call from a callback are
 *   refused with a message, and change nothing (growing spheres meet
 *   planes in tests/test_growth.c). */
#include <math.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "path_driver.h"

static carom_world *make_world(int dim, double box, carom_boundary boundary, double gy)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    for (int k = 0; k < 3; k++) {
        def.box[k] = box;
        def.boundary[k] = boundary;
    }
    def.gravity[1] = gy;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    return w;
}

static carom_sphere_id add(carom_world *w, double x, double y, double z, double vx, double vy,
                           double vz, double radius)
{
    carom_sphere_def s = carom_sphere_default_def();
    double p[3] = {x, y, z}, v[3] = {vx, vy, vz};
    for (int k = 0; k < 3; k++) {
        s.position[k] = p[k];
        s.velocity[k] = v[k];
    }
    s.radius = radius;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &s, &id));
    return id;
}

typedef struct contact_log {
    int n;
    carom_contact c[64];
} contact_log;

static void log_contact(void *user, carom_contact *c)
{
    contact_log *log = user;
    if (log->n < 64)
        log->c[log->n] = *c;
    log->n++;
}

/* ---- a ball thrown at an incline -------------------------------------- */

/* 2D, gravity -g along y; the incline's free side is above the line
 * through (0, 2) with slope 1/2: normal (-1, 2)/sqrt(5), offset
 * 4/sqrt(5). A ball of radius 0.5 starts at (3, 8) with velocity (1, 0):
 * its centre meets the line lifted by 0.5 along the normal when
 * n . x(t) = d + r, x(t) = x0 + v t - g t^2/2 e_y. */
static void test_incline(double restitution)
{
    const double g = 2.0, r = 0.5, s5 = sqrt(5.0);
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 20.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.gravity[1] = -g;
    def.wall_restitution = restitution;
    contact_log log = {0};
    def.on_contact = log_contact;
    def.user_data = &log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    carom_sphere_id id = add(w, 3.0, 8.0, 0.0, 1.0, 0.0, 0.0, r);
    const double n[3] = {-1.0, 2.0, 0.0};
    uint32_t index = 99;
    CHECK_OK(carom_world_add_plane(w, n, 4.0, &index));
    CHECK(index == 0 && carom_world_plane_count(w) == 1);
    double un[3], d;
    CHECK_OK(carom_world_get_plane(w, 0, un, &d));
    CHECK_NEAR(un[0], -1.0 / s5, 1e-16);
    CHECK_NEAR(un[1], 2.0 / s5, 1e-16);
    CHECK_NEAR(d, 4.0 / s5, 1e-15);
    CHECK(carom_world_get_plane(w, 1, un, &d) == CAROM_ERR_INVALID_ARGUMENT);

    /* n . x(t) - d - r = (-(3 + t) + 2 (8 - g t^2 / 2)) / sqrt5 - 4/sqrt5 - r
     * = 0:  g t^2 + t + (4 + r sqrt5 - 13) = 0. */
    double c0 = 4.0 + r * s5 - 13.0;
    double t_hit = (-1.0 + sqrt(1.0 - 4.0 * g * c0)) / (2.0 * g);
    CHECK_OK(carom_world_advance_to(w, t_hit * 0.999));
    CHECK(log.n == 0);
    CHECK_OK(carom_world_advance_to(w, t_hit * 1.001));
    CHECK(log.n == 1);
    const carom_contact *c = &log.c[0];
    CHECK(c->kind == CAROM_CONTACT_PLANE && c->wall == 0 && c->i == id);
    CHECK_NEAR(c->time, t_hit, 1e-14);
    CHECK_NEAR(c->normal[0], 1.0 / s5, 1e-15); /* towards the plane */
    CHECK_NEAR(c->normal[1], -2.0 / s5, 1e-15);
    /* Velocity at the hit (1, -g t); normal part vn = v . n < 0. */
    double v[2] = {1.0, -g * t_hit};
    double vn = (v[0] * un[0] + v[1] * un[1]);
    CHECK(vn < 0.0);
    double after[2] = {v[0] - (1.0 + restitution) * vn * un[0],
                       v[1] - (1.0 + restitution) * vn * un[1]};
    CHECK_NEAR(c->velocity_after[0][0], after[0], 1e-13);
    CHECK_NEAR(c->velocity_after[0][1], after[1], 1e-13);
    CHECK_NEAR(c->impulse, -(1.0 + restitution) * vn, 1e-13); /* mass 1 */
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.wall_hits == 1);
    CHECK_NEAR(st.wall_momentum, -(1.0 + restitution) * vn, 1e-13);
    carom_world_free(w);
}

static void test_incline_bounces(void)
{
    test_incline(1.0);
    test_incline(0.5);
}

/* ---- a gas among tilted planes ---------------------------------------- */

/* Distance of sphere id's surface past plane p (> 0: behind it). */
static double depth_behind(const carom_world *w, carom_sphere_id id, uint32_t p)
{
    carom_sphere_state s;
    double n[3], d;
    CHECK_OK(carom_world_get_sphere(w, id, &s));
    CHECK_OK(carom_world_get_plane(w, p, n, &d));
    return d + s.radius - (n[0] * s.position[0] + n[1] * s.position[1] + n[2] * s.position[2]);
}

static void check_gas(int dim, carom_neighbours neighbours, double gy)
{
    const double L = 12.0;
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    def.neighbours = neighbours;
    for (int k = 0; k < 3; k++) {
        def.box[k] = L;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    def.gravity[1] = gy;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    /* Planes across the corners at (0, 0), (L, 0) [and (0, L, L) in 3D]. */
    const double planes[3][4] = {
        {1.0, 1.0, 0.0, 3.0}, {-1.0, 2.0, 0.0, -L + 2.0}, {1.0, -1.0, -1.0, 2.0 - 2.0 * L}};
    int nplanes = dim == 3 ? 3 : 2;
    for (int p = 0; p < nplanes; p++)
        CHECK_OK(carom_world_add_plane(w, planes[p], planes[p][3], NULL));
    /* A lattice of spheres, those behind or near a plane left out. */
    int n = 0, site = 0;
    double energy = 0.0;
    for (int i = 0; i < 11; i++)
        for (int j = 0; j < 11; j++)
            for (int l = 0; l < (dim == 3 ? 11 : 1); l++) {
                double x[3] = {0.6 + 1.08 * i, 0.6 + 1.08 * j, dim == 3 ? 0.6 + 1.08 * l : 0.0};
                int clear = 1;
                for (int p = 0; p < nplanes; p++) {
                    const double *q = planes[p];
                    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
                    double h = (q[0] * x[0] + q[1] * x[1] + q[2] * x[2] - q[3]) / len;
                    clear &= h > 0.45 + 1e-3;
                }
                if (!clear || (site++ % 3 == 1))
                    continue;
                double v[3] = {sin(1.3 * n), cos(2.1 * n), dim == 3 ? sin(0.7 * n + 1) : 0.0};
                add(w, x[0], x[1], x[2], 2 * v[0], 2 * v[1], 2 * v[2], 0.45);
                n++;
            }
    CHECK_OK(carom_world_advance_to(w, 0.0));
    energy = carom_world_kinetic_energy(w);
    double potential0 = 0.0;
    for (int id = 0; id < n; id++) {
        carom_sphere_state s;
        CHECK_OK(carom_world_get_sphere(w, (carom_sphere_id)id, &s));
        potential0 -= gy * s.position[1];
    }
    double worst = 0.0;
    for (int step = 1; step <= 40; step++) {
        CHECK_OK(carom_world_advance_to(w, 0.5 * step));
        for (int id = 0; id < n; id++)
            for (int p = 0; p < nplanes; p++) {
                double behind = depth_behind(w, (carom_sphere_id)id, (uint32_t)p);
                if (behind > worst)
                    worst = behind;
            }
    }
    double potential = 0.0;
    for (int id = 0; id < n; id++) {
        carom_sphere_state s;
        CHECK_OK(carom_world_get_sphere(w, (carom_sphere_id)id, &s));
        potential -= gy * s.position[1];
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    double total0 = energy + potential0, total = carom_world_kinetic_energy(w) + potential;
    printf("  %dD %-6s g %-4g %3d spheres: %llu collisions, %llu wall and plane hits, "
           "energy %.3g relative, deepest behind a plane %.2g\n",
           dim, neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", gy, n,
           (unsigned long long)st.collisions, (unsigned long long)st.wall_hits,
           fabs(total / total0 - 1.0), worst);
    CHECK(st.collisions > 2000);
    CHECK(st.wall_hits > 500);
    CHECK(fabs(total / total0 - 1.0) < 1e-10);
    CHECK(worst < 1e-9);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

static void test_gas(void)
{
    check_gas(2, CAROM_NEIGHBOURS_CELLS, 0.0);
    check_gas(2, CAROM_NEIGHBOURS_LISTS, 0.0);
    check_gas(2, CAROM_NEIGHBOURS_CELLS, -1.0);
    check_gas(3, CAROM_NEIGHBOURS_CELLS, 0.0);
    check_gas(3, CAROM_NEIGHBOURS_LISTS, 0.0);
    check_gas(3, CAROM_NEIGHBOURS_CELLS, -1.0);
}

/* ---- driven spheres ---------------------------------------------------- */

typedef struct hit_log {
    int n;
    double t[64];
    int kind[64], wall[64];
    double depth;
} hit_log;

static void log_hit(void *user, carom_contact *c)
{
    hit_log *h = user;
    if (h->n < 64) {
        h->t[h->n] = c->time;
        h->kind[h->n] = c->kind;
        h->wall[h->n] = c->wall;
    }
    h->n++;
    if (c->depth > h->depth)
        h->depth = c->depth;
}

/* Three planes cut a 2D box of side 10 into an irregular pentagon; one
 * sphere flies straight in it, driven (bound 0.5, kicks) in one world
 * and ballistic in the other: the same walls and planes at the same
 * times, to the driven contacts' time tolerance. */
static void test_driven_bounces_like_ballistic(void)
{
    const double planes[3][4] = {
        {1.0, 1.0, 0.0, 3.0}, {-1.0, 2.0, 0.0, -8.0}, {-2.0, -1.0, 0.0, -24.0}};
    hit_log logs[2] = {{0}, {0}};
    path p = {{5.0, 5.0, 0.0}, {3.1, 1.7, 0.0}, {0.0, 0.0, 0.0}};
    for (int driven = 0; driven < 2; driven++) {
        carom_world_def def = carom_world_default_def();
        def.dim = 2;
        def.box[0] = def.box[1] = 10.0;
        def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
        def.on_contact = log_hit;
        def.user_data = &logs[driven];
        if (driven)
            def.driver = (carom_driver){path_probe, path_kick, &p};
        carom_error e;
        carom_world *w = carom_world_create(&def, &e);
        for (int q = 0; q < 3; q++)
            CHECK_OK(carom_world_add_plane(w, planes[q], planes[q][3], NULL));
        carom_sphere_def sd = carom_sphere_default_def();
        sd.position[0] = sd.position[1] = 5.0;
        sd.velocity[0] = 3.1;
        sd.velocity[1] = 1.7;
        sd.driven = driven;
        sd.accel_bound = driven ? 0.5 : 0.0;
        CHECK_OK(carom_world_add_sphere(w, &sd, NULL));
        CHECK_OK(carom_world_advance_to(w, 40.0));
        carom_world_free(w);
    }
    int planes_hit = 0;
    double worst = 0.0;
    CHECK(logs[0].n == logs[1].n && logs[0].n >= 15);
    for (int k = 0; k < logs[0].n && k < logs[1].n && k < 64; k++) {
        CHECK(logs[0].kind[k] == logs[1].kind[k] && logs[0].wall[k] == logs[1].wall[k]);
        worst = fmax(worst, fabs(logs[0].t[k] - logs[1].t[k]));
        planes_hit += logs[0].kind[k] == CAROM_CONTACT_PLANE;
    }
    printf("  driven and ballistic: %d hits (%d on planes), times differ by %.2g at most\n",
           logs[0].n, planes_hit, worst);
    CHECK(planes_hit >= 8);
    CHECK(worst < 1e-8);
    CHECK(logs[1].depth == 0.0);
}

/* A driven sphere pushed down (acceleration 1e4, its bound) onto an
 * incline, restitution 0: it slides down in pressed contacts, never
 * sinking in, until the corner with the wall stops it. */
static void test_driven_pressed_on_incline(void)
{
    const double g = 1e4, n[3] = {-0.3, 1.0, 0.0};
    const double len = sqrt(n[0] * n[0] + n[1] * n[1]), d = 0.0;
    path p = {{5.0, 3.0, 5.0}, {0.0, 0.0, 0.0}, {0.0, -g, 0.0}};
    hit_log log = {0};
    carom_world_def def = carom_world_default_def();
    for (int k = 0; k < 3; k++) {
        def.box[k] = 10.0;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    def.restitution = def.wall_restitution = 0.0;
    def.driver = (carom_driver){path_probe, path_kick, &p};
    def.on_contact = log_hit;
    def.user_data = &log;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK_OK(carom_world_add_plane(w, n, d, NULL));
    carom_sphere_def sd = carom_sphere_default_def();
    for (int k = 0; k < 3; k++)
        sd.position[k] = p.x0[k];
    sd.driven = 1;
    sd.accel_bound = g;
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &sd, &id));
    double deepest = 0.0;
    for (int step = 1; step <= 20; step++) {
        CHECK_OK(carom_world_advance_to(w, 0.005 * step));
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, id, &st));
        double behind = d / len + 0.5 - (n[0] * st.position[0] + n[1] * st.position[1]) / len;
        deepest = fmax(deepest, behind);
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    carom_sphere_state end;
    CHECK_OK(carom_world_get_sphere(w, id, &end));
    printf("  driven, pressed on an incline: %llu wall and plane hits, %llu late, deepest %.2g, "
           "x %.4g -> %.4g\n",
           (unsigned long long)st.wall_hits, (unsigned long long)st.late_contacts, deepest, 5.0,
           end.position[0]);
    CHECK(st.wall_hits > 1000 && st.wall_hits < 1000000);
    CHECK(st.late_contacts == 0 && st.bound_breaks == 0);
    CHECK(log.depth == 0.0);
    CHECK(deepest < 1e-9);
    CHECK(end.position[0] < 4.0); /* it slid down the incline, towards x = 0 */
    carom_world_free(w);
}

/* ---- refusals --------------------------------------------------------- */

static int message_has(const carom_world *w, const char *words)
{
    int found = strstr(carom_world_error_message(w), words) != NULL;
    if (!found)
        fprintf(stderr, "message '%s' lacks '%s'\n", carom_world_error_message(w), words);
    return found;
}

static void add_plane_in_callback(void *user, carom_contact *c)
{
    (void)c;
    carom_world **w = user;
    const double n[3] = {0.0, 1.0, 0.0};
    CHECK(carom_world_add_plane(*w, n, 0.0, NULL) == CAROM_ERR_IN_CALLBACK);
}

static void test_refusals(void)
{
    carom_world *w = make_world(3, 10.0, CAROM_BOUNDARY_WALLS, 0.0);
    add(w, 5.0, 5.0, 5.0, 0.0, 0.0, 0.0, 1.0);
    const double zero[3] = {0.0, 0.0, 0.0}, up[3] = {0.0, 1.0, 0.0};
    const double bad[3] = {NAN, 1.0, 0.0};
    CHECK(carom_world_add_plane(w, zero, 0.0, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "nonzero, finite length"));
    CHECK(carom_world_add_plane(w, bad, 0.0, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "finite numbers"));
    CHECK(carom_world_add_plane(w, up, INFINITY, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_add_plane(w, NULL, 0.0, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    /* The sphere (centre y = 5, radius 1) is behind y >= 4.5 + 1. */
    CHECK(carom_world_add_plane(w, up, 4.5, NULL) == CAROM_ERR_OUTSIDE_BOX);
    CHECK(message_has(w, "sphere 0 (radius 1) is behind plane 0"));
    CHECK(carom_world_plane_count(w) == 0);
    /* Touching it is fine; a sphere added behind it is refused at once
     * once the world is built, and at the next advance before. */
    CHECK_OK(carom_world_add_plane(w, up, 4.0, NULL));
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = s.position[2] = 2.0;
    s.position[1] = 4.2;
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &s, &id)); /* not built yet */
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_OUTSIDE_BOX);
    CHECK(message_has(w, "sphere 1 (radius 0.5) is behind plane 0"));
    CHECK_OK(carom_world_remove_sphere(w, id));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(carom_world_add_sphere(w, &s, &id) == CAROM_ERR_OUTSIDE_BOX); /* built */
    CHECK(message_has(w, "behind plane 0"));
    carom_world_free(w);

    /* A growing sphere is checked with the radius it has grown to: 2 at
     * t = 10, so a plane 1.5 below its centre is behind it. */
    w = make_world(3, 10.0, CAROM_BOUNDARY_WALLS, 0.0);
    add(w, 5.0, 5.0, 5.0, 0.0, 0.0, 0.0, 1.0);
    CHECK_OK(carom_world_set_growth(w, 0.1));
    CHECK_OK(carom_world_advance_to(w, 10.0));
    CHECK(carom_world_add_plane(w, up, 3.5, NULL) == CAROM_ERR_OUTSIDE_BOX);
    CHECK(message_has(w, "sphere 0 (radius 2) is behind plane 0"));
    CHECK(carom_world_plane_count(w) == 0);
    CHECK_OK(carom_world_add_plane(w, up, 2.5, NULL));
    carom_world_free(w);

    /* Periodic axes, and z in 2D. */
    w = make_world(3, 10.0, CAROM_BOUNDARY_PERIODIC, 0.0);
    CHECK(carom_world_add_plane(w, up, 1.0, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "axis 1, which is periodic"));
    carom_world_free(w);
    w = make_world(2, 10.0, CAROM_BOUNDARY_WALLS, 0.0);
    const double tilted_z[3] = {0.0, 1.0, 0.5};
    CHECK(carom_world_add_plane(w, tilted_z, 1.0, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(message_has(w, "axis 2, which a 2D world does not have"));
    carom_world_free(w);

    /* From a contact callback. */
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    carom_world *self = NULL;
    def.on_contact = add_plane_in_callback;
    def.user_data = &self;
    carom_error e;
    self = carom_world_create(&def, &e);
    add(self, 1.0, 5.0, 0.0, -1.0, 0.0, 0.0, 0.5);
    CHECK_OK(carom_world_advance_to(self, 2.0));
    CHECK(carom_world_plane_count(self) == 0);
    carom_world_free(self);
}

int main(void)
{
    RUN(test_incline_bounces);
    RUN(test_gas);
    RUN(test_driven_bounces_like_ballistic);
    RUN(test_driven_pressed_on_incline);
    RUN(test_refusals);
    return CHECK_REPORT();
}
