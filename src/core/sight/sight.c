/* sight.c — the sense phase and the one dispatcher over the sight methods
 * (libtcod picks its field-of-view algorithm the same way); the methods
 * live in sight_classic.c and sight_exact.c.
 *
 * The layers follow "How not to be seen": (1) enemies in the field of view, here
 * through the vehicle grid instead of all pairs; (2) the trees that might
 * block, from the tree grid along the line of sight; (3) what each tree
 * hides; (4) the visible fraction; (5) seen or not, by the thresholds. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sight_impl.h"
#include "sight_out.h"
#include "grid_convex.h"
#include "grow.h"
#include "par.h"
#include "trees.h"

void sight_scratch_free(struct sight_scratch *s)
{
    free(s->mark);
    free(s->cand);
    free(s->listed);
    free(s->spans);
    free(s->row_lo);
    free(s->row_hi);
    free(s->pieces);
    free(s->hidden);
    free(s->gone);
    free(s->order);
    memset(s, 0, sizeof *s);
}

void sight_store_free(struct sight_store *s)
{
    sight_scratch_free(&s->scratch);
    free(s->spans);
    free(s->trees);
    free(s->targets);
    memset(s, 0, sizeof *s);
}

struct sight_shape sight_shape_of(const struct vehicle *v)
{
    /* Every field set, no memset: this runs for every pair. */
    struct sight_shape t;
    t.c = v->pos;
    if (v->kind == VK_TANK) {
        t.axis = v->dir;
        t.hl = v->p->length / 2;
        t.hw = v->p->width / 2;
        t.r = 0;
        t.circle = 0;
    } else {
        /* A turret has no hull: its circle is what can be seen of it. */
        t.circle = 1;
        t.r = v->p->radius;
        t.axis = v2(1, 0);
        t.hl = t.hw = 0;
    }
    return t;
}

/* ---- the frame of one question ------------------------------------------ */

/* Sets up f for observer o and target t; returns 1 when o is inside or on
 * the target's outline (nothing can be in between: visible 1).  Not
 * inlined: forced into query() it saved 14 instructions of an exact
 * query's 2,318 on the article's map but cost 9 % in time. */
static int frame_init(struct sight_frame *f, int method, vec2 o,
                      const struct sight_shape *t)
{
    /* Every field set below but the depths (sight_frame_depth), no
     * memset: this runs for every query.  On top, only o, t, D and ilo,
     * ihi are read. */
    f->o = o;
    f->t = t;
    f->ilo = f->ihi = 0;
    vec2 d = v2_sub(t->c, o);
    f->D = v2_len(d);
    if (t->circle) {
        if (!(f->D > t->r))
            return 1;
    } else {
        vec2 tp = v2_perp(t->axis);
        double lx = fabs(v2_dot(d, t->axis)), ly = fabs(v2_dot(d, tp));
        if (lx <= t->hl && ly <= t->hw)
            return 1;
        f->lx = lx;
        f->ly = ly;
    }
    f->u = v2_scale(d, 1 / f->D);
    if (t->circle) {
        /* Exact tangents leave at asin(r/D); the article's points c ± r ×
         * the perpendicular at atan(r/D). */
        double k = method == SIGHT_CLASSIC ? f->D
                 : sqrt((f->D - t->r) * (f->D + t->r));
        f->lo = v2(k, -t->r);
        f->hi = v2(k, t->r);
        f->plo = sight_pa(f->lo.x, f->lo.y);
        f->phi = sight_pa(f->hi.x, f->hi.y);
        f->ta = v2(1, 0);
        f->tp = v2(0, 1);
    } else {
        /* The article's suggestion: the hull's four corners, the outermost
         * two as seen from the observer. */
        f->ta = v2(v2_dot(f->u, t->axis), v2_cross(f->u, t->axis));
        f->tp = v2_perp(f->ta);
        vec2 a = v2_scale(f->ta, t->hl), b = v2_scale(f->tp, t->hw);
        vec2 c[4] = {
            v2(f->D + a.x + b.x, a.y + b.y), v2(f->D + a.x - b.x, a.y - b.y),
            v2(f->D - a.x - b.x, -a.y - b.y), v2(f->D - a.x + b.x, -a.y + b.y)
        };
        /* The first lowest and the first highest, picked with selects
         * (no branch on which corner it is) and copied once. */
        double plo = sight_pa(c[0].x, c[0].y), phi = plo;
        int ilo = 0, ihi = 0;
        for (int i = 1; i < 4; i++) {
            double p = sight_pa(c[i].x, c[i].y);
            ilo = p < plo ? i : ilo;
            plo = p < plo ? p : plo;
            ihi = p > phi ? i : ihi;
            phi = p > phi ? p : phi;
        }
        f->plo = plo;
        f->phi = phi;
        f->ilo = ilo;
        f->ihi = ihi;
        /* Coordinate by coordinate: each was stored on its own, and a
         * vector's load of both waited for the two stores to retire (no
         * store forwards to a load wider than itself). */
        f->lo.x = c[ilo].x;
        f->lo.y = c[ilo].y;
        f->hi.x = c[ihi].x;
        f->hi.y = c[ihi].y;
    }
    /* The extent is under pi (o is outside the outline), so it has a
     * width exactly when hi is clockwise of lo. */
    f->point = !(v2_cross(f->lo, f->hi) > 0);
    if (f->point) {
        f->hi = f->lo;
        f->phi = f->plo;
    }
    return 0;
}

