/* Unit tests of the root finders (src/roots.c).
 *
 * Contract (roots.h): the earliest tau >= 0 at which h(tau) crosses zero
 * going up; "at or above zero and rising" is a crossing at once, "at or
 * above zero and not rising" is not; a tangency from below is not a
 * crossing. The pair predictor uses h = sigma^2 - |dr + dv tau|^2, i.e.
 * c0 = sigma^2 - dr.dr, c1 = -2 dr.dv, c2 = -dv.dv. */
#include <float.h>
#include <stdint.h>

#include "check.h"
#include "roots.h"

#define Q roots_first_upcrossing_quadratic

static double P(double c0, double c1, double c2, double c3, double c4)
{
    double c[5] = {c0, c1, c2, c3, c4};
    return roots_first_upcrossing_poly(c, 4);
}

/* Relative check that also accepts two equal infinities. */

/* Pair coefficients for a 1D head-on approach: distance d, contact
 * distance s, closing speed u (u > 0: approaching). */
static void pair_coeffs(double d, double s, double u, double c[3])
{
    c[0] = s * s - d * d;
    c[1] = 2.0 * d * u;
    c[2] = -u * u;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static double urand(void) /* uniform in [0, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static long double evalq(long double c0, long double c1, long double c2, long double t)
{
    return c0 + t * (c1 + t * c2);
}

static void test_quadratic_pairs(void)
{
    double c[3];
    /* Approaching from distance 2, contact 1, closing speed 1: tau = 1. */
    pair_coeffs(2.0, 1.0, 1.0, c);
    CHECK(Q(c[0], c[1], c[2]) == 1.0);
    /* Receding: never. */
    pair_coeffs(2.0, 1.0, -1.0, c);
    CHECK(isinf(Q(c[0], c[1], c[2])));
    /* At rest relative to each other, apart: never. */
    CHECK(isinf(Q(-3.0, 0.0, 0.0)));
    CHECK(isinf(Q(-3.0, 0.0, -0.0)));
    /* Touching and receding: never. */
    CHECK(isinf(Q(0.0, -1.0, -1.0)));
    CHECK(isinf(Q(0.0, -2.0, -1.0)));
    /* Touching, no normal speed, tangential motion (grazing at contact): never. */
    CHECK(isinf(Q(0.0, 0.0, -1.0)));
    /* Touching and at rest: never. */
    CHECK(isinf(Q(0.0, 0.0, 0.0)));
    /* Touching and approaching: now. */
    CHECK(Q(0.0, 1.0, -1.0) == 0.0);
    CHECK(Q(0.0, 1e-300, -1.0) == 0.0);
    /* Overlapping (round-off) and approaching: now. */
    CHECK(Q(1e-16, 1.0, -1.0) == 0.0);
    /* Overlapping and receding: never (no second collision). */
    CHECK(isinf(Q(1e-16, -1.0, -1.0)));
    /* Exactly grazing: dr = (5, 1), dv = (-1, 0), sigma = 1: distance of
     * closest approach is exactly 1; h = -(tau - 5)^2 is a tangency. */
    CHECK(isinf(Q(1.0 - 26.0, 10.0, -1.0)));
    /* A double root from below (tangency): never, at any scale. */
    CHECK(isinf(Q(-1.0, 2.0, -1.0)));
    CHECK(isinf(Q(-4.0, 4.0, -1.0)));
    CHECK(isinf(Q(-0x1p-80, 0x1p-40, -1.0)));
    CHECK(isinf(Q(-0x1p+80, 0x1p+41, -1.0)));
    /* Just inside the grazing distance: a collision, near the tangency
     * point. dr = (5, 1 - 2^-20): roots 5 -+ sqrt(1 - (1-2^-20)^2). */
    {
        double y = 1.0 - 0x1p-20;
        double t = Q(1.0 - 25.0 - y * y, 10.0, -1.0);
        double half = sqrt(1.0 - y * y);
        CHECK_REL(t, 5.0 - half, 1e-9);
        CHECK(t < 5.0);
    }
    /* Just outside the grazing distance: never. */
    {
        double y = 1.0 + 0x1p-20;
        CHECK(isinf(Q(1.0 - 25.0 - y * y, 10.0, -1.0)));
    }
    /* Disc < 0 from below: never. */
    CHECK(isinf(Q(-2.0, 2.0, -1.0)));
}

