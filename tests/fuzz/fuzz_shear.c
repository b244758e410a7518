/* libFuzzer target: Lees-Edwards shear (carom_world_set_shear) on worlds
 * made from any bytes, checked by arithmetic of its own after every
 * advance: thin and wide boxes, rates over eight orders of magnitude
 * against the spheres' speeds (images that crawl, images that pass many
 * times faster than any sphere), either sign, cells or neighbour lists,
 * elastic or not, spheres placed touching through the moving images.
 *
 * The first 9 bytes choose the world: byte 0, the dimension (bit 0), the
 * neighbour structure (bits 1-2), restitution 1 or 0.8 (bit 3), a rate
 * below 0 (bit 4), a change of rate between steps (bit 5: times -0.5 or
 * 3, by the step), the offset set at the start (bit 6), tracers (bit 7:
 * every third sphere of species 1, which senses the others and passes
 * through its own kind); bytes 1-3 the box
 * (each side 2.2 to 66 times the largest diameter); byte 4 the rate
 * (10^-5 to 10^3 times the speeds over L_y); byte 5 the starting offset
 * (a share of L_x); byte 6 the steps (1 to 8) and their length; byte 7
 * the speed scale; byte 8 an operation after each of the first four
 * steps, two bits each (apply_op: a new velocity, a move, a removal).
 * Then SPHERE_BYTES a sphere (up to MAX_SPHERES): its place, velocity,
 * radius (1 to 2 times the smallest) and mass. A sphere
 * that would overlap one already placed, through the images displaced by
 * the starting offset, is left out (this file's O(N^2) test), unless it
 * overlaps one alone and its place's last bit is set: it is then moved
 * to touch that one, through the image it touches, and the world may
 * refuse the pair as overlapping (CAROM_ERR_OVERLAP at the first
 * advance).
 *
 * The world may refuse the first advance for its box (too small for two
 * cells of the largest diameter along an axis: CAROM_ERR_BOX_TOO_SMALL),
 * and for nothing else: a sheared world keeps one dense level of cells
 * however sparse the box is, and however few spheres the operations
 * leave. Otherwise it advances in steps, each under an event budget, and
 * after each:
 * - every position and velocity is finite and every position in the box;
 * - no two spheres that meet overlap by more than 1e-9 of their contact
 *   distance and the coordinates' rounding (the offset's too), the
 *   distance taken through the nearest image: the box above displaced
 *   along x by the offset, which this file follows from the rates it set;
 * - with tracers, each sensing pair's reports alternate, in then out, and
 *   the pairs in contact are those that overlap through that image (pairs
 *   within 1e-8 of their contact distance and the rounding left out);
 * - carom_world_shear_offset is that offset;
 * - with counted images (def.count_images), the sum of m times the
 *   unwrapped positions (position + image * box, plus image[1] times the
 *   offset along x) moves at the sum of m times the unwrapped velocities
 *   (velocity plus image[1] * rate * L_y along x), which contacts keep,
 *   inelastic ones too (to 1e-9 of the distances involved): a crossing of
 *   the sheared boundary counted wrong is off by L_x or by the offset. A
 *   change of rate, or an operation, starts the sums again;
 * - a move (carom_world_set_position) is taken where this file finds the
 *   place clear through the sheared images, refused as overlapping where
 *   it finds an overlap (either within the rounding).
 * Any other outcome aborts with a message, which libFuzzer reports with
 * the input. Built only with -DCAROM_FUZZ=ON and clang. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "fuzz_worlds.h"

#define MAX_SPHERES 24
#define EVENT_BUDGET 20000
#define SPHERE_BYTES 10

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct sheared {
    int dim;
    double box[3];
    double rate, offset_base, base_time; /* the offset: offset_base + rate Ly (t - base_time) */
} sheared;

static double offset_at(const sheared *s, double t)
{
    double d = fmod(s->offset_base + s->rate * s->box[1] * (t - s->base_time), s->box[0]);
    return d < 0.0 ? d + s->box[0] : d;
}

/* What rounding may move a length by: that of the coordinates and of the
 * offset's growth. */
static double rounding(const sheared *s, double t)
{
    double big = fmax(s->box[0], fmax(s->box[1], s->box[2]));
    return 8.0 * 2.220446049250313e-16 * (big + fabs(s->rate * s->box[1] * t));
}

