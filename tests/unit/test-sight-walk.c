/* test-sight-walk.c — the candidate walk (issue 18, part 3) equals the old
 * one and the brute force: on random maps, with rays along cell edges and
 * through cell corners, trees straddling cells, huge and tiny trees,
 * observers on cell borders and on their targets, targets off the map,
 * sight_candidates() gives the spans and trees, in order, of the old walk
 * kept in tests/lib/sight-walk-oracle.c; and an exact query through the grid
 * answers, bit for bit, what the same query over every tree answers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/sight-walk-oracle.h"
#include "core/world.h"
#include "core/grid.h"

#include "../lib/scene-rng.h"
static int coin(double p) { return rnd() < p; }

/* A coordinate, snapped to a cell border a third of the time. */
static double coord(double lo, double hi, double cell)
{
    double v = rr(lo, hi);
    return coin(1.0 / 3) ? floor(v / cell) * cell : v;
}

static void random_map(struct world *w)
{
    static const double cells[] = { 7.5, 10, 40, 40, 40, 100, 333.25 };
    double W = coin(0.2) ? rr(20, 200) : rr(300, 3000);
    double H = coin(0.2) ? rr(20, 200) : rr(300, 3000);
    /* A fifth of the maps a thicket: small, many trees to a cell. */
    int dense = coin(0.2);
    if (dense)
        W = H = rr(200, 400);
    world_init(w, W, H);
    w->cell = cells[(int)(rnd() * 7)];
    int n = dense ? 300 : coin(0.1) ? 0 : (int)rr(1, 300);
    for (int i = 0; i < n; i++) {
        double r, k = dense ? 1 : rnd();
        if (k < 0.1)
            r = rr(1e-3, 1);                    /* tiny */
        else if (k < 0.2)
            r = rr(0.5, 3) * w->cell;           /* spans cells */
        else if (k < 0.25)
            r = rr(0.2, 0.6) * (W < H ? W : H); /* huge */
        else if (k < 0.35)
            r = w->cell / 2;                    /* touches borders */
        else
            r = rr(15, 30);
        vec2 c = v2(coord(-r / 2, W + r / 2, w->cell), coord(-r / 2, H + r / 2, w->cell));
        if (k >= 0.25 && k < 0.35)
            c = v2(floor(c.x / w->cell) * w->cell + w->cell / 2,
                   floor(c.y / w->cell) * w->cell + w->cell / 2);
        world_add_tree(w, c, r);
    }
}

static struct sight_shape random_target(const struct world *w, vec2 o)
{
    struct sight_shape t;
    memset(&t, 0, sizeof t);
    double cell = w->cell, k = rnd();
    if (k < 0.15) {
        /* along a cell edge: the same column border, or row border */
        t.c = coin(0.5) ? v2(o.x, coord(-100, w->height + 100, cell))
                        : v2(coord(-100, w->width + 100, cell), o.y);
    } else if (k < 0.3) {
        /* through cell corners: a diagonal of whole cells */
        double n = floor(rr(-20, 20));
        t.c = v2(o.x + n * cell, o.y + (coin(0.5) ? n : -n) * cell);
    } else if (k < 0.35) {
        t.c = v2(o.x + rr(-5, 5), o.y + rr(-5, 5));     /* on top, or nearly */
    } else {
        t.c = v2(coord(-200, w->width + 200, cell), coord(-200, w->height + 200, cell));
    }
    if (coin(0.3)) {
        t.circle = 1;
        t.r = coin(0.2) ? rr(1e-3, 1) : rr(5, 3 * cell);
        t.axis = v2(1, 0);
    } else {
        static const double axes[] = { 0, M_PI / 2, M_PI / 4, M_PI };
        double a = coin(0.3) ? axes[(int)(rnd() * 4)] : rr(-M_PI, M_PI);
        t.axis = v2_dir(a);
        t.hl = coin(0.1) ? rr(1e-3, 1) : rr(5, 60);
        t.hw = coin(0.1) ? rr(1e-3, 1) : rr(3, 40);
    }
    return t;
}

/* The same doubles: compared as bits. */
static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* One query through the walk and through the frozen old one (the old
 * spans in sp, its trees in cand, *nsp rows): how many trees the old walk
 * gave; a mismatch counted in *bad, the first three noted. */
static int same_walk(const struct world *w, vec2 o, const struct sight_shape *t,
                     struct sight_scratch *s, struct sight_span *sp, int *cand,
                     size_t *nsp, int m, int q, long *bad)
{
    int n = oracle_candidates(w, o, t, sp, nsp, cand);
    int got = sight_candidates(w, o, t, s);
    int ok = got == n && s->ncand == (size_t)n && s->nspans == *nsp
        && (n == 0 || memcmp(s->cand, cand, (size_t)n * sizeof *cand) == 0)
        && (*nsp == 0 || memcmp(s->spans, sp, *nsp * sizeof *sp) == 0);
    if (!ok && (*bad)++ < 3)
        tap_note("map %d query %d: %d trees %zu rows, old walk %d trees %zu rows",
                 m, q, got, s->nspans, n, *nsp);
    return n;
}