/* Room for rows 0..ny-1 in s->row_lo and s->row_hi (the tree grid's
 * and the vehicle grid's rows share them). */
static int rows_reserve(struct sight_scratch *s, int ny)
{
    if (s->nrows >= (size_t)ny)
        return 0;
    if (grow_reserve(&s->row_lo, &s->caplo, (size_t)ny, sizeof *s->row_lo)
        || grow_reserve(&s->row_hi, &s->caphi, (size_t)ny, sizeof *s->row_hi))
        return -1;
    s->nrows = (size_t)ny;
    return 0;
}

/* ---- candidate trees ------------------------------------------------------ */

/* The candidate walk: the sweep's rows consumed as they come (no row
 * array written and read back), each one's span written and the items of
 * its cells (contiguous in items[]) copied out, repeats and all; the
 * repeats go in a second pass (gather).  Most rows of the wedge hold no
 * item, most others one or two (on the article's map 58 %, 17 %, 12 %):
 * GRID_ITEMS_PAD (8) are copied always (the grid's padding is there to
 * read), and only a longer run takes a loop, so a row costs no branch that
 * goes one way as often as the other.  With 4 the loop's exit, known only
 * once the row's run is loaded, was mispredicted about every other query
 * (cachegrind); 8 made exact queries 2-4 % faster (bench-sight) for 14
 * more instructions. */
struct walk {
    const int *start, *items;
    int nx;
    struct sight_span *sp;
    int *out;                   /* the next listing; room for every one */
};

static inline void walk_row(void *ctx, int r, int lo, int hi)
{
    struct walk *k = ctx;
    struct sight_span *sp = k->sp++;
    sp->cy = r;
    sp->c0 = lo;
    sp->c1 = hi;
    const int *row = k->start + (size_t)r * k->nx;
    int k0 = row[lo], k1 = row[hi + 1];
    size_t m = (size_t)(k1 - k0);
    const int *run = k->items + k0;
    int *out = k->out;
    memcpy(out, run, GRID_ITEMS_PAD * sizeof *out);
    for (size_t j = GRID_ITEMS_PAD; j < m; j++)
        out[j] = run[j];
    k->out = out + m;
}

/* Up to this many listings in the whole grid (64 KiB of them), a scratch
 * keeps room for all of them; a bigger forest reserves what a wedge can
 * list, below. */
#define LISTED_WHOLE_MAX 16384

/* Room in s->listed for every listing of the rows the sweep of poly will
 * visit: its first and last, taken as the sweep takes them, and the
 * padding the walk writes past the end.  Reserved before, so the walk
 * checks nothing a row (and its state, not passed on, stays in
 * registers). */
