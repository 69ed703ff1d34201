/* chart.c — --chart: the aggregate drawn in 80 columns with the viewer's
 * canvas (src/view/canvas.c): braille dots on a UTF-8 terminal, ASCII
 * glyphs otherwise.
 *
 * For each group of settings, a bar a team (and one for draws): its win
 * rate, with the 95% interval as a line under it ending in ticks (ASCII:
 * '#' for the bar, '[' ... ']' for the interval).  When the groups differ
 * in one setting only (a sweep), a plot of each team's win rate against
 * the setting's values follows, intervals as vertical bars. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tour_impl.h"
#include "io/map.h"
#include "view/canvas_string.h"

/* Chart strokes: solid with slope glyphs in ASCII; dotted (every other
 * dot, ':' in ASCII) for the intervals. */
static const struct pen chart_solid = { 0, 0, 0xff, 0 };
static const struct pen chart_dotted = { 0, 0, 0x55, ':' };

#define WIDTH 80
#define BAR_X 8             /* the bars' first cell */
#define BAR_CELLS 50        /* 100 dots: a dot is 1% */
#define PLOT_X 6
#define PLOT_ROWS 12

/* One bar: cells [BAR_X, BAR_X + BAR_CELLS) of row y. */
static void bar(struct canvas *cv, int y, const char *name, long n,
                const struct interval *iv, long ok)
{
    char text[48];
    snprintf(text, sizeof text, "%.7s", name);
    canvas_text(cv, 0, y, text, 0, 0, LY_TOP);
    if (ok == 0) {
        canvas_text(cv, BAR_X, y, "no run finished", 0, 0, LY_TOP);
        return;
    }
    double p = iv->p * 100, lo = iv->lo * 100, hi = iv->hi * 100;
    if (cv->braille) {
        double x0 = BAR_X * 2, y0 = y * 4;
        if (p >= 0.5)
            for (int r = 0; r < 3; r++)
                canvas_line(cv, x0, y0 + r, x0 + p - 0.5, y0 + r, &chart_solid);
        canvas_line(cv, x0 + lo, y0 + 3, x0 + hi - 0.01, y0 + 3, &chart_solid);
        canvas_line(cv, x0 + lo, y0 + 1, x0 + lo, y0 + 3, &chart_solid);
        canvas_line(cv, x0 + hi - 0.01, y0 + 1, x0 + hi - 0.01, y0 + 3, &chart_solid);
    } else {
        int pc = (int)lround(p / 2), lc = (int)floor(lo / 2), hc = (int)ceil(hi / 2) - 1;
        if (hc >= BAR_CELLS)
            hc = BAR_CELLS - 1;
        for (int x = lc; x <= hc; x++)
            canvas_put(cv, BAR_X + x, y, '-', 0, 0, LY_LINE);
        for (int x = 0; x < pc; x++)
            canvas_put(cv, BAR_X + x, y, '#', 0, 0, LY_MARK);
        canvas_put(cv, BAR_X + lc, y, '[', 0, 0, LY_TOP);
        canvas_put(cv, BAR_X + (hc > lc ? hc : lc + 1), y, ']', 0, 0, LY_TOP);
    }
    snprintf(text, sizeof text, "%ld %3.0f%% [%.0f-%.0f%%]", n, p, lo, hi);
    canvas_text(cv, BAR_X + BAR_CELLS + 1, y, text, 0, 0, LY_TOP);
}

static int group_rows(const struct group_stat *g)
{
    return 1 + g->nteams + 1 + 1;
}

static void bars(struct canvas *cv, int y, const struct group_stat *g)
{
    char head[WIDTH + 1];
    snprintf(head, sizeof head, "%s%sruns %ld, failed %ld  (wins, 95%% interval)",
             g->label, *g->label ? ": " : "", g->runs, g->failed);
    canvas_text(cv, 0, y++, head, 0, 0, LY_TOP);
    for (int t = 0; t < g->nteams; t++)
        bar(cv, y++, g->teams[t].name, g->teams[t].wins, &g->teams[t].iv, g->ok);
    bar(cv, y++, "draws", g->draws, &g->draw_iv, g->ok);
    static const char *const tick[] = { "0", "25", "50", "75", "100%" };
    for (int i = 0; i < 5; i++)
        canvas_text(cv, BAR_X + i * (BAR_CELLS / 4) - (i == 4 ? 2 : 0), y, tick[i], 0, 0, LY_TOP);
}

