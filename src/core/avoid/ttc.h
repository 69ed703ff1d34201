/* ttc.h — time to collision, the one rule predictive avoidance scores
 * motions by, written once (ttc_enter), and the same over a set of
 * neighbours held as columns (ttc_set_min), which has a scalar path and an
 * SSE2 path (ttc_sse2.c) that give the same bits (tests/unit/test-avoid.c
 * checks it on random sets). */
#ifndef BOTFIELD_TTC_H
#define BOTFIELD_TTC_H

#include <math.h>

#include "vec.h"

/* Time until a circle of radius R around the origin is entered by a point
 * at rel moving with velocity vr; 0 when inside already (c0 < 0) unless
 * the motion opens up, INFINITY never.  Takes c0 = |rel|^2 - R^2, the same
 * for every candidate against one neighbour.  Without branches: in the
 * candidate loop the outcome is unpredictable and every term is cheap.
 * The smaller root without cancellation: c0 / (-b + sqrt(disc)). */
static inline double ttc_enter(vec2 rel, vec2 vr, double c0)
{
    double b = v2_dot(rel, vr), a = v2_len2(vr);
    double disc = b * b - a * c0;
    double t = c0 / (-b + sqrt(disc > 0 ? disc : 0));
    t = disc < 0 ? INFINITY : t;
    t = c0 < 0 ? 0 : t;
    t = b >= 0 ? INFINITY : t;      /* closing in or not decides first */
    return t;
}

/* Up to TTC_SET_MAX neighbours as columns: their centre from mine (rel),
 * velocity, c0, and whether each shares the avoiding (met with the
 * reciprocal motion) as an all-ones mask. */
#define TTC_SET_MAX 64
struct ttc_set {
    double rx[TTC_SET_MAX], ry[TTC_SET_MAX], vx[TTC_SET_MAX], vy[TTC_SET_MAX];
    double c0[TTC_SET_MAX];
    double shares[TTC_SET_MAX];
    int n;                      /* even: padded by ttc_set_pad */
};

void ttc_set_put(struct ttc_set *s, int q, vec2 rel, vec2 vel, double c0, int shares);
/* Pads the set to an even count with a neighbour never entered. */
void ttc_set_pad(struct ttc_set *s);

/* min(ttc, the smallest ttc_enter of any neighbour in s against my motion
 * cand, or recip for those that share). */
double ttc_set_min_scalar(const struct ttc_set *s, vec2 cand, vec2 recip, double ttc);
#ifdef __SSE2__
double ttc_set_min_sse2(const struct ttc_set *s, vec2 cand, vec2 recip, double ttc);
#endif

static inline double ttc_set_min(const struct ttc_set *s, vec2 cand, vec2 recip,
                                 double ttc)
{
#ifdef __SSE2__
    return ttc_set_min_sse2(s, cand, recip, ttc);
#else
    return ttc_set_min_scalar(s, cand, recip, ttc);
#endif
}

#endif
