/* test-shell-index.c — the shells by cell (src/core/shell_index.c) against
 * a walk over every shell: on random fields of shells (some ended, some
 * on one point, some far apart), every query's rows hold each alive shell
 * within the radius, none twice, and no ended shell; each cell's items
 * ascend; an index answers only for the shells it was made from. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/aim/aim.h"
#include "core/rng.h"
#include "core/shell_index.h"

/* n shells in a w x h field at (ox, oy); a fifth ended; `point`: all on one
 * spot. */
static struct shell *field(struct rng *r, size_t n, double ox, double oy, double w, double h,
                           int point)
{
    struct shell *s = calloc(n ? n : 1, sizeof *s);
    for (size_t k = 0; k < n; k++) {
        s[k].id = (long)k + 1;
        s[k].alive = rng_below(r, 5) != 0;
        s[k].pos = point ? v2(ox, oy) : v2(ox + rng_range(r, 0, w), oy + rng_range(r, 0, h));
        double a = rng_range(r, -M_PI, M_PI), sp = rng_range(r, 0, 500);
        s[k].vel = v2(sp * cos(a), sp * sin(a));
    }
    return s;
}

/* Every query of q random points and radii over x: the shells the rows
 * give (counted per shell) against the walk; returns the queries that
 * went wrong. */
static int queries(const struct shell_index *x, const struct shell *s, size_t n,
                   struct rng *r, double ox, double oy, double w, double h, int q,
                   long *found)
{
    int bad = 0;
    int *seen = calloc(n ? n : 1, sizeof *seen);
    for (int t = 0; t < q; t++) {
        /* points inside, near and far outside the field; radii from 0 to
         * past the field */
        vec2 p = v2(ox + rng_range(r, -0.5, 1.5) * (w + 1), oy + rng_range(r, -0.5, 1.5) * (h + 1));
        double rad = t % 7 == 0 ? 0 : rng_range(r, 0, 1.2 * (w > h ? w : h) + 10);
        if (t % 3 == 1 && n) {
            /* a shell just on the circle: the float test decides */
            size_t k = rng_below(r, (uint32_t)n);
            rad = sqrt(v2_len2(v2_sub(s[k].pos, p)));
            if (t % 2)
                rad = nextafter(rad, 0);
        }
        memset(seen, 0, (n ? n : 1) * sizeof *seen);
        struct shell_walk it;
        uint32_t j0, j1;
        shell_walk_start(&it, x, p, rad);
        while (shell_walk_next(&it, &j0, &j1)) {
            for (uint32_t j = j0; j < j1; j++) {
                const struct shell_pt *pt = &x->item[j];
                if (pt->k >= n || !s[pt->k].alive || pt->pos.x != s[pt->k].pos.x
                    || pt->vel.y != s[pt->k].vel.y || pt->speed != v2_len(s[pt->k].vel))
                    bad++;
                else
                    seen[pt->k]++;
            }
        }
        int wrong = 0;
        for (size_t k = 0; k < n; k++) {
            vec2 d = v2_sub(s[k].pos, p);
            int near = s[k].alive && v2_len2(d) <= rad * rad;
            wrong += seen[k] > 1 || (near && seen[k] != 1);
            *found += near;
        }
        if (wrong && bad < 3)
            tap_note("query at (%.17g, %.17g) r %.17g: %d shells wrong", p.x, p.y, rad, wrong);
        bad += wrong != 0;
    }
    free(seen);
    return bad;
}

/* Each cell's items in the shells' order, and every alive shell in one. */
static int cells_ascend(const struct shell_index *x, const struct shell *s, size_t n)
{
    size_t cells = (size_t)x->nx * (size_t)x->ny, alive = 0;
    for (size_t k = 0; k < n; k++)
        alive += s[k].alive != 0;
    int bad = x->start[0] != 0 || x->start[cells] != alive;
    for (size_t c = 0; c < cells; c++)
        for (uint32_t j = x->start[c] + 1; j < x->start[c + 1]; j++)
            bad += x->item[j - 1].k >= x->item[j].k;
    return bad;
}

/* The box test in doubles that the float boxes stand in for. */
static int path_near(const struct shell_pt *pt, vec2 p, double w)
{
    return (p.x >= pt->bx0 - w) & (p.x <= pt->bx1 + w) & (p.y >= pt->by0 - w) & (p.y <= pt->by1 + w);
}

