/* Predictions and event processing through the public world API, on small
 * scenes whose collision times are known in closed form (or computed here
 * independently): head-on, oblique, grazing, touching, tiny and huge
 * speeds, tunnelling, walls with and without gravity, periodic images,
 * simultaneous events, infinite masses (with gravity: the quartic),
 * restitution, the contact callback, changes between advances, frame
 * semantics and the report-only response. */
#include <stdint.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"

/* ---- recording contacts ------------------------------------------------ */

#define MAX_RECORDED 8192

typedef struct recorder recorder;
struct recorder {
    int count;        /* all contacts seen (may exceed MAX_RECORDED) */
    carom_contact c[MAX_RECORDED];
    /* optional: changes the contact's velocities (returns nothing) */
    void (*hook)(recorder *r, carom_contact *c);
    int hook_calls;
};

static recorder rec_a, rec_b;

static void on_contact(void *user, carom_contact *c)
{
    recorder *r = user;
    if (r->count < MAX_RECORDED)
        r->c[r->count] = *c;
    r->count++;
    if (r->hook)
        r->hook(r, c);
}

static void rec_clear(recorder *r)
{
    r->count = 0;
    r->hook = NULL;
    r->hook_calls = 0;
}

static int sphere_contacts(const recorder *r)
{
    int n = 0;
    for (int k = 0; k < r->count && k < MAX_RECORDED; k++)
        n += r->c[k].kind == CAROM_CONTACT_SPHERE;
    return n;
}

static const carom_contact *nth_sphere_contact(const recorder *r, int n)
{
    for (int k = 0; k < r->count && k < MAX_RECORDED; k++)
        if (r->c[k].kind == CAROM_CONTACT_SPHERE && n-- == 0)
            return &r->c[k];
    return NULL;
}

static int is_pair(const carom_contact *c, uint32_t a, uint32_t b)
{
    return c && ((c->i == a && c->j == b) || (c->i == b && c->j == a));
}

/* ---- building worlds --------------------------------------------------- */

static carom_world_def box_def(int dim, double lx, double ly, double lz, carom_boundary b)
{
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    def.box[0] = lx;
    def.box[1] = ly;
    def.box[2] = lz;
    for (int k = 0; k < 3; k++)
        def.boundary[k] = b;
    return def;
}

static carom_world *make(carom_world_def def, recorder *r)
{
    if (r) {
        rec_clear(r);
        def.on_contact = on_contact;
        def.user_data = r;
    }
    carom_error err;
    carom_world *w = carom_world_create(&def, &err);
    if (!w) {
        fprintf(stderr, "world creation failed: %s\n", err.message);
        exit(1);
    }
    return w;
}

static carom_sphere_id add(carom_world *w, double x, double y, double z, double vx, double vy,
                           double vz, double radius, double mass)
{
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = x;
    d.position[1] = y;
    d.position[2] = z;
    d.velocity[0] = vx;
    d.velocity[1] = vy;
    d.velocity[2] = vz;
    d.radius = radius;
    d.mass = mass;
    carom_sphere_id id = UINT32_MAX;
    carom_status st = carom_world_add_sphere(w, &d, &id);
    if (st != CAROM_OK) {
        fprintf(stderr, "add_sphere failed: %s\n", carom_world_error_message(w));
        exit(1);
    }
    return id;
}

static carom_sphere_state get(const carom_world *w, carom_sphere_id id)
{
    carom_sphere_state s;
    memset(&s, 0, sizeof s);
    if (carom_world_get_sphere(w, id, &s) != CAROM_OK) {
        fprintf(stderr, "get_sphere %u failed\n", (unsigned)id);
        check_failures++;
    }
    return s;
}

static void check_vec(const double *got, double x, double y, double z, double tol, int line)
{
    double e[3] = {x, y, z};
    for (int k = 0; k < 3; k++) {
        if (!(fabs(got[k] - e[k]) <= tol)) {
            fprintf(stderr, "test_predict.c:%d: component %d = %.17g, expected %.17g\n", line, k,
                    got[k], e[k]);
            check_failures++;
        }
    }
}
#define CHECK_VEC(got, x, y, z, tol) check_vec((got), (x), (y), (z), (tol), __LINE__)

/* ---- head-on, oblique, grazing, touching --------------------------------- */

static void test_head_on(void)
{
    carom_world *w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 15, 10, 10, -1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(rec_a.count == 1);
    const carom_contact *c = nth_sphere_contact(&rec_a, 0);
    CHECK(c && is_pair(c, a, b));
    if (c) {
        CHECK_NEAR(c->time, 4.5, 1e-13);
        double sgn = c->i == a ? 1.0 : -1.0; /* normal points from i to j */
        CHECK_VEC(c->normal, sgn, 0, 0, 1e-14);
        CHECK_NEAR(c->impulse, 2.0, 1e-13);
        CHECK_NEAR(c->velocity_after[c->i == a ? 0 : 1][0], -1.0, 1e-13);
        CHECK_NEAR(c->velocity_after[c->i == a ? 1 : 0][0], 1.0, 1e-13);
    }
    carom_sphere_state sa = get(w, a), sb = get(w, b);
    CHECK(carom_world_time(w) == 5.0);
    CHECK_VEC(sa.position, 9.0, 10, 10, 1e-12);
    CHECK_VEC(sb.position, 11.0, 10, 10, 1e-12);
    CHECK_VEC(sa.velocity, -1, 0, 0, 1e-13);
    CHECK_VEC(sb.velocity, 1, 0, 0, 1e-13);
    CHECK(sa.collisions == 1 && sb.collisions == 1);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.collisions == 1 && st.wall_hits == 0);
    /* virial: impulse times contact distance */
    CHECK_NEAR(st.virial, 2.0, 1e-12);
    carom_world_free(w);

    /* Unequal masses 1 and 3: v_a' = -2, v_b' = 0, impulse 2 mu |vn| = 3. */
    w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    b = add(w, 15, 10, 10, -1, 0, 0, 0.5, 3.0);
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(rec_a.count == 1);
    CHECK_NEAR(rec_a.c[0].impulse, 3.0, 1e-13);
    CHECK_VEC(get(w, a).velocity, -2, 0, 0, 1e-13);
    CHECK_VEC(get(w, b).velocity, 0, 0, 0, 1e-13);
    CHECK_VEC(get(w, b).position, 10.5, 10, 10, 1e-12);
    carom_world_free(w);
}

static void test_oblique(void)
{
    /* 2D: a at (5,10) moving (2,0) hits b at rest at (10,10.6): contact
     * when dx = 0.8, at t = 2.1, normal (0.8, 0.6). Equal masses: the
     * normal component (1.6) passes to b. */
    carom_world *w = make(box_def(2, 20, 20, 0, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 10, 0, 2, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 10, 10.6, 0, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 2.5));
    CHECK(rec_a.count == 1);
    const carom_contact *c = nth_sphere_contact(&rec_a, 0);
    CHECK(is_pair(c, a, b));
    if (c) {
        CHECK_NEAR(c->time, 2.1, 1e-13);
        double s = c->i == a ? 1.0 : -1.0;
        CHECK_VEC(c->normal, 0.8 * s, 0.6 * s, 0, 1e-12);
        CHECK_NEAR(c->impulse, 1.6, 1e-12);
    }
    CHECK_VEC(get(w, a).velocity, 0.72, -0.96, 0, 1e-12);
    CHECK_VEC(get(w, b).velocity, 1.28, 0.96, 0, 1e-12);
    /* a at (9.2, 10) at 2.1, then 0.4 more */
    CHECK_VEC(get(w, a).position, 9.2 + 0.4 * 0.72, 10 - 0.4 * 0.96, 0, 1e-12);
    carom_world_free(w);
}

static void test_grazing(void)
{
    /* Exactly tangent: closest approach distance equals the contact
     * distance: no collision. */
    carom_world *w = make(box_def(3, 40, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 10, 11, 10, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 20.0));
    CHECK(rec_a.count == 0);
    CHECK_VEC(get(w, a).position, 25, 10, 10, 1e-12);
    CHECK_VEC(get(w, b).position, 10, 11, 10, 0.0);
    CHECK_VEC(get(w, b).velocity, 0, 0, 0, 0.0);
    carom_world_free(w);

    /* Same in 2D with the moving sphere passing below, periodic box. */
    w = make(box_def(2, 40, 20, 0, CAROM_BOUNDARY_PERIODIC), &rec_a);
    add(w, 5, 10, 0, 1, 0, 0, 0.5, 1.0);
    add(w, 10, 9, 0, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 20.0));
    CHECK(rec_a.count == 0);
    carom_world_free(w);

    /* Just inside: a glancing collision at 5 - sqrt(1 - y^2). */
    const double offsets[] = {1.0 - 1e-6, 1.0 - 1e-9, 0.999};
    for (int k = 0; k < 3; k++) {
        double y = offsets[k];
        w = make(box_def(3, 40, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
        a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
        b = add(w, 10, 10 + y, 10, 0, 0, 0, 0.5, 1.0);
        CHECK_OK(carom_world_advance_to(w, 10.0));
        CHECK(sphere_contacts(&rec_a) == 1);
        const carom_contact *c = nth_sphere_contact(&rec_a, 0);
        CHECK(is_pair(c, a, b));
        if (c)
            CHECK_NEAR(c->time, 5.0 - sqrt((1.0 - y) * (1.0 + y)), 1e-9);
        /* b is pushed away along +y, a deflected to -y */
        CHECK(get(w, b).velocity[1] > 0.0 && get(w, a).velocity[1] < 0.0);
        carom_world_free(w);
    }
    /* Just outside: nothing. */
    w = make(box_def(3, 40, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    add(w, 10, 11 + 1e-9, 10, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 10.0));
    CHECK(rec_a.count == 0);
    carom_world_free(w);
}

static void test_touching(void)
{
    /* Touching and receding: never. */
    carom_world *w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 10, 10, -1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 6, 10, 10, 1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK(rec_a.count == 0);
    CHECK_VEC(get(w, a).position, 2, 10, 10, 1e-13);
    CHECK_VEC(get(w, b).position, 9, 10, 10, 1e-13);
    carom_world_free(w);

    /* Touching, moving together side by side (and sliding past each
     * other tangentially): never. */
    w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    add(w, 5, 10, 10, 0, 1, 0, 0.5, 1.0);
    add(w, 6, 10, 10, 0, 1, 0, 0.5, 1.0);
    add(w, 5, 5, 5, 0, 0, 1, 0.5, 1.0);
    add(w, 6, 5, 5, 0, 0, -1, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK(rec_a.count == 0);
    carom_world_free(w);

    /* Touching and approaching: at once (t = 0), then apart. */
    w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    b = add(w, 6, 10, 10, -1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(rec_a.count == 1);
    CHECK(rec_a.count == 1 && rec_a.c[0].time == 0.0);
    CHECK_VEC(get(w, a).position, 4, 10, 10, 1e-13);
    CHECK_VEC(get(w, b).position, 7, 10, 10, 1e-13);
    carom_world_free(w);

    /* Advancing to the initial time processes the contact at t = 0 too. */
    w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    add(w, 6, 10, 10, -1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 0.0));
    CHECK(rec_a.count == 1);
    CHECK_VEC(get(w, a).velocity, -1, 0, 0, 0.0);
    carom_world_free(w);
}

static void test_speeds(void)
{
    /* Head-on at speeds 1e-9 .. 1e9: t = 4.5 / s; positions after. (The
     * minimum separation speed is lowered below the slowest, so that all
     * of them are elastic.) */
    const double speeds[] = {1e-9, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9};
    carom_world_def def = box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS);
    def.restitution_min_speed = 1e-15;
    for (int k = 0; k < 7; k++) {
        double s = speeds[k];
        carom_world *w = make(def, &rec_a);
        carom_sphere_id a = add(w, 5, 10, 10, s, 0, 0, 0.5, 1.0);
        carom_sphere_id b = add(w, 15, 10, 10, -s, 0, 0, 0.5, 1.0);
        CHECK_OK(carom_world_advance_to(w, 6.75 / s));
        CHECK(rec_a.count == 1);
        if (rec_a.count >= 1) {
            CHECK_REL(rec_a.c[0].time, 4.5 / s, 1e-14);
            CHECK_REL(rec_a.c[0].impulse, 2.0 * s, 1e-14);
        }
        CHECK_VEC(get(w, a).position, 7.25, 10, 10, 1e-12);
        CHECK_VEC(get(w, b).position, 12.75, 10, 10, 1e-12);
        CHECK_REL(get(w, a).velocity[0], -s, 1e-14);
        carom_world_free(w);
    }
    /* Mixed: a fast sphere (1e9) hits a crawling one (1e-9). */
    carom_world *w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 10, 10, 1e9, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 15, 10, 10, 1e-9, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1e-8));
    CHECK(sphere_contacts(&rec_a) == 1);
    if (rec_a.count >= 1)
        CHECK_REL(rec_a.c[0].time, 9.0 / (1e9 - 1e-9), 1e-14);
    /* equal masses: velocities exchanged (to round-off at the scale 1e9) */
    CHECK_REL(get(w, b).velocity[0], 1e9, 1e-14);
    CHECK(fabs(get(w, a).velocity[0]) <= 1e9 * 1e-15);
    carom_world_free(w);
}

