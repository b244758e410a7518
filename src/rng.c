/* xoshiro256** with splitmix64 seeding; contract in rng.h. */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
    uint64_t state = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&state);
    r->has_spare = 0;
    r->spare_normal = 0.0;
}

double rng_uniform_range(rng *r, double a, double b)
{
    return a + (b - a) * rng_uniform(r);
}

double rng_normal(rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare_normal;
    }
    /* Box-Muller; 1 - u lies in (0, 1], so the logarithm is finite. */
    double u1 = 1.0 - rng_uniform(r);
    double u2 = rng_uniform(r);
    double rad = sqrt(-2.0 * log(u1));
    double angle = 2.0 * 3.14159265358979323846 * u2;
    r->spare_normal = rad * sin(angle);
    r->has_spare = 1;
    return rad * cos(angle);
}

void rng_unit_vector(rng *r, int dim, double out[3])
{
    if (dim == 2) {
        double angle = 2.0 * 3.14159265358979323846 * rng_uniform(r);
        out[0] = cos(angle);
        out[1] = sin(angle);
        out[2] = 0.0;
        return;
    }
    /* Uniform on the sphere: z uniform in [-1, 1], azimuth uniform. */
    double z = 2.0 * rng_uniform(r) - 1.0;
    double rho = sqrt(fmax(0.0, 1.0 - z * z));
    double angle = 2.0 * 3.14159265358979323846 * rng_uniform(r);
    out[0] = rho * cos(angle);
    out[1] = rho * sin(angle);
    out[2] = z;
}
