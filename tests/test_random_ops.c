/* Random sequences of API calls on small worlds, each result checked with
 * arithmetic of the test's own (O(N^2) over the states the API returns):
 *
 * - adding a sphere succeeds when it is clear of every other and inside
 *   the box by a margin, and fails with CAROM_ERR_OVERLAP or
 *   CAROM_ERR_OUTSIDE_BOX (changing nothing) when it is clearly not; in
 *   a report-only world, whose spheres pass through each other, an
 *   overlapping sphere inside the box is taken;
 * - removing works once, and the id is then unknown; setting a velocity
 *   or reprobing works where it should (not a driven sphere's velocity,
 *   not reprobing a ballistic sphere), and reprobing moves nothing;
 * - moving a sphere (carom_world_set_position) follows the rules of
 *   adding one, keeps its velocity, and a refused move changes nothing;
 * - after every advance, step or sort: the world is at the time asked,
 *   no two spheres that meet overlap, every sphere is in a walled box,
 *   the energy is kept (elastic) or does not grow (restitution), the
 *   momentum of a periodic world is kept, the contact callback saw as
 *   many sphere contacts as the statistics count, all between spheres
 *   that meet, and carom_world_max_overlap_now is the largest overlap of
 *   spheres that meet;
 * - sorting the records moves no sphere;
 * - species, in half the worlds (seed / 2 + config odd): every sphere
 *   gets one of 0, 1, 2 and CAROM_SPECIES_MAX - 1, the table a random
 *   pass-through for each pair, and the rules above hold with the pairs
 *   that pass through left out: an add or a move that overlaps only
 *   spheres it passes through is taken (three adds in ten are placed
 *   overlapping such a sphere on purpose). Two operations more:
 *   carom_world_set_species on a random sphere and
 *   carom_world_set_pass_through on a random pair. A change that makes
 *   spheres overlapping by more than 1e-9 of their contact distance meet
 *   is refused with CAROM_ERR_OVERLAP, changing nothing (table, species
 *   and states read back), in a built responding world; a change under
 *   which no pair it makes meet overlaps (by 1e-11), and any change of a
 *   report-only world, is taken. Before the first advance such a change
 *   is taken, the advance then fails with CAROM_ERR_OVERLAP without
 *   moving the time, and the change undone, the world goes on. Species
 *   and pairs out of range are refused. In half the species worlds that
 *   respond ((seed / 4 + config) odd; driven spheres too), the pairs apart
 *   sense each other instead (carom_world_set_sense): the same rules,
 *   and the callback sees their contacts with impulse 0, as many as the
 *   statistics count as sensed, and their partings: each pair's reports
 *   alternate, a contact then its parting, but that removing a sphere,
 *   or a change after which a pair no longer senses, ends its contact
 *   unreported; after each advance every sensing pair in contact touches
 *   or overlaps, and every one overlapping by more than 1e-8 of its
 *   contact distance is in contact (those added, moved or changed into
 *   overlap reported at the advance's start).
 *
 * The worlds (224 kinds): 2D and 3D, walls and periodic, elastic and
 * restitution, cells and neighbour lists, sorting on and off; and each
 * of those report-only, with one sphere over 4 times the mean radius
 * (kept out of the grid), with 6 spheres driven by random forces among
 * the ballistic ones, under gravity, with still obstacles of infinite
 * mass (never moved: a squeeze is test_stuck's), or with one big sphere
 * driven by random forces (the viewer's dragged sphere). With even seeds
 * the responding worlds are rough (tangential restitution 1 when elastic,
 * so the energy counted includes the spins'; 0.5 and -0.3 at surfaces
 * with restitution), and setting a velocity sets a random spin too, read
 * back as set. The first spheres are
 * the largest and stay, because a larger sphere added later defers the
 * checks of the adds after it to the next advance (carom.h).
 *
 * Fails if an operation corrupts the world in a way the loop then carries
 * into an overlap, a change of energy or a wrong time, or if a refused
 * call changes anything; under AddressSanitizer, on any memory fault on
 * the way. It found that adds were checked against a driven sphere's
 * bound centre instead of the sphere. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/drive.h"
#include "check.h"
#include "rng.h"

#define MAX_SPHERES 48
#define MAX_IDS (MAX_SPHERES * 8) /* ids handed out, removed ones too */
#define RADIUS_MAX 0.6
#define KEPT 2
#define DRIVEN 6
#define SPECIES 4 /* the species of species worlds (species_values) */

static const uint32_t species_values[SPECIES] = {0, 1, 2, CAROM_SPECIES_MAX - 1};

/* What the species worlds did, over the whole run (printed at the end). */
static struct {
    int worlds;
    long taken, refused, deferred, through_adds;
    int sensing_worlds;
    uint64_t sensed, parted, ended;
} species_totals;

