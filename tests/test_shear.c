/* Lees-Edwards boundaries (carom_world_set_shear).
 *
 * - reference: the engine against an independent O(N^2) event loop of
 *   its own (every pair against every image: the box above and below,
 *   displaced by rate Ly t along x and moving at rate Ly, each repeated
 *   along x; its own boundary crossings, when a centre's y leaves
 *   [0, Ly)), on random scenes in 2D and 3D, thin boxes (one or two
 *   rows of cells) and fast shear (images passing many times faster
 *   than the spheres): the same collisions (pairs exactly, times to
 *   1e-9) up to each scene's chaos horizon (the reference run twice, the
 *   second perturbed by 1e-13).
 * - apart: a dense fluid sheared for a long time never overlaps (the
 *   largest overlap, across the boundary too, stays at round-off), and
 *   the velocity profile it settles into is rate (y - Ly/2).
 * - heating: with elastic contacts, the energy of the velocities relative
 *   to the profile grows exactly by -rate times the time integral of
 *   V P_xy, whose collisional part comes from the contacts' impulses and
 *   whose kinetic part from the states between events.
 *   With neighbour lists too, and random adds, moves, species changes
 *   and removals against the test's own distances through the images.
 * - refusals: a rate that is not finite, walls along y, gravity,
 *   report-only response. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "check.h"

#define MAX_N 64
#define MAX_COLLISIONS 300

static uint64_t rng_state;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct scene {
    int dim, n;
    carom_neighbours neighbours;
    double L[3], rate, r;
    double x[MAX_N][3], v[MAX_N][3];
} scene;

typedef struct collision {
    double t;
    int i, j;
} collision;

/* ---- the reference ------------------------------------------------------- */

/* The image above's displacement along x at time t. */
static double ref_offset(const scene *sc, double t)
{
    double d = fmod(sc->rate * sc->L[1] * t, sc->L[0]);
    return d < 0.0 ? d + sc->L[0] : d;
}

/* First time tau >= 0 at which |dr + dv tau| comes down to sigma. */
static double ref_meet(const double dr[3], const double dv[3], double sigma)
{
    double b = dr[0] * dv[0] + dr[1] * dv[1] + dr[2] * dv[2];
    if (b >= 0.0)
        return INFINITY;
    double a = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2];
    double c = dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2] - sigma * sigma;
    double disc = b * b - a * c;
    if (disc <= 0.0)
        return INFINITY;
    if (c <= 0.0)
        return 0.0;
    return c / (-b + sqrt(disc)); /* the smaller root, without cancellation */
}

/* Runs the reference from the scene until `count` collisions (or time
 * end); every sphere is moved at every step. */
static int ref_run(scene sc, double end, collision *out, int count)
{
    double T = 0.0, U = sc.rate * sc.L[1];
    double sigma = 2.0 * sc.r;
    int found = 0, zimages = sc.dim == 3 ? 1 : 0;
    while (found < count) {
        double best = INFINITY;
        int bi = -1, bj = -1, bs = 0;
        double bshift[3] = {0.0, 0.0, 0.0};
        for (int i = 0; i < sc.n; i++) {
            /* The centre's y leaves the box. */
            double tc = sc.v[i][1] > 0.0   ? (sc.L[1] - sc.x[i][1]) / sc.v[i][1]
                        : sc.v[i][1] < 0.0 ? -sc.x[i][1] / sc.v[i][1]
                                           : INFINITY;
            if (tc < best) {
                best = tc;
                bi = i;
                bj = -1;
            }
        }
        /* Every image along x (and z) that the moving ones, and the
         * spheres' own motion, can bring within reach before the next
         * crossing. */
        double fastest = 0.0;
        for (int i = 0; i < sc.n; i++)
            fastest = fmax(fastest, fabs(sc.v[i][0]) + fabs(sc.v[i][2]));
        double span = fmin(best, end - T);
        int M = 3 + (int)ceil((fabs(U) + 2.0 * fastest) * span / sc.L[0]);
        zimages = sc.dim == 3 ? 1 + (int)ceil(2.0 * fastest * span / sc.L[2]) : 0;
        for (int i = 0; i < sc.n; i++) {
            for (int j = i + 1; j < sc.n; j++) {
                for (int s = -1; s <= 1; s++)
                    for (int m = -M; m <= M; m++)
                        for (int q = -zimages; q <= zimages; q++) {
                            double shift[3] = {m * sc.L[0] + s * ref_offset(&sc, T),
                                               s * sc.L[1], q * sc.L[2]};
                            double dr[3], dv[3];
                            for (int k = 0; k < 3; k++) {
                                dr[k] = sc.x[j][k] + shift[k] - sc.x[i][k];
                                dv[k] = sc.v[j][k] - sc.v[i][k];
                            }
                            dv[0] += s * U;
                            double t = ref_meet(dr, dv, sigma);
                            if (t < best) {
                                best = t;
                                bi = i;
                                bj = j;
                                bs = s;
                                memcpy(bshift, shift, sizeof shift);
                            }
                        }
            }
        }
        if (T + best > end)
            break;
        T += best;
        for (int i = 0; i < sc.n; i++) {
            for (int k = 0; k < sc.dim; k++)
                sc.x[i][k] += sc.v[i][k] * best;
            for (int k = 0; k < sc.dim; k += 2) /* x and z into the box */
                sc.x[i][k] -= sc.L[k] * floor(sc.x[i][k] / sc.L[k]);
        }
        if (bj < 0) {
            /* Through the sheared boundary. */
            double side = sc.v[bi][1] > 0.0 ? 1.0 : -1.0;
            sc.x[bi][1] = side > 0.0 ? 0.0 : sc.L[1];
            sc.x[bi][0] -= side * ref_offset(&sc, T);
            sc.v[bi][0] -= side * U;
            sc.x[bi][0] -= sc.L[0] * floor(sc.x[bi][0] / sc.L[0]);
            if (side < 0.0)
                sc.x[bi][1] = nextafter(sc.L[1], 0.0);
            continue;
        }
        /* Equal masses, elastic: exchange the normal components in the
         * image's frame. */
        double d[3], dv[3];
        for (int k = 0; k < 3; k++) {
            d[k] = sc.x[bj][k] + bshift[k] - sc.x[bi][k];
            dv[k] = sc.v[bj][k] - sc.v[bi][k];
        }
        /* The image's shift grew with the offset over the step; x and z
         * may have been put back into the box since: the nearest image. */
        d[0] += bs * U * best;
        dv[0] += bs * U;
        for (int k = 0; k < sc.dim; k += 2)
            d[k] -= sc.L[k] * round(d[k] / sc.L[k]);
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double vn = (dv[0] * d[0] + dv[1] * d[1] + dv[2] * d[2]) / len;
        for (int k = 0; k < 3; k++) {
            sc.v[bi][k] += vn * d[k] / len;
            sc.v[bj][k] -= vn * d[k] / len;
        }
        out[found++] = (collision){T, bi, bj};
    }
    return found;
}