static int listed_reserve(const struct tree_grid *g, const vec2 *poly, int np,
                          struct sight_scratch *s)
{
    /* A small forest (the article's map lists about 800): room for every
     * listing of the grid once, and no query reckons its rows again. */
    size_t all = (size_t)g->start[(size_t)g->nx * g->ny];
    if (all + GRID_ITEMS_PAD <= s->caplisted)
        return 0;
    if (all <= LISTED_WHOLE_MAX)
        return grow_reserve(&s->listed, &s->caplisted, all + GRID_ITEMS_PAD,
                            sizeof *s->listed);
    double inv = 1 / g->cell, ylo = poly[0].y * inv, yhi = ylo;
    for (int i = 1; i < np; i++) {
        double y = poly[i].y * inv;
        ylo = y < ylo ? y : ylo;
        yhi = y > yhi ? y : yhi;
    }
    int ra = grid_col_of(ylo - GRID_POLY_SLACK, g->ny);
    int rb = grid_col_of(yhi + GRID_POLY_SLACK, g->ny);
    size_t n = (size_t)(g->start[(size_t)(rb + 1) * g->nx] - g->start[(size_t)ra * g->nx]);
    if (n + GRID_ITEMS_PAD > s->caplisted) {
        /* Whole rows can hold most of a big forest's listings (a thin
         * wedge the height of the map): bound each row by the polygon's
         * columns as well, a cell and a relative hair wider than the
         * sweep's runs can reach, so a scratch holds what a wedge can
         * list, not the grid.  Only when the room kept is short. */
        double xlo = poly[0].x * inv, xhi = xlo;
        for (int i = 1; i < np; i++) {
            double x = poly[i].x * inv;
            xlo = x < xlo ? x : xlo;
            xhi = x > xhi ? x : xhi;
        }
        int ca = grid_col_of(xlo - 1 - fabs(xlo) * 1e-9, g->nx);
        int cb = grid_col_of(xhi + 1 + fabs(xhi) * 1e-9, g->nx);
        size_t m = 0;
        for (int r = ra; r <= rb; r++) {
            const int *row = g->start + (size_t)r * g->nx;
            m += (size_t)(row[cb + 1] - row[ca]);
        }
        n = m < n ? m : n;
    }
    return grow_reserve(&s->listed, &s->caplisted, n + GRID_ITEMS_PAD, sizeof *s->listed);
}

/* poly[(*np)++] = (x, y).  The corners are kept as two arrays of
 * coordinates, not as vec2s: GCC copied a vec2 that had been stored
 * coordinate by coordinate with one 16-byte load, which waits for both
 * stores to retire (no store forwards to a load wider than itself); two
 * arrays leave nothing to merge.  perf put about 8 % of the walk's time
 * on the two loads that waited so (the observer and the first corner). */
static inline void poly_put(vec2 *poly, int *np, double x, double y)
{
    poly[*np].x = x;
    poly[*np].y = y;
    ++*np;
}

/* The corner k of the outline: cx[k], cy[k] = v. */
static inline void corner_put(double *cx, double *cy, int k, vec2 v)
{
    cx[k] = v.x;
    cy[k] = v.y;
}

/* Room for gathering among nt trees: a mark per tree (a new stamp for
 * this gather), a candidate each, a span a row.  0, or -1. */
static int gather_room(const struct tree_grid *g, size_t nt, struct sight_scratch *s)
{
    if (s->nmark < nt) {
        size_t had = s->nmark;
        if (grow_reserve(&s->mark, &s->nmark, nt, sizeof *s->mark))
            return -1;
        memset(s->mark + had, 0, (s->nmark - had) * sizeof *s->mark);
    }
    /* Each tree is a candidate at most once: room for all of them (and
     * the one slot the loop below writes past the end) spares a check per
     * row. */
    if (grow_reserve(&s->cand, &s->capcand, nt + 1, sizeof *s->cand))
        return -1;
    /* Room for a span a row: the sweep gives the rows as it goes. */
    if (grow_reserve(&s->spans, &s->capspans, (size_t)g->ny, sizeof *s->spans))
        return -1;
    if (++s->stamp == 0) {
        memset(s->mark, 0, s->nmark * sizeof *s->mark);
        s->stamp = 1;
    }
    return 0;
}

/* The nl trees listed, each once, where it is first listed: the
 * candidates' count.  The mark's store does not wait on its load (a store
 * that did would hold up the next load of the same tree's mark, a row or
 * two on). */
static int once_each(struct sight_scratch *s, size_t nl)
{
    const int *listed = s->listed;
    unsigned *mark = s->mark, stamp = s->stamp;
    int *cand = s->cand;
    size_t nc = 0;
    for (size_t j = 0; j < nl; j++) {
        int i = listed[j];
        cand[nc] = i;
        nc += mark[i] != stamp;
        mark[i] = stamp;
    }
    s->ncand = nc;
    return (int)nc;
}

/* The target's outline as four corners in order round it; a circle's
 * wedge lies inside its bounding square's. */
