/* What the world fuzz targets (fuzz_world.c, fuzz_driven.c) share:
 * numbers read off the input bytes (zeros once they run out), a world's
 * kind and its ballistic spheres made from them, and the checks of the
 * states after an advance (no overlap between spheres that meet, inside a
 * walled box), by this file's own O(N^2) arithmetic. A failed check
 * aborts with a message, which libFuzzer reports with the input.
 *
 * Species (world_spec.species, fuzz_world.c): spheres of species 0 to 2
 * and a table of which pass through each other (world_spec.pass, row a's
 * bit b), kept here as the world should keep it; pairs that pass through
 * are left out of the overlap checks, and may be placed overlapping
 * (read_sphere). With world_spec.sensing, the pairs set apart sense each
 * other instead (carom_world_set_sense: they pass through and their
 * contacts are reported). Without species (world_spec zeroed, as
 * fuzz_driven.c's) every sphere is of species 0 and every pair meets. */
#ifndef CAROM_FUZZ_WORLDS_H
#define CAROM_FUZZ_WORLDS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/query.h"
#include "../triangle_reference.h"

typedef struct byte_reader {
    const uint8_t *p;
    size_t left;
} byte_reader;

static inline unsigned take8(byte_reader *r)
{
    if (!r->left)
        return 0;
    r->left--;
    return *r->p++;
}

static inline unsigned take16(byte_reader *r)
{
    unsigned hi = take8(r);
    return hi << 8 | take8(r);
}

static inline void fail(const char *what, double value)
{
    fprintf(stderr, "carom fuzz: %s (%.17g)\n", what, value);
    abort();
}

typedef struct world_spec {
    int dim;
    int walls[3];
    int report_only, elastic, gravity;
    int obstacles;        /* how many spheres of infinite mass */
    int moving_obstacles; /* they give energy, as moving walls would */
    int driven_pass;      /* contacts do not move driven spheres (no kicks):
                             they pass through each other and obstacles */
    int squeezes;         /* a driven sphere that contacts do not move may
                             squeeze a sphere against another such body
                             or a wall: overlaps are then not checked */
    double box[3];
    int species;          /* spheres of species 0 to FUZZ_SPECIES - 1 */
    unsigned pass[3];     /* bit b of pass[a]: species a and b pass through
                             each other (symmetric; 0: every pair meets) */
    int sensing;          /* the pairs apart sense each other instead */
} world_spec;

#define FUZZ_SPECIES 3

typedef struct placed {
    double x[3], v[3], r, m;
    int driven;
    unsigned species; /* 0 unless world_spec.species */
    carom_sphere_id id;
} placed;

/* Whether spheres of species a and b meet (by the table kept here). */
static inline int species_meet(const world_spec *s, unsigned a, unsigned b)
{
    return !((s->pass[a] >> b) & 1u);
}

static inline int meet(const world_spec *s, const placed *a, const placed *b)
{
    return species_meet(s, a->species, b->species);
}

/* The six pairs of species 0 to 2, in the table byte's bit order. */
static const unsigned pair_a[6] = {0, 0, 0, 1, 1, 2}, pair_b[6] = {0, 1, 2, 1, 2, 2};

/* The world's table against the one kept here (and species beyond those
 * used, and out of range, meet everything). */
static inline void check_table(const carom_world *w, const world_spec *s)
{
    for (unsigned a = 0; a < FUZZ_SPECIES; a++)
        for (unsigned b = 0; b < FUZZ_SPECIES; b++) {
            int apart = !species_meet(s, a, b);
            if (carom_world_passes_through(w, a, b) != (apart && !s->sensing) ||
                carom_world_senses(w, a, b) != (apart && s->sensing))
                fail("the world's table is not the one set", (double)(a * FUZZ_SPECIES + b));
        }
    if (carom_world_passes_through(w, FUZZ_SPECIES, 0) ||
        carom_world_passes_through(w, CAROM_SPECIES_MAX - 1, CAROM_SPECIES_MAX - 1) ||
        carom_world_passes_through(w, CAROM_SPECIES_MAX, 0))
        fail("species never set pass through", 0.0);
}

/* Pair a-b made to meet (apart 0) or set apart: passing through, or
 * sensing with world_spec.sensing. */
static inline carom_status set_apart(carom_world *w, const world_spec *s, unsigned a, unsigned b,
                                     int apart)
{
    return s->sensing ? carom_world_set_sense(w, a, b, apart)
                      : carom_world_set_pass_through(w, a, b, apart);
}

