/* The seeded generator (src/core/rng.c). */
#include "../lib/tap.h"
#include "core/rng.h"

TEST(same_seed_same_stream)
{
    struct rng a, b;
    rng_seed(&a, 42, 1);
    rng_seed(&b, 42, 1);
    int same = 1;
    for (int i = 0; i < 1000; i++)
        same &= rng_u32(&a) == rng_u32(&b);
    check(same);
}

TEST(other_seed_or_stream_differs)
{
    struct rng a, b, c;
    rng_seed(&a, 42, 1);
    rng_seed(&b, 43, 1);
    rng_seed(&c, 42, 2);
    int diff_b = 0, diff_c = 0;
    for (int i = 0; i < 100; i++) {
        uint32_t x = rng_u32(&a);
        diff_b += x != rng_u32(&b);
        diff_c += x != rng_u32(&c);
    }
    check_int(diff_b, >, 90);
    check_int(diff_c, >, 90);
}

TEST(known_values)
{
    /* PCG32's reference output for seed 42, stream 54 (pcg32-demo). */
    struct rng r;
    rng_seed(&r, 42, 54);
    check_int(rng_u32(&r), ==, 0xa15c02b7u);
    check_int(rng_u32(&r), ==, 0x7b47f409u);
    check_int(rng_u32(&r), ==, 0xba1d3330u);
}

TEST(unit_and_below)
{
    struct rng r;
    rng_seed(&r, 7, 1);
    double sum = 0, lo = 1, hi = 0;
    int counts[10] = { 0 };
    for (int i = 0; i < 100000; i++) {
        double u = rng_unit(&r);
        sum += u;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
        counts[rng_below(&r, 10)]++;
    }
    check_num(lo, >=, 0);
    check_num(hi, <, 1);
    check_near(sum / 100000, 0.5, 0.01);
    for (int k = 0; k < 10; k++)
        check_near(counts[k], 10000, 500);
}

int main(void)
{
    run(same_seed_same_stream, "the same seed gives the same numbers");
    run(other_seed_or_stream_differs, "another seed or stream gives others");
    run(known_values, "PCG32 reference values");
    run(unit_and_below, "rng_unit in [0,1) with mean 1/2; rng_below uniform");
    return tap_done();
}