static void test_quadratic_linear(void)
{
    /* c2 = 0: a line. */
    CHECK(Q(-3.0, 1.5, 0.0) == 2.0);
    CHECK(isinf(Q(-3.0, -1.5, 0.0)));
    CHECK(isinf(Q(-3.0, 0.0, 0.0)));
    CHECK(Q(0.0, 1.5, 0.0) == 0.0);
    CHECK(Q(2.0, 1.5, 0.0) == 0.0);
    CHECK(isinf(Q(0.0, -1.5, 0.0)));
    CHECK(isinf(Q(2.0, -1.5, 0.0)));
    CHECK(isinf(Q(2.0, 0.0, 0.0)));
    /* Tiny and huge slopes. */
    CHECK_REL(Q(-1.0, 1e-12, 0.0), 1e12, 1e-15);
    CHECK_REL(Q(-1.0, 1e12, 0.0), 1e-12, 1e-15);
    CHECK_REL(Q(-1e-300, 1e-10, 0.0), 1e-290, 1e-15);
    CHECK(Q(-0.0, 1.0, 0.0) == 0.0); /* -0 counts as at zero */
}

static void test_quadratic_convex(void)
{
    /* c2 > 0 (a face crossing against acceleration, e.g. thrown upwards
     * with gravity): h = (tau - 1)(tau - 3) starts above zero falling, dips
     * below and comes back up at 3. */
    CHECK(Q(3.0, -4.0, 1.0) == 3.0);
    /* From below zero, convex: up at the positive root. h = (tau+1)(tau-2). */
    CHECK(Q(-2.0, -1.0, 1.0) == 2.0);
    CHECK(Q(-2.0, 1.0, 1.0) == 1.0); /* (tau+2)(tau-1) */
    /* At zero, not moving, accelerating up: rising now. */
    CHECK(Q(0.0, 0.0, 1.0) == 0.0);
    /* At zero, falling, convex: comes back up at -c1/c2. h = tau(tau - 2). */
    CHECK(Q(0.0, -2.0, 1.0) == 2.0);
    /* Above zero, convex, minimum exactly at zero (double root at 1):
     * rising from its minimum there. */
    CHECK(Q(1.0, -2.0, 1.0) == 1.0);
    /* Above zero, concave: never rises again. */
    CHECK(isinf(Q(1.0, -2.0, -1.0)));
    CHECK(isinf(Q(1.0, 0.0, -1.0)));
    /* Above zero and rising: now. */
    CHECK(Q(1.0, 2.0, -1.0) == 0.0);
    CHECK(Q(1.0, 0.0, 1.0) == 0.0);
}

static void test_quadratic_scales(void)
{
    /* Head-on approach over gap g = d - s at closing speed u: tau = g/u,
     * for speeds 1e-12 .. 1e12 and gaps 1e-12 .. 1. The coefficients are
     * built exactly (powers of two) so the expected value is exact. */
    for (int ep = -40; ep <= 40; ep += 4) {
        double u = ldexp(1.0, ep);
        for (int eg = -40; eg <= 0; eg += 5) {
            double g = ldexp(1.0, eg);
            double s = 1.0, d = s + g;
            /* c0 = s^2 - d^2 = -(2 s g + g^2), exact for these g. */
            double c0 = -(2.0 * s * g + g * g);
            double c1 = 2.0 * d * u;
            double c2 = -u * u;
            double t = Q(c0, c1, c2);
            CHECK_REL(t, g / u, 4 * DBL_EPSILON);
        }
    }
    /* Speeds 1e-12 and 1e12 with decimal values: compare with long double. */
    const double speeds[] = {1e-12, 1e-9, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9, 1e12};
    for (size_t k = 0; k < sizeof speeds / sizeof speeds[0]; k++) {
        double u = speeds[k];
        double c[3];
        pair_coeffs(1.7, 1.0, u, c);
        long double expect = (1.7L - 1.0L) / (long double)u;
        CHECK_REL(Q(c[0], c[1], c[2]), (double)expect, 1e-14);
        pair_coeffs(1.7, 1.0, -u, c);
        CHECK(isinf(Q(c[0], c[1], c[2])));
    }
    /* Huge and tiny lengths (1e-150 .. 1e150): scale invariance. */
    for (int e = -500; e <= 500; e += 50) {
        double L = ldexp(1.0, e);
        double t = Q((1.0 - 4.0) * L * L, 4.0 * L, -1.0); /* d = 2L, s = L, u = 1 */
        CHECK_REL(t, L, 4 * DBL_EPSILON);
    }
}

