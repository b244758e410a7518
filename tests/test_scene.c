/* Unit tests of scene generation: lattices (count, inside the box, no
 * overlap including across periodic boundaries), random placement,
 * Maxwell-Boltzmann velocities (zero momentum, exact kT), XYZ round trip
 * and world round trip, spins and species kept with their spheres. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/scene.h"
#include "check.h"

/* Smallest gap (distance - r_i - r_j) over all pairs, O(n^2). */
static double min_gap(const carom_scene *s)
{
    double best = INFINITY;
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = i + 1; j < s->n; j++) {
            double d2 = 0.0;
            for (int d = 0; d < s->dim; d++) {
                double dx = s->position[i][d] - s->position[j][d];
                if (s->boundary[d] == CAROM_BOUNDARY_PERIODIC)
                    dx -= s->box[d] * floor(dx / s->box[d] + 0.5);
                d2 += dx * dx;
            }
            double gap = sqrt(d2) - s->radius[i] - s->radius[j];
            if (gap < best)
                best = gap;
        }
    return best;
}

static int inside_box(const carom_scene *s)
{
    for (size_t i = 0; i < s->n; i++) {
        for (int d = 0; d < s->dim; d++) {
            double x = s->position[i][d], r = s->radius[i];
            if (s->boundary[d] == CAROM_BOUNDARY_WALLS) {
                if (!(x - r >= 0.0 && x + r <= s->box[d]))
                    return 0;
            } else if (!(x >= 0.0 && x < s->box[d])) {
                return 0;
            }
        }
        if (s->dim == 2 && s->position[i][2] != 0.0)
            return 0;
    }
    return 1;
}

static void set_box(carom_scene *s, int dim, double l, carom_boundary b)
{
    s->dim = dim;
    for (int d = 0; d < 3; d++) {
        s->box[d] = l;
        s->boundary[d] = b;
    }
}

static void check_lattice(int dim, size_t n, double packing, carom_lattice lattice,
                          carom_boundary b)
{
    carom_scene s;
    carom_scene_init(&s);
    double r = 0.5;
    set_box(&s, dim, carom_box_length_for_packing(dim, n, r, packing), b);
    carom_error err;
    carom_status st = carom_scene_lattice(&s, n, r, lattice, &err);
    if (st != CAROM_OK) {
        fprintf(stderr, "lattice dim=%d n=%zu packing=%g lattice=%d boundary=%d: %s\n", dim, n,
                packing, (int)lattice, (int)b, err.message);
        check_failures++;
        carom_scene_free(&s);
        return;
    }
    CHECK(s.n == n);
    CHECK(inside_box(&s));
    double gap = min_gap(&s);
    if (!(gap >= 0.0))
        fprintf(stderr, "overlap dim=%d n=%zu packing=%g lattice=%d boundary=%d gap=%g\n", dim,
                n, packing, (int)lattice, (int)b, gap);
    CHECK(gap >= 0.0);
    for (size_t i = 0; i < s.n; i++) {
        CHECK(s.radius[i] == r);
        CHECK(s.mass[i] == 1.0);
        CHECK(s.velocity[i][0] == 0.0 && s.velocity[i][1] == 0.0 && s.velocity[i][2] == 0.0);
    }
    carom_scene_free(&s);
}

