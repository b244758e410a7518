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
 *   that move, which give energy as moving walls would;
 * - a periodic world without obstacles keeps its momentum.
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

#define MAX_SPHERES 24
#define EVENT_BUDGET 20000
#define SPHERE_BYTES 15

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct byte_reader {
    const uint8_t *p;
    size_t left;
} byte_reader;

static unsigned take8(byte_reader *r)
{
    if (!r->left)
        return 0;
    r->left--;
    return *r->p++;
}

static unsigned take16(byte_reader *r)
{
    unsigned hi = take8(r);
    return hi << 8 | take8(r);
}

typedef struct world_spec {
    int dim;
    int walls[3];
    int report_only, elastic, gravity, obstacles;
    int moving_obstacles; /* they give energy, as moving walls would */
    double box[3];
} world_spec;

typedef struct placed {
    double x[3], v[3], r, m;
    carom_sphere_id id;
} placed;

static void fail(const char *what, double value)
{
    fprintf(stderr, "fuzz_world: %s (%.17g)\n", what, value);
    abort();
}

/* b - a along axis k, through the nearest image on a periodic axis. */
static double axis_separation(const world_spec *s, int k, double a, double b)
{
    double d = b - a;
    if (!s->walls[k])
        d -= s->box[k] * floor(d / s->box[k] + 0.5);
    return d;
}

static double distance(const world_spec *s, const double a[3], const double b[3])
{
    double d2 = 0.0;
    for (int k = 0; k < s->dim; k++) {
        double d = axis_separation(s, k, a[k], b[k]);
        d2 += d * d;
    }
    return sqrt(d2);
}

/* Energy of the finite-mass spheres (potential m g y under gravity). */
static double energy(const world_spec *s, const placed *p, int n, double g)
{
    double e = 0.0;
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

static void read_back(carom_world *w, placed *p, int n)
{
    for (int i = 0; i < n; i++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(w, p[i].id, &st) != CAROM_OK)
            fail("a sphere the world accepted is gone", (double)i);
        memcpy(p[i].x, st.position, sizeof p[i].x);
        memcpy(p[i].v, st.velocity, sizeof p[i].v);
    }
}

static void check_states(const world_spec *s, const placed *p, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < s->dim; k++) {
            if (!isfinite(p[i].x[k]) || !isfinite(p[i].v[k]))
                fail("a position or velocity is not finite", p[i].x[k]);
            double slack = 1e-9 * p[i].r;
            if (s->walls[k] &&
                !(p[i].x[k] >= p[i].r - slack && p[i].x[k] <= s->box[k] - p[i].r + slack))
                fail("a sphere is outside the walled box", p[i].x[k]);
        }
    if (s->report_only)
        return;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double sigma = p[i].r + p[j].r;
            double d = distance(s, p[i].x, p[j].x);
            if (d < sigma * (1.0 - 1e-9))
                fail("two spheres overlap", (sigma - d) / sigma);
        }
}

/* Reads the world's kind and box from the first bytes. */
static void read_spec(byte_reader *r, world_spec *s, carom_world_def *def)
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
    }
    def->neighbours = (carom_neighbours)(take8(r) % 3);
    def->reorder = (flags >> 7) & 1 ? CAROM_REORDER_OFF : CAROM_REORDER_AUTO;
    def->prefetch = CAROM_PREFETCH_OFF;
}

/* Reads one sphere; 0 if it is left out (it would overlap). */
static int read_sphere(byte_reader *r, const world_spec *s, double r0, double vmax,
                       const placed *p, int n, placed *out, int *touching)
{
    unsigned flags = take8(r);
    out->r = r0 * (0.5 + 1.5 * (double)take8(r) / 255.0);
    out->m = flags & 1 ? INFINITY : 0.25 * (double)(1 + (take8(r) & 15));
    *touching = n > 0 && (flags & 2);
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
             * overlaps). */
            const placed *q = &p[(flags >> 2) % n];
            double dir[3], len = 0.0;
            for (int a = 0; a < s->dim; a++) {
                dir[a] = u[a] - 0.5;
                len += dir[a] * dir[a];
            }
            if (len == 0.0)
                return 0;
            out->x[k] = q->x[k] + (q->r + out->r) * dir[k] / sqrt(len);
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
        if (s->walls[k] && !(out->x[k] >= out->r * 1.001 && out->x[k] <= s->box[k] - out->r * 1.001))
            return 0;
    if (s->report_only)
        return 1;
    for (int i = 0; i < n; i++) {
        double sigma = p[i].r + out->r;
        double d = distance(s, p[i].x, out->x);
        if (*touching ? d < sigma * (1.0 - 1e-12) : d < sigma * (1.0 + 1e-9))
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byte_reader r = {data, size};
    world_spec s = {0};
    carom_world_def def;
    read_spec(&r, &s, &def);
    double r0 = ldexp(1.0, -(int)(take8(&r) % 24));         /* 1 .. 2^-23 */
    double vmax = ldexp(1.0, (int)(take8(&r) % 41) - 20);   /* 2^-20 .. 2^20 */
    unsigned steps = 1 + take8(&r) % 6;
    double step = ldexp(s.box[0] / vmax, -(int)(take8(&r) % 12));
    double g = s.gravity ? vmax * vmax / s.box[1] * (1.0 + take8(&r) % 8) : 0.0;
    def.gravity[1] = -g;
    /* Contacts slower than this are elastic and separate at least this
     * fast: a scale of its own for every speed scale. */
    def.restitution_min_speed = 1e-6 * vmax;

    carom_error error;
    carom_world *w = carom_world_create(&def, &error);
    if (!w)
        return 0; /* a definition the world refuses (with a message) */
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
        if (carom_world_add_sphere(w, &sd, &p[n].id) != CAROM_OK)
            fail("a sphere clear of the others and inside the box was refused", (double)n);
        s.obstacles |= !isfinite(p[n].m);
        s.moving_obstacles |= !isfinite(p[n].m) && (p[n].v[0] != 0.0 || p[n].v[1] != 0.0 ||
                                                    p[n].v[2] != 0.0);
        touching_any |= touching;
        n++;
    }

    read_back(w, p, n);
    double e0 = energy(&s, p, n, g);
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
        double t = step * k;
        carom_status st = carom_world_advance_to_limited(w, t, EVENT_BUDGET, &done, &reached);
        if (st == CAROM_ERR_OVERLAP && touching_any && k == 1)
            break; /* a touching sphere's last bits made it overlap */
        if (st == CAROM_ERR_STUCK && s.obstacles)
            break;
        if (st == CAROM_ERR_BOX_TOO_SMALL && k == 1)
            break; /* spheres too large for a periodic box */
        if (st != CAROM_OK) {
            fprintf(stderr, "fuzz_world: %s: %s\n", carom_status_name(st),
                    carom_world_error_message(w));
            fail("advance failed", t);
        }
        if (reached && carom_world_time(w) != t)
            fail("the world is not at the time asked", carom_world_time(w));
        read_back(w, p, n);
        check_states(&s, p, n);
        double e = energy(&s, p, n, g);
        int energy_kept = !s.gravity || s.walls[1];
        if (s.moving_obstacles && !s.report_only) {
            /* no energy to keep */
        } else if (s.report_only) {
            if (!s.gravity && e != e0)
                fail("a report-only world changed its energy", e - e0);
        } else if (s.elastic && energy_kept) {
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
        if (all_periodic && !s.obstacles && !s.gravity && !s.report_only) {
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
    }
    carom_world_free(w);
    return 0;
}