TEST(walk_equals_old_walk)
{
    long queries = 0, bad = 0, rows = 0, listed = 0, long_runs = 0;
    for (int m = 0; m < 60; m++) {
        struct world w;
        random_map(&w);
        if (world_finish(&w)) {
            check(!"out of memory");
            return;
        }
        struct sight_scratch s;
        memset(&s, 0, sizeof s);
        struct sight_span *sp = malloc(((size_t)w.tree_grid.ny + 1) * sizeof *sp);
        int *cand = malloc((w.trees.n + 1) * sizeof *cand);
        for (int q = 0; q < 400; q++) {
            vec2 o = v2(coord(-50, w.width + 50, w.cell), coord(-50, w.height + 50, w.cell));
            struct sight_shape t = random_target(&w, o);
            size_t nsp;
            int n = same_walk(&w, o, &t, &s, sp, cand, &nsp, m, q, &bad);
            queries++;
            rows += (long)nsp;
            listed += n;
            for (size_t k = 0; k < nsp; k++) {
                const int *row = w.tree_grid.start + (size_t)sp[k].cy * w.tree_grid.nx;
                long_runs += row[sp[k].c1 + 1] - row[sp[k].c0] > GRID_ITEMS_PAD;
            }
        }
        free(sp);
        free(cand);
        sight_scratch_free(&s);
        world_free(&w);
    }
    tap_note("%ld queries, %ld rows (%ld of more than %d listings), %ld candidates",
             queries, rows, long_runs, GRID_ITEMS_PAD, listed);
    check_int(bad, ==, 0);
    check_int(long_runs, >, rows / 20);
    check_int(rows, >, queries);
    check_int(listed, >, queries);
}

TEST(query_equals_brute_force)
{
    long queries = 0, bad = 0, partly = 0;
    for (int m = 0; m < 40; m++) {
        struct world w;
        random_map(&w);
        if (world_finish(&w)) {
            check(!"out of memory");
            return;
        }
        struct sight_scratch s, b;
        memset(&s, 0, sizeof s);
        memset(&b, 0, sizeof b);
        int *all = malloc((w.trees.n + 1) * sizeof *all);
        unsigned char *in = malloc(w.trees.n + 1);
        for (int q = 0; q < 300; q++) {
            vec2 o = v2(coord(-50, w.width + 50, w.cell), coord(-50, w.height + 50, w.cell));
            struct sight_shape t = random_target(&w, o);
            /* Exact only: classic has no depth test, so a tree behind
             * the target (outside the wedge) hides it over all trees. */
            {
                int mth = SIGHT_EXACT;
                struct sight_result rg, rb;
                double vg = sight_query(&w, mth, o, &t, &s, &rg);
                /* Every tree: the candidates first, in their order (ties
                 * between intervals then fall the same way), then all
                 * the others, which must change nothing. */
                size_t n = 0;
                memset(in, 0, w.trees.n + 1);
                for (size_t k = 0; k < s.ncand; k++) {
                    all[n++] = s.cand[k];
                    in[s.cand[k]] = 1;
                }
                for (size_t i = 0; i < w.trees.n; i++)
                    if (!in[i])
                        all[n++] = (int)i;
                double vb = sight_visible(&w, mth, o, &t, all, (int)n, &b, &rb);
                queries++;
                partly += vg > 0 && vg < 1;
                int ok = same(vg, vb) && same(rg.a0, rb.a0) && same(rg.a1, rb.a1)
                    && rg.degenerate == rb.degenerate && s.nhidden == b.nhidden
                    && (s.nhidden == 0
                        || memcmp(s.hidden, b.hidden, s.nhidden * sizeof *s.hidden) == 0);
                if (!ok && bad++ < 3)
                    tap_note("map %d query %d: grid %.17g, all trees %.17g",
                             m, q, vg, vb);
            }
        }
        free(all);
        free(in);
        sight_scratch_free(&s);
        sight_scratch_free(&b);
        world_free(&w);
    }
    tap_note("%ld queries, %ld partly visible", queries, partly);
    check_int(bad, ==, 0);
    check_int(partly, >, queries / 50);
}

/* A target whose outline (a hull's, or a circle's bounding square) has
 * level edges lying on row borders, seen now and then from an observer on
 * one of those borders: the sweep carries such an edge's far vertex into
 * the next band (a level edge lies in both), which no crossing of the
 * chains gives.  The maps' forests fall on both sides of the whole-grid
 * room (a small forest's walk keeps room for every listing, a big one's
 * what its wedge can list). */
