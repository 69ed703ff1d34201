/* seek_draw.c — the timeline at the right of the top line and the `g`
 * prompt on the bottom line.
 *
 * The timeline spans tick 0 to the map's duration, or a multiple of it
 * past the last tick a seek can reach (or the tick being computed
 * towards): each cell a stretch of ticks, drawn as the
 * tick shown (# or ◆), else an event that matters in it (* or •), else
 * computed (- or ─) or not yet (. or ┈). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "app.h"
#include "seek.h"
#include "tui.h"

int seek_timeline_width(const struct app *a)
{
    if (a->cols < 64)
        return 0;
    int w = a->cols / 4;
    return w > 60 ? 60 : w;
}

/* The ticks the timeline spans: a multiple of the map's duration. */
static long timeline_total(const struct app *a)
{
    long last = seek_end_tick(a);
    if (a->seek.goal > last)
        last = a->seek.goal;
    if (a->world.tick > last)
        last = a->world.tick;
    /* The scale changes seldom: the map's duration, or as many times it as
     * the run needs (a step back and forth shows the same timeline). */
    long unit = lround(a->world.duration * a->world.tick_rate);
    if (unit < 1)
        unit = lround(60 * a->world.tick_rate);
    if (unit < 1)
        unit = 3600;
    return (last > 0 ? (last + unit - 1) / unit : 1) * unit;
}

int seek_timeline_cell(const struct app *a, int w, long tick)
{
    int cells = w - 2;
    if (cells < 2)
        return -1;
    int c = (int)((double)tick / ((double)(timeline_total(a) + 1) / cells));
    return c < cells ? c : cells - 1;
}

void seek_draw_timeline(struct app *a, int y, int x, int w)
{
    const struct history *h = &a->hist;
    long total = timeline_total(a);
    int cells = w - 2;
    if (cells < 2)
        return;
    int u = a->style.utf8;
    tui_text(y, x, " ", 1, COL_DEFAULT, CA_REVERSE, &a->style);
    double span = (double)(total + 1) / cells;
    int here = (int)((double)a->world.tick / span);
    for (int c = 0; c < cells; c++) {
        long from = (long)(c * span), to = (long)((c + 1) * span);   /* [from, to) */
        if (to <= from)
            to = from + 1;
        long ev = event_index_next(&h->events, from - 1, 1);
        const char *g;
        int color = COL_DEFAULT, attr = CA_REVERSE;
        if (c == here || (c == cells - 1 && here >= cells)) {
            g = u ? "\xe2\x97\x86" : "#";           /* ◆ */
            attr |= CA_BOLD;
        } else if (ev >= 0 && ev < to) {
            g = u ? "\xe2\x80\xa2" : "*";           /* • */
            color = COL_YELLOW;
        } else if (from <= h->end)
            g = u ? "\xe2\x94\x80" : "-";           /* ─ */
        else
            g = u ? "\xe2\x94\x88" : ".";           /* ┈ */
        tui_text(y, x + 1 + c, g, 1, color, attr, &a->style);
    }
    tui_text(y, x + 1 + cells, " ", 1, COL_DEFAULT, CA_REVERSE, &a->style);
}

int seek_draw_prompt(struct app *a, int y)
{
    if (!a->seek.prompt)
        return 0;
    char line[512];
    int err = a->msg[0] && a->msg_err;
    snprintf(line, sizeof line, " go to tick: %s_   %s", a->seek.digits,
             err ? a->msg : "(Enter goes, Esc cancels)");
    int n = tui_text(y, 0, line, a->cols, err ? COL_RED : COL_DEFAULT,
                     err ? CA_BOLD : 0, &a->style);
    for (; n < a->cols; n++)
        tui_text(y, n, " ", 1, COL_DEFAULT, 0, &a->style);
    return 1;
}
