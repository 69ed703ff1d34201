/* scene-rng.h — the sight tests' small deterministic generator (xorshift64):
 * the same scenes on every run and machine.  A test defines TEST_RNG_SEED
 * before including it to draw its own sequence. */
#ifndef BOTFIELD_SCENE_RNG_H
#define BOTFIELD_SCENE_RNG_H

#include <stdint.h>

#ifndef TEST_RNG_SEED
#define TEST_RNG_SEED 0x9e3779b97f4a7c15u
#endif

static uint64_t seed = TEST_RNG_SEED;

/* Uniform in [0, 1), 53 bits. */
static inline double rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (double)(seed >> 11) / 9007199254740992.0;
}

/* Uniform in [a, b). */
static inline double rr(double a, double b) { return a + (b - a) * rnd(); }

#endif
