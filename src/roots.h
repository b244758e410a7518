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

/* h(tau) = c0 + c1 tau + c2 tau^2. */
double roots_first_upcrossing_quadratic(double c0, double c1, double c2);

/* h(tau) = sum_k c[k] tau^k, degree <= 4. For degree <= 2 this agrees with
 * roots_first_upcrossing_quadratic. Roots are isolated between the real
 * roots of the derivative (found recursively) and refined by bisection
 * to full double precision. */
double roots_first_upcrossing_poly(const double *c, int degree);

#endif