/* Distance from a to b through the nearest image, the box above
 * displaced along x by offset; d (may be NULL), the separation from a to
 * that image. */
static double nearest_image(const sheared *s, const double a[3], const double b[3],
                            double offset, double d[3])
{
    double best = INFINITY;
    for (int side = -1; side <= 1; side++) {
        double e[3] = {b[0] - a[0] + side * offset, b[1] - a[1] + side * s->box[1], 0.0};
        if (s->dim == 3)
            e[2] = b[2] - a[2];
        e[0] -= s->box[0] * floor(e[0] / s->box[0] + 0.5);
        e[2] -= s->box[2] * floor(e[2] / s->box[2] + 0.5);
        double len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (len < best) {
            best = len;
            if (d)
                memcpy(d, e, sizeof e);
        }
    }
    return best;
}

static double sheared_distance(const sheared *s, const double a[3], const double b[3],
                               double offset)
{
    return nearest_image(s, a, b, offset, NULL);
}

typedef struct ball {
    double x[3], v[3], r, m;
    carom_sphere_id id;
    int tracer; /* species 1: senses the others, passes through tracers */
} ball;

/* Sensing pairs' reports by sphere id (ids are 0 up: none is reused):
 * in less out, which must stay 0 or 1. */
typedef struct sensed {
    int tracer[MAX_SPHERES];
    int in[MAX_SPHERES][MAX_SPHERES];
} sensed;

static void tally(void *user, carom_contact *c)
{
    sensed *t = user;
    if (c->kind != CAROM_CONTACT_SPHERE || c->i >= MAX_SPHERES || c->j >= MAX_SPHERES ||
        t->tracer[c->i] == t->tracer[c->j])
        return; /* a collision, or a tracer passing a tracer (never reported) */
    uint32_t i = c->i < c->j ? c->i : c->j, j = c->i < c->j ? c->j : c->i;
    t->in[i][j] += c->parting ? -1 : 1;
    if (t->in[i][j] != 0 && t->in[i][j] != 1)
        fail("a sensing pair was reported in twice, or out while not in", (double)t->in[i][j]);
}

static int hard_pair(const ball *a, const ball *b)
{
    return !a->tracer && !b->tracer;
}

/* Sums of m times the unwrapped positions and velocities now. */
static void unwrapped_sums(const carom_world *w, const sheared *s, const ball *b, int n,
                           double pos[3], double mom[3], double *scale)
{
    double offset = carom_world_shear_offset(w), speed = carom_world_shear_rate(w) * s->box[1];
    *scale = 0.0;
    for (int k = 0; k < 3; k++)
        pos[k] = mom[k] = 0.0;
    for (int i = 0; i < n; i++) {
        carom_sphere_state st;
        int64_t image[3];
        if (carom_world_get_sphere(w, b[i].id, &st) != CAROM_OK ||
            carom_world_get_image(w, b[i].id, image) != CAROM_OK)
            fail("a sphere the world accepted has no state or image", (double)i);
        for (int k = 0; k < s->dim; k++) {
            double u = st.position[k] + (double)image[k] * s->box[k];
            double v = st.velocity[k];
            if (k == 0) {
                u += (double)image[1] * offset;
                v += (double)image[1] * speed;
            }
            pos[k] += b[i].m * u;
            mom[k] += b[i].m * v;
            *scale += b[i].m * (fabs(u) + s->box[k]);
        }
    }
}

