/* sight_cone.c — the field of view as a convex polygon, so the sense
 * phase asks the vehicle grid for the cells of the cone only.
 *
 * A 45° cone of radius R covers an eighth of its circle and under a
 * seventh of the circle's bounding square, which is what a square query
 * visits: with thousands of tanks most entries the square offered failed
 * the cone test.  The polygon only chooses cells; the range and cone
 * tests on each entry decide, so the targets are the same ones. */
#include "sight_impl.h"

/* The polygon is pushed out by this fraction of the range (and this many
 * units) on every side: it must hold every point the floating-point tests
 * accept.  The cone test (cos² against cos² of the half-angle) errs by
 * under 2e-8 radians, at its worst for a cone of no width, so by under
 * 2e-8 x range sideways; the polygon's vertices by a few ulps. */
#define CONE_SLACK 1e-6

/* The vertex where edges of outward unit normals n1 and n2 meet, moved so
 * that both edges move out by m (the mitred offset). */
static vec2 offset(vec2 v, vec2 n1, vec2 n2, double m)
{
    return v2_add(v, v2_scale(v2_add(n1, n2), m / (1 + v2_dot(n1, n2))));
}

int sight_cone_poly(vec2 o, vec2 h, double coshalf, double range, vec2 *poly)
{
    double hl = v2_len(h);
    /* Convex only up to a half-plane (cos(half) > 0). */
    if (!(coshalf > 0 && coshalf <= 1) || !(range >= 0) || !(hl > 0))
        return 0;
    double m = CONE_SLACK * range + CONE_SLACK, c = coshalf;
    double s = sqrt((1 - c) * (1 + c));
    vec2 u = v2_scale(h, 1 / hl), p = v2_perp(u), back = v2_scale(u, -1);
    /* The cone's edges leave o along u c ∓ p s; their outward normals. */
    vec2 dlo = v2_sub(v2_scale(u, c), v2_scale(p, s));
    vec2 dhi = v2_add(v2_scale(u, c), v2_scale(p, s));
    vec2 nlo = v2_sub(v2_scale(u, -s), v2_scale(p, c));
    vec2 nhi = v2_add(v2_scale(u, -s), v2_scale(p, c));
    int n = 0;
    /* The apex, cut square behind o (a cone of no width has no mitre). */
    poly[n++] = offset(o, nlo, back, m);
    if (c >= M_SQRT1_2) {
        /* Up to 90°: the triangle whose far side touches the arc's middle,
         * o + range (u ± tan(half) p). */
        double far = range / c;
        poly[n++] = offset(v2_add(o, v2_scale(dlo, far)), nlo, u, m);
        poly[n++] = offset(v2_add(o, v2_scale(dhi, far)), nhi, u, m);
    } else {
        /* Up to 180°: two pieces, tangent to the arc at ±half/2, meeting
         * on the centre line and on the edges range / cos(half/2) out. */
        double ch = sqrt((1 + c) / 2), sh = sqrt((1 - c) / 2), far = range / ch;
        vec2 na = v2_sub(v2_scale(u, ch), v2_scale(p, sh));
        vec2 nb = v2_add(v2_scale(u, ch), v2_scale(p, sh));
        poly[n++] = offset(v2_add(o, v2_scale(dlo, far)), nlo, na, m);
        poly[n++] = offset(v2_add(o, v2_scale(u, far)), na, nb, m);
        poly[n++] = offset(v2_add(o, v2_scale(dhi, far)), nhi, nb, m);
    }
    poly[n++] = offset(o, nhi, back, m);
    return n;
}
