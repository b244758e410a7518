/* libFuzzer target: the event loop on worlds made from any bytes, checked
 * by arithmetic of its own after every advance (as test_random_ops does
 * with a random number generator, but steered by coverage towards the
 * corners: spheres placed touching, sizes and speeds over many orders of
 * magnitude, tiny and large boxes, obstacles, gravity, restitution).
 *
 * The bytes choose the world (dim, walls per axis, response, gravity,
 * restitution, neighbour structure, sorting) and up to MAX_SPHERES
 * spheres. A sphere that would overlap one already added (by this file's
 * own O(N^2) test) is left out, so the world must accept every sphere it
 * is given; a sphere placed touching another may be refused as
 * overlapping (its last bits decide). Then the world advances in a few
 * steps, each under an event budget. After each step:
 * - the world is at the time asked when the budget was enough;
 * - no two spheres overlap by more than 1e-9 of their contact distance,
 *   every sphere is inside a walled box (unless report-only);
 * - elastic worlds keep their energy (kinetic, and potential under
 *   gravity along a walled axis) to 1e-9, report-only worlds exactly; a
 *   world with restitution does not gain energy without gravity (beyond
 *   what restitution_min_speed may give); none of this with obstacles
 *   that move, which give energy as moving walls would; elastic worlds
 *   may be perfectly rough (tangential restitution 1: their spins'
 *   energy is counted too);
 * - a periodic world without obstacles, segments or triangles keeps its
 *   momentum;
 * - the contacts recorded (def.record_contacts) are the step's: in time
 *   order within it, as many sphere contacts and wall hits as the stats
 *   count, between spheres that exist (or a walled face), with unit
 *   normals;
 * - some worlds grow their spheres (carom_world_set_growth, by up to 30%
 *   over the run): the same checks with the radii of the moment, but
 *   energy, which growth gives;
 * - in a report-only world without gravity, segments or triangles
 *   (which, like walls, still reflect), every sphere's unwrapped position
 *   (def.count_images) along each periodic axis is its start plus
 *   velocity times time (to 1e-9 of the distances involved);
 * - the bytes left after the spheres (fewer than a sphere's) may add a
 *   fixed plane across a corner of a walled world (carom_world_add_plane;
 *   refused when a sphere is behind it): no sphere is ever behind it by
 *   more than 1e-9 of its radius, and its hits are recorded as plane
 *   contacts and counted among the wall hits (growing spheres too, with
 *   the radius of the moment; report-only worlds with a plane keep their
 *   energy to 1e-9, as a reflection off a plane rounds);
 * - then each 4 more bytes (up to 12) may add a fixed segment to a 2D
 *   world (anywhere along periodic axes, where the world repeats it;
 *   carom_world_add_segment; refused when a sphere overlaps it): no
 *   centre ever nearer to one (its nearest image) than its radius less
 *   1e-9 of it, its contacts recorded as segment contacts (growing disks
 *   too);
 * - or 9 bytes a fixed triangle to a 3D world (anywhere along periodic
 *   axes, where the world repeats it), cut into 16 that share edges and
 *   corners (carom_world_add_triangle; several leaves of the world's tree
 *   of triangles), checked in the same way, distances to the nearest
 *   image;
 * - scene queries (check_queries, fuzz_worlds.h: casts, the spheres and
 *   the obstacles a sphere overlaps) agree with the states;
 * - species worlds also take contact laws by species (set_laws: smooth,
 *   rough, sliding, with restitutions of their own), and the energy
 *   checks above hold with them;
 * - species: one world in four (the step byte's top two bits; the bytes
 *   read as before otherwise) gives its spheres species 0 to 2
 *   (read_sphere, fuzz_worlds.h) and reads two more bytes after the
 *   header. The first, the table: its bits 0-5 say whether the pairs
 *   (0,0) (0,1) (0,2) (1,1) (1,2) (2,2) pass through each other; bit 6
 *   sets the table after the spheres are added rather than before, bit 7
 *   gives the species by carom_world_set_species after each add rather
 *   than by the definition (before the first advance, all taken). The
 *   placement's overlap test leaves out the pairs that pass through, and
 *   a sphere placed touching one it passes through is placed overlapping
 *   it; the overlap checks after each step leave them out too, a recorded
 *   sphere contact must be between spheres that meet, and
 *   carom_world_max_overlap_now must be this file's largest overlap
 *   between spheres that meet (to 1e-9 of the contact distance and the
 *   coordinates' rounding). The second byte, changes: after step k (1 to
 *   5, in a world that does not grow) whose bit k - 1 is set, a change
 *   (the top 3 bits plus k, modulo 8: one of the six pairs flipped, or a
 *   sphere's species moved on by 1 or 2): one that makes spheres
 *   overlapping by more than 2e-10 of their contact distance meet must be
 *   refused with CAROM_ERR_OVERLAP and change nothing (table and species
 *   read back); one under which no pair it concerns that meets overlaps
 *   by more than 0.5e-10, and any change in a report-only world, must be
 *   taken; energy and momentum are checked across it as before. A
 *   species world that responds and does not grow, with a steps byte of
 *   192 or more, has the pairs apart sense each other instead
 *   (carom_world_set_sense): the same checks, and their contacts may be
 *   recorded, with impulse 0, as many as the stats count as sensed, and
 *   their partings, as many as the stats count as parted.
 * - the stress observer (carom/stress.h), fed each step's recorded
 *   contacts, must accept every periodic world without gravity, growth,
 *   obstacles, segments or triangles (its velocities always the world's: no false
 *   refusal), and
 *   in a smooth elastic one the trace of S must be 2 E t plus the virial
 *   (to 1e-9 of their sizes), E the kinetic energy at the start. Its heat
 *   integral must be refused for unequal masses or a net momentum, and
 *   given for equal masses without one in a smooth elastic (or
 *   report-only) world. Such worlds are centred (each velocity less the
 *   centre of mass's, before the first advance) where the steps byte is
 *   96 to 191, so that equal masses come without momentum.
 * Any other outcome aborts with a message, which libFuzzer reports with
 * the input. CAROM_ERR_STUCK is allowed only with obstacles, whose
 * infinite mass can squeeze a sphere without end. Built only with
 * -DCAROM_FUZZ=ON and clang. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/stress.h"
#include "fuzz_worlds.h"

#define MAX_SPHERES 24
#define EVENT_BUDGET 20000
#define SPHERE_BYTES 15

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* How far the coordinates' rounding may move a relative overlap of
 * spheres a contact distance sigma apart. */
