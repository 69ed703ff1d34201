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