/* Two spheres of radius 0.5 meeting from 10^2 .. 10^7 diameters apart,
 * off-centre by 0.3, closing at 2: t = (D - sqrt(0.91)) / 2 to within an
 * ulp or so of t, elastic (the straight pair's prediction) and report-only
 * (the general one). The discriminant taken as b^2 - a c lost digits as
 * (D / sigma)^2: the contact came 1.8e-9 of sigma deep at 10^4, 2e-3 at
 * 10^7. */
static void test_far_apart(void)
{
    for (int none = 0; none < 2; none++)
        for (int k = 2; k <= 7; k++) {
            double D = pow(10.0, k);
            carom_world_def def = box_def(3, 3 * D, 3 * D, 3 * D, CAROM_BOUNDARY_WALLS);
            if (none)
                def.response = CAROM_RESPONSE_NONE;
            carom_world *w = make(def, &rec_a);
            add(w, D, D, D, 1.0, 0, 0, 0.5, 1.0);
            add(w, 2 * D, D + 0.3, D, -1.0, 0, 0, 0.5, 1.0);
            CHECK_OK(carom_world_advance_to(w, 0.75 * D));
            CHECK(sphere_contacts(&rec_a) == 1);
            const carom_contact *c = nth_sphere_contact(&rec_a, 0);
            if (c)
                CHECK_REL(c->time, 0.5 * (D - sqrt(0.91)), 1e-14);
            carom_world_free(w);
        }
}

/* A small fast sphere crosses many cells of a fine grid in one flight and
 * hits a far sphere: no tunnelling. Stationary filler spheres away from
 * its path make the grid fine. */
static void test_no_tunnelling(void)
{
    for (int periodic = 0; periodic <= 1; periodic++) {
        carom_world *w = make(box_def(3, 100, 10, 10, periodic ? CAROM_BOUNDARY_PERIODIC
                                                                 : CAROM_BOUNDARY_WALLS),
                              &rec_a);
        for (int ix = 0; ix < 50; ix++)
            for (int iy = 0; iy < 5; iy++) {
                add(w, 1 + 2 * ix, 1 + 2 * iy, 1, 0, 0, 0, 0.5, 1.0);
                add(w, 1 + 2 * ix, 1 + 2 * iy, 9, 0, 0, 0, 0.5, 1.0);
            }
        carom_sphere_id fast = add(w, 1, 5, 5, 1e3, 0, 0, 0.05, 1.0);
        carom_sphere_id target = add(w, 90, 5, 5, 0, 0, 0, 0.5, 1.0);
        CHECK_OK(carom_world_advance_to(w, 0.1));
        CHECK(sphere_contacts(&rec_a) == 1);
        const carom_contact *c = nth_sphere_contact(&rec_a, 0);
        CHECK(is_pair(c, fast, target));
        if (c)
            CHECK_REL(c->time, 88.45 / 1e3, 1e-13);
        carom_stats st;
        carom_world_get_stats(w, &st);
        /* the grid is fine (or the lists short): many predictions on the way */
        CHECK(st.cell_crossings + st.list_rebuilds >= 30);
        /* equal masses: the target took the fast one's velocity */
        CHECK_REL(fabs(get(w, target).velocity[0]), 1e3, 1e-13);
        CHECK_VEC(get(w, fast).velocity, 0, 0, 0, 1e-12);
        carom_world_free(w);
    }
}

/* ---- walls and gravity --------------------------------------------------- */

static void test_walls(void)
{
    /* A diagonal flight in a 10^3 box: walls y-high at 2.25, x-high at 4.5,
     * y-low at 6.75, z-low at 9. */
    carom_world *w = make(box_def(3, 10, 10, 10, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 5, 5, 1, 2, -0.5, 0.5, 2.0);
    CHECK_OK(carom_world_advance_to(w, 10.0));
    const double times[] = {2.25, 4.5, 6.75, 9.0};
    const int walls[] = {3, 1, 2, 4};
    const double impulses[] = {8.0, 4.0, 8.0, 2.0}; /* 2 m |v_n| */
    CHECK(rec_a.count == 4);
    for (int k = 0; k < 4 && k < rec_a.count; k++) {
        const carom_contact *c = &rec_a.c[k];
        CHECK(c->kind == CAROM_CONTACT_WALL);
        CHECK(c->i == a);
        CHECK(c->wall == walls[k]);
        CHECK_NEAR(c->time, times[k], 1e-13);
        CHECK_NEAR(c->impulse, impulses[k], 1e-12);
        double n[3] = {0, 0, 0};
        n[walls[k] / 2] = walls[k] % 2 ? 1.0 : -1.0;
        CHECK_VEC(c->normal, n[0], n[1], n[2], 0.0);
    }
    /* At t = 10: x: 9.5 at 4.5 then back 5.5 -> 4; y: 0.5 at 6.75, up
     * 3.25*2 -> 7; z: 0.5 at 9, up 0.5 -> 1. */
    CHECK_VEC(get(w, a).position, 4, 7, 1, 1e-12);
    CHECK_VEC(get(w, a).velocity, -1, 2, 0.5, 0.0);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.wall_hits == 4 && st.collisions == 0);
    CHECK_NEAR(st.wall_momentum, 22.0, 1e-12);
    carom_world_free(w);
}

static void test_gravity_walls(void)
{
    const double g[3] = {0, -1, 0};
    /* Dropped from rest at height 5: floor (y = 0.5) at t = 3, back at
     * height 5 at rest at t = 6. */
    carom_world_def def = box_def(2, 10, 10, 0, CAROM_BOUNDARY_WALLS);
    memcpy(def.gravity, g, sizeof g);
    carom_world *w = make(def, &rec_a);
    carom_sphere_id a = add(w, 5, 5, 0, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 6.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1) {
        CHECK(rec_a.c[0].kind == CAROM_CONTACT_WALL && rec_a.c[0].wall == 2);
        CHECK_NEAR(rec_a.c[0].time, 3.0, 1e-13);
        CHECK_NEAR(rec_a.c[0].impulse, 6.0, 1e-12);
    }
    CHECK_VEC(get(w, a).position, 5, 5, 0, 1e-12);
    CHECK_VEC(get(w, a).velocity, 0, 0, 0, 1e-12);
    /* It keeps bouncing with period 6. */
    CHECK_OK(carom_world_advance_to(w, 60.5));
    CHECK(rec_a.count == 10);
    if (rec_a.count == 10)
        CHECK_NEAR(rec_a.c[9].time, 57.0, 1e-11);
    CHECK_NEAR(carom_world_kinetic_energy(w) + 1.0 * 1.0 * (get(w, a).position[1]), 5.0, 1e-11);
    carom_world_free(w);

    /* A parabola: from (2, 5) with velocity (1, 2): the floor at
     * t = 2 + sqrt(13), where x = 4 + sqrt(13). */
    w = make(def, &rec_a);
    a = add(w, 2, 5, 0, 1, 2, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 5.7));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1) {
        CHECK(rec_a.c[0].wall == 2);
        CHECK_REL(rec_a.c[0].time, 2.0 + sqrt(13.0), 1e-14);
        CHECK_REL(rec_a.c[0].velocity_after[0][1], sqrt(13.0), 1e-13);
    }
    carom_world_free(w);

    /* Thrown up to the ceiling: 5 + 4t - t^2/2 = 9.5 at t = 4 - sqrt(7). */
    w = make(def, &rec_a);
    a = add(w, 5, 5, 0, 0, 4, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1.5));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1) {
        CHECK(rec_a.c[0].wall == 3);
        CHECK_REL(rec_a.c[0].time, 4.0 - sqrt(7.0), 1e-14);
    }
    carom_world_free(w);

    /* Thrown up to just touch the ceiling (apex exactly at 9.5): a
     * tangency, not a hit: vy = 3 reaches 5 + 4.5 = 9.5. */
    w = make(def, &rec_a);
    a = add(w, 5, 5, 0, 0, 3, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(rec_a.count == 0);
    CHECK_VEC(get(w, a).position, 5, 5 + 15 - 12.5, 0, 1e-12);
    carom_world_free(w);

    /* Gravity along a periodic axis (x), walls on y: a sphere accelerated
     * along x hits a resting infinite-mass sphere (the quartic path). */
    carom_world_def d2 = box_def(2, 10, 10, 0, CAROM_BOUNDARY_PERIODIC);
    d2.boundary[1] = CAROM_BOUNDARY_WALLS;
    d2.gravity[0] = 1.0;
    w = make(d2, &rec_a);
    a = add(w, 1, 5, 0, 0, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 7, 5, 0, 0, 0, 0, 0.5, INFINITY);
    CHECK_OK(carom_world_advance_to(w, 4.0));
    CHECK(rec_a.count >= 1);
    if (rec_a.count >= 1) {
        /* reaches x = 6 after t = sqrt(10) */
        CHECK(is_pair(&rec_a.c[0], a, b));
        CHECK_REL(rec_a.c[0].time, sqrt(10.0), 1e-13);
    }
    CHECK_VEC(get(w, b).position, 7, 5, 0, 0.0);
    carom_world_free(w);
}

