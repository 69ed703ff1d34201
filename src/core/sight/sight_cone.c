/* sight_cone.c — the field of view as a convex polygon, so the sense
 * phase asks the vehicle grid for the cells of the cone only.
 *
 * A 45° cone of radius R covers an eighth of its circle and under a
 * seventh of the circle's bounding square, which is what a square query
 * visits: with thousands of tanks most entries the square offered failed
 * the cone test.  The polygon only chooses cells; the range and cone
 * tests on each entry decide, so the targets are the same ones. */
#include "sight_impl.h"

/* The cone's half-angle is widened by this much, and its radius by this
 * fraction, before its outline is drawn: the polygon must hold every
 * point the floating-point tests accept.  The cone test (cos² against
 * cos² of the half-angle) errs by under 2e-8 radians, at its worst for a
 * cone of no width; the polygon's vertices by a few ulps. */
#define CONE_SLACK_ANGLE 1e-6
#define CONE_SLACK_RANGE 1e-9

/* Arc pieces of at most this angle: a piece's outer edge lies
 * 1 / cos(piece / 2) out, at most 3.5 % past the arc. */
#define CONE_PIECE (M_PI / 6)

int sight_cone_poly(vec2 o, vec2 h, double half, double range, vec2 *poly)
{
    double hl = v2_len(h);
    if (!(half >= 0) || !(range >= 0) || !(hl > 0))
        return 0;
    half += CONE_SLACK_ANGLE;
    /* Convex only up to a half-plane; pieces past GRID_POLY_MAX too. */
    if (half > M_PI / 2)
        return 0;
    int k = (int)ceil(2 * half / CONE_PIECE);
    if (k < 1)
        k = 1;
    double step = 2 * half / k;
    /* The arc's enclosing polygon: the tangents at the middles of its
     * pieces meet on the pieces' borders, 1 / cos(step / 2) out. */
    double r = range * (1 + CONE_SLACK_RANGE) / cos(step / 2) + CONE_SLACK_RANGE;
    vec2 u = v2_scale(h, 1 / hl), p = v2_perp(u);
    int n = 0;
    poly[n++] = o;
    for (int i = 0; i <= k; i++) {
        double a = -half + i * step;
        vec2 d = v2_add(v2_scale(u, cos(a)), v2_scale(p, sin(a)));
        poly[n++] = v2_add(o, v2_scale(d, r));
    }
    return n;
}