static double rounding(const world_spec *s, double sigma)
{
    double big = fmax(s->box[0], fmax(s->box[1], s->box[2]));
    return 8.0 * 2.220446049250313e-16 * big / sigma;
}

/* carom_world_max_overlap_now against the largest overlap between
 * spheres that meet, by this file's arithmetic. */
static void check_max_overlap(const carom_world *w, const world_spec *s, const placed *p, int n)
{
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (!meet(s, &p[i], &p[j]))
                continue;
            double sigma = p[i].r + p[j].r, o = (sigma - distance(s, p[i].x, p[j].x)) / sigma;
            double tol = 1e-9 + rounding(s, sigma);
            lo = fmax(lo, o - tol);
            hi = fmax(hi, o + tol);
        }
    double theirs = carom_world_max_overlap_now(w);
    if (!(theirs >= lo && theirs <= hi))
        fail("carom_world_max_overlap_now is not the largest overlap of spheres that meet",
             theirs - lo);
}

/* The rounding of a pair's coordinates, as a change of species allows it. */
static double pair_rounding(const world_spec *s, const placed *a, const placed *b)
{
    return rounding(s, a->r + b->r);
}

/* Change number k (after step k) from the changes byte (species_change_make). */
static void change_species(carom_world *w, world_spec *s, placed *p, int n, unsigned changes,
                           unsigned k)
{
    species_change c;
    if (species_change_make(s, n, changes, k, &c))
        species_change_apply(w, s, p, n, &c, pair_rounding, "fuzz_world");
}

/* Energy of the finite-mass spheres (potential m g y under gravity, and
 * their spins' in a rough world). */