/* ---- periodic images ------------------------------------------------------ */

/* Earliest time in [0, tmax] at which a (moving linearly) touches b
 * (moving linearly) through any periodic image, approaching; long double
 * brute force over images. */
static double first_contact_periodic(int dim, const double L[3], const double xa[3],
                                     const double va[3], const double xb[3], const double vb[3],
                                     double sigma, double tmax)
{
    long double best = INFINITY;
    int range[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++)
        range[k] = (int)(fabs(va[k] - vb[k]) * tmax / L[k]) + 2;
    for (int nx = -range[0]; nx <= range[0]; nx++)
        for (int ny = -range[1]; ny <= range[1]; ny++)
            for (int nz = -range[2]; nz <= range[2]; nz++) {
                int n[3] = {nx, ny, nz};
                long double r[3], v[3], rr = 0, rv = 0, vv = 0;
                for (int k = 0; k < 3; k++) {
                    r[k] = (long double)xb[k] - xa[k] + (long double)n[k] * L[k];
                    v[k] = (long double)vb[k] - va[k];
                    rr += r[k] * r[k];
                    rv += r[k] * v[k];
                    vv += v[k] * v[k];
                }
                long double c = rr - (long double)sigma * sigma;
                long double disc = rv * rv - vv * c;
                if (rv >= 0 || disc <= 0 || c < 0)
                    continue;
                long double t = c / (-rv + sqrtl(disc));
                if (t < best)
                    best = t;
            }
    return best <= tmax ? (double)best : INFINITY;
}

static void test_periodic(void)
{
    /* Through the boundary: a at x = 1 moving -x meets b at x = 9. */
    carom_world *w = make(box_def(2, 10, 10, 0, CAROM_BOUNDARY_PERIODIC), &rec_a);
    carom_sphere_id a = add(w, 1, 5, 0, -1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 9, 5, 0, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1.5));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1) {
        const carom_contact *c = &rec_a.c[0];
        CHECK_NEAR(c->time, 1.0, 1e-13);
        double s = c->i == a ? -1.0 : 1.0; /* from a towards b is -x */
        CHECK_VEC(c->normal, s, 0, 0, 1e-13);
    }
    /* b moved to x = 8.5 (at 1: b at 9 gets -1) */
    CHECK_VEC(get(w, b).position, 8.5, 5, 0, 1e-12);
    CHECK_VEC(get(w, a).velocity, 0, 0, 0, 1e-13);
    carom_world_free(w);

    /* a crosses the boundary during the flight. */
    w = make(box_def(2, 10, 10, 0, CAROM_BOUNDARY_PERIODIC), &rec_a);
    add(w, 9.8, 5, 0, 1, 0, 0, 0.5, 1.0);
    add(w, 2, 5, 0, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1.5));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1)
        CHECK_NEAR(rec_a.c[0].time, 1.2, 1e-13);
    carom_world_free(w);

    /* Random long flights that wrap several times before a hit, 2D and
     * 3D; the expected time from the image brute force. */
    uint64_t s = 12345;
    int tested = 0;
    for (int it = 0; it < 4000 && tested < 40; it++) {
        int dim = 2 + (it & 1);
        double L[3] = {10, 12, 11};
        if (dim == 2)
            L[2] = 1;
        double xa[3] = {0, 0, 0}, xb[3] = {0, 0, 0}, va[3] = {0, 0, 0}, vb[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            xa[k] = L[k] * (double)(s >> 11) / 9007199254740992.0;
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            xb[k] = L[k] * (double)(s >> 11) / 9007199254740992.0;
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            va[k] = 20.0 * ((double)(s >> 11) / 9007199254740992.0 - 0.5);
        }
        double ra = 0.2, rb = 0.7;
        double d2 = 0;
        for (int k = 0; k < dim; k++) {
            double d = fabs(xa[k] - xb[k]);
            d = fmin(d, L[k] - d);
            d2 += d * d;
        }
        if (sqrt(d2) < ra + rb + 0.01)
            continue;
        double expect = first_contact_periodic(dim, L, xa, va, xb, vb, ra + rb, 10.0);
        if (!(expect > 1.0 && expect < 10.0))
            continue; /* want several wraps before the hit */
        carom_world_def def = box_def(dim, L[0], L[1], L[2], CAROM_BOUNDARY_PERIODIC);
        w = make(def, &rec_a);
        a = add(w, xa[0], xa[1], xa[2], va[0], va[1], va[2], ra, 1.0);
        b = add(w, xb[0], xb[1], xb[2], 0, 0, 0, rb, 1.0);
        CHECK_OK(carom_world_advance_to(w, expect * 1.0001));
        CHECK(rec_a.count == 1);
        if (rec_a.count >= 1) {
            CHECK(is_pair(&rec_a.c[0], a, b));
            CHECK_REL(rec_a.c[0].time, expect, 1e-11);
        }
        carom_world_free(w);
        tested++;
    }
    CHECK(tested == 40);
}

/* ---- simultaneous events -------------------------------------------------- */

typedef struct seq_entry {
    double time;
    uint32_t i, j;
    double v[2][3];
} seq_entry;

