/* The engine against an independent O(N^2) reference event loop.
 *
 * The reference below shares no code with the engine: its own pair and
 * wall times, a brute-force search for the earliest event over all pairs
 * and walls at every step (periodic pairs by minimum image, valid up to a
 * safe horizon after which everything is re-imaged), every sphere moved
 * at every step, elastic response with masses. On hundreds of randomized
 * scenes (2D and 3D, walls, periodic and mixed boundaries, gravity with
 * walls, mixed radii and masses, immovable spheres, a few small spheres
 * 30x faster than the rest; radii spread over a factor 100 with more
 * than 64 large spheres; a cluster in a box of side 1e6; fixed planes
 * cutting the corners of a box, with and without gravity; fixed segments
 * in a 2D box, with and without gravity) the engine must produce the same
 * sequence of sphere-sphere collisions (time, i, j).
 *
 * The scenes with segments (one to three, some level, some tilted, of a
 * fifth to three fifths of the box's side) also compare the sequence of
 * segment contacts (time, sphere, segment) up to the last collision
 * compared. The reference finds a segment's contacts its own way: a face
 * on either side as the later-decreasing root of a quadratic in time,
 * kept if the centre is then alongside the segment (so a disk that goes
 * round an end under gravity meets the far face), and an end as the first
 * time |x(t) - end| comes down to the radius, by bisection on the pieces
 * where that distance is monotonic (between the roots of its derivative,
 * themselves found by bisection between the roots of the second
 * derivative, a quadratic): the quartic under gravity is never solved as
 * a polynomial, and none of the engine's root finders is used.
 *
 * The scenes with fixed triangles (3D, one to three of a fifth to three
 * fifths of the box's side, at any angle, with and without gravity)
 * compare the triangle contacts the same way. The reference finds them
 * as the first of: a face on either side (the band time above), kept if
 * the centre is then over the triangle (its own test, from cross
 * products); an edge as the end's bisection above on the centre's offset
 * across the edge's line (two coordinates in the plane across it),
 * continued past entries where the centre is not alongside the edge; a
 * corner as that bisection in 3D. Its normal is from its own nearest
 * point (tests/triangle_reference.h, by the triangle's regions). The
 * mesh scenes scatter 32 to 64 small triangles, so that most of them lie
 * out of a sphere's reach and the engine's tree of triangles skips them.
 *
 * The scenes of rough spheres (the kinds above, every sphere spinning,
 * immovable ones too, tangential restitutions of 1, 0, -0.5 or any)
 * respond their own way: the impulse at the point of contact that turns
 * the surfaces' relative velocity there into -u_n - beta u_t is the
 * solution of a linear system whose columns are what unit impulses do to
 * that velocity through Newton's and Euler's laws, solved by elimination
 * (the engine uses closed forms for spheres, the normal and tangential
 * parts apart), its tangential part then cut to Coulomb's limit in three
 * scenes in five.
 *
 * Hard-sphere gases are chaotic, so each scene is compared only up to its
 * own horizon: the reference is run twice, the second time with every
 * coordinate perturbed by about 1e-13, and the engine is compared with
 * the first run up to the first collision where the two runs differ (pair,
 * or time by more than 1e-10 relative: see HORIZON_TOL). Pairs must agree
 * exactly and times to 1e-9 relative. Prints the number of collisions
 * compared and the largest time difference seen. */
#include <stdint.h>
#include <string.h>

#include "carom/carom.h"
#include "check.h"
#include "triangle_reference.h"

#define MAX_N 320
#define MAX_COLLISIONS 300   /* per scene: the longest comparison */
#define SCENES 320
#define WIDE_SCENES 16   /* radii spread over a factor 100, many large ones */
#define HUGE_SCENES 16   /* a cluster in a box of side 1e6 (sparse cells) */
#define PLANE_SCENES 48  /* fixed planes across the corners of the box */
#define MAX_PLANES 3
#define SEGMENT_SCENES 48 /* fixed segments in a 2D box */
#define MAX_SEGMENTS 3
#define MAX_SEGMENT_HITS 4096 /* per scene: segment (or triangle) contacts compared */
#define TRIANGLE_SCENES 32 /* fixed triangles in a 3D box */
#define MESH_SCENES 8      /* many small ones, for the engine's tree of triangles */
#define MAX_TRIANGLES 64
#define ROUGH_SCENES 64    /* rough spheres: random scenes, then planes, segments, triangles */
#define SPECIES_SCENES 64  /* species that pass through each other, in the kinds above */

typedef struct ref_sphere {
    double x[3], v[3];
    double r;
    double inv_m; /* 0: infinite mass */
} ref_sphere;

typedef struct ref_scene {
    int dim;
    double L[3];
    int periodic[3];
    double g[3]; /* gravity (only along walled axes here) */
    int n;
    ref_sphere s[MAX_N];
    int nplanes;
    double pn[MAX_PLANES][3], pd[MAX_PLANES]; /* free side: pn . x >= pd + r */
    int nsegments; /* 2D: every centre at least r from every point of each */
    double sa[MAX_SEGMENTS][2], sb[MAX_SEGMENTS][2];
    int ntriangles; /* 3D: every centre at least r from every point of each */
    double tp[MAX_TRIANGLES][3][3];
    int rough; /* tangential restitutions beta (pairs), beta_wall (surfaces) */
    double beta, beta_wall, inertia; /* I = inertia m r^2 */
    double mu, mu_wall;              /* Coulomb's limits (INFINITY: none) */
    double w[MAX_N][3];              /* spins, at every time (no torques) */
    int species[MAX_N];              /* 0 .. 2 */
    unsigned pass[3];                /* bit b of pass[a]: a and b pass through */
} ref_scene;

/* Whether spheres i and j meet (their species do not pass through). */
static int ref_meet(const ref_scene *sc, int i, int j)
{
    return !((sc->pass[sc->species[i]] >> sc->species[j]) & 1u);
}

typedef struct collision {
    double t;
    int i, j; /* i < j; for a segment (triangle) contact: the sphere and it */
} collision;

/* ---- random numbers ------------------------------------------------------ */

static uint64_t rng_state;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}
static double nrand(void)
{
    double u = urand(), v = urand();
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

/* ---- the reference ------------------------------------------------------- */

/* Each sphere keeps its state at the time of its last velocity change
 * (t0) and is extrapolated from there, so that the reference does not
 * accumulate round-off by moving every sphere at every step. */
typedef struct ref_state {
    ref_scene sc; /* sc.s[i].x, .v: state at t0[i] */
    double t0[MAX_N];
    double t;
    long events;
    collision *seg_log; /* if not NULL: its segment contacts, up to MAX_SEGMENT_HITS */
    int seg_logged;     /* how many there were (may exceed MAX_SEGMENT_HITS) */
    int seg_at_ends;    /* how many of them were at an end */
} ref_state;

static void ref_min_image(const ref_scene *sc, double d[3])
{
    for (int k = 0; k < sc->dim; k++)
        if (sc->periodic[k])
            d[k] -= sc->L[k] * round(d[k] / sc->L[k]);
}

/* Position and velocity of sphere i at the current time. */
static void ref_at(const ref_state *st, int i, double x[3], double v[3])
{
    const ref_sphere *p = &st->sc.s[i];
    double dt = st->t - st->t0[i];
    for (int k = 0; k < 3; k++) {
        double a = p->inv_m > 0.0 ? st->sc.g[k] : 0.0;
        x[k] = p->x[k] + dt * (p->v[k] + 0.5 * a * dt);
        v[k] = p->v[k] + a * dt;
    }
}

/* Sphere i starts a new flight now from x (wrapped into the box) with v. */
static void ref_set(ref_state *st, int i, const double x[3], const double v[3])
{
    ref_sphere *p = &st->sc.s[i];
    for (int k = 0; k < 3; k++) {
        p->x[k] = x[k];
        if (k < st->sc.dim && st->sc.periodic[k])
            p->x[k] -= st->sc.L[k] * floor(x[k] / st->sc.L[k]);
        p->v[k] = v[k];
    }
    st->t0[i] = st->t;
}

/* Time until two spheres (relative position d, velocity w) touch while
 * approaching; 0 if touching or overlapping and approaching. */
static double ref_pair_time(const double d[3], const double w[3], double sigma)
{
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double dw = d[0] * w[0] + d[1] * w[1] + d[2] * w[2];
    double ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    if (dw >= 0.0)
        return INFINITY;
    double c = dd - sigma * sigma;
    double disc = dw * dw - ww * c;
    if (disc <= 0.0)
        return INFINITY;
    if (c <= 0.0)
        return 0.0;
    return c / (-dw + sqrt(disc));
}

/* Time until a coordinate x (velocity v, acceleration a) reaches a face
 * at `level` moving outwards (dir = +1: upwards, -1: downwards). */
static double ref_face_time(double x, double v, double a, double level, double dir)
{
    /* h(t) = dir (x - level) + dir v t + dir a t^2 / 2: outside when > 0 */
    double c = dir * (x - level), b = dir * v, q = 0.5 * dir * a;
    if (q == 0.0) {
        if (b <= 0.0)
            return INFINITY;
        return c >= 0.0 ? 0.0 : -c / b;
    }
    if (c >= 0.0 && b > 0.0)
        return 0.0;
    double disc = b * b - 4.0 * q * c;
    if (disc < 0.0)
        return INFINITY; /* q < 0, never reaches it */
    double sq = sqrt(disc);
    double s = b >= 0.0 ? -0.5 * (b + sq) : -0.5 * (b - sq);
    double r1 = s / q, r2 = s != 0.0 ? c / s : 0.0;
    double lo = fmin(r1, r2), hi = fmax(r1, r2);
    if (q > 0.0)
        return hi > 0.0 ? hi : INFINITY; /* pulled outwards: the later root */
    /* pulled back in: the first root ahead, if it is not a tangency */
    if (disc == 0.0)
        return INFINITY;
    if (lo > 0.0)
        return lo;
    return INFINITY;
}

/* Time until y(t) = y + vy t + ay t^2 / 2 comes down to r (decreasing
 * through r: the centre's height above a segment's line, on one side,
 * reaching the face of its band); 0 if 0 <= y <= r and decreasing
 * (touching and moving in); INFINITY if never (a tangency is no contact).
 * From y < 0 (the far side) that is after rising above r first. */
static double ref_band_time(double y, double vy, double ay, double r)
{
    if (y >= 0.0 && y <= r && vy < 0.0)
        return 0.0;
    double c = y - r, b = vy, q = 0.5 * ay;
    if (q == 0.0)
        return b < 0.0 && c >= 0.0 ? c / -b : INFINITY;
    double disc = b * b - 4.0 * q * c;
    if (!(disc > 0.0))
        return INFINITY;
    /* The roots (-b -+ sq) / 2q; decreasing at (-b - sq) / 2q, the smaller
     * one if q > 0. */
    double sq = sqrt(disc);
    double s = -0.5 * (b + copysign(sq, b));
    double r1 = s / q, r2 = c / s;
    double down = q > 0.0 ? fmin(r1, r2) : fmax(r1, r2);
    return down >= 0.0 ? down : INFINITY;
}

/* A centre's motion relative to a segment's end (or a triangle's corner,
 * or its offset across an edge's line): d + v t + g t^2 / 2. */
typedef struct ref_end_motion {
    double d[3], v[3], g[3], r;
} ref_end_motion;

/* Whether an entry at time t counts (NULL: every one does). */
typedef struct ref_accept {
    int (*fn)(const void *ctx, double t);
    const void *ctx;
} ref_accept;

/* f(t) = |d + v t + g t^2 / 2|^2 - r^2: > 0 clear of the end's disk. */
static double ref_end_f(const ref_end_motion *m, double t)
{
    double f = -m->r * m->r;
    for (int k = 0; k < 3; k++) {
        double x = m->d[k] + t * (m->v[k] + 0.5 * m->g[k] * t);
        f += x * x;
    }
    return f;
}

/* f'(t) / 2 = (d + v t + g t^2 / 2) . (v + g t) */
static double ref_end_df(const ref_end_motion *m, double t)
{
    double df = 0.0;
    for (int k = 0; k < 3; k++)
        df += (m->d[k] + t * (m->v[k] + 0.5 * m->g[k] * t)) * (m->v[k] + m->g[k] * t);
    return df;
}

/* The root of f' in [lo, hi], where f' changes sign (by bisection). */
static double ref_end_critical(const ref_end_motion *m, double lo, double hi)
{
    int up = ref_end_df(m, lo) < 0.0;
    for (;;) {
        double mid = lo + 0.5 * (hi - lo);
        if (!(mid > lo && mid < hi))
            return mid;
        if ((ref_end_df(m, mid) < 0.0) == up)
            lo = mid;
        else
            hi = mid;
    }
}

static double ref_norm3(const double a[3])
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* First t in [0, T] at which the centre comes within r of a segment's end
 * (f decreasing through 0) and `accept` takes it, INFINITY if none; 0 if
 * touching (f(0) <= 0) and moving in. f is a quartic under gravity; it
 * is split into pieces on which it is monotonic, at the roots of f' (a
 * cubic: one in each piece between the roots of the quadratic f'', where
 * it changes sign), and each piece from f > 0 to f <= 0 in turn is
 * bisected to the last bit. */
