/* Angle helpers and vectors (src/core/vec.h). */
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
    run(diff, "angle_diff takes the short way round");
    run(cross_is_right_of, "the cross product's sign with y pointing down");
    return tap_done();
}