typedef struct trial {
    carom_world *w;
    int dim, walls, elastic;
    double box;
    int report_only;     /* spheres pass through each other */
    double radius_first; /* the largest radius, of the first sphere */
    int driven;          /* spheres 0 .. driven-1 are driven (random forces) */
    double gravity;      /* pulls along -y, in a walled box */
    int obstacles;       /* the KEPT spheres have infinite mass and stay still */
    int rough;           /* even seeds: tangential restitution (1 when elastic) */
    carom_sphere_id ids[MAX_IDS];
    int n;               /* ids handed out */
    int alive[MAX_IDS];
    int built;
    uint64_t contacts;   /* sphere contacts seen by the callback */
    int species;         /* spheres of SPECIES species, a random table */
    uint32_t pass[CAROM_SPECIES_MAX]; /* the test's table: bit b of pass[a] */
    uint32_t kind[MAX_IDS];           /* species by entry */
    uint32_t kind_of_id[MAX_IDS];     /* and by id (ids are 0, 1, 2...) */
    uint64_t through_contacts;        /* contacts of spheres that pass through */
    int sensing;                      /* the pairs apart sense each other instead */
    uint64_t sensed;                  /* their contacts seen by the callback */
    uint64_t parted;                  /* and their partings */
    unsigned char *inside;            /* sensing world: by ids i * MAX_IDS + j,
                                         1 while the pair is in contact, 2
                                         when it has ended at a removal or
                                         change, to be reported at the next
                                         advance */
    uint64_t ended, ends_due;         /* those reports seen, and due */
    uint64_t out_of_turn;             /* a contact of a pair in contact, or a
                                         parting of one that is not */
    long taken, refused, deferred, through_adds;
} trial;

static int meets(const trial *t, uint32_t a, uint32_t b)
{
    return !((t->pass[a] >> b) & 1u);
}

static void count_contact(void *user_data, carom_contact *c)
{
    trial *t = user_data;
    if (c->kind == CAROM_CONTACT_SPHERE && c->parting == 2) {
        /* A contact ended at a removal or a change: due, and no longer
         * sensing or with a removed sphere. */
        CHECK(t->sensing && c->i < MAX_IDS && c->j < MAX_IDS && c->impulse == 0.0);
        if (c->i < MAX_IDS && c->j < MAX_IDS) {
            unsigned char *f = &t->inside[c->i * MAX_IDS + c->j];
            t->out_of_turn += *f != 2;
            *f = t->inside[c->j * MAX_IDS + c->i] = 0;
        }
        t->parted++;
        t->ended++;
        return;
    }
    if (c->kind == CAROM_CONTACT_SPHERE) {
        int apart = c->i >= MAX_IDS || c->j >= MAX_IDS ||
                    !meets(t, t->kind_of_id[c->i], t->kind_of_id[c->j]);
        if (apart && t->sensing && (c->impulse == 0.0 || c->parting)) {
            /* A sensing pair's contact, or its parting. */
            CHECK(c->i < MAX_IDS && c->j < MAX_IDS);
            if (c->i < MAX_IDS && c->j < MAX_IDS) {
                unsigned char *f = &t->inside[c->i * MAX_IDS + c->j];
                t->out_of_turn += *f != c->parting;
                *f = t->inside[c->j * MAX_IDS + c->i] = (unsigned char)!c->parting;
            }
            if (c->parting)
                t->parted++;
            else
                t->sensed++;
            return;
        }
        t->contacts++;
        t->through_contacts += apart;
    }
}

/* Pair i-j in contact ends (a removal or a change): its report is due
 * at the next advance. */
static void end_due(trial *t, uint32_t i, uint32_t j)
{
    if (t->inside[i * MAX_IDS + j] != 1)
        return;
    t->inside[i * MAX_IDS + j] = t->inside[j * MAX_IDS + i] = 2;
    t->ends_due++;
}

/* Sphere id's sensing contacts end (removed). */
static void end_contacts_of(trial *t, carom_sphere_id id)
{
    for (uint32_t o = 0; t->inside && o < MAX_IDS; o++)
        end_due(t, id, o);
}

/* The contacts of pairs that no longer sense each other end (a species
 * or the table changed). */
static void end_unsensed(trial *t)
{
    for (uint32_t i = 0; t->inside && i < MAX_IDS; i++)
        for (uint32_t j = i + 1; j < MAX_IDS; j++)
            if (meets(t, t->kind_of_id[i], t->kind_of_id[j]))
                end_due(t, i, j);
}

/* Every sensing pair in contact touches or overlaps, and every one that
 * overlaps is in contact (after events were processed). */
static void check_sensed_contacts(trial *t, const char *after)
{
    /* A sort processes no event: the contacts and partings of spheres
     * placed or moved since the last advance are reported at the next. */
    if (strcmp(after, "a sort") == 0)
        return;
    for (int a = 0; t->inside && a < t->n; a++) {
        for (int b = a + 1; b < t->n; b++) {
            int inside = t->inside[t->ids[a] * MAX_IDS + t->ids[b]];
            if (!t->alive[a] || !t->alive[b] || (!inside && meets(t, t->kind[a], t->kind[b])))
                continue;
            carom_sphere_state sa, sb;
            CHECK_OK(carom_world_get_sphere(t->w, t->ids[a], &sa));
            CHECK_OK(carom_world_get_sphere(t->w, t->ids[b], &sb));
            double d2 = 0.0;
            for (int k = 0; k < 3; k++) {
                double d = sb.position[k] - sa.position[k];
                if (!t->walls)
                    d -= t->box * round(d / t->box);
                d2 += d * d;
            }
            double sigma = sa.radius + sb.radius;
            int bad = inside ? !(sqrt(d2) <= sigma * (1.0 + 1e-9)) : sqrt(d2) < sigma * (1.0 - 1e-8);
            if (bad)
                fprintf(stderr, "spheres %u and %u (in contact %d) at t = %.17g, %g apart, after %s\n",
                        (unsigned)t->ids[a], (unsigned)t->ids[b], inside,
                        carom_world_time(t->w), sqrt(d2) - sigma, after);
            CHECK(!bad);
        }
    }
}

static int alive_count(const trial *t)
{
    int n = 0;
    for (int k = 0; k < t->n; k++)
        n += t->alive[k];
    return n;
}

