/* vec.h — 2-D vectors and angle helpers for the simulation core.
 *
 * World axes: x grows right, y grows down, so an angle measured with
 * atan2(dy, dx) grows clockwise on screen; 0 points along +x.  All angles
 * inside the program are radians.  Everything here is inline and pure. */
#ifndef BOTFIELD_VEC_H
#define BOTFIELD_VEC_H

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct { double x, y; } vec2;

static inline vec2 v2(double x, double y) { vec2 r = { x, y }; return r; }
static inline vec2 v2_add(vec2 a, vec2 b) { return v2(a.x + b.x, a.y + b.y); }
static inline vec2 v2_sub(vec2 a, vec2 b) { return v2(a.x - b.x, a.y - b.y); }
static inline vec2 v2_scale(vec2 a, double s) { return v2(a.x * s, a.y * s); }
static inline double v2_dot(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }
/* z of the 3-D cross product: > 0 when b is clockwise of a on screen
 * (y down), i.e. b is to the right of a. */
static inline double v2_cross(vec2 a, vec2 b) { return a.x * b.y - a.y * b.x; }
static inline double v2_len2(vec2 a) { return a.x * a.x + a.y * a.y; }
static inline double v2_len(vec2 a) { return sqrt(v2_len2(a)); }
static inline double v2_dist(vec2 a, vec2 b) { return v2_len(v2_sub(a, b)); }
static inline double v2_dist2(vec2 a, vec2 b) { return v2_len2(v2_sub(a, b)); }
static inline vec2 v2_dir(double angle) { return v2(cos(angle), sin(angle)); }
static inline double v2_angle(vec2 a) { return atan2(a.y, a.x); }
static inline vec2 v2_perp(vec2 a) { return v2(-a.y, a.x); }
static inline vec2 v2_norm(vec2 a)
{
    double l = v2_len(a);
    return l > 0 ? v2_scale(a, 1.0 / l) : v2(0, 0);
}

/* An angle normalised to (-pi, pi], the article's CheckAngle done with
 * remainder() instead of a loop so huge inputs cost the same.  Most
 * angles are at most a turn out: those skip the libm call, to the same
 * double (remainder(a, 2 pi) is a - n 2 pi exactly, n the nearest integer
 * to a / 2 pi, ties to even; a - 2 pi is exact for a in [pi, 4 pi]
 * (Sterbenz); a quotient's tie at 1.5 turns is left to remainder). */
static inline double angle_norm(double a)
{
    const double turn = 2.0 * M_PI;
    if (a > -M_PI && a <= M_PI)
        return a;
    if (a > M_PI && a <= 2 * turn && a - turn < M_PI)
        return a - turn;
    if (a < -M_PI && a >= -2 * turn && a + turn > -M_PI && a != -turn)
        return a + turn;                /* (-2 pi: remainder's -0, not +0) */
    double r = remainder(a, turn);      /* in [-pi, pi] */
    if (r <= -M_PI)
        r += turn;
    return r;
}

/* Signed smallest difference to - from, in (-pi, pi]. */
static inline double angle_diff(double to, double from)
{
    return angle_norm(to - from);
}

static inline double deg2rad(double d) { return d * (M_PI / 180.0); }
static inline double rad2deg(double r) { return r * (180.0 / M_PI); }

static inline double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

#endif