static void test_quadratic_cancellation(void)
{
    /* h = -(tau - a)(tau - b) with a tiny root a and a huge root b: the
     * small root must not be computed as a difference of nearly equal
     * numbers. Coefficients exact in double. */
    const int ea[] = {-30, -25, -20, -10};
    const int eb[] = {20, 22, 15, 40};
    for (int k = 0; k < 4; k++) {
        double a = ldexp(1.0, ea[k]), b = ldexp(1.0, eb[k]);
        double t = Q(-a * b, a + b, -1.0);
        CHECK_REL(t, a, 2 * DBL_EPSILON);
        /* Convex mirror image from below: h = (tau + a)(tau - b) -> b. */
        CHECK_REL(Q(-a * b, a - b, 1.0), b, 2 * DBL_EPSILON);
        /* And h = (tau - a)(tau + b) -> a. */
        CHECK_REL(Q(-a * b, b - a, 1.0), a, 2 * DBL_EPSILON);
    }
    /* An oblique pair moving fast: dr = (4, 0.5), s = 1, dv = (-1e9, 0).
     * Exact root: (4 - sqrt(0.75)) / 1e9. */
    {
        double dx = 4.0, y = 0.5, u = 1e9;
        double t = Q(1.0 - (dx * dx + y * y), 2.0 * dx * u, -u * u);
        long double expect = (4.0L - sqrtl(0.75L)) / 1e9L;
        CHECK_REL(t, (double)expect, 8 * DBL_EPSILON);
    }
}

/* Random coefficients: the result is checked against the sign of h
 * evaluated in long double just before and just after it, and infinite
 * results against the long double discriminant. */
static void test_quadratic_random(void)
{
    int checked = 0;
    for (int it = 0; it < 200000; it++) {
        double c0 = ldexp(urand() - 0.5, (int)(urand() * 60) - 30);
        double c1 = ldexp(urand() - 0.5, (int)(urand() * 60) - 30);
        double c2 = ldexp(urand() - 0.5, (int)(urand() * 60) - 30);
        double t = Q(c0, c1, c2);
        CHECK(t >= 0.0);
        if (t == 0.0) {
            /* Rising at or above zero now. */
            CHECK(c0 >= 0.0 && (c1 > 0.0 || (c1 == 0.0 && c2 > 0.0)));
            continue;
        }
        long double disc = (long double)c1 * c1 - 4.0L * (long double)c2 * c0;
        if (isinf(t)) {
            if (c0 < 0.0) {
                /* From below: no real root, or both roots negative (c2 < 0,
                 * c1 <= 0), or the tangency. With c2 > 0 there is always a
                 * positive root. */
                CHECK(c2 <= 0.0);
                CHECK(disc <= 0.0L || c1 <= 0.0 || c2 == 0.0);
            } else {
                CHECK(c2 <= 0.0 && c1 <= 0.0);
            }
            continue;
        }
        /* A finite crossing: h just after it is > 0 and just before it
         * < 0 (well-separated roots only). */
        long double lt = t;
        if (c0 < 0.0 && fabsl(disc) > 1e-6L * ((long double)c1 * c1 + fabsl(4.0L * c2 * c0))) {
            long double sq = sqrtl(fabsl(disc));
            long double sep = fabsl(c2) > 0 ? sq / fabsl((long double)c2) : INFINITY;
            long double eps = 1e-9L * lt;
            if (eps < sep / 4) {
                CHECK(evalq(c0, c1, c2, lt - eps) < 0.0L);
                CHECK(evalq(c0, c1, c2, lt + eps) > 0.0L);
                checked++;
            }
        }
    }
    CHECK(checked > 10000);
}

/* roots_first_upcrossing_poly with degree <= 2 is the quadratic. */
static void test_poly_low_degree(void)
{
    for (int it = 0; it < 20000; it++) {
        double c[5];
        for (int k = 0; k < 3; k++)
            c[k] = ldexp(urand() - 0.5, (int)(urand() * 20) - 10);
        if (it % 7 == 0)
            c[0] = 0.0;
        if (it % 11 == 0)
            c[2] = 0.0;
        c[3] = c[4] = 0.0;
        double q = Q(c[0], c[1], c[2]);
        CHECK(roots_first_upcrossing_poly(c, 2) == q || (isinf(q) && isinf(roots_first_upcrossing_poly(c, 2))));
        double p4 = roots_first_upcrossing_poly(c, 4); /* zero top coefficients */
        CHECK(p4 == q || (isinf(q) && isinf(p4)));
    }
    double c1[2] = {-3.0, 1.5};
    CHECK(roots_first_upcrossing_poly(c1, 1) == 2.0);
    double c0[1] = {1.0};
    CHECK(isinf(roots_first_upcrossing_poly(c0, 0)));
}