/* Separation vector b - a, through the nearest image when periodic. */
static void separation(const trial *t, const double a[3], const double b[3], double d[3])
{
    for (int k = 0; k < 3; k++) {
        d[k] = k < t->dim ? b[k] - a[k] : 0.0;
        if (!t->walls)
            d[k] -= t->box * floor(d[k] / t->box + 0.5);
    }
}

/* Least relative gap between a sphere at x of radius r and species
 * `kind` and the live spheres it meets but entry `except` (-1: none). */
static double least_gap_but(const trial *t, const double x[3], double r, uint32_t kind,
                            int except)
{
    double least = INFINITY;
    for (int k = 0; k < t->n; k++) {
        if (!t->alive[k] || k == except || !meets(t, kind, t->kind[k]))
            continue;
        carom_sphere_state s;
        CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &s));
        double d[3];
        separation(t, x, s.position, d);
        double sigma = r + s.radius;
        double gap = (sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - sigma) / sigma;
        if (gap < least)
            least = gap;
    }
    return least;
}

static double least_gap(const trial *t, const double x[3], double r, uint32_t kind)
{
    return least_gap_but(t, x, r, kind, -1);
}

typedef struct totals {
    double energy, momentum[3];
} totals;

/* Energy and momentum from the states, and the checks every state must
 * pass: no overlap of spheres that meet (carom_world_max_overlap_now the
 * largest), inside a walled box. */
static totals check_states(trial *t, const char *after)
{
    totals s = {0.0, {0.0, 0.0, 0.0}};
    carom_sphere_state st[MAX_IDS];
    for (int k = 0; k < t->n; k++) {
        if (!t->alive[k])
            continue;
        CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &st[k]));
        if (st[k].species != t->kind[k]) {
            fprintf(stderr, "after %s: sphere %u has species %u, not %u\n", after,
                    (unsigned)t->ids[k], st[k].species, t->kind[k]);
            check_failures++;
        }
        double v2 = 0.0;
        for (int a = 0; a < 3; a++) {
            v2 += st[k].velocity[a] * st[k].velocity[a];
            s.momentum[a] += st[k].mass * st[k].velocity[a];
            if (t->walls && a < t->dim) {
                double slack = 1e-9 * st[k].radius;
                if (!(st[k].position[a] >= st[k].radius - slack &&
                      st[k].position[a] <= t->box - st[k].radius + slack)) {
                    fprintf(stderr, "after %s: sphere %u outside the box on axis %d\n", after,
                            (unsigned)t->ids[k], a);
                    check_failures++;
                }
            }
        }
        if (isfinite(st[k].mass)) /* potential energy m g y: gravity pulls along -y */
            s.energy += 0.5 * st[k].mass * v2 + st[k].mass * t->gravity * st[k].position[1];
    }
    s.energy += carom_world_rotational_energy(t->w); /* the spins', in rough worlds */
    double worst = 0.0;
    for (int k = 0; k < t->n; k++) {
        for (int m = k + 1; m < t->n && t->alive[k]; m++) {
            if (!t->alive[m] || !meets(t, t->kind[k], t->kind[m]))
                continue;
            double d[3];
            separation(t, st[k].position, st[m].position, d);
            double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double sigma = st[k].radius + st[m].radius;
            worst = fmax(worst, (sigma - dist) / sigma);
            if (!t->report_only && dist < sigma * (1.0 - 1e-9)) {
                fprintf(stderr, "after %s: spheres %u and %u overlap by %.3g\n", after,
                        (unsigned)t->ids[k], (unsigned)t->ids[m], (sigma - dist) / sigma);
                check_failures++;
            }
        }
    }
    CHECK_NEAR(carom_world_max_overlap_now(t->w), worst, 1e-9);
    return s;
}

static void check_motion(trial *t, totals before, uint64_t contacts_before,
                         uint64_t collisions_before, const char *after)
{
    totals now = check_states(t, after);
    double scale = before.energy > 1.0 ? before.energy : 1.0;
    carom_stats st;
    carom_world_get_stats(t->w, &st);
    CHECK(t->contacts - contacts_before == st.collisions - collisions_before);
    CHECK(t->through_contacts == 0);
    CHECK(t->sensed == st.sensed_contacts);
    CHECK(t->parted == st.sensed_partings && t->out_of_turn == 0);
    /* The contacts ended at removals and changes: reported at the next
     * call that processes events (not a sort). */
    CHECK(t->ended == t->ends_due || strcmp(after, "a sort") == 0);
    check_sensed_contacts(t, after);
    if (t->driven) {
        CHECK(st.late_contacts == 0); /* the forces keep to their bounds */
        CHECK(st.bound_breaks == 0);
        return; /* the forces change energy and momentum */
    }
    if (t->gravity > 0.0 && !t->elastic)
        return; /* every contact separates at least restitution_min_speed fast:
                   a sphere at rest on another gains energy */
    if (t->report_only)
        CHECK(now.energy == before.energy);
    else if (t->elastic)
        CHECK_NEAR(now.energy, before.energy, 1e-9 * scale);
    else
        CHECK(now.energy <= before.energy + 1e-9 * scale);
    if (!t->walls && !t->obstacles)
        for (int a = 0; a < 3; a++)
            CHECK_NEAR(now.momentum[a], before.momentum[a], 1e-9 * (1.0 + sqrt(scale)));
}

static void random_point(rng *r, const trial *t, double radius, double x[3])
{
    for (int k = 0; k < 3; k++)
        x[k] = k < t->dim ? rng_uniform_range(r, radius * 1.001, t->box - radius * 1.001) : 0.0;
}

static void random_velocity(rng *r, const trial *t, double v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = k < t->dim ? rng_uniform_range(r, -2.0, 2.0) : 0.0;
}