static inline void set_table(carom_world *w, const world_spec *s)
{
    for (int k = 0; k < 6; k++)
        if (set_apart(w, s, pair_a[k], pair_b[k], !species_meet(s, pair_a[k], pair_b[k])) !=
            CAROM_OK)
            fail("a table set before the first advance was refused", (double)k);
    check_table(w, s);
}

/* A contact found by probing a driven sphere is one within a tolerance
 * (world_driven.h: 1e-10 of the contact distance plus 1e-14 of the
 * coordinates); these checks allow ten times that of a length. */
static inline double driven_slack(const world_spec *s, double length)
{
    double big = fmax(s->box[0], fmax(s->box[1], s->box[2]));
    return 1e-9 * length + 1e-13 * big;
}

/* What the checks of ballistic spheres allow of a length (an overlap, a
 * step past a wall or a plane): 1e-9 of it, and the rounding of the
 * coordinates (8 ulps of the box's largest side), which is more where
 * spheres are tiny against the box (two spheres of radius 2e-7 pressed
 * between two obstacles at x ~ 1210 overlapped by 2e-14, a tenth of an
 * ulp of their coordinates: regressions/world/squeezed-tiny-spheres). */
static inline double ballistic_slack(const world_spec *s, double length)
{
    double big = fmax(s->box[0], fmax(s->box[1], s->box[2]));
    return 1e-9 * length + 8.0 * 2.220446049250313e-16 * big;
}

/* Distance between a and b, through the nearest image along the axes that
 * are not walled. */
static inline double distance(const world_spec *s, const double a[3], const double b[3])
{
    double d2 = 0.0;
    for (int k = 0; k < s->dim; k++) {
        double d = b[k] - a[k];
        if (!s->walls[k])
            d -= s->box[k] * floor(d / s->box[k] + 0.5);
        d2 += d * d;
    }
    return sqrt(d2);
}

/* The states at the world's time (and the species kept here). */
static inline void read_back(carom_world *w, placed *p, int n)
{
    for (int i = 0; i < n; i++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, p[i].id, &st) != CAROM_OK)
            fail("a sphere the world accepted is gone", (double)i);
        if (st.species != p[i].species)
            fail("a sphere's species is not the one it was given", (double)st.species);
        memcpy(p[i].x, st.position, sizeof p[i].x);
        memcpy(p[i].v, st.velocity, sizeof p[i].v);
        p[i].r = st.radius; /* growing spheres' (fuzz_world) */
    }
}

static inline int unmoved(const placed *p)
{
    return p->driven || !isfinite(p->m);
}

/* Finite states, inside a walled box, and (unless report-only) no two
 * spheres that meet overlapping by more than round-off. */
static inline void check_states(const world_spec *s, const placed *p, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < s->dim; k++) {
            if (!isfinite(p[i].x[k]) || !isfinite(p[i].v[k]))
                fail("a position or velocity is not finite", p[i].x[k]);
            double slack = p[i].driven ? driven_slack(s, p[i].r) : ballistic_slack(s, p[i].r);
            if (s->walls[k] &&
                !(p[i].x[k] >= p[i].r - slack && p[i].x[k] <= s->box[k] - p[i].r + slack))
                fail("a sphere is outside the walled box", p[i].x[k]);
        }
    if (s->report_only || s->squeezes)
        return;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (s->driven_pass && unmoved(&p[i]) && unmoved(&p[j]) && (p[i].driven || p[j].driven))
                continue; /* they pass through each other */
            if (!meet(s, &p[i], &p[j]))
                continue; /* their species pass through each other */
            double sigma = p[i].r + p[j].r;
            double slack = p[i].driven || p[j].driven ? driven_slack(s, sigma)
                                                      : ballistic_slack(s, sigma);
            double d = distance(s, p[i].x, p[j].x);
            if (d < sigma - slack)
                fail("two spheres overlap", (sigma - d) / sigma);
        }
}

