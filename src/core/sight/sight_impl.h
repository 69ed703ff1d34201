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

#include <float.h>

#include "sight.h"
#include "grow.h"
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
    int point;              /* no angular width (then hi = lo): the
                               width, sight_width(), is only taken (an
                               atan2) when an answer needs it, as most
                               targets are in plain view */
    double lx, ly;          /* rectangle: |centre - observer| along its
                               axis and across */
    /* Set by sight_frame_depth() alone, before a method weighs trees: a
     * query with none (a battle in the open) never needs them. */
    double lo2, hi2;        /* squared lengths of lo and hi */
    double dnear, dnear2;   /* distance from the observer to the outline */
    double dfar;            /* to its farthest point */
};

static inline void sight_frame_depth(struct sight_frame *f)
{
    const struct sight_shape *t = f->t;
    if (t->circle) {
        f->dnear = f->D - t->r;
        f->dfar = f->D + t->r;
    } else {
        double lx = f->lx, ly = f->ly;
        double ex = lx > t->hl ? lx - t->hl : 0, ey = ly > t->hw ? ly - t->hw : 0;
        f->dnear = sqrt(ex * ex + ey * ey);
        f->dfar = sqrt((lx + t->hl) * (lx + t->hl) + (ly + t->hw) * (ly + t->hw));
    }
    f->dnear2 = f->dnear * f->dnear;
    f->lo2 = v2_len2(f->lo);
    f->hi2 = v2_len2(f->hi);
}

/* (-2, 2], increasing with atan2(y, x) in (-pi, pi]; 0 for (0, 0). */
static inline double sight_pa(double x, double y)
{
    double s = fabs(x) + fabs(y);
    if (s == 0)
        return 0;
    /* q - 1 = -(1 - q) exactly; the sign copied, not branched on (the
     * compiler made a branch of a sign factor): the sign of y is a coin
     * toss for the corners and tangents this sees.  y + 0 is +0 for -0,
     * which counts as y >= 0. */
    double q = x / s;
    return copysign(1 - q, y + 0.0);
}

/* angle_norm() of an atan2: the value itself but for -pi, spared the
 * remainder() (a libm call) the general case takes.  The same double:
 * remainder(a, 2 pi) is exact, and a for |a| < pi; pi itself stays. */
static inline double sight_angle_norm(double a)
{
    return a > -M_PI && a <= M_PI ? a : angle_norm(a);
}

/* The target's angular width in radians, > 0 unless f->point. */
static inline double sight_width(const struct sight_frame *f)
{
    if (f->point)
        return 0;
    double w = atan2(v2_cross(f->lo, f->hi), v2_dot(f->lo, f->hi));
    /* cross(lo, hi) > 0, so w > 0 unless the quotient underflowed: a
     * width too small to tell from none, kept positive to divide by. */
    return w > 0 ? w : DBL_MIN;
}

/* Whether the circle (c, r), in the frame, lies wholly outside the wedge
 * of the extent, on the far side of the ray through lo or through hi:
 * cross(lo/|lo|, c) < -r, squared so that no root is taken. */
static inline int sight_outside(const struct sight_frame *f, vec2 c, double r2)
{
    double a = v2_cross(f->lo, c), b = v2_cross(f->hi, c);
    /* & and |, not && and ||: one branch (the caller's) instead of four
     * hard to predict ones. */
    return ((a < 0) & (a * a > r2 * f->lo2)) | ((b > 0) & (b * b > r2 * f->hi2));
}

static inline vec2 sight_frame_of(const struct sight_frame *f, vec2 p)
{
    vec2 d = v2_sub(p, f->o);
    return v2(v2_dot(f->u, d), v2_cross(f->u, d));
}


/* ---- clipping to the target's extent ------------------------------------ */

static inline __attribute__((always_inline))
int sight_push_piece(const struct sight_frame *f, double a, vec2 va,
                     double b, vec2 vb, struct sight_scratch *s)
{
    if (a < f->plo) {
        a = f->plo;
        va = f->lo;
    }
    if (b > f->phi) {
        b = f->phi;
        vb = f->hi;
    }
    if (!(a < b))
        return 0;
    if (grow_reserve(&s->pieces, &s->cappieces, s->npieces + 1, sizeof *s->pieces))
        return -1;
    struct sight_piece *p = &s->pieces[s->npieces++];
    p->lo = a;
    p->hi = b;
    p->vlo = va;
    p->vhi = vb;
    return 1;
}

/* Clips the direction interval va..vb (counter-clockwise in the frame,
 * at most pi wide; it may wrap past pi) to the target's extent and appends
 * what is left to s->pieces; returns the number appended, -1 on no memory.
 * Always inline (GCC kept a copy out of line): exact calls it for about
 * every tree it weighs, and a call (the frame and the scratch re-read
 * from memory) was most of its cost. */
static inline __attribute__((always_inline))
int sight_clip(const struct sight_frame *f, vec2 va, vec2 vb,
               struct sight_scratch *s)
{
    double a = sight_pa(va.x, va.y), b = sight_pa(vb.x, vb.y);
    if (a <= b)
        return sight_push_piece(f, a, va, b, vb, s);
    /* A true wrap past pi spans at least pi, i.e. 2 in pseudo-angle
     * (pa(-v) = pa(v) - 2); a smaller inversion is rounding of an interval
     * too narrow to matter. */
    if (a - b < 1)
        return 0;
    /* The extent never contains pi, so at most one part is left. */
    int k1 = sight_push_piece(f, a, va, 2, v2(-1, 0), s);
    int k2 = sight_push_piece(f, -2, v2(-1, 0), b, vb, s);
    return k1 < 0 || k2 < 0 ? -1 : k1 + k2;
}

/* The field of view of an observer at o looking along h (any length),
 * of half-angle acos(coshalf), out to range, as a convex polygon into
 * poly (at most 5 vertices) holding every point the sense phase's range
 * and cone tests accept; returns its vertex count, or 0 when the cone is
 * a half-plane or wider (no convex polygon: take the range's square). */
int sight_cone_poly(vec2 o, vec2 h, double coshalf, double range, vec2 *poly);

/* The methods.  They return the visible fraction, or -1 when the observer
 * is inside a tree; both fill s->hidden. */
double sight_classic(const struct sight_frame *f, const struct tree *trees,
                     const int *cand, int n, int samples,
                     struct sight_scratch *s);
double sight_exact(const struct sight_frame *f, const struct tree *trees,
                   const int *cand, int n, struct sight_scratch *s);

#endif
