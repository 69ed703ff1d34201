/* trees.c — segments against the trees, through the tree grid. */
#include <math.h>

#include "grid.h"
#include "trees.h"
#include "world.h"

double segment_circle_entry(vec2 p, vec2 d, vec2 c, double r)
{
    vec2 m = v2_sub(p, c);
    double cc = v2_len2(m) - r * r;
    if (cc <= 0)
        return 0;                               /* starts inside */
    double a = v2_len2(d);
    if (a <= 0)
        return -1;
    double b = v2_dot(m, d);
    if (b >= 0)
        return -1;                              /* moving away */
    double disc = b * b - a * cc;
    if (disc < 0)
        return -1;
    /* the smaller root, written to keep its digits: cc / (-b + sqrt) */
    double t = cc / (-b + sqrt(disc));
    return t <= 1 ? t : -1;
}

/* The first tree the segment p + s*d, s in [0, *best), meets; *best is
 * lowered to its s.  The cells along the segment come in order from
 * grid_walk (Amanatides & Woo); a tree is listed in every cell it
 * overlaps, so once the best hit point lies in the cell being visited, no
 * later cell can hold an earlier one. */
struct tree_scan {
    const struct world *w;
    vec2 p, d;
    double best;
    int hit;
};

static int tree_cell(int cx, int cy, void *ctx)
{
    struct tree_scan *t = ctx;
    const struct tree_grid *g = &t->w->tree_grid;
    size_t cell = (size_t)cy * g->nx + cx;
    for (int k = g->start[cell]; k < g->start[cell + 1]; k++) {
        const struct tree *tr = &t->w->trees.p[g->items[k]];
        double s = segment_circle_entry(t->p, t->d, tr->c, tr->r);
        if (s >= 0 && s < t->best) {
            t->best = s;
            t->hit = g->items[k];
        }
    }
    if (t->hit < 0)
        return 0;
    vec2 q = v2_add(t->p, v2_scale(t->d, t->best));
    return grid_cell_of(q.x, g->cell, g->nx) == cx
        && grid_cell_of(q.y, g->cell, g->ny) == cy;
}

int trees_first_hit(const struct world *w, vec2 p, vec2 d, double *best)
{
    const struct tree_grid *g = &w->tree_grid;
    if (!g->start || w->trees.n == 0)
        return -1;
    struct tree_scan t = { w, p, d, *best, -1 };
    grid_walk(g->cell, g->nx, g->ny, p, v2_add(p, v2_scale(d, *best)), tree_cell, &t);
    *best = t.best;
    return t.hit;
}

int trees_clear(const struct world *w, vec2 a, vec2 b)
{
    double best = 1;
    return trees_first_hit(w, a, v2_sub(b, a), &best) < 0;
}