/* Reads the world's kind and box from the first bytes. */
static inline void read_spec(byte_reader *r, world_spec *s, carom_world_def *def)
{
    unsigned flags = take8(r), more = take8(r);
    s->dim = flags & 1 ? 3 : 2;
    double edge = 0.25 * (double)(1u << (take8(r) % 12)); /* 0.25 .. 512 */
    for (int k = 0; k < 3; k++) {
        s->walls[k] = (flags >> (1 + k)) & 1;
        double stretch = 1.0 + (double)take8(r) / 64.0; /* 1 .. 5 */
        s->box[k] = k < s->dim ? edge * stretch : 1.0;
    }
    s->report_only = (flags >> 4) & 1;
    s->elastic = s->report_only || !((flags >> 5) & 1);
    s->gravity = (flags >> 6) & 1;
    *def = carom_world_default_def();
    def->dim = s->dim;
    for (int k = 0; k < 3; k++) {
        def->box[k] = s->box[k];
        def->boundary[k] = s->walls[k] ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC;
    }
    def->response = s->report_only ? CAROM_RESPONSE_NONE : CAROM_RESPONSE_ELASTIC;
    if (!s->elastic) {
        def->restitution = (double)(more & 15) / 15.0;
        def->wall_restitution = (double)(more >> 4) / 15.0;
    } else if (!s->report_only && (more & 1)) {
        /* Perfectly rough: elastic in rotation too (the energy counted
         * includes the spins'), with one of four moments of inertia. */
        static const double inertia[4] = {0.0, 0.25, 2.0 / 3.0, 1.0};
        def->tangential_restitution = 1.0;
        def->wall_tangential_restitution = 1.0;
        def->inertia_factor = inertia[(more >> 1) & 3];
    }
    def->neighbours = (carom_neighbours)(take8(r) % 3);
    def->reorder = (flags >> 7) & 1 ? CAROM_REORDER_OFF : CAROM_REORDER_AUTO;
    def->prefetch = CAROM_PREFETCH_OFF;
}

/* A change of species between steps (fuzz_world.c, fuzz_driven.c):
 * change number k from the changes byte, j = (top 3 bits + k) mod 8:
 * below 6, pair j of the table flipped; else sphere `sphere` (the
 * caller may choose another before species_change_apply) moved on by
 * j - 5 species. */
typedef struct species_change {
    unsigned j;
    unsigned a, b; /* the pair flipped, */
    int pass;      /* which passes through after it */
    int sphere;    /* or the sphere that changes (-1: none) */
    world_spec after;
} species_change;

/* 0 when there is nothing to change (a sphere's change, no spheres). */
static inline int species_change_make(const world_spec *s, int n, unsigned changes, unsigned k,
                                      species_change *c)
{
    c->j = ((changes >> 5) + k) % 8;
    c->sphere = -1;
    c->a = c->b = 0;
    c->pass = 0;
    c->after = *s;
    if (c->j < 6) {
        unsigned a = c->a = pair_a[c->j], b = c->b = pair_b[c->j];
        c->pass = species_meet(s, a, b);
        if (c->pass) {
            c->after.pass[a] |= 1u << b;
            c->after.pass[b] |= 1u << a;
        } else {
            c->after.pass[a] &= ~(1u << b);
            c->after.pass[b] &= ~(1u << a);
        }
        return 1;
    }
    if (n == 0)
        return 0;
    c->sphere = (int)((changes * 5u + k) % (unsigned)n);
    return 1;
}

/* Makes the change in w, taken or refused as the spheres' overlaps now
 * say (fuzz_world.c's top comment): one that makes spheres overlapping
 * by more than 2e-10 of their contact distance (plus tolerance(s, a, b))
 * meet must be refused with CAROM_ERR_OVERLAP and change nothing; one
 * under which no pair it concerns that meets overlaps by more than
 * 0.5e-10 (less the tolerance), and any change in a report-only world,
 * must be taken. Then the table and the species are read back. */
static inline void species_change_apply(carom_world *w, world_spec *s, placed *p, int n,
                                        const species_change *c,
                                        double (*tolerance)(const world_spec *, const placed *,
                                                            const placed *),
                                        const char *target)
{
    unsigned j = c->j, a = c->a, b = c->b;
    int sphere = c->sphere;
    unsigned to = sphere < 0 ? 0 : (p[sphere].species + j - 5) % FUZZ_SPECIES;
    /* The pairs the world checks: those of the sphere, or of a sphere of
     * either species, that meet after the change (none when a pair is
     * made to pass). */
    int must_refuse = 0, must_take = 1;
    for (int i = 0; i < n && !(j < 6 && c->pass); i++)
        for (int m = i + 1; m < n; m++) {
            unsigned si = i == sphere ? to : p[i].species, sm = m == sphere ? to : p[m].species;
            int concerned = j < 6 ? si == a || si == b || sm == a || sm == b
                                  : i == sphere || m == sphere;
            if (!concerned || !species_meet(&c->after, si, sm))
                continue;
            double sigma = p[i].r + p[m].r, o = (sigma - distance(s, p[i].x, p[m].x)) / sigma;
            double tol = tolerance(s, &p[i], &p[m]);
            if (o > 0.5e-10 - tol)
                must_take = 0;
            if (o > 2e-10 + tol && !meet(s, &p[i], &p[m]))
                must_refuse = 1; /* newly meeting, overlapping */
        }
    if (s->report_only) {
        must_refuse = 0;
        must_take = 1;
    }
    carom_status st = sphere < 0 ? set_apart(w, s, a, b, c->pass)
                                 : carom_world_set_species(w, p[sphere].id, to);
    if (st == CAROM_OK) {
        if (must_refuse)
            fail("a change that makes overlapping spheres meet was taken", (double)j);
        if (sphere < 0)
            *s = c->after;
        else
            p[sphere].species = to;
    } else if (st == CAROM_ERR_OVERLAP) {
        if (must_take)
            fail("a change under which no spheres that meet overlap was refused", (double)j);
    } else {
        fprintf(stderr, "%s: %s: %s\n", target, carom_status_name(st),
                carom_world_error_message(w));
        fail("a change of species failed", (double)j);
    }
    check_table(w, s);
    read_back(w, p, n); /* the species too */
}