static void test_lattices(void)
{
    const size_t counts[] = {1, 2, 7, 50, 100, 257, 500, 1000};
    const double packings[] = {0.05, 0.2, 0.4, 0.5};
    for (size_t a = 0; a < sizeof counts / sizeof counts[0]; a++)
        for (size_t b = 0; b < sizeof packings / sizeof packings[0]; b++)
            for (int w = 0; w < 2; w++) {
                carom_boundary bd = w ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC;
                size_t n = counts[a];
                double eta = packings[b];
                /* A handful of spheres in a box sized for them at high
                 * packing may not fit on any lattice (two spheres at
                 * packing 0.4 in a walled cube do not fit at all), so
                 * tiny n are only required at low packing. */
                if (eta <= 0.2 || n >= 100) {
                    check_lattice(2, n, eta, CAROM_LATTICE_AUTO, bd);
                    check_lattice(3, n, eta, CAROM_LATTICE_AUTO, bd);
                    check_lattice(2, n, eta, CAROM_LATTICE_HEX, bd);
                }
                if ((eta <= 0.2 && n >= 7) || n >= 100)
                    check_lattice(3, n, eta, CAROM_LATTICE_FCC, bd);
                if (eta <= 0.2 && n >= 7) {
                    check_lattice(2, n, eta, CAROM_LATTICE_SQUARE, bd);
                    check_lattice(3, n, eta, CAROM_LATTICE_SQUARE, bd);
                }
            }
    /* Dense but below close packing. */
    check_lattice(3, 4000, 0.6, CAROM_LATTICE_FCC, CAROM_BOUNDARY_PERIODIC);
    check_lattice(3, 4000, 0.6, CAROM_LATTICE_FCC, CAROM_BOUNDARY_WALLS);
    check_lattice(3, 500, 0.45, CAROM_LATTICE_FCC, CAROM_BOUNDARY_PERIODIC);
    check_lattice(3, 1999, 0.55, CAROM_LATTICE_FCC, CAROM_BOUNDARY_PERIODIC);
    check_lattice(2, 1000, 0.8, CAROM_LATTICE_HEX, CAROM_BOUNDARY_PERIODIC);
    check_lattice(2, 1000, 0.7, CAROM_LATTICE_HEX, CAROM_BOUNDARY_WALLS);
    check_lattice(2, 777, 0.75, CAROM_LATTICE_HEX, CAROM_BOUNDARY_PERIODIC);
    check_lattice(3, 1000, 0.45, CAROM_LATTICE_SQUARE, CAROM_BOUNDARY_PERIODIC);
    check_lattice(2, 1000, 0.7, CAROM_LATTICE_SQUARE, CAROM_BOUNDARY_PERIODIC);
}

