#include "rng.h"

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
    r->state = 0;
    r->inc = (stream << 1u) | 1u;
    rng_u32(r);
    r->state += seed;
    rng_u32(r);
}

uint32_t rng_u32(struct rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

double rng_unit(struct rng *r)
{
    uint64_t hi = rng_u32(r) >> 5, lo = rng_u32(r) >> 6;   /* 27 + 26 bits */
    return (double)(hi * 67108864u + lo) * (1.0 / 9007199254740992.0);
}

double rng_range(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_unit(r);
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
    /* Lemire's rejection: the threshold removes the biased low values. */
    uint32_t threshold = (uint32_t)(-n) % n;
    for (;;) {
        uint32_t x = rng_u32(r);
        if (x >= threshold)
            return x % n;
    }
}