/* Contact laws by species (species worlds), drawn from the table and
 * changes bytes (a hash of them, so that no byte is read for them):
 * elastic worlds make each pair and each species' walls smooth or
 * perfectly rough (energy kept, spins counted); worlds with restitution
 * give each a restitution of 1, def's or half of def's and a tangential
 * restitution of -1, -0.5, 0 or 1 with mu infinite or 0.5 (energy never
 * gained). The laws in force are read back. fuzz_world.c and
 * fuzz_driven.c both give them. */
static inline void set_laws(carom_world *w, const world_spec *s, const carom_world_def *def,
                     unsigned seed)
{
    uint32_t h = seed * 2654435761u + 12345u;
    static const double betas[4] = {-1.0, -0.5, 0.0, 1.0};
    for (unsigned a = 0; a < FUZZ_SPECIES; a++)
        for (unsigned b = a; b <= FUZZ_SPECIES; b++) { /* b == FUZZ_SPECIES: walls */
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
            double e = b < FUZZ_SPECIES ? def->restitution : def->wall_restitution;
            double beta = s->elastic ? ((h & 1) ? 1.0 : -1.0) : betas[h & 3];
            double mu = s->elastic || !((h >> 2) & 1) ? INFINITY : 0.5;
            if (!s->elastic)
                e = (h >> 3) % 3 == 0 ? 1.0 : (h >> 3) % 3 == 1 ? e : e / 2.0;
            carom_status st =
                b < FUZZ_SPECIES ? carom_world_set_pair_restitution(w, a, b, e)
                                 : carom_world_set_wall_restitution(w, a, e);
            if (st == CAROM_OK)
                st = b < FUZZ_SPECIES ? carom_world_set_pair_friction(w, a, b, beta, mu)
                                      : carom_world_set_wall_friction(w, a, beta, mu);
            if (st != CAROM_OK)
                fail("a contact law in range was refused", (double)(a * 4 + b));
            double got_e, got_beta, got_mu;
            if (b < FUZZ_SPECIES) {
                got_e = carom_world_pair_restitution(w, b, a);
                st = carom_world_pair_friction(w, b, a, &got_beta, &got_mu);
            } else {
                got_e = carom_world_wall_restitution(w, a);
                st = carom_world_wall_friction(w, a, &got_beta, &got_mu);
            }
            if (st != CAROM_OK || got_e != e || got_beta != beta || got_mu != mu)
                fail("a contact law did not read back", (double)(a * 4 + b));
        }
}

/* Reads one sphere; 0 if it is left out (it would overlap a sphere it
 * meets). With species, a sphere's species is the high half of its mass
 * byte (an obstacle's, which has none, its flags' top 3 bits) modulo
 * FUZZ_SPECIES, and a sphere placed touching one it passes through is
 * placed overlapping it instead, its centre at 2|u - 1/2| (where that is
 * below 1) of the contact distance from the other's: any overlap, down to
 * the same centre. Without species, the bits read as before. */
