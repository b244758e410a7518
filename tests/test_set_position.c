/* carom_world_set_position: a sphere moved at the world's time.
 *
 * After spheres are moved in the middle of a run, the contacts that
 * follow are those of the moved state: in report-only worlds, exactly the
 * straight-line contacts an O(N^2) reference finds from the states just
 * after the moves (cells and neighbour lists); in elastic worlds, the
 * contacts of a fresh world built from that state, with energy kept and
 * no overlap. A move that would overlap another sphere or leave a walled
 * box is refused with an error naming what is in the way, and the sphere
 * stays where it was. Big spheres (kept out of the grid) move too; so do
 * spheres under gravity, which keep their velocity. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "pair_contacts.h"
#include "rng.h"
#include "world_internal.h"

#define L 12.0

static carom_world *gas_in(carom_boundary boundary, carom_response response,
                           carom_neighbours neighbours, size_t n, double packing, contact_log *log)
{
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = carom_box_length_for_packing(3, n, 0.5, packing);
        s.boundary[k] = boundary;
    }
    CHECK_OK(carom_scene_random(&s, n, 0.5, 17, &e));
    CHECK_OK(carom_scene_random_velocities(&s, 0.5, 1.0, 18, &e));
    carom_world_def def = carom_world_default_def();
    def.response = response;
    def.neighbours = neighbours;
    def.on_contact = log_carom_contact;
    def.user_data = log;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    carom_scene_free(&s);
    if (!w)
        abort();
    return w;
}

static carom_world *gas(carom_response response, carom_neighbours neighbours, size_t n,
                        double packing, contact_log *log)
{
    return gas_in(CAROM_BOUNDARY_PERIODIC, response, neighbours, n, packing, log);
}

static double min_image(double d, double box)
{
    return d - box * round(d / box);
}

/* Distance from x to the nearest other sphere's surface over contact
 * distance (> 1: clear), the world's spheres at its time. */
static double clearance(const carom_world *w, carom_sphere_id id, const double x[3], double r)
{
    double least = INFINITY, box = carom_world_get_def(w)->box[0];
    for (carom_sphere_id j = 0; j < carom_world_sphere_capacity(w); j++) {
        carom_sphere_state o;
        if (j == id || carom_world_get_sphere(w, j, &o) != CAROM_OK)
            continue;
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = min_image(o.position[k] - x[k], box);
            d2 += d * d;
        }
        least = fmin(least, sqrt(d2) / (r + o.radius));
    }
    return least;
}

/* Moves `count` spheres to random places clear of the others. */
static void move_some(carom_world *w, int count, rng *r)
{
    double box = carom_world_get_def(w)->box[0];
    for (int m = 0; m < count; m++) {
        carom_sphere_id id = (carom_sphere_id)(rng_next(r) % carom_world_sphere_capacity(w));
        carom_sphere_state st;
        CHECK_OK(carom_world_get_sphere(w, id, &st));
        double x[3];
        do {
            for (int k = 0; k < 3; k++)
                x[k] = box * rng_uniform(r);
        } while (clearance(w, id, x, st.radius) < 1.01);
        CHECK_OK(carom_world_set_position(w, id, x));
        carom_sphere_state moved;
        CHECK_OK(carom_world_get_sphere(w, id, &moved));
        for (int k = 0; k < 3; k++) {
            CHECK(moved.position[k] == x[k]);
            CHECK(moved.velocity[k] == st.velocity[k]);
        }
    }
}

/* Straight-line contacts from the world's state now until t_end (each
 * pair's first entering contact, nearest images). */
static contact_log straight_line_contacts(const carom_world *w, double t_end)
{
    contact_log log = {0};
    size_t n = carom_world_sphere_capacity(w);
    double t0 = carom_world_time(w), box = carom_world_get_def(w)->box[0];
    carom_sphere_state *s = malloc(n * sizeof *s);
    if (!s)
        abort();
    for (carom_sphere_id i = 0; i < n; i++)
        CHECK_OK(carom_world_get_sphere(w, i, &s[i]));
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            double dx[3], dv[3], sigma = s[i].radius + s[j].radius;
            for (int k = 0; k < 3; k++) {
                dx[k] = min_image(s[j].position[k] - s[i].position[k], box);
                dv[k] = s[j].velocity[k] - s[i].velocity[k];
            }
            double a = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2];
            double b = dx[0] * dv[0] + dx[1] * dv[1] + dx[2] * dv[2];
            double c = dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2] - sigma * sigma;
            double disc = b * b - a * c;
            if (c > 0.0 && b < 0.0 && disc > 0.0) {
                double t = t0 + c / (-b + sqrt(disc));
                if (t <= t_end)
                    log_add(&log, i, j, t, 0.0);
            }
        }
    free(s);
    return log;
}

/* The contacts of world w (logged into *got) and of a fresh world made
 * from w's state now, both run for `span` from w's time: the second
 * shifted to w's clock. The fresh world has w's definition. */
