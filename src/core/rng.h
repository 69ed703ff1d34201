/* rng.h — the seeded random generator of the core (PCG32, O'Neill 2014).
 *
 * Never rand(): results must be the same on every libc.  A world owns one
 * generator for loading (placement) and every vehicle owns a stream of its
 * own, so the order in which vehicles decide never changes what they draw. */
#ifndef BOTFIELD_RNG_H
#define BOTFIELD_RNG_H

#include <stdint.h>

struct rng { uint64_t state, inc; };

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint32_t rng_u32(struct rng *r);
/* Uniform in [0, 1), 53 random bits. */
double rng_unit(struct rng *r);
/* Uniform in [lo, hi). */
double rng_range(struct rng *r, double lo, double hi);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint32_t rng_below(struct rng *r, uint32_t n);

#endif