static void shape_corners(const struct sight_shape *t, double cx[4], double cy[4])
{
    if (t->circle) {
        corner_put(cx, cy, 0, v2(t->c.x - t->r, t->c.y - t->r));
        corner_put(cx, cy, 1, v2(t->c.x + t->r, t->c.y - t->r));
        corner_put(cx, cy, 2, v2(t->c.x + t->r, t->c.y + t->r));
        corner_put(cx, cy, 3, v2(t->c.x - t->r, t->c.y + t->r));
    } else {
        vec2 a = v2_scale(t->axis, t->hl), b = v2_scale(v2_perp(t->axis), t->hw);
        corner_put(cx, cy, 0, v2_add(t->c, v2_add(a, b)));
        corner_put(cx, cy, 1, v2_add(t->c, v2_sub(a, b)));
        corner_put(cx, cy, 2, v2_sub(t->c, v2_add(a, b)));
        corner_put(cx, cy, 3, v2_add(t->c, v2_sub(b, a)));
    }
}

/* The sight wedge is the convex hull of the observer and the outline: the
 * triangle observer / outermost corner / outermost corner, joined to the
 * outline (the article's "do the list twice, once for each side of the
 * tank", done so no tree is missed).  Its boundary lies on the two long
 * sides and the outline's far edges.  The cells it touches are, in every
 * row, one run (it is convex); grid_convex_rows finds each run from the
 * two crossings of the row's borders, the exact cells walking the boundary
 * with Amanatides & Woo would give, at a third of the cost.  The rows are
 * those of the extended grid (border cells reaching past the map's edge,
 * as the tree grid lists them): a hull corner can stick out of the map,
 * and clipping there would lose the border cells of that row.  The
 * observer is the frame's (f->o): passed in two registers, GCC packed it
 * for the polygon through the stack, a 16-byte load waiting on two 8-byte
 * stores; frame_init()'s stores have long retired. */
static int gather(const struct world *w, const struct sight_shape *t,
                  const struct sight_frame *f, int on_top,
                  struct sight_scratch *s)
{
    const struct tree_grid *g = &w->tree_grid;
    const vec2 o = f->o;
    s->ncand = 0;
    s->nspans = 0;
    if (!g->start || g->nx <= 0 || w->trees.n == 0)
        return 0;
    if (gather_room(g, w->trees.n, s))
        return -1;
    double cx[4], cy[4];
    shape_corners(t, cx, cy);
    /* The wedge as a convex polygon, vertices in order round it. */
    vec2 poly[5];
    int np = 0;
    int il = f->ilo, ih = f->ihi;
    if (!on_top && t->circle) {
        /* The square's outermost corners; an observer inside the square
         * (but outside the circle) sees them over more than pi, and the
         * hull of it and the square is the square. */
        if (fabs(o.x - t->c.x) <= t->r && fabs(o.y - t->c.y) <= t->r) {
            on_top = 1;
        } else {
            double pl = 3, ph = -3;
            for (int i = 0; i < 4; i++) {
                vec2 q = sight_frame_of(f, v2(cx[i], cy[i]));
                double p = sight_pa(q.x, q.y);
                if (p < pl) { pl = p; il = i; }
                if (p > ph) { ph = p; ih = i; }
            }
        }
    }
    if (on_top) {
        /* Inside the outline: the outline is all of it. */
        for (int i = 0; i < 4; i++)
            poly_put(poly, &np, cx[i], cy[i]);
    } else if (il == ih) {
        /* An outline of no width: o and the corners on one line. */
        poly_put(poly, &np, o.x, o.y);
        for (int i = 0; i < 4; i++)
            poly_put(poly, &np, cx[i], cy[i]);
    } else {
        /* Of the outline only its far side bounds the wedge.  Outermost
         * corners side by side: the face between them faces the observer,
         * the far side is the other three edges; opposite: the far side
         * runs through the farther of the two corners between them. */
        poly_put(poly, &np, o.x, o.y);
        int d = (ih - il) & 3;
        if (d == 2) {
            int m1 = (il + 1) & 3, m3 = (il + 3) & 3;
            poly_put(poly, &np, cx[il], cy[il]);
            int m = v2_dist2(v2(cx[m1], cy[m1]), o) > v2_dist2(v2(cx[m3], cy[m3]), o)
                  ? m1 : m3;
            poly_put(poly, &np, cx[m], cy[m]);
        } else {
            int step = d == 1 ? 3 : 1;
            for (int i = il; i != ih; i = (i + step) & 3)
                poly_put(poly, &np, cx[i], cy[i]);
        }
        poly_put(poly, &np, cx[ih], cy[ih]);
    }
    if (listed_reserve(g, poly, np, s))
        return -1;
    struct walk k;
    k.start = g->start;
    k.items = g->items;
    k.nx = g->nx;
    k.sp = s->spans;
    k.out = s->listed;
    int r0, r1;
    if (grid_convex_sweep(g->cell, g->nx, g->ny, poly, np, &r0, &r1, walk_row, &k))
        return 0;