/* ---- the engine ---------------------------------------------------------- */

typedef struct recorder {
    collision *c;
    int n, max;
} recorder;

static void record(void *user, carom_contact *c)
{
    recorder *r = user;
    if (c->kind != CAROM_CONTACT_SPHERE || r->n >= r->max)
        return;
    int i = (int)c->i, j = (int)c->j;
    r->c[r->n++] = (collision){c->time, i < j ? i : j, i < j ? j : i};
}

static carom_world *make_world(const scene *sc, carom_contact_fn fn, void *user)
{
    carom_world_def def = carom_world_default_def();
    def.dim = sc->dim;
    def.neighbours = sc->neighbours;
    for (int k = 0; k < 3; k++)
        def.box[k] = sc->L[k];
    def.on_contact = fn;
    def.user_data = user;
    carom_world *w = carom_world_create(&def, NULL);
    CHECK_OK(carom_world_set_shear(w, sc->rate));
    for (int i = 0; i < sc->n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        memcpy(s.position, sc->x[i], sizeof s.position);
        memcpy(s.velocity, sc->v[i], sizeof s.velocity);
        s.radius = sc->r;
        s.mass = 1.0;
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    return w;
}

/* Random non-overlapping placement (by nearest images through the
 * sheared boundary at time 0, where the offset is 0: the plain ones). */
static void random_scene(scene *sc, int dim, int n, double Lx, double Ly, double Lz, double rate,
                         double speed)
{
    memset(sc, 0, sizeof *sc);
    sc->dim = dim;
    sc->n = n;
    sc->L[0] = Lx;
    sc->L[1] = Ly;
    sc->L[2] = dim == 3 ? Lz : 1.0;
    sc->rate = rate;
    sc->r = 0.5;
    for (int i = 0; i < n; i++) {
        for (int tries = 0; tries < 100000; tries++) {
            for (int k = 0; k < dim; k++)
                sc->x[i][k] = urand() * sc->L[k];
            int ok = 1;
            for (int j = 0; j < i && ok; j++) {
                double d2 = 0.0;
                for (int k = 0; k < dim; k++) {
                    double d = sc->x[j][k] - sc->x[i][k];
                    d -= sc->L[k] * round(d / sc->L[k]);
                    d2 += d * d;
                }
                ok = d2 > 1.05 * 1.05;
            }
            if (ok)
                break;
        }
        for (int k = 0; k < dim; k++)
            sc->v[i][k] = speed * (2.0 * urand() - 1.0);
    }
}

static int compared_total;
static double worst_dt;
static uint64_t list_rebuilds;

static void compare_scene(const scene *sc)
{
    static collision ref[MAX_COLLISIONS], ref2[MAX_COLLISIONS], got[MAX_COLLISIONS];
    double end = 50.0;
    int nref = ref_run(*sc, end, ref, MAX_COLLISIONS);
    scene perturbed = *sc;
    for (int i = 0; i < sc->n; i++)
        for (int k = 0; k < sc->dim; k++)
            perturbed.x[i][k] += 1e-13 * (2.0 * urand() - 1.0);
    int nref2 = ref_run(perturbed, end, ref2, MAX_COLLISIONS);
    int horizon = 0;
    while (horizon < nref && horizon < nref2 && ref[horizon].i == ref2[horizon].i &&
           ref[horizon].j == ref2[horizon].j &&
           fabs(ref[horizon].t - ref2[horizon].t) <= 1e-10 * (1.0 + ref[horizon].t))
        horizon++;
    recorder r = {got, 0, MAX_COLLISIONS};
    carom_world *w = make_world(sc, record, &r);
    double until = horizon < nref ? ref[horizon].t : end;
    CHECK_OK(carom_world_advance_to(w, until));
    int n = r.n < horizon ? r.n : horizon;
    CHECK(r.n >= horizon);
    for (int m = 0; m < n; m++) {
        if (got[m].i != ref[m].i || got[m].j != ref[m].j ||
            fabs(got[m].t - ref[m].t) > 1e-9 * (1.0 + ref[m].t)) {
            fprintf(stderr,
                    "dim %d n %d box %g x %g rate %g: collision %d: engine %.17g %d %d, "
                    "reference %.17g %d %d\n",
                    sc->dim, sc->n, sc->L[0], sc->L[1], sc->rate, m, got[m].t, got[m].i,
                    got[m].j, ref[m].t, ref[m].i, ref[m].j);
            CHECK(0);
            break;
        }
        double dt = fabs(got[m].t - ref[m].t);
        if (dt > worst_dt)
            worst_dt = dt;
    }
    compared_total += n;
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_stats stats;
    carom_world_get_stats(w, &stats);
    list_rebuilds += stats.list_rebuilds;
    carom_world_free(w);
}

static void reference_scenes(carom_neighbours neighbours)
{
    rng_state = 12345;
    scene sc;
    compared_total = 0;
    worst_dt = 0.0;
    list_rebuilds = 0;
    for (int s = 0; s < 60; s++) {
        int dim = 2 + s % 2;
        int thin = s % 5 == 3;  /* one or two rows of cells along y */
        int fast = s % 7 == 2;  /* images pass far faster than spheres move */
        double L = dim == 2 ? 8.0 + 4.0 * urand() : 5.0 + 2.0 * urand();
        double Ly = thin ? 2.05 + urand() : L;
        int n = dim == 2 ? 12 + (int)(urand() * 20) : 10 + (int)(urand() * 20);
        if (thin)
            n /= 3;
        if (s % 6 == 5) /* sparse: few collisions, many crossings between them */
            n = 3;
        double rate = (fast ? 20.0 : 1.0) * (urand() - 0.5);
        random_scene(&sc, dim, n, L, Ly, L, rate, s % 6 == 5 ? 4.0 : 1.0);
        sc.neighbours = neighbours;
        compare_scene(&sc);
    }
    fprintf(stderr, "  %s: %d collisions compared, largest time difference %.3g, %llu lists made\n",
            neighbours == CAROM_NEIGHBOURS_LISTS ? "lists" : "cells", compared_total, worst_dt,
            (unsigned long long)list_rebuilds);
    CHECK(compared_total > 2000);
    if (neighbours == CAROM_NEIGHBOURS_LISTS)
        CHECK(list_rebuilds > 1000);
    else
        CHECK(list_rebuilds == 0);
}

static void test_reference(void) { reference_scenes(CAROM_NEIGHBOURS_AUTO); }
/* Neighbour lists: a sphere whose list centre is in the top or bottom
 * row of cells also times the opposite row's images, and leaving the
 * grid along y is a list's remaking. (Sparse scenes: a sphere that has
 * not collided for long crosses the sheared boundary by its list, with
 * its stored state far back in time: its position now is then many box
 * lengths from the stored one along x, and once was not brought back
 * into the box, so that it missed a collision found by carom-fuzz-shear.) */
static void test_reference_lists(void) { reference_scenes(CAROM_NEIGHBOURS_LISTS); }

/* ---- long runs ----------------------------------------------------------- */

typedef struct stress_sum {
    double collisional; /* sum over contacts of sigma * impulse * nx * ny */
    double sigma;
} stress_sum;

static void add_stress(void *user, carom_contact *c)
{
    stress_sum *s = user;
    if (c->kind == CAROM_CONTACT_SPHERE)
        s->collisional += s->sigma * c->impulse * c->normal[0] * c->normal[1];
}

/* Sum of m (v - u(y))^2 / 2, and of m c_x c_y, over the spheres now. */
static void peculiar(const carom_world *w, double rate, double Ly, double *energy, double *xy)
{
    *energy = 0.0;
    *xy = 0.0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w); id++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, id, &st) != CAROM_OK)
            continue;
        double c[3] = {st.velocity[0] - rate * (st.position[1] - 0.5 * Ly), st.velocity[1],
                       st.velocity[2]};
        *energy += 0.5 * st.mass * (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        *xy += st.mass * c[0] * c[1];
    }
}

