/* Robust root finding for event times; contract in roots.h. */
#include "roots.h"

#include <float.h>
#include <math.h>

static double poly_eval(const double *c, int degree, double x)
{
    double v = c[degree];
    for (int k = degree - 1; k >= 0; k--)
        v = v * x + c[k];
    return v;
}

/* p(x), or 0 when its magnitude is within the round-off of evaluating it
 * (so that a maximum touching zero, a tangency, reads as exactly zero). */
static double poly_eval_clean(const double *c, int degree, double x)
{
    double v = c[degree], bound = fabs(c[degree]), ax = fabs(x);
    for (int k = degree - 1; k >= 0; k--) {
        v = v * x + c[k];
        bound = bound * ax + fabs(c[k]);
    }
    return fabs(v) <= 8.0 * DBL_EPSILON * bound ? 0.0 : v;
}

/* The sign change of p on [a, b], where p(a) and p(b) have opposite
 * signs (p(b) may be 0): the Illinois variant of regula falsi, which keeps
 * the root bracketed and converges superlinearly, with a bisection step
 * whenever three interpolations together fail to shrink the bracket by
 * half (so the bracket at least halves every four evaluations; checking
 * after every interpolation instead would bisect at almost every step,
 * since regula falsi closes in from one end). Returns the end of the
 * final bracket on b's side (so for p(a) < 0 <= p(b), a point where
 * p >= 0), once the bracket is as narrow as doubles allow. */
#define REFINE_WINDOW 3
static double refine(const double *c, int degree, double a, double b)
{
    double fa = poly_eval(c, degree, a), fb = poly_eval(c, degree, b);
    int side = 0; /* which end was kept last: halve its value (Illinois) */
    double checkpoint = b - a;
    for (int it = 1; it <= 4 * 200; it++) {
        double m = 0.5 * (a + b);
        if (m <= a || m >= b)
            break;
        double x = fb - fa != 0.0 ? b - fb * (b - a) / (fb - fa) : m;
        if (!(x > a && x < b))
            x = m;
        double fx = poly_eval(c, degree, x);
        if (fx == 0.0) {
            /* On the root: the end on b's side becomes it. */
            b = x;
            break;
        }
        if ((fx < 0.0) == (fa < 0.0)) {
            a = x;
            fa = fx;
            if (side == -1)
                fb *= 0.5;
            side = -1;
        } else {
            b = x;
            fb = fx;
            if (side == 1)
                fa *= 0.5;
            side = 1;
        }
        if (it % REFINE_WINDOW != 0)
            continue;
        if (b - a > 0.5 * checkpoint) {
            /* Slow: bisect once. */
            m = 0.5 * (a + b);
            if (m <= a || m >= b)
                break;
            double fm = poly_eval(c, degree, m);
            if (fm == 0.0) {
                b = m;
                break;
            }
            if ((fm < 0.0) == (fa < 0.0)) {
                a = m;
                fa = fm;
            } else {
                b = m;
                fb = fm;
            }
            side = 0;
        }
        checkpoint = b - a;
    }
    return b;
}

/* Cauchy bound on the magnitude of the real roots. */
static double root_bound(const double *c, int degree)
{
    double m = 0.0;
    for (int k = 0; k < degree; k++) {
        double r = fabs(c[k] / c[degree]);
        if (r > m)
            m = r;
    }
    return 1.0 + m;
}

/* Sorted roots in (0, limit) of the polynomial c of the given degree
 * (<= 4): points where it changes sign. Works up from the highest
 * derivative: the roots of p^(k) split (0, limit) into pieces on which
 * p^(k-1) is monotone, so each piece holds at most one of its roots. */
static int poly_roots_in(const double *c, int degree, double limit, double *out)
{
    double deriv[5][5]; /* deriv[k] = k-th derivative, degree - k */
    for (int k = 0; k <= degree; k++)
        deriv[0][k] = c[k];
    for (int order = 1; order <= degree; order++)
        for (int k = 0; k <= degree - order; k++)
            deriv[order][k] = (k + 1) * deriv[order - 1][k + 1];
    double roots[5];
    int nroots = 0; /* roots of the derivative one order up */
    for (int order = degree - 1; order >= 0; order--) {
        const double *p = deriv[order];
        int deg = degree - order;
        double knots[6];
        int nk = 0;
        knots[nk++] = 0.0;
        for (int k = 0; k < nroots; k++)
            knots[nk++] = roots[k];
        knots[nk++] = limit;
        int n = 0;
        double found[5];
        for (int k = 0; k + 1 < nk; k++) {
            double a = knots[k], b = knots[k + 1];
            double fa = poly_eval(p, deg, a), fb = poly_eval(p, deg, b);
            if (fb == 0.0 && b < limit)
                found[n++] = b;
            else if ((fa < 0.0 && fb > 0.0) || (fa > 0.0 && fb < 0.0))
                found[n++] = refine(p, deg, a, b);
        }
        for (int k = 0; k < n; k++)
            roots[k] = found[k];
        nroots = n;
    }
    for (int k = 0; k < nroots; k++)
        out[k] = roots[k];
    return nroots;
}