static uint32_t random_species(rng *r)
{
    return species_values[(int)(rng_uniform(r) * SPECIES)];
}

/* Places sphere d overlapping a random live sphere, its species one that
 * passes through that sphere's (its centre within the contact distance,
 * inside the box); 1 if placed so, else (no such species, or the place
 * outside the box) 0, d unchanged. */
static int place_through(const trial *t, rng *r, carom_sphere_def *d)
{
    int k = (int)(rng_uniform(r) * t->n);
    if (t->n == 0 || !t->alive[k])
        return 0;
    uint32_t can[SPECIES];
    int count = 0;
    for (int c = 0; c < SPECIES; c++)
        if (!meets(t, species_values[c], t->kind[k]))
            can[count++] = species_values[c];
    if (count == 0)
        return 0;
    carom_sphere_state s;
    CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &s));
    double dir[3], x[3], reach = rng_uniform(r) * (s.radius + d->radius);
    rng_unit_vector(r, t->dim, dir);
    for (int a = 0; a < 3; a++) {
        x[a] = a < t->dim ? s.position[a] + reach * dir[a] : 0.0;
        if (a >= t->dim)
            continue;
        if (t->walls && !(x[a] >= d->radius * 1.001 && x[a] <= t->box - d->radius * 1.001))
            return 0;
        if (!t->walls)
            x[a] -= t->box * floor(x[a] / t->box);
    }
    d->species = can[(int)(rng_uniform(r) * count)];
    memcpy(d->position, x, sizeof x);
    return 1;
}

static void op_add(trial *t, rng *r)
{
    if (t->n >= MAX_IDS || alive_count(t) >= MAX_SPHERES)
        return;
    carom_sphere_def d = carom_sphere_default_def();
    /* The first KEPT spheres have the largest radii, in the grid and out
     * of it, and stay: a larger one would make the world build itself
     * again and check the spheres added until then only at the next
     * advance (carom.h). */
    d.radius = t->n == 0 ? t->radius_first
             : t->n < KEPT ? RADIUS_MAX
                           : rng_uniform_range(r, 0.2, RADIUS_MAX);
    d.mass = t->obstacles && t->n < KEPT ? INFINITY : rng_uniform_range(r, 0.5, 2.0);
    random_point(r, t, d.radius, d.position);
    int outside = t->walls && t->built && rng_uniform(r) < 0.1;
    if (outside)
        d.position[0] = d.radius * 0.5; /* half out of the low wall */
    random_velocity(r, t, d.velocity);
    if (d.mass == INFINITY)
        d.velocity[0] = d.velocity[1] = d.velocity[2] = 0.0; /* no squeeze (test_stuck) */
    int through = 0;
    if (t->species) {
        d.species = random_species(r);
        if (!outside && rng_uniform(r) < 0.3)
            through = place_through(t, r, &d);
    }
    double gap = least_gap(t, d.position, d.radius, d.species);
    if (!t->built && (outside || (gap < 1e-6 && !t->report_only)))
        return; /* checks wait for the first advance: add only clear ones */
    size_t count = carom_world_sphere_count(t->w);
    carom_sphere_id id;
    carom_status st = carom_world_add_sphere(t->w, &d, &id);
    if (outside) {
        CHECK(st == CAROM_ERR_OUTSIDE_BOX ||
              (st == CAROM_ERR_OVERLAP && gap < 1e-6 && !t->report_only));
    } else if (gap > 1e-6 || t->report_only) {
        CHECK_OK(st);
    } else if (gap < -1e-6) {
        if (st != CAROM_ERR_OVERLAP)
            fprintf(stderr, "add at (%g, %g, %g) r %g, gap %g: status %d (%s)\n", d.position[0],
                    d.position[1], d.position[2], d.radius, gap, (int)st,
                    carom_world_error_message(t->w));
        CHECK(st == CAROM_ERR_OVERLAP);
    }
    if (st == CAROM_OK) {
        if (id < MAX_IDS)
            t->kind_of_id[id] = d.species;
        else
            CHECK(id < MAX_IDS); /* ids are handed out from 0 */
        t->kind[t->n] = d.species;
        t->ids[t->n] = id;
        t->alive[t->n++] = 1;
        t->through_adds += through;
    } else {
        CHECK(carom_world_sphere_count(t->w) == count);
    }
}

static void op_remove(trial *t, rng *r)
{
    if (t->n <= KEPT)
        return;
    int k = KEPT + (int)(rng_uniform(r) * (t->n - KEPT)); /* not the kept (op_add) */
    carom_status st = carom_world_remove_sphere(t->w, t->ids[k]);
    if (t->alive[k]) {
        CHECK_OK(st);
        t->alive[k] = 0;
        end_contacts_of(t, t->ids[k]);
    } else {
        CHECK(st == CAROM_ERR_NO_SUCH_SPHERE);
    }
    carom_sphere_state s;
    CHECK(carom_world_get_sphere(t->w, t->ids[k], &s) == CAROM_ERR_NO_SUCH_SPHERE);
    CHECK(carom_world_sphere_count(t->w) == (size_t)alive_count(t));
}