static struct sight_shape bordered_target(const struct world *w, vec2 *o)
{
    struct sight_shape t;
    memset(&t, 0, sizeof t);
    double cell = w->cell, half = cell / 2;
    double cx = floor(rr(-2, w->width / cell + 2)) * cell;
    double cy = floor(rr(-2, w->height / cell + 2)) * cell;
    /* Edges on borders: a centre on a border and a half-size a multiple
     * of the cell, or on a half cell and an odd multiple of half a cell. */
    int odd = coin(0.5);
    t.c = v2(cx + (coin(0.5) ? half : 0), cy + (odd ? half : 0));
    double k1 = floor(rr(1, 4)), k2 = floor(rr(1, 4));
    double hy = odd ? (2 * k1 - 1) * half : k1 * cell;
    if (coin(0.3)) {
        t.circle = 1;
        t.r = hy;
        t.axis = v2(1, 0);
    } else {
        /* Lengthwise along x (axis 0 or pi) or along y (pi/2); along x
         * now and then tilted by a hair, so that its long edges cross a
         * border within the sweep's slack: the chain passes both ends in
         * one band, and only the carry keeps the first. */
        int along_y = coin(0.4);
        double tilt = coin(0.2) ? 0 : (coin(0.5) ? 1 : -1) * rr(1e-11, 1e-8);
        t.axis = along_y ? v2_dir(M_PI / 2) : v2_dir((coin(0.5) ? 0 : M_PI) + tilt);
        t.hl = along_y ? hy : k2 * half;
        t.hw = along_y ? k2 * half : hy;
    }
    double top = t.c.y - hy, bottom = t.c.y + hy;
    o->x = coin(0.3) ? floor(rr(-1, w->width / cell + 1)) * cell : rr(-50, w->width + 50);
    double k = rnd();
    o->y = k < 0.25 ? top : k < 0.5 ? bottom : coord(-50, w->height + 50, cell);
    return t;
}

TEST(walk_level_edges_on_borders)
{
    long queries = 0, bad = 0, rows = 0, small = 0, big = 0;
    for (int m = 0; m < 60; m++) {
        struct world w;
        random_map(&w);
        if (world_finish(&w)) {
            check(!"out of memory");
            return;
        }
        size_t total = (size_t)w.tree_grid.start[(size_t)w.tree_grid.nx * w.tree_grid.ny];
        small += total > 0 && total <= 16384;
        big += total > 16384;
        struct sight_scratch s;
        memset(&s, 0, sizeof s);
        struct sight_span *sp = malloc(((size_t)w.tree_grid.ny + 1) * sizeof *sp);
        int *cand = malloc((w.trees.n + 1) * sizeof *cand);
        for (int q = 0; q < 300; q++) {
            vec2 o;
            struct sight_shape t = bordered_target(&w, &o);
            size_t nsp;
            same_walk(&w, o, &t, &s, sp, cand, &nsp, m, q, &bad);
            queries++;
            rows += (long)nsp;
        }
        free(sp);
        free(cand);
        sight_scratch_free(&s);
        world_free(&w);
    }
    tap_note("%ld queries, %ld rows; %ld maps of up to 16,384 listings, %ld of more",
             queries, rows, small, big);
    check_int(bad, ==, 0);
    check_int(rows, >, queries);
    check_int(small, >, 10);
    check_int(big, >, 0);
}

/* A thin wedge the height of a dense forest: the walk's room is what the
 * wedge's rows list within its columns, not every listing of those rows
 * (a scratch per thread keeps what it grew to). */
TEST(walk_room_bounded_by_wedge)
{
    struct world w;
    world_init(&w, 1000, 1000);
    w.cell = 4;
    for (int i = 0; i < 60000; i++)
        world_add_tree(&w, v2(rr(4, 996), rr(4, 996)), 3.2);
    if (world_finish(&w)) {
        check(!"out of memory");
        return;
    }
    size_t total = (size_t)w.tree_grid.start[(size_t)w.tree_grid.nx * w.tree_grid.ny];
    struct sight_scratch s;
    memset(&s, 0, sizeof s);
    struct sight_shape t;
    memset(&t, 0, sizeof t);
    t.c = v2(500, 1050);
    t.circle = 1;
    t.r = 1;
    t.axis = v2(1, 0);
    int n = sight_candidates(&w, v2(500.5, -50), &t, &s);
    tap_note("%d candidates, room for %zu listings of the grid's %zu", n, s.caplisted, total);
    check_int(n, >, 100);
    check(s.caplisted < total / 16);
    sight_scratch_free(&s);
    world_free(&w);
}

int main(void)
{
    run(walk_equals_old_walk, "candidate walk: the old walk's spans and trees, in order, on random maps");
    run(walk_level_edges_on_borders, "candidate walk: level edges on row borders (carried to the next band), small and big forests");
    run(walk_room_bounded_by_wedge, "candidate walk: a thin wedge through a dense forest reserves what it can list, not the grid");
    run(query_equals_brute_force, "exact: a query through the grid answers what one over every tree does, bit for bit");
    return tap_done();
}
