/* A sphere added to a world that has run, too large for its grid, makes
 * the world build itself again at the next advance. That build checks
 * only the spheres added since, each against every other: in the box,
 * overlapping none. The spheres that were there come from the world's own
 * events and are not checked again, so a report-only world, whose spheres
 * pass through each other, takes a new sphere while some of its spheres
 * overlap. The large sphere itself is checked when it is added. */
#include <math.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

#define N 400
#define BOX 20.0
#define BIG 2.0 /* radius: four times the others', larger than the grid allows */

typedef struct contacts_with {
    carom_sphere_id id;
    long count;
} contacts_with;

static void count_contacts(void *user_data, carom_contact *c)
{
    contacts_with *w = user_data;
    if (c->kind == CAROM_CONTACT_SPHERE && (c->i == w->id || c->j == w->id))
        w->count++;
}

static carom_world *gas(carom_response response, carom_boundary boundary, contacts_with *seen)
{
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = BOX;
        s.boundary[k] = boundary;
    }
    CHECK_OK(carom_scene_random(&s, N, 0.5, 11, &e));
    CHECK_OK(carom_scene_maxwell_velocities(&s, 1.0, 5, &e));
    carom_world_def def = carom_world_default_def();
    def.response = response;
    def.on_contact = count_contacts;
    def.user_data = seen;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    if (!w)
        fprintf(stderr, "world: %s\n", e.message);
    carom_scene_free(&s);
    return w;
}

/* Distance from x to the nearest sphere's surface (periodic images on a
 * periodic box). */
static double clearance(const carom_world *w, const double x[3], int periodic)
{
    double least = INFINITY;
    for (carom_sphere_id i = 0; i < carom_world_sphere_capacity(w); i++) {
        if (!carom_world_sphere_exists(w, i))
            continue;
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, i, &st));
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = st.position[k] - x[k];
            if (periodic)
                d -= BOX * round(d / BOX);
            d2 += d * d;
        }
        if (sqrt(d2) - st.radius < least)
            least = sqrt(d2) - st.radius;
    }
    return least;
}

/* A place with room for a sphere of radius r (and a margin), looked for
 * on a coarse lattice inside the box. */
static int free_place(const carom_world *w, double r, int periodic, double x[3])
{
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++)
            for (int c = 0; c < 8; c++) {
                x[0] = r + 0.1 + a * (BOX - 2 * r - 0.2) / 7;
                x[1] = r + 0.1 + b * (BOX - 2 * r - 0.2) / 7;
                x[2] = r + 0.1 + c * (BOX - 2 * r - 0.2) / 7;
                if (clearance(w, x, periodic) > r + 0.05)
                    return 1;
            }
    return 0;
}

static carom_status add_big(carom_world *w, const double x[3], carom_sphere_id *id)
{
    carom_sphere_def d = carom_sphere_default_def();
    memcpy(d.position, x, sizeof d.position);
    d.velocity[0] = 0.5;
    d.radius = BIG;
    return carom_world_add_sphere(w, &d, id);
}

static void test_report_only_world_takes_a_big_sphere(void)
{
    contacts_with seen = {(carom_sphere_id)-1, 0};
    carom_world *w = gas(CAROM_RESPONSE_NONE, CAROM_BOUNDARY_PERIODIC, &seen);
    if (!w)
        return;
    CHECK_OK(carom_world_advance_to(w, 5.0));
    /* Report-only spheres have passed through each other. */
    CHECK(carom_world_max_overlap_now(w) > 0.01);
    double x[3];
    CHECK(free_place(w, BIG, 1, x));
    carom_sphere_id id;
    CHECK_OK(add_big(w, x, &id));
    seen.id = id;
    carom_stats before;
    carom_world_get_stats(w, &before);
    carom_status st = carom_world_advance_to(w, 8.0);
    CHECK(st == CAROM_OK);
    if (st != CAROM_OK)
        fprintf(stderr, "advance: %s\n", carom_world_error_message(w));
    carom_stats after;
    carom_world_get_stats(w, &after);
    CHECK(after.collisions > before.collisions);
    CHECK(seen.count > 0); /* the new sphere meets the gas */
    printf("report-only: %ld contacts with the new sphere\n", seen.count);
    carom_world_free(w);
}

