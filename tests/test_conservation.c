/* Conservation over long elastic runs: kinetic energy (total energy with
 * gravity) to 1e-10 relative and, in periodic boxes, total momentum to
 * 1e-10 of sqrt(N <m> kT), over at least 10^6 collisions per case in 2D
 * and 3D, with walls too; no pair ever overlaps by more than 1e-9 of its
 * contact distance (at any collision, and at checkpoints, all pairs).
 *
 * Environment: CAROM_TEST_QUICK=1 (set by scripts/test.sh for the
 * sanitizer pass) runs a quarter of the collisions per case (still about
 * 10^6 in all), since the sanitizers slow the engine down several times. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

static double seconds_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_state = 88172645463325252ULL;
static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct conservation_case {
    const char *name;
    int dim;
    size_t n;
    double packing;
    carom_boundary boundary;
    double gravity; /* along -y */
    int mixed;      /* radii in [0.35, 0.5], masses in [0.5, 2.5] */
} conservation_case;

/* Total energy: kinetic plus m g h for gravity g along -y. */
static double total_energy(const carom_world *w, size_t n, double g)
{
    double e = carom_world_kinetic_energy(w);
    if (g != 0.0)
        for (size_t i = 0; i < n; i++) {
            carom_sphere_state s;
            if (carom_world_get_sphere(w, (carom_sphere_id)i, &s) == CAROM_OK)
                e += s.mass * g * s.position[1];
        }
    return e;
}

static void run_case(const conservation_case *c, uint64_t target)
{
    carom_error err;
    carom_scene scene;
    carom_scene_init(&scene);
    scene.dim = c->dim;
    double L = carom_box_length_for_packing(c->dim, c->n, 0.5, c->packing);
    for (int k = 0; k < 3; k++) {
        scene.box[k] = L;
        scene.boundary[k] = c->boundary;
    }
    if (carom_scene_lattice(&scene, c->n, 0.5, CAROM_LATTICE_AUTO, &err) != CAROM_OK) {
        fprintf(stderr, "%s: lattice: %s\n", c->name, err.message);
        check_failures++;
        return;
    }
    if (c->mixed)
        for (size_t i = 0; i < scene.n; i++) {
            scene.radius[i] = 0.35 + 0.15 * urand();
            scene.mass[i] = 0.5 + 2.0 * urand();
        }
    if (carom_scene_maxwell_velocities(&scene, 1.0, 42, &err) != CAROM_OK) {
        fprintf(stderr, "%s: velocities: %s\n", c->name, err.message);
        check_failures++;
        carom_scene_free(&scene);
        return;
    }
    double mass_sum = 0.0;
    for (size_t i = 0; i < scene.n; i++)
        mass_sum += scene.mass[i];
    carom_world_def def = carom_world_default_def();
    def.gravity[1] = -c->gravity;
    carom_world *w = carom_scene_create_world(&scene, &def, &err);
    carom_scene_free(&scene);
    if (!w) {
        fprintf(stderr, "%s: world: %s\n", c->name, err.message);
        check_failures++;
        return;
    }
    CHECK(carom_world_advance_to(w, 0.0) == CAROM_OK);
    double e0 = total_energy(w, c->n, c->gravity);
    double p0[3];
    carom_world_momentum(w, p0);
    double kt = carom_world_temperature(w);
    double p_scale = sqrt((double)c->n * (mass_sum / (double)c->n) * kt);

    /* Time per checkpoint from a short run: about target/10 collisions. */
    double t0 = seconds_now();
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_OK);
    carom_stats st;
    carom_world_get_stats(w, &st);
    double rate = (double)st.collisions / 1.0; /* collisions per unit time */
    double dt = rate > 0.0 ? (double)target / 10.0 / rate : 1.0;
    double worst_e = 0.0, worst_p = 0.0, worst_overlap_now = 0.0;
    int checkpoints = 0;
    while (st.collisions < target && checkpoints < 100) {
        CHECK(carom_world_advance_to(w, carom_world_time(w) + dt) == CAROM_OK);
        carom_world_get_stats(w, &st);
        double e = total_energy(w, c->n, c->gravity);
        double de = fabs(e - e0) / fabs(e0);
        if (de > worst_e)
            worst_e = de;
        if (c->boundary == CAROM_BOUNDARY_PERIODIC) {
            double p[3];
            carom_world_momentum(w, p);
            for (int k = 0; k < c->dim; k++) {
                double dp = fabs(p[k] - p0[k]) / p_scale;
                if (dp > worst_p)
                    worst_p = dp;
            }
        }
        double ov = carom_world_max_overlap_now(w);
        if (ov > worst_overlap_now)
            worst_overlap_now = ov;
        checkpoints++;
    }
    double secs = seconds_now() - t0;
    printf("%-34s N=%zu: %llu collisions, %llu events in %.2f s (%.2e collisions/s); "
           "energy drift %.2e, momentum drift %.2e, max overlap %.2e (at events), %.2e (now)\n",
           c->name, c->n, (unsigned long long)st.collisions, (unsigned long long)st.events, secs,
           (double)st.collisions / secs, worst_e, worst_p, st.max_overlap, worst_overlap_now);
    CHECK(st.collisions >= target);
    CHECK(worst_e < 1e-10);
    CHECK(worst_p < 1e-10);
    CHECK(st.max_overlap < 1e-9);
    CHECK(worst_overlap_now < 1e-9);
    if (c->boundary == CAROM_BOUNDARY_WALLS)
        CHECK(st.wall_hits > 0);
    carom_world_free(w);
}

int main(void)
{
    const char *quick = getenv("CAROM_TEST_QUICK");
    uint64_t target = quick && quick[0] == '1' ? 250000 : 1000000;
    const conservation_case cases[] = {
        {"3D periodic, mixed radii and masses", 3, 1000, 0.30, CAROM_BOUNDARY_PERIODIC, 0.0, 1},
        {"2D periodic", 2, 1500, 0.45, CAROM_BOUNDARY_PERIODIC, 0.0, 0},
        {"3D walls", 3, 1000, 0.30, CAROM_BOUNDARY_WALLS, 0.0, 0},
        {"2D walls, gravity, mixed", 2, 1000, 0.35, CAROM_BOUNDARY_WALLS, 0.05, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        run_case(&cases[k], target);
    return CHECK_REPORT();
}