static void check_sheared_states(const carom_world *w, const sheared *s, ball *b, int n,
                                 const sensed *contacts)
{
    double t = carom_world_time(w), offset = offset_at(s, t);
    double given = carom_world_shear_offset(w), slack = rounding(s, t);
    double off = fabs(given - offset);
    if (!(fmin(off, s->box[0] - off) <= slack))
        fail("the world's offset is not the one its rates give", given - offset);
    for (int i = 0; i < n; i++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, b[i].id, &st) != CAROM_OK)
            fail("a sphere the world accepted is gone", (double)i);
        for (int k = 0; k < s->dim; k++) {
            if (!isfinite(st.position[k]) || !isfinite(st.velocity[k]))
                fail("a position or velocity is not finite", st.position[k]);
            if (!(st.position[k] >= 0.0 && st.position[k] < s->box[k]))
                fail("a position is outside the box", st.position[k]);
        }
        memcpy(b[i].x, st.position, sizeof b[i].x);
        memcpy(b[i].v, st.velocity, sizeof b[i].v);
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double sigma = b[i].r + b[j].r;
            double gap = sheared_distance(s, b[i].x, b[j].x, offset) - sigma;
            if (hard_pair(&b[i], &b[j])) {
                if (!(gap >= -(1e-9 * sigma + slack)))
                    fail("two spheres overlap through the sheared images", gap / sigma);
            } else if (b[i].tracer != b[j].tracer && fabs(gap) > 1e-8 * sigma + slack) {
                carom_sphere_id lo = b[i].id < b[j].id ? b[i].id : b[j].id;
                carom_sphere_id hi = b[i].id < b[j].id ? b[j].id : b[i].id;
                if (contacts->in[lo][hi] != (gap < 0.0))
                    fail(gap < 0.0 ? "a sensing pair overlaps, not reported in"
                                   : "a sensing pair is apart, not reported out",
                         gap / sigma);
            }
        }
}

/* The sums of the unwrapped positions moved at the unwrapped momentum
 * since they were taken (at t0). */
static void check_sums(const carom_world *w, const sheared *s, const ball *b, int n,
                       const double pos0[3], const double mom0[3], double t0)
{
    double pos[3], mom[3], scale, t = carom_world_time(w);
    unwrapped_sums(w, s, b, n, pos, mom, &scale);
    double mass = 0.0, speed = 0.0;
    for (int i = 0; i < n; i++) {
        mass += b[i].m;
        speed += b[i].m * (fabs(b[i].v[0]) + fabs(b[i].v[1]) + fabs(b[i].v[2]) +
                           fabs(s->rate * s->box[1]));
    }
    for (int k = 0; k < s->dim; k++) {
        double tol = 1e-9 * (scale + speed * (t - t0)) + rounding(s, t) * mass;
        if (!(fabs(mom[k] - mom0[k]) <= 1e-9 * speed + 1e-300))
            fail("the unwrapped momentum changed", mom[k] - mom0[k]);
        if (!(fabs(pos[k] - pos0[k] - mom0[k] * (t - t0)) <= tol))
            fail("the unwrapped positions did not move at the unwrapped momentum",
                 pos[k] - pos0[k] - mom0[k] * (t - t0));
    }
}

/* x into the box, through the sheared boundary along y (x shifted by
 * the offset, as the world does) and the periodic sides. */
static void into_box(const sheared *s, double x[3], double offset)
{
    double n = floor(x[1] / s->box[1]);
    x[1] -= n * s->box[1];
    x[0] -= n * offset;
    for (int k = 0; k < s->dim; k++) {
        x[k] -= s->box[k] * floor(x[k] / s->box[k]);
        if (!(x[k] < s->box[k])) /* a hair below 0 rounded up */
            x[k] = 0.0;
    }
}

/* One sphere from the bytes; 0 if it overlaps one placed. With the
 * place's last bit set, a sphere that overlaps exactly one is first
 * moved along their line of centres (through the nearest image) to touch
 * it (*touching then: the world may take the pair as overlapping). */
static int read_ball(byte_reader *r, const sheared *s, double r0, double vmax, double offset,
                     const ball *b, int n, ball *out, int *touching)
{
    unsigned place[3];
    for (int k = 0; k < 3; k++)
        place[k] = take16(r);
    for (int k = 0; k < 3; k++) {
        out->x[k] = k < s->dim ? s->box[k] * ((double)place[k] / 65536.0) : 0.0;
        out->v[k] = k < s->dim ? vmax * ((double)take8(r) - 127.5) / 127.5 : 0.0;
    }
    unsigned size = take8(r);
    out->r = r0 * (1.0 + (double)(size >> 2) / 63.0);
    out->m = 1.0 + (double)(size & 3u);
    int hit = -1, hits = 0;
    for (int j = 0; j < n; j++)
        if (sheared_distance(s, b[j].x, out->x, offset) < b[j].r + out->r) {
            hit = j;
            hits++;
        }
    if (hits == 1 && place[0] & 1u) {
        /* Out moved away from the nearest image of the one it overlaps
         * (d: from there to out), to their contact distance. */
        double d[3];
        double best = nearest_image(s, out->x, b[hit].x, offset, d);
        for (int k = 0; k < 3; k++)
            d[k] = -d[k];
        if (!(best > 0.0))
            return 0;
        double sigma = b[hit].r + out->r;
        for (int k = 0; k < 3; k++)
            out->x[k] += d[k] * (sigma / best - 1.0);
        into_box(s, out->x, offset);
        *touching = 1;
        hits = 0;
        for (int j = 0; j < n; j++)
            hits += j != hit &&
                    sheared_distance(s, b[j].x, out->x, offset) < b[j].r + out->r;
    }
    return hits == 0;
}

