/* seed 003's frame-by-frame algorithms (bench/baselines/frames.c).
 *
 * - A head-on pair meeting half way through a frame: the multiple
 *   collision method ends the frame where the exact motion does (and
 *   where carom does); the single collision method leaves both spheres
 *   at their collision for the rest of the frame; the retroactive method
 *   finds them overlapping by half a contact distance and pushes them
 *   apart.
 * - Leong's chain (his Figure 5): a sphere hits a second, which hits a
 *   third within the same frame. Multiple finds both collisions and the
 *   exact end; single only the first; retroactive lets the first sphere
 *   pass through the second.
 * - 150 circles in seed 003's box: with frames of 1e-3 the multiple
 *   collision method gives carom's collisions, pair by pair and to 1e-9
 *   in time, and carom's wall hits; every method keeps the energy of
 *   elastic collisions.
 * - Bad scenes and definitions are refused with a message. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "frames.h"
#include "pair_contacts.h"

static void on_frames(void *user, uint32_t i, uint32_t j, double t)
{
    log_add(user, i, j, t, 0.0);
}

/* A 2D box of 10 x 10 with walls and spheres of radius 0.5 at the given
 * x (y = 5) and x velocities. */
static void line_scene(carom_scene *s, size_t n, const double *x, const double *v)
{
    carom_error e;
    s->dim = 2;
    s->box[0] = s->box[1] = 10.0;
    s->boundary[0] = s->boundary[1] = CAROM_BOUNDARY_WALLS;
    CHECK_OK(carom_scene_resize(s, n, &e));
    for (size_t i = 0; i < n; i++) {
        s->position[i][0] = x[i];
        s->position[i][1] = 5.0;
        s->velocity[i][0] = v[i];
    }
}

static carom_frames_stats run_one(carom_scene *s, carom_frames_method method, double h,
                                  uint64_t frames, contact_log *log)
{
    carom_frames_def def = carom_frames_default_def(method);
    def.frame = h;
    def.frames = frames;
    carom_frames_stats st;
    carom_error e;
    CHECK_OK(carom_frames_run(s, &def, log ? on_frames : NULL, log, &st, &e));
    return st;
}

static void test_head_on(void)
{
    const double x[] = {2.0, 3.5}, v[] = {1.0, 0.0};
    carom_scene s;
    carom_scene_init(&s);

    line_scene(&s, 2, x, v);
    carom_frames_stats st = run_one(&s, CAROM_FRAMES_MULTIPLE, 1.0, 1, NULL);
    CHECK(st.collisions == 1);
    CHECK_NEAR(s.position[0][0], 2.5, 1e-12);
    CHECK_NEAR(s.position[1][0], 4.0, 1e-12);
    CHECK_NEAR(s.velocity[0][0], 0.0, 1e-12);
    CHECK_NEAR(s.velocity[1][0], 1.0, 1e-12);
    CHECK_NEAR(st.max_depth, 0.0, 1e-12);

    line_scene(&s, 2, x, v);
    st = run_one(&s, CAROM_FRAMES_SINGLE, 1.0, 1, NULL);
    CHECK(st.collisions == 1);
    CHECK_NEAR(s.position[0][0], 2.5, 1e-12);
    CHECK_NEAR(s.position[1][0], 3.5, 1e-12); /* stopped at the collision */
    CHECK_NEAR(s.velocity[1][0], 1.0, 1e-12);
    CHECK_NEAR(st.lost_travel, 0.5, 1e-12); /* half the frame, both spheres */

    line_scene(&s, 2, x, v);
    st = run_one(&s, CAROM_FRAMES_RETROACTIVE, 1.0, 1, NULL);
    CHECK(st.collisions == 1);
    CHECK_NEAR(st.max_depth, 0.5, 1e-12);
    CHECK_NEAR(s.position[0][0], 2.75, 1e-12); /* pushed apart, half each */
    CHECK_NEAR(s.position[1][0], 3.75, 1e-12);
    CHECK_NEAR(s.velocity[1][0], 1.0, 1e-12);
    CHECK_NEAR(st.max_overlap, 0.0, 1e-12);

    /* carom ends the frame where the multiple collision method does. */
    line_scene(&s, 2, x, v);
    carom_world_def def = carom_world_default_def();
    carom_error e;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    CHECK(w != NULL);
    if (w) {
        CHECK_OK(carom_world_advance_to(w, 1.0));
        carom_sphere_state a, b;
        CHECK_OK(carom_world_get_sphere(w, 0, &a));
        CHECK_OK(carom_world_get_sphere(w, 1, &b));
        CHECK_NEAR(a.position[0], 2.5, 1e-12);
        CHECK_NEAR(b.position[0], 4.0, 1e-12);
        carom_world_free(w);
    }
    carom_scene_free(&s);
}

