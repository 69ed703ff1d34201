/* shell_index.h — the shells in flight bucketed by square cell, made once
 * a tick before the decisions (act.c), so that a tank dodging shells
 * looks at the shells near it rather than every shell in the world: in
 * the 10,000-tank battle some 9,000 shells fly, and a look at all of them
 * for each tank each tick was three quarters of the run.
 *
 * A query gives every alive shell within a box around a point (and some
 * beyond it), each once, in no set order: callers whose result depends
 * on the order sort what they keep (avoid_predictive.c). */
#ifndef BOTFIELD_SHELL_INDEX_H
#define BOTFIELD_SHELL_INDEX_H

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>

#include "vec.h"

struct shell;

/* What a look at a shell reads first, side by side in the cells' order
 * (a shell's record is two cache lines): the box of its path over the
 * index's horizon (pos to pos + vel * horizon), its place, velocity,
 * speed (v2_len(vel), the same bits) and index k. */
struct shell_pt {
    double bx0, bx1, by0, by1;
    vec2 pos, vel;
    double speed;
    uint32_t k;
};

struct shell_index {
    double horizon, vmax;           /* the paths' seconds; the top speed */
    const struct shell *from;       /* what it was made from: a query of */
    size_t n;                       /* other shells answers nothing */
    double x0, y0, inv, cell;       /* a cell's column: (x - x0) * inv;
                                       cell = 1 / inv */
    int nx, ny;
    const uint32_t *start;          /* cell c's items: [start[c], start[c+1]) */
    const struct shell_pt *item;    /* cell by cell */
    const float *box;               /* item j's path box in floats, four at
                                       box[4j]: shell_box_near */
    /* what start, item and box point to, written only by shell_index_make
     * (decide_guard.h poisons these names: decisions share the index) */
    uint32_t *cell_start_buf; size_t startcap;
    struct shell_pt *cell_item_buf; size_t itemcap;
    float *cell_box_buf; size_t boxcap;
};

/* Made from shells[0, n): 0, or -1 (no memory, a position not finite, or
 * too many shells for its 32-bit items): the index then answers no query
 * (shell_index_for gives NULL) and callers walk every shell. */
int shell_index_make(struct shell_index *x, const struct shell *from, size_t n,
                     double horizon);

/* The widening of a box test of point p against a path's box by w, for
 * rounding: a point within w of the path by the float tests of its
 * callers is within the box widened by w + this (their errors are some
 * 1e-16 of these magnitudes; w should count the reach of those tests). */
static inline double shell_index_hair(const struct shell_index *x, vec2 p, double w)
{
    return 1e-6 * (fabs(p.x) + fabs(p.y) + w + x->vmax * x->horizon + 1);
}

/* p may be within w of a shell's path (its box widened by w, w with its
 * hair: shell_index_hair): the cheap test before any other, on the boxes
 * in floats, four compares in one instruction (a look tests hundreds of
 * boxes for each that passes).  Each box is kept as (x0, -x1, y0, -y1),
 * the query as (p.x + w, w - p.x, p.y + w, w - p.y) with a slack far
 * above a double's rounding, so that the query's sums stand above the
 * box's edges whenever the same test in doubles passes; rounding to the
 * nearest float keeps that order (it is monotone), so this passes every
 * box the doubles pass, and some more: a filter only, whose callers'
 * exact tests decide (test-shell-index). */
static inline float shell_float(double d)
{
    /* monotone over the doubles; a cast out of range would be undefined */
    if (d > FLT_MAX)
        return INFINITY;
    if (d < -FLT_MAX)
        return -INFINITY;
    return (float)d;
}

/* The query for p and w (w as the double test takes it); a p or w not
 * finite lets every box pass. */