/* An operation between steps (op 0: none) on sphere step % n: 1, a new
 * velocity (its own turned a quarter about z and made 1.5 times as
 * fast), which must be taken; 2, a move across the box (by a third of
 * Lx and 0.37 Ly, through the sheared boundary when it goes past the
 * top), which must be taken where this file finds the place clear by
 * more than the rounding, and refused with CAROM_ERR_OVERLAP where it
 * finds an overlap deeper than that; 3, the sphere removed. 1 if the
 * world changed. */
static int apply_op(carom_world *w, const sheared *s, ball *b, int *n, unsigned op, int step)
{
    if (op == 0 || *n == 0)
        return 0;
    int m = step % *n;
    if (op == 1) {
        double v[3] = {-1.5 * b[m].v[1], 1.5 * b[m].v[0], 1.5 * b[m].v[2]};
        if (carom_world_set_velocity(w, b[m].id, v) != CAROM_OK)
            fail("a finite velocity was refused", v[0]);
        return 1;
    }
    if (op == 3) {
        if (carom_world_remove_sphere(w, b[m].id) != CAROM_OK)
            fail("a live sphere could not be removed", (double)m);
        b[m] = b[--*n];
        return 1;
    }
    double t = carom_world_time(w), offset = offset_at(s, t), to[3];
    memcpy(to, b[m].x, sizeof to);
    to[0] += s->box[0] / 3.0;
    to[1] += 0.37 * s->box[1];
    into_box(s, to, offset);
    double gap = INFINITY, slack = 1e-9 * 4.0 + rounding(s, t);
    for (int j = 0; j < *n; j++)
        if (j != m && hard_pair(&b[j], &b[m]))
            gap = fmin(gap, sheared_distance(s, b[j].x, to, offset) - (b[j].r + b[m].r));
    carom_status st = carom_world_set_position(w, b[m].id, to);
    if (gap > slack && st != CAROM_OK)
        fail("a move to a clear place was refused", gap);
    if (gap < -slack && st != CAROM_ERR_OVERLAP)
        fail("a move into an overlap (through the sheared images) was taken", gap);
    if (st != CAROM_OK && st != CAROM_ERR_OVERLAP)
        fail("a move failed otherwise", (double)st);
    return st == CAROM_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byte_reader r = {data, size};
    unsigned kind = take8(&r);
    sheared s;
    memset(&s, 0, sizeof s);
    s.dim = kind & 1u ? 3 : 2;
    const double r0 = 1.0, diameter = 4.0 * r0; /* the largest: radius 2 r0 */
    for (int k = 0; k < 3; k++) {
        unsigned side = take8(&r);
        s.box[k] = k < s.dim ? diameter * (2.2 + 0.25 * (double)side) : 1.0;
    }
    double rate_scale = pow(10.0, (double)take8(&r) / 255.0 * 8.0 - 5.0);
    double offset_share = (double)take8(&r) / 256.0;
    unsigned steps_byte = take8(&r);
    double vmax = pow(10.0, (double)take8(&r) / 255.0 * 6.0 - 3.0);
    unsigned ops = take8(&r);
    s.rate = (kind & 16u ? -1.0 : 1.0) * rate_scale * vmax / s.box[1];
    s.offset_base = kind & 64u ? offset_share * s.box[0] : 0.0;

    carom_world_def def = carom_world_default_def();
    def.dim = s.dim;
    for (int k = 0; k < 3; k++)
        def.box[k] = s.box[k];
    const carom_neighbours structures[4] = {CAROM_NEIGHBOURS_AUTO, CAROM_NEIGHBOURS_CELLS,
                                            CAROM_NEIGHBOURS_LISTS, CAROM_NEIGHBOURS_AUTO};
    def.neighbours = structures[(kind >> 1) & 3u];
    def.restitution = kind & 8u ? 0.8 : 1.0;
    def.count_images = 1;
    static sensed contacts;
    memset(&contacts, 0, sizeof contacts);
    def.on_contact = tally;
    def.user_data = &contacts;
    carom_world *w = carom_world_create(&def, NULL);
    if (!w)
        fail("a sheared world's definition was refused", 0.0);
    int tracers = (kind & 128u) != 0;
    if (tracers && (carom_world_set_sense(w, 0, 1, 1) != CAROM_OK ||
                    carom_world_set_pass_through(w, 1, 1, 1) != CAROM_OK))
        fail("tracers were refused", 0.0);
    if (carom_world_set_shear(w, s.rate) != CAROM_OK)
        fail("a finite rate was refused", s.rate);
    if (s.offset_base != 0.0 && carom_world_set_shear_offset(w, s.offset_base) != CAROM_OK)
        fail("a finite offset was refused", s.offset_base);

    ball b[MAX_SPHERES];
    int n = 0, touching = 0;
    while (n < MAX_SPHERES && r.left >= SPHERE_BYTES) {
        ball next;
        if (!read_ball(&r, &s, r0, vmax, s.offset_base, b, n, &next, &touching))
            continue;
        carom_sphere_def d = carom_sphere_default_def();
        memcpy(d.position, next.x, sizeof d.position);
        memcpy(d.velocity, next.v, sizeof d.velocity);
        d.radius = next.r;
        d.mass = next.m;
        next.tracer = tracers && n % 3 == 2;
        d.species = next.tracer ? 1u : 0u;
        if (carom_world_add_sphere(w, &d, &next.id) != CAROM_OK)
            fail("a sphere clear of the others was refused", (double)n);
        if (next.id >= MAX_SPHERES)
            fail("ids are not given from 0 up", (double)next.id);
        contacts.tracer[next.id] = next.tracer;
        b[n++] = next;
    }

    carom_status st = carom_world_advance_to(w, 0.0);
    if (st == CAROM_ERR_BOX_TOO_SMALL || (st == CAROM_ERR_OVERLAP && touching)) {
        carom_world_free(w); /* a box the cells do not fit, or a pair placed touching */
        return 0;
    }
    if (st != CAROM_OK)
        fail("the first advance failed", (double)st);
    check_sheared_states(w, &s, b, n, &contacts);
    double pos0[3], mom0[3], scale, t0 = 0.0;
    unwrapped_sums(w, &s, b, n, pos0, mom0, &scale);

    int steps = 1 + (int)(steps_byte & 7u);
    double span = pow(10.0, (double)(steps_byte >> 3) / 31.0 * 3.0 - 1.0) * s.box[1] /
                  (vmax + 1e-300);
    double t = 0.0;
    for (int step = 1; step <= steps; step++) {
        t += span / steps;
        uint64_t processed = 0;
        int reached = 0;
        st = carom_world_advance_to_limited(w, t, EVENT_BUDGET, &processed, &reached);
        if (st != CAROM_OK)
            fail("an advance failed", (double)st);
        check_sheared_states(w, &s, b, n, &contacts);
        check_sums(w, &s, b, n, pos0, mom0, t0);
        if (!reached)
            break; /* the budget ran out: the world stays where it stopped */
        int changed = step <= 4 && apply_op(w, &s, b, &n, (ops >> (2 * (step - 1))) & 3u, step);
        if (kind & 32u) {
            /* A new rate: the offset goes on from where it is, and the
             * spheres in the images above and below change speed. */
            double now = carom_world_time(w);
            s.offset_base = offset_at(&s, now);
            s.base_time = now;
            s.rate *= step % 2 ? -0.5 : 3.0;
            if (carom_world_set_shear(w, s.rate) != CAROM_OK)
                fail("a new finite rate was refused", s.rate);
            changed = 1;
        }
        if (changed) { /* the sums start again */
            t0 = carom_world_time(w);
            unwrapped_sums(w, &s, b, n, pos0, mom0, &scale);
        }
    }
    carom_world_free(w);
    return 0;
}