static contact_log fresh_world_contacts(carom_world *w, contact_log *got, double span)
{
    contact_log want = {0};
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    CHECK_OK(carom_scene_from_world(&s, w, &e));
    carom_world_def def = *carom_world_get_def(w);
    def.user_data = &want;
    carom_world *fresh = carom_scene_create_world(&s, &def, &e);
    carom_scene_free(&s);
    if (!fresh)
        abort();
    double t0 = carom_world_time(w);
    got->n = 0;
    CHECK_OK(carom_world_advance_to(w, t0 + span));
    CHECK_OK(carom_world_advance_to(fresh, span));
    for (size_t k = 0; k < want.n; k++)
        want.c[k].t += t0;
    carom_world_free(fresh);
    return want;
}

/* The world runs on to t_end keeping its energy, spheres apart. */
static void check_runs_on(carom_world *w, double t_end, double energy)
{
    CHECK_OK(carom_world_advance_to(w, t_end));
    CHECK_REL(carom_world_kinetic_energy(w), energy, 1e-12);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
}

static void report_only_after_moves(carom_neighbours neighbours)
{
    contact_log got = {0};
    carom_world *w = gas(CAROM_RESPONSE_NONE, neighbours, 300, 0.15, &got);
    rng r;
    rng_seed(&r, 5);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    move_some(w, 30, &r);
    /* No pair can close more than half a box: only nearest images meet. */
    double box = carom_world_get_def(w)->box[0];
    double t_end = 1.0 + (box / 2 - 1.0) / 2.0 * 0.99;
    contact_log want = straight_line_contacts(w, t_end);
    got.n = 0;
    CHECK_OK(carom_world_advance_to(w, t_end));
    CHECK(want.n > 100);
    CHECK(log_mismatches(&got, &want, 1e-9, -1.0) == 0);
    free(got.c);
    free(want.c);
    carom_world_free(w);
}

static void test_report_only_contacts_follow_the_moves(void)
{
    report_only_after_moves(CAROM_NEIGHBOURS_CELLS);
    report_only_after_moves(CAROM_NEIGHBOURS_LISTS);
}

static void elastic_after_moves(carom_neighbours neighbours)
{
    contact_log got = {0};
    carom_world *w = gas(CAROM_RESPONSE_ELASTIC, neighbours, 500, 0.3, &got);
    rng r;
    rng_seed(&r, 9);
    CHECK_OK(carom_world_advance_to(w, 1.0));
    move_some(w, 10, &r);
    double energy = carom_world_kinetic_energy(w);
    contact_log want = fresh_world_contacts(w, &got, 0.3);
    CHECK(want.n > 100);
    CHECK(log_mismatches(&got, &want, 1e-9, -1.0) == 0);
    check_runs_on(w, 6.0, energy);
    free(got.c);
    free(want.c);
    carom_world_free(w);
}

static void test_elastic_contacts_are_those_of_the_moved_state(void)
{
    elastic_after_moves(CAROM_NEIGHBOURS_CELLS);
    elastic_after_moves(CAROM_NEIGHBOURS_LISTS);
}

