/* sight-walk-oracle.c — the old candidate walk (see the header), copied
 * from sight.c as it stood: the frame's outermost corners, the wedge
 * polygon, grid_convex_rows, a mark per tree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sight-walk-oracle.h"
#include "core/grid.h"
#include "core/sight/sight_impl.h"

/* frame_init's outermost corners of a rectangle (the first lowest and the
 * first highest pseudo-angle); 1 when o is inside or on the outline. */
static int outer_corners(vec2 o, const struct sight_shape *t, vec2 *u,
                         int *il, int *ih)
{
    vec2 d = v2_sub(t->c, o);
    double D = v2_len(d);
    *il = *ih = 0;
    if (t->circle) {
        if (!(D > t->r))
            return 1;
    } else {
        vec2 tp = v2_perp(t->axis);
        double lx = fabs(v2_dot(d, t->axis)), ly = fabs(v2_dot(d, tp));
        if (lx <= t->hl && ly <= t->hw)
            return 1;
    }
    *u = v2_scale(d, 1 / D);
    if (t->circle)
        return 0;
    vec2 ta = v2(v2_dot(*u, t->axis), v2_cross(*u, t->axis)), tp = v2_perp(ta);
    vec2 a = v2_scale(ta, t->hl), b = v2_scale(tp, t->hw);
    vec2 c[4] = {
        v2(D + a.x + b.x, a.y + b.y), v2(D + a.x - b.x, a.y - b.y),
        v2(D - a.x - b.x, -a.y - b.y), v2(D - a.x + b.x, -a.y + b.y)
    };
    double plo = sight_pa(c[0].x, c[0].y), phi = plo;
    for (int i = 1; i < 4; i++) {
        double p = sight_pa(c[i].x, c[i].y);
        *il = p < plo ? i : *il;
        plo = p < plo ? p : plo;
        *ih = p > phi ? i : *ih;
        phi = p > phi ? p : phi;
    }
    return 0;
}

int oracle_candidates(const struct world *w, vec2 o, const struct sight_shape *t,
                      struct sight_span *spans, size_t *nspans, int *cand)
{
    const struct tree_grid *g = &w->tree_grid;
    *nspans = 0;
    if (!g->start || g->nx <= 0 || w->trees.n == 0)
        return 0;
    vec2 u = v2(1, 0);
    int il, ih, on_top = outer_corners(o, t, &u, &il, &ih);
    vec2 c[4];
    if (t->circle) {
        c[0] = v2(t->c.x - t->r, t->c.y - t->r);
        c[1] = v2(t->c.x + t->r, t->c.y - t->r);
        c[2] = v2(t->c.x + t->r, t->c.y + t->r);
        c[3] = v2(t->c.x - t->r, t->c.y + t->r);
    } else {
        vec2 a = v2_scale(t->axis, t->hl), b = v2_scale(v2_perp(t->axis), t->hw);
        c[0] = v2_add(t->c, v2_add(a, b));
        c[1] = v2_add(t->c, v2_sub(a, b));
        c[2] = v2_sub(t->c, v2_add(a, b));
        c[3] = v2_add(t->c, v2_sub(b, a));
    }
    vec2 poly[5];
    int np = 0;
    if (!on_top && t->circle) {
        if (fabs(o.x - t->c.x) <= t->r && fabs(o.y - t->c.y) <= t->r) {
            on_top = 1;
        } else {
            double pl = 3, ph = -3;
            for (int i = 0; i < 4; i++) {
                vec2 d = v2_sub(c[i], o), q = v2(v2_dot(u, d), v2_cross(u, d));
                double p = sight_pa(q.x, q.y);
                if (p < pl) { pl = p; il = i; }
                if (p > ph) { ph = p; ih = i; }
            }
        }
    }
    if (on_top) {
        for (int i = 0; i < 4; i++)
            poly[np++] = c[i];
    } else if (il == ih) {
        poly[np++] = o;
        for (int i = 0; i < 4; i++)
            poly[np++] = c[i];
    } else {
        poly[np++] = o;
        int d = (ih - il) & 3;
        if (d == 2) {
            int m1 = (il + 1) & 3, m3 = (il + 3) & 3;
            poly[np++] = c[il];
            poly[np++] = c[v2_dist2(c[m1], o) > v2_dist2(c[m3], o) ? m1 : m3];
        } else {
            int step = d == 1 ? 3 : 1;
            for (int i = il; i != ih; i = (i + step) & 3)
                poly[np++] = c[i];
        }
        poly[np++] = c[ih];
    }
    int *lo = malloc((size_t)g->ny * sizeof *lo), *hi = malloc((size_t)g->ny * sizeof *hi);
    unsigned char *seen = calloc(w->trees.n, 1);
    int r0, r1, nc = 0;
    if (lo && hi && seen
        && grid_convex_rows(g->cell, g->nx, g->ny, poly, np, &r0, &r1, lo, hi) == 0) {
        for (int r = r0; r <= r1; r++) {
            spans[*nspans].cy = r;
            spans[*nspans].c0 = lo[r];
            spans[(*nspans)++].c1 = hi[r];
            const int *row = g->start + (size_t)r * g->nx;
            for (int k = row[lo[r]]; k < row[hi[r] + 1]; k++) {
                int i = g->items[k];
                if (!seen[i]) {
                    seen[i] = 1;
                    cand[nc++] = i;
                }
            }
        }
    }
    free(lo);
    free(hi);
    free(seen);
    return nc;
}
