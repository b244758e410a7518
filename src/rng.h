/* A small seedable pseudo-random generator for scene generation.
 *
 * Contract: xoshiro256** seeded through splitmix64, so any 64-bit seed
 * (including 0) gives a well-mixed state. All state lives in the struct:
 * no globals, and the same seed always gives the same sequence on every
 * platform. Not for cryptography.
 */
#ifndef CAROM_RNG_H
#define CAROM_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
    double spare_normal; /* second deviate of the last Box-Muller pair */
    int has_spare;
} rng;

void rng_seed(rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The next 64 random bits (inline: drivers draw from it at every change
 * of a driven sphere's acceleration). */
static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, 1), 53 random bits. */
static inline double rng_uniform(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
/* Uniform in [a, b). */
double rng_uniform_range(rng *r, double a, double b);
/* Standard normal deviate (mean 0, variance 1). */
double rng_normal(rng *r);
/* Uniformly distributed unit vector in dim (2 or 3) dimensions; the
 * unused z component is 0 in 2D. */
void rng_unit_vector(rng *r, int dim, double out[3]);

#endif