static void test_lattice_errors(void)
{
    carom_scene s;
    carom_scene_init(&s);
    carom_error err;
    /* Above close packing: must fail with a message, not overlap. */
    set_box(&s, 3, carom_box_length_for_packing(3, 500, 0.5, 0.8), CAROM_BOUNDARY_PERIODIC);
    CHECK(carom_scene_lattice(&s, 500, 0.5, CAROM_LATTICE_FCC, &err) != CAROM_OK);
    CHECK(strstr(err.message, "cannot place") != NULL);
    set_box(&s, 2, carom_box_length_for_packing(2, 500, 0.5, 0.95), CAROM_BOUNDARY_WALLS);
    CHECK(carom_scene_lattice(&s, 500, 0.5, CAROM_LATTICE_HEX, &err) != CAROM_OK);
    CHECK(strstr(err.message, "too high") != NULL);
    /* Wrong lattice for the dimension, bad radius, NULL error allowed. */
    set_box(&s, 3, 10.0, CAROM_BOUNDARY_PERIODIC);
    CHECK(carom_scene_lattice(&s, 10, 0.5, CAROM_LATTICE_HEX, &err) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_scene_lattice(&s, 10, -1.0, CAROM_LATTICE_FCC, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(carom_scene_lattice(&s, 10, NAN, CAROM_LATTICE_FCC, NULL) == CAROM_ERR_INVALID_ARGUMENT);
    s.dim = 4;
    CHECK(carom_scene_lattice(&s, 10, 0.5, CAROM_LATTICE_AUTO, &err) == CAROM_ERR_INVALID_ARGUMENT);
    carom_scene_free(&s);
}

/* Hexagonal lattice at a perfectly matching periodic box: every sphere
 * has its six neighbours at exactly the lattice constant. */
static void test_hex_geometry(void)
{
    carom_scene s;
    carom_scene_init(&s);
    s.dim = 2;
    s.box[0] = 10.0;                  /* 10 columns of spacing 1 */
    s.box[1] = 10.0 * sqrt(3.0) / 2; /* 10 rows of spacing sqrt(3)/2 */
    carom_error err;
    CHECK(carom_scene_lattice(&s, 100, 0.4, CAROM_LATTICE_HEX, &err) == CAROM_OK);
    CHECK(s.n == 100);
    CHECK_NEAR(min_gap(&s), 1.0 - 0.8, 1e-12);
    carom_scene_free(&s);
}

static void test_random(void)
{
    carom_error err;
    for (int dim = 2; dim <= 3; dim++)
        for (int w = 0; w < 2; w++) {
            carom_scene s;
            carom_scene_init(&s);
            set_box(&s, dim, carom_box_length_for_packing(dim, 800, 0.5, 0.1),
                    w ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC);
            CHECK(carom_scene_random(&s, 800, 0.5, 7, &err) == CAROM_OK);
            CHECK(s.n == 800);
            CHECK(inside_box(&s));
            CHECK(min_gap(&s) >= 0.0);
            carom_scene_free(&s);
        }
    /* Polydisperse, as the seed000 scene. */
    carom_scene s;
    carom_scene_init(&s);
    set_box(&s, 3, 200.0, CAROM_BOUNDARY_WALLS);
    CHECK(carom_scene_resize(&s, 1000, &err) == CAROM_OK);
    CHECK(carom_scene_random_radii(&s, 0.1, 10.0, 3, &err) == CAROM_OK);
    CHECK(carom_scene_place_random(&s, 4, &err) == CAROM_OK);
    CHECK(inside_box(&s));
    CHECK(min_gap(&s) >= 0.0);
    double lo = INFINITY, hi = 0.0;
    for (size_t i = 0; i < s.n; i++) {
        lo = fmin(lo, s.radius[i]);
        hi = fmax(hi, s.radius[i]);
    }
    CHECK(lo >= 0.1 && hi <= 10.0 && hi - lo > 9.0);
    CHECK(carom_scene_random_velocities(&s, 2.5 * sqrt(3.0), 25 * sqrt(3.0), 5, &err) == CAROM_OK);
    for (size_t i = 0; i < s.n; i++) {
        double v = sqrt(s.velocity[i][0] * s.velocity[i][0] + s.velocity[i][1] * s.velocity[i][1] +
                        s.velocity[i][2] * s.velocity[i][2]);
        CHECK(v >= 2.5 * sqrt(3.0) - 1e-9 && v <= 25 * sqrt(3.0) + 1e-9);
    }
    carom_scene_free(&s);
    /* Too dense for random placement: an error, not a hang. */
    carom_scene_init(&s);
    set_box(&s, 2, carom_box_length_for_packing(2, 300, 0.5, 0.8), CAROM_BOUNDARY_PERIODIC);
    CHECK(carom_scene_random(&s, 300, 0.5, 1, &err) != CAROM_OK);
    CHECK(strstr(err.message, "random placement") != NULL);
    carom_scene_free(&s);
}

static void test_maxwell(void)
{
    carom_error err;
    for (int dim = 2; dim <= 3; dim++) {
        carom_scene s;
        carom_scene_init(&s);
        set_box(&s, dim, 20.0, CAROM_BOUNDARY_PERIODIC);
        CHECK(carom_scene_resize(&s, 501, &err) == CAROM_OK);
        for (size_t i = 0; i < s.n; i++)
            s.mass[i] = 1.0 + (double)(i % 5);
        s.mass[17] = INFINITY;
        const double kT = 1.7;
        CHECK(carom_scene_maxwell_velocities(&s, kT, 99, &err) == CAROM_OK);
        double p[3] = {0, 0, 0}, twice_ke = 0.0, pscale = 0.0;
        size_t moving = 0;
        for (size_t i = 0; i < s.n; i++) {
            if (isinf(s.mass[i])) {
                CHECK(s.velocity[i][0] == 0.0 && s.velocity[i][1] == 0.0);
                continue;
            }
            moving++;
            for (int d = 0; d < 3; d++) {
                p[d] += s.mass[i] * s.velocity[i][d];
                pscale += fabs(s.mass[i] * s.velocity[i][d]);
                twice_ke += s.mass[i] * s.velocity[i][d] * s.velocity[i][d];
            }
            if (dim == 2)
                CHECK(s.velocity[i][2] == 0.0);
        }
        for (int d = 0; d < 3; d++)
            CHECK(fabs(p[d]) <= 1e-13 * pscale);
        CHECK_NEAR(twice_ke / (dim * (double)moving), kT, 1e-13);
        /* Same seed, same velocities. */
        double v0 = s.velocity[3][0];
        CHECK(carom_scene_maxwell_velocities(&s, kT, 99, &err) == CAROM_OK);
        CHECK(s.velocity[3][0] == v0);
        CHECK(carom_scene_maxwell_velocities(&s, -1.0, 99, &err) == CAROM_ERR_INVALID_ARGUMENT);
        CHECK(carom_scene_maxwell_velocities(&s, NAN, 99, NULL) == CAROM_ERR_INVALID_ARGUMENT);
        carom_scene_free(&s);
    }
}

static void test_xyz_round_trip(void)
{
    carom_error err;
    for (int dim = 2; dim <= 3; dim++) {
        carom_scene s, t;
        carom_scene_init(&s);
        carom_scene_init(&t);
        set_box(&s, dim, 12.5, CAROM_BOUNDARY_PERIODIC);
        s.boundary[1] = CAROM_BOUNDARY_WALLS;
        CHECK(carom_scene_lattice(&s, 60, 0.5, CAROM_LATTICE_AUTO, &err) == CAROM_OK);
        CHECK(carom_scene_maxwell_velocities(&s, 1.0 / 3.0, 5, &err) == CAROM_OK);
        s.mass[4] = INFINITY;
        s.mass[5] = 0.1;
        s.radius[6] = 0.1;
        const char *path = dim == 2 ? "test_scene_2d.xyz" : "test_scene_3d.xyz";
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (!f)
            return;
        CHECK(carom_xyz_write(f, &s, 1.25, &err) == CAROM_OK);
        fclose(f);
        CHECK(carom_xyz_read(path, &t, &err) == CAROM_OK);
        CHECK(t.dim == dim && t.n == s.n);
        for (int d = 0; d < dim; d++) {
            CHECK(t.box[d] == s.box[d]);
            CHECK(t.boundary[d] == s.boundary[d]);
        }
        for (size_t i = 0; i < s.n && i < t.n; i++) {
            CHECK(memcmp(t.position[i], s.position[i], sizeof t.position[i]) == 0);
            CHECK(memcmp(t.velocity[i], s.velocity[i], sizeof t.velocity[i]) == 0);
            CHECK(t.radius[i] == s.radius[i]);
            CHECK(t.mass[i] == s.mass[i]);
        }
        remove(path);
        carom_scene_free(&s);
        carom_scene_free(&t);
    }
    carom_scene t;
    carom_scene_init(&t);
    CHECK(carom_xyz_read("no/such/file.xyz", &t, &err) == CAROM_ERR_IO);
    CHECK(strstr(err.message, "no/such/file.xyz") != NULL);
    carom_scene_free(&t);
}

/* Writes text to path; 1 if it could. */
static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* A sheared world's state: its offset into the scene
 * (carom_scene_from_world), out as the Lattice's tilt and back to the
 * bit; a tilt read mod Lx; refused, naming file and line, the scene
 * untouched: any other off-diagonal entry, a tilt that is not a number,
 * one with walls along y; and writing an offset with walls. */
static void test_xyz_sheared_lattice(void)
{
    carom_error err;
    carom_scene s, t;
    carom_scene_init(&s);
    carom_scene_init(&t);
    set_box(&s, 3, 9.0, CAROM_BOUNDARY_PERIODIC);
    CHECK(carom_scene_lattice(&s, 27, 0.5, CAROM_LATTICE_AUTO, &err) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(&s, 1.0, 3, &err) == CAROM_OK);
    carom_world *w = carom_scene_create_world(&s, NULL, &err);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK(carom_world_set_shear(w, 0.3) == CAROM_OK);
    CHECK(carom_world_advance_to(w, 1.7) == CAROM_OK);
    CHECK(carom_scene_from_world(&s, w, &err) == CAROM_OK);
    CHECK(s.shear_offset == carom_world_shear_offset(w) && s.shear_offset > 0.0);
    carom_world_free(w);
    const char *path = "test_scene_sheared.xyz";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        CHECK(carom_xyz_write(f, &s, 1.7, &err) == CAROM_OK);
        fclose(f);
    }
    CHECK(carom_xyz_read(path, &t, &err) == CAROM_OK);
    CHECK(t.shear_offset == s.shear_offset && t.n == s.n);
    /* Written by hand: a tilt beyond Lx, and one below 0, read mod Lx. */
    const char *body = " Properties=species:S:1:pos:R:3:radius:R:1\nS 1 1 1 0.5\n";
    char text[400];
    snprintf(text, sizeof text, "1\nLattice=\"10 0 0 23.5 10 0 0 0 10\"%s", body);
    CHECK(write_text(path, text) && carom_xyz_read(path, &t, &err) == CAROM_OK);
    CHECK(t.shear_offset == 3.5);
    snprintf(text, sizeof text, "1\nLattice=\"10 0 0 -2.5 10 0 0 0 10\"%s", body);
    CHECK(write_text(path, text) && carom_xyz_read(path, &t, &err) == CAROM_OK);
    CHECK(t.shear_offset == 7.5);
    const char *refused[] = {"1\nLattice=\"10 0 0 1 10 0 2 0 10\"",
                             "1\nLattice=\"10 1 0 0 10 0 0 0 10\"",
                             "1\nLattice=\"10 0 0 nan 10 0 0 0 10\"",
                             "1\nLattice=\"10 0 0 1 10 0 0 0 10\" pbc=\"T F T\""};
    for (int k = 0; k < 4; k++) {
        snprintf(text, sizeof text, "%s%s", refused[k], body);
        CHECK(write_text(path, text) && carom_xyz_read(path, &t, &err) == CAROM_ERR_PARSE);
        CHECK(strstr(err.message, "test_scene_sheared.xyz:2") != NULL);
        CHECK(t.shear_offset == 7.5);
    }
    s.boundary[1] = CAROM_BOUNDARY_WALLS;
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        CHECK(carom_xyz_write(f, &s, 0.0, &err) == CAROM_ERR_INVALID_ARGUMENT);
        fclose(f);
    }
    remove(path);
    carom_scene_free(&s);
    carom_scene_free(&t);
}

