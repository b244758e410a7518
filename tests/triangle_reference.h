/* The tests' own point of a triangle nearest x, and the distance to it
 * (test_triangles, test_triangles_driven): by the regions of the
 * triangle's plane (corners, edges, inside), from barycentric dot
 * products, independent of the library's construction (the foot on the
 * plane, inward normals, clamped edges). */
#ifndef CAROM_TEST_TRIANGLE_REFERENCE_H
#define CAROM_TEST_TRIANGLE_REFERENCE_H

#include <math.h>
#include <string.h>

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void lerp3(double out[3], const double a[3], const double d[3], double s)
{
    for (int k = 0; k < 3; k++)
        out[k] = a[k] + s * d[k];
}

static void nearest_on_triangle(const double p[3][3], const double x[3], double q[3])
{
    double ab[3], ac[3], ax[3], bx[3], cx[3];
    for (int k = 0; k < 3; k++) {
        ab[k] = p[1][k] - p[0][k];
        ac[k] = p[2][k] - p[0][k];
        ax[k] = x[k] - p[0][k];
        bx[k] = x[k] - p[1][k];
        cx[k] = x[k] - p[2][k];
    }
    double d1 = dot3(ab, ax), d2 = dot3(ac, ax);
    if (d1 <= 0.0 && d2 <= 0.0) {
        memcpy(q, p[0], 3 * sizeof *q);
        return;
    }
    double d3 = dot3(ab, bx), d4 = dot3(ac, bx);
    if (d3 >= 0.0 && d4 <= d3) {
        memcpy(q, p[1], 3 * sizeof *q);
        return;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        lerp3(q, p[0], ab, d1 / (d1 - d3));
        return;
    }
    double d5 = dot3(ab, cx), d6 = dot3(ac, cx);
    if (d6 >= 0.0 && d5 <= d6) {
        memcpy(q, p[2], 3 * sizeof *q);
        return;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        lerp3(q, p[0], ac, d2 / (d2 - d6));
        return;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        double bc[3] = {p[2][0] - p[1][0], p[2][1] - p[1][1], p[2][2] - p[1][2]};
        lerp3(q, p[1], bc, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
        return;
    }
    double denom = 1.0 / (va + vb + vc), v = vb * denom, w = vc * denom;
    for (int k = 0; k < 3; k++)
        q[k] = p[0][k] + ab[k] * v + ac[k] * w;
}

static double distance_to_triangle(const double p[3][3], const double x[3])
{
    double q[3];
    nearest_on_triangle(p, x, q);
    double d[3] = {x[0] - q[0], x[1] - q[1], x[2] - q[2]};
    return sqrt(dot3(d, d));
}

#endif