static void test_simultaneous_line(int reversed, seq_entry *out, int *nout)
{
    /* a -> b(rest) <- c: both contacts at t = 4 exactly. Whatever the
     * order, three collisions at t = 4 leave a at -1, b at rest, c at +1. */
    carom_world *w = make(box_def(2, 30, 10, 0, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id id[3];
    double x[3] = {5, 10, 15}, v[3] = {1, 0, -1};
    for (int k = 0; k < 3; k++) {
        int m = reversed ? 2 - k : k;
        id[m] = add(w, x[m], 5, 0, v[m], 0, 0, 0.5, 1.0);
    }
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(rec_a.count == 3);
    for (int k = 0; k < rec_a.count && k < 3; k++) {
        CHECK(rec_a.c[k].time == 4.0);
        out[k].time = rec_a.c[k].time;
        out[k].i = rec_a.c[k].i;
        out[k].j = rec_a.c[k].j;
        memcpy(out[k].v, rec_a.c[k].velocity_after, sizeof out[k].v);
    }
    *nout = rec_a.count;
    /* first two: b with a and with c; the third repeats the first pair */
    if (rec_a.count == 3) {
        CHECK(is_pair(&rec_a.c[0], id[0], id[1]) || is_pair(&rec_a.c[0], id[1], id[2]));
        CHECK(is_pair(&rec_a.c[1], id[0], id[1]) || is_pair(&rec_a.c[1], id[1], id[2]));
        CHECK(!is_pair(&rec_a.c[0], rec_a.c[1].i, rec_a.c[1].j));
        CHECK(is_pair(&rec_a.c[2], rec_a.c[0].i, rec_a.c[0].j));
    }
    CHECK_VEC(get(w, id[0]).velocity, -1, 0, 0, 1e-14);
    CHECK_VEC(get(w, id[1]).velocity, 0, 0, 0, 1e-14);
    CHECK_VEC(get(w, id[2]).velocity, 1, 0, 0, 1e-14);
    CHECK_VEC(get(w, id[0]).position, 8, 5, 0, 1e-13);
    CHECK_VEC(get(w, id[1]).position, 10, 5, 0, 1e-13);
    CHECK_VEC(get(w, id[2]).position, 12, 5, 0, 1e-13);
    carom_world_free(w);
}

/* Three spheres all meeting at t = 6 exactly (integer geometry): a and c
 * (radius 4) head-on, b (radius 1) from above touching both. */
static carom_world *triangle_world(carom_response response, recorder *r, carom_sphere_id id[3])
{
    carom_world_def def = box_def(2, 60, 60, 0, CAROM_BOUNDARY_WALLS);
    def.response = response;
    carom_world *w = make(def, r);
    id[0] = add(w, 20, 30, 0, 1, 0, 0, 4.0, 1.0);
    id[1] = add(w, 30, 39, 0, 0, -1, 0, 1.0, 1.0);
    id[2] = add(w, 40, 30, 0, -1, 0, 0, 4.0, 1.0);
    return w;
}

static void test_simultaneous(void)
{
    seq_entry s1[3], s2[3], s3[3];
    int n1 = 0, n2 = 0, n3 = 0;
    test_simultaneous_line(0, s1, &n1);
    test_simultaneous_line(0, s2, &n2);
    test_simultaneous_line(1, s3, &n3);
    /* Same run, same sequence, bit for bit. */
    CHECK(n1 == n2 && memcmp(s1, s2, sizeof(seq_entry) * (size_t)(n1 < 3 ? n1 : 3)) == 0);
    CHECK(n3 == 3);

    /* The triangle: elastic, all three pairs touch at t = 6. */
    seq_entry t1[64], t2[64];
    int m1 = 0, m2 = 0;
    for (int run = 0; run < 2; run++) {
        carom_sphere_id id[3];
        carom_world *w = triangle_world(CAROM_RESPONSE_ELASTIC, &rec_a, id);
        double ke0 = carom_world_kinetic_energy(w), p0[3];
        carom_world_momentum(w, p0);
        CHECK_OK(carom_world_advance_to(w, 6.5));
        int sc = sphere_contacts(&rec_a);
        CHECK(sc >= 2 && sc < 64);
        for (int k = 0; k < sc && k < 64; k++) {
            const carom_contact *c = nth_sphere_contact(&rec_a, k);
            seq_entry *e = run ? &t2[k] : &t1[k];
            memset(e, 0, sizeof *e);
            e->time = c->time;
            e->i = c->i;
            e->j = c->j;
            memcpy(e->v, c->velocity_after, sizeof e->v);
            CHECK(c->time == 6.0);
        }
        if (run)
            m2 = sc;
        else
            m1 = sc;
        /* conservation and separation */
        double p[3];
        carom_world_momentum(w, p);
        CHECK_REL(carom_world_kinetic_energy(w), ke0, 1e-14);
        CHECK_VEC(p, p0[0], p0[1], p0[2], 1e-14);
        CHECK(carom_world_max_overlap_now(w) <= 0.0);
        /* afterwards, no pair approaches: they are all flying apart */
        carom_sphere_state st[3];
        for (int k = 0; k < 3; k++)
            st[k] = get(w, id[k]);
        for (int p1 = 0; p1 < 3; p1++)
            for (int p2 = p1 + 1; p2 < 3; p2++) {
                double rv = 0;
                for (int k = 0; k < 2; k++)
                    rv += (st[p2].position[k] - st[p1].position[k]) *
                          (st[p2].velocity[k] - st[p1].velocity[k]);
                CHECK(rv >= -1e-12);
            }
        carom_world_free(w);
    }
    CHECK(m1 == m2 && memcmp(t1, t2, sizeof(seq_entry) * (size_t)(m1 < 64 ? m1 : 64)) == 0);
}

/* ---- infinite masses -------------------------------------------------------- */

static void test_infinite_mass(void)
{
    /* At rest: a bounces straight back, the obstacle does not move. */
    carom_world *w = make(box_def(3, 20, 10, 10, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 5, 5, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 10, 5, 5, 0, 0, 0, 0.5, INFINITY);
    CHECK_OK(carom_world_advance_to(w, 6.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1) {
        CHECK_NEAR(rec_a.c[0].time, 4.0, 1e-13);
        CHECK_NEAR(rec_a.c[0].impulse, 2.0, 1e-13);
    }
    CHECK_VEC(get(w, a).velocity, -1, 0, 0, 1e-14);
    CHECK_VEC(get(w, a).position, 7, 5, 5, 1e-13);
    CHECK_VEC(get(w, b).position, 10, 5, 5, 0.0);
    CHECK_VEC(get(w, b).velocity, 0, 0, 0, 0.0);
    CHECK(isinf(get(w, b).mass));
    /* kinetic energy and temperature count finite masses only */
    CHECK_NEAR(carom_world_kinetic_energy(w), 0.5, 1e-14);
    CHECK_NEAR(carom_world_temperature(w), 1.0 / 3.0, 1e-14);
    carom_world_free(w);

    /* Moving obstacle (kinematic): keeps its velocity, a is reflected in
     * its frame: +1 relative becomes -1, i.e. -2 absolute. */
    w = make(box_def(3, 20, 10, 10, CAROM_BOUNDARY_WALLS), &rec_a);
    a = add(w, 5, 5, 5, 0, 0, 0, 0.5, 1.0);
    b = add(w, 10, 5, 5, -1, 0, 0, 0.5, INFINITY);
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1)
        CHECK_NEAR(rec_a.c[0].time, 4.0, 1e-13);
    CHECK_VEC(get(w, a).velocity, -2, 0, 0, 1e-14);
    CHECK_VEC(get(w, a).position, 3, 5, 5, 1e-13);
    CHECK_VEC(get(w, b).velocity, -1, 0, 0, 0.0);
    CHECK_VEC(get(w, b).position, 5, 5, 5, 1e-13);
    carom_world_free(w);

    /* Two infinite masses collide as equal masses: velocities exchanged. */
    w = make(box_def(3, 20, 10, 10, CAROM_BOUNDARY_WALLS), &rec_a);
    a = add(w, 5, 5, 5, 1, 0, 0, 0.5, INFINITY);
    b = add(w, 10, 5, 5, 0, 0, 0, 0.5, INFINITY);
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(rec_a.count == 1);
    CHECK_VEC(get(w, a).velocity, 0, 0, 0, 1e-14);
    CHECK_VEC(get(w, b).velocity, 1, 0, 0, 1e-14);
    carom_world_free(w);
}

/* Time of first contact of a sphere under gravity g (from xa with va)
 * with a sphere moving linearly (xb, vb), found by scanning the distance
 * in long double with a fine step and bisecting. */
static double first_contact_scan(const double xa[3], const double va[3], const double g[3],
                                 const double xb[3], const double vb[3], double sigma,
                                 double tmax)
{
    const int steps = 200000;
    long double prev_t = 0;
    for (int s = 1; s <= steps; s++) {
        long double t = (long double)tmax * s / steps;
        long double d2 = 0;
        for (int k = 0; k < 3; k++) {
            long double d = (xa[k] + va[k] * t + 0.5L * g[k] * t * t) - (xb[k] + vb[k] * t);
            d2 += d * d;
        }
        if (d2 <= (long double)sigma * sigma) {
            long double lo = prev_t, hi = t;
            for (int it = 0; it < 200; it++) {
                long double m = 0.5L * (lo + hi);
                long double e2 = 0;
                for (int k = 0; k < 3; k++) {
                    long double d =
                        (xa[k] + va[k] * m + 0.5L * g[k] * m * m) - (xb[k] + vb[k] * m);
                    e2 += d * d;
                }
                if (e2 <= (long double)sigma * sigma)
                    hi = m;
                else
                    lo = m;
            }
            return (double)hi;
        }
        prev_t = t;
    }
    return INFINITY;
}

/* Tiny spheres (radius 1e-1 .. 1e-4) dropped from 80 above a fixed one of
 * the same size, off-centre by 0.3 of the contact distance sigma: the
 * quartic of a falling sphere against a fixed one is polished about the
 * state at its root, so the contact comes at t = sqrt(2 (80 -
 * sqrt(0.91) sigma)) to 1e-12 (without it, 1.4e-5 of sigma deep at 1e-4). */
static void test_far_fall(void)
{
    const double g[3] = {0, -1, 0};
    carom_world_def def = box_def(2, 100, 100, 1, CAROM_BOUNDARY_WALLS);
    memcpy(def.gravity, g, sizeof g);
    for (int e = 1; e <= 4; e++) {
        double r = pow(10.0, -e), sigma = 2.0 * r;
        carom_world *w = make(def, &rec_a);
        add(w, 50.0 + 0.3 * sigma, 90.0, 0, 0, 0, 0, r, 1.0);
        add(w, 50.0, 10.0, 0, 0, 0, 0, r, INFINITY);
        CHECK_OK(carom_world_advance_to(w, 12.7));
        CHECK(sphere_contacts(&rec_a) == 1);
        const carom_contact *c = nth_sphere_contact(&rec_a, 0);
        if (c)
            CHECK_NEAR(c->time, sqrt(2.0 * (80.0 - sqrt(0.91) * sigma)), 1e-12);
        carom_world_free(w);
    }
}

static void test_infinite_mass_gravity(void)
{
    const double g[3] = {0, -1, 0};
    carom_world_def def = box_def(3, 10, 10, 10, CAROM_BOUNDARY_WALLS);
    memcpy(def.gravity, g, sizeof g);

    /* Dropped onto a fixed sphere: contact after falling 4, t = sqrt(8);
     * bounces back to its start at 2 sqrt(8), at rest. */
    carom_world *w = make(def, &rec_a);
    carom_sphere_id a = add(w, 5, 8, 5, 0, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 5, 3, 5, 0, 0, 0, 0.5, INFINITY);
    CHECK_OK(carom_world_advance_to(w, 2.0 * sqrt(8.0)));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1)
        CHECK_REL(rec_a.c[0].time, sqrt(8.0), 1e-14);
    CHECK_VEC(get(w, a).position, 5, 8, 5, 1e-12);
    CHECK_VEC(get(w, a).velocity, 0, 0, 0, 1e-12);
    CHECK_VEC(get(w, b).position, 5, 3, 5, 0.0);
    carom_world_free(w);

    /* Off-centre by 0.6: contact at height 0.8 above the centre, after
     * falling 4.2; the normal (-0.6, -0.8) from a to b reflects
     * (0, -s) into s (0.96, 0.28). */
    w = make(def, &rec_a);
    a = add(w, 5.6, 8, 5, 0, 0, 0, 0.5, 1.0);
    b = add(w, 5, 3, 5, 0, 0, 0, 0.5, INFINITY);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK(sphere_contacts(&rec_a) == 1);
    const carom_contact *c = nth_sphere_contact(&rec_a, 0);
    if (c) {
        double s = sqrt(8.4);
        CHECK_REL(c->time, s, 1e-13);
        double sg = c->i == a ? 1.0 : -1.0;
        CHECK_VEC(c->normal, -0.6 * sg, -0.8 * sg, 0, 1e-12);
        CHECK_VEC(c->velocity_after[c->i == a ? 0 : 1], 0.96 * s, 0.28 * s, 0, 1e-12);
        CHECK_VEC(c->velocity_after[c->i == a ? 1 : 0], 0, 0, 0, 0.0);
    }
    carom_world_free(w);

    /* A moving obstacle (not pulled by gravity) and a thrown sphere:
     * compare with a scan of the distance. */
    struct {
        double xa[3], va[3], xb[3], vb[3];
    } cases[] = {
        {{5, 8, 5}, {0, 0, 0}, {2, 3, 5}, {1, 0, 0}},
        {{2, 2, 5}, {1.5, 3, 0}, {7, 6, 5}, {-0.5, 0, 0.1}},
        {{1, 9, 2}, {2, 0, 0.5}, {8, 2, 3.75}, {0, 0.3, 0}},
    };
    for (int k = 0; k < 3; k++) {
        double expect =
            first_contact_scan(cases[k].xa, cases[k].va, g, cases[k].xb, cases[k].vb, 1.0, 4.0);
        CHECK(isfinite(expect));
        w = make(def, &rec_a);
        a = add(w, cases[k].xa[0], cases[k].xa[1], cases[k].xa[2], cases[k].va[0],
                cases[k].va[1], cases[k].va[2], 0.5, 1.0);
        b = add(w, cases[k].xb[0], cases[k].xb[1], cases[k].xb[2], cases[k].vb[0],
                cases[k].vb[1], cases[k].vb[2], 0.5, INFINITY);
        /* (a little past it: the engine's time may be an ulp later) */
        double until = expect * (1.0 + 1e-12);
        CHECK_OK(carom_world_advance_to(w, until));
        c = nth_sphere_contact(&rec_a, 0);
        CHECK(c && is_pair(c, a, b));
        if (c)
            CHECK_REL(c->time, expect, 1e-10);
        /* the obstacle keeps its straight line */
        for (int m = 0; m < 3; m++)
            CHECK_NEAR(get(w, b).position[m], cases[k].xb[m] + cases[k].vb[m] * until, 1e-12);
        carom_world_free(w);
    }
}

/* ---- restitution ----------------------------------------------------------- */

static void test_restitution(void)
{
    /* e = 0.5, equal masses, head-on at +-1: -0.5 and +0.5. */
    carom_world_def def = box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS);
    def.restitution = 0.5;
    carom_world *w = make(def, &rec_a);
    carom_sphere_id a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 15, 10, 10, -1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1)
        CHECK_NEAR(rec_a.c[0].impulse, 1.5, 1e-13);
    CHECK_VEC(get(w, a).velocity, -0.5, 0, 0, 1e-14);
    CHECK_VEC(get(w, b).velocity, 0.5, 0, 0, 1e-14);
    carom_world_free(w);

    /* Oblique, masses 1 and 3, e = 0.7: normal relative speed scaled by
     * -e, tangential velocities and momentum kept. */
    def.restitution = 0.7;
    w = make(def, &rec_a);
    double va0[3] = {2, 0.5, -0.2}, vb0[3] = {-1, 0, 0.3};
    a = add(w, 5, 10, 10, va0[0], va0[1], va0[2], 0.5, 1.0);
    b = add(w, 9, 10.8, 10.2, vb0[0], vb0[1], vb0[2], 0.7, 3.0);
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(sphere_contacts(&rec_a) == 1);
    const carom_contact *c = nth_sphere_contact(&rec_a, 0);
    if (c) {
        double n[3];
        double sg = c->i == a ? 1.0 : -1.0;
        for (int k = 0; k < 3; k++)
            n[k] = sg * c->normal[k]; /* from a to b */
        const double *va = c->velocity_after[c->i == a ? 0 : 1];
        const double *vb = c->velocity_after[c->i == a ? 1 : 0];
        double vn0 = 0, vn1 = 0;
        for (int k = 0; k < 3; k++) {
            vn0 += (vb0[k] - va0[k]) * n[k];
            vn1 += (vb[k] - va[k]) * n[k];
        }
        CHECK(vn0 < 0);
        CHECK_NEAR(vn1, -0.7 * vn0, 1e-13);
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(va[k] + 3.0 * vb[k], va0[k] + 3.0 * vb0[k], 1e-13);
        /* the velocity changes are along n: tangential parts kept */
        double pa = 0, pb = 0, dva_n = 0, dvb_n = 0;
        for (int k = 0; k < 3; k++) {
            dva_n += (va[k] - va0[k]) * n[k];
            dvb_n += (vb[k] - vb0[k]) * n[k];
        }
        for (int k = 0; k < 3; k++) {
            double ra = (va[k] - va0[k]) - dva_n * n[k];
            double rb = (vb[k] - vb0[k]) - dvb_n * n[k];
            pa += ra * ra;
            pb += rb * rb;
        }
        CHECK(pa < 1e-26 && pb < 1e-26);
        /* impulse = mu (1 + e) |vn| with mu = 3/4 */
        CHECK_NEAR(c->impulse, 0.75 * 1.7 * -vn0, 1e-13);
    }
    carom_world_free(w);

    /* Below restitution_min_speed contacts are elastic, and every contact
     * separates at least at restitution_min_speed: approaching at 2e-4
     * with a minimum of 1e-3, they separate at 1e-3 (not 2e-4 or 1e-4). */
    def.restitution = 0.5;
    def.restitution_min_speed = 1e-3;
    w = make(def, &rec_a);
    a = add(w, 9, 10, 10, 1e-4, 0, 0, 0.5, 1.0);
    b = add(w, 11, 10, 10, -1e-4, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1e4));
    CHECK(rec_a.count == 1);
    CHECK_REL(get(w, a).velocity[0], -5e-4, 1e-12);
    CHECK_REL(get(w, b).velocity[0], 5e-4, 1e-12);
    carom_world_free(w);
    /* Above it, e applies: 2e-3 -> 1.4e-3 with e = 0.7. */
    def.restitution = 0.7;
    w = make(def, &rec_a);
    a = add(w, 9, 10, 10, 1e-3, 0, 0, 0.5, 1.0);
    b = add(w, 11, 10, 10, -1e-3, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1e3));
    CHECK(rec_a.count == 1);
    CHECK_REL(get(w, a).velocity[0], -7e-4, 1e-12);
    CHECK_REL(get(w, b).velocity[0], 7e-4, 1e-12);
    carom_world_free(w);
    /* With the default minimum (1e-6), an elastic pair meeting at 2e-9
     * separates at 1e-6. */
    w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    a = add(w, 9, 10, 10, 1e-9, 0, 0, 0.5, 1.0);
    b = add(w, 11, 10, 10, -1e-9, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 5e8 + 1e6)); /* contact at 5e8 */
    CHECK(rec_a.count == 1);
    CHECK_REL(get(w, b).velocity[0] - get(w, a).velocity[0], 1e-6, 1e-9);
    carom_world_free(w);

    /* Wall restitution: 2 -> -1 with e = 0.5. */
    def = box_def(3, 10, 10, 10, CAROM_BOUNDARY_WALLS);
    def.wall_restitution = 0.5;
    w = make(def, &rec_a);
    a = add(w, 5, 5, 5, 2, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1) {
        CHECK_NEAR(rec_a.c[0].time, 2.25, 1e-14);
        CHECK_NEAR(rec_a.c[0].impulse, 3.0, 1e-13);
    }
    CHECK_VEC(get(w, a).velocity, -1, 0, 0, 1e-14);
    CHECK_VEC(get(w, a).position, 9.5 - 0.75, 5, 5, 1e-13);
    carom_world_free(w);
}