static void test_world_round_trip(void)
{
    carom_error err;
    carom_scene s, t;
    carom_scene_init(&s);
    carom_scene_init(&t);
    set_box(&s, 3, 8.0, CAROM_BOUNDARY_WALLS);
    CHECK(carom_scene_lattice(&s, 40, 0.5, CAROM_LATTICE_FCC, &err) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(&s, 1.0, 2, &err) == CAROM_OK);
    carom_world *w = carom_scene_create_world(&s, NULL, &err);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK(carom_world_sphere_count(w) == 40);
    t.box[0] = t.box[1] = t.box[2] = 8.0;
    CHECK(carom_scene_from_world(&t, w, &err) == CAROM_OK);
    CHECK(t.n == 40);
    for (size_t i = 0; i < t.n; i++) {
        for (int d = 0; d < 3; d++) {
            CHECK(t.position[i][d] == s.position[i][d]);
            CHECK(t.velocity[i][d] == s.velocity[i][d]);
        }
        CHECK(t.radius[i] == s.radius[i]);
    }
    carom_world_free(w);
    carom_scene_free(&s);
    carom_scene_free(&t);
}

/* Spins go with their spheres: a rough world's spins into a scene, through
 * a sort and an XYZ file, and into a new world, to the last bit; a scene
 * without spins writes the columns it always did; a 2D file's spin about
 * x is refused naming the line and column. */
