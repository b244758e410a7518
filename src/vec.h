/* Small fixed-size vector helpers. Vectors are double[3] in 2D and 3D
 * alike; in 2D the z components stay 0, so the 3-component formulas are
 * exact for both. */
#ifndef CAROM_VEC_H
#define CAROM_VEC_H

static inline double vec_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void vec_copy(double out[3], const double a[3])
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

static inline void vec_sub(double out[3], const double a[3], const double b[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

/* a x b; out must not be a or b. */
static inline void vec_cross(double out[3], const double a[3], const double b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

#endif