/* Spheres resting under gravity (on the floor, on an immovable sphere) and
 * inelastic bounces dying out: every contact separates at least at
 * restitution_min_speed, so time keeps moving with finitely many events
 * and the sphere stays where it rests (within v^2 / 2g). */
static void test_resting(void)
{
    carom_world_def def = box_def(2, 10, 10, 0, CAROM_BOUNDARY_WALLS);
    def.gravity[1] = -1.0;
    def.restitution_min_speed = 1e-3;
    carom_world *w = make(def, NULL);
    carom_sphere_id a = add(w, 5, 0.5, 0, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 2.0));
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.wall_hits >= 900 && st.wall_hits <= 1100); /* one per 2 v / g = 2e-3 */
    CHECK(get(w, a).position[1] >= 0.5 - 1e-9 && get(w, a).position[1] <= 0.5 + 1e-6);
    CHECK_NEAR(get(w, a).position[0], 5.0, 0.0);
    carom_world_free(w);

    /* On top of an immovable sphere. */
    carom_world_def d3 = box_def(3, 10, 10, 10, CAROM_BOUNDARY_WALLS);
    d3.gravity[1] = -1.0;
    d3.restitution_min_speed = 1e-3;
    w = make(d3, NULL);
    a = add(w, 5, 6, 5, 0, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 5, 5, 5, 0, 0, 0, 0.5, INFINITY);
    CHECK_OK(carom_world_advance_to(w, 2.0));
    carom_world_get_stats(w, &st);
    CHECK(st.collisions >= 900 && st.collisions <= 1100);
    carom_sphere_state sa = get(w, a);
    CHECK(sa.position[1] >= 6.0 - 1e-9 && sa.position[1] <= 6.0 + 1e-6);
    CHECK(fabs(sa.position[0] - 5.0) < 1e-9 && fabs(sa.position[2] - 5.0) < 1e-9);
    CHECK_VEC(get(w, b).position, 5, 5, 5, 0.0);
    carom_world_free(w);

    /* Inelastic bounces on the floor (e = 0.5) from height 5: the bounce
     * heights shrink geometrically until the minimum speed, then it keeps
     * hopping at that speed: no collapse into infinitely many events. */
    def.wall_restitution = 0.5;
    w = make(def, NULL);
    a = add(w, 5, 5, 0, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 20.0));
    carom_world_get_stats(w, &st);
    CHECK(st.wall_hits > 10 && st.wall_hits < 20000);
    CHECK(get(w, a).position[1] <= 0.5 + 1e-6);
    CHECK(carom_world_kinetic_energy(w) <= 0.5 * 1e-6 + 1e-15);
    carom_world_free(w);
}

/* ---- small periodic boxes (fewer than 3 cells on an axis) ------------------ */

static void test_small_periodic_box(void)
{
    /* Periodic x of length 2.2 (2 cells of contact distance 1). Sphere 0 at
     * x = 0.5 moves left and meets sphere 1 (x = 1.6, at rest) through the
     * boundary at t = 0.1; the two then take turns, a contact every 0.2. */
    carom_world_def def = box_def(3, 2.2, 10, 10, CAROM_BOUNDARY_WALLS);
    def.boundary[0] = CAROM_BOUNDARY_PERIODIC;
    carom_world *w = make(def, &rec_a);
    add(w, 0.5, 5, 5, -1, 0, 0, 0.5, 1.0);
    add(w, 1.6, 5, 5, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(rec_a.count == 5);
    for (int k = 0; k < rec_a.count && k < 5; k++) {
        CHECK_NEAR(rec_a.c[k].time, 0.1 + 0.2 * k, 1e-13);
        CHECK_NEAR(fabs(rec_a.c[k].normal[0]), 1.0, 1e-12);
    }
    carom_world_free(w);

    /* A periodic box shorter than two contact distances is refused; the
     * message names the largest sphere. */
    def = box_def(3, 3.9, 10, 10, CAROM_BOUNDARY_PERIODIC);
    w = make(def, NULL);
    add(w, 0.5, 5, 5, 0, 0, 0, 0.4, 1.0);
    add(w, 2.5, 5, 5, 0, 0, 0, 1.0, 1.0);
    add(w, 2.5, 2, 5, 0, 0, 0, 0.4, 1.0);
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_BOX_TOO_SMALL);
    CHECK(strstr(carom_world_error_message(w), "sphere 1)") != NULL);
    carom_world_free(w);

    /* A gas of 8 spheres (a 2x2x2 lattice of spacing 1.25) in a periodic
     * 2.5^3 box: energy kept, no overlap with any image, over many
     * collisions. */
    def = box_def(3, 2.5, 2.5, 2.5, CAROM_BOUNDARY_PERIODIC);
    w = make(def, NULL);
    for (int i = 0; i < 8; i++)
        add(w, 0.3 + 1.25 * (i & 1), 0.4 + 1.25 * ((i >> 1) & 1), 0.5 + 1.25 * (i >> 2),
            sin(1.0 + i), cos(2.0 * i), sin(3.0 * i + 0.5), 0.5, 1.0 + 0.1 * i);
    double ke0 = carom_world_kinetic_energy(w);
    CHECK_OK(carom_world_advance_to(w, 200.0));
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.collisions > 1000);
    CHECK_NEAR(carom_world_kinetic_energy(w) / ke0, 1.0, 1e-10);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    CHECK(st.max_overlap < 1e-9);
    carom_world_free(w);
}

/* ---- a big sphere among small ones (kept out of the grid) ----------------- */