static void test_long_run(int dim, carom_neighbours neighbours)
{
    rng_state = 777 + (uint64_t)dim;
    /* A fluid from a square (cubic) lattice, with the profile to start. */
    int n = dim == 3 ? 1000 : 400; /* packing 0.31 and 0.40 */
    double L = dim == 3 ? 13.0 : 28.0;
    double rate = dim == 3 ? 0.5 : 0.2;
    carom_world_def def = carom_world_default_def();
    def.dim = dim;
    def.neighbours = neighbours;
    def.box[0] = def.box[1] = def.box[2] = L;
    stress_sum sum = {0.0, 1.0};
    def.on_contact = add_stress;
    def.user_data = &sum;
    carom_world *w = carom_world_create(&def, NULL);
    CHECK_OK(carom_world_set_shear(w, rate));
    CHECK(carom_world_shear_rate(w) == rate);
    int side = dim == 3 ? 10 : 20;
    double a = L / side;
    for (int i = 0; i < n; i++) {
        carom_sphere_def s = carom_sphere_default_def();
        s.position[0] = (i % side + 0.5) * a;
        s.position[1] = (i / side % side + 0.5) * a;
        s.position[2] = dim == 3 ? (i / (side * side) + 0.5) * a : 0.0;
        for (int k = 0; k < dim; k++)
            s.velocity[k] = 2.0 * urand() - 1.0;
        s.velocity[0] += rate * (s.position[1] - 0.5 * L);
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    /* The heating identity: dE_pec = -rate (integral of sum m c_x c_y dt
     * + sum sigma J n_x n_y); the kinetic integral by the trapezoid rule
     * on fine steps, against the exact change of E_pec. */
    double e0, xy0;
    peculiar(w, rate, L, &e0, &xy0);
    double kinetic = 0.0, dt = 0.002, worst = 0.0;
    double xy_prev = xy0;
    /* The validating build checks every event against every pair: a
     * tenth of the run there, without the profile. */
    int validating = getenv("CAROM_TEST_VALIDATING") != NULL;
    int steps = validating ? 500 : 5000;
    for (int s = 1; s <= steps; s++) {
        CHECK_OK(carom_world_advance_to(w, s * dt));
        double e, xy;
        peculiar(w, rate, L, &e, &xy);
        kinetic += 0.5 * (xy + xy_prev) * dt;
        xy_prev = xy;
        if (s % 500 == 0) {
            double o = carom_world_max_overlap_now(w);
            worst = o > worst ? o : worst;
        }
    }
    double e1, xy1;
    peculiar(w, rate, L, &e1, &xy1);
    double work = -rate * (kinetic + sum.collisional);
    fprintf(stderr, "  %dD%s: E_pec %.6g -> %.6g, -rate * integral of V P_xy %.6g, worst overlap %.3g\n",
            dim, carom_world_list_skin(w) > 0.0 ? " (lists)" : "", e0, e1, work, worst);
    CHECK((carom_world_list_skin(w) > 0.0) == (neighbours == CAROM_NEIGHBOURS_LISTS));
    CHECK(worst < 1e-9);
    CHECK(e1 - e0 > 0.0);
    CHECK_REL(e1 - e0, work, 0.01);
    /* The profile: mean x velocity in slabs of y against rate (y - L/2)
     * (in 3D: in the wider 2D box, slow modes of the x momentum outlive
     * the run, and a slab's mean wanders by half the profile). */
    if (dim == 2 || validating) {
        carom_world_free(w);
        return;
    }
    double mean[8] = {0}, count[8] = {0};
    for (int s = 1; s <= 200; s++) {
        CHECK_OK(carom_world_advance_to(w, steps * dt + 0.1 * s));
        for (carom_sphere_id id = 0; id < (carom_sphere_id)n; id++) {
            carom_sphere_state st;
            CHECK_OK(carom_world_get_sphere(w, id, &st));
            int b = (int)(st.position[1] / L * 8.0);
            b = b < 0 ? 0 : b > 7 ? 7 : b;
            mean[b] += st.velocity[0];
            count[b]++;
        }
    }
    /* The flow as a whole (its mean x velocity) wanders: the boundary's
     * crossings change the x momentum. Its slope, and its shape about its
     * mean, are the profile's. */
    double dev[8], offset = 0.0, syy = 0.0, syd = 0.0;
    for (int b = 0; b < 8; b++) {
        double y = (b + 0.5) * L / 8.0 - 0.5 * L;
        dev[b] = mean[b] / count[b] - rate * y;
        offset += dev[b] / 8.0;
        syy += y * y;
        syd += y * mean[b] / count[b];
    }
    double slope = syd / syy; /* the slabs' y are centred on 0 */
    CHECK_REL(slope, rate, 0.05);
    for (int b = 0; b < 8; b++)
        CHECK_NEAR(dev[b], offset, 0.06 * rate * L / 2.0);
    fprintf(stderr, "  profile: slope %.4f for rate %g, mean flow %+.3f\n", slope, rate, offset);
    CHECK(carom_world_max_overlap_now(w) < 1e-9);
    carom_world_free(w);
}

static void test_long_run_2d(void) { test_long_run(2, CAROM_NEIGHBOURS_AUTO); }
static void test_long_run_3d(void) { test_long_run(3, CAROM_NEIGHBOURS_AUTO); }
static void test_long_run_3d_lists(void) { test_long_run(3, CAROM_NEIGHBOURS_LISTS); }

/* ---- random operations --------------------------------------------------- */

/* The distance between two states at the world's time, through the
 * nearest image across the sheared boundary too (the test's own). */
static double sheared_distance(const double xa[3], const double xb[3], const double L[3],
                               int dim, double rate, double t)
{
    double best = INFINITY;
    double offset = fmod(rate * L[1] * t, L[0]);
    for (int side = -1; side <= 1; side++) {
        double d[3] = {xb[0] + side * offset - xa[0], xb[1] + side * L[1] - xa[1],
                       dim == 3 ? xb[2] - xa[2] : 0.0};
        d[0] -= L[0] * round(d[0] / L[0]);
        d[2] -= L[2] * round(d[2] / L[2]);
        double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        best = r < best ? r : best;
    }
    return best;
}

typedef struct sheared_trial {
    carom_world *w;
    int dim, n;
    double L[3], rate;
    carom_sphere_id ids[MAX_N];
    int alive[MAX_N];
    int species[MAX_N]; /* species 0 and 1 pass through each other */
    uint64_t contacts;
} sheared_trial;

static void count(void *user, carom_contact *c)
{
    sheared_trial *t = user;
    t->contacts += c->kind == CAROM_CONTACT_SPHERE;
}

/* The largest relative overlap among the live spheres that meet, by the
 * test's arithmetic, and whether `at` (radius r, species kind, not
 * sphere skip) clears those it meets by more than margin (relative). */
static double worst_overlap(const sheared_trial *t, const double at[3], double r, int kind,
                            int skip, double margin, int *clear)
{
    double worst = 0.0;
    *clear = 1;
    carom_sphere_state st[MAX_N];
    for (int a = 0; a < t->n; a++)
        if (t->alive[a])
            CHECK_OK(carom_world_get_sphere(t->w, t->ids[a], &st[a]));
    double now = carom_world_time(t->w);
    for (int a = 0; a < t->n; a++) {
        if (!t->alive[a])
            continue;
        if (at && a != skip && t->species[a] == kind) {
            double d = sheared_distance(at, st[a].position, t->L, t->dim, t->rate, now);
            *clear &= d > (r + st[a].radius) * (1.0 + margin);
        }
        for (int b = a + 1; b < t->n && !at; b++) {
            if (!t->alive[b] || t->species[b] != t->species[a])
                continue;
            double sigma = st[a].radius + st[b].radius;
            double d = sheared_distance(st[a].position, st[b].position, t->L, t->dim, t->rate,
                                        now);
            double o = (sigma - d) / sigma;
            worst = o > worst ? o : worst;
        }
    }
    return worst;
}

/* Random adds, moves, removals, velocity changes, species changes, sorts
 * and advances on small sheared worlds, with cells and with neighbour
 * lists: an add, a move or a change of species is taken when it clears
 * every other sphere it meets (through the moving images too) by 1e-6
 * and refused with CAROM_ERR_OVERLAP when it overlaps one by 1e-6,
 * changing nothing; after every advance no two spheres that meet
 * overlap by more than 1e-9, carom_world_max_overlap_now agrees with the
 * test's worst, and the callback saw as many contacts as the statistics
 * count. */
static void test_random_ops(void)
{
    rng_state = 4242;
    long taken = 0, refused = 0, species_taken = 0, species_refused = 0;
    uint64_t lists_made = 0;
    uint64_t contacts = 0;
    for (int trial_no = 0; trial_no < 40; trial_no++) {
        sheared_trial t;
        memset(&t, 0, sizeof t);
        t.dim = 2 + trial_no % 2;
        double L = t.dim == 2 ? 9.0 : 6.0;
        t.L[0] = L;
        t.L[1] = trial_no % 5 == 4 ? 2.3 : L;
        t.L[2] = t.dim == 3 ? L : 1.0;
        t.rate = (trial_no % 3 == 0 ? 5.0 : 0.5) * (urand() - 0.4);
        carom_world_def def = carom_world_default_def();
        def.dim = t.dim;
        memcpy(def.box, t.L, sizeof def.box);
        def.restitution = trial_no % 4 == 1 ? 0.8 : 1.0;
        def.neighbours = trial_no / 2 % 2 ? CAROM_NEIGHBOURS_LISTS : CAROM_NEIGHBOURS_AUTO;
        def.on_contact = count;
        def.user_data = &t;
        t.w = carom_world_create(&def, NULL);
        CHECK_OK(carom_world_set_shear(t.w, t.rate));
        CHECK_OK(carom_world_set_pass_through(t.w, 0, 1, 1));
        /* Built from the start, so that every add and move is checked
         * where it is made (before, the first advance checks them). */
        CHECK_OK(carom_world_advance_to(t.w, 0.0));
        for (int op = 0; op < 300; op++) {
            int kind = (int)(urand() * 10);
            double at[3] = {0.0, 0.0, 0.0};
            for (int k = 0; k < t.dim; k++)
                at[k] = (urand() * 1.2 - 0.1) * t.L[k]; /* some outside: wrapped */
            /* The first sphere is the largest and stays: a larger one
             * added later would make the world build again, and defer
             * the checks of the adds after it to the next advance. */
            double r = t.n == 0 ? 0.5 : 0.3 + 0.2 * urand();
            int clear;
            if (kind <= 2 && t.n < MAX_N) {
                worst_overlap(&t, at, r, 0, -1, 1e-6, &clear);
                int loose;
                worst_overlap(&t, at, r, 0, -1, -1e-6, &loose);
                int overlapping = !loose;
                carom_sphere_def sd = carom_sphere_default_def();
                memcpy(sd.position, at, sizeof at);
                for (int k = 0; k < t.dim; k++)
                    sd.velocity[k] = 2.0 * urand() - 1.0;
                sd.radius = r;
                carom_sphere_id id;
                carom_status st = carom_world_add_sphere(t.w, &sd, &id);
                if (st == CAROM_OK) {
                    t.ids[t.n] = id;
                    t.species[t.n] = 0;
                    t.alive[t.n++] = 1;
                    taken++;
                    CHECK(!overlapping);
                } else {
                    CHECK(st == CAROM_ERR_OVERLAP && !clear);
                    refused++;
                }
            } else if (kind <= 4 && t.n > 0) {
                int a = (int)(urand() * t.n);
                if (!t.alive[a])
                    continue;
                carom_sphere_state before;
                CHECK_OK(carom_world_get_sphere(t.w, t.ids[a], &before));
                worst_overlap(&t, at, before.radius, t.species[a], a, 1e-6, &clear);
                int loose;
                worst_overlap(&t, at, before.radius, t.species[a], a, -1e-6, &loose);
                carom_status st = carom_world_set_position(t.w, t.ids[a], at);
                carom_sphere_state after;
                CHECK_OK(carom_world_get_sphere(t.w, t.ids[a], &after));
                if (st == CAROM_OK) {
                    CHECK(loose);
                    taken++;
                } else {
                    CHECK(st == CAROM_ERR_OVERLAP && !clear);
                    CHECK(memcmp(before.position, after.position, sizeof after.position) == 0);
                    refused++;
                }
            } else if (kind == 5 && t.n > 0) {
                int a = (int)(urand() * t.n);
                if (t.alive[a] && a > 0) {
                    CHECK_OK(carom_world_remove_sphere(t.w, t.ids[a]));
                    t.alive[a] = 0;
                }
            } else if (kind == 6 && t.n > 0) {
                int a = (int)(urand() * t.n);
                double v[3] = {3.0 * urand() - 1.5, 3.0 * urand() - 1.5,
                               t.dim == 3 ? 3.0 * urand() - 1.5 : 0.0};
                if (t.alive[a])
                    CHECK_OK(carom_world_set_velocity(t.w, t.ids[a], v));
            } else if (kind == 7 && op % 2) {
                CHECK_OK(carom_world_sort_spatially(t.w));
            } else if (kind == 7 && t.n > 1) {
                /* Sphere 0 stays of species 0, so that the others of
                 * species 1 have something to pass through. */
                int a = 1 + (int)(urand() * (t.n - 1));
                if (!t.alive[a])
                    continue;
                carom_sphere_state st;
                CHECK_OK(carom_world_get_sphere(t.w, t.ids[a], &st));
                int to = 1 - t.species[a], loose;
                worst_overlap(&t, st.position, st.radius, to, a, 1e-6, &clear);
                worst_overlap(&t, st.position, st.radius, to, a, -1e-6, &loose);
                carom_status changed = carom_world_set_species(t.w, t.ids[a], (uint32_t)to);
                if (changed == CAROM_OK) {
                    CHECK(loose);
                    t.species[a] = to;
                    species_taken++;
                } else {
                    CHECK(changed == CAROM_ERR_OVERLAP && !clear);
                    species_refused++;
                }
            } else {
                CHECK_OK(carom_world_advance_to(t.w, carom_world_time(t.w) + 0.3 * urand()));
                double worst = worst_overlap(&t, NULL, 0.0, 0, -1, 0.0, &clear);
                CHECK(worst < 1e-9);
                CHECK_NEAR(carom_world_max_overlap_now(t.w), worst, 1e-9);
                carom_stats stats;
                carom_world_get_stats(t.w, &stats);
                CHECK(stats.max_overlap < 1e-9);
            }
        }
        carom_stats stats;
        carom_world_get_stats(t.w, &stats);
        CHECK(stats.collisions == t.contacts);
        if (def.neighbours == CAROM_NEIGHBOURS_LISTS)
            lists_made += stats.list_rebuilds;
        contacts += t.contacts;
        carom_world_free(t.w);
    }
    fprintf(stderr,
            "  %ld adds and moves taken, %ld refused; %ld species changes taken, %ld refused; "
            "%llu contacts; %llu lists made\n",
            taken, refused, species_taken, species_refused, (unsigned long long)contacts,
            (unsigned long long)lists_made);
    CHECK(taken > 1000 && refused > 100 && contacts > 1000);
    CHECK(species_taken > 100 && species_refused > 20 && lists_made > 1000);
}

/* ---- one level of cells, always ------------------------------------------ */

/* A sheared world keeps every sphere in one dense level of cells, as wide
 * as its largest sphere needs: radii spread 1:10 (which would otherwise
 * get a hierarchy, or the largest kept out of the grid), a box so sparse
 * that its cells would otherwise be hashed, and a world emptied by
 * removals all advance, and the spheres never overlap, through the
 * images too. */
static void test_one_level_always(void)
{
    for (int kind = 0; kind < 2; kind++) {
        int dim = kind ? 3 : 2;
        double L = kind ? 60.0 : 40.0;
        carom_world_def def = carom_world_default_def();
        def.dim = dim;
        for (int k = 0; k < 3; k++)
            def.box[k] = L;
        carom_world *w = carom_world_create(&def, NULL);
        CHECK_OK(carom_world_set_shear(w, 0.5));
        rng_state = 99 + (uint64_t)kind;
        carom_sphere_id ids[8];
        double x[8][3], r[8];
        int n = 0;
        for (int tries = 0; n < 8 && tries < 1000; tries++) {
            carom_sphere_def s = carom_sphere_default_def();
            s.radius = kind ? 0.5 : 0.5 + 4.5 * (n % 2); /* 2D: 0.5 and 5; 3D: sparse */
            for (int k = 0; k < dim; k++) {
                s.position[k] = L * urand();
                s.velocity[k] = 4.0 * (urand() - 0.5);
            }
            int clear = 1; /* the offset is 0 at the start: plain images */
            for (int j = 0; j < n; j++) {
                double d2 = 0.0;
                for (int k = 0; k < dim; k++) {
                    double d = s.position[k] - x[j][k];
                    d -= L * round(d / L);
                    d2 += d * d;
                }
                clear &= d2 > (s.radius + r[j]) * (s.radius + r[j]) * 1.01;
            }
            if (clear) {
                memcpy(x[n], s.position, sizeof x[n]);
                r[n] = s.radius;
                CHECK_OK(carom_world_add_sphere(w, &s, &ids[n]));
                n++;
            }
        }
        CHECK(n == 8);
        CHECK_OK(carom_world_advance_to(w, 0.0));
        CHECK_OK(carom_world_advance_to(w, 40.0));
        CHECK(carom_world_max_overlap_now(w) < 1e-9);
        for (int i = 0; i < n; i++)
            CHECK_OK(carom_world_remove_sphere(w, ids[i]));
        CHECK_OK(carom_world_advance_to(w, 41.0));
        CHECK(carom_world_sphere_count(w) == 0);
        carom_world_free(w);
    }
}

/* ---- refusals ------------------------------------------------------------ */

static void test_refusals(void)
{
    carom_world_def def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 10.0;
    carom_world *w = carom_world_create(&def, NULL);
    CHECK(carom_world_set_shear(w, NAN) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_world_set_shear(w, INFINITY) == CAROM_ERR_INVALID_ARGUMENT);
    carom_world_free(w);

    def.boundary[1] = CAROM_BOUNDARY_WALLS;
    w = carom_world_create(&def, NULL);
    CHECK(carom_world_set_shear(w, 1.0) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "walls") != NULL);
    carom_world_free(w);

    def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 10.0;
    def.gravity[1] = -1.0;
    w = carom_world_create(&def, NULL);
    CHECK(carom_world_set_shear(w, 1.0) == CAROM_ERR_INVALID_ARGUMENT);
    carom_world_free(w);

    def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 10.0;
    def.response = CAROM_RESPONSE_NONE;
    w = carom_world_create(&def, NULL);
    CHECK(carom_world_set_shear(w, 1.0) == CAROM_ERR_INVALID_ARGUMENT);
    carom_world_free(w);

    /* Overlapping through the sheared boundary at the first advance: the
     * image above is displaced by rate Ly t, so at t = 0 plainly. */
    def = carom_world_default_def();
    def.box[0] = def.box[1] = def.box[2] = 10.0;
    w = carom_world_create(&def, NULL);
    CHECK_OK(carom_world_set_shear(w, 1.0));
    carom_sphere_def s = carom_sphere_default_def();
    s.position[0] = 5.0;
    s.position[1] = 9.8;
    s.position[2] = 5.0;
    CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    s.position[1] = 0.1;
    CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_OVERLAP);
    /* Queries would not see across the boundary. */
    carom_sphere_id ids[4];
    size_t count;
    CHECK(carom_world_query_sphere(w, s.position, 1.0, ids, 4, &count) ==
          CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(carom_world_error_message(w), "sheared") != NULL);
    /* Shear off: the pair overlaps plainly too. */
    CHECK_OK(carom_world_set_shear(w, 0.0));
    CHECK(carom_world_shear_offset(w) == 0.0);
    CHECK(carom_world_advance_to(w, 1.0) == CAROM_ERR_OVERLAP);
    carom_world_free(w);

    /* Spheres at rest meet through the moving images. Sphere 0 at
     * (2, 9.8) sees the images above of spheres 1 and 2 at y = 10.1,
     * moving at 10 along x: sphere 2's at x = 9 + 10 t - 10 comes to
     * 2 - sqrt(1 - 0.3^2) at t = (3 - sqrt(0.91)) / 10 = 0.2046, before
     * sphere 1's (x = 5 + 10 t - 10, at 0.6046). */
    w = carom_world_create(&def, NULL);
    CHECK_OK(carom_world_set_shear(w, 1.0));
    double at[3][3] = {{2.0, 9.8, 5.0}, {5.0, 0.1, 5.0}, {9.0, 0.1, 5.0}};
    for (int i = 0; i < 3; i++) {
        s = carom_sphere_default_def();
        memcpy(s.position, at[i], sizeof at[i]);
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 0.01));
    CHECK_NEAR(carom_world_shear_offset(w), 0.1, 1e-15);
    collision got[4];
    recorder r = {got, 0, 4};
    carom_world_free(w);
    def.on_contact = record;
    def.user_data = &r;
    w = carom_world_create(&def, NULL);
    CHECK_OK(carom_world_set_shear(w, 1.0));
    for (int i = 0; i < 3; i++) {
        s = carom_sphere_default_def();
        memcpy(s.position, at[i], sizeof at[i]);
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 0.25));
    CHECK(r.n == 1);
    carom_world_free(w);

    /* A restart's offset, read back mod Lx, is checked by the next
     * advance: with 27 the image above of sphere 1 (5, 0.1) is at x = 2,
     * on sphere 0 (2, 9.8); with 1, 2 apart. */
    def.on_contact = NULL;
    w = carom_world_create(&def, NULL);
    CHECK(carom_world_set_shear_offset(w, 1.0) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK_OK(carom_world_set_shear(w, 1.0));
    CHECK(carom_world_set_shear_offset(w, NAN) == CAROM_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < 2; i++) {
        s = carom_sphere_default_def();
        memcpy(s.position, at[i], sizeof at[i]);
        CHECK_OK(carom_world_add_sphere(w, &s, NULL));
    }
    CHECK_OK(carom_world_advance_to(w, 0.0));
    CHECK_OK(carom_world_set_shear_offset(w, 27.0));
    CHECK_NEAR(carom_world_shear_offset(w), 7.0, 1e-15);
    CHECK(carom_world_advance_to(w, 0.1) == CAROM_ERR_OVERLAP);
    CHECK_OK(carom_world_set_shear_offset(w, 1.0));
    CHECK_OK(carom_world_advance_to(w, 0.1));
    CHECK_NEAR(carom_world_shear_offset(w), 2.0, 1e-14);
    CHECK(r.n >= 1 && got[0].i == 0 && got[0].j == 2);
    CHECK_NEAR(got[0].t, (3.0 - sqrt(0.91)) / 10.0, 1e-14);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_refusals);
    RUN(test_one_level_always);
    RUN(test_reference);
    RUN(test_reference_lists);
    RUN(test_random_ops);
    RUN(test_long_run_2d);
    RUN(test_long_run_3d);
    RUN(test_long_run_3d_lists);
    return check_failures ? 1 : 0;
}
