/* Angle helpers and vectors (src/core/vec.h). */
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/vec.h"

TEST(norm_range)
{
    for (int k = -1000; k <= 1000; k++) {
        double a = k * 0.37;
        double n = angle_norm(a);
        check_num(n, >, -M_PI);
        check_num(n, <=, M_PI);
        /* Same direction as before. */
        check_near(cos(n), cos(a), 1e-9);
        check_near(sin(n), sin(a), 1e-9);
    }
}

TEST(norm_edges)
{
    check_num(angle_norm(M_PI), ==, M_PI);
    check_num(angle_norm(-M_PI), ==, M_PI);          /* (-pi, pi] */
    check_near(angle_norm(3 * M_PI), M_PI, 1e-12);
    check_near(angle_norm(1e9), angle_norm(fmod(1e9, 2 * M_PI)), 1e-6);
    check_num(angle_norm(0), ==, 0);
}

/* angle_norm as remainder() gives it, bit for bit (its shortcut must not
 * move a trace): near every edge of its shortcut, a few ulps either side,
 * and at random over a few turns and over a million. */
static double norm_by_remainder(double a)
{
    double r = remainder(a, 2.0 * M_PI);
    if (r <= -M_PI)
        r += 2.0 * M_PI;
    return r;
}

TEST(norm_is_remainders)
{
    const double T = 2 * M_PI;
    const double edges[] = { M_PI, -M_PI, T, -T, 1.5 * T, -1.5 * T, 2 * T, -2 * T,
                             3 * M_PI, -3 * M_PI, 0, -0.0, 4 * M_PI, -4 * M_PI };
    long differ = 0, n = 0;
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
        for (int side = -1; side <= 1; side += 2)
            for (double a = edges[e], k = 0; k < 300; k++, a = nextafter(a, side * INFINITY), n++) {
                double x = angle_norm(a), y = norm_by_remainder(a);
                differ += memcmp(&x, &y, sizeof x) != 0;
            }
    uint64_t s = 88172645463325252u;
    for (long i = 0; i < 3000000; i++, n++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double u = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
        double a = u * (i % 3 == 0 ? 30 : i % 3 == 1 ? 13 : 1e6);
        double x = angle_norm(a), y = norm_by_remainder(a);
        differ += memcmp(&x, &y, sizeof x) != 0;
    }
    check_int(differ, ==, 0);
    check_int(n, >, 3000000);
}

TEST(diff)
{
    check_near(angle_diff(deg2rad(10), deg2rad(350)), deg2rad(20), 1e-12);
    check_near(angle_diff(deg2rad(350), deg2rad(10)), deg2rad(-20), 1e-12);
    check_near(rad2deg(angle_diff(deg2rad(-170), deg2rad(170))), 20, 1e-9);
}

TEST(cross_is_right_of)
{
    /* y points down: +y is clockwise of +x, i.e. to the right of it. */
    check_num(v2_cross(v2(1, 0), v2(0, 1)), >, 0);
    check_num(v2_cross(v2(1, 0), v2(0, -1)), <, 0);
    check_near(v2_len(v2_norm(v2(3, 4))), 1, 1e-15);
    check_num(v2_len(v2_norm(v2(0, 0))), ==, 0);
}

int main(void)
{
    run(norm_range, "angle_norm lands in (-pi, pi] and keeps the direction");
    run(norm_edges, "angle_norm at pi, -pi, multiples and huge values");
    run(norm_is_remainders, "angle_norm = remainder()'s, bit for bit, at its edges and at random");
    run(diff, "angle_diff takes the short way round");
    run(cross_is_right_of, "the cross product's sign with y pointing down");
    return tap_done();
}