static inline int read_sphere(byte_reader *r, const world_spec *s, double r0, double vmax,
                              const placed *p, int n, placed *out, int *touching)
{
    unsigned flags = take8(r);
    out->driven = 0;
    out->r = r0 * (0.5 + 1.5 * (double)take8(r) / 255.0);
    unsigned mass_byte = flags & 1 ? 0 : take8(r);
    out->m = flags & 1 ? INFINITY : 0.25 * (double)(1 + (mass_byte & 15));
    out->species = !s->species ? 0
                   : flags & 1 ? (flags >> 5) % FUZZ_SPECIES
                               : (mass_byte >> 4) % FUZZ_SPECIES;
    *touching = n > 0 && (flags & 2);
    /* Touching one it passes through: placed overlapping it. */
    int through = *touching && !meet(s, &p[(flags >> 2) % n], out);
    double u[3], vel[3];
    for (int k = 0; k < 3; k++) {
        u[k] = (double)take16(r) / 65535.0;
        vel[k] = ((double)take16(r) / 32767.5 - 1.0) * vmax;
    }
    int still = !isfinite(out->m) && (flags & 16);
    for (int k = 0; k < 3; k++) {
        out->v[k] = k < s->dim && !still ? vel[k] : 0.0;
        if (k >= s->dim) {
            out->x[k] = 0.0;
        } else if (*touching) {
            /* Along a direction from the bytes, at the contact distance
             * from an earlier sphere (the last bits decide whether it
             * overlaps), or within it from one it passes through. */
            const placed *q = &p[(flags >> 2) % n];
            double dir[3], len = 0.0;
            for (int a = 0; a < s->dim; a++) {
                dir[a] = u[a] - 0.5;
                len += dir[a] * dir[a];
            }
            if (len == 0.0)
                return 0;
            double reach = through ? fmin(1.0, 2.0 * sqrt(len)) : 1.0;
            out->x[k] = q->x[k] + reach * (q->r + out->r) * dir[k] / sqrt(len);
            if (!s->walls[k])
                out->x[k] -= s->box[k] * floor(out->x[k] / s->box[k]);
        } else {
            double lo = s->walls[k] ? out->r * 1.001 : 0.0;
            double hi = s->walls[k] ? s->box[k] - out->r * 1.001 : s->box[k];
            if (!(hi > lo))
                return 0;
            out->x[k] = lo + (hi - lo) * u[k];
            if (out->x[k] >= s->box[k])
                out->x[k] = lo;
        }
    }
    for (int k = 0; k < s->dim; k++)
        if (s->walls[k] &&
            !(out->x[k] >= out->r * 1.001 && out->x[k] <= s->box[k] - out->r * 1.001))
            return 0;
    if (through)
        *touching = 0; /* clear of the others it meets, as any other */
    if (s->report_only)
        return 1;
    for (int i = 0; i < n; i++) {
        if (!meet(s, &p[i], out))
            continue; /* may overlap */
        double sigma = p[i].r + out->r;
        double d = distance(s, p[i].x, out->x);
        if (*touching ? d < sigma * (1.0 - 1e-12) : d < sigma * (1.0 + 1e-9))
            return 0;
    }
    return 1;
}

/* A plane across a corner of the box from the bytes left (at least 3):
 * a normal with a component along each walled axis pointing away from the
 * corner, through a point 10% to 45% of the box in. Refused (and left
 * out) when a sphere is behind it. */
static inline void add_plane(carom_world *w, const world_spec *s, byte_reader *r)
{
    if (r->left < 3)
        return;
    unsigned corner = take8(r), depth = take8(r), tilt = take8(r);
    double n[3] = {0.0, 0.0, 0.0}, point[3] = {0.0, 0.0, 0.0}, d = 0.0;
    int walled = 0;
    for (int k = 0; k < s->dim; k++) {
        if (!s->walls[k])
            continue;
        int high = (corner >> k) & 1;
        double c = 0.1 + 0.35 * (double)depth / 255.0;
        n[k] = (high ? -1.0 : 1.0) * (1.0 + (double)((tilt >> (2 * k)) & 3));
        point[k] = high ? s->box[k] * (1.0 - c) : s->box[k] * c;
        d += n[k] * point[k];
        walled = 1;
    }
    if (!walled)
        return;
    carom_status st = carom_world_add_plane(w, n, d, NULL);
    if (st != CAROM_OK && st != CAROM_ERR_OUTSIDE_BOX)
        fail("a plane across walled axes was refused", (double)st);
}

/* No sphere behind a plane by more than 1e-9 of its radius (a driven
 * sphere's contact tolerance). */
static inline void check_planes(const carom_world *w, const world_spec *s, const placed *p, int n)
{
    for (uint32_t q = 0; q < carom_world_plane_count(w); q++) {
        double normal[3], d;
        carom_world_get_plane(w, q, normal, &d);
        for (int i = 0; i < n; i++) {
            double behind = d + p[i].r -
                            (normal[0] * p[i].x[0] + normal[1] * p[i].x[1] + normal[2] * p[i].x[2]);
            double slack = p[i].driven ? driven_slack(s, p[i].r) : ballistic_slack(s, p[i].r);
            if (behind > slack)
                fail("a sphere is behind a plane", behind / p[i].r);
        }
    }
}

/* Segments from the bytes left, 4 each, in a 2D world: ends between 5%
 * and 95% of the box along walled axes, anywhere from 0 to 100% along
 * periodic ones (where the world repeats each). One is refused (and left
 * out) when a sphere overlaps it. */