static double ref_end_time(const double d[3], const double v[3], const double g[3], double r,
                           double T, ref_accept accept)
{
    ref_end_motion m = {{d[0], d[1], d[2]}, {v[0], v[1], v[2]}, {g[0], g[1], g[2]}, r};
    double dn = ref_norm3(d), vn = ref_norm3(v), gn = ref_norm3(g);
    /* |d + v t + g t^2 / 2| >= gn t^2 / 2 - vn t - dn, which exceeds r
     * after tmax; and it is at least dn - vn t - gn t^2 / 2. */
    double tmax = gn > 0.0 ? (vn + sqrt(vn * vn + 2.0 * gn * (dn + r))) / gn
                  : vn > 0.0 ? (dn + r) / vn
                             : 0.0;
    T = fmin(T, 1.000001 * tmax);
    if (dn - T * (vn + 0.5 * gn * T) > r * (1.0 + 1e-9))
        return INFINITY; /* not within reach before T */
    if (ref_end_f(&m, 0.0) <= 0.0 && ref_end_df(&m, 0.0) < 0.0 &&
        (!accept.fn || accept.fn(accept.ctx, 0.0)))
        return 0.0;
    /* f'' / 2 = |v + g t|^2 + (d + v t + g t^2 / 2) . g = a0 + a1 t + a2 t^2 */
    double a0 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + d[0] * g[0] + d[1] * g[1] + d[2] * g[2];
    double a1 = 3.0 * (v[0] * g[0] + v[1] * g[1] + v[2] * g[2]), a2 = 1.5 * gn * gn;
    double cuts[4] = {0.0}, crit[5] = {0.0};
    int ncuts = 1, ncrit = 1;
    if (a2 > 0.0) {
        double disc = a1 * a1 - 4.0 * a2 * a0;
        if (disc > 0.0) {
            double s = -0.5 * (a1 + copysign(sqrt(disc), a1));
            double r1 = s / a2, r2 = s != 0.0 ? a0 / s : 0.0;
            double lo = fmin(r1, r2), hi = fmax(r1, r2);
            if (lo > 0.0 && lo < T)
                cuts[ncuts++] = lo;
            if (hi > 0.0 && hi < T && hi > lo)
                cuts[ncuts++] = hi;
        }
    }
    cuts[ncuts++] = T;
    for (int k = 0; k + 1 < ncuts; k++) {
        double f0 = ref_end_df(&m, cuts[k]), f1 = ref_end_df(&m, cuts[k + 1]);
        if ((f0 < 0.0 && f1 > 0.0) || (f0 > 0.0 && f1 < 0.0))
            crit[ncrit++] = ref_end_critical(&m, cuts[k], cuts[k + 1]);
    }
    crit[ncrit++] = T;
    for (int k = 0; k + 1 < ncrit; k++) {
        double lo = crit[k], hi = crit[k + 1];
        if (!(ref_end_f(&m, lo) > 0.0 && ref_end_f(&m, hi) <= 0.0))
            continue;
        for (;;) {
            double mid = lo + 0.5 * (hi - lo);
            if (!(mid > lo && mid < hi))
                break;
            if (ref_end_f(&m, mid) > 0.0)
                lo = mid;
            else
                hi = mid;
        }
        if (!accept.fn || accept.fn(accept.ctx, hi))
            return hi;
    }
    return INFINITY;
}

/* Time until a disk (centre x, velocity v, acceleration g, radius r)
 * meets the segment a-b, if before T (INFINITY otherwise): a face on
 * either side, where the centre is then alongside the segment, or an
 * end; *at_end tells which. */
static double ref_segment_time(const double a[2], const double b[2], const double x[3],
                               const double v[3], const double g[3], double r, double T,
                               int *at_end)
{
    double len = hypot(b[0] - a[0], b[1] - a[1]);
    double dir[2] = {(b[0] - a[0]) / len, (b[1] - a[1]) / len}, n[2] = {-dir[1], dir[0]};
    double e = (x[0] - a[0]) * n[0] + (x[1] - a[1]) * n[1];
    double ve = v[0] * n[0] + v[1] * n[1], ge = g[0] * n[0] + g[1] * n[1];
    double best = INFINITY;
    for (int side = -1; side <= 1; side += 2) {
        double t = ref_band_time(side * e, side * ve, side * ge, r);
        if (!(t < best))
            continue;
        double u = 0.0;
        for (int k = 0; k < 2; k++)
            u += (x[k] + t * (v[k] + 0.5 * g[k] * t) - a[k]) * dir[k];
        if (u >= 0.0 && u <= len)
            best = t;
    }
    *at_end = 0;
    for (int end = 0; end < 2; end++) {
        const double *p = end ? b : a;
        double d[3] = {x[0] - p[0], x[1] - p[1], 0.0};
        double t = ref_end_time(d, v, g, r, fmin(T, best), (ref_accept){NULL, NULL});
        if (t < best) {
            best = t;
            *at_end = 1;
        }
    }
    return best < T ? best : INFINITY;
}

/* The unit vector from the nearest point of segment a-b to x. */
static void ref_segment_normal(const double a[2], const double b[2], const double x[3],
                               double n[3])
{
    double ab[2] = {b[0] - a[0], b[1] - a[1]};
    double u = ((x[0] - a[0]) * ab[0] + (x[1] - a[1]) * ab[1]) / (ab[0] * ab[0] + ab[1] * ab[1]);
    u = fmin(fmax(u, 0.0), 1.0);
    double dx = x[0] - (a[0] + u * ab[0]), dy = x[1] - (a[1] + u * ab[1]);
    double d = hypot(dx, dy);
    n[0] = dx / d;
    n[1] = dy / d;
    n[2] = 0.0;
}