/* Multiplies the polynomial a (degree da) by (x - r). */
static int mul_root(double *a, int da, double r)
{
    a[da + 1] = 0.0;
    for (int k = da + 1; k >= 0; k--)
        a[k] = (k > 0 ? a[k - 1] : 0.0) - r * a[k];
    return da + 1;
}

static void test_poly_known_roots(void)
{
    /* -(t-1)(t-2)(t-3)(t-4): below zero at 0, up through 1. */
    CHECK_REL(P(-24.0, 50.0, -35.0, 10.0, -1.0), 1.0, 1e-15);
    /* (t-1)(t-2)(t-3)(t-4): above zero falling; down at 1, up at 2. */
    CHECK_REL(P(24.0, -50.0, 35.0, -10.0, 1.0), 2.0, 1e-15);
    /* -(t-1)^2 (t-2)(t-3): a tangency from below at 1, then up at 2. */
    {
        double a[5] = {-1.0};
        int d = 0;
        d = mul_root(a, d, 1.0);
        d = mul_root(a, d, 1.0);
        d = mul_root(a, d, 2.0);
        d = mul_root(a, d, 3.0);
        CHECK(d == 4);
        CHECK_REL(roots_first_upcrossing_poly(a, 4), 2.0, 1e-15);
    }
    /* -(t-1)^2 (t^2 + 1): only a tangency: never. */
    CHECK(isinf(P(-1.0, 2.0, -2.0, 2.0, -1.0)));
    /* -(t-2)^4: a quadruple root from below, not a crossing. */
    CHECK(isinf(P(-16.0, 32.0, -24.0, 8.0, -1.0)));
    /* (t-2)^3 (t+1)... cubic sign change through a triple root:
     * h = (t-2)^3 goes up through 2. */
    {
        double c[4] = {-8.0, 12.0, -6.0, 1.0};
        CHECK_REL(roots_first_upcrossing_poly(c, 3), 2.0, 1e-5); /* triple root: ill-conditioned */
    }
    /* Roots all negative, leading coefficient negative: never. */
    CHECK(isinf(P(-24.0, -50.0, -35.0, -10.0, -1.0)));
    /* Above zero and rising: now. */
    CHECK(P(1.0, 1.0, -5.0, 0.0, -1.0) == 0.0);
    /* At zero, first nonzero coefficient positive (c2): now. */
    CHECK(P(0.0, 0.0, 1.0, -1.0, -1.0) == 0.0);
    /* At zero, falling: t(-1 + ...) -> -t (t-1)(t-2)(t+3)... h = -t(t - 1)(t - 2)(t - 3):
     * just after 0 it is negative ... up at 1. */
    {
        double a[5] = {-1.0};
        int d = 0;
        d = mul_root(a, d, 0.0);
        d = mul_root(a, d, 1.0);
        d = mul_root(a, d, 2.0);
        d = mul_root(a, d, 3.0);
        /* -t(t-1)(t-2)(t-3) = -(t^4 - 6t^3 + 11 t^2 - 6 t): at 0, c1 = 6 > 0: rising now. */
        CHECK(roots_first_upcrossing_poly(a, 4) == 0.0);
        for (int k = 0; k <= 4; k++)
            a[k] = -a[k];
        /* t(t-1)(t-2)(t-3): falling at 0, up at 1? No: negative on (0,1)?
         * t(t-1)(t-2)(t-3) at 0.5 = 0.5(-0.5)(-1.5)(-2.5) < 0, so up at 1. */
        CHECK_REL(roots_first_upcrossing_poly(a, 4), 1.0, 1e-15);
    }
    /* Random products of known roots, leading sign random: the answer is
     * the first root after which h is positive. */
    int tested = 0;
    for (int it = 0; it < 20000; it++) {
        int deg = 3 + (int)(urand() * 2);
        double r[4];
        for (int k = 0; k < deg; k++) {
            /* Well-separated roots: distinct integers/8 in [-8, 24). */
            int again;
            do {
                r[k] = floor(urand() * 256.0 - 64.0) / 8.0;
                again = 0;
                for (int m = 0; m < k; m++)
                    if (r[m] == r[k])
                        again = 1;
            } while (again);
        }
        double sign = urand() < 0.5 ? -1.0 : 1.0;
        double a[5] = {sign};
        int d = 0;
        for (int k = 0; k < deg; k++)
            d = mul_root(a, d, r[k]);
        /* Expected: sort the roots; the sign of h on each interval. */
        for (int k = 1; k < deg; k++)
            for (int m = k; m > 0 && r[m] < r[m - 1]; m--) {
                double tmp = r[m];
                r[m] = r[m - 1];
                r[m - 1] = tmp;
            }
        double expect = INFINITY;
        if (a[0] == 0.0)
            continue; /* root at 0: covered above */
        for (int k = 0; k < deg; k++) {
            if (r[k] <= 0.0)
                continue;
            /* Sign just above r[k]: leading sign times (-1)^(roots above). */
            int above = deg - 1 - k;
            double s_after = sign * ((above % 2) ? -1.0 : 1.0);
            if (a[0] >= 0.0 && k == 0) {
                /* positive at 0 ... handled uniformly below */
            }
            if (s_after > 0.0) {
                expect = r[k];
                break;
            }
        }
        /* Positive now and rising: 0. Rising iff c1 > 0 (simple roots). */
        if (a[0] > 0.0 && a[1] > 0.0)
            expect = 0.0;
        double t = roots_first_upcrossing_poly(a, d);
        if (isinf(expect)) {
            CHECK(isinf(t));
        } else if (expect == 0.0) {
            CHECK(t == 0.0);
        } else {
            /* Bisection is as good as the evaluation of h in double near
             * the root allows: error ~ eps * sum |c_k| t^k / |h'(t)|. */
            double mag = 0.0, slope = 0.0, tk = 1.0;
            for (int k = 0; k <= d; k++) {
                mag += fabs(a[k]) * tk;
                if (k < d)
                    slope += (k + 1) * a[k + 1] * tk;
                tk *= expect;
            }
            double tol = 8.0 * DBL_EPSILON * mag / fabs(slope) + 4.0 * DBL_EPSILON * expect;
            if (!(fabs(t - expect) <= tol)) {
                fprintf(stderr, "known roots: t = %.17g, expected %.17g (tol %g)\n", t, expect,
                        tol);
                check_failures++;
            }
        }
        tested++;
    }
    CHECK(tested > 15000);
}