static void test_big_sphere_periodic(void)
{
    /* 2D periodic 60 x 60: 400 disks of radius 0.5 on a square lattice and
     * a heavy disk of radius 6 crossing the box fast, through the
     * boundary several times. Energy kept, no overlap with any image, and
     * the big disk does meet the small ones. */
    carom_world *w = make(box_def(2, 60, 60, 1, CAROM_BOUNDARY_PERIODIC), &rec_a);
    for (int i = 0; i < 400; i++) {
        double x = 1.5 + 3.0 * (i % 20), y = 1.5 + 3.0 * (i / 20);
        if (fabs(x - 30.0) < 8.0 && fabs(y - 30.0) < 8.0)
            continue; /* room for the big one */
        add(w, x, y, 0, sin(0.7 * i), cos(1.3 * i), 0, 0.5, 1.0);
    }
    carom_sphere_id big = add(w, 30, 30, 0, 17.0, 9.0, 0, 6.0, 50.0);
    double ke0 = carom_world_kinetic_energy(w);
    CHECK_OK(carom_world_advance_to(w, 20.0));
    int with_big = 0;
    for (int k = 0; k < rec_a.count && k < MAX_RECORDED; k++)
        with_big += rec_a.c[k].i == big || rec_a.c[k].j == big;
    CHECK(with_big > 100);
    CHECK_NEAR(carom_world_kinetic_energy(w) / ke0, 1.0, 1e-10);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.max_overlap < 1e-9);
    carom_world_free(w);
}

/* ---- the contact callback -------------------------------------------------- */

static void hook_stop_both(recorder *r, carom_contact *c)
{
    if (c->kind != CAROM_CONTACT_SPHERE)
        return;
    r->hook_calls++;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 3; k++)
            c->velocity_after[s][k] = 0.0;
}

/* Sends the sphere along +y at its first wall contact only (doing it at
 * the y-high wall too would push it into that wall forever). */
static void hook_wall_redirect(recorder *r, carom_contact *c)
{
    if (c->kind != CAROM_CONTACT_WALL || r->hook_calls > 0)
        return;
    r->hook_calls++;
    c->velocity_after[0][0] = 0.0;
    c->velocity_after[0][1] = 1.0;
    c->velocity_after[0][2] = 0.0;
}

/* A misbehaving callback: keeps every sphere moving into what it met. */
static void hook_push_back_in(recorder *r, carom_contact *c)
{
    r->hook_calls++;
    /* The normal points from i towards j (or the wall). */
    for (int k = 0; k < 3; k++) {
        c->velocity_after[0][k] = 0.5 * c->normal[k];
        c->velocity_after[1][k] = -0.5 * c->normal[k];
    }
}

static void hook_stop_first(recorder *r, carom_contact *c)
{
    r->hook_calls++;
    for (int k = 0; k < 3; k++)
        c->velocity_after[0][k] = 0.0;
}

