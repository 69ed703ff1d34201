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

#include <stddef.h>
#include <stdint.h>

#include "vec.h"

struct shell;

/* What a look at a shell reads first, side by side in the cells' order
 * (a shell's record is two cache lines): its place, velocity, speed
 * (v2_len(vel), the same bits) and index k. */
struct shell_pt {
    vec2 pos, vel;
    double speed;
    uint32_t k;
};

struct shell_index {
    const struct shell *from;       /* what it was made from: a query of */
    size_t n;                       /* other shells answers nothing */
    double x0, y0, inv;             /* a cell's column: (x - x0) * inv */
    int nx, ny;
    uint32_t *start; size_t startcap;   /* cell c's items: [start[c], start[c+1]) */
    struct shell_pt *item; size_t itemcap;  /* cell by cell */
};

/* The cell box [*cx0, *cx1] x [*cy0, *cy1] that holds every indexed shell
 * within r of p (a cell wider each way than the box, for rounding). */
struct shell_cells { int cx0, cx1, cy0, cy1; };

/* Made from shells[0, n): 0, or -1 (no memory, a position not finite, or
 * too many shells for its 32-bit items): the index then answers no query
 * (shell_index_for gives NULL) and callers walk every shell. */
int shell_index_make(struct shell_index *x, const struct shell *from, size_t n);
void shell_index_clear(struct shell_index *x);
void shell_index_free(struct shell_index *x);

/* x when it was made from exactly these shells, else NULL. */
static inline const struct shell_index *shell_index_for(const struct shell_index *x,
                                                        const struct shell *from, size_t n)
{
    return x && x->from && x->from == from && x->n == n ? x : NULL;
}

struct shell_cells shell_index_cells(const struct shell_index *x, vec2 p, double r);

/* Row cy's items [*j0, *j1) of the cells that may hold a shell within r
 * of p: the circle's own width at that row (a cell more each way), not
 * the box's.  b from shell_index_cells(x, p, r). */
void shell_index_row(const struct shell_index *x, const struct shell_cells *b, vec2 p,
                     double r, int cy, uint32_t *j0, uint32_t *j1);

#endif