/* A quartic that has the same real roots and signs as a quadratic q: the
 * product q(t) (1 + t^2/s^2) must give the quadratic's answer (for q < 0 at
 * the start, so that its minimum is not in play). */
static void test_poly_matches_quadratic(void)
{
    int tested = 0;
    for (int it = 0; it < 20000; it++) {
        double c0 = -ldexp(0.01 + urand(), (int)(urand() * 20) - 10);
        double c1 = ldexp(urand() - 0.3, (int)(urand() * 20) - 10);
        double c2 = ldexp(urand() - 0.5, (int)(urand() * 20) - 10);
        double s2 = ldexp(0.5 + urand(), (int)(urand() * 10) - 5);
        double q = Q(c0, c1, c2);
        double c[5] = {c0, c1, c2 + c0 / s2, c1 / s2, c2 / s2};
        double p = roots_first_upcrossing_poly(c, 4);
        if (isinf(q)) {
            /* Both infinite unless the quadratic is nearly tangent. */
            double disc = c1 * c1 - 4.0 * c0 * c2;
            if (fabs(disc) > 1e-6 * c1 * c1)
                CHECK(isinf(p));
        } else {
            CHECK_REL(p, q, 1e-10);
            tested++;
        }
    }
    CHECK(tested > 5000);
}

/* Physical quartics: a sphere falling under gravity g onto a fixed sphere
 * (infinite mass, no gravity). Relative position dr(t) = dr0 + dv t + a
 * t^2 / 2 with a = (0, -g). h = s^2 - |dr(t)|^2. */
static double gravity_pair(double x, double y, double vx, double vy, double g, double s)
{
    /* dr = position of the falling sphere relative to the fixed one,
     * dv its velocity, acceleration (0, -g): degree 4 in t. */
    double ax = 0.0, ay = -g;
    double c[5];
    c[0] = s * s - (x * x + y * y);
    c[1] = -2.0 * (x * vx + y * vy);
    c[2] = -(vx * vx + vy * vy + x * ax + y * ay);
    c[3] = -(vx * ax + vy * ay);
    c[4] = -0.25 * (ax * ax + ay * ay);
    return roots_first_upcrossing_poly(c, 4);
}