static void op_set_velocity(trial *t, rng *r)
{
    if (t->n == 0)
        return;
    int k = (int)(rng_uniform(r) * t->n);
    if (t->obstacles && k < KEPT)
        return; /* obstacles stay still */
    double v[3];
    random_velocity(r, t, v);
    carom_status st = carom_world_set_velocity(t->w, t->ids[k], v);
    CHECK(st == (!t->alive[k]     ? CAROM_ERR_NO_SUCH_SPHERE
                 : k < t->driven ? CAROM_ERR_INVALID_ARGUMENT
                                 : CAROM_OK));
    if (st == CAROM_OK) {
        carom_sphere_state s;
        CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &s));
        for (int a = 0; a < 3; a++)
            CHECK(s.velocity[a] == v[a]);
    }
    if (t->rough) {
        /* A spin too (about z alone in 2D), read back as set. */
        double w[3], got[3];
        for (int a = 0; a < 3; a++)
            w[a] = t->dim == 3 || a == 2 ? rng_uniform_range(r, -2.0, 2.0) : 0.0;
        st = carom_world_set_spin(t->w, t->ids[k], w);
        CHECK(st == (t->alive[k] ? CAROM_OK : CAROM_ERR_NO_SUCH_SPHERE));
        if (st == CAROM_OK) {
            CHECK_OK(carom_world_get_spin(t->w, t->ids[k], got));
            CHECK(memcmp(got, w, sizeof got) == 0);
        }
    }
}

/* Moving a sphere: taken where it is clear of the others and inside the
 * box (state there, velocity kept), refused (nothing changed) where it is
 * clearly not, and for driven spheres. */
static void op_set_position(trial *t, rng *r)
{
    if (t->n == 0)
        return;
    int k = (int)(rng_uniform(r) * t->n);
    if (t->obstacles && k < KEPT)
        return; /* obstacles stay where they are */
    carom_sphere_state before, after;
    int alive = t->alive[k];
    if (alive)
        CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &before));
    double radius = alive ? before.radius : 0.5, x[3];
    random_point(r, t, radius, x);
    int outside = t->walls && t->built && rng_uniform(r) < 0.1;
    if (outside)
        x[0] = radius * 0.5; /* half out of the low wall */
    double gap = least_gap_but(t, x, radius, t->kind[k], k);
    if (!t->built && (outside || (gap < 1e-6 && !t->report_only)))
        return; /* checks wait for the first advance: move only to clear places */
    carom_status st = carom_world_set_position(t->w, t->ids[k], x);
    if (!alive) {
        CHECK(st == CAROM_ERR_NO_SUCH_SPHERE);
        return;
    }
    if (k < t->driven)
        CHECK(st == CAROM_ERR_INVALID_ARGUMENT);
    else if (outside)
        CHECK(st == CAROM_ERR_OUTSIDE_BOX ||
              (st == CAROM_ERR_OVERLAP && gap < 1e-6 && !t->report_only));
    else if (gap > 1e-6 || t->report_only)
        CHECK_OK(st);
    else if (gap < -1e-6)
        CHECK(st == CAROM_ERR_OVERLAP);
    CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &after));
    for (int a = 0; a < 3; a++) {
        CHECK(after.position[a] == (st == CAROM_OK ? x[a] : before.position[a]));
        CHECK(after.velocity[a] == before.velocity[a]);
    }
}

/* Reprobing: a driven sphere starts a new bound where it is (state
 * unchanged); any other sphere is refused. */
static void op_reprobe(trial *t, rng *r)
{
    if (t->n == 0)
        return;
    int k = (int)(rng_uniform(r) * t->n);
    carom_sphere_state s0, s1;
    int driven = k < t->driven && t->alive[k];
    if (driven)
        CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &s0));
    carom_status st = carom_world_reprobe_sphere(t->w, t->ids[k], 5.0);
    CHECK(st == (!t->alive[k] ? CAROM_ERR_NO_SUCH_SPHERE
                 : driven     ? CAROM_OK
                              : CAROM_ERR_INVALID_ARGUMENT));
    if (driven) {
        CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &s1));
        for (int a = 0; a < 3; a++) { /* a periodic wrap may round differently */
            CHECK_NEAR(s1.position[a], s0.position[a], 1e-12 * t->box);
            CHECK(s1.velocity[a] == s0.velocity[a]);
        }
    }
}

/* The world's table against the test's (and a species out of range
 * passes through nothing). */
static void check_table(const trial *t)
{
    for (int a = 0; a < SPECIES; a++)
        for (int b = 0; b < SPECIES; b++) {
            uint32_t sa = species_values[a], sb = species_values[b];
            int apart = !meets(t, sa, sb);
            CHECK(carom_world_passes_through(t->w, sa, sb) == (apart && !t->sensing));
            CHECK(carom_world_senses(t->w, sa, sb) == (apart && t->sensing));
        }
    CHECK(carom_world_passes_through(t->w, CAROM_SPECIES_MAX, 0) == 0);
}

/* Least relative gaps of the pairs a change makes the world check: those
 * of entry `sphere` (-1: none) given species `to`, or, when the table's
 * pair a, b is made to meet (pass[] the table after), those of a sphere
 * of species a or b; over every such pair that meets after the change
 * (*least), and over those that pass through now (*least_new). */
static void change_gaps(const trial *t, int sphere, uint32_t to, const uint32_t *pass, uint32_t a,
                        uint32_t b, double *least, double *least_new)
{
    *least = *least_new = INFINITY;
    carom_sphere_state st[MAX_IDS];
    for (int k = 0; k < t->n; k++)
        if (t->alive[k])
            CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &st[k]));
    for (int k = 0; k < t->n; k++)
        for (int m = k + 1; m < t->n && t->alive[k]; m++) {
            if (!t->alive[m])
                continue;
            uint32_t sk = k == sphere ? to : t->kind[k], sm = m == sphere ? to : t->kind[m];
            int concerned = sphere >= 0 ? k == sphere || m == sphere
                                        : sk == a || sk == b || sm == a || sm == b;
            if (!concerned || ((pass[sk] >> sm) & 1u))
                continue;
            double d[3];
            separation(t, st[k].position, st[m].position, d);
            double sigma = st[k].radius + st[m].radius;
            double gap = (sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - sigma) / sigma;
            *least = fmin(*least, gap);
            if (!meets(t, t->kind[k], t->kind[m]))
                *least_new = fmin(*least_new, gap);
        }
}