/* What the signs of p on (0, limit) can be told cheaply from its
 * coefficients in the Bernstein basis of [0, limit] (p(0) < 0): the
 * number of roots there is at most the number of sign changes of those
 * coefficients, and has the same parity. BELOW: every coefficient is
 * negative (by more than their round-off), so p stays below zero: no
 * crossing; ONE_CROSSING: one sign change and p(limit) > 0, so p crosses
 * zero exactly once, going up; UNKNOWN otherwise. */
enum { SIGNS_UNKNOWN, SIGNS_BELOW, SIGNS_ONE_CROSSING };
static int bernstein_signs(const double *c, int degree, double limit)
{
    static const double inverse_binomial[5][5] = {{1.0},
                                                  {1.0, 1.0},
                                                  {1.0, 0.5, 1.0},
                                                  {1.0, 1.0 / 3.0, 1.0 / 3.0, 1.0},
                                                  {1.0, 0.25, 1.0 / 6.0, 0.25, 1.0}};
    static const double binomial[5][5] = {
        {1.0}, {1.0, 1.0}, {1.0, 2.0, 1.0}, {1.0, 3.0, 3.0, 1.0}, {1.0, 4.0, 6.0, 4.0, 1.0}};
    double a[5], scale = 1.0, size = 0.0;
    for (int k = 0; k <= degree; k++) {
        a[k] = c[k] * scale * inverse_binomial[degree][k];
        size += fabs(c[k] * scale);
        scale *= limit;
    }
    if (!(size < INFINITY))
        return SIGNS_UNKNOWN; /* limit^degree overflows */
    double tol = 32.0 * DBL_EPSILON * size;
    int changes = 0, negative = 1;
    for (int i = 0; i <= degree; i++) {
        double b = 0.0;
        for (int k = 0; k <= i; k++)
            b += binomial[i][k] * a[k];
        if (!(fabs(b) > tol))
            return SIGNS_UNKNOWN; /* too close to zero to tell */
        if ((b < 0.0) != negative) {
            changes++;
            negative = b < 0.0;
        }
    }
    if (changes == 0)
        return SIGNS_BELOW;
    return changes == 1 ? SIGNS_ONE_CROSSING : SIGNS_UNKNOWN;
}

double roots_first_upcrossing_poly(const double *c, int degree)
{
    return roots_first_upcrossing_poly_before(c, degree, INFINITY);
}

double roots_first_upcrossing_poly_before(const double *c_in, int degree, double horizon)
{
    double c[5];
    for (int k = 0; k <= degree; k++)
        c[k] = c_in[k];
    while (degree > 0 && c[degree] == 0.0)
        degree--;
    if (degree <= 2) {
        double t = roots_first_upcrossing_quadratic(c[0], degree >= 1 ? c[1] : 0.0,
                                                    degree >= 2 ? c[2] : 0.0);
        return t <= horizon ? t : INFINITY;
    }
    /* Behaviour at tau = 0: the sign of the first nonzero coefficient. */
    if (c[0] >= 0.0) {
        for (int k = 1; k <= degree; k++) {
            if (c[k] > 0.0)
                return 0.0;
            if (c[k] < 0.0)
                break;
        }
    }
    double limit = root_bound(c, degree);
    if (horizon < limit)
        limit = horizon;
    if (!(limit > 0.0))
        return INFINITY;
    if (c[0] < 0.0 && limit < INFINITY) {
        /* Most often the signs tell it all, without the derivative. */
        int signs = bernstein_signs(c, degree, limit);
        if (signs == SIGNS_BELOW)
            return INFINITY;
        if (signs == SIGNS_ONE_CROSSING)
            return refine(c, degree, 0.0, limit);
    }
    /* Monotone pieces of h on [0, limit]: knots at the real roots of h'. */
    double d[4];
    for (int k = 1; k <= degree; k++)
        d[k - 1] = k * c[k];
    double ext[4];
    int ne = poly_roots_in(d, degree - 1, limit, ext);
    double a = 0.0;
    double fa = c[0];
    for (int k = 0; k <= ne; k++) {
        double b = k < ne ? ext[k] : limit;
        double fb = k < ne ? poly_eval_clean(c, degree, b) : poly_eval(c, degree, b);
        if (fb > fa) { /* a rising piece */
            if (fa >= 0.0)
                return a; /* at or above zero and rising */
            if (fb > 0.0 || (fb == 0.0 && k == ne))
                return refine(c, degree, a, b);
            /* fb == 0 at a maximum: a tangency from below, not a crossing */
        }
        a = b;
        fa = fb;
    }
    return INFINITY;
}