    s->nspans = (size_t)(k.sp - s->spans);
    return once_each(s, (size_t)(k.out - s->listed));
}

int sight_candidates(const struct world *w, vec2 o,
                     const struct sight_shape *t, struct sight_scratch *s)
{
    struct sight_frame f;
    int on_top = frame_init(&f, SIGHT_EXACT, o, t);
    return gather(w, t, &f, on_top, s);
}

/* ---- the dispatcher ----------------------------------------------------- */

/* The angles of the extent: a0 from the low end's direction in the
 * world, the width as sight_width() takes it. */
static void frame_angles(const struct sight_frame *f, int on_top,
                         struct sight_result *res)
{
    if (on_top) {
        double a = f->D > 0 ? atan2(f->t->c.y - f->o.y, f->t->c.x - f->o.x) : 0;
        res->a0 = res->a1 = sight_angle_norm(a);
        res->width = 0;
    } else {
        /* The low end back in the world: lo.x u + lo.y perp(u). */
        vec2 l = v2_add(v2_scale(f->u, f->lo.x), v2_scale(v2_perp(f->u), f->lo.y));
        res->a0 = sight_angle_norm(atan2(l.y, l.x));
        res->width = sight_width(f);
        res->a1 = res->a0 + res->width;
    }
}

_Static_assert(sizeof(struct sight_record) <= 128, "a sight record in two cache lines");

static void keep_extent(struct sight_record *r, const struct sight_shape *t,
                        int method)
{
    r->extent.axis = t->axis;
    r->extent.hl = t->circle ? t->r : t->hl;
    r->extent.hw = t->hw;
    r->circle = (unsigned char)t->circle;
    r->method = (unsigned char)method;
}

/* The frame again from the same doubles (sight_shape_of's outline at the
 * record's to, seen from its from), so the same angles. */
void sight_record_angles(const struct sight_record *r, double *a0, double *a1)
{
    struct sight_shape t;
    t.c = r->to;
    t.axis = r->extent.axis;
    t.circle = r->circle;
    t.hl = t.circle ? 0 : r->extent.hl;
    t.hw = r->extent.hw;
    t.r = t.circle ? r->extent.hl : 0;
    struct sight_frame f;
    int on_top = frame_init(&f, r->method, r->from, &t);
    struct sight_result res;
    frame_angles(&f, on_top, &res);
    *a0 = res.a0;
    *a1 = res.a1;
}

/* The answer in *res; its angles only when `angles`.  Always inline: out
 * of line, a query's one call spilt and reloaded the frame and the
 * arguments around it (34 of an exact query's 2,352 instructions on the
 * article's map, callgrind; 1 % in time). */
static inline __attribute__((always_inline))
double answer(const struct world *w, int m, struct sight_frame *f,
              int on_top, const int *cand, int n,
              struct sight_scratch *s, struct sight_result *res, int angles)
{
    double v;
    int deg = SIGHT_NORMAL;
    s->nhidden = 0;
    s->npieces = 0;
    if (on_top) {
        v = 1;
        deg = SIGHT_ON_TOP;
    } else {
        if (n > 0)
            sight_frame_depth(f);
        switch (m) {
        case SIGHT_CLASSIC:
            v = sight_classic(f, w->trees.p, cand, n, w->sight.samples, s);
            break;
        case SIGHT_EXACT:
        default:
            v = sight_exact(f, w->trees.p, cand, n, s);
            break;
        }
        if (v < 0) {
            v = 0;
            deg = SIGHT_INSIDE_TREE;
            s->nhidden = 0;
            if (!f->point
                && grow_reserve(&s->hidden, &s->caphidden, 1, sizeof *s->hidden) == 0) {
                s->hidden[0].a0 = 0;
                s->hidden[0].a1 = SIGHT_TO_END;
                s->nhidden = 1;
            }
        } else if (f->point) {
            deg = SIGHT_POINT;
        }
    }
    if (res) {
        res->visible = v;
        res->degenerate = deg;
        /* Without `angles` (the sense stage), still when something is
         * hidden: its intervals are recorded as angles, from this frame
         * (sight_record_angles() would build the same one again). */
        if (angles || s->nhidden)
            frame_angles(f, on_top, res);
        if (angles) {
            /* The width is known now: a part hidden to the high end says
             * where that is. */
            for (size_t i = 0; i < s->nhidden; i++)
                if (s->hidden[i].a1 == SIGHT_TO_END)
                    s->hidden[i].a1 = res->width;
        }
    }
    return v;
}

