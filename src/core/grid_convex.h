/* grid_convex.h — the rows of a convex polygon over a grid, one row at a
 * time (grid_convex_rows() in grid.h is this, into two arrays).
 *
 * Inline, so that a caller consuming each row's run as it comes (sight's
 * candidate walk) keeps the sweep's state in registers and writes no
 * per-row array it would read straight back.  One sweep for both, so the
 * runs are the same bit for bit.
 *
 * A convex polygon crosses every horizontal line at most twice, so its
 * extent in a band of rows is that of its vertices inside the band and of
 * its two crossings of each of the band's borders.  The two chains from the
 * top vertex down to the bottom one (one each way round) give those
 * crossings: a border costs two multiply-adds and the polygon one division
 * per edge, where walking its edges one by one (grid_walk_rows) visits
 * about twice as many rows, each with its own bookkeeping.  The rows are
 * swept once, top to bottom.  Works in cell units, like grid_walk_rows. */
#ifndef BOTFIELD_GRID_CONVEX_H
#define BOTFIELD_GRID_CONVEX_H

#include <math.h>

#include "grid.h"

/* One side of a convex polygon, from its top vertex down to its bottom
 * one: at the edge from vertex i (x0, y0) to the next, whose y is yend,
 * with slope s = dx/dy. */
struct grid_chain { int i, next, dir; double x0, y0, s, yend; };

static inline double grid_dmin(double a, double b) { return a < b ? a : b; }
static inline double grid_dmax(double a, double b) { return a > b ? a : b; }

/* Column of x in cell units, clamped as grid_cell_of() does; truncation is
 * floor for the non-negative values it keeps. */
static inline int grid_col_of(double u, int n)
{
    if (!(u >= 0))
        return 0;
    return u < n ? (int)u : n - 1;
}

/* Column of x (cell units, finite), clamped as grid_cell_of() does:
 * clamped to [0, n - 1/2] first, truncation gives the same column without
 * a branch.  zero is +0 held in a register (see the sweep). */
static inline int grid_col_clamp(double u, double umax, double zero)
{
    return (int)grid_dmin(grid_dmax(u, zero), umax);
}

/* c moved down past the vertices at or above yadv, widening [*xl, *xh]
 * by them, and [*nl, *nh] too by those at or below ycarry: on the border
 * (within the slack), they are in the next band as well.  Once at the
 * bottom it stays there (yend = inf).  By value, so that inlined the chain
 * lives in registers. */
static inline struct grid_chain grid_chain_to(struct grid_chain c, const double *px,
                                              const double *py, const double *slope,
                                              int n, int bot,
                                              double yadv, double ycarry,
                                              double *xl, double *xh,
                                              double *nl, double *nh)
{
    while (c.i != bot && py[c.next] <= yadv) {
        c.i = c.next;
        /* Round the polygon, as selects: which way a wrap goes is a coin
         * toss to a branch predictor. */
        int next = c.next + c.dir;
        next = next == n ? 0 : next;
        c.next = next < 0 ? n - 1 : next;
        *xl = grid_dmin(*xl, px[c.i]);
        *xh = grid_dmax(*xh, px[c.i]);
        if (py[c.i] >= ycarry) {
            *nl = grid_dmin(*nl, px[c.i]);
            *nh = grid_dmax(*nh, px[c.i]);
        }
    }
    c.x0 = px[c.i];
    c.y0 = py[c.i];
    if (c.i == bot) {
        c.s = 0;
        c.yend = INFINITY;
    } else {
        /* The loop stopped at a vertex below the one it is at: dy > 0.
         * Going backwards, the edge from next to here: its slope is the
         * same double (both differences negated, exactly). */
        c.s = slope[c.dir > 0 ? c.i : c.next];
        c.yend = py[c.next];
    }
    return c;
}

/* The sweep of the closed polygon v[0..n) (vertices in order around it,
 * either way; 1 <= n <= GRID_POLY_MAX) over the extended grid of nx x ny
 * cells of side `cell`: row(ctx, r, lo, hi) for r = *r0, ..., *r1 in turn,
 * [lo, hi] the run of row r.  0, or -1 (no row) on a bad grid or a vertex
 * that is not finite.  Always inlined: a caller passing its own row
 * function (a constant) gets it inlined too, and the sweep's state stays
 * in registers. */
