/* Robust root finding for event times.
 *
 * Contract: every function returns the earliest time tau >= 0 at which a
 * polynomial h(tau) crosses zero going UP (from negative to positive), or
 * INFINITY if it never does. "Already at or above zero and rising" counts
 * as a crossing at tau = 0; "at or above zero and not rising" does not
 * (that is how touching spheres moving apart never collide again, and how
 * a sphere exactly on a face moving back into its cell stays there).
 * Roots are computed in forms free of cancellation; no root is lost at a
 * double root or a tangency (a tangency, h touching 0 from below without
 * crossing, is not a crossing).
 */
#ifndef CAROM_ROOTS_H
#define CAROM_ROOTS_H

#include <math.h>

/* h(tau) = c0 + c1 tau + c2 tau^2. Inline: it is on the pair loop's path. */
static inline double roots_first_upcrossing_quadratic(double c0, double c1, double c2)
{
    if (c0 >= 0.0) {
        /* At or above zero now. */
        if (c1 > 0.0 || (c1 == 0.0 && c2 > 0.0))
            return 0.0;
        if (c2 <= 0.0)
            return INFINITY; /* falling or flat, and concave: never comes back up */
        /* Falling now, convex: it comes back up at the larger root. */
        double disc = c1 * c1 - 4.0 * c2 * c0;
        if (disc <= 0.0)
            return -c1 / (2.0 * c2); /* never dips below zero: rising again from
                                        its minimum, still at or above zero */
        return (-c1 + sqrt(disc)) / (2.0 * c2); /* c1 <= 0: no cancellation */
    }
    /* Below zero now. */
    if (c2 == 0.0)
        return c1 > 0.0 ? -c0 / c1 : INFINITY;
    double disc = c1 * c1 - 4.0 * c2 * c0;
    if (disc < 0.0)
        return INFINITY;
    double sq = sqrt(disc);
    double q = -0.5 * (c1 + (c1 >= 0.0 ? sq : -sq));
    /* The two roots are q/c2 and c0/q (q != 0 since c0 != 0). */
    double r1 = q / c2, r2 = c0 / q;
    double lo = r1 < r2 ? r1 : r2, hi = r1 < r2 ? r2 : r1;
    if (c2 > 0.0) {
        /* Roots of opposite signs; upcrossing at the larger. */
        return hi >= 0.0 ? hi : INFINITY;
    }
    /* c2 < 0: h rises through the smaller root, falls through the larger.
     * Both roots share a sign; a double root is a tangency, not a crossing. */
    if (disc == 0.0 || lo < 0.0)
        return INFINITY;
    return lo;
}

/* h(tau) = sum_k c[k] tau^k, degree <= 4. For degree <= 2 this agrees with
 * roots_first_upcrossing_quadratic. When the signs of h's coefficients in
 * the Bernstein basis of the search interval show that h stays below zero
 * or crosses zero once, that is the answer; otherwise roots are isolated
 * between the real roots of the derivative (found recursively). Roots are
 * refined to full double precision by a bracketing method (Illinois
 * regula falsi with bisection steps). */
double roots_first_upcrossing_poly(const double *c, int degree);
/* The same, but only crossings at or before horizon count (INFINITY if
 * none): a shorter search when later crossings do not matter. */
double roots_first_upcrossing_poly_before(const double *c, int degree, double horizon);

/* A contact time tau of a centre at offset y(t) = d + u t + a t^2 from a
 * point, refined by Newton steps on sigma^2 - |y|^2 about y(tau) itself:
 * the polynomial in t from the start sums terms of size |d|^2 to get one
 * of size sigma^2, so its root loses digits as (|d| / sigma)^2 (a disk
 * of radius 1e-4 dropped 80 onto a segment's end met it 3.7e-5 of its
 * radius deep). Steps larger than a millionth of tau (a tangency, where
 * Newton is no help) are not taken; nor any where y does not approach. */
static inline double roots_polish_contact(const double d[3], const double u[3],
                                          const double a[3], double sigma, double tau)
{
    for (int step = 0; step < 2 && tau > 0.0; step++) {
        double yy = 0.0, yv = 0.0;
        for (int k = 0; k < 3; k++) {
            double y = d[k] + tau * (u[k] + a[k] * tau), v = u[k] + 2.0 * a[k] * tau;
            yy += y * y;
            yv += y * v;
        }
        double dist = sqrt(yy), h = (sigma - dist) * (sigma + dist), rising = -2.0 * yv;
        if (!(rising > 0.0))
            break;
        double dt = -h / rising;
        if (!(fabs(dt) <= 1e-6 * tau))
            break;
        tau += dt;
    }
    return tau;
}

#endif