static void test_spins_kept(void)
{
    carom_error err;
    for (int dim = 2; dim <= 3; dim++) {
        carom_scene s, t, u;
        carom_scene_init(&s);
        carom_scene_init(&t);
        carom_scene_init(&u);
        set_box(&s, dim, 9.0, CAROM_BOUNDARY_PERIODIC);
        CHECK(carom_scene_lattice(&s, 50, 0.5, CAROM_LATTICE_AUTO, &err) == CAROM_OK);
        CHECK(carom_scene_maxwell_velocities(&s, 1.0, 3, &err) == CAROM_OK);
        CHECK(s.spin == NULL);
        carom_world_def def = carom_world_default_def();
        def.tangential_restitution = 0.5;
        carom_world *w = carom_scene_create_world(&s, &def, &err);
        CHECK(w != NULL);
        if (!w)
            return;
        CHECK(carom_world_advance_to(w, 3.0) == CAROM_OK);
        CHECK(carom_scene_from_world(&t, w, &err) == CAROM_OK);
        CHECK(t.spin != NULL && t.n == 50);
        if (!t.spin)
            return;
        double spin[3], first_spin[3];
        CHECK(carom_world_get_spin(w, 7, spin) == CAROM_OK);
        CHECK(memcmp(spin, t.spin[7], sizeof spin) == 0 && spin[2] != 0.0);
        memcpy(first_spin, t.spin[0], sizeof first_spin);
        double first_x[3];
        memcpy(first_x, t.position[0], sizeof first_x);
        /* A sort moves each spin with its sphere. */
        CHECK(carom_scene_sort_spatially(&t, &err) == CAROM_OK);
        size_t moved = 0, found = 0;
        for (size_t i = 0; i < t.n; i++)
            if (memcmp(t.position[i], first_x, sizeof first_x) == 0) {
                found++;
                moved = i;
            }
        CHECK(found == 1 && memcmp(t.spin[moved], first_spin, sizeof first_spin) == 0);
        const char *path = "test_scene_spins.xyz";
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (!f)
            return;
        CHECK(carom_xyz_write(f, &t, 3.0, &err) == CAROM_OK);
        fclose(f);
        CHECK(carom_xyz_read(path, &u, &err) == CAROM_OK);
        CHECK(u.spin != NULL && u.n == t.n);
        for (size_t i = 0; u.spin && i < u.n && i < t.n; i++)
            CHECK(memcmp(u.spin[i], t.spin[i], sizeof u.spin[i]) == 0);
        carom_world *v = carom_scene_create_world(&u, &def, &err);
        CHECK(v != NULL);
        for (size_t i = 0; v && i < u.n; i++) {
            CHECK(carom_world_get_spin(v, (carom_sphere_id)i, spin) == CAROM_OK);
            CHECK(memcmp(spin, u.spin[i], sizeof spin) == 0);
        }
        /* A 2D scene's spin about x cannot be written. */
        if (dim == 2) {
            u.spin[3][0] = 0.5;
            f = fopen(path, "w");
            CHECK(f != NULL && carom_xyz_write(f, &u, 0.0, &err) == CAROM_ERR_INVALID_ARGUMENT);
            CHECK(strstr(err.message, "sphere 3: a spin about x") != NULL);
            fclose(f);
            u.spin[3][0] = 0.0;
        }
        /* A scene taken again from a world without spins has none. */
        carom_world *smooth = carom_scene_create_world(&s, NULL, &err);
        CHECK(smooth != NULL && carom_scene_from_world(&t, smooth, &err) == CAROM_OK);
        CHECK(t.spin == NULL);
        carom_world_free(smooth);
        CHECK(carom_scene_from_world(&t, v, &err) == CAROM_OK && t.spin != NULL);
        /* Resizing keeps the spins and gives new spheres none. */
        CHECK(carom_scene_resize(&u, 60, &err) == CAROM_OK);
        CHECK(memcmp(u.spin[10], t.spin[10], sizeof spin) == 0 && u.spin[55][2] == 0.0);
        carom_world_free(v);
        carom_world_free(w);
        carom_scene_free(&u);
        /* Without spins: no spin column. */
        f = fopen(path, "w");
        CHECK(f != NULL && carom_xyz_write(f, &s, 0.0, &err) == CAROM_OK);
        fclose(f);
        CHECK(carom_xyz_read(path, &u, &err) == CAROM_OK && u.spin == NULL);
        remove(path);
        carom_scene_free(&s);
        carom_scene_free(&t);
        carom_scene_free(&u);
    }
    const char *path = "test_scene_bad_spin.xyz";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "2\nLattice=\"5 0 0 0 5 0 0 0 1\" Properties=species:S:1:pos:R:3:radius:R:1:"
               "spin:R:3 dim=2\nS 1 1 0 0.5 0 0 2\nS 3 3 0 0.5 0.25 0 1\n");
    fclose(f);
    carom_scene u;
    carom_scene_init(&u);
    CHECK(carom_xyz_read(path, &u, &err) == CAROM_ERR_PARSE);
    CHECK(strstr(err.message, "test_scene_bad_spin.xyz:4: column 6 (spin x)") != NULL);
    remove(path);
    carom_scene_free(&u);
}