double sight_visible(const struct world *w, int m, vec2 o,
                     const struct sight_shape *t, const int *cand, int n,
                     struct sight_scratch *s, struct sight_result *res)
{
    struct sight_frame f;
    int on_top = frame_init(&f, m, o, t);
    return answer(w, m, &f, on_top, cand, n, s, res, 1);
}

static double query(const struct world *w, int m, vec2 o,
                    const struct sight_shape *t, struct sight_scratch *s,
                    struct sight_result *res, int angles)
{
    if (!angles && w->trees.n == 0) {
        /* Nothing can hide anything (a battle in the open): the frame is
         * not needed, and the angles are taken from the record if asked. */
        s->ncand = s->nspans = s->nhidden = s->npieces = 0;
        if (res) {
            res->visible = 1;
            res->degenerate = SIGHT_NORMAL;
        }
        return 1;
    }
    struct sight_frame f;
    int on_top = frame_init(&f, m, o, t);
    if (on_top)
        return answer(w, m, &f, on_top, NULL, 0, s, res, angles);
    int n = gather(w, t, &f, on_top, s);
    if (n < 0) {
        s->oom = 1;
        s->ncand = 0;
        n = 0;
    }
    return answer(w, m, &f, on_top, s->cand, n, s, res, angles);
}

double sight_query(const struct world *w, int m, vec2 o,
                   const struct sight_shape *t, struct sight_scratch *s,
                   struct sight_result *res)
{
    return query(w, m, o, t, s, res, 1);
}

int sight_hidden_angles(const struct sight_scratch *s,
                        const struct sight_result *res,
                        struct sight_interval *out, int max)
{
    int n = (int)s->nhidden;
    for (int i = 0; i < n && i < max; i++) {
        out[i].a0 = res->a0 + s->hidden[i].a0;
        /* res->a1 is res->a0 + the width, the same double. */
        out[i].a1 = s->hidden[i].a1 == SIGHT_TO_END ? res->a1
                  : res->a0 + s->hidden[i].a1;
    }
    return n;
}

/* ---- seen or not -------------------------------------------------------- */

/* The article's closing rules: 20 %, 10 % for a moving target, 40 % at the
 * edge of the view; the edge rule wins. */
enum sight_rule sight_rule_for(const struct sight_config *c, double fov,
                               double off, int moving)
{
    if (fabs(off) > c->edge * fov / 2)
        return SIGHT_RULE_EDGE;
    return moving ? SIGHT_RULE_MOVING : SIGHT_RULE_STILL;
}

double sight_rule_threshold(const struct sight_config *c, enum sight_rule r)
{
    return r == SIGHT_RULE_EDGE ? c->edge_threshold
         : r == SIGHT_RULE_MOVING ? c->moving_threshold : c->threshold;
}

double sight_threshold(const struct sight_config *c, double fov, double off,
                       int moving)
{
    return sight_rule_threshold(c, sight_rule_for(c, fov, off, moving));
}

/* ---- the sense phase ---------------------------------------------------- */

/* The angle off the axis of a target whose direction has cosine x with
 * it, as far as the edge rule (sight_rule_for) tells: 0 for a target
 * plainly inside the edge angle t = edge x fov / 2 (cos t by a margin
 * past what libm's roundings could undo), the acos otherwise.  Most
 * targets are, and cos t is taken once an observer's fov, not per pair. */
static double off_axis(const struct sight_config *c, double fov, double x,
                       struct sight_scratch *s)
{
    double t = c->edge * fov / 2;
    if (!s->edge_known || !(s->edge_angle == t)) {
        s->edge_known = 1;
        s->edge_angle = t;
        s->edge_cos = cos(t) + 1e-9;
    }
    return x >= s->edge_cos ? 0 : acos(clampd(x, -1, 1));
}

struct collect {
    const struct world *w;
    struct sight_store *st;
    int me, team;
    vec2 o, h;
    double range2, coshalf;
    int all_round;
    int fail;
};

/* Range and cone first, from the position alone: with thousands of
 * vehicles most of those the grid offers fail them, and the vehicle
 * records are large. */
/* Whether d (|d|^2 = d2) from the observer lies in the cone along h of
 * half-angle acos(coshalf).  The cone selects by the direction of the
 * centre only: within half when dot(h, d) >= |d| cos(half), squared to
 * spare the root.  Sight's targets and seen shells share it. */