static inline void add_segment(carom_world *w, const world_spec *s, byte_reader *r)
{
    /* Up to three, 4 bytes each (the world's tree of segments then has
     * several to walk). */
    for (int count = 0; count < 3 && r->left >= 4 && s->dim == 2; count++) {
        double a[2], b[2];
        for (int e = 0; e < 4; e++) {
            int k = e % 2;
            double u = (double)take8(r) / 255.0;
            (e < 2 ? a : b)[k] = s->box[k] * (s->walls[k] ? 0.05 + 0.9 * u : u);
        }
        carom_status st = carom_world_add_segment(w, a, b, NULL);
        if (st != CAROM_OK && st != CAROM_ERR_OVERLAP && !(a[0] == b[0] && a[1] == b[1]))
            fail("a segment in a 2D world was refused", (double)st);
    }
}

/* How far x is from segment g of the world, or from its nearest image
 * along periodic axes. */
static inline double segment_distance(const carom_world *w, const world_spec *s, uint32_t g,
                                      const double x[3])
{
    double a[2], b[2], best = INFINITY;
    carom_world_get_segment(w, g, a, b);
    double dx = b[0] - a[0], dy = b[1] - a[1];
    for (int c = 0; c < 9; c++) {
        int step[2] = {c % 3 - 1, c / 3 - 1};
        if ((step[0] && s->walls[0]) || (step[1] && s->walls[1]))
            continue;
        double y[2];
        for (int k = 0; k < 2; k++)
            y[k] = (s->walls[k] ? x[k] : x[k] - s->box[k] * floor(x[k] / s->box[k])) +
                   step[k] * s->box[k];
        double u = ((y[0] - a[0]) * dx + (y[1] - a[1]) * dy) / (dx * dx + dy * dy);
        u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
        best = fmin(best, hypot(y[0] - a[0] - u * dx, y[1] - a[1] - u * dy));
    }
    return best;
}

/* No centre nearer to a segment than its radius, less 1e-9 of it (a
 * driven sphere's contact tolerance for a driven one). */
static inline void check_segments(const carom_world *w, const world_spec *s, const placed *p, int n)
{
    for (uint32_t g = 0; g < carom_world_segment_count(w); g++)
        for (int i = 0; i < n; i++) {
            double into = p[i].r - segment_distance(w, s, g, p[i].x);
            double slack = p[i].driven ? driven_slack(s, p[i].r) : ballistic_slack(s, p[i].r);
            if (into > slack)
                fail("a sphere overlaps a segment", into / p[i].r);
        }
}

/* Triangle c, refused (and left out) when a sphere overlaps it, or when
 * it has no area. */
static inline void add_one_triangle(carom_world *w, const double c[3][3])
{
    double ab[3], ac[3], longest = 0.0;
    for (int m = 0; m < 3; m++) {
        ab[m] = c[1][m] - c[0][m];
        ac[m] = c[2][m] - c[0][m];
    }
    for (int k = 0; k < 3; k++) {
        double e[3] = {c[(k + 1) % 3][0] - c[k][0], c[(k + 1) % 3][1] - c[k][1],
                       c[(k + 1) % 3][2] - c[k][2]};
        longest = fmax(longest, dot3(e, e));
    }
    double n[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                   ab[0] * ac[1] - ab[1] * ac[0]};
    int flat = !(sqrt(dot3(n, n)) > 1e-12 * longest);
    carom_status st = carom_world_add_triangle(w, c[0], c[1], c[2], NULL);
    if (st != CAROM_OK && st != CAROM_ERR_OVERLAP && !(flat && st == CAROM_ERR_INVALID_ARGUMENT))
        fail("a triangle in a 3D world was refused", (double)st);
}

/* Triangle c cut `depth` times into four at its edges' midpoints: a
 * small mesh whose triangles share edges and corners (ties between
 * triangles, and a tree of several leaves). */
static inline void add_cut_triangle(carom_world *w, const double c[3][3], int depth)
{
    if (depth == 0) {
        add_one_triangle(w, c);
        return;
    }
    double mid[3][3]; /* mid[k]: of edge k, from corner k to corner k + 1 */
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++)
            mid[k][m] = 0.5 * (c[k][m] + c[(k + 1) % 3][m]);
    for (int k = 0; k < 3; k++) {
        double corner[3][3];
        for (int m = 0; m < 3; m++) {
            corner[0][m] = c[k][m];
            corner[1][m] = mid[k][m];
            corner[2][m] = mid[(k + 2) % 3][m];
        }
        add_cut_triangle(w, (const double(*)[3])corner, depth - 1);
    }
    add_cut_triangle(w, (const double(*)[3])mid, depth - 1);
}