static double energy(const carom_world *w, const world_spec *s, const placed *p, int n, double g)
{
    double e = carom_world_rotational_energy(w);
    for (int i = 0; i < n; i++) {
        if (!isfinite(p[i].m))
            continue;
        double v2 = 0.0;
        for (int k = 0; k < 3; k++)
            v2 += p[i].v[k] * p[i].v[k];
        e += 0.5 * p[i].m * v2 + (s->gravity ? p[i].m * g * p[i].x[1] : 0.0);
    }
    return e;
}

/* The step's recorded contacts against the stats' counts (what the step
 * added to them) and the world's spheres and faces. */
static void check_recorded(const carom_world *w, const world_spec *s, const placed *p, int n,
                           double t_start, uint64_t collisions, uint64_t wall_hits,
                           uint64_t sensed, uint64_t parted)
{
    size_t count;
    const carom_contact *c = carom_world_recorded_contacts(w, &count);
    uint64_t spheres = 0, walls = 0, sensings = 0, partings = 0;
    double last = t_start;
    for (size_t k = 0; k < count; k++) {
        if (!(c[k].time >= last && c[k].time <= carom_world_time(w)))
            fail("a recorded contact out of the step or out of order", c[k].time);
        last = c[k].time;
        double len = sqrt(c[k].normal[0] * c[k].normal[0] + c[k].normal[1] * c[k].normal[1] +
                          c[k].normal[2] * c[k].normal[2]);
        if (!(fabs(len - 1.0) <= 1e-9 || (len == 0.0 && c[k].kind == CAROM_CONTACT_SPHERE)))
            fail("a recorded contact's normal is not a unit vector", len);
        int known_i = 0, known_j = 0;
        for (int m = 0; m < n; m++) {
            known_i |= p[m].id == c[k].i;
            known_j |= p[m].id == c[k].j;
        }
        if (!known_i)
            fail("a recorded contact of a sphere that is not there", (double)c[k].i);
        if (c[k].parting && c[k].kind != CAROM_CONTACT_SPHERE)
            fail("a parting of a sphere from a surface", (double)c[k].kind);
        if (c[k].kind == CAROM_CONTACT_SPHERE) {
            if (!known_j || c[k].j == c[k].i)
                fail("a recorded sphere contact without two spheres", (double)c[k].j);
            const placed *a = NULL, *b = NULL;
            for (int m = 0; m < n; m++) {
                a = p[m].id == c[k].i ? &p[m] : a;
                b = p[m].id == c[k].j ? &p[m] : b;
            }
            if (c[k].parting && !(s->sensing && !meet(s, a, b) && c[k].impulse == 0.0))
                fail("a parting of spheres that do not sense each other", (double)c[k].i);
            if (meet(s, a, b)) {
                spheres++;
            } else if (c[k].parting) {
                partings++;
            } else if (s->sensing && c[k].impulse == 0.0) {
                sensings++; /* sensing pairs: reported without a push */
            } else {
                fail("a recorded contact between spheres that pass through each other",
                     (double)(a->species * FUZZ_SPECIES + b->species));
            }
        } else if (c[k].kind == CAROM_CONTACT_PLANE) {
            walls++;
            if (c[k].wall < 0 || (size_t)c[k].wall >= carom_world_plane_count(w))
                fail("a recorded plane contact on no plane", (double)c[k].wall);
        } else if (c[k].kind == CAROM_CONTACT_SEGMENT) {
            walls++;
            if (c[k].wall < 0 || (size_t)c[k].wall >= carom_world_segment_count(w))
                fail("a recorded segment contact on no segment", (double)c[k].wall);
        } else if (c[k].kind == CAROM_CONTACT_TRIANGLE) {
            walls++;
            if (c[k].wall < 0 || (size_t)c[k].wall >= carom_world_triangle_count(w))
                fail("a recorded triangle contact on no triangle", (double)c[k].wall);
        } else {
            walls++;
            if (c[k].wall < 0 || c[k].wall >= 2 * s->dim || !s->walls[c[k].wall / 2])
                fail("a recorded wall hit on no wall", (double)c[k].wall);
        }
    }
    if (spheres != collisions || walls != wall_hits || sensings != sensed || partings != parted)
        fail("the recorded contacts are not those the stats count",
             (double)spheres - (double)collisions + (double)walls - (double)wall_hits +
                 (double)sensings - (double)sensed + (double)partings - (double)parted);
}