static int in_cone(vec2 h, double coshalf, int all_round, vec2 d, double d2)
{
    if (all_round || d2 <= 0)
        return 1;
    double dot = v2_dot(h, d), k = coshalf;
    return k >= 0 ? dot >= 0 && dot * dot >= d2 * k * k
                  : dot >= 0 || dot * dot <= d2 * k * k;
}

static void collect_one(struct collect *c, int j, vec2 pos)
{
    vec2 d = v2_sub(pos, c->o);
    double d2 = v2_len2(d);
    if (!(d2 <= c->range2))
        return;
    if (!in_cone(c->h, c->coshalf, c->all_round, d, d2))
        return;
    const struct vehicle *t = &c->w->vehicles.p[j];
    if (j == c->me || !t->alive || t->team < 0 || t->team == c->team
        || (t->kind != VK_TANK && t->kind != VK_TURRET))
        return;
    struct sight_store *st = c->st;
    if (grow_reserve(&st->targets, &st->captargets, st->ntargets + 1,
                   sizeof *st->targets)) {
        c->fail = 1;
        return;
    }
    st->targets[st->ntargets++] = j;
}

/* The cone's rows (sight_cone_poly, grid_convex_rows) cost about what
 * testing this many entries does. */
#define CONE_MIN_ENTRIES 48

/* The enemies in range and cone, from the vehicle grid: only the cells of
 * the cone when it is convex and the range's square holds enough entries
 * on average (a crowd; a small map's square holds a handful), else every
 * cell of the square.  Enemies only, from the grid's copy of the team:
 * the vehicle record is read only for those in range and cone. */