/* A triangle from 9 bytes left, in a 3D world: corners between 5% and
 * 95% of the box along walled axes, anywhere from 0 to 100% along
 * periodic ones (where the world repeats it), cut into 16
 * (add_cut_triangle); each refused (and left out) when a sphere overlaps
 * it, or when it has no area. */
static inline void add_triangle(carom_world *w, const world_spec *s, byte_reader *r)
{
    if (r->left < 9 || s->dim != 3)
        return;
    double c[3][3];
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++) {
            double u = (double)take8(r) / 255.0;
            c[k][m] = s->box[m] * (s->walls[m] ? 0.05 + 0.9 * u : u);
        }
    add_cut_triangle(w, (const double(*)[3])c, 2);
}

/* How far x is from triangle g of the world, or from its nearest image
 * along periodic axes (the tests' own nearest point,
 * triangle_reference.h). */
static inline double world_triangle_distance(const carom_world *w, const world_spec *s,
                                             uint32_t g, const double x[3])
{
    double c[3][3], y[3], best = INFINITY;
    carom_world_get_triangle(w, g, c[0], c[1], c[2]);
    for (int m = 0; m < 3; m++)
        y[m] = s->walls[m] ? x[m] : x[m] - s->box[m] * floor(x[m] / s->box[m]);
    for (int e = 0; e < 27; e++) {
        int step[3] = {e % 3 - 1, e / 3 % 3 - 1, e / 9 - 1};
        double z[3];
        int fits = 1;
        for (int m = 0; m < 3; m++) {
            fits &= step[m] == 0 || !s->walls[m];
            z[m] = y[m] + step[m] * s->box[m];
        }
        if (fits)
            best = fmin(best, distance_to_triangle((const double(*)[3])c, z));
    }
    return best;
}

/* No centre nearer to a triangle than its radius, less 1e-9 of it (a
 * driven sphere's contact tolerance for a driven one). */
static inline void check_triangles(const carom_world *w, const world_spec *s, const placed *p,
                                   int n)
{
    for (uint32_t g = 0; g < carom_world_triangle_count(w); g++)
        for (int i = 0; i < n; i++) {
            double into = p[i].r - world_triangle_distance(w, s, g, p[i].x);
            double slack = p[i].driven ? driven_slack(s, p[i].r) : ballistic_slack(s, p[i].r);
            if (into > slack)
                fail("a sphere overlaps a triangle", into / p[i].r);
        }
}

/* How deep a sphere of radius r at x would reach into obstacle o (its
 * radius less the distance, for a wall or a plane less the height of x
 * over it), by this file's own distances. */
static inline double obstacle_depth(const carom_world *w, const world_spec *s,
                                    const carom_obstacle *o, const double x[3], double r)
{
    double normal[3], d;
    switch (o->kind) {
    case CAROM_CONTACT_WALL:
        return r - (o->index % 2 ? s->box[o->index / 2] - x[o->index / 2] : x[o->index / 2]);
    case CAROM_CONTACT_PLANE:
        carom_world_get_plane(w, (uint32_t)o->index, normal, &d);
        return r - (normal[0] * x[0] + normal[1] * x[1] + normal[2] * x[2] - d);
    case CAROM_CONTACT_SEGMENT:
        return r - segment_distance(w, s, (uint32_t)o->index, x);
    default:
        return r - world_triangle_distance(w, s, (uint32_t)o->index, x);
    }
}

/* The obstacle query at x (radius r) against this file's distances to
 * every wall, plane, segment and triangle: each listed once, in order
 * (walls, planes, segments, triangles; by index), every one reaching in
 * (beyond round-off), and none left out that does. */
static inline void check_obstacle_query(carom_world *w, const world_spec *s, const double x[3],
                                        double r)
{
    for (int k = 0; k < s->dim; k++)
        if (!s->walls[k] && !(r < 0.5 * s->box[k]))
            return; /* refused, as the query's contract says */
    enum { ROOM = 512 };
    carom_obstacle got[ROOM];
    size_t count = 0;
    if (carom_world_query_obstacles(w, x, r, got, ROOM, &count) != CAROM_OK)
        fail("an obstacle query was refused", r);
    double scale = fmax(s->box[0], fmax(s->box[1], s->box[2]));
    double tol = 1e-9 * r + 1e-12 * scale;
    size_t inside = 0, unsure = 0;
    carom_obstacle o;
    for (int k = 0; k < s->dim; k++)
        for (int high = 0; high < 2 && s->walls[k]; high++) {
            o.kind = CAROM_CONTACT_WALL;
            o.index = 2 * k + high;
            double depth = obstacle_depth(w, s, &o, x, r);
            inside += depth > tol;
            unsure += fabs(depth) <= tol;
        }
    size_t counts[3] = {carom_world_plane_count(w), carom_world_segment_count(w),
                        carom_world_triangle_count(w)};
    carom_contact_kind kinds[3] = {CAROM_CONTACT_PLANE, CAROM_CONTACT_SEGMENT,
                                   CAROM_CONTACT_TRIANGLE};
    for (int kind = 0; kind < 3; kind++)
        for (size_t i = 0; i < counts[kind]; i++) {
            o.kind = kinds[kind];
            o.index = (int)i;
            double depth = obstacle_depth(w, s, &o, x, r);
            inside += depth > tol;
            unsure += fabs(depth) <= tol;
        }
    if (count < inside || count > inside + unsure)
        fail("an obstacle query missed or added obstacles", (double)count - (double)inside);
    for (size_t i = 0; i < count && i < ROOM; i++) {
        if (!(obstacle_depth(w, s, &got[i], x, r) >= -tol))
            fail("an obstacle query listed one out of reach", (double)i);
        if (i > 0 && !(got[i].kind > got[i - 1].kind ||
                       (got[i].kind == got[i - 1].kind && got[i].index > got[i - 1].index)))
            fail("an obstacle query's list is out of order", (double)i);
    }
}