/* Sphere i's position plus image times box along axis a. */
static double unwrapped(const carom_world *w, const world_spec *s, const placed *p, int a)
{
    int64_t image[3];
    if (carom_world_get_image(w, p->id, image) != CAROM_OK)
        fail("no image for a sphere the world accepted", (double)p->id);
    return p->x[a] + (double)image[a] * s->box[a];
}

/* Report-only, no gravity: straight flight along periodic axes, whose
 * velocity nothing changes. */
static void check_straight(const carom_world *w, const world_spec *s, const placed *p, int n,
                           const double (*u0)[3], const double (*v0)[3], double t)
{
    for (int i = 0; i < n; i++)
        for (int a = 0; a < s->dim; a++) {
            if (s->walls[a] || p[i].driven)
                continue;
            double expect = u0[i][a] + v0[i][a] * t;
            double scale = fabs(u0[i][a]) + fabs(v0[i][a] * t) + s->box[a];
            if (!(fabs(unwrapped(w, s, &p[i], a) - expect) <= 1e-9 * scale))
                fail("an unwrapped position left its straight line",
                     unwrapped(w, s, &p[i], a) - expect);
        }
}

/* The stress observer's run: where it must hold, and what it started from. */
typedef struct stress_run {
    carom_stress *observer; /* NULL: not a world it holds in */
    int smooth_elastic;     /* the trace of S is checked */
    int heat;               /* the heat integral: HEAT_REFUSED, HEAT_GIVEN or HEAT_EITHER */
    double t0, virial0, energy0;
} stress_run;

enum { HEAT_EITHER, HEAT_REFUSED, HEAT_GIVEN };

/* What carom_stress_heat_integral must do in a world the observer holds
 * in: refuse unequal masses, and a momentum clearly above 1e-9 of
 * sum m|v|; give Q where the masses are equal, the momentum clearly below
 * that, and contacts keep the translational energy (smooth elastic or
 * report-only); either, in between and with rough or inelastic laws. */
static int heat_expected(const placed *p, int n, int smooth_elastic)
{
    double momentum[3] = {0.0, 0.0, 0.0}, carried = 0.0;
    for (int i = 0; i < n; i++) {
        if (p[i].m != p[0].m)
            return HEAT_REFUSED;
        for (int k = 0; k < 3; k++)
            momentum[k] += p[i].m * p[i].v[k];
        carried += p[i].m * sqrt(p[i].v[0] * p[i].v[0] + p[i].v[1] * p[i].v[1] +
                                 p[i].v[2] * p[i].v[2]);
    }
    double total = sqrt(momentum[0] * momentum[0] + momentum[1] * momentum[1] +
                        momentum[2] * momentum[2]);
    if (total > 1.01e-9 * carried)
        return HEAT_REFUSED;
    return total < 0.99e-9 * carried && smooth_elastic ? HEAT_GIVEN : HEAT_EITHER;
}

/* A centred world (a byte's choice, where the observer holds): each
 * sphere's velocity less the centre of mass's, so that equal masses give
 * the heat integral. */
static void centre_velocities(carom_world *w, placed *p, int n)
{
    double momentum[3] = {0.0, 0.0, 0.0}, mass = 0.0;
    for (int i = 0; i < n; i++) {
        mass += p[i].m;
        for (int k = 0; k < 3; k++)
            momentum[k] += p[i].m * p[i].v[k];
    }
    for (int i = 0; i < n; i++) {
        double v[3];
        for (int k = 0; k < 3; k++)
            v[k] = p[i].v[k] - momentum[k] / mass;
        if (carom_world_set_velocity(w, p[i].id, v) != CAROM_OK)
            fail("a velocity before the first advance was refused", (double)i);
    }
}

/* Whether the observer must accept the world: periodic on every axis,
 * no gravity, no growth, no sphere of infinite mass, no fixed segment or
 * triangle, some spheres. */
static int stress_fits(const carom_world *w, const world_spec *s, int n, int growing)
{
    int fit = n > 0 && !s->gravity && !growing && !s->obstacles &&
              carom_world_triangle_count(w) == 0 && carom_world_segment_count(w) == 0;
    for (int a = 0; a < s->dim; a++)
        fit &= !s->walls[a];
    return fit;
}