/* The outcome of a change (set_species or set_pass_through, status st)
 * against the gaps it makes meet: 1 if taken. Before the first advance
 * in a responding world, a change that makes spheres overlap is taken
 * and fails that advance (the caller then undoes it: *undo). */
static int judge_change(trial *t, carom_status st, double least, double least_new, int *undo)
{
    *undo = 0;
    if (t->report_only || least > -1e-11) {
        CHECK_OK(st);
        t->taken++;
        return st == CAROM_OK;
    }
    if (!t->built) {
        CHECK_OK(st);
        if (least_new < -1e-9) {
            double now = carom_world_time(t->w);
            CHECK(carom_world_advance_to(t->w, now + 0.1) == CAROM_ERR_OVERLAP);
            CHECK(carom_world_time(t->w) == now);
            t->deferred++;
        }
        *undo = 1;
        return st == CAROM_OK;
    }
    if (least_new < -1e-9) {
        if (st != CAROM_ERR_OVERLAP)
            fprintf(stderr, "a change that makes spheres overlapping by %g meet: %s\n",
                    -least_new, carom_status_name(st));
        CHECK(st == CAROM_ERR_OVERLAP);
        t->refused++;
    } else {
        CHECK(st == CAROM_OK || st == CAROM_ERR_OVERLAP); /* near contact: either */
    }
    return st == CAROM_OK;
}

/* A random sphere to a random species. */
static void op_set_species(trial *t, rng *r)
{
    if (t->n == 0)
        return;
    int k = (int)(rng_uniform(r) * t->n);
    uint32_t to = random_species(r);
    carom_sphere_id id = t->ids[k];
    if (!t->alive[k]) {
        CHECK(carom_world_set_species(t->w, id, to) == CAROM_ERR_NO_SUCH_SPHERE);
        return;
    }
    carom_sphere_state before, after;
    CHECK_OK(carom_world_get_sphere(t->w, id, &before));
    CHECK(carom_world_set_species(t->w, id, CAROM_SPECIES_MAX) == CAROM_ERR_INVALID_ARGUMENT);
    double least, least_new;
    change_gaps(t, k, to, t->pass, 0, 0, &least, &least_new);
    int undo;
    carom_status st = carom_world_set_species(t->w, id, to);
    if (judge_change(t, st, least, least_new, &undo)) {
        t->kind[k] = t->kind_of_id[id] = to;
        end_unsensed(t);
        if (undo) {
            CHECK_OK(carom_world_set_species(t->w, id, before.species));
            t->kind[k] = t->kind_of_id[id] = before.species;
        }
    }
    CHECK_OK(carom_world_get_sphere(t->w, id, &after));
    CHECK(after.species == t->kind[k]);
    /* Nothing else changed (but the counter of a sphere that changed
     * species: its events are predicted again). */
    after.species = before.species;
    if (st != CAROM_OK || to == before.species)
        CHECK(memcmp(&after, &before, sizeof after) == 0);
    after.collisions = before.collisions;
    CHECK(memcmp(&after, &before, sizeof after) == 0);
    check_table(t);
}

/* Pair a-b set apart (passing through, or sensing in a sensing world)
 * or made to meet. */
static carom_status set_apart(trial *t, uint32_t a, uint32_t b, int apart)
{
    return t->sensing ? carom_world_set_sense(t->w, a, b, apart)
                      : carom_world_set_pass_through(t->w, a, b, apart);
}

/* A random pair of species made to pass through each other (or sense
 * each other) or meet. */
static void op_set_pass_through(trial *t, rng *r)
{
    uint32_t a = random_species(r), b = random_species(r);
    int pass = rng_uniform(r) < 0.5;
    CHECK(carom_world_set_pass_through(t->w, a, CAROM_SPECIES_MAX, pass) ==
          CAROM_ERR_INVALID_ARGUMENT);
    uint32_t after[CAROM_SPECIES_MAX];
    memcpy(after, t->pass, sizeof after);
    if (pass) {
        after[a] |= 1u << b;
        after[b] |= 1u << a;
    } else {
        after[a] &= ~(1u << b);
        after[b] &= ~(1u << a);
    }
    double least = INFINITY, least_new = INFINITY;
    if (!pass)
        change_gaps(t, -1, 0, after, a, b, &least, &least_new);
    int undo;
    carom_status st = set_apart(t, a, b, pass);
    if (judge_change(t, st, least, least_new, &undo)) {
        uint32_t table[CAROM_SPECIES_MAX];
        memcpy(table, t->pass, sizeof table);
        memcpy(t->pass, after, sizeof after);
        end_unsensed(t);
        if (undo) {
            CHECK_OK(set_apart(t, a, b, !pass));
            memcpy(t->pass, table, sizeof table);
        }
    }
    check_table(t);
}