/* The float boxes pass every box the doubles pass: on points anywhere,
 * just on a widened edge of a box (and a double's step inside or out),
 * with widths from 0 to the field's width, and with widths a billion
 * times the box's place; and they do turn most far boxes away. */
TEST(float_boxes_pass_every_near_path)
{
    struct rng r;
    rng_seed(&r, 8, 3);
    struct shell_index x = { 0 };
    long missed = 0, passed = 0, turned = 0, edges = 0;
    static const double scale[] = { 1, 1e3, 1e6, 1e9 };
    for (int f = 0; f < 8; f++) {
        double sc = scale[f % 4];
        double ox = rng_range(&r, -5, 5) * sc, oy = rng_range(&r, -5, 5) * sc;
        size_t n = 500;
        struct shell *s = field(&r, n, ox, oy, sc, f % 2 ? sc : sc / 1000, 0);
        check_int(shell_index_make(&x, s, n, 2.0), ==, 0);
        size_t items = x.start[(size_t)x.nx * (size_t)x.ny];
        for (int t = 0; t < 400; t++) {
            double w = t % 5 == 0 ? 0 : rng_range(&r, 0, t % 3 ? 200 : sc);
            vec2 p = v2(ox + rng_range(&r, -0.5, 1.5) * sc, oy + rng_range(&r, -0.5, 1.5) * sc);
            const struct shell_pt *on = &x.item[rng_below(&r, (uint32_t)items)];
            if (t % 2) {
                /* on an edge of one widened box, its other coordinate
                 * within the box, and a double's step in or out */
                double ex[4] = { on->bx0 - w, on->bx1 + w, on->by0 - w, on->by1 + w };
                int e = (int)rng_below(&r, 4);
                double v = ex[e], in = e % 2 ? -INFINITY : INFINITY;
                if (t % 8 == 3)
                    v = nextafter(v, in);
                if (t % 8 == 7)
                    v = nextafter(v, -in);
                if (e < 2) {
                    p.x = v;
                    p.y = rng_range(&r, ex[2], ex[3]);
                } else {
                    p.y = v;
                    p.x = rng_range(&r, ex[0], ex[1]);
                }
                edges++;
            }
            float qf[4];
            shell_box_query(p, w, qf);
            shell_query q = shell_query_of(qf);
            for (size_t j = 0; j < items; j++) {
                int fl = shell_box_near(x.box + 4 * j, q), ex = path_near(&x.item[j], p, w);
                missed += ex && !fl;
                passed += ex;
                turned += !fl;
            }
        }
        free(s);
    }
    /* p just on an edge widened by a w far larger than the box's place:
     * p.x + w then rounds by more than a float's step there (the query's
     * slack covers it) */
    long wide_edges = 0;
    for (int t = 0; t < 20000; t++) {
        struct shell_pt pt = { 0 };
        pt.bx0 = rng_range(&r, -10, 10);
        pt.bx1 = pt.bx0 + rng_range(&r, 0, 5);
        pt.by0 = rng_range(&r, -10, 10);
        pt.by1 = pt.by0 + rng_range(&r, 0, 5);
        float b[4] = { shell_float(pt.bx0), shell_float(-pt.bx1),
                       shell_float(pt.by0), shell_float(-pt.by1) };
        double w = rng_range(&r, 1e6, 1e9);
        vec2 p = v2(t % 2 ? pt.bx0 - w : pt.bx1 + w, rng_range(&r, pt.by0, pt.by1));
        if (!path_near(&pt, p, w))
            continue;
        float qf[4];
        shell_box_query(p, w, qf);
        missed += !shell_box_near(b, shell_query_of(qf));
        wide_edges++;
    }
    /* the rounding itself: monotone (what keeps the order of the sums
     * and the edges), to the nearest float, from subnormals to past
     * FLT_MAX, where it goes to infinity instead of a cast out of range */
    long rounding = 0;
    for (int t = 0; t < 100000; t++) {
        double a = ldexp(rng_range(&r, -1, 1), (int)rng_below(&r, 2097) - 1073);
        double b = t % 3 ? nextafter(a, INFINITY) : a + fabs(a) * rng_unit(&r);
        float fa = shell_float(a), fb = shell_float(b);
        int bad = !(fa <= fb);
        if (fabs(a) <= FLT_MAX)
            bad |= !((double)nextafterf(fa, -INFINITY) < a && a < (double)nextafterf(fa, INFINITY));
        else
            bad |= !(fa == (a > 0 ? INFINITY : -INFINITY));
        if (bad && rounding++ < 3)
            tap_note("rounding: %a -> %a, %a -> %a", a, (double)fa, b, (double)fb);
    }
    tap_note("%ld boxes near, %ld turned away by the floats, %ld near that they missed; "
             "%ld points on an edge, %ld with a wide w; %ld roundings wrong",
             passed, turned, missed, edges, wide_edges, rounding);
    check_int(rounding, ==, 0);
    check_int(wide_edges, >, 5000);
    check_int(missed, ==, 0);
    check_int(passed, >, 1000);
    check_int(turned, >, 100000);
    shell_index_free(&x);
}