static int contains(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

static void test_refused_moves_leave_the_sphere_where_it_was(void)
{
    carom_world_def def = carom_world_default_def();
    for (int k = 0; k < 3; k++) {
        def.box[k] = L;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    carom_sphere_def d = carom_sphere_default_def();
    for (int m = 0; m < 3; m++) {
        d.position[0] = 2.0 + 3.0 * m;
        d.position[1] = d.position[2] = 6.0;
        d.velocity[1] = 0.5 * m;
        CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 1.0));
    carom_sphere_state before, after;
    CHECK_OK(carom_world_get_sphere(w, 2, &before));
    double onto_1[3] = {5.5, 6.5, 6.0}, outside[3] = {11.8, 6.0, 6.0};
    double nan[3] = {NAN, 1.0, 1.0};
    CHECK(carom_world_set_position(w, 2, onto_1) == CAROM_ERR_OVERLAP);
    CHECK(contains(carom_world_error_message(w), "spheres 1 and 2 overlap"));
    CHECK(carom_world_set_position(w, 2, outside) == CAROM_ERR_OUTSIDE_BOX);
    CHECK(contains(carom_world_error_message(w), "sphere 2"));
    CHECK(carom_world_set_position(w, 2, nan) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_set_position(w, 7, onto_1) == CAROM_ERR_NO_SUCH_SPHERE);
    CHECK_OK(carom_world_get_sphere(w, 2, &after));
    for (int k = 0; k < 3; k++)
        CHECK(after.position[k] == before.position[k] && after.velocity[k] == before.velocity[k]);
    /* The world goes on as if nothing was asked: sphere 2 still meets the
     * wall when its straight line says. */
    CHECK_OK(carom_world_advance_to(w, 30.0));
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_stats stats;
    carom_world_get_stats(w, &stats);
    CHECK(stats.wall_hits >= 2);
    /* Before the first advance a move is checked by that advance. */
    carom_world *fresh = carom_world_create(&def, &e);
    CHECK_OK(carom_world_add_sphere(fresh, &d, NULL));
    d.position[0] = 2.0;
    CHECK_OK(carom_world_add_sphere(fresh, &d, NULL));
    CHECK_OK(carom_world_set_position(fresh, 1, onto_1)); /* clear of sphere 0 at x = 8 */
    CHECK_OK(carom_world_set_position(fresh, 0, (double[3]){5.9, 6.5, 6.0}));
    CHECK(carom_world_advance_to(fresh, 1.0) == CAROM_ERR_OVERLAP);
    carom_world_free(fresh);
    carom_world_free(w);
}

static void test_a_big_sphere_moves_and_the_world_rebuilds(void)
{
    contact_log log = {0};
    /* Walls: a periodic box would have to be 4 reaches long for a big sphere. */
    carom_world *w = gas_in(CAROM_BOUNDARY_WALLS, CAROM_RESPONSE_ELASTIC, CAROM_NEIGHBOURS_AUTO,
                            300, 0.01, &log);
    carom_sphere_def big = carom_sphere_default_def();
    big.radius = 3.0;
    big.mass = 50.0;
    big.velocity[0] = 4.0; /* it sweeps through the gas */
    big.velocity[1] = 3.0;
    double box = carom_world_get_def(w)->box[0];
    CHECK_OK(carom_world_advance_to(w, 0.5));
    rng r;
    rng_seed(&r, 3);
    do {
        for (int k = 0; k < 3; k++)
            big.position[k] = big.radius + (box - 2.0 * big.radius) * rng_uniform(&r);
    } while (clearance(w, UINT32_MAX, big.position, big.radius) < 1.01);
    carom_sphere_id id;
    CHECK_OK(carom_world_add_sphere(w, &big, &id));
    CHECK_OK(carom_world_advance_to(w, 1.0));
    CHECK(w->info[world_slot_of(w, id)].big); /* kept out of the grid (world_big.c) */
    double energy = carom_world_kinetic_energy(w), x[3];
    do {
        for (int k = 0; k < 3; k++)
            x[k] = big.radius + (box - 2.0 * big.radius) * rng_uniform(&r);
    } while (clearance(w, id, x, big.radius) < 1.01);
    CHECK_OK(carom_world_set_position(w, id, x));
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, id, &st));
    CHECK(st.position[0] == x[0] && st.position[1] == x[1] && st.position[2] == x[2]);
    /* Onto a small sphere (one where the big one would fit in the box): refused. */
    carom_sphere_state small;
    for (carom_sphere_id j = 0; j < id; j++) {
        CHECK_OK(carom_world_get_sphere(w, j, &small));
        int inside = 1;
        for (int k = 0; k < 3; k++)
            inside &= small.position[k] > big.radius && small.position[k] < box - big.radius;
        if (inside)
            break;
    }
    CHECK(carom_world_set_position(w, id, small.position) == CAROM_ERR_OVERLAP);
    CHECK_OK(carom_world_get_sphere(w, id, &st));
    CHECK(st.position[0] == x[0] && st.position[1] == x[1] && st.position[2] == x[2]);
    /* The contacts that follow are those of a fresh world from this state. */
    contact_log want = fresh_world_contacts(w, &log, 3.0);
    int with_big = 0;
    for (size_t k = 0; k < want.n; k++)
        with_big += want.c[k].j == id;
    CHECK(with_big >= 3);
    CHECK(log_mismatches(&log, &want, 1e-9, -1.0) == 0);
    check_runs_on(w, 8.0, energy);
    free(log.c);
    free(want.c);
    carom_world_free(w);
}

static void test_a_falling_sphere_keeps_its_velocity(void)
{
    carom_world_def def = carom_world_default_def();
    def.gravity[2] = -2.0;
    for (int k = 0; k < 3; k++) {
        def.box[k] = L;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = d.position[1] = d.position[2] = 6.0;
    CHECK_OK(carom_world_add_sphere(w, &d, NULL));
    CHECK_OK(carom_world_advance_to(w, 1.0)); /* falling at 2 */
    double up[3] = {3.0, 3.0, 10.0};
    CHECK_OK(carom_world_set_position(w, 0, up));
    CHECK_OK(carom_world_advance_to(w, 1.5));
    carom_sphere_state st;
    CHECK_OK(carom_world_get_sphere(w, 0, &st));
    CHECK_NEAR(st.position[2], 10.0 - 2.0 * 0.5 - 0.5 * 2.0 * 0.25, 1e-12);
    CHECK_NEAR(st.velocity[2], -3.0, 1e-12);
    CHECK(st.position[0] == 3.0 && st.position[1] == 3.0);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_report_only_contacts_follow_the_moves);
    RUN(test_elastic_contacts_are_those_of_the_moved_state);
    RUN(test_refused_moves_leave_the_sphere_where_it_was);
    RUN(test_a_big_sphere_moves_and_the_world_rebuilds);
    RUN(test_a_falling_sphere_keeps_its_velocity);
    return CHECK_REPORT();
}
