/* race-bound.c — see race-bound.h.  Written apart from the core's speed
 * rules on purpose: it is the yardstick they are measured against. */
#include <math.h>
#include <stdlib.h>

#include "race-bound.h"
#include "core/world.h"

/* The arc tangent to legs meeting at deflection phi, passing within R of
 * the corner: its middle lies rho (1/cos(phi/2) - 1) from the corner, so
 * rho = R cos(phi/2) / (1 - cos(phi/2)); the motion model drives a radius
 * rho at v = 2 rho sin(turn_rate dt / 2) / dt. */
static double corner_cap(vec2 a, vec2 b, vec2 c, double reach,
                         const struct vehicle_params *p, double dt)
{
    double phi = fabs(angle_diff(v2_angle(v2_sub(c, b)), v2_angle(v2_sub(b, a))));
    double h = cos(phi / 2);
    if (1 - h < 1e-12)
        return p->max_speed;
    double rho = reach * h / (1 - h);
    double v = 2 * rho * sin(p->turn_rate * dt / 2) / dt;
    return v < p->max_speed ? v : p->max_speed;
}

double race_bound_lap(const struct waypoint *wp, int n,
                      const struct vehicle_params *p, double dt, double step)
{
    if (n < 2)
        return 0;
    /* Samples: each leg cut into pieces of at most `step`; sample k starts
     * piece k, of length len[k]; a leg's first sample is its corner. */
    size_t m = 0;
    for (int i = 0; i < n; i++)
        m += (size_t)ceil(v2_dist(wp[i].c, wp[(i + 1) % n].c) / step);
    double *cap = malloc(m * sizeof *cap), *len = malloc(m * sizeof *len);
    double *v = malloc(m * sizeof *v);
    if (!cap || !len || !v) {
        free(cap); free(len); free(v);
        return NAN;
    }
    size_t k = 0, lo = 0;
    for (int i = 0; i < n; i++) {
        double leg = v2_dist(wp[i].c, wp[(i + 1) % n].c);
        size_t pieces = (size_t)ceil(leg / step);
        for (size_t j = 0; j < pieces; j++, k++) {
            cap[k] = j == 0 ? corner_cap(wp[(i + n - 1) % n].c, wp[i].c,
                                         wp[(i + 1) % n].c, wp[i].r + p->radius, p, dt)
                            : p->max_speed;
            len[k] = leg / pieces;
            if (cap[k] < cap[lo])
                lo = k;
        }
    }
    /* Cyclic passes start at the slowest corner, where the speed is known. */
    for (k = 0; k < m; k++)
        v[k] = cap[k];
    for (size_t t = 0; t < m; t++) {
        size_t a = (lo + t) % m, b = (a + 1) % m;
        double up = sqrt(v[a] * v[a] + 2 * p->accel * len[a]);
        if (up < v[b])
            v[b] = up;
    }
    for (size_t t = 0; t < m; t++) {
        size_t b = (lo + m - t) % m, a = (b + m - 1) % m;
        double down = sqrt(v[b] * v[b] + 2 * p->brake * len[a]);
        if (down < v[a])
            v[a] = down;
    }
    double time = 0;
    for (k = 0; k < m; k++) {
        double mean = 0.5 * (v[k] + v[(k + 1) % m]);
        time += mean > 0 ? len[k] / mean : INFINITY;
    }
    free(cap); free(len); free(v);
    return time;
}

/* ---- the floor over every path through the discs ------------------------- */

/* The point of the disc (c, r) nearest to q. */
static vec2 disc_nearest(vec2 c, double r, vec2 q)
{
    vec2 d = v2_sub(q, c);
    double l = v2_len(d);
    return l <= r ? q : v2_add(c, v2_scale(d, r / l));
}

/* The point of the disc (c, r) with the least |a - p| + |p - b|: on the
 * segment ab where it meets the disc, else on the circle, on the short
 * arc between the directions of a and b (golden-section search there). */
static vec2 disc_between(vec2 c, double r, vec2 a, vec2 b)
{
    vec2 ab = v2_sub(b, a);
    double l2 = v2_len2(ab);
    double t = l2 > 0 ? clampd(v2_dot(v2_sub(c, a), ab) / l2, 0, 1) : 0;
    vec2 near = v2_add(a, v2_scale(ab, t));
    if (v2_dist(near, c) <= r)
        return near;
    double ta = v2_angle(v2_sub(a, c)), span = angle_diff(v2_angle(v2_sub(b, c)), ta);
    double lo = 0, hi = 1, g = (sqrt(5) - 1) / 2;
    for (int it = 0; it < 80; it++) {
        double m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
        vec2 p1 = v2_add(c, v2_scale(v2_dir(ta + m1 * span), r));
        vec2 p2 = v2_add(c, v2_scale(v2_dir(ta + m2 * span), r));
        if (v2_dist(a, p1) + v2_dist(p1, b) <= v2_dist(a, p2) + v2_dist(p2, b))
            hi = m2;
        else
            lo = m1;
    }
    return v2_add(c, v2_scale(v2_dir(ta + 0.5 * (lo + hi) * span), r));
}

double race_floor_length(const struct waypoint *wp, int n, double car_r)
{
    if (n < 2)
        return 0;
    /* p[0] and p[n] in waypoint 0's disc (a lap runs from one contact
     * with it to the next, not necessarily at one point), p[k] in k's */
    vec2 *p = malloc((size_t)(n + 1) * sizeof *p);
    if (!p)
        return NAN;
    for (int k = 0; k <= n; k++)
        p[k] = wp[k % n].c;
    double len = INFINITY;
    for (int sweep = 0; sweep < 200000; sweep++) {
        p[0] = disc_nearest(wp[0].c, wp[0].r + car_r, p[1]);
        for (int k = 1; k < n; k++)
            p[k] = disc_between(wp[k].c, wp[k].r + car_r, p[k - 1], p[k + 1]);
        p[n] = disc_nearest(wp[0].c, wp[0].r + car_r, p[n - 1]);
        double now = 0;
        for (int k = 0; k < n; k++)
            now += v2_dist(p[k], p[k + 1]);
        if (len - now < 1e-10) {
            len = fmin(len, now);
            break;
        }
        len = now;
    }
    free(p);
    return len;
}
