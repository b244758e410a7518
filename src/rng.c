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

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void rng_seed(rng *r, uint64_t seed)
{
    uint64_t state = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&state);
    r->has_spare = 0;
    r->spare_normal = 0.0;
}

uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
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