typedef void (*grid_row_fn)(void *ctx, int r, int lo, int hi);
static inline __attribute__((always_inline))
int grid_convex_sweep(double cell, int nx, int ny, const vec2 *v, int n,
                      int *r0, int *r1, grid_row_fn row, void *ctx)
{
    if (!(cell > 0) || nx <= 0 || ny <= 0 || n < 1 || n > GRID_POLY_MAX)
        return -1;
    double inv = 1 / cell, px[GRID_POLY_MAX], py[GRID_POLY_MAX], zero = 0;
    int top = 0, bot = 0;
    double ytop = v[0].y * inv, ybot = ytop;
    for (int i = 0; i < n; i++) {
        double x = v[i].x * inv, y = v[i].y * inv;
        px[i] = x;
        py[i] = y;
        /* x * 0 is 0 for a finite x and NaN otherwise: one test for all. */
        zero += x * 0 + y * 0;
        /* The extremes kept in registers: reading py[top] back would
         * wait on the store just made. */
        top = y < ytop ? i : top;
        ytop = y < ytop ? y : ytop;
        bot = y >= ybot ? i : bot;
        /* y >= ybot ? y : ybot, as a max instruction (ybot > y ? ybot :
         * y): the same double but for a NaN, which fails the polygon
         * below anyway.  As written it was a branch, mispredicted about
         * once a polygon. */
        ybot = grid_dmax(ybot, y);
    }
    if (zero != 0)
        return -1;
    /* Every edge's slope at once, i to i + 1: independent divisions that
     * overlap, where taking each as a chain reaches its edge put one in
     * the way of the rows after it.  A level edge's is never read; it is
     * divided by 1 (a select, not a branch), not by 0. */
    double slope[GRID_POLY_MAX];
    for (int i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        double dy = py[j] - py[i];
        slope[i] = (px[j] - px[i]) / (dy != 0 ? dy : 1);
    }
    /* The first lowest and the last highest: on a level polygon the
     * chains still go round it (top == bot only when n == 1).  Rounding
     * must not lose a cell: the rows and columns take in what lies within
     * the slack e of them, a vertex that close to a border counts in both
     * bands (a level edge there lies in both). */
    const double e = GRID_POLY_SLACK, xmax = nx - 0.5;
    /* +0 (xmax > 0), but not a constant to the compiler, which makes a
     * compare and branch of a max with a constant 0 and a max
     * instruction of one with a variable. */
    const double pz = xmax * 0;
    int ra = grid_col_of(py[top] - e, ny), rb = grid_col_of(py[bot] + e, ny);
    *r0 = ra;
    *r1 = rb;
    double xl = px[top], xh = px[top], nl = INFINITY, nh = -INFINITY;
    struct grid_chain a = { top, top + 1 == n ? 0 : top + 1, 1, 0, 0, 0, 0 };
    struct grid_chain b = { top, top == 0 ? n - 1 : top - 1, -1, 0, 0, 0, 0 };
    if (py[top] >= ra + 1 - e) {
        nl = nh = px[top];
    }
    a = grid_chain_to(a, px, py, slope, n, bot, py[top], ra + 1 - e, &xl, &xh, &nl, &nh);
    b = grid_chain_to(b, px, py, slope, n, bot, py[top], ra + 1 - e, &xl, &xh, &nl, &nh);
    /* A band passes a vertex (a chain moves on) in one or two rows of a
     * wedge's ten: one compare for both chains, and the vertices carried
     * into the next band (nl, nh) only handled then.  Without a carry the
     * next band starts from this one's crossings alone: min(l, +inf) is l
     * but for a NaN l, which every later min (the only use of xl, as
     * their first operand) treats as it treats +inf; likewise xh. */
    double ynext = grid_dmin(a.yend, b.yend);
    int carry = 1;              /* the first band's are nl, nh */
    for (int r = ra; r < rb; r++) {
        double y = r + 1;       /* this band's lower border */
        if (__builtin_expect(y + e >= ynext, 0)) {
            if (!carry) {
                nl = INFINITY;
                nh = -INFINITY;
            }
            if (y + e >= a.yend)
                a = grid_chain_to(a, px, py, slope, n, bot, y + e, y - e, &xl, &xh, &nl, &nh);
            if (y + e >= b.yend)
                b = grid_chain_to(b, px, py, slope, n, bot, y + e, y - e, &xl, &xh, &nl, &nh);
            ynext = grid_dmin(a.yend, b.yend);
            carry = 1;
        }
        /* A chain may stand at a vertex just below y: its crossing of y
         * is that vertex. */
        double xa = a.x0 + grid_dmax(y - a.y0, pz) * a.s;
        double xb = b.x0 + grid_dmax(y - b.y0, pz) * b.s;
        double l = grid_dmin(xa, xb), h = grid_dmax(xa, xb);
        row(ctx, r, grid_col_clamp(grid_dmin(xl, l) - e, xmax, pz),
            grid_col_clamp(grid_dmax(xh, h) + e, xmax, pz));
        if (carry) {
            xl = grid_dmin(l, nl);
            xh = grid_dmax(h, nh);
            carry = 0;
        } else {
            xl = l;
            xh = h;
        }
    }
    /* The last band: what is left of both chains, the vertices the loop
     * has not passed (below rb + e) and those it carried (from rb - e),
     * taken without a branch; all of them when it is the only band (which
     * may be clamped, and reach up past rb). */
    double ylast = ra == rb ? -INFINITY : rb - e;
    /* A vertex outside the band is pushed out to infinity, where the min
     * and max pass it by: a select on whether it is in became a branch,
     * mispredicted about once a polygon. */
    static const double out_of_band[2] = { INFINITY, 0 };
    for (int i = 0; i < n; i++) {
        double away = out_of_band[py[i] >= ylast];
        xl = grid_dmin(xl, px[i] + away);
        xh = grid_dmax(xh, px[i] - away);
    }
    row(ctx, rb, grid_col_clamp(xl - e, xmax, pz), grid_col_clamp(xh + e, xmax, pz));
    return 0;
}

#endif
