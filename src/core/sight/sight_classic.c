/* sight_classic.c — `sight = classic`, the method of "WoT - how
 * not to be seen", kept faithful including its weaknesses:
 *
 *  - tangents are approximated by the points c ± r × the perpendicular of
 *    the unit direction to the tree, which see the tree atan(r/d) wide
 *    instead of asin(r/d): too narrow close up (29 % narrower at d = 1.2 r);
 *  - the target's width comes from its four hull corners (a turret, which
 *    has no hull, by the same tangent trick applied to its circle);
 *  - the width is split into `samples` points, each tree nearest first
 *    removes the points its interval covers, and the visible fraction is
 *    the points left over `samples`;
 *  - there is no depth test: every candidate tree, the trees of the cells
 *    between the two tanks, hides what it covers, even one just behind the
 *    target.
 * One change: the article's table {0.5, 0.51, ..., 0.7} has 21 points and
 * is divided by 20, so an open view reads 105 %.  Here the points sit at
 * the centres of `samples` equal parts of the width. */
#include <stdlib.h>
#include <string.h>

#include "sight_impl.h"
#include "grow.h"

static int cmp_order(const void *a, const void *b)
{
    const struct sight_order *x = a, *y = b;
    if (x->d2 != y->d2)
        return x->d2 < y->d2 ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static int before(const struct sight_order *x, const struct sight_order *y)
{
    return x->d2 < y->d2 || (x->d2 == y->d2 && x->i < y->i);
}

/* Trees nearest first (the article's way to shrink the table quickly);
 * ties by index so the order is the same on every run. */
static int nearest_first(const struct sight_frame *f, const struct tree *trees,
                         const int *cand, int n, struct sight_scratch *s)
{
    if (grow_reserve(&s->order, &s->caporder, (size_t)n, sizeof *s->order))
        return -1;
    struct sight_order *o = s->order;
    int m = 0;
    for (int k = 0; k < n; k++) {
        const struct tree *t = &trees[cand[k]];
        if (!(t->r > 0))
            continue;
        o[m].d2 = v2_dist2(t->c, f->o);
        o[m++].i = cand[k];
    }
    if (m > 24) {
        qsort(o, (size_t)m, sizeof *o, cmp_order);
    } else {
        for (int i = 1; i < m; i++) {
            struct sight_order x = o[i];
            int j = i;
            for (; j > 0 && before(&x, &o[j - 1]); j--)
                o[j] = o[j - 1];
            o[j] = x;
        }
    }
    return m;
}

/* Offset in radians of a direction from the extent's low end. */
static double offset(const struct sight_frame *f, vec2 v)
{
    return atan2(v2_cross(f->lo, v), v2_dot(f->lo, v));
}

/* No width: every point sits on the centre line; a tree hides them all
 * when the line is within its approximate tangents.  1 seen, 0 hidden,
 * -1 the observer inside a tree. */
static double point_seen(const struct sight_frame *f, const struct tree *trees, int m,
                         const struct sight_scratch *s)
{
    int hidden = 0;
    for (int k = 0; k < m; k++) {
        const struct tree *t = &trees[s->order[k].i];
        vec2 c = sight_frame_of(f, t->c);
        if (s->order[k].d2 < t->r * t->r)
            return -1;
        if (c.x > 0 && fabs(c.y) * sqrt(s->order[k].d2) <= t->r * c.x)
            hidden = 1;
    }
    return hidden ? 0 : 1;
}

/* The sample points a piece of a tree's shadow covers, marked gone;
 * returns how many were newly hidden. */
static int cover(const struct sight_frame *f, const struct sight_piece *p, int samples,
                 double width, double step, unsigned char *gone)
{
    double o0 = p->lo <= f->plo ? 0 : offset(f, p->vlo);
    double o1 = p->hi >= f->phi ? width : offset(f, p->vhi);
    /* Point j sits at (j + 1/2) step; the covered ones, ends included,
     * as the article's "falls into the tree range". */
    double j0 = ceil(o0 / step - 0.5), j1 = floor(o1 / step - 0.5);
    /* Clamped both ways before the conversion to int: an offset far
     * outside the target (or NaN) must not reach the cast. */
    if (!(j0 <= j1))
        return 0;
    if (j0 < 0) j0 = 0;
    if (j0 > samples) j0 = samples;
    if (j1 > samples - 1) j1 = samples - 1;
    if (j1 < -1) j1 = -1;
    int n = 0;
    for (int j = (int)j0; j <= (int)j1; j++)
        if (!gone[j]) {
            gone[j] = 1;
            n++;
        }
    return n;
}

/* The hidden points as runs, each point standing for its part. */
static void hidden_runs(struct sight_scratch *s, int samples, double step)
{
    for (int j = 0; j < samples;) {
        if (!s->gone[j]) {
            j++;
            continue;
        }
        int e = j;
        while (e + 1 < samples && s->gone[e + 1])
            e++;
        if (grow_reserve(&s->hidden, &s->caphidden, s->nhidden + 1, sizeof *s->hidden) == 0) {
            s->hidden[s->nhidden].a0 = j * step;
            s->hidden[s->nhidden].a1 = (e + 1) * step;
            s->nhidden++;
        }
        j = e + 1;
    }
}

double sight_classic(const struct sight_frame *f, const struct tree *trees,
                     const int *cand, int n, int samples,
                     struct sight_scratch *s)
{
    int m = nearest_first(f, trees, cand, n, s);
    if (m < 0 || samples < 1) {
        s->oom = m < 0;
        return 1;
    }
    s->nhidden = 0;
    if (f->point)
        return point_seen(f, trees, m, s);
    if (grow_reserve(&s->gone, &s->capgone, (size_t)samples, 1)) {
        s->oom = 1;
        return 1;
    }
    memset(s->gone, 0, (size_t)samples);
    int left = samples;
    double width = sight_width(f), step = width / samples;
    for (int k = 0; k < m && left > 0; k++) {
        const struct tree *t = &trees[s->order[k].i];
        double d2 = s->order[k].d2, r = t->r;
        if (d2 < r * r)
            return -1;
        vec2 c = sight_frame_of(f, t->c);
        if (sight_outside(f, c, r * r))
            continue;           /* outside the extent: covers no point */
        /* The article's tangent points c ± r (-z, x) with (x, z) the unit
         * direction to the tree, as directions from the observer and
         * scaled by d: c d ± r perp(c). */
        double d = sqrt(d2);
        vec2 va = v2(d * c.x + r * c.y, d * c.y - r * c.x);
        vec2 vb = v2(d * c.x - r * c.y, d * c.y + r * c.x);
        s->npieces = 0;
        if (sight_clip(f, va, vb, s) < 0) {
            s->oom = 1;
            return 1;
        }
        for (size_t i = 0; i < s->npieces; i++)
            left -= cover(f, &s->pieces[i], samples, width, step, s->gone);
    }
    s->npieces = 0;
    hidden_runs(s, samples, step);
    return (double)left / samples;
}