/* Scene queries (include/carom/query.h) from each of the first spheres
 * towards the next (a ray from every other one, else a sphere of half
 * its radius; the caster ignored), checked against the states read
 * back: a sphere hit is touched at the fraction reported (or overlapped,
 * at 0); before it the cast overlaps no sphere, at 16 points of its
 * path; with no hit, none along the whole path. The first two casts at
 * a time test every sphere and the rest go through the queries' index,
 * so both are checked. An overlap query at each caster's centre of
 * twice its radius lists exactly the spheres within reach, and the
 * obstacle query there the walls, planes, segments and triangles. */
static inline void check_queries(carom_world *w, const world_spec *s, const placed *p, int n)
{
    double scale = fmax(s->box[0], fmax(s->box[1], s->box[2]));
    for (int i = 0; i < n && i < 8; i++) {
        const placed *to = &p[(i + 1) % n];
        carom_cast c = {{p[i].x[0], p[i].x[1], p[i].x[2]},
                        {to->x[0] - p[i].x[0], to->x[1] - p[i].x[1], to->x[2] - p[i].x[2]},
                        i % 2 ? 0.0 : 0.5 * p[i].r,
                        p[i].id};
        carom_cast_hit h;
        int found = 0;
        if (carom_world_cast_sphere(w, &c, &h, &found) != CAROM_OK)
            fail("a cast was refused", (double)i);
        double upto = found ? h.fraction : 1.0;
        if (found && !(h.fraction >= 0.0 && h.fraction <= 1.0))
            fail("a cast's fraction is out of [0, 1]", h.fraction);
        if (found && h.kind == CAROM_CONTACT_SPHERE) {
            int k = 0;
            while (k < n && p[k].id != h.sphere)
                k++;
            if (k == n || k == i)
                fail("a cast hit a sphere that is not there, or the one ignored", (double)k);
            double sigma = c.radius + p[k].r, d = distance(s, h.position, p[k].x);
            double tol = 1e-9 * sigma + 1e-12 * scale;
            if (h.fraction > 0.0 ? !(fabs(d - sigma) <= tol) : !(d <= sigma + tol))
                fail("a cast's sphere is not touched where it is reported", (d - sigma) / sigma);
        }
        for (int m = 0; m < 16; m++) {
            double f = upto * m / 16.0, at[3];
            if (found && !(f < h.fraction))
                break;
            for (int k = 0; k < 3; k++)
                at[k] = c.origin[k] + f * c.motion[k];
            for (int l = 0; l < n; l++) {
                double sigma = c.radius + p[l].r;
                if (l != i && distance(s, at, p[l].x) < sigma * (1.0 - 1e-9) - 1e-12 * scale)
                    fail("a cast passed into a sphere before its hit", f);
            }
        }
        size_t count = 0;
        double reach = 2.0 * p[i].r;
        if (carom_world_query_sphere(w, p[i].x, reach, NULL, 0, &count) != CAROM_OK)
            fail("an overlap query was refused", (double)i);
        size_t inside = 0, unsure = 0;
        for (int l = 0; l < n; l++) {
            double d = distance(s, p[i].x, p[l].x), sigma = reach + p[l].r;
            double tol = 1e-9 * sigma + 1e-12 * scale;
            inside += d < sigma - tol;
            unsure += fabs(d - sigma) <= tol;
        }
        if (count < inside || count > inside + unsure)
            fail("an overlap query missed or added spheres", (double)count - (double)inside);
        check_obstacle_query(w, s, p[i].x, reach);
    }
}

#endif
