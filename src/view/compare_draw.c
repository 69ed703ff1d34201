/* compare_draw.c — `--compare` on the screen: two halves (left and right
 * when each gets 72 columns, else one above the other) under one camera,
 * each under a label row with its setting and its live counts (B's with
 * their difference from A's), and the first tick where the worlds differ
 * on the status line and the timeline. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "../run/compare.h"
#include "tui.h"

#define SIDE_MIN_COLS 72            /* a half's width for left/right: its label fits */

int compare_layout(struct app *a)
{
    struct view_compare *c = a->cmp;
    if (!c)
        return 0;
    a->panel_w = a->sel >= 0 && a->cols >= 72 ? 30 : 0;
    int W = a->cols - a->panel_w, H = a->rows - 2, w, h;
    c->side_by_side = (W - 1) / 2 >= SIDE_MIN_COLS;
    if (c->side_by_side) {
        /* a column between them; the inspector: A's above B's */
        w = (W - 1) / 2;
        h = H - 1;
        c->x[0] = 0;
        c->x[1] = w + 1;
        c->y[0] = c->y[1] = 1;
        c->panel_y[0] = 1;
        c->panel_h[0] = H / 2;
        c->panel_y[1] = 1 + H / 2;
        c->panel_h[1] = H - H / 2;
    } else {
        w = W;
        h = (H - 2) / 2;
        c->x[0] = c->x[1] = 0;
        c->y[0] = 1;
        c->y[1] = 2 + h;
        /* each inspector beside its half, under its label: the label
         * row spans the whole width (the counts need it) */
        for (int s = 0; s < 2; s++) {
            c->panel_y[s] = c->y[s] + 1;
            c->panel_h[s] = h;
        }
    }
    if (canvas_resize(&a->cv, w, h)) {
        a->fatal = 1;
        app_message(a, 1, "out of memory");
        a->quit = 1;
        return 1;
    }
    a->map_x = c->x[0];         /* a click selects in A's half */
    a->map_y = c->y[0] + 1;
    a->ground_ok = c->b.ground_ok = 0;
    camera_resize(&a->cam, w, h, a->world.width, a->world.height);
    return 1;
}

/* What a label row counts: the figures of the status line and the
 * summary. */
struct counts {
    long shots, hits, collisions, laps, knockouts;
    int cars;     /* laps count only on a map with cars */
};

static struct counts count(const struct world *w)
{
    struct counts k = { w->stats.shots, w->stats.hits, w->stats.collisions, 0, 0, 0 };
    for (size_t t = 0; t < w->teams.n; t++)
        k.knockouts += w->teams.p[t].knockouts;
    for (size_t i = 0; i < w->vehicles.n; i++)
        if (w->vehicles.p[i].kind == VK_CAR) {
            k.laps += world_race_state(w, &w->vehicles.p[i]).laps;
            k.cars++;
        }
    return k;
}

/* " name 12" and, on B's row, "(+3)" when it differs from A's. */
static size_t put(char *buf, size_t len, size_t cap, const char *name, long v, long base,
                  int diff)
{
    if (len >= cap)
        return len;
    int n = diff && v != base
        ? snprintf(buf + len, cap - len, "  %s %ld(%+ld)", name, v, v - base)
        : snprintf(buf + len, cap - len, "  %s %ld", name, v);
    return n > 0 ? len + (size_t)n : len;
}

static void label(struct app *a, int s, const struct world *w, const struct world *base)
{
    const struct view_compare *c = a->cmp;
    char buf[512];
    size_t cap = sizeof buf, len;
    int n;
    n = snprintf(buf, cap, " %c %s", "AB"[s], s ? c->opts->label : c->base);
    len = n > 0 ? (size_t)n : 0;
    for (size_t t = 0; t < w->teams.n && t < base->teams.n; t++)
        if (w->teams.p[t].vehicles)
            len = put(buf, len, cap, w->teams.p[t].name, w->teams.p[t].alive,
                      base->teams.p[t].alive, s);
    struct counts k = count(w), b = count(base);
    len = put(buf, len, cap, "shots", k.shots, b.shots, s);
    len = put(buf, len, cap, "hits", k.hits, b.hits, s);
    len = put(buf, len, cap, "ko", k.knockouts, b.knockouts, s);
    if (k.cars)
        len = put(buf, len, cap, "laps", k.laps, b.laps, s);
    put(buf, len, cap, "coll", k.collisions, b.collisions, s);
    int x = c->x[s], width = c->side_by_side ? a->cam.w : a->cols;
    int m = tui_text(c->y[s], x, buf, width, COL_DEFAULT, CA_REVERSE, &a->style);
    for (; m < width; m++)
        tui_text(c->y[s], x + m, " ", 1, COL_DEFAULT, CA_REVERSE, &a->style);
}