/* The one setting the groups differ in, or -1 (not a sweep of one key). */
static int swept_key(const struct group_stat *g, int ng)
{
    if (ng < 2)
        return -1;
    int key = -1;
    for (int k = 0; k < g[0].nkeys; k++)
        for (int i = 1; i < ng; i++) {
            if (g[i].nkeys != g[0].nkeys || strcmp(g[i].keys[k], g[0].keys[k]))
                return -1;
            if (strcmp(g[i].values[k], g[0].values[k]) && key != k) {
                if (key >= 0)
                    return -1;
                key = k;
            }
        }
    return key;
}

/* Same teams in every group, in the same order: else no plot. */
static int same_teams(const struct group_stat *g, int ng)
{
    for (int i = 1; i < ng; i++) {
        if (g[i].nteams != g[0].nteams)
            return 0;
        for (int t = 0; t < g[0].nteams; t++)
            if (strcmp(g[i].teams[t].name, g[0].teams[t].name))
                return 0;
    }
    return g[0].nteams > 0;
}

static void plot(struct canvas *cv, int y0, const struct group_stat *g, int ng, int key)
{
    char text[WIDTH + 1];
    snprintf(text, sizeof text, "win rate against %s (95%% intervals)", g[0].keys[key]);
    canvas_text(cv, 0, y0, text, 0, 0, LY_TOP);
    int top = y0 + 1, cells = WIDTH - PLOT_X - 1;
    for (int r = 0; r < PLOT_ROWS; r++)
        canvas_put(cv, PLOT_X - 1, top + r, '|', 0, 0, LY_TOP);
    canvas_text(cv, 0, top, "100%", 0, 0, LY_TOP);
    canvas_text(cv, 0, top + PLOT_ROWS / 2, " 50%", 0, 0, LY_TOP);
    canvas_text(cv, 0, top + PLOT_ROWS - 1, "  0%", 0, 0, LY_TOP);
    double span = (double)cells / ng;
    /* Dot coordinates: x of group i's column, y of a rate. */
#define PX(i) ((PLOT_X + ((i) + 0.5) * span) * 2)
#define PY(p) (top * 4 + (1 - (p)) * (PLOT_ROWS * 4 - 1))
    for (int i = 0; i < ng; i++) {
        snprintf(text, sizeof text, "%.*s", (int)span - 1 > 0 ? (int)span - 1 : 1,
                 g[i].values[key]);
        int w = (int)strlen(text);
        canvas_text(cv, (int)(PX(i) / 2) - w / 2, top + PLOT_ROWS, text, 0, 0, LY_TOP);
    }
    int lx = 0;
    for (int t = 0; t < g[0].nteams; t++) {
        /* Each team's mark: a digit (initials can clash). */
        char mark = (char)('1' + t % 9);
        for (int i = 0; i < ng; i++) {
            if (g[i].ok == 0)
                continue;
            const struct interval *iv = &g[i].teams[t].iv;
            canvas_line(cv, PX(i), PY(iv->lo), PX(i), PY(iv->hi), &chart_dotted);
            if (i + 1 < ng && g[i + 1].ok)
                canvas_line(cv, PX(i), PY(iv->p), PX(i + 1), PY(g[i + 1].teams[t].iv.p), &chart_solid);
        }
        for (int i = 0; i < ng; i++)
            if (g[i].ok)
                canvas_put(cv, (int)(PX(i) / 2), (int)(PY(g[i].teams[t].iv.p) / 4), (uint32_t)mark,
                           0, 0, LY_MARK);
        snprintf(text, sizeof text, "%c %.12s  ", mark, g[0].teams[t].name);
        canvas_text(cv, PLOT_X + lx, top + PLOT_ROWS + 1, text, 0, 0, LY_TOP);
        lx += (int)strlen(text);
    }
#undef PX
#undef PY
}

int chart_draw(FILE *f, const struct group_stat *g, int ng, int utf8)
{
    int h = 0;
    for (int i = 0; i < ng; i++)
        h += group_rows(&g[i]) + 1;
    int key = same_teams(g, ng) ? swept_key(g, ng) : -1;
    int plot_at = h;
    if (key >= 0)
        h += 1 + PLOT_ROWS + 2;
    struct canvas cv = { 0, 0, NULL, utf8 };
    if (canvas_resize(&cv, WIDTH, h))
        return -1;
    canvas_clear(&cv);
    int y = 0;
    for (int i = 0; i < ng; i++) {
        bars(&cv, y, &g[i]);
        y += group_rows(&g[i]) + 1;
    }
    if (key >= 0)
        plot(&cv, plot_at, g, ng, key);
    char *s = canvas_string(&cv);
    canvas_free(&cv);
    /* The labels come from run lines (--aggregate reads anyone's): a
     * control byte in a setting or a team's name is drawn as \xHH. */
    char *safe = s ? text_printable(s, 1) : NULL;
    free(s);
    if (!safe)
        return -1;
    fputs(safe, f);
    free(safe);
    return 0;
}