static void collect_grid(struct collect *c, const struct vehicle_grid *g,
                         double range)
{
    struct sight_scratch *s = &c->st->scratch;
    int x0 = grid_cell_of(c->o.x - range, g->cell, g->nx);
    int x1 = grid_cell_of(c->o.x + range, g->cell, g->nx);
    int r0 = grid_cell_of(c->o.y - range, g->cell, g->ny);
    int r1 = grid_cell_of(c->o.y + range, g->cell, g->ny);
    double expect = (double)(x1 - x0 + 1) * (r1 - r0 + 1) * g->n
                  / ((double)g->nx * g->ny);
    vec2 poly[GRID_POLY_MAX];
    int np = c->all_round || !(expect >= CONE_MIN_ENTRIES) ? 0
           : sight_cone_poly(c->o, c->h, c->coshalf, range, poly);
    int cr0, cr1;
    int cone = np > 0 && rows_reserve(s, g->ny) == 0
        && grid_convex_rows(g->cell, g->nx, g->ny, poly, np, &cr0, &cr1,
                            s->row_lo, s->row_hi) == 0;
    if (cone) {
        r0 = cr0;
        r1 = cr1;
    }
    for (int r = r0; r <= r1; r++) {
        /* The cells of a row are contiguous in items[]. */
        const int *row = g->start + (size_t)r * g->nx;
        int k0 = row[cone ? s->row_lo[r] : x0], k1 = row[(cone ? s->row_hi[r] : x1) + 1];
        for (int k = k0; k < k1; k++) {
            const struct vgrid_entry *it = &g->items[k];
            if (it->team >= 0 && it->team != c->team)
                collect_one(c, it->index, it->pos);
        }
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void sort_ints(int *a, size_t n)
{
    if (n > 16) {
        qsort(a, n, sizeof *a, cmp_int);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        int x = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* One observer looks at one target: the record and its details into
 * out.  0, or -1 when memory ran out (the record is then not
 * written). */
static int look(const struct world *w, struct sight_out *out,
                struct sight_scratch *s, int me, int j, double half)
{
    const struct vehicle *v = &w->vehicles.p[me], *t = &w->vehicles.p[j];
    struct sight_shape shape = sight_shape_of(t);
    struct sight_result res;
    /* The angles only when something is hidden (answer()). */
    double vis = query(w, v->p->sight, v->pos, &shape, s, &res, 0);

    vec2 d = v2_sub(t->pos, v->pos);
    double dl = v2_len(d), off = 0;
    if (dl > 0) {
        vec2 h = vehicle_sensor_dir(v);
        off = off_axis(&w->sight, v->p->fov, v2_dot(h, d) / dl, s);
    }
    if (off > half)             /* rounding at the cone's edge */
        off = half;

    if (WORLD_RESERVE(out->sights, out->sights.n + 1)
        || WORLD_RESERVE(out->intervals, out->intervals.n + s->nhidden)
        || grow_reserve(&out->spans, &out->capspans, out->nspans + s->nspans, sizeof *out->spans)
        || grow_reserve(&out->trees, &out->captrees, out->ntrees + s->ncand, sizeof *out->trees))
        return -1;
    struct sight_record *r = &out->sights.p[out->sights.n++];
    memset(r, 0, sizeof *r);
    r->observer = me;
    r->target = j;
    r->visible = vis;
    enum sight_rule rule = sight_rule_for(&w->sight, v->p->fov, off, t->speed > 0);
    r->rule = (unsigned char)rule;
    r->threshold = sight_rule_threshold(&w->sight, rule);
    r->seen = (unsigned char)(vis >= r->threshold);
    r->from = v->pos;
    r->to = t->pos;
    keep_extent(r, &shape, v->p->sight);
    r->first_interval = (int)out->intervals.n;
    /* No hidden interval: the array may still be unallocated, and even
     * NULL + 0 is undefined behaviour. */
    r->n_intervals = s->nhidden == 0 ? 0
        : sight_hidden_angles(s, &res, out->intervals.p + out->intervals.n,
                              (int)s->nhidden);
    out->intervals.n += (size_t)r->n_intervals;
    r->first_span = (int)out->nspans;
    r->n_spans = (int)s->nspans;
    if (s->nspans)
        memcpy(out->spans + out->nspans, s->spans, s->nspans * sizeof *s->spans);
    out->nspans += s->nspans;
    r->first_tree = (int)out->ntrees;
    r->n_trees = (int)s->ncand;
    if (s->ncand)
        memcpy(out->trees + out->ntrees, s->cand, s->ncand * sizeof *s->cand);
    out->ntrees += s->ncand;
    return 0;
}

void sight_event_of(const struct sight_record *r, struct event *e)
{
    memset(e, 0, sizeof *e);
    e->kind = EV_SIGHT;
    e->a = r->observer;
    e->b = r->target;
    e->u.sight.visible = r->visible;
    e->u.sight.seen = r->seen;
    e->u.sight.method = (enum sight_method)r->method;
}

int sight_collect(const struct world *w, struct sight_store *st, size_t i)
{
    const struct vehicle *v = &w->vehicles.p[i];
    st->ntargets = 0;
    if (!v->alive || v->team < 0 || (v->kind != VK_TANK && v->kind != VK_TURRET))
        return 0;
    double half = v->p->fov / 2;
    struct collect c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.st = st;
    c.me = (int)i;
    c.team = v->team;
    c.o = v->pos;
    c.h = vehicle_sensor_dir(v);
    c.range2 = v->p->view_range * v->p->view_range;
    c.all_round = half >= M_PI;
    c.coshalf = cos(half);
    if (w->scratch.vgrid.start && w->scratch.vgrid.nx > 0)
        collect_grid(&c, &w->scratch.vgrid, v->p->view_range);
    else
        for (size_t j = 0; j < w->vehicles.n; j++)
            collect_one(&c, (int)j, w->vehicles.p[j].pos);
    sort_ints(st->targets, st->ntargets);
    return c.fail ? -1 : 0;
}

int sight_look_at(struct world *w, struct sight_out *out, struct sight_scratch *s,
                  size_t i, const int *targets, size_t n)
{
    int rc = 0;
    struct vehicle *v = &w->vehicles.p[i];
    v->sight_first = (int)out->sights.n;
    double half = v->p->fov / 2;
    for (size_t k = 0; k < n; k++) {
        /* A query out of memory answers as if nothing hid the target and
         * says so in oom: the tick's error, not a wrong record. */
        s->oom = 0;
        if (look(w, out, s, (int)i, targets[k], half) || s->oom)
            rc = -1;
    }
    v->sight_count = (int)out->sights.n - v->sight_first;
    return rc;
}

int sight_sees_shell(const struct world *w, int i, const struct shell *sh)
{
    const struct vehicle *v = &w->vehicles.p[i];
    if (!sh->alive || !v->alive || v->kind == VK_CAR)
        return 0;
    vec2 d = v2_sub(sh->pos, v->pos);
    double d2 = v2_len2(d), half = v->p->fov / 2;
    double range = v->p->view_range;
    if (!(d2 <= range * range)
        || !in_cone(vehicle_sensor_dir(v), cos(half), half >= M_PI, d, d2))
        return 0;
    return trees_clear(w, v->pos, sh->pos);
}