static void op_move(trial *t, rng *r)
{
    totals before = check_states(t, "the last operation");
    uint64_t contacts = t->contacts;
    carom_stats st;
    carom_world_get_stats(t->w, &st);
    double now = carom_world_time(t->w), u = rng_uniform(r);
    const char *what;
    if (u < 0.5 || !t->built) {
        double target = now + rng_uniform_range(r, 0.01, 0.6);
        CHECK_OK(carom_world_advance_to(t->w, target));
        CHECK(carom_world_time(t->w) == target);
        t->built = 1;
        what = "an advance";
    } else if (u < 0.7) {
        uint64_t processed = 0;
        CHECK_OK(carom_world_step_events(t->w, 1 + (uint64_t)(rng_uniform(r) * 50), &processed));
        CHECK(carom_world_time(t->w) >= now);
        what = "a step";
    } else if (u < 0.85) {
        double target = now + rng_uniform_range(r, 0.01, 0.6);
        int reached = 0, pieces = 0;
        while (!reached && pieces < 100000) {
            uint64_t processed = 0;
            CHECK_OK(carom_world_advance_to_limited(t->w, target, 3, &processed, &reached));
            pieces++;
        }
        CHECK(reached && carom_world_time(t->w) == target);
        what = "an advance in pieces";
    } else {
        carom_sphere_state s0[MAX_IDS];
        for (int k = 0; k < t->n; k++)
            if (t->alive[k])
                CHECK_OK(carom_world_get_sphere(t->w, t->ids[k], &s0[k]));
        CHECK_OK(carom_world_sort_spatially(t->w));
        for (int k = 0; k < t->n; k++) {
            carom_sphere_state s1;
            if (!t->alive[k] || carom_world_get_sphere(t->w, t->ids[k], &s1) != CAROM_OK)
                continue;
            for (int a = 0; a < 3; a++) {
                CHECK_NEAR(s1.position[a], s0[k].position[a], 1e-12 * t->box);
                CHECK(s1.velocity[a] == s0[k].velocity[a]);
            }
        }
        CHECK(carom_world_time(t->w) == now);
        what = "a sort";
    }
    check_motion(t, before, contacts, st.collisions, what);
}

/* The random forces that drive spheres 0 .. t->driven - 1: apart on a
 * small lattice near the low corner, or one big sphere in the middle. */
static carom_forces *make_forces(const trial *t, rng *r, uint64_t seed, carom_error *e)
{
    double x[DRIVEN][3], v[DRIVEN][3], radius[DRIVEN], bound[DRIVEN];
    for (int k = 0; k < t->driven; k++) {
        int big = t->radius_first > RADIUS_MAX;
        for (int a = 0; a < 3; a++) {
            double lattice = 1.0 + 2.0 * (double)((k >> a) & 1) + (a == 0 ? 4.0 * (k / 4) : 0.0);
            x[k][a] = a >= t->dim ? 0.0 : big ? 0.5 * t->box : lattice;
        }
        random_velocity(r, t, v[k]);
        radius[k] = k == 0 ? t->radius_first : RADIUS_MAX;
        bound[k] = 5.0;
    }
    carom_forces_def fd = carom_forces_default_def();
    fd.dim = t->dim;
    fd.seed = seed;
    return carom_forces_create(&fd, (size_t)t->driven, x, v, radius, bound, e);
}