/* The column between the halves, left and right. */
static void separator(struct app *a)
{
    const struct view_compare *c = a->cmp;
    if (!c->side_by_side)
        return;
    const char *bar = a->ascii ? "|" : "\xe2\x94\x82";
    for (int y = c->y[0]; y < c->y[0] + 1 + a->cam.h; y++)
        tui_text(y, c->x[1] - 1, bar, 1, COL_DEFAULT, CA_DIM, &a->style);
}

/* The first differing tick: at the end of the status line, before the
 * timeline, and as a mark on it. */
static void divergence(struct app *a)
{
    const struct view_compare *c = a->cmp;
    char buf[64];
    if (c->diverged >= 0)
        snprintf(buf, sizeof buf, " differ from tick %ld ", c->diverged);
    else
        snprintf(buf, sizeof buf, " same to tick %ld ", c->checked);
    int tw = seek_timeline_width(a), n = (int)strlen(buf);
    /* Right after the status text when it fits (read back from the
     * screen: its end varies), else over its end, as a narrow terminal
     * cuts it anyway. */
    int end = a->cols - tw - 1;
    while (end > 0 && (mvwinch(stdscr, 0, end) & A_CHARTEXT) == ' ')
        end--;
    int x = end + 2 + n <= a->cols - tw ? end + 2 : a->cols - tw - n;
    if (x > 0)
        tui_text(0, x, buf, n, c->diverged >= 0 ? COL_RED : COL_GREEN, CA_BOLD | CA_REVERSE,
                 &a->style);
    int cell = c->diverged >= 0 && tw > 0 ? seek_timeline_cell(a, tw, c->diverged) : -1;
    if (cell >= 0)
        tui_text(0, a->cols - tw + 1 + cell, "!", 1, COL_RED, CA_BOLD | CA_REVERSE,
                 &a->style);
}

int compare_draw(struct app *a)
{
    struct view_compare *c = a->cmp;
    if (!c)
        return 0;
    compare_sync(a);
    const struct world *w = &a->world;
    if (a->follow && a->sel >= 0 && (size_t)a->sel < w->vehicles.n)
        camera_center(&a->cam, w->vehicles.p[a->sel].pos);
    int mx = a->map_x, my = a->map_y, ch = a->cam.h, sel = a->sel;
    for (int s = 0; s < 2; s++) {
        if (s) {
            /* the same vehicle in B: by id (B may have other vehicles) */
            const char *id = sel >= 0 && (size_t)sel < w->vehicles.n
                ? w->vehicles.p[sel].id : NULL;
            compare_swap(a);
            a->sel = id ? world_find_vehicle(&a->world, id) : -1;
        }
        a->map_x = c->x[s];
        a->map_y = c->y[s] + 1;
        draw_map(a);
        draw_overlays(a);
        draw_banner(a);
        canvas_flush(&a->cv, a->map_x, a->map_y, &a->style);
        a->map_y = c->panel_y[s];
        a->cam.h = c->panel_h[s];
        draw_inspector(a);
        a->cam.h = ch;
        if (s) {
            a->sel = sel;
            compare_swap(a);
        }
    }
    a->map_x = mx;
    a->map_y = my;
    label(a, 0, &a->world, &a->world);
    label(a, 1, &c->b.world, &a->world);
    separator(a);
    return 1;
}

void compare_draw_status(struct app *a)
{
    if (a->cmp)
        divergence(a);
}