/* Starts the observer on a world it must accept (stress_fits). */
static void stress_begin(stress_run *run, carom_world *w, const world_spec *s, const placed *p,
                         int n, int growing)
{
    run->observer = NULL;
    if (!stress_fits(w, s, n, growing))
        return;
    run->observer = carom_stress_create(NULL);
    if (!run->observer)
        return;
    if (carom_stress_start(run->observer, w) != CAROM_OK) {
        fprintf(stderr, "fuzz_world: %s\n", carom_stress_error_message(run->observer));
        fail("the stress observer refused a periodic world", 0.0);
    }
    carom_stats stats;
    carom_world_get_stats(w, &stats);
    run->smooth_elastic = s->elastic && !carom_world_is_rough(w);
    run->heat = heat_expected(p, n, run->smooth_elastic);
    run->t0 = carom_world_time(w);
    run->virial0 = stats.virial;
    run->energy0 = 0.0;
    for (int i = 0; i < n; i++)
        run->energy0 += 0.5 * p[i].m * (p[i].v[0] * p[i].v[0] + p[i].v[1] * p[i].v[1] +
                                        p[i].v[2] * p[i].v[2]);
}

/* After a step: the step's contacts to the observer, then its integral. */
static void stress_step(stress_run *run, carom_world *w)
{
    if (!run->observer)
        return;
    size_t count = 0;
    const carom_contact *c = carom_world_recorded_contacts(w, &count);
    for (size_t k = 0; k < count; k++) {
        carom_contact copy = c[k];
        carom_stress_on_contact(run->observer, &copy);
    }
    double integral[9];
    if (carom_stress_integral(run->observer, w, integral) != CAROM_OK) {
        fprintf(stderr, "fuzz_world: %s\n", carom_stress_error_message(run->observer));
        fail("the stress observer refused a world whose velocities changed only at contacts",
             carom_world_time(w));
    }
    double heat[3];
    carom_status st = carom_stress_heat_integral(run->observer, w, heat);
    if (run->heat == HEAT_GIVEN && st != CAROM_OK) {
        fprintf(stderr, "fuzz_world: %s\n", carom_stress_error_message(run->observer));
        fail("the heat integral was refused for equal smooth elastic spheres without momentum",
             carom_world_time(w));
    }
    if (run->heat == HEAT_REFUSED && st != CAROM_ERR_INVALID_ARGUMENT)
        fail("the heat integral was given for unequal masses or a net momentum",
             carom_world_time(w));
    if (!run->smooth_elastic)
        return;
    carom_stats stats;
    carom_world_get_stats(w, &stats);
    double kinetic = 2.0 * run->energy0 * (carom_world_time(w) - run->t0);
    double virial = stats.virial - run->virial0;
    double trace = integral[0] + integral[4] + integral[8];
    if (!(fabs(trace - kinetic - virial) <= 1e-9 * (kinetic + fabs(virial)) + 1e-300))
        fail("the trace of the stress integral is not 2 E t plus the virial",
             (trace - kinetic - virial) / (kinetic + fabs(virial)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byte_reader r = {data, size};
    world_spec s = {0};
    carom_world_def def;
    read_spec(&r, &s, &def);
    double r0 = ldexp(1.0, -(int)(take8(&r) % 24));         /* 1 .. 2^-23 */
    double vmax = ldexp(1.0, (int)(take8(&r) % 41) - 20);   /* 2^-20 .. 2^20 */
    unsigned steps_byte = take8(&r), steps = 1 + steps_byte % 6;
    unsigned step_byte = take8(&r);
    double step = ldexp(s.box[0] / vmax, -(int)(step_byte % 12));
    double g = s.gravity ? vmax * vmax / s.box[1] * (1.0 + take8(&r) % 8) : 0.0;
    /* Species (the top comment): the table and the changes. */
    s.species = step_byte >= 192;
    unsigned table = s.species ? take8(&r) : 0, changes = s.species ? take8(&r) : 0;
    for (int k = 0; k < 6; k++)
        if ((table >> k) & 1) {
            s.pass[pair_a[k]] |= 1u << pair_b[k];
            s.pass[pair_b[k]] |= 1u << pair_a[k];
        }
    int table_later = (table >> 6) & 1, species_later = (table >> 7) & 1;
    def.gravity[1] = -g;
    /* Contacts slower than this are elastic and separate at least this
     * fast: a scale of its own for every speed scale. */
    def.restitution_min_speed = 1e-6 * vmax;
    def.record_contacts = 1;
    def.count_images = 1;

    carom_error error;
    carom_world *w = carom_world_create(&def, &error);
    if (!w)
        return 0; /* a definition the world refuses (with a message) */
    /* One world in four without gravity or report-only grows its spheres,
     * by a quarter to all of 30% over the run; a species world that
     * responds and does not grow, whose steps byte is 192 or more, has
     * its pairs apart sense each other. */
    int growing = !s.report_only && !s.gravity && (steps_byte / 6) % 4 == 1;
    s.sensing = s.species && !s.report_only && !growing && steps_byte >= 192;
    if (s.species && !table_later)
        set_table(w, &s);
    if (s.species)
        set_laws(w, &s, &def, table * 256u + changes);
    placed p[MAX_SPHERES];
    int n = 0, touching_any = 0;
    while (n < MAX_SPHERES && r.left >= SPHERE_BYTES) {
        int touching;
        if (!read_sphere(&r, &s, r0, vmax, p, n, &p[n], &touching))
            continue;
        carom_sphere_def sd = carom_sphere_default_def();
        memcpy(sd.position, p[n].x, sizeof sd.position);
        memcpy(sd.velocity, p[n].v, sizeof sd.velocity);
        sd.radius = p[n].r;
        sd.mass = p[n].m;
        sd.species = species_later ? 0 : p[n].species;
        if (carom_world_add_sphere(w, &sd, &p[n].id) != CAROM_OK)
            fail("a sphere clear of the others and inside the box was refused", (double)n);
        if (species_later && carom_world_set_species(w, p[n].id, p[n].species) != CAROM_OK)
            fail("a species given before the first advance was refused", (double)n);
        s.obstacles += !isfinite(p[n].m);
        s.moving_obstacles |= !isfinite(p[n].m) && (p[n].v[0] != 0.0 || p[n].v[1] != 0.0 ||
                                                    p[n].v[2] != 0.0);
        touching_any |= touching;
        n++;
    }

    if (s.species && table_later)
        set_table(w, &s);
    add_plane(w, &s, &r);
    add_segment(w, &s, &r);
    add_triangle(w, &s, &r);
    if (growing && carom_world_set_growth(w, 0.3 * (double)((steps_byte / 24) % 4 + 1) / 4.0 /
                                                 (step * steps)) != CAROM_OK)
        fail("a world without gravity refused to grow", 0.0);
    /* Worlds the stress observer holds in are centred by the steps byte's
     * otherwise unused high values. */
    if (steps_byte / 96 == 1 && stress_fits(w, &s, n, growing))
        centre_velocities(w, p, n);
    read_back(w, p, n);
    double u0[MAX_SPHERES][3], v0[MAX_SPHERES][3];
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            u0[i][a] = unwrapped(w, &s, &p[i], a);
            v0[i][a] = p[i].v[a];
        }
    double e0 = energy(w, &s, p, n, g);
    stress_run stress;
    stress_begin(&stress, w, &s, p, n, growing);
    double mom0[3];
    carom_world_momentum(w, mom0);
    /* Energy is a sum of terms of both signs under gravity: compare with
     * the sum of their sizes. */
    double scale = 0.0;
    for (int i = 0; i < n; i++)
        if (isfinite(p[i].m))
            scale += 0.5 * p[i].m * (p[i].v[0] * p[i].v[0] + p[i].v[1] * p[i].v[1] +
                                     p[i].v[2] * p[i].v[2]) +
                     (s.gravity ? p[i].m * g * s.box[1] : 0.0);
    for (unsigned k = 1; k <= steps; k++) {
        uint64_t done = 0;
        int reached = 0;
        double t = step * k, t_start = carom_world_time(w);
        carom_stats before;
        carom_world_get_stats(w, &before);
        carom_status st = carom_world_advance_to_limited(w, t, EVENT_BUDGET, &done, &reached);
        if (st == CAROM_ERR_OVERLAP && touching_any && k == 1)
            break; /* a touching sphere's last bits made it overlap */
        if (st == CAROM_ERR_STUCK && s.obstacles)
            break;
        if (st == CAROM_ERR_BOX_TOO_SMALL && (k == 1 || growing))
            break; /* spheres too large (or grown too large) for a periodic box */
        if (st != CAROM_OK) {
            fprintf(stderr, "fuzz_world: %s: %s\n", carom_status_name(st),
                    carom_world_error_message(w));
            fail("advance failed", t);
        }
        if (reached && carom_world_time(w) != t)
            fail("the world is not at the time asked", carom_world_time(w));
        read_back(w, p, n);
        check_states(&s, p, n);
        check_planes(w, &s, p, n);
        check_segments(w, &s, p, n);
        check_triangles(w, &s, p, n);
        check_queries(w, &s, p, n);
        check_max_overlap(w, &s, p, n);
        if (s.report_only && !s.gravity && carom_world_triangle_count(w) == 0 &&
            carom_world_segment_count(w) == 0)
            check_straight(w, &s, p, n, (const double(*)[3])u0, (const double(*)[3])v0,
                           carom_world_time(w));
        carom_stats after;
        carom_world_get_stats(w, &after);
        check_recorded(w, &s, p, n, t_start, after.collisions - before.collisions,
                       after.wall_hits - before.wall_hits,
                       after.sensed_contacts - before.sensed_contacts,
                       after.sensed_partings - before.sensed_partings);
        stress_step(&stress, w);
        double e = energy(w, &s, p, n, g);
        int energy_kept = !s.gravity || s.walls[1];
        if ((s.moving_obstacles && !s.report_only) || growing) {
            /* no energy to keep */
        } else if (s.report_only && carom_world_plane_count(w) == 0 &&
                   carom_world_segment_count(w) == 0 && carom_world_triangle_count(w) == 0) {
            /* (a box's wall flips a velocity's sign; a plane's or a
             * segment's reflection rounds, and is checked with the
             * elastic worlds) */
            if (!s.gravity && e != e0)
                fail("a report-only world changed its energy", e - e0);
        } else if ((s.elastic || s.report_only) && energy_kept) {
            if (!(fabs(e - e0) <= 1e-9 * scale))
                fail("an elastic world changed its energy", (e - e0) / scale);
        } else if (!s.gravity) {
            /* Each contact may give a pair the minimum separation speed. */
            carom_stats stats;
            carom_world_get_stats(w, &stats);
            double m_max = 0.0;
            for (int i = 0; i < n; i++)
                if (isfinite(p[i].m) && p[i].m > m_max)
                    m_max = p[i].m;
            double allowed = 1e-9 * scale + (double)stats.events * 2.0 * m_max *
                                                def.restitution_min_speed *
                                                def.restitution_min_speed;
            if (!(e <= e0 + allowed))
                fail("a world with restitution gained energy", (e - e0) / scale);
        }
        int all_periodic = 1;
        for (int a = 0; a < s.dim; a++)
            all_periodic &= !s.walls[a];
        if (all_periodic && !s.obstacles && !s.gravity && !s.report_only &&
            carom_world_triangle_count(w) == 0 && carom_world_segment_count(w) == 0) {
            double mom[3], mscale = 0.0;
            carom_world_momentum(w, mom);
            for (int i = 0; i < n; i++)
                mscale += p[i].m * sqrt(p[i].v[0] * p[i].v[0] + p[i].v[1] * p[i].v[1] +
                                        p[i].v[2] * p[i].v[2]);
            for (int a = 0; a < 3; a++)
                if (!(fabs(mom[a] - mom0[a]) <= 1e-9 * (mscale + 1e-300)))
                    fail("a periodic world changed its momentum", mom[a] - mom0[a]);
        }
        if (!reached)
            break;
        if (s.species && !growing && k < steps && k <= 5 && ((changes >> (k - 1)) & 1))
            change_species(w, &s, p, n, changes, k);
    }
    carom_stress_free(stress.observer);
    carom_world_free(w);
    return 0;
}
