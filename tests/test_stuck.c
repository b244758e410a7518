/* A world whose time cannot move on says so instead of running forever.
 * A sphere of finite mass touching two spheres of infinite mass that
 * close in on it from both sides has no motion that keeps it out of them:
 * each contact sends it from one into the other at the same instant. The
 * advance returns CAROM_ERR_STUCK naming the instant, and so does the
 * next; once the squeezed sphere is removed the world moves on. A
 * Newton's cradle, where every contact of a row happens at one instant,
 * is not stuck. */
#include <string.h>

#include "carom/carom.h"
#include "check.h"

static carom_world *walled_box(void)
{
    carom_world_def def = carom_world_default_def();
    for (int k = 0; k < 3; k++) {
        def.box[k] = 10.0;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    if (!w)
        fprintf(stderr, "world: %s\n", e.message);
    return w;
}

static carom_sphere_id add(carom_world *w, double x, double vx, double mass)
{
    carom_sphere_def d = carom_sphere_default_def();
    d.position[0] = x;
    d.position[1] = d.position[2] = 5.0;
    d.velocity[0] = vx;
    d.mass = mass;
    carom_sphere_id id = 0;
    CHECK_OK(carom_world_add_sphere(w, &d, &id));
    return id;
}

static void test_squeezed_sphere(void)
{
    carom_world *w = walled_box();
    if (!w)
        return;
    add(w, 4.0, 0.1, INFINITY);               /* closing in from the left */
    carom_sphere_id middle = add(w, 5.0, 0.0, 1.0); /* touching both */
    add(w, 6.0, -0.1, INFINITY);              /* closing in from the right */
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_STUCK);
    CHECK(strstr(carom_world_error_message(w), "time cannot move on from t = 0:") != NULL);
    CHECK(carom_world_time(w) == 0.0);
    carom_stats s;
    carom_world_get_stats(w, &s);
    CHECK(s.events >= 1000000 && s.collisions > 0);
    /* Still stuck, at once. */
    uint64_t done = 7;
    CHECK(carom_world_step_events(w, 10, &done) == CAROM_ERR_STUCK);
    CHECK(done == 0);
    /* Without the squeezed sphere the two obstacles meet as equals. */
    CHECK_OK(carom_world_remove_sphere(w, middle));
    CHECK_OK(carom_world_advance_to(w, 20.0));
    carom_world_get_stats(w, &s);
    printf("%llu collisions in all\n", (unsigned long long)s.collisions);
    carom_world_free(w);
}

static void test_cradle_is_not_stuck(void)
{
    carom_world *w = walled_box();
    if (!w)
        return;
    add(w, 1.0, 1.0, 1.0); /* the moving ball, then a row of touching ones */
    for (int k = 0; k < 5; k++)
        add(w, 3.0 + k, 0.0, 1.0);
    CHECK_OK(carom_world_advance_to(w, 30.0));
    carom_stats s;
    carom_world_get_stats(w, &s);
    CHECK(s.collisions >= 5);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_squeezed_sphere);
    RUN(test_cradle_is_not_stuck);
    return CHECK_REPORT();
}