TEST(queries_find_every_shell_within_reach)
{
    struct rng r;
    rng_seed(&r, 7, 1);
    struct shell_index x = { 0 };
    long found = 0;
    int fields = 0;
    /* sizes 0 to thousands; fields wide, thin, tiny, on one point */
    static const double dims[][2] = { { 10000, 10000 }, { 5000, 3 }, { 1, 1 },
                                      { 0, 0 }, { 800, 800 }, { 1e6, 1e6 } };
    static const size_t counts[] = { 0, 1, 2, 17, 300, 4000 };
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            double ox = rng_range(&r, -5000, 5000), oy = rng_range(&r, -5000, 5000);
            size_t n = counts[c];
            struct shell *s = field(&r, n, ox, oy, dims[d][0], dims[d][1], dims[d][0] == 0);
            check_int(shell_index_make(&x, s, n, 2.0), ==, 0);
            check(shell_index_for(&x, s, n) == &x);
            check_int(cells_ascend(&x, s, n), ==, 0);
            check_int(queries(&x, s, n, &r, ox, oy, dims[d][0], dims[d][1], 60, &found), ==, 0);
            fields++;
            free(s);
        }
    check_int(fields, ==, 36);
    check_int(found, >, 10000);     /* the queries did reach shells */
    shell_index_free(&x);
}

TEST(an_index_answers_only_for_its_own_shells)
{
    struct rng r;
    rng_seed(&r, 8, 1);
    struct shell *s = field(&r, 50, 0, 0, 100, 100, 0);
    struct shell_index x = { 0 };
    check(shell_index_for(&x, s, 50) == NULL);          /* never made */
    check_int(shell_index_make(&x, s, 50, 2.0), ==, 0);
    check(shell_index_for(&x, s, 50) == &x);
    check(shell_index_for(&x, s, 49) == NULL);          /* another count */
    check(shell_index_for(&x, s + 1, 49) == NULL);      /* another array */
    check(shell_index_for(NULL, s, 50) == NULL);
    shell_index_clear(&x);
    check(shell_index_for(&x, s, 50) == NULL);          /* cleared */
    s[3].pos.x = NAN;                                   /* refused, not placed */
    check_int(shell_index_make(&x, s, 50, 2.0), ==, -1);
    check(shell_index_for(&x, s, 50) == NULL);
    s[3].pos.x = 1;
    s[3].alive = 0;
    s[4].pos.y = INFINITY;
    s[4].alive = 0;                                     /* an ended one is not read */
    check_int(shell_index_make(&x, s, 50, 2.0), ==, 0);
    check_int(cells_ascend(&x, s, 50), ==, 0);
    long found = 0;
    check_int(queries(&x, s, 50, &r, 0, 0, 100, 100, 40, &found), ==, 0);
    check(found > 0);
    shell_index_free(&x);
    free(s);
}

int main(void)
{
    run(float_boxes_pass_every_near_path,
        "the float boxes pass every path box the doubles pass, edges included");
    run(queries_find_every_shell_within_reach,
        "every query finds each alive shell within its radius once, on 36 random fields");
    run(an_index_answers_only_for_its_own_shells,
        "an index answers only for the shells it was made from; a position not finite is refused");
    return tap_done();
}