static void test_callback(void)
{
    /* Stop both at the first contact: they stay touching at rest. */
    carom_world *w = make(box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    rec_a.hook = hook_stop_both;
    carom_sphere_id a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 15, 10, 10, -1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 10.0));
    CHECK(rec_a.count == 1 && rec_a.hook_calls == 1);
    CHECK_VEC(get(w, a).position, 9.5, 10, 10, 1e-13);
    CHECK_VEC(get(w, b).position, 10.5, 10, 10, 1e-13);
    CHECK_VEC(get(w, a).velocity, 0, 0, 0, 0.0);
    CHECK_NEAR(carom_world_kinetic_energy(w), 0.0, 0.0);
    carom_world_free(w);

    /* Redirect at a wall: from (5,5,5) moving +x, hits x-high at 4.5,
     * then moves +y at 1: at t = 6.5 it is at (9.5, 7, 5). */
    w = make(box_def(3, 10, 10, 10, CAROM_BOUNDARY_WALLS), &rec_a);
    rec_a.hook = hook_wall_redirect;
    a = add(w, 5, 5, 5, 1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 6.5));
    CHECK(rec_a.count == 1 && rec_a.hook_calls == 1);
    CHECK_VEC(get(w, a).position, 9.5, 7, 5, 1e-13);
    CHECK_VEC(get(w, a).velocity, 0, 1, 0, 0.0);
    /* and next it hits y-high at 6.5 + 2.5 */
    CHECK_OK(carom_world_advance_to(w, 10.0));
    CHECK(rec_a.count == 2);
    if (rec_a.count >= 2)
        CHECK_NEAR(rec_a.c[1].time, 9.0, 1e-13);
    carom_world_free(w);

    /* The redirected sphere's new path is predicted: stop the first
     * sphere of the first contact, the other keeps going and the stopped
     * one is then hit by a third. */
    w = make(box_def(3, 30, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    rec_a.hook = hook_stop_first;
    a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    b = add(w, 8, 10, 10, 0, 0, 0, 0.5, 1.0); /* contact at t = 2 */
    CHECK_OK(carom_world_advance_to(w, 3.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count == 1) {
        const carom_contact *c = &rec_a.c[0];
        /* elastic result: the one stopped by the hook is c->i */
        carom_sphere_state si = get(w, c->i), sj = get(w, c->j);
        CHECK_VEC(si.velocity, 0, 0, 0, 0.0);
        CHECK_NEAR(sj.velocity[0], c->i == a ? 1.0 : 0.0, 1e-14);
    }
    carom_world_free(w);

    /* A callback that sends spheres back into the wall or into each other
     * cannot make the contact repeat at the same instant forever: they
     * separate at restitution_min_speed instead, and time goes on. */
    {
        carom_world_def pd = box_def(3, 10, 10, 10, CAROM_BOUNDARY_WALLS);
        pd.restitution_min_speed = 1e-3;
        w = make(pd, &rec_a);
        rec_a.hook = hook_push_back_in;
        a = add(w, 5, 5, 5, 1, 0, 0, 0.5, 1.0);
        b = add(w, 5, 8, 5, 0, 1, 0, 0.5, 1.0);
        CHECK_OK(carom_world_advance_to(w, 20.0));
        CHECK(carom_world_time(w) == 20.0);
        CHECK(rec_a.hook_calls >= 2);
        /* a left the x-high wall at 1e-3 after t = 4.5 */
        CHECK_NEAR(get(w, a).velocity[0], -1e-3, 1e-15);
        CHECK_NEAR(get(w, a).position[0], 9.5 - 1e-3 * 15.5, 1e-12);
        carom_world_free(w);
    }

    /* The callback in report-only mode: changing velocities there starts
     * new trajectories too. a passes into b; the hook stops sphere i. */
    carom_world_def def = box_def(3, 20, 20, 20, CAROM_BOUNDARY_WALLS);
    def.response = CAROM_RESPONSE_NONE;
    w = make(def, &rec_a);
    rec_a.hook = hook_stop_first;
    a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    b = add(w, 15, 10, 10, -1, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 8.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count == 1) {
        const carom_contact *c = &rec_a.c[0];
        CHECK_NEAR(c->time, 4.5, 1e-13);
        CHECK(c->impulse == 0.0);
        carom_sphere_state si = get(w, c->i), sj = get(w, c->j);
        CHECK_VEC(si.velocity, 0, 0, 0, 0.0);
        CHECK_NEAR(si.position[0], c->i == a ? 9.5 : 10.5, 1e-13);
        /* the other passes through unhindered */
        CHECK_NEAR(sj.position[0], c->i == a ? 15.0 - 8.0 : 5.0 + 8.0, 1e-13);
    }
    carom_world_free(w);
}

/* ---- changes between advances ------------------------------------------ */

static void test_set_velocity(void)
{
    /* a would hit b (at rest) at t = 9; stop a at 8.9: no collision. */
    carom_world *w = make(box_def(3, 30, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 15, 10, 10, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 8.9));
    const double zero[3] = {0, 0, 0};
    CHECK_OK(carom_world_set_velocity(w, a, zero));
    CHECK_OK(carom_world_advance_to(w, 20.0));
    CHECK(rec_a.count == 0);
    CHECK_VEC(get(w, a).position, 13.9, 10, 10, 1e-12);
    CHECK_VEC(get(w, b).position, 15, 10, 10, 0.0);
    carom_world_free(w);

    /* Both moving, contact due at 4.5; at 4.4 stop a (the other keeps
     * coming: contact at 4.6 instead), or stop b (contact at 4.6), or
     * stop both (none). */
    for (int which = 0; which < 3; which++) {
        w = make(box_def(3, 30, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
        a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
        b = add(w, 15, 10, 10, -1, 0, 0, 0.5, 1.0);
        CHECK_OK(carom_world_advance_to(w, 4.4));
        if (which != 1)
            CHECK_OK(carom_world_set_velocity(w, a, zero));
        if (which != 0)
            CHECK_OK(carom_world_set_velocity(w, b, zero));
        CHECK_OK(carom_world_advance_to(w, 6.0));
        if (which == 2) {
            CHECK(rec_a.count == 0);
        } else {
            CHECK(rec_a.count == 1);
            if (rec_a.count >= 1)
                CHECK_NEAR(rec_a.c[0].time, 4.6, 1e-12);
        }
        carom_world_free(w);
    }

    /* From rest, set a moving at t = 1: contact at 1 + 4.5 = 5.5. */
    w = make(box_def(3, 30, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    a = add(w, 5, 10, 10, 0, 0, 0, 0.5, 1.0);
    b = add(w, 15, 10, 10, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    const double v2[3] = {2, 0, 0};
    CHECK_OK(carom_world_set_velocity(w, a, v2));
    CHECK_OK(carom_world_advance_to(w, 6.0));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1)
        CHECK_NEAR(rec_a.c[0].time, 5.5, 1e-13);
    CHECK_VEC(get(w, b).velocity, 2, 0, 0, 1e-14);
    /* Redirect towards another sphere, after collisions happened. */
    const double up[3] = {0, 1, 0};
    carom_sphere_id c = add(w, 14.5, 15, 10, 0, 0, 0, 0.5, 1.0); /* added at t = 6 */
    CHECK_OK(carom_world_set_velocity(w, a, up));                /* a at rest at (14, 10, 10) */
    CHECK_OK(carom_world_advance_to(w, 12.0));
    const carom_contact *k = nth_sphere_contact(&rec_a, 1);
    CHECK(k && is_pair(k, a, c));
    if (k)
        CHECK_NEAR(k->time, 6.0 + 5.0 - sqrt(1.0 - 0.25), 1e-12);
    /* Errors: stale id, non-finite velocity. */
    CHECK(carom_world_set_velocity(w, 99, up) == CAROM_ERR_NO_SUCH_SPHERE);
    const double bad[3] = {NAN, 0, 0};
    CHECK(carom_world_set_velocity(w, a, bad) == CAROM_ERR_INVALID_ARGUMENT);
    carom_world_free(w);
}

static void test_add_remove(void)
{
    /* a heading for b; remove b at t = 2: a flies on untouched. */
    carom_world *w = make(box_def(3, 30, 20, 20, CAROM_BOUNDARY_WALLS), &rec_a);
    carom_sphere_id a = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 15, 10, 10, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK_OK(carom_world_remove_sphere(w, b));
    CHECK(!carom_world_sphere_exists(w, b));
    CHECK(carom_world_sphere_count(w) == 1 && carom_world_sphere_capacity(w) == 2);
    carom_sphere_state st;
    CHECK(carom_world_get_sphere(w, b, &st) == CAROM_ERR_NO_SUCH_SPHERE);
    CHECK(carom_world_remove_sphere(w, b) == CAROM_ERR_NO_SUCH_SPHERE);
    CHECK_OK(carom_world_advance_to(w, 20.0));
    CHECK(rec_a.count == 0);
    CHECK_VEC(get(w, a).position, 25, 10, 10, 1e-12);
    /* Add c in a's way (a at 25 moving +x; c at 28 moving -x): a new id,
     * contact after the gap of 2 at closing speed 2: t = 21. */
    carom_sphere_id c = add(w, 28, 10, 10, -1, 0, 0, 0.5, 1.0);
    CHECK(c == 2);
    /* Adding an overlapping sphere fails and leaves the world unchanged. */
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = 25.5;
    d.position[1] = 10.2;
    d.position[2] = 10;
    carom_sphere_id bad_id = 77;
    CHECK(carom_world_add_sphere(w, &d, &bad_id) == CAROM_ERR_OVERLAP);
    CHECK(bad_id == 77);
    CHECK(strlen(carom_world_error_message(w)) > 0);
    CHECK(carom_world_sphere_count(w) == 2);
    /* Outside the walls fails too. */
    d.position[0] = 29.8;
    d.position[1] = 2;
    CHECK(carom_world_add_sphere(w, &d, NULL) == CAROM_ERR_OUTSIDE_BOX);
    CHECK(carom_world_sphere_count(w) == 2);
    CHECK_OK(carom_world_advance_to(w, 21.5));
    CHECK(rec_a.count == 1);
    if (rec_a.count >= 1) {
        CHECK(is_pair(&rec_a.c[0], a, c));
        CHECK_NEAR(rec_a.c[0].time, 21.0, 1e-12);
    }
    /* A bigger sphere than any so far (the grid is rebuilt): a (now at
     * 25.5 moving -x) runs into it. Centre at 20, radius 2: contact at
     * x = 22.5, i.e. at t = 21.5 + 3. */
    carom_sphere_id big = add(w, 20, 10, 10, 0, 0, 0, 2.0, 10.0);
    CHECK_OK(carom_world_advance_to(w, 25.0));
    const carom_contact *k = nth_sphere_contact(&rec_a, 1);
    CHECK(k && is_pair(k, a, big));
    if (k)
        CHECK_NEAR(k->time, 24.5, 1e-12);
    /* Remove everything, then add again. */
    CHECK_OK(carom_world_remove_sphere(w, a));
    CHECK_OK(carom_world_remove_sphere(w, c));
    CHECK_OK(carom_world_remove_sphere(w, big));
    CHECK(carom_world_sphere_count(w) == 0);
    CHECK_OK(carom_world_advance_to(w, 30.0));
    carom_sphere_id e = add(w, 5, 10, 10, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id f = add(w, 10, 10, 10, 0, 0, 0, 0.5, 1.0);
    CHECK_OK(carom_world_advance_to(w, 35.0));
    k = nth_sphere_contact(&rec_a, 2);
    CHECK(k && is_pair(k, e, f));
    if (k)
        CHECK_NEAR(k->time, 34.0, 1e-12);
    carom_world_free(w);
}

/* ---- frame semantics ------------------------------------------------------ */

static void random_gas(carom_world *w, int n, const double L[3], int dim, uint64_t seed,
                       double radius)
{
    uint64_t s = seed;
    int placed = 0;
    double (*x)[3] = calloc((size_t)n, sizeof *x);
    while (placed < n) {
        double p[3] = {0, 0, 0}, v[3] = {0, 0, 0};
        for (int k = 0; k < dim; k++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            p[k] = L[k] * (double)(s >> 11) / 9007199254740992.0;
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            v[k] = 2.0 * ((double)(s >> 11) / 9007199254740992.0 - 0.5);
        }
        int ok = 1;
        for (int m = 0; m < placed && ok; m++) {
            double d2 = 0;
            for (int k = 0; k < dim; k++) {
                double d = fabs(p[k] - x[m][k]);
                d = fmin(d, L[k] - d);
                d2 += d * d;
            }
            ok = d2 > 4.0 * radius * radius * 1.01;
        }
        if (!ok)
            continue;
        memcpy(x[placed], p, sizeof p);
        add(w, p[0], p[1], p[2], v[0], v[1], v[2], radius, 1.0);
        placed++;
    }
    free(x);
}

static void test_frames(void)
{
    const double L[3] = {20, 20, 20};
    const int n = 100;
    carom_world *w = make(box_def(3, L[0], L[1], L[2], CAROM_BOUNDARY_PERIODIC), &rec_a);
    carom_world *u = make(box_def(3, L[0], L[1], L[2], CAROM_BOUNDARY_PERIODIC), &rec_b);
    random_gas(w, n, L, 3, 99, 0.5);
    random_gas(u, n, L, 3, 99, 0.5);
    carom_sphere_state prev[100];
    for (int i = 0; i < n; i++)
        prev[i] = get(w, (carom_sphere_id)i);
    const double dt = 0.1;
    int free_checked = 0;
    for (int f = 1; f <= 100; f++) {
        double t = f * dt;
        CHECK_OK(carom_world_advance_to(w, t));
        CHECK(carom_world_time(w) == t);
        for (int i = 0; i < n; i++) {
            carom_sphere_state s = get(w, (carom_sphere_id)i);
            for (int k = 0; k < 3; k++)
                CHECK(s.position[k] >= -1e-9 && s.position[k] <= L[k] + 1e-9);
            if (s.collisions == prev[i].collisions) {
                /* no event changed it: a straight flight (mod L) */
                for (int k = 0; k < 3; k++) {
                    double d = s.position[k] - prev[i].position[k] - prev[i].velocity[k] * dt;
                    d -= L[k] * round(d / L[k]);
                    CHECK(fabs(d) < 1e-12);
                    CHECK(s.velocity[k] == prev[i].velocity[k]);
                }
                free_checked++;
            }
            prev[i] = s;
        }
        CHECK(carom_world_max_overlap_now(w) <= 1e-12);
    }
    CHECK(free_checked > 5000);
    /* One advance straight to the end gives the same state (up to
     * round-off) and the same collisions. */
    CHECK_OK(carom_world_advance_to(u, 100 * dt));
    carom_stats sw, su;
    carom_world_get_stats(w, &sw);
    carom_world_get_stats(u, &su);
    CHECK(sw.collisions == su.collisions && sw.collisions > 10);
    for (int i = 0; i < n; i++) {
        carom_sphere_state a = get(w, (carom_sphere_id)i), b = get(u, (carom_sphere_id)i);
        for (int k = 0; k < 3; k++) {
            double d = a.position[k] - b.position[k];
            d -= L[k] * round(d / L[k]);
            CHECK(fabs(d) < 1e-8);
        }
    }
    carom_world_free(w);
    carom_world_free(u);

    /* step_events processes exactly the number asked for. */
    w = make(box_def(3, L[0], L[1], L[2], CAROM_BOUNDARY_PERIODIC), NULL);
    random_gas(w, n, L, 3, 7, 0.5);
    uint64_t done = 0;
    CHECK_OK(carom_world_step_events(w, 1000, &done));
    CHECK(done == 1000);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.events == 1000);
    double t1 = carom_world_time(w);
    CHECK(t1 > 0);
    /* advancing to an earlier time is refused */
    CHECK(carom_world_advance_to(w, t1 * 0.5) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK_OK(carom_world_advance_to(w, t1 + 1.0));
    carom_world_free(w);
}

/* ---- report-only response --------------------------------------------------- */

typedef struct expected_contact {
    double time;
    uint32_t i, j; /* i < j */
} expected_contact;

static int cmp_contact(const void *pa, const void *pb)
{
    const expected_contact *a = pa, *b = pb;
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    if (a->j != b->j)
        return a->j < b->j ? -1 : 1;
    return (a->time > b->time) - (a->time < b->time);
}

/* Every time in (0, tmax] (or at 0 if approaching) at which a pair of
 * straight-moving spheres comes into contact while approaching, over the
 * periodic images: brute force in long double. */
static int expected_reports(int n, int dim, const double L[3], int periodic,
                            const carom_sphere_state *s, double tmax, expected_contact *out,
                            int max_out)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int range[3] = {0, 0, 0};
            if (periodic)
                for (int k = 0; k < dim; k++)
                    range[k] = (int)(fabs(s[i].velocity[k] - s[j].velocity[k]) * tmax / L[k]) + 2;
            double sigma = s[i].radius + s[j].radius;
            for (int nx = -range[0]; nx <= range[0]; nx++)
                for (int ny = -range[1]; ny <= range[1]; ny++)
                    for (int nz = -range[2]; nz <= range[2]; nz++) {
                        int m[3] = {nx, ny, nz};
                        long double rr = 0, rv = 0, vv = 0;
                        for (int k = 0; k < 3; k++) {
                            long double r = (long double)s[j].position[k] - s[i].position[k] +
                                            (long double)m[k] * L[k];
                            long double v = (long double)s[j].velocity[k] - s[i].velocity[k];
                            rr += r * r;
                            rv += r * v;
                            vv += v * v;
                        }
                        long double c = rr - (long double)sigma * sigma;
                        long double disc = rv * rv - vv * c;
                        if (rv >= 0 || disc <= 0 || c < 0)
                            continue;
                        long double t = c / (-rv + sqrtl(disc));
                        if (t <= tmax && count < max_out) {
                            out[count].time = (double)t;
                            out[count].i = (uint32_t)i;
                            out[count].j = (uint32_t)j;
                            count++;
                        }
                    }
        }
    return count;
}

static void compare_reports(const recorder *r, expected_contact *exp, int nexp, double tol)
{
    int n = sphere_contacts(r);
    CHECK(n == nexp);
    if (n > MAX_RECORDED)
        return;
    expected_contact *got = malloc(sizeof *got * (size_t)(n + 1));
    for (int k = 0; k < n; k++) {
        const carom_contact *c = nth_sphere_contact(r, k);
        got[k].time = c->time;
        got[k].i = c->i < c->j ? c->i : c->j;
        got[k].j = c->i < c->j ? c->j : c->i;
        CHECK(c->impulse == 0.0);
    }
    qsort(got, (size_t)n, sizeof *got, cmp_contact);
    qsort(exp, (size_t)nexp, sizeof *exp, cmp_contact);
    if (n != nexp) {
        /* show the first difference */
        int a = 0, b = 0;
        while (a < n && b < nexp) {
            int c = cmp_contact(&got[a], &exp[b]);
            if (got[a].i == exp[b].i && got[a].j == exp[b].j &&
                fabs(got[a].time - exp[b].time) <= tol * (1.0 + exp[b].time)) {
                a++;
                b++;
            } else {
                if (c < 0)
                    fprintf(stderr, "reported but not expected: (%u,%u) at %.17g (previous report (%u,%u) at %.17g)\n",
                            (unsigned)got[a].i, (unsigned)got[a].j, got[a].time, a ? (unsigned)got[a-1].i : 0u, a ? (unsigned)got[a-1].j : 0u, a ? got[a-1].time : 0.0);
                else
                    fprintf(stderr, "expected but not reported: (%u,%u) at %.17g\n",
                            (unsigned)exp[b].i, (unsigned)exp[b].j, exp[b].time);
                break;
            }
        }
        free(got);
        return;
    }
    for (int k = 0; k < n; k++) {
        if (got[k].i != exp[k].i || got[k].j != exp[k].j ||
            !(fabs(got[k].time - exp[k].time) <= tol * (1.0 + exp[k].time))) {
            fprintf(stderr, "report %d: got (%u,%u) at %.17g, expected (%u,%u) at %.17g\n", k,
                    (unsigned)got[k].i, (unsigned)got[k].j, got[k].time, (unsigned)exp[k].i,
                    (unsigned)exp[k].j, exp[k].time);
            check_failures++;
            break;
        }
    }
    free(got);
}

static void test_report_only(void)
{
    static expected_contact exp[MAX_RECORDED];
    carom_world_def def = box_def(3, 20, 10, 10, CAROM_BOUNDARY_PERIODIC);
    def.response = CAROM_RESPONSE_NONE;

    /* Head-on through each other in a periodic box: a new contact at
     * 4.5 + 10 k, each reported once, none on separation. */
    carom_world *w = make(def, &rec_a);
    carom_sphere_id a = add(w, 5, 5, 5, 1, 0, 0, 0.5, 1.0);
    carom_sphere_id b = add(w, 15, 5, 5, -1, 0, 0, 0.5, 1.0);
    for (int f = 1; f <= 400; f++) /* many frames: re-predictions must not repeat reports */
        CHECK_OK(carom_world_advance_to(w, 0.1 * f));
    CHECK(rec_a.count == 4);
    for (int k = 0; k < rec_a.count && k < 4; k++) {
        CHECK(is_pair(&rec_a.c[k], a, b));
        CHECK_NEAR(rec_a.c[k].time, 4.5 + 10.0 * k, 1e-11);
    }
    CHECK_VEC(get(w, a).position, 5, 5, 5, 1e-11);
    CHECK_VEC(get(w, a).velocity, 1, 0, 0, 0.0);
    carom_stats st;
    carom_world_get_stats(w, &st);
    CHECK(st.collisions == 4 && st.virial == 0.0);
    carom_world_free(w);

    /* Three spheres meeting at the same instant (t = 6): three reports,
     * one per pair, and nothing more while they overlap and separate. */
    carom_sphere_id id[3];
    w = triangle_world(CAROM_RESPONSE_NONE, &rec_a, id);
    CHECK_OK(carom_world_advance_to(w, 6.0));
    CHECK_OK(carom_world_advance_to(w, 6.0)); /* again at the same instant */
    CHECK_OK(carom_world_advance_to(w, 12.0));
    CHECK(rec_a.count == 3);
    int seen[3] = {0, 0, 0};
    for (int k = 0; k < rec_a.count && k < 3; k++) {
        CHECK(rec_a.c[k].time == 6.0);
        for (int p = 0; p < 3; p++)
            if (is_pair(&rec_a.c[k], id[p], id[(p + 1) % 3]))
                seen[p]++;
    }
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
    CHECK_VEC(get(w, id[0]).position, 32, 30, 0, 1e-12);
    CHECK_VEC(get(w, id[1]).position, 30, 27, 0, 1e-12);
    carom_world_free(w);

    /* A third sphere passing through a pair that already overlaps, with
     * two contacts of one sphere at the same instant. */
    carom_world_def d2 = box_def(2, 20, 20, 0, CAROM_BOUNDARY_PERIODIC);
    d2.response = CAROM_RESPONSE_NONE;
    w = make(d2, &rec_a);
    a = add(w, 10, 10, 0, 0, 0, 0, 1.0, 1.0);
    b = add(w, 10, 2, 0, 0, 1, 0, 1.0, 1.0);
    carom_sphere_id c = add(w, 2, 10, 0, 1, 0, 0, 1.0, 1.0);
    CHECK_OK(carom_world_advance_to(w, 20.0));
    CHECK(rec_a.count == 3);
    if (rec_a.count == 3) {
        CHECK(rec_a.c[0].time == 6.0 && rec_a.c[1].time == 6.0);
        CHECK((is_pair(&rec_a.c[0], a, b) && is_pair(&rec_a.c[1], a, c)) ||
              (is_pair(&rec_a.c[0], a, c) && is_pair(&rec_a.c[1], a, b)));
        CHECK(is_pair(&rec_a.c[2], b, c));
        CHECK_NEAR(rec_a.c[2].time, 8.0 - sqrt(2.0), 1e-12);
    }
    carom_world_free(w);

    /* Twelve spheres converging on a central one, all touching it at
     * t = 0.5 exactly (integer Pythagorean geometry), and meeting each
     * other on the way: compare with the brute force. */
    d2 = box_def(2, 40, 40, 0, CAROM_BOUNDARY_PERIODIC);
    d2.response = CAROM_RESPONSE_NONE;
    w = make(d2, &rec_a);
    const int pts[12][2] = {{5, 0},  {0, 5},  {-5, 0}, {0, -5}, {3, 4},   {4, 3},
                            {-3, 4}, {-4, 3}, {3, -4}, {4, -3}, {-3, -4}, {-4, -3}};
    add(w, 20, 20, 0, 0, 0, 0, 2.0, 1.0);
    for (int k = 0; k < 12; k++)
        add(w, 20 + pts[k][0], 20 + pts[k][1], 0, -pts[k][0], -pts[k][1], 0, 0.5, 1.0);
    carom_sphere_state s0[13];
    for (int k = 0; k < 13; k++)
        s0[k] = get(w, (carom_sphere_id)k);
    CHECK_OK(carom_world_advance_to(w, 1.5));
    const double L40[3] = {40, 40, 1};
    int ne = expected_reports(13, 2, L40, 1, s0, 1.5, exp, MAX_RECORDED);
    CHECK(ne == 12 + 66);
    compare_reports(&rec_a, exp, ne, 1e-12);
    int at_half = 0;
    for (int k = 0; k < rec_a.count && k < MAX_RECORDED; k++)
        if (rec_a.c[k].time == 0.5 && (rec_a.c[k].i == 0 || rec_a.c[k].j == 0))
            at_half++;
    CHECK(at_half == 12);
    carom_world_free(w);

    /* Under gravity through an immovable sphere (the quartic), many frames:
     * in from above at sqrt(8); through the floor bounce (new velocity) in
     * again from below at 2 sqrt(15) - sqrt(12); nothing else. */
    carom_world_def dg = box_def(3, 10, 10, 10, CAROM_BOUNDARY_WALLS);
    dg.gravity[1] = -1.0;
    dg.response = CAROM_RESPONSE_NONE;
    w = make(dg, &rec_a);
    a = add(w, 5, 8, 5, 0, 0, 0, 0.5, 1.0);
    b = add(w, 5, 3, 5, 0, 0, 0, 0.5, INFINITY);
    for (int f = 1; f <= 200; f++)
        CHECK_OK(carom_world_advance_to(w, 0.05 * f));
    CHECK(sphere_contacts(&rec_a) == 2);
    if (sphere_contacts(&rec_a) == 2) {
        CHECK_REL(nth_sphere_contact(&rec_a, 0)->time, sqrt(8.0), 1e-12);
        CHECK_REL(nth_sphere_contact(&rec_a, 1)->time, 2.0 * sqrt(15.0) - sqrt(12.0), 1e-12);
    }
    carom_world_free(w);

    /* Random gases, 2D and 3D, periodic: every entering contact of every
     * pair reported exactly once. */
    for (int dim = 2; dim <= 3; dim++) {
        double L[3] = {8, 9, 8.5};
        if (dim == 2) {
            L[0] = 12;
            L[1] = 14;
            L[2] = 1;
        }
        carom_world_def d3 = box_def(dim, L[0], L[1], L[2], CAROM_BOUNDARY_PERIODIC);
        d3.response = CAROM_RESPONSE_NONE;
        w = make(d3, &rec_a);
        int n = dim == 2 ? 40 : 60;
        random_gas(w, n, L, dim, 1000 + (uint64_t)dim, 0.5);
        carom_sphere_state s[60];
        for (int k = 0; k < n; k++)
            s[k] = get(w, (carom_sphere_id)k);
        for (int f = 1; f <= 20; f++)
            CHECK_OK(carom_world_advance_to(w, 1.0 * f));
        ne = expected_reports(n, dim, L, 1, s, 20.0, exp, MAX_RECORDED);
        CHECK(ne > 100 && ne < MAX_RECORDED);
        compare_reports(&rec_a, exp, ne, 1e-10);
        /* positions are untouched by the contacts */
        for (int k = 0; k < n; k++) {
            carom_sphere_state e = get(w, (carom_sphere_id)k);
            for (int m = 0; m < dim; m++) {
                double d = e.position[m] - (s[k].position[m] + 20.0 * s[k].velocity[m]);
                d -= L[m] * round(d / L[m]);
                CHECK(fabs(d) < 1e-11);
            }
        }
        carom_world_free(w);
    }
}

int main(void)
{
    RUN(test_head_on);
    RUN(test_oblique);
    RUN(test_grazing);
    RUN(test_touching);
    RUN(test_speeds);
    RUN(test_far_apart);
    RUN(test_no_tunnelling);
    RUN(test_walls);
    RUN(test_gravity_walls);
    RUN(test_periodic);
    RUN(test_simultaneous);
    RUN(test_infinite_mass);
    RUN(test_infinite_mass_gravity);
    RUN(test_far_fall);
    RUN(test_restitution);
    RUN(test_resting);
    RUN(test_callback);
    RUN(test_small_periodic_box);
    RUN(test_big_sphere_periodic);
    RUN(test_set_velocity);
    RUN(test_add_remove);
    RUN(test_frames);
    RUN(test_report_only);
    return CHECK_REPORT();
}