static void ref_cross(double out[3], const double a[3], const double b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* A centre's flight x + v t + g t^2 / 2 against triangle p (3D): the
 * triangle's unit normal, and its edges' directions and lengths. */
typedef struct ref_tri_flight {
    const double (*p)[3];
    double n[3], e[3][3], len[3];
    const double *x, *v, *g;
    int edge; /* the edge an entry is tested against */
} ref_tri_flight;

static void ref_flight_at(const ref_tri_flight *f, double t, double y[3])
{
    for (int k = 0; k < 3; k++)
        y[k] = f->x[k] + t * (f->v[k] + 0.5 * f->g[k] * t);
}

/* The centre's foot on the plane is in the triangle at t: on the inner
 * side of each edge, (e_k x (y - p_k)) . n >= 0. */
static int ref_over(const void *ctx, double t)
{
    const ref_tri_flight *f = ctx;
    double y[3];
    ref_flight_at(f, t, y);
    for (int k = 0; k < 3; k++) {
        double d[3] = {y[0] - f->p[k][0], y[1] - f->p[k][1], y[2] - f->p[k][2]}, c[3];
        ref_cross(c, f->e[k], d);
        if (c[0] * f->n[0] + c[1] * f->n[1] + c[2] * f->n[2] < 0.0)
            return 0;
    }
    return 1;
}

/* The centre is alongside edge f->edge at t. */
static int ref_alongside(const void *ctx, double t)
{
    const ref_tri_flight *f = ctx;
    double y[3], u = 0.0;
    ref_flight_at(f, t, y);
    for (int k = 0; k < 3; k++)
        u += (y[k] - f->p[f->edge][k]) * f->e[f->edge][k];
    return u >= 0.0 && u <= f->len[f->edge];
}

/* Time until a sphere (centre x, velocity v, acceleration g, radius r)
 * meets triangle p, if before T (INFINITY otherwise): a face on either
 * side where the centre is then over the triangle, an edge where it is
 * then alongside, or a corner; *at_edge is 1 for an edge or a corner. */
static double ref_triangle_time(const double p[3][3], const double x[3], const double v[3],
                                const double g[3], double r, double T, int *at_edge)
{
    ref_tri_flight f = {p, {0}, {{0}}, {0}, x, v, g, 0};
    for (int k = 0; k < 3; k++) {
        for (int m = 0; m < 3; m++)
            f.e[k][m] = p[(k + 1) % 3][m] - p[k][m];
        f.len[k] = ref_norm3(f.e[k]);
        for (int m = 0; m < 3; m++)
            f.e[k][m] /= f.len[k];
    }
    double ab[3], ac[3];
    for (int m = 0; m < 3; m++) {
        ab[m] = p[1][m] - p[0][m];
        ac[m] = p[2][m] - p[0][m];
    }
    ref_cross(f.n, ab, ac);
    double nn = ref_norm3(f.n);
    for (int m = 0; m < 3; m++)
        f.n[m] /= nn;
    double h = 0.0, vh = 0.0, gh = 0.0;
    for (int m = 0; m < 3; m++) {
        h += (x[m] - p[0][m]) * f.n[m];
        vh += v[m] * f.n[m];
        gh += g[m] * f.n[m];
    }
    double best = INFINITY;
    for (int side = -1; side <= 1; side += 2) {
        double t = ref_band_time(side * h, side * vh, side * gh, r);
        if (t < best && ref_over(&f, t))
            best = t;
    }
    *at_edge = 0;
    for (int k = 0; k < 3; k++) {
        /* Across edge k's line: the coordinates along n and along e_k x n. */
        double w[3], d[3], u[3], a[3];
        ref_cross(w, f.e[k], f.n);
        double rel[3] = {x[0] - p[k][0], x[1] - p[k][1], x[2] - p[k][2]};
        d[0] = rel[0] * f.n[0] + rel[1] * f.n[1] + rel[2] * f.n[2];
        d[1] = rel[0] * w[0] + rel[1] * w[1] + rel[2] * w[2];
        u[0] = vh;
        u[1] = v[0] * w[0] + v[1] * w[1] + v[2] * w[2];
        a[0] = gh;
        a[1] = g[0] * w[0] + g[1] * w[1] + g[2] * w[2];
        d[2] = u[2] = a[2] = 0.0;
        f.edge = k;
        double t = ref_end_time(d, u, a, r, fmin(T, best), (ref_accept){ref_alongside, &f});
        if (t < best) {
            best = t;
            *at_edge = 1;
        }
        t = ref_end_time(rel, v, g, r, fmin(T, best), (ref_accept){NULL, NULL});
        if (t < best) {
            best = t;
            *at_edge = 1;
        }
    }
    return best < T ? best : INFINITY;
}

/* Advances to the next sphere-sphere collision, processing walls on the
 * way; returns 0 if there is none within the event budget. */
/* ---- rough contacts: impulses from the rigid-body equations ------------ */

/* Solves the dim x dim system K j = b by Gaussian elimination with
 * partial pivoting (the z row and column are left out in 2D). */
static void ref_solve(int dim, double K[3][3], double b[3], double j[3])
{
    for (int c = 0; c < dim; c++) {
        int pivot = c;
        for (int r = c + 1; r < dim; r++)
            if (fabs(K[r][c]) > fabs(K[pivot][c]))
                pivot = r;
        for (int k = 0; k < 3; k++) {
            double t = K[c][k];
            K[c][k] = K[pivot][k];
            K[pivot][k] = t;
        }
        double t = b[c];
        b[c] = b[pivot];
        b[pivot] = t;
        for (int r = c + 1; r < dim; r++) {
            double f = K[r][c] / K[c][c];
            for (int k = c; k < dim; k++)
                K[r][k] -= f * K[c][k];
            b[r] -= f * b[c];
        }
    }
    j[0] = j[1] = j[2] = 0.0;
    for (int c = dim - 1; c >= 0; c--) {
        double sum = b[c];
        for (int k = c + 1; k < dim; k++)
            sum -= K[c][k] * j[k];
        j[c] = sum / K[c][c];
    }
}

/* One body at a contact: its velocity, spin, the arm from its centre to
 * the point of contact, its inverse mass and inverse moment of inertia. */
typedef struct ref_body {
    double *v, *w;
    double arm[3];
    double inv_m, inv_i;
} ref_body;

/* The velocity of the body's material at the point of contact. */
static void ref_point_velocity(const ref_body *b, double out[3])
{
    ref_cross(out, b->w, b->arm);
    for (int k = 0; k < 3; k++)
        out[k] += b->v[k];
}

/* An impulse j at the point of contact on body b (sign +1) or -j (-1). */
static void ref_push(ref_body *b, const double j[3], double sign)
{
    double turn[3];
    ref_cross(turn, b->arm, j);
    for (int k = 0; k < 3; k++) {
        b->v[k] += sign * b->inv_m * j[k];
        b->w[k] += sign * b->inv_i * turn[k];
    }
}

/* The impulse on `second` (-it on `first`; either may be NULL: a fixed
 * surface) that turns the relative velocity u of second's material less
 * first's at the point of contact into -e u_n - beta u_t (n the unit
 * normal from first to second), found as the solution of K j = du, K's
 * columns the changes of u that unit impulses along the axes make (each
 * body's velocity and spin changed by Newton's and Euler's laws, then u
 * taken again). Nothing if u_n >= 0. */
static void ref_relative_velocity(const ref_body *first, const ref_body *second, double u[3])
{
    double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    if (first)
        ref_point_velocity(first, a);
    if (second)
        ref_point_velocity(second, b);
    for (int k = 0; k < 3; k++)
        u[k] = b[k] - a[k];
}

static void ref_rough_contact(int dim, ref_body *first, ref_body *second, const double n[3],
                              double e, double beta, double mu)
{
    double u[3];
    ref_relative_velocity(first, second, u);
    double un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
    if (!(un < 0.0))
        return;
    double du[3], K[3][3];
    for (int k = 0; k < 3; k++)
        du[k] = -(1.0 + e) * un * n[k] - (1.0 + beta) * (u[k] - un * n[k]);
    for (int c = 0; c < 3; c++) {
        /* Unit impulse along axis c, on copies of the bodies at rest. */
        double rest_v[2][3] = {{0}}, rest_w[2][3] = {{0}}, unit[3] = {0, 0, 0}, change[3];
        unit[c] = 1.0;
        ref_body s1, s2;
        if (first) {
            s1 = *first;
            s1.v = rest_v[0];
            s1.w = rest_w[0];
            ref_push(&s1, unit, -1.0);
        }
        if (second) {
            s2 = *second;
            s2.v = rest_v[1];
            s2.w = rest_w[1];
            ref_push(&s2, unit, 1.0);
        }
        ref_relative_velocity(first ? &s1 : NULL, second ? &s2 : NULL, change);
        for (int r = 0; r < 3; r++)
            K[r][c] = change[r];
    }
    double j[3];
    ref_solve(dim, K, du, j);
    /* Coulomb: a tangential part larger than mu times the normal one is
     * cut to that size (K keeps the normal and tangential parts apart for
     * spheres, so the normal part stays right). */
    double jn = j[0] * n[0] + j[1] * n[1] + j[2] * n[2], jt[3];
    for (int k = 0; k < 3; k++)
        jt[k] = j[k] - jn * n[k];
    double jt_size = sqrt(jt[0] * jt[0] + jt[1] * jt[1] + jt[2] * jt[2]);
    if (jt_size > mu * jn)
        for (int k = 0; k < 3; k++)
            j[k] = jn * n[k] + jt[k] * (mu * jn / jt_size);
    if (second)
        ref_push(second, j, 1.0);
    if (first)
        ref_push(first, j, -1.0);
}

/* Sphere i of the scene as a body touching along unit n (from its centre
 * towards the contact); of infinite mass, it has infinite inertia, but
 * against a fixed surface it moves as a finite one (unit mass). */
static ref_body ref_sphere_body(ref_scene *sc, int i, double v[3], const double n[3],
                                int fixed_surface)
{
    ref_body b;
    b.v = v;
    b.w = sc->w[i];
    for (int k = 0; k < 3; k++)
        b.arm[k] = sc->s[i].r * n[k];
    b.inv_m = sc->s[i].inv_m > 0.0 || !fixed_surface ? sc->s[i].inv_m : 1.0;
    b.inv_i = b.inv_m / (sc->inertia * sc->s[i].r * sc->s[i].r);
    return b;
}

/* A rough sphere (velocity v) meets a fixed surface whose unit normal
 * towards the sphere is n. */
static void ref_rough_surface(ref_scene *sc, int i, double v[3], const double n[3])
{
    double towards[3] = {-n[0], -n[1], -n[2]};
    ref_body b = ref_sphere_body(sc, i, v, towards, 1);
    ref_rough_contact(sc->dim, &b, NULL, towards, 1.0, sc->beta_wall, sc->mu_wall);
}

static int ref_next(ref_state *st, collision *out)
{
    ref_scene *sc = &st->sc;
    static double X[MAX_N][3], V[MAX_N][3];
    for (;;) {
        if (++st->events > 200L * MAX_COLLISIONS + 10000)
            return 0;
        for (int i = 0; i < sc->n; i++)
            ref_at(st, i, X[i], V[i]);
        double best = INFINITY, safe = INFINITY;
        int kind = 0, bi = -1, bj = -1;
        for (int i = 0; i < sc->n; i++) {
            for (int j = i + 1; j < sc->n; j++) {
                if (!ref_meet(sc, i, j))
                    continue;
                /* (gravity moves both alike: scenes with gravity have no
                 * immovable spheres) */
                double d[3], w[3];
                for (int k = 0; k < 3; k++) {
                    d[k] = X[j][k] - X[i][k];
                    w[k] = V[j][k] - V[i][k];
                }
                ref_min_image(sc, d);
                double sigma = sc->s[i].r + sc->s[j].r;
                /* The minimum image stays the only one that can touch
                 * until some relative displacement reaches L/2 - sigma. */
                for (int k = 0; k < sc->dim; k++)
                    if (sc->periodic[k] && w[k] != 0.0) {
                        double h = (0.5 * sc->L[k] - sigma) / fabs(w[k]);
                        if (h < safe)
                            safe = h;
                    }
                double t = ref_pair_time(d, w, sigma);
                if (t < best) {
                    best = t;
                    kind = 1;
                    bi = i;
                    bj = j;
                }
            }
        }
        for (int i = 0; i < sc->n; i++) {
            const ref_sphere *p = &sc->s[i];
            for (int k = 0; k < sc->dim; k++) {
                if (sc->periodic[k])
                    continue;
                double a = p->inv_m > 0.0 ? sc->g[k] : 0.0;
                double tl = ref_face_time(X[i][k], V[i][k], a, p->r, -1.0);
                double th = ref_face_time(X[i][k], V[i][k], a, sc->L[k] - p->r, 1.0);
                if (tl < best) {
                    best = tl;
                    kind = 2;
                    bi = i;
                    bj = 2 * k;
                }
                if (th < best) {
                    best = th;
                    kind = 2;
                    bi = i;
                    bj = 2 * k + 1;
                }
            }
        }
        for (int i = 0; i < sc->n; i++) {
            const ref_sphere *p = &sc->s[i];
            for (int q = 0; q < sc->nplanes; q++) {
                /* n . x moves like a coordinate, with acceleration n . g */
                double nx = 0.0, nv = 0.0, ng = 0.0;
                for (int k = 0; k < 3; k++) {
                    nx += sc->pn[q][k] * X[i][k];
                    nv += sc->pn[q][k] * V[i][k];
                    ng += p->inv_m > 0.0 ? sc->pn[q][k] * sc->g[k] : 0.0;
                }
                double t = ref_face_time(nx, nv, ng, sc->pd[q] + p->r, -1.0);
                if (t < best) {
                    best = t;
                    kind = 3;
                    bi = i;
                    bj = q;
                }
            }
        }
        int at_end = 0;
        for (int i = 0; i < sc->n; i++) {
            double g[3];
            for (int k = 0; k < 3; k++)
                g[k] = sc->s[i].inv_m > 0.0 ? sc->g[k] : 0.0;
            for (int q = 0; q < sc->nsegments; q++) {
                int end;
                double t = ref_segment_time(sc->sa[q], sc->sb[q], X[i], V[i], g, sc->s[i].r,
                                            best, &end);
                if (t < best) {
                    best = t;
                    kind = 4;
                    bi = i;
                    bj = q;
                    at_end = end;
                }
            }
        }
        for (int i = 0; i < sc->n; i++) {
            double g[3];
            for (int k = 0; k < 3; k++)
                g[k] = sc->s[i].inv_m > 0.0 ? sc->g[k] : 0.0;
            for (int q = 0; q < sc->ntriangles; q++) {
                int edge;
                double t = ref_triangle_time((const double(*)[3])sc->tp[q], X[i], V[i], g,
                                             sc->s[i].r, best, &edge);
                if (t < best) {
                    best = t;
                    kind = 5;
                    bi = i;
                    bj = q;
                    at_end = edge;
                }
            }
        }
        if (best > safe) {
            st->t += safe; /* nothing happens: the images are chosen again */
            continue;
        }
        if (!isfinite(best))
            return 0;
        st->t += best;
        if (kind == 4 || kind == 5) {
            /* Elastic, along the line from the segment's (the triangle's)
             * nearest point. */
            double x[3], v[3], n[3];
            ref_at(st, bi, x, v);
            if (kind == 4) {
                ref_segment_normal(sc->sa[bj], sc->sb[bj], x, n);
            } else {
                double q[3];
                nearest_on_triangle((const double(*)[3])sc->tp[bj], x, q);
                for (int k = 0; k < 3; k++)
                    n[k] = x[k] - q[k];
                double len = ref_norm3(n);
                for (int k = 0; k < 3; k++)
                    n[k] /= len;
            }
            double vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
            if (sc->rough)
                ref_rough_surface(sc, bi, v, n);
            else if (vn < 0.0)
                for (int k = 0; k < 3; k++)
                    v[k] -= 2.0 * vn * n[k];
            ref_set(st, bi, x, v);
            if (st->seg_log && st->seg_logged < MAX_SEGMENT_HITS)
                st->seg_log[st->seg_logged] = (collision){st->t, bi, bj};
            st->seg_logged++;
            st->seg_at_ends += at_end;
            continue;
        }
        if (kind == 3) {
            double x[3], v[3], nv = 0.0;
            ref_at(st, bi, x, v);
            for (int k = 0; k < 3; k++)
                nv += sc->pn[bj][k] * v[k];
            if (sc->rough)
                ref_rough_surface(sc, bi, v, sc->pn[bj]);
            else if (nv < 0.0)
                for (int k = 0; k < 3; k++)
                    v[k] -= 2.0 * nv * sc->pn[bj][k];
            ref_set(st, bi, x, v);
            continue;
        }
        if (kind == 2) {
            double x[3], v[3];
            ref_at(st, bi, x, v);
            int k = bj / 2;
            double out_dir = (bj & 1) ? 1.0 : -1.0;
            if (sc->rough) {
                double n[3] = {0.0, 0.0, 0.0};
                n[k] = -out_dir;
                ref_rough_surface(sc, bi, v, n);
            } else if (v[k] * out_dir > 0.0) {
                v[k] = -v[k];
            }
            ref_set(st, bi, x, v);
            continue;
        }
        ref_sphere *a = &sc->s[bi], *b = &sc->s[bj];
        double xa[3], va[3], xb[3], vb[3], d[3], w[3];
        ref_at(st, bi, xa, va);
        ref_at(st, bj, xb, vb);
        for (int k = 0; k < 3; k++) {
            d[k] = xb[k] - xa[k];
            w[k] = vb[k] - va[k];
        }
        ref_min_image(sc, d);
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double vn = (d[0] * w[0] + d[1] * w[1] + d[2] * w[2]) / len;
        if (sc->rough) {
            double n[3] = {d[0] / len, d[1] / len, d[2] / len}, back[3] = {-n[0], -n[1], -n[2]};
            ref_body first = ref_sphere_body(sc, bi, va, n, 0);
            ref_body second = ref_sphere_body(sc, bj, vb, back, 0);
            ref_rough_contact(sc->dim, &first, &second, n, 1.0, sc->beta, sc->mu);
        } else if (vn < 0.0) {
            double ia = a->inv_m, ib = b->inv_m;
            double J = -2.0 * vn / (ia + ib);
            for (int k = 0; k < sc->dim; k++) {
                va[k] -= J * ia * d[k] / len;
                vb[k] += J * ib * d[k] / len;
            }
        }
        ref_set(st, bi, xa, va);
        ref_set(st, bj, xb, vb);
        out->t = st->t;
        out->i = bi;
        out->j = bj;
        return 1;
    }
}

/* ---- scenes ------------------------------------------------------------------ */

static double min_image_dist2(const ref_scene *sc, const double *a, const double *b)
{
    double d[3] = {0, 0, 0};
    for (int k = 0; k < sc->dim; k++)
        d[k] = b[k] - a[k];
    ref_min_image(sc, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* Sphere i at a random position inside the box (clear of walls), at least
 * 1e-3 clear of the planes, the segments and spheres 0 .. i-1; 0 if
 * `tries` draws found none. */
static int place_at_random(ref_scene *sc, int i, int tries)
{
    ref_sphere *p = &sc->s[i];
    int ok = 0;
    while (!ok && tries-- > 0) {
        for (int k = 0; k < sc->dim; k++) {
            double lo = sc->periodic[k] ? 0.0 : p->r;
            double hi = sc->periodic[k] ? sc->L[k] : sc->L[k] - p->r;
            p->x[k] = lo + (hi - lo) * urand();
        }
        ok = 1;
        for (int q = 0; q < sc->nplanes && ok; q++) {
            double nx = 0.0;
            for (int k = 0; k < 3; k++)
                nx += sc->pn[q][k] * p->x[k];
            ok = nx > sc->pd[q] + p->r + 1e-3;
        }
        for (int q = 0; q < sc->nsegments && ok; q++) {
            const double *a = sc->sa[q], *b = sc->sb[q];
            double ab[2] = {b[0] - a[0], b[1] - a[1]};
            double u = ((p->x[0] - a[0]) * ab[0] + (p->x[1] - a[1]) * ab[1]) /
                       (ab[0] * ab[0] + ab[1] * ab[1]);
            u = fmin(fmax(u, 0.0), 1.0);
            ok = hypot(p->x[0] - a[0] - u * ab[0], p->x[1] - a[1] - u * ab[1]) > p->r + 1e-3;
        }
        for (int q = 0; q < sc->ntriangles && ok; q++)
            ok = distance_to_triangle((const double(*)[3])sc->tp[q], p->x) > p->r + 1e-3;
        for (int j = 0; j < i && ok; j++) {
            if (!ref_meet(sc, i, j))
                continue;
            double s = p->r + sc->s[j].r + 1e-3;
            ok = min_image_dist2(sc, p->x, sc->s[j].x) > s * s;
        }
    }
    return ok;
}

typedef struct scene_info {
    int big;
    int kind; /* 0 periodic, 1 walls, 2 mixed, 3 walls + gravity */
    int fast;
    int immovable;
} scene_info;

/* A random scene; returns 0 if the spheres could not be placed. */
static int make_scene(ref_scene *sc, int index, scene_info *info)
{
    memset(sc, 0, sizeof *sc);
    rng_state = 0x2545F4914F6CDD1DULL * (uint64_t)(index + 1);
    for (int k = 0; k < 8; k++)
        urand();
    sc->dim = 2 + (index & 1);
    sc->n = 5 + (int)(urand() * 56.0); /* 5 .. 60 */
    int kind = (index / 2) % 4;
    info->kind = kind;
    for (int k = 0; k < 3; k++)
        sc->periodic[k] = kind == 0 || (kind == 2 && urand() < 0.5);
    if (kind == 2 && sc->periodic[0] && sc->periodic[1] && (sc->dim == 2 || sc->periodic[2]))
        sc->periodic[0] = 0; /* really mixed */
    if (kind == 3) {
        for (int k = 0; k < 3; k++)
            sc->periodic[k] = 0;
        sc->g[1] = -(0.2 + urand());
    }
    int mixed_radii = urand() < 0.75;
    int mixed_masses = urand() < 0.75;
    int nfast = urand() < 0.6 ? 1 + (int)(urand() * 3.0) : 0;
    int nimm = (kind != 3 && urand() < 0.3) ? 1 + (int)(urand() * 2.0) : 0;
    if (nfast + nimm >= sc->n)
        nfast = nimm = 0;
    info->fast = nfast;
    info->immovable = nimm;
    int big = (kind == 1 || kind == 3) && sc->n >= 20 && index % 3 == 0;
    info->big = big;
    double rmax = 0.0, vol = 0.0;
    for (int i = 0; i < sc->n; i++) {
        ref_sphere *p = &sc->s[i];
        p->r = mixed_radii ? 0.3 + 0.4 * urand() : 0.5;
        double m = mixed_masses ? 0.5 + 3.5 * urand() : 1.0;
        if (i < nfast) {
            p->r = 0.1;
            m = mixed_masses ? 0.05 + 0.2 * urand() : 1.0;
        }
        p->inv_m = 1.0 / m;
        if (i >= nfast && i < nfast + nimm)
            p->inv_m = 0.0;
        /* Some walled scenes get one sphere six or more times larger than
         * the rest: the engine keeps it out of its grid (world_big.c). */
        if (i == nfast + nimm && big)
            p->r = 3.0 + 0.25 * (index % 5);
        for (int k = 0; k < sc->dim; k++)
            p->v[k] = p->inv_m > 0.0 ? nrand() * (i < nfast ? 30.0 : 1.0) : 0.0;
        if (p->r > rmax)
            rmax = p->r;
        vol += sc->dim == 3 ? 4.18879020478639 * p->r * p->r * p->r : 3.14159265358979 * p->r * p->r;
    }
    double packing = sc->dim == 3 ? 0.05 + 0.2 * urand() : 0.1 + 0.3 * urand();
    double aspect[3];
    for (int k = 0; k < 3; k++)
        aspect[k] = 0.8 + 0.4 * urand();
    /* Random placement without overlap (gap at least 1e-3); a bigger box
     * if that fails. */
    for (int attempt = 0; attempt < 20; attempt++, packing *= 0.9) {
        double side = pow(vol / packing, 1.0 / sc->dim);
        for (int k = 0; k < sc->dim; k++) {
            sc->L[k] = side * aspect[k];
            double least = sc->periodic[k] ? 3.05 * 2.0 * rmax : 2.5 * rmax;
            if (sc->L[k] < least)
                sc->L[k] = least;
        }
        int placed = 1;
        for (int i = 0; i < sc->n && placed; i++)
            placed = place_at_random(sc, i, 2000);
        if (placed)
            return 1;
    }
    return 0;
}

/* Radii spread over a factor 100: WIDE_LARGE spheres of radius 1 (more
 * than the 64 the engine keeps out of its grid) among smaller ones of
 * radii 0.01 to 0.1, three times faster, these starting in a cluster in
 * the middle of the box: many small ones a large one's cell, so the
 * engine's grid becomes a hierarchy of levels. */
#define WIDE_LARGE 70
static int make_wide_scene(ref_scene *sc, int index, scene_info *info)
{
    memset(sc, 0, sizeof *sc);
    memset(info, 0, sizeof *info);
    rng_state = 0x9E3779B97F4A7C15ULL * (uint64_t)(index + 7);
    sc->dim = 2 + (index & 1);
    sc->n = (sc->dim == 2 ? 200 : 290) + (int)(urand() * 20.0);
    info->kind = (index / 2) % 2; /* periodic or walls */
    for (int k = 0; k < 3; k++)
        sc->periodic[k] = info->kind == 0;
    double vol = 0.0;
    for (int i = 0; i < sc->n; i++) {
        ref_sphere *p = &sc->s[i];
        int large = i < WIDE_LARGE;
        p->r = large ? 1.0 : 0.01 + 0.09 * urand();
        p->inv_m = 1.0 / (large ? 1.0 + urand() : 0.1 + 0.2 * urand());
        for (int k = 0; k < sc->dim; k++)
            p->v[k] = nrand() * (large ? 1.0 : 3.0);
        vol += sc->dim == 3 ? 4.18879020478639 * p->r * p->r * p->r : 3.14159265358979 * p->r * p->r;
    }
    double side = pow(vol / (sc->dim == 3 ? 0.15 : 0.35), 1.0 / sc->dim);
    for (int k = 0; k < sc->dim; k++)
        sc->L[k] = side;
    for (int i = 0; i < sc->n; i++) {
        ref_sphere *p = &sc->s[i];
        int tries = 0, ok = 0;
        while (!ok && tries++ < 5000) {
            for (int k = 0; k < sc->dim; k++) {
                double lo = sc->periodic[k] ? 0.0 : p->r;
                double hi = sc->periodic[k] ? sc->L[k] : sc->L[k] - p->r;
                if (i >= WIDE_LARGE) { /* the small ones in a cluster */
                    lo = 0.5 * sc->L[k] - (sc->dim == 2 ? 3.0 : 2.0);
                    hi = 0.5 * sc->L[k] + (sc->dim == 2 ? 3.0 : 2.0);
                }
                p->x[k] = lo + (hi - lo) * urand();
            }
            ok = 1;
            for (int j = 0; j < i && ok; j++) {
                double s = p->r + sc->s[j].r + 1e-3;
                ok = min_image_dist2(sc, p->x, sc->s[j].x) > s * s;
            }
        }
        if (!ok)
            return 0;
    }
    return 1;
}

/* A huge box (side 1e6, walls or periodic) with a cluster of spheres in
 * a region of side about 12 (across the periodic boundary, or against a
 * wall's corner): the engine cannot have an array of every cell. */
static int make_huge_scene(ref_scene *sc, int index, scene_info *info)
{
    memset(sc, 0, sizeof *sc);
    memset(info, 0, sizeof *info);
    rng_state = 0xD1B54A32D192ED03ULL * (uint64_t)(index + 3);
    sc->dim = 2 + (index & 1);
    sc->n = 20 + (int)(urand() * 40.0);
    info->kind = (index / 2) % 2;
    double region = sc->dim == 3 ? 9.0 : 12.0;
    for (int k = 0; k < 3; k++) {
        sc->periodic[k] = info->kind == 0;
        sc->L[k] = 1e6;
    }
    for (int i = 0; i < sc->n; i++) {
        ref_sphere *p = &sc->s[i];
        p->r = 0.3 + 0.4 * urand();
        p->inv_m = 1.0 / (0.5 + urand());
        for (int k = 0; k < sc->dim; k++)
            p->v[k] = nrand();
        int tries = 0, ok = 0;
        while (!ok && tries++ < 5000) {
            for (int k = 0; k < sc->dim; k++) {
                double u = region * urand();
                p->x[k] = sc->periodic[k] ? fmod(u - 0.5 * region + sc->L[k], sc->L[k])
                                          : p->r + u;
            }
            ok = 1;
            for (int j = 0; j < i && ok; j++) {
                double s = p->r + sc->s[j].r + 1e-3;
                ok = min_image_dist2(sc, p->x, sc->s[j].x) > s * s;
            }
        }
        if (!ok)
            return 0;
    }
    return 1;
}

/* A walled box (one axis periodic in some scenes), gravity in half of
 * them, and one to three planes, each across a corner of the box: a
 * random normal (no component along the periodic axis) pointing away
 * from the corner, through a point a fifth to a third of the box in. */
static int make_plane_scene(ref_scene *sc, int index, scene_info *info)
{
    memset(sc, 0, sizeof *sc);
    memset(info, 0, sizeof *info);
    rng_state = 0xBF58476D1CE4E5B9ULL * (uint64_t)(index + 11);
    for (int k = 0; k < 8; k++)
        urand();
    sc->dim = 2 + (index & 1);
    sc->n = 10 + (int)(urand() * 40.0);
    info->kind = (index / 2) % 2 ? 3 : 1; /* walls + gravity, or walls */
    if (info->kind == 1 && index % 3 == 0)
        sc->periodic[sc->dim - 1] = 1; /* and a periodic axis */
    if (info->kind == 3)
        sc->g[1] = -(0.2 + urand());
    double vol = 0.0;
    for (int i = 0; i < sc->n; i++) {
        ref_sphere *p = &sc->s[i];
        p->r = 0.3 + 0.4 * urand();
        p->inv_m = 1.0 / (0.5 + 3.5 * urand());
        for (int k = 0; k < sc->dim; k++)
            p->v[k] = nrand();
        vol += sc->dim == 3 ? 4.18879020478639 * p->r * p->r * p->r : 3.14159265358979 * p->r * p->r;
    }
    double side = pow(vol / (sc->dim == 3 ? 0.08 : 0.2), 1.0 / sc->dim);
    for (int k = 0; k < sc->dim; k++)
        sc->L[k] = fmax(side, sc->periodic[k] ? 3.05 * 2.0 * 0.7 : 2.5 * 0.7);
    sc->nplanes = 1 + (int)(urand() * MAX_PLANES);
    for (int q = 0; q < sc->nplanes; q++) {
        double len = 0.0, point[3] = {0, 0, 0};
        for (int k = 0; k < sc->dim; k++) {
            if (sc->periodic[k])
                continue;
            int high = urand() < 0.5;
            double c = 0.2 + 0.13 * urand();
            sc->pn[q][k] = (high ? -1.0 : 1.0) * (0.3 + urand());
            point[k] = high ? sc->L[k] * (1.0 - c) : sc->L[k] * c;
            len += sc->pn[q][k] * sc->pn[q][k];
        }
        len = sqrt(len);
        sc->pd[q] = 0.0;
        for (int k = 0; k < 3; k++) {
            sc->pn[q][k] /= len;
            sc->pd[q] += sc->pn[q][k] * point[k];
        }
    }
    for (int i = 0; i < sc->n; i++)
        if (!place_at_random(sc, i, 5000))
            return 0;
    return 1;
}

/* A 2D box with walls on both axes, gravity in half of the scenes
 * (straight down, or a little to the side in some), and one to three
 * segments inside it (ends at least 2% of the side from the walls), of a
 * fifth to three fifths of the smaller side, level in about a third of
 * draws and at any angle otherwise; they may cross one another. */
static int make_segment_scene(ref_scene *sc, int index, scene_info *info)
{
    memset(sc, 0, sizeof *sc);
    memset(info, 0, sizeof *info);
    rng_state = 0x94D049BB133111EBULL * (uint64_t)(index + 13);
    for (int k = 0; k < 8; k++)
        urand();
    sc->dim = 2;
    sc->n = 10 + (int)(urand() * 40.0);
    info->kind = index & 1 ? 3 : 1; /* walls + gravity, or walls */
    if (info->kind == 3) {
        sc->g[1] = -(0.2 + urand());
        if (index % 3 == 0)
            sc->g[0] = 0.3 * (urand() - 0.5);
    }
    double vol = 0.0;
    for (int i = 0; i < sc->n; i++) {
        ref_sphere *p = &sc->s[i];
        p->r = 0.3 + 0.4 * urand();
        p->inv_m = 1.0 / (0.5 + 3.5 * urand());
        for (int k = 0; k < 2; k++)
            p->v[k] = nrand();
        vol += 3.14159265358979 * p->r * p->r;
    }
    double side = sqrt(vol / 0.2);
    for (int k = 0; k < 2; k++)
        sc->L[k] = fmax(side * (0.85 + 0.3 * urand()), 2.5 * 0.7);
    double smaller = fmin(sc->L[0], sc->L[1]);
    sc->nsegments = 1 + (int)(urand() * MAX_SEGMENTS);
    for (int q = 0; q < sc->nsegments; q++) {
        int inside = 0;
        while (!inside) {
            double len = (0.2 + 0.4 * urand()) * smaller;
            double angle = urand() < 0.35 ? 0.0 : 3.14159265358979 * (urand() - 0.5);
            double c[2] = {sc->L[0] * urand(), sc->L[1] * urand()};
            inside = 1;
            for (int k = 0; k < 2; k++) {
                double h = 0.5 * len * (k ? sin(angle) : cos(angle));
                sc->sa[q][k] = c[k] - h;
                sc->sb[q][k] = c[k] + h;
                double lo = 0.02 * sc->L[k], hi = 0.98 * sc->L[k];
                inside = inside && sc->sa[q][k] >= lo && sc->sa[q][k] <= hi &&
                         sc->sb[q][k] >= lo && sc->sb[q][k] <= hi;
            }
        }
    }
    for (int i = 0; i < sc->n; i++)
        if (!place_at_random(sc, i, 5000))
            return 0;
    return 1;
}

/* A 3D box with walls on every axis, gravity in half of the scenes
 * (straight down, or a little to the side in some), and one to three
 * triangles inside it (corners at least 2% of the side from the walls),
 * their corners within a fifth to three fifths of the smaller side of a
 * random centre, at any angle; they may cross one another. A mesh scene
 * has 32 to 64 triangles of a twentieth to a fifth of the side instead
 * (scattered, not joined: two triangles sharing an edge would meet a
 * sphere at the same time, and which one is named would rest on the
 * last bits of two root finders). */
static int make_triangle_scene(ref_scene *sc, int index, int mesh, scene_info *info)
{
    memset(sc, 0, sizeof *sc);
    memset(info, 0, sizeof *info);
    rng_state = 0xD1B54A32D192ED03ULL * (uint64_t)(index + 29);
    for (int k = 0; k < 8; k++)
        urand();
    sc->dim = 3;
    sc->n = 10 + (int)(urand() * 30.0);
    info->kind = index & 1 ? 3 : 1; /* walls + gravity, or walls */
    if (info->kind == 3) {
        sc->g[2] = -(0.2 + urand());
        if (index % 3 == 0)
            sc->g[0] = 0.3 * (urand() - 0.5);
    }
    double vol = 0.0;
    for (int i = 0; i < sc->n; i++) {
        ref_sphere *p = &sc->s[i];
        p->r = 0.3 + 0.4 * urand();
        p->inv_m = 1.0 / (0.5 + 3.5 * urand());
        for (int k = 0; k < 3; k++)
            p->v[k] = nrand();
        vol += 4.18879020478639 * p->r * p->r * p->r;
    }
    double side = cbrt(vol / 0.1);
    for (int k = 0; k < 3; k++)
        sc->L[k] = fmax(side * (0.85 + 0.3 * urand()), 2.5 * 0.7);
    double smaller = fmin(sc->L[0], fmin(sc->L[1], sc->L[2]));
    sc->ntriangles = mesh ? 32 + (int)(urand() * 32.0) : 1 + (int)(urand() * 3.0);
    for (int q = 0; q < sc->ntriangles; q++) {
        int inside = 0;
        while (!inside) {
            double c[3], size = (mesh ? 0.05 + 0.15 * urand() : 0.2 + 0.4 * urand()) * smaller;
            for (int k = 0; k < 3; k++)
                c[k] = sc->L[k] * urand();
            inside = 1;
            for (int corner = 0; corner < 3; corner++)
                for (int k = 0; k < 3; k++) {
                    double x = c[k] + size * (urand() - 0.5);
                    sc->tp[q][corner][k] = x;
                    inside = inside && x >= 0.02 * sc->L[k] && x <= 0.98 * sc->L[k];
                }
            double ab[3], ac[3], n[3];
            for (int k = 0; k < 3; k++) {
                ab[k] = sc->tp[q][1][k] - sc->tp[q][0][k];
                ac[k] = sc->tp[q][2][k] - sc->tp[q][0][k];
            }
            ref_cross(n, ab, ac);
            inside = inside && ref_norm3(n) > 0.05 * size * size; /* not a sliver */
        }
    }
    for (int i = 0; i < sc->n; i++)
        if (!place_at_random(sc, i, 5000))
            return 0;
    return 1;
}

/* ---- the engine --------------------------------------------------------------- */

/* Rough spheres over the other kinds of scene (random ones, then planes,
 * then segments and triangles in turn): tangential restitutions of 1, 0,
 * -0.5 or any in [-1, 1], the solid moment of inertia (given as the
 * library's default 0) or any in [0.2, 1], and every sphere spinning,
 * the immovable ones too. */
static int make_rough_scene(ref_scene *sc, int r, scene_info *info)
{
    int made = r % 4 < 2    ? make_scene(sc, 1000 + r, info)
               : r % 4 == 2 ? make_plane_scene(sc, 1000 + r, info)
               : r % 8 == 3 ? make_segment_scene(sc, 1000 + r, info)
                            : make_triangle_scene(sc, 1000 + r, 0, info);
    const double betas[4] = {1.0, 0.0, -0.5, NAN};
    sc->rough = 1;
    sc->beta = betas[(r / 4) % 4];
    sc->beta_wall = betas[(r / 16 + r) % 4];
    if (isnan(sc->beta))
        sc->beta = 2.0 * urand() - 1.0;
    if (isnan(sc->beta_wall))
        sc->beta_wall = 2.0 * urand() - 1.0;
    sc->inertia = r % 3 == 0 ? 0.0 : 0.2 + 0.8 * urand();
    sc->mu = sc->mu_wall = INFINITY;
    if (r % 5 >= 2) { /* Coulomb's limit in three scenes in five */
        sc->mu = 0.05 + 0.5 * urand();
        sc->mu_wall = 0.05 + 0.5 * urand();
    }
    for (int i = 0; i < sc->n; i++)
        for (int k = 0; k < 3; k++)
            sc->w[i][k] = sc->dim == 3 || k == 2 ? nrand() : 0.0;
    return made;
}

/* A scene of the kinds above whose spheres have species 0, 1 or 2, some
 * pairs of which pass through each other (at least one pair, and not
 * every pair). In the scenes placed at random, the spheres are then
 * placed again, clear only of those they meet: many start overlapping
 * spheres they pass through. Returns 2 when some do. */
static int make_species_scene(ref_scene *sc, int r, scene_info *info)
{
    int base = r % 8;
    int made = base < 3    ? make_scene(sc, 2000 + r, info)
               : base == 3 ? make_wide_scene(sc, SCENES + r % WIDE_SCENES, info)
               : base == 4 ? make_huge_scene(sc, SCENES + WIDE_SCENES + r % HUGE_SCENES, info)
               : base == 5 ? make_plane_scene(sc, 2000 + r, info)
               : base == 6 ? make_segment_scene(sc, 2000 + r, info)
                           : make_triangle_scene(sc, 2000 + r, 0, info);
    if (!made)
        return 0;
    int nspecies = 2 + (int)(urand() * 2.0);
    for (int i = 0; i < sc->n; i++)
        sc->species[i] = (int)(urand() * nspecies);
    for (;;) {
        int passing = 0, pairs = 0;
        memset(sc->pass, 0, sizeof sc->pass);
        for (int a = 0; a < nspecies; a++)
            for (int b = a; b < nspecies; b++, pairs++)
                if (urand() < 0.4) {
                    sc->pass[a] |= 1u << b;
                    sc->pass[b] |= 1u << a;
                    passing++;
                }
        if (passing > 0 && passing < pairs)
            break;
    }
    if (base == 3 || base == 4)
        return 1; /* clusters: as placed */
    static ref_sphere kept[MAX_N];
    memcpy(kept, sc->s, sizeof kept);
    for (int i = 0; i < sc->n; i++)
        if (!place_at_random(sc, i, 2000)) {
            memcpy(sc->s, kept, sizeof kept); /* apart, as first placed */
            return 1;
        }
    for (int i = 0; i < sc->n; i++)
        for (int j = i + 1; j < sc->n; j++) {
            double s = sc->s[i].r + sc->s[j].r;
            if (min_image_dist2(sc, sc->s[i].x, sc->s[j].x) < s * s)
                return 2;
        }
    return 1;
}

/* The moment of inertia factor the reference uses: the library's default
 * for 0. */
static void resolve_inertia(ref_scene *sc)
{
    if (sc->rough && sc->inertia == 0.0)
        sc->inertia = sc->dim == 2 ? 0.5 : 0.4;
}

typedef struct engine_log {
    long plane_hits, segment_hits;
    int count;
    collision c[MAX_COLLISIONS + 8];
    collision seg[MAX_SEGMENT_HITS]; /* (time, sphere, segment), the first ones */
} engine_log;

static void on_contact(void *user, carom_contact *c)
{
    engine_log *log = user;
    log->plane_hits += c->kind == CAROM_CONTACT_PLANE;
    if (c->kind == CAROM_CONTACT_SEGMENT || c->kind == CAROM_CONTACT_TRIANGLE) {
        if (log->segment_hits < MAX_SEGMENT_HITS)
            log->seg[log->segment_hits] = (collision){c->time, (int)c->i, c->wall};
        log->segment_hits++;
    }
    if (c->kind != CAROM_CONTACT_SPHERE)
        return;
    if (log->count < MAX_COLLISIONS + 8) {
        collision *e = &log->c[log->count];
        e->t = c->time;
        e->i = (int)(c->i < c->j ? c->i : c->j);
        e->j = (int)(c->i < c->j ? c->j : c->i);
    }
    log->count++;
}

/* Runs the engine on the scene until it has recorded `want` collisions
 * (or has no more events); returns the world's max overlap seen. */
static double run_engine(const ref_scene *sc, int want, carom_neighbours neighbours,
                         engine_log *log, int *used_lists)
{
    carom_world_def def = carom_world_default_def();
    def.neighbours = neighbours;
    def.dim = sc->dim;
    for (int k = 0; k < 3; k++) {
        def.box[k] = k < sc->dim ? sc->L[k] : 1.0;
        def.boundary[k] = sc->periodic[k] ? CAROM_BOUNDARY_PERIODIC : CAROM_BOUNDARY_WALLS;
        def.gravity[k] = sc->g[k];
    }
    def.restitution_min_speed = 1e-12; /* the reference is purely elastic */
    if (sc->rough) {
        def.tangential_restitution = sc->beta;
        def.wall_tangential_restitution = sc->beta_wall;
        def.inertia_factor = sc->inertia;
        def.friction = sc->mu;
        def.wall_friction = sc->mu_wall;
    }
    def.on_contact = on_contact;
    def.user_data = log;
    log->count = 0;
    log->plane_hits = 0;
    log->segment_hits = 0;
    carom_error err;
    carom_world *w = carom_world_create(&def, &err);
    if (!w) {
        fprintf(stderr, "create: %s\n", err.message);
        check_failures++;
        return INFINITY;
    }
    for (int i = 0; i < sc->n; i++) {
        carom_sphere_def d = carom_sphere_default_def();
        for (int k = 0; k < 3; k++) {
            d.position[k] = sc->s[i].x[k];
            d.velocity[k] = sc->s[i].v[k];
        }
        d.radius = sc->s[i].r;
        d.mass = sc->s[i].inv_m > 0.0 ? 1.0 / sc->s[i].inv_m : INFINITY;
        d.species = (uint32_t)sc->species[i];
        carom_sphere_id id;
        if (carom_world_add_sphere(w, &d, &id) != CAROM_OK || id != (carom_sphere_id)i ||
            (sc->rough && carom_world_set_spin(w, id, sc->w[i]) != CAROM_OK)) {
            fprintf(stderr, "add: %s\n", carom_world_error_message(w));
            check_failures++;
        }
    }
    for (uint32_t a = 0; a < 3; a++)
        for (uint32_t b = a; b < 3; b++)
            if (((sc->pass[a] >> b) & 1u) && carom_world_set_pass_through(w, a, b, 1) != CAROM_OK) {
                fprintf(stderr, "pass through: %s\n", carom_world_error_message(w));
                check_failures++;
            }
    for (int q = 0; q < sc->nplanes; q++) {
        uint32_t index;
        if (carom_world_add_plane(w, sc->pn[q], sc->pd[q], &index) != CAROM_OK ||
            index != (uint32_t)q) {
            fprintf(stderr, "plane: %s\n", carom_world_error_message(w));
            check_failures++;
        }
    }
    for (int q = 0; q < sc->nsegments; q++) {
        uint32_t index;
        if (carom_world_add_segment(w, sc->sa[q], sc->sb[q], &index) != CAROM_OK ||
            index != (uint32_t)q) {
            fprintf(stderr, "segment: %s\n", carom_world_error_message(w));
            check_failures++;
        }
    }
    for (int q = 0; q < sc->ntriangles; q++) {
        uint32_t index;
        if (carom_world_add_triangle(w, sc->tp[q][0], sc->tp[q][1], sc->tp[q][2], &index) !=
                CAROM_OK ||
            index != (uint32_t)q) {
            fprintf(stderr, "triangle: %s\n", carom_world_error_message(w));
            check_failures++;
        }
    }
    uint64_t steps = 0, done = 1;
    while (log->count < want && done > 0 && steps < 1000000) {
        if (carom_world_step_events(w, 8, &done) != CAROM_OK) {
            fprintf(stderr, "step: %s\n", carom_world_error_message(w));
            check_failures++;
            break;
        }
        steps += done;
    }
    carom_stats st;
    carom_world_get_stats(w, &st);
    *used_lists = st.list_rebuilds > 0;
    double overlap = st.max_overlap;
    double now = carom_world_max_overlap_now(w);
    if (now > overlap)
        overlap = now;
    carom_world_free(w);
    return overlap;
}

/* Same pair, times within tol relative. */
static int same_collision(const collision *a, const collision *b, double tol)
{
    return a->i == b->i && a->j == b->j && fabs(a->t - b->t) <= tol * (1.0 + fabs(b->t));
}

/* The engine is compared to 1e-9 relative. Its round-off differs from the
 * reference's at every collision (the perturbation enters only once), so
 * near the horizon its difference from the reference is already a
 * sizeable fraction of the perturbed run's (up to about a half seen); the
 * horizon is therefore where the two reference runs differ by 1e-10,
 * which leaves the comparison a margin of more than 30 (largest engine
 * difference seen within the horizons: 3e-11). */
#define COMPARE_TOL 1e-9
#define HORIZON_TOL 1e-10

/* The perturbed run also gets a round-off's worth of noise (a few units
 * in the last place) in the positions of the two spheres of each
 * collision: the engine's round-off differs from the reference's at
 * every collision, not only at the start, and near an ill-conditioned
 * (grazing) contact that matters more than the first perturbation. */
static void jitter_pair(ref_state *st, int i, int j)
{
    for (int s = 0; s < 2; s++) {
        ref_sphere *p = &st->sc.s[s ? j : i];
        for (int k = 0; k < st->sc.dim; k++)
            p->x[k] += 4e-16 * (1.0 + fabs(p->x[k])) * (2.0 * urand() - 1.0);
    }
}

/* The engine's segment contacts (time, sphere, segment) before t_end
 * against the reference's: the same ones in the same order, times within
 * COMPARE_TOL relative. Returns how many were compared, or -1 - k if the
 * k-th differs (or one has a contact the other has not). */
static int compare_segment_hits(const ref_state *ref, const engine_log *log, double t_end,
                                double *worst)
{
    int n_ref = ref->seg_logged < MAX_SEGMENT_HITS ? ref->seg_logged : MAX_SEGMENT_HITS;
    int n_eng = log->segment_hits < MAX_SEGMENT_HITS ? (int)log->segment_hits : MAX_SEGMENT_HITS;
    int full = n_ref < MAX_SEGMENT_HITS && n_eng < MAX_SEGMENT_HITS; /* none left out */
    int k = 0;
    for (;; k++) {
        int more_ref = k < n_ref && ref->seg_log[k].t < t_end;
        int more_eng = k < n_eng && log->seg[k].t < t_end;
        if (!more_ref || !more_eng)
            return (more_ref || more_eng) && full ? -1 - k : k;
        if (!same_collision(&log->seg[k], &ref->seg_log[k], COMPARE_TOL))
            return -1 - k;
        double e = fabs(log->seg[k].t - ref->seg_log[k].t) / (1.0 + ref->seg_log[k].t);
        if (e > *worst)
            *worst = e;
    }
}

int main(void)
{
    static ref_state run_a, run_b;
    static collision ref_seg_hits[MAX_SEGMENT_HITS];
    static collision seq[MAX_COLLISIONS];
    static engine_log log;
    long compared = 0;
    int scenes = 0, short_horizon = 0, failed_scenes = 0, horizon_min = MAX_COLLISIONS;
    int with_lists = 0; /* engine runs that used neighbour lists */
    int by_kind[4] = {0, 0, 0, 0}, with_fast = 0, with_immovable = 0, with_big = 0;
    long compared_big = 0;
    double worst_overlap = 0.0, worst_time_error = 0.0;
    int wide_compared = 0, huge_compared = 0, plane_compared = 0;
    long plane_hits = 0;
    int segment_compared = 0, segment_contacts = 0, ref_at_ends = 0, ref_at_ends_falling = 0;
    long segment_hits = 0;
    double worst_segment_error = 0.0;
    int triangle_compared = 0, triangle_contacts = 0, ref_at_edges = 0, ref_at_edges_falling = 0;
    int mesh_compared = 0, mesh_contacts = 0;
    long mesh_hits = 0;
    long triangle_hits = 0;
    double worst_triangle_error = 0.0;
    const int first_segment_scene = SCENES + WIDE_SCENES + HUGE_SCENES + PLANE_SCENES;
    const int first_triangle_scene = first_segment_scene + SEGMENT_SCENES;
    const int first_mesh_scene = first_triangle_scene + TRIANGLE_SCENES;
    const int first_rough_scene = first_mesh_scene + MESH_SCENES;
    int rough_compared = 0, rough_by_kind[4] = {0, 0, 0, 0};
    const int first_species_scene = first_rough_scene + ROUGH_SCENES;
    int species_compared = 0, species_overlapping = 0;
    for (int index = 0; index < first_species_scene + SPECIES_SCENES; index++) {
        static ref_scene sc;
        scene_info info;
        int wide = index >= SCENES && index < SCENES + WIDE_SCENES;
        int huge = index >= SCENES + WIDE_SCENES && index < SCENES + WIDE_SCENES + HUGE_SCENES;
        int planes = index >= SCENES + WIDE_SCENES + HUGE_SCENES && index < first_segment_scene;
        int segments = index >= first_segment_scene && index < first_triangle_scene;
        int triangles = index >= first_triangle_scene && index < first_rough_scene; /* meshes too */
        int mesh = index >= first_mesh_scene && index < first_rough_scene;
        int rough = index >= first_rough_scene && index < first_species_scene;
        int species = index >= first_species_scene;
        int made = species     ? make_species_scene(&sc, index - first_species_scene, &info)
                   : rough     ? make_rough_scene(&sc, index - first_rough_scene, &info)
                   : wide      ? make_wide_scene(&sc, index, &info)
                   : huge      ? make_huge_scene(&sc, index, &info)
                   : planes    ? make_plane_scene(&sc, index, &info)
                   : segments  ? make_segment_scene(&sc, index, &info)
                   : triangles ? make_triangle_scene(&sc, index, mesh, &info)
                               : make_scene(&sc, index, &info);
        if (!made) {
            fprintf(stderr, "scene %d: could not place the spheres\n", index);
            check_failures++;
            continue;
        }
        species_overlapping += made == 2;
        /* Reference runs: exact and perturbed, in lockstep until they part. */
        memset(&run_a, 0, sizeof run_a);
        run_a.sc = sc;
        resolve_inertia(&run_a.sc);
        run_b = run_a;
        run_a.seg_log = ref_seg_hits; /* the engine's segment contacts are compared with these */
        for (int i = 0; i < sc.n; i++)
            for (int k = 0; k < sc.dim; k++) {
                /* Coordinates near 1e6 are known to about 1e-10: the
                 * perturbation must be larger than their round-off. */
                double size = 1e-13 * (1.0 + 4e-3 * fabs(run_b.sc.s[i].x[k]));
                double x = run_b.sc.s[i].x[k] + size * (2.0 * urand() - 1.0);
                if (!sc.periodic[k])
                    x = fmin(fmax(x, run_b.sc.s[i].r), sc.L[k] - run_b.sc.s[i].r);
                run_b.sc.s[i].x[k] = x;
            }
        int horizon = 0;
        while (horizon < MAX_COLLISIONS) {
            collision ca, cb;
            if (!ref_next(&run_a, &ca) || (huge && ca.t > 1e3))
                break; /* (in a huge periodic box, pairs meet again much later) */
            int got_b = ref_next(&run_b, &cb);
            if (got_b)
                jitter_pair(&run_b, cb.i, cb.j);
            seq[horizon] = ca;
            if (!got_b || !same_collision(&ca, &cb, HORIZON_TOL))
                break;
            horizon++;
        }
        if (segments) {
            ref_at_ends += run_a.seg_at_ends;
            if (info.kind == 3)
                ref_at_ends_falling += run_a.seg_at_ends;
        }
        if (triangles) {
            ref_at_edges += run_a.seg_at_ends;
            if (info.kind == 3)
                ref_at_edges_falling += run_a.seg_at_ends;
        }
        /* The engine, up to the horizon: with neighbour lists wherever the
         * scene allows them (however dilute), and with cells only. */
        int agree = horizon;
        for (int mode = 0; mode < 2; mode++) {
            int lists = 0;
            double overlap = run_engine(&sc, horizon,
                                        mode ? CAROM_NEIGHBOURS_CELLS : CAROM_NEIGHBOURS_LISTS,
                                        &log, &lists);
            if (overlap > worst_overlap)
                worst_overlap = overlap;
            with_lists += lists;
            if (planes)
                plane_hits += log.plane_hits;
            if (segments)
                segment_hits += log.segment_hits;
            if (triangles)
                *(mesh ? &mesh_hits : &triangle_hits) += log.segment_hits;
            int same = 0;
            while (same < horizon && same < log.count &&
                   same_collision(&log.c[same], &seq[same], COMPARE_TOL)) {
                double e = fabs(log.c[same].t - seq[same].t) / (1.0 + seq[same].t);
                if (e > worst_time_error)
                    worst_time_error = e;
                same++;
            }
            if (same < agree)
                agree = same;
            if (same < horizon) {
                failed_scenes++;
                check_failures++;
                fprintf(stderr,
                        "scene %d (dim %d, n %d, kind %d, fast %d, immovable %d, %s): engine "
                        "departs from the reference at collision %d of %d:",
                        index, sc.dim, sc.n, info.kind, info.fast, info.immovable,
                        lists ? "lists" : "cells", same, horizon);
                if (same < log.count)
                    fprintf(stderr, " engine (%d,%d) at %.17g,", log.c[same].i, log.c[same].j,
                            log.c[same].t);
                else
                    fprintf(stderr, " engine has no more,");
                fprintf(stderr, " reference (%d,%d) at %.17g\n", seq[same].i, seq[same].j,
                        seq[same].t);
            }
            if (segments || triangles) {
                /* Its segment (triangle) contacts, up to the last collision
                 * that agrees. */
                int k = compare_segment_hits(&run_a, &log, same > 0 ? seq[same - 1].t : 0.0,
                                             segments ? &worst_segment_error
                                                      : &worst_triangle_error);
                if (k >= 0) {
                    if (segments)
                        segment_contacts += k;
                    else
                        *(mesh ? &mesh_contacts : &triangle_contacts) += k;
                } else {
                    k = -1 - k;
                    check_failures++;
                    fprintf(stderr, "scene %d (%s, n %d, kind %d, %s): contact %d:", index,
                            segments ? "segments" : "triangles", sc.n, info.kind,
                            lists ? "lists" : "cells", k);
                    if (k < log.segment_hits && k < MAX_SEGMENT_HITS)
                        fprintf(stderr, " engine sphere %d, segment %d at %.17g,", log.seg[k].i,
                                log.seg[k].j, log.seg[k].t);
                    else
                        fprintf(stderr, " engine has no more,");
                    if (k < run_a.seg_logged && k < MAX_SEGMENT_HITS)
                        fprintf(stderr, " reference sphere %d, segment %d at %.17g\n",
                                ref_seg_hits[k].i, ref_seg_hits[k].j, ref_seg_hits[k].t);
                    else
                        fprintf(stderr, " reference has no more\n");
                }
            }
        }
        compared += agree;
        if (wide || huge || planes || segments || triangles || rough || species) {
            /* Counted apart from the random scenes above. */
            if (species) {
                species_compared += agree;
            } else if (rough) {
                rough_compared += agree;
                rough_by_kind[(index - first_rough_scene) % 4 < 2
                                  ? 0
                                  : 1 + ((index - first_rough_scene) % 4 == 3) +
                                        ((index - first_rough_scene) % 8 == 7)]++;
            } else if (wide)
                wide_compared += agree;
            else if (huge)
                huge_compared += agree;
            else if (planes)
                plane_compared += agree;
            else if (segments)
                segment_compared += agree;
            else
                *(mesh ? &mesh_compared : &triangle_compared) += agree;
            continue;
        }
        scenes++;
        by_kind[info.kind]++;
        with_fast += info.fast > 0;
        with_immovable += info.immovable > 0;
        with_big += info.big;
        if (info.big)
            compared_big += agree;
        if (horizon < 20)
            short_horizon++;
        if (horizon < horizon_min)
            horizon_min = horizon;
    }
    printf("%d scenes (periodic %d, walls %d, mixed %d, walls+gravity %d; %d with fast "
           "spheres, %d with immovable ones, %d with a big one): %ld collisions compared "
           "(%ld in scenes with a big sphere), shortest horizon %d, "
           "%d scenes under 20; %d scenes disagree; largest time difference %.3g "
           "(relative), worst overlap %.3g\n",
           scenes, by_kind[0], by_kind[1], by_kind[2], by_kind[3], with_fast, with_immovable,
           with_big, compared, compared_big, horizon_min, short_horizon, failed_scenes, worst_time_error, worst_overlap);
    printf("%d scenes with radii 0.01 to 1 (%d of radius 1): %d collisions compared; "
           "%d scenes in a box of side 1e6: %d collisions compared\n",
           WIDE_SCENES, WIDE_LARGE, wide_compared, HUGE_SCENES, huge_compared);
    printf("%d scenes with fixed planes: %d collisions compared, %ld plane hits in the "
           "engine's runs\n",
           PLANE_SCENES, plane_compared, plane_hits);
    printf("%d scenes with fixed segments: %d collisions compared, %ld segment hits in the "
           "engine's runs, %d segment contacts compared (largest time difference %.3g); the "
           "reference met an end %d times (%d under gravity)\n",
           SEGMENT_SCENES, segment_compared, segment_hits, segment_contacts, worst_segment_error,
           ref_at_ends, ref_at_ends_falling);
    printf("%d scenes with fixed triangles: %d collisions compared, %ld triangle hits in the "
           "engine's runs, %d triangle contacts compared (largest time difference %.3g); the "
           "reference met an edge or a corner %d times (%d under gravity)\n",
           TRIANGLE_SCENES, triangle_compared, triangle_hits, triangle_contacts,
           worst_triangle_error, ref_at_edges, ref_at_edges_falling);
    printf("%d scenes with 32 to 64 small triangles: %d collisions compared, %ld triangle hits "
           "in the engine's runs, %d triangle contacts compared (times as above)\n",
           MESH_SCENES, mesh_compared, mesh_hits, mesh_contacts);
    printf("%d scenes of rough spinning spheres (%d random, %d with planes, %d with segments, "
           "%d with triangles): %d collisions compared\n",
           ROUGH_SCENES, rough_by_kind[0], rough_by_kind[1], rough_by_kind[2], rough_by_kind[3],
           rough_compared);
    printf("%d scenes with species that pass through each other (%d starting with such "
           "spheres overlapping): %d collisions compared\n",
           SPECIES_SCENES, species_overlapping, species_compared);
    printf("%d of the engine's runs used neighbour lists (each scene runs with and "
           "without)\n", with_lists);
    CHECK(scenes == SCENES);
    CHECK(with_lists >= 100);
    CHECK(wide_compared > 20 * WIDE_SCENES);
    CHECK(huge_compared > 20 * HUGE_SCENES);
    CHECK(plane_compared > 40 * PLANE_SCENES);
    CHECK(plane_hits > 10 * PLANE_SCENES);
    CHECK(segment_compared > 40 * SEGMENT_SCENES);
    CHECK(segment_hits > 10 * SEGMENT_SCENES);
    CHECK(segment_contacts > 10 * SEGMENT_SCENES);
    CHECK(ref_at_ends_falling > 50);
    CHECK(worst_segment_error < COMPARE_TOL);
    CHECK(triangle_compared > 40 * TRIANGLE_SCENES);
    CHECK(triangle_contacts > 5 * TRIANGLE_SCENES);
    CHECK(ref_at_edges_falling > 20);
    CHECK(worst_triangle_error < COMPARE_TOL);
    CHECK(mesh_compared > 40 * MESH_SCENES);
    CHECK(mesh_contacts > 10 * MESH_SCENES);
    CHECK(rough_compared > 40 * ROUGH_SCENES);
    CHECK(species_compared > 40 * SPECIES_SCENES);
    CHECK(species_overlapping >= SPECIES_SCENES / 4);
    CHECK(compared > 5000);
    CHECK(with_big >= 20 && compared_big > 500);
    CHECK(short_horizon <= scenes * 15 / 100); /* most scenes give at least 20 */
    CHECK(worst_overlap < 1e-9);
    return CHECK_REPORT();
}