static void run_trial(uint64_t seed, int config, int operations)
{
    rng r;
    rng_seed(&r, seed * 1000 + (uint64_t)config);
    trial t;
    memset(&t, 0, sizeof t);
    /* Worlds 0-31 respond, 32-63 report only, 64-95 start with a sphere
     * of radius 2.5, over 4 times the mean (kept out of the grid,
     * world_big.c), 96-127 start with DRIVEN spheres driven by random
     * forces (their velocities are the driver's), 128-159 fall under
     * gravity in a walled box, 160-191 hold obstacles of infinite mass,
     * 192-223 start with a big sphere driven by random forces (the
     * viewer's dragged sphere); the low 5 bits choose the rest. */
    int variant = config / 32, bits = config % 32;
    t.dim = bits & 1 ? 2 : 3;
    t.walls = (bits >> 1) & 1;
    t.elastic = (variant != 0 && variant < 4) || !((bits >> 2) & 1);
    t.report_only = variant == 1;
    t.radius_first = variant == 2 || variant == 6 ? 2.5 : RADIUS_MAX;
    t.box = variant == 2 || variant == 6 ? 12.0 : 8.0;
    t.driven = variant == 3 ? DRIVEN : variant == 6 ? 1 : 0;
    t.gravity = variant == 4 ? 2.0 : 0.0;
    t.obstacles = variant == 5;
    t.rough = !t.report_only && seed % 2 == 0;
    t.species = (seed / 2 + (uint64_t)config) % 2 == 1;
    t.sensing = t.species && !t.report_only && (seed / 4 + (uint64_t)config) % 2;
    if (t.gravity > 0.0)
        t.walls = 1;
    if (t.sensing) {
        t.inside = calloc((size_t)MAX_IDS * MAX_IDS, 1);
        CHECK(t.inside != NULL);
        if (!t.inside)
            return;
    }
    carom_world_def def = carom_world_default_def();
    def.dim = t.dim;
    for (int k = 0; k < 3; k++) {
        def.box[k] = t.box;
        def.boundary[k] = t.walls ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC;
    }
    def.restitution = t.elastic ? 1.0 : 0.8;
    def.wall_restitution = t.elastic ? 1.0 : 0.9;
    if (t.rough) {
        def.tangential_restitution = t.elastic ? 1.0 : 0.5;
        def.wall_tangential_restitution = t.elastic ? 1.0 : -0.3;
    }
    def.neighbours = (bits >> 3) & 1 ? CAROM_NEIGHBOURS_LISTS : CAROM_NEIGHBOURS_CELLS;
    def.reorder = (bits >> 4) & 1 ? CAROM_REORDER_OFF : CAROM_REORDER_AUTO;
    def.response = t.report_only ? CAROM_RESPONSE_NONE : CAROM_RESPONSE_ELASTIC;
    def.gravity[1] = -t.gravity;
    /* Settling spheres (README): under gravity, and against a driven
     * sphere that pushes, restitution makes a sphere's bounces shrink
     * until it rides on the other; with the default minimum speed a
     * driven sphere's push then shows as late contacts. */
    if ((t.gravity > 0.0 || t.driven) && !t.elastic)
        def.restitution_min_speed = 0.5;
    def.on_contact = count_contact;
    def.user_data = &t;
    carom_error e;
    carom_forces *forces = NULL;
    if (t.driven) {
        forces = make_forces(&t, &r, seed, &e);
        if (!forces) {
            fprintf(stderr, "forces: %s\n", e.message);
            check_failures++;
            return;
        }
        def.driver = carom_forces_driver(forces);
    }
    t.w = carom_world_create(&def, &e);
    if (!t.w) {
        fprintf(stderr, "world: %s\n", e.message);
        check_failures++;
        carom_forces_free(forces);
        return;
    }
    int failures = check_failures;
    if (t.species) {
        /* Each pair of species passes through with probability 0.4. */
        for (int a = 0; a < SPECIES; a++)
            for (int b = a; b < SPECIES; b++) {
                uint32_t sa = species_values[a], sb = species_values[b];
                if (rng_uniform(&r) < 0.4) {
                    t.pass[sa] |= 1u << sb;
                    t.pass[sb] |= 1u << sa;
                    CHECK_OK(set_apart(&t, sa, sb, 1));
                }
            }
        check_table(&t);
    }
    for (int k = 0; k < t.driven; k++) {
        carom_sphere_def d = carom_forces_sphere_def(forces, (size_t)k);
        if (t.species)
            d.species = random_species(&r);
        CHECK_OK(carom_world_add_sphere(t.w, &d, &t.ids[t.n]));
        t.kind[t.n] = t.kind_of_id[t.ids[t.n] % MAX_IDS] = d.species;
        t.alive[t.n++] = 1;
    }
    for (int k = 0; k < 12; k++)
        op_add(&t, &r);
    for (int op = 0; op < operations && check_failures == failures; op++) {
        double u = rng_uniform(&r);
        if (u < 0.25)
            op_add(&t, &r);
        else if (u < 0.35)
            op_remove(&t, &r);
        else if (u < 0.45)
            op_set_velocity(&t, &r);
        else if (u < 0.5)
            op_reprobe(&t, &r);
        else if (u < 0.55)
            op_set_position(&t, &r);
        else if (t.species && u < 0.6)
            op_set_species(&t, &r);
        else if (t.species && u < 0.65)
            op_set_pass_through(&t, &r);
        else
            op_move(&t, &r);
    }
    carom_stats st;
    carom_world_get_stats(t.w, &st);
    printf("seed %llu, world %3d (%dD, %s, %s%s%s, %s, sort %s): %d spheres, t = %.2f, %llu "
           "contacts%s\n",
           (unsigned long long)seed, config, t.dim, t.walls ? "walls" : "periodic",
           t.rough ? "rough, " : "", t.species ? "species, " : "",
           t.report_only  ? "report-only"
           : variant == 2 ? "a big sphere"
           : variant == 6 ? "a big driven sphere"
           : t.driven     ? "driven"
           : t.gravity > 0.0 ? (t.elastic ? "gravity, elastic" : "gravity, restitution")
           : t.obstacles  ? (t.elastic ? "obstacles, elastic" : "obstacles, restitution")
           : t.elastic    ? "elastic"
                          : "restitution",
           (bits >> 3) & 1 ? "lists" : "cells", (bits >> 4) & 1 ? "off" : "auto", alive_count(&t), carom_world_time(t.w),
           (unsigned long long)t.contacts, check_failures == failures ? "" : ": FAILED");
    if (t.species) {
        printf("  species changes: %ld taken, %ld refused, %ld failing the first advance; %ld "
               "adds overlapping spheres passed through\n",
               t.taken, t.refused, t.deferred, t.through_adds);
        species_totals.worlds++;
        species_totals.taken += t.taken;
        species_totals.refused += t.refused;
        species_totals.deferred += t.deferred;
        species_totals.through_adds += t.through_adds;
        species_totals.sensing_worlds += t.sensing;
        species_totals.sensed += t.sensed;
        species_totals.parted += t.parted;
        species_totals.ended += t.ended;
    }
    carom_world_free(t.w);
    free(t.inside);
    if (forces)
        CHECK(carom_forces_misuse(forces) == 0);
    carom_forces_free(forces);
}

int main(void)
{
    int quick = getenv("CAROM_TEST_QUICK") != NULL;
    int operations = quick ? 200 : 500;
    for (uint64_t seed = 1; seed <= (quick ? 3u : 6u); seed++)
        for (int config = 0; config < 224; config++)
            run_trial(seed, config, operations);
    printf("%d worlds with species: %ld changes taken, %ld refused, %ld failing the first "
           "advance; %ld adds overlapping spheres passed through\n",
           species_totals.worlds, species_totals.taken, species_totals.refused,
           species_totals.deferred, species_totals.through_adds);
    printf("%d of them sensing: %llu sensed contacts, %llu partings (%llu of them ended at a "
           "removal or change)\n",
           species_totals.sensing_worlds, (unsigned long long)species_totals.sensed,
           (unsigned long long)species_totals.parted, (unsigned long long)species_totals.ended);
    CHECK(species_totals.ended > 10);
    CHECK(species_totals.sensing_worlds > 50 && species_totals.sensed > 100);
    CHECK(species_totals.parted > species_totals.sensed / 2);
    return CHECK_REPORT();
}