static void test_poly_gravity(void)
{
    /* Dropped from height 5 above the centre, contact distance 1: falls 4
     * in time sqrt(8). */
    CHECK_REL(gravity_pair(0.0, 5.0, 0.0, 0.0, 1.0, 1.0), sqrt(8.0), 1e-14);
    /* Offset by 0.6: contact at height 0.8, falls 4.2. */
    CHECK_REL(gravity_pair(0.6, 5.0, 0.0, 0.0, 1.0, 1.0), sqrt(8.4), 1e-14);
    /* Offset exactly 1 (grazing the side): a tangency along the way?
     * dr_x = 1 always, so |dr| >= 1 with equality at y = 0: tangency. */
    CHECK(isinf(gravity_pair(1.0, 5.0, 0.0, 0.0, 1.0, 1.0)));
    /* Offset a bit more: never. */
    CHECK(isinf(gravity_pair(1.0 + 1e-9, 5.0, 0.0, 0.0, 1.0, 1.0)));
    /* Offset a bit less: collides near y = 0, i.e. t ~ sqrt(10). */
    {
        double t = gravity_pair(1.0 - 1e-6, 5.0, 0.0, 0.0, 1.0, 1.0);
        CHECK(t < sqrt(10.0) && t > sqrt(10.0) - 1e-2);
    }
    /* Thrown up from beneath it: hits the bottom. Starts at y = -3 with
     * vy = 4, g = 1: reaches y = -1 when -3 + 4t - t^2/2 = -1, t = 4 - sqrt(12). */
    CHECK_REL(gravity_pair(0.0, -3.0, 0.0, 4.0, 1.0, 1.0), 4.0 - sqrt(12.0), 1e-13);
    /* Thrown up too slowly to reach it: vy = 1.9 reaches y = -3 + 1.805. */
    CHECK(isinf(gravity_pair(0.0, -3.0, 0.0, 1.9, 1.0, 1.0)));
    /* Thrown up to exactly touch its bottom (apex at y = -1): a tangency.
     * vy = 2 reaches height 2 above -3 exactly. */
    CHECK(isinf(gravity_pair(0.0, -3.0, 0.0, 2.0, 1.0, 1.0)));
    /* Huge and tiny gravity scales: t scales as 1/sqrt(g). */
    for (int e = -40; e <= 40; e += 8) {
        double g = ldexp(1.0, e);
        CHECK_REL(gravity_pair(0.0, 5.0, 0.0, 0.0, g, 1.0), sqrt(8.0 / g), 1e-13);
    }
    /* Touching and moving apart (falling away below): never. */
    CHECK(isinf(gravity_pair(0.0, -1.0, 0.0, -1.0, 1.0, 1.0)));
    /* Resting on top of it (touching, no speed, gravity pulls in): now. */
    CHECK(gravity_pair(0.0, 1.0, 0.0, 0.0, 1.0, 1.0) == 0.0);
    /* Touching on top, moving up: rises, falls back, hits again at 2 vy / g. */
    CHECK_REL(gravity_pair(0.0, 1.0, 0.0, 3.0, 1.0, 1.0), 6.0, 1e-13);
}

/* Near tangencies the answer must move continuously: as the offset of a
 * head-on pair approaches the grazing distance from below, the collision
 * time approaches the tangency time from below, and beyond it there is
 * none. */
static void test_near_tangency(void)
{
    double prev = 0.0;
    for (int e = 2; e <= 26; e += 2) {
        double y = 1.0 - ldexp(1.0, -e); /* impact parameter just below contact */
        double t = Q(1.0 - (25.0 + y * y), 10.0, -1.0);
        double expect = 5.0 - sqrt((1.0 - y) * (1.0 + y)); /* cancellation-free */
        CHECK_REL(t, expect, 1e-12);
        CHECK(t > prev && t < 5.0);
        prev = t;
        CHECK(isinf(Q(1.0 - (25.0 + (2.0 - y) * (2.0 - y)), 10.0, -1.0)));
        /* Same through the quartic (infinite-mass partner, no gravity). */
        double c[5] = {1.0 - (25.0 + y * y), 10.0, -1.0, 0.0, 0.0};
        CHECK_REL(roots_first_upcrossing_poly(c, 4), t, 1e-12);
    }
}

int main(void)
{
    test_quadratic_pairs();
    test_quadratic_linear();
    test_quadratic_convex();
    test_quadratic_scales();
    test_quadratic_cancellation();
    test_quadratic_random();
    test_poly_low_degree();
    test_poly_known_roots();
    test_poly_matches_quadratic();
    test_poly_gravity();
    test_near_tangency();
    return CHECK_REPORT();
}