static void test_chain(void)
{
    const double x[] = {1.0, 2.5, 4.0}, v[] = {2.0, 0.0, 0.0};
    carom_scene s;
    carom_scene_init(&s);

    line_scene(&s, 3, x, v);
    carom_frames_stats st = run_one(&s, CAROM_FRAMES_MULTIPLE, 1.0, 1, NULL);
    CHECK(st.collisions == 2);
    CHECK(st.passes == 3); /* A-B, then B-C, then nothing */
    CHECK_NEAR(s.position[0][0], 1.5, 1e-12);
    CHECK_NEAR(s.position[1][0], 3.0, 1e-12);
    CHECK_NEAR(s.position[2][0], 5.0, 1e-12);

    line_scene(&s, 3, x, v);
    st = run_one(&s, CAROM_FRAMES_SINGLE, 1.0, 1, NULL);
    CHECK(st.collisions == 1);
    CHECK_NEAR(s.position[1][0], 2.5, 1e-12);
    CHECK_NEAR(s.velocity[2][0], 0.0, 1e-12); /* the third has not moved yet */

    line_scene(&s, 3, x, v);
    st = run_one(&s, CAROM_FRAMES_RETROACTIVE, 1.0, 1, NULL);
    CHECK_NEAR(s.velocity[1][0], 0.0, 1e-12); /* the first passed through it */
    CHECK(st.collisions == 1);                /* ... and hit the third */
    CHECK_NEAR(s.velocity[2][0], 2.0, 1e-12);
    carom_scene_free(&s);
}

/* Leong's experiment: 150 circles of radius 0.25 on a square lattice in a
 * box of 10 x 15 with walls, kT = 1. */
static void seed003_scene(carom_scene *s)
{
    carom_error e;
    s->dim = 2;
    s->box[0] = 10.0;
    s->box[1] = 15.0;
    s->boundary[0] = s->boundary[1] = CAROM_BOUNDARY_WALLS;
    CHECK_OK(carom_scene_lattice(s, 150, 0.25, CAROM_LATTICE_SQUARE, &e));
    CHECK_OK(carom_scene_maxwell_velocities(s, 1.0, 3, &e));
}

static void test_against_carom(void)
{
    const double T = 1.0, h = 1e-3;
    carom_scene s;
    carom_scene_init(&s);
    seed003_scene(&s);
    carom_stats cs;
    contact_log want = carom_contacts_of(&s, CAROM_RESPONSE_ELASTIC, T, &cs), got = {0};
    carom_error e;

    double e0 = 0.0;
    for (size_t i = 0; i < s.n; i++)
        e0 += 0.5 * s.mass[i] *
              (s.velocity[i][0] * s.velocity[i][0] + s.velocity[i][1] * s.velocity[i][1]);
    carom_scene copy;
    carom_scene_init(&copy);
    CHECK_OK(carom_scene_resize(&copy, s.n, &e));
    for (int m = CAROM_FRAMES_RETROACTIVE; m <= CAROM_FRAMES_MULTIPLE; m++) {
        copy.dim = s.dim;
        memcpy(copy.box, s.box, sizeof s.box);
        memcpy(copy.boundary, s.boundary, sizeof s.boundary);
        memcpy(copy.position, s.position, s.n * sizeof *s.position);
        memcpy(copy.velocity, s.velocity, s.n * sizeof *s.velocity);
        memcpy(copy.radius, s.radius, s.n * sizeof *s.radius);
        memcpy(copy.mass, s.mass, s.n * sizeof *s.mass);
        contact_log *log = m == CAROM_FRAMES_MULTIPLE ? &got : NULL;
        carom_frames_stats st = run_one(&copy, (carom_frames_method)m, h, (uint64_t)(T / h), log);
        CHECK_REL(st.energy_end, e0, 1e-12);
        CHECK_REL(st.energy_start, e0, 1e-12);
        if (m == CAROM_FRAMES_MULTIPLE) {
            CHECK(st.collisions == cs.collisions);
            CHECK(st.wall_hits == cs.wall_hits);
            CHECK(st.pass_limits == 0);
            CHECK(st.max_overlap < 1e-12);
        }
        printf("method %d: %llu collisions, %llu wall hits (carom %llu, %llu), depth %.3g, "
               "overlap left %.3g\n",
               m, (unsigned long long)st.collisions, (unsigned long long)st.wall_hits,
               (unsigned long long)cs.collisions, (unsigned long long)cs.wall_hits, st.max_depth,
               st.max_overlap);
    }
    CHECK(want.n > 50 && got.n == want.n);
    int bad = log_mismatches(&got, &want, 1e-9, -1.0);
    CHECK(bad == 0);
    printf("multiple collision, frames of %g: %zu collisions (carom %zu), %d mismatched\n", h,
           got.n, want.n, bad);
    free(want.c);
    free(got.c);
    carom_scene_free(&copy);
    carom_scene_free(&s);
}

static void test_bad_arguments(void)
{
    const double x[] = {2.0, 3.5}, v[] = {1.0, 0.0};
    carom_scene s;
    carom_scene_init(&s);
    line_scene(&s, 2, x, v);
    carom_frames_def def = carom_frames_default_def(CAROM_FRAMES_MULTIPLE);
    carom_error e;
    s.boundary[1] = CAROM_BOUNDARY_PERIODIC;
    CHECK(carom_frames_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "axis y") != NULL);
    s.boundary[1] = CAROM_BOUNDARY_WALLS;
    s.position[1][0] = 9.8; /* through the wall */
    CHECK(carom_frames_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "sphere 1") != NULL);
    s.position[1][0] = 3.5;
    def.restitution = 1.5;
    CHECK(carom_frames_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    def.restitution = 1.0;
    def.method = (carom_frames_method)5;
    CHECK(carom_frames_run(&s, &def, NULL, NULL, NULL, &e) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(e.message, "method") != NULL);
    carom_scene_free(&s);
}

int main(void)
{
    test_head_on();
    test_chain();
    test_against_carom();
    test_bad_arguments();
    return CHECK_REPORT();
}