static inline void shell_box_query(vec2 p, double w, float q[4])
{
    double slack = 1e-9 * (fabs(p.x) + fabs(p.y) + fabs(w) + 1);
    if (!(slack < INFINITY)) {
        q[0] = q[1] = q[2] = q[3] = INFINITY;
        return;
    }
    q[0] = shell_float(p.x + w + slack);
    q[1] = shell_float(w - p.x + slack);
    q[2] = shell_float(p.y + w + slack);
    q[3] = shell_float(w - p.y + slack);
}

#ifdef __SSE2__
#include <xmmintrin.h>
static inline int shell_box_near(const float *b, __m128 q)
{
    return _mm_movemask_ps(_mm_cmple_ps(_mm_loadu_ps(b), q)) == 15;
}
typedef __m128 shell_query;
static inline shell_query shell_query_of(const float q[4]) { return _mm_loadu_ps(q); }
#else
typedef struct { float q[4]; } shell_query;
static inline shell_query shell_query_of(const float q[4])
{
    shell_query r = { { q[0], q[1], q[2], q[3] } };
    return r;
}
static inline int shell_box_near(const float *b, shell_query q)
{
    return (b[0] <= q.q[0]) & (b[1] <= q.q[1]) & (b[2] <= q.q[2]) & (b[3] <= q.q[3]);
}
#endif

void shell_index_clear(struct shell_index *x);
void shell_index_free(struct shell_index *x);

/* x when it was made from exactly these shells, else NULL. */
static inline const struct shell_index *shell_index_for(const struct shell_index *x,
                                                        const struct shell *from, size_t n)
{
    return x && x->from && x->from == from && x->n == n ? x : NULL;
}

/* A walk over the cells that may hold a shell within r of p, row by
 * row: in each row, the cells the circle crosses there, whose items lie
 * side by side.  Bounds are widened by a hair for rounding, so every
 * shell whose distance from p a caller's float test finds at most r is
 * met (each once); some beyond it are met too.  A point or radius not
 * finite walks every cell. */
struct shell_walk {
    const struct shell_index *x;
    int all;                        /* every cell */
    int cy, cy1;                    /* the rows left */
    double r2;                      /* the widened radius, squared */
    double lo, hi;                  /* row 0's edges from p.y, widened */
    double px;                      /* p.x in cells */
    double hair;                    /* the widening in cells */
};
void shell_walk_start(struct shell_walk *it, const struct shell_index *x, vec2 p, double r);

/* cell_of's twin (shell_index.c): v's cell in [0, n). */
static inline int shell_index_cell(double v, int n)
{
    if (!(v > 0))
        return 0;
    if (v >= n - 1)
        return n - 1;
    return (int)v;
}

/* The next row's items [*j0, *j1): 1, or 0 when no row is left.  Inline:
 * a dodging tank walks some ten rows a tick. */
static inline int shell_walk_next(struct shell_walk *it, uint32_t *j0, uint32_t *j1)
{
    const struct shell_index *x = it->x;
    while (it->cy <= it->cy1) {
        int cy = it->cy++;
        size_t row = (size_t)cy * (size_t)x->nx;
        int cx0 = 0, cx1 = x->nx - 1;
        if (!it->all) {
            /* how far p is from the row across, and the circle's
             * half-width there, in cells */
            double lo = it->lo + cy * x->cell, hi = it->hi + cy * x->cell;
            double dy = lo > 0 ? lo : hi < 0 ? -hi : 0;
            double h2 = it->r2 - dy * dy;
            if (!(h2 >= 0))
                continue;
            double hw = sqrt(h2) * x->inv + it->hair;
            double ax = it->px - hw, bx = it->px + hw;
            if (bx < 0 || ax >= x->nx)
                continue;
            cx0 = shell_index_cell(ax, x->nx);
            cx1 = shell_index_cell(bx, x->nx);
        }
        *j0 = x->start[row + (size_t)cx0];
        *j1 = x->start[row + (size_t)cx1 + 1];
        if (*j0 < *j1)
            return 1;
    }
    return 0;
}

#endif