/* Species go with their spheres: through resizing, a sort, a world and
 * back, and an XYZ file ("S<k>"; "S" and other names are species 0, and
 * a file with no S<k> gives no species array); out of range is refused
 * naming the sphere (a world) or the file, line and column (a file). */
static void test_species_kept(void)
{
    carom_error err;
    carom_scene s, t;
    carom_scene_init(&s);
    carom_scene_init(&t);
    CHECK(carom_scene_add_species(&s, &err) == CAROM_OK && s.species == NULL); /* no spheres */
    set_box(&s, 3, 9.0, CAROM_BOUNDARY_PERIODIC);
    CHECK(carom_scene_lattice(&s, 50, 0.5, CAROM_LATTICE_AUTO, &err) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(&s, 1.0, 3, &err) == CAROM_OK);
    CHECK(s.species == NULL);
    CHECK(carom_scene_add_species(&s, &err) == CAROM_OK && s.species != NULL);
    if (!s.species)
        return;
    for (size_t i = 0; i < s.n; i++)
        CHECK(s.species[i] == 0);
    for (size_t i = 0; i < s.n; i++) {
        s.species[i] = (uint32_t)(i % 5);
        s.mass[i] = 1.0 + (double)i; /* tells the spheres apart after a sort */
    }
    /* Resizing keeps the species and gives new spheres 0. */
    CHECK(carom_scene_resize(&s, 60, &err) == CAROM_OK);
    CHECK(s.species[13] == 3 && s.species[49] == 4 && s.species[55] == 0);
    CHECK(carom_scene_resize(&s, 50, &err) == CAROM_OK && s.species[49] == 4);
    /* A sort moves each species with its sphere. */
    CHECK(carom_scene_sort_spatially(&s, &err) == CAROM_OK);
    int moved = 0;
    for (size_t i = 0; i < s.n; i++) {
        size_t was = (size_t)(s.mass[i] - 1.0);
        CHECK(s.species[i] == (uint32_t)(was % 5));
        moved |= was != i;
    }
    CHECK(moved);
    /* Into a world and back. */
    carom_world *w = carom_scene_create_world(&s, NULL, &err);
    CHECK(w != NULL);
    if (!w)
        return;
    for (size_t i = 0; i < s.n; i++) {
        carom_sphere_state state;
        CHECK(carom_world_get_sphere(w, (carom_sphere_id)i, &state) == CAROM_OK);
        CHECK(state.species == s.species[i]);
    }
    CHECK(carom_scene_from_world(&t, w, &err) == CAROM_OK && t.species != NULL && t.n == s.n);
    for (size_t i = 0; t.species && i < t.n; i++)
        CHECK(t.species[i] == s.species[i]);
    carom_world_free(w);
    /* A world whose spheres are all species 0 gives no species array,
     * and replaces the scene's. */
    carom_scene u;
    carom_scene_init(&u);
    set_box(&u, 2, 9.0, CAROM_BOUNDARY_WALLS);
    CHECK(carom_scene_lattice(&u, 30, 0.5, CAROM_LATTICE_AUTO, &err) == CAROM_OK);
    CHECK(carom_scene_add_species(&u, &err) == CAROM_OK); /* all 0 */
    w = carom_scene_create_world(&u, NULL, &err);
    CHECK(w != NULL && carom_scene_from_world(&t, w, &err) == CAROM_OK && t.species == NULL);
    carom_world_free(w);
    /* Out of range: refused naming the sphere. */
    s.species[7] = CAROM_SPECIES_MAX;
    CHECK(carom_scene_create_world(&s, NULL, &err) == NULL);
    CHECK(err.status == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "sphere 7: species 32 out of range") != NULL);
    /* ...and not written to a file either. */
    const char *path = "test_scene_species.xyz";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(carom_xyz_write(f, &s, 0.0, &err) == CAROM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "sphere 7: species 32") != NULL);
    fclose(f);
    s.species[7] = CAROM_SPECIES_MAX - 1;
    /* An XYZ file: S<k> written, read back. */
    f = fopen(path, "w");
    CHECK(f != NULL && carom_xyz_write(f, &s, 0.5, &err) == CAROM_OK);
    fclose(f);
    char line[512];
    f = fopen(path, "r");
    CHECK(f != NULL);
    for (int k = 0; f && k < 3; k++)
        CHECK(fgets(line, sizeof line, f) != NULL);
    if (f)
        fclose(f);
    char want[16];
    snprintf(want, sizeof want, "S%u ", (unsigned)s.species[0]);
    CHECK(strncmp(line, want, strlen(want)) == 0);
    CHECK(carom_xyz_read(path, &t, &err) == CAROM_OK && t.species != NULL && t.n == s.n);
    for (size_t i = 0; t.species && i < t.n; i++) {
        CHECK(t.species[i] == s.species[i]);
        CHECK(memcmp(t.position[i], s.position[i], sizeof t.position[i]) == 0);
    }
    /* Without species: "S", as before, and none read back. */
    free(u.species); /* (all 0, yet written S0 while there) */
    u.species = NULL;
    f = fopen(path, "w");
    CHECK(f != NULL && carom_xyz_write(f, &u, 0.0, &err) == CAROM_OK);
    fclose(f);
    CHECK(carom_xyz_read(path, &t, &err) == CAROM_OK && t.species == NULL);
    f = fopen(path, "r");
    CHECK(f != NULL);
    for (int k = 0; f && k < 3; k++)
        CHECK(fgets(line, sizeof line, f) != NULL);
    if (f)
        fclose(f);
    CHECK(strncmp(line, "S ", 2) == 0);
    /* Mixed names: S, element names and S<k> (the array appears at the
     * first S<k>, the lines before are 0). */
    static const char header[] = "Lattice=\"10 0 0 0 10 0 0 0 10\" "
                                 "Properties=species:S:1:pos:R:3:radius:R:1 pbc=\"T T T\"\n";
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "5\n%sSi 1 1 1 0.5\nS 3 1 1 0.5\nS17 5 1 1 0.5\nS 7 1 1 0.5\nS05 9 1 1 0.5\n",
            header);
    fclose(f);
    CHECK(carom_xyz_read(path, &t, &err) == CAROM_OK && t.species != NULL && t.n == 5);
    static const uint32_t mixed[5] = {0, 0, 17, 0, 5};
    for (size_t i = 0; t.species && i < 5; i++)
        CHECK(t.species[i] == mixed[i]);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "2\n%sAr 1 1 1 0.5\nS 3 1 1 0.5\n", header);
    fclose(f);
    CHECK(carom_xyz_read(path, &t, &err) == CAROM_OK && t.species == NULL && t.n == 2);
    /* A species out of range: the file, line and column. */
    for (int big = 0; big < 2; big++) {
        f = fopen(path, "w");
        CHECK(f != NULL);
        if (!f)
            return;
        fprintf(f, "2\n%sS1 1 1 1 0.5\n%s 3 1 1 0.5\n", header,
                big ? "S99999999999999999999" : "S32");
        fclose(f);
        CHECK(carom_xyz_read(path, &t, &err) == CAROM_ERR_PARSE);
        CHECK(strstr(err.message, "test_scene_species.xyz:4: column 1 (species)") != NULL);
        CHECK(strstr(err.message, "out of range (S0 to S31)") != NULL);
    }
    remove(path);
    carom_scene_free(&s);
    carom_scene_free(&t);
    carom_scene_free(&u);
}

int main(void)
{
    test_lattices();
    test_lattice_errors();
    test_hex_geometry();
    test_random();
    test_maxwell();
    test_xyz_round_trip();
    test_xyz_sheared_lattice();
    test_world_round_trip();
    test_spins_kept();
    test_species_kept();
    return CHECK_REPORT();
}