static void test_elastic_world_takes_a_big_sphere(void)
{
    contacts_with seen = {(carom_sphere_id)-1, 0};
    carom_world *w = gas(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_WALLS, &seen);
    if (!w)
        return;
    CHECK_OK(carom_world_advance_to(w, 2.0));
    double x[3];
    CHECK(free_place(w, BIG, 0, x));
    carom_sphere_id id;
    CHECK_OK(add_big(w, x, &id));
    seen.id = id;
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(seen.count > 0);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

/* The new sphere is checked. One too large for the grid, at once:
 * overlapping a sphere of the gas or outside the walls, it is refused and
 * named. One added while the world waits to be built again, by the next
 * advance, which names it; removing it lets the world go on. */
static void test_new_sphere_is_checked(void)
{
    contacts_with seen = {(carom_sphere_id)-1, 0};
    carom_world *w = gas(CAROM_RESPONSE_ELASTIC, CAROM_BOUNDARY_WALLS, &seen);
    if (!w)
        return;
    CHECK_OK(carom_world_advance_to(w, 1.0));
    char name[32];
    carom_sphere_state s0;
    CHECK_OK(carom_world_get_sphere(w, 0, &s0));
    double x[3];
    for (int k = 0; k < 3; k++) /* inside the box, on top of sphere 0 */
        x[k] = fmin(fmax(s0.position[k], BIG), BOX - BIG);
    carom_sphere_id id;
    CHECK(add_big(w, x, &id) == CAROM_ERR_OVERLAP);
    snprintf(name, sizeof name, "%u", (unsigned)carom_world_sphere_capacity(w));
    CHECK(strstr(carom_world_error_message(w), name) != NULL);
    double out[3] = {BOX - 1.0, BOX / 2, BOX / 2}; /* through the wall */
    CHECK(add_big(w, out, &id) == CAROM_ERR_OUTSIDE_BOX);
    CHECK(carom_world_sphere_count(w) == N);
    /* A big sphere where there is room: the world builds itself again at
     * the next advance, and a small sphere added meanwhile on top of
     * sphere 0 is checked then. */
    CHECK(free_place(w, BIG, 0, x));
    CHECK_OK(add_big(w, x, &id));
    carom_sphere_def small = carom_sphere_default_def();
    CHECK_OK(carom_world_get_sphere(w, 0, &s0));
    memcpy(small.position, s0.position, sizeof small.position);
    small.position[0] += 0.5;
    carom_sphere_id late;
    CHECK_OK(carom_world_add_sphere(w, &small, &late));
    CHECK(carom_world_advance_to(w, 2.0) == CAROM_ERR_OVERLAP);
    snprintf(name, sizeof name, "%u", (unsigned)late);
    CHECK(strstr(carom_world_error_message(w), name) != NULL);
    CHECK(carom_world_time(w) == 1.0);
    CHECK_OK(carom_world_remove_sphere(w, late));
    CHECK_OK(carom_world_advance_to(w, 2.0));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

typedef struct pair_contacts {
    carom_sphere_id a, b;
    long count;    /* contacts of the pair a, b */
    long others;   /* every other sphere contact */
    double first;  /* time of the pair's first contact */
} pair_contacts;

static void count_pair(void *user_data, carom_contact *c)
{
    pair_contacts *p = user_data;
    if (c->kind != CAROM_CONTACT_SPHERE)
        return;
    if ((c->i == p->a && c->j == p->b) || (c->i == p->b && c->j == p->a)) {
        if (p->count++ == 0)
            p->first = c->time;
    } else {
        p->others++;
    }
}

/* A report-only world checks only the box, from the start and for a
 * sphere added later: overlapping spheres pass through each other, and a
 * pair is first reported when it comes into contact again after
 * separating. Along x in a periodic box of 20: a and b overlap by half a
 * diameter and approach at relative speed 2, pass through each other,
 * are apart from t = 0.75 and meet again through the box at t = 9.75. */
static void test_report_only_world_takes_overlapping_spheres(void)
{
    pair_contacts seen = {0, 1, 0, 0, 0.0};
    carom_world_def def = carom_world_default_def();
    def.response = CAROM_RESPONSE_NONE;
    def.on_contact = count_pair;
    def.user_data = &seen;
    for (int k = 0; k < 3; k++)
        def.box[k] = BOX;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w != NULL);
    if (!w)
        return;
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = 5.0;
    d.position[1] = d.position[2] = 10.0;
    d.velocity[0] = 1.0;
    CHECK_OK(carom_world_add_sphere(w, &d, &seen.a));
    d.position[0] = 5.5;
    d.velocity[0] = -1.0;
    CHECK_OK(carom_world_add_sphere(w, &d, &seen.b));
    CHECK_OK(carom_world_advance_to(w, 5.0));
    CHECK(seen.count == 0);
    /* Added on top of a still sphere of a running world. */
    carom_sphere_def still = carom_sphere_default_def();
    still.position[0] = still.position[1] = 2.0;
    still.position[2] = 10.0;
    carom_sphere_id c, on_c;
    CHECK_OK(carom_world_add_sphere(w, &still, &c));
    CHECK_OK(carom_world_advance_to(w, 6.0));
    still.position[0] += 0.3;
    CHECK_OK(carom_world_add_sphere(w, &still, &on_c));
    CHECK(carom_world_max_overlap_now(w) > 0.5);
    CHECK_OK(carom_world_advance_to(w, 12.0));
    CHECK(seen.count == 1);
    CHECK_NEAR(seen.first, 9.75, 1e-12);
    CHECK(seen.others == 0); /* the still pair is never reported */
    /* Bad input is still refused. */
    carom_sphere_def outside = carom_sphere_default_def();
    outside.position[0] = NAN;
    CHECK(carom_world_add_sphere(w, &outside, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_report_only_world_takes_a_big_sphere);
    RUN(test_elastic_world_takes_a_big_sphere);
    RUN(test_new_sphere_is_checked);
    RUN(test_report_only_world_takes_overlapping_spheres);
    return CHECK_REPORT();
}
