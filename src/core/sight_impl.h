/* sight_impl.h — what sight.c shares with sight_classic.c and
 * sight_exact.c; not for the rest of the program.
 *
 * A query works in the frame of the line of sight: the observer at the
 * origin, x along the unit vector u to the target's centre, y = cross(u, .)
 * (positive clockwise on screen, the direction angles grow).  Directions
 * are ordered by a pseudo-angle, a monotonic stand-in for atan2 that costs
 * one division; real angles (atan2) are taken only of the few intervals
 * that survive the union. */
#ifndef BOTFIELD_SIGHT_IMPL_H
#define BOTFIELD_SIGHT_IMPL_H

#include "sight.h"
#include "world.h"

struct sight_frame {
    vec2 o, u;              /* observer; unit line of sight (world) */
    double D;               /* distance to the target's centre */
    const struct sight_shape *t;
    vec2 ta, tp;            /* rectangle: axis and its perpendicular, frame */
    vec2 lo, hi;            /* ends of the target's extent (frame vectors) */
    int ilo, ihi;           /* rectangle: the corners they are, in the order
                               +a+b, +a-b, -a-b, -a+b (a along the length,
                               b across) */
    double plo, phi;        /* their pseudo-angles: plo <= 0 <= phi */
    vec2 nlo, nhi;          /* lo, hi as unit vectors */
    double width;           /* radians */
    double dnear, dnear2;   /* distance from the observer to the outline */
    double dfar;            /* to its farthest point */
};

/* (-2, 2], increasing with atan2(y, x) in (-pi, pi]; 0 for (0, 0). */
static inline double sight_pa(double x, double y)
{
    double s = fabs(x) + fabs(y);
    if (s == 0)
        return 0;
    double q = x / s;
    return y >= 0 ? 1 - q : q - 1;
}

static inline vec2 sight_frame_of(const struct sight_frame *f, vec2 p)
{
    vec2 d = v2_sub(p, f->o);
    return v2(v2_dot(f->u, d), v2_cross(f->u, d));
}

/* Grows an array of elem-sized items to at least need; 0 or -1. */
int sight_grow(void *pp, size_t *cap, size_t need, size_t elem);

/* Clips the direction interval va..vb (counter-clockwise in the frame,
 * at most pi wide; it may wrap past pi) to the target's extent and appends
 * what is left to s->pieces; returns the number appended, -1 on no memory. */
int sight_clip(const struct sight_frame *f, vec2 va, vec2 vb,
               struct sight_scratch *s);

/* The methods.  They return the visible fraction, or -1 when the observer
 * is inside a tree; both fill s->hidden. */
double sight_classic(const struct sight_frame *f, const struct tree *trees,
                     const int *cand, int n, int samples,
                     struct sight_scratch *s);
double sight_exact(const struct sight_frame *f, const struct tree *trees,
                   const int *cand, int n, struct sight_scratch *s);

#endif
