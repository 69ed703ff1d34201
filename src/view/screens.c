/* screens.c — the help and error screens and the too-small message, and
 * the table of screen states (each a draw and a key function, as ncdu
 * does; the map screen lives in map_screen.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "arena_view.h"
#include "tui.h"

void map_draw(struct app *a);
int map_key(struct app *a, int ch);

static void text(struct app *a, int y, int x, int w, const char *s, int color,
                 int attr)
{
    if (y >= 0 && y < a->rows && x < a->cols)
        tui_text(y, x, s, w < a->cols - x ? w : a->cols - x, color, attr, &a->style);
}

/* The help's lines: the keys, then the legend of this terminal's mode
 * (the palette's rows and the teams, drawn as the map draws them). */
static int legend_lines(const struct app *a)
{
    return 2 + (int)a->world.teams.n + PAL_COUNT;
}

static void legend_sample(struct app *a, int y, const uint32_t *g, int n,
                          int color, int attr)
{
    /* canvas cells through the one copy to curses, so a sample is exactly
     * what the map shows */
    for (int k = 0; k < n && 1 + k < a->cols; k++) {
        char buf[8];
        uint32_t c = g[k];
        /* UTF-8 of one code point */
        if (c < 0x80) {
            buf[0] = (char)c;
            buf[1] = 0;
        } else if (c < 0x800) {
            buf[0] = (char)(0xc0 | c >> 6);
            buf[1] = (char)(0x80 | (c & 0x3f));
            buf[2] = 0;
        } else {
            buf[0] = (char)(0xe0 | c >> 12);
            buf[1] = (char)(0x80 | (c >> 6 & 0x3f));
            buf[2] = (char)(0x80 | (c & 0x3f));
            buf[3] = 0;
        }
        text(a, y, 3 + k, 1, buf, color, attr);
    }
}

static void legend_line(struct app *a, int k, int y)
{
    int nteams = (int)a->world.teams.n;
    if (k == 0)
        return;
    if (k == 1) {
        char head[96];
        snprintf(head, sizeof head, "legend (%s, %s)",
                 a->style.color ? "colour" : "no colour", a->ascii ? "ASCII" : "UTF-8");
        text(a, y, 1, a->cols - 2, head, COL_CYAN, CA_BOLD);
        return;
    }
    k -= 2;
    if (k < nteams) {
        uint32_t g = a->ascii ? '>' : 0x2192;
        char what[96];
        snprintf(what, sizeof what, "team %s (tank; T a turret)", a->world.teams.p[k].name);
        legend_sample(a, y, &g, 1, team_color(a, k), team_attr(a, k));
        text(a, y, 13, a->cols - 14, what, COL_DEFAULT, 0);
        return;
    }
    k -= nteams;
    uint32_t g[8];
    int n = pal_sample(a, (enum pal_item)k, g, 8);
    legend_sample(a, y, g, n, pal_color((enum pal_item)k, team_color(a, 0)),
                  pal_attr(a, (enum pal_item)k));
    if (k == PAL_SCALE)
        text(a, y, 3, 8, "|--| 50", COL_DEFAULT, 0);
    if (k == PAL_LABEL)
        text(a, y, 3, 8, "red.1", pal_color(PAL_LABEL, team_color(a, 0)),
             pal_attr(a, PAL_LABEL));
    text(a, y, 13, a->cols - 14, palette[k].legend, COL_DEFAULT, 0);
}

static void help_draw(struct app *a)
{
    erase();
    int avail = a->rows - 1;
    int total = view_nkeys + legend_lines(a);
    int scroll = total > avail;
    int maxtop = scroll ? total - avail : 0;
    if (a->help_top > maxtop)
        a->help_top = maxtop;
    if (a->help_top < 0)
        a->help_top = 0;
    text(a, 0, 1, a->cols - 2, "botfield keys", COL_CYAN, CA_BOLD);
    text(a, 0, 15, a->cols - 16, scroll ? "(j k scroll, ? or Esc closes)"
         : "(? or Esc closes, q quits)", COL_DEFAULT, CA_DIM);
    /* One key a line, then the legend; a short terminal scrolls. */
    for (int r = 0; r < avail && a->help_top + r < total; r++) {
        int k = a->help_top + r;
        if (k >= view_nkeys) {
            legend_line(a, k - view_nkeys, r + 1);
            continue;
        }
        text(a, r + 1, 1, 11, view_keys[k].name, COL_YELLOW, CA_BOLD);
        text(a, r + 1, 13, a->cols - 14, view_keys[k].help, COL_DEFAULT, 0);
    }
}

static int help_key(struct app *a, int ch)
{
    switch (ch) {
    case '?': case 27:
        a->screen = SCREEN_MAP;
        a->help_top = 0;
        return 1;
    case 'j': case KEY_DOWN: case ' ': case KEY_NPAGE:
        a->help_top += ch == ' ' || ch == KEY_NPAGE ? a->rows - 2 : 1;
        return 1;
    case 'k': case KEY_UP: case KEY_PPAGE:
        a->help_top -= ch == KEY_PPAGE ? a->rows - 2 : 1;
        return 1;
    }
    return 0;
}

static void error_draw(struct app *a)
{
    erase();
    text(a, 0, 1, a->cols - 2, "the map file or a bot script has errors; the old ones "
         "keep running", COL_RED, CA_BOLD);
    text(a, 1, 1, a->cols - 2, "(fix the file and save: it reloads; Esc closes, q quits)",
         COL_DEFAULT, CA_DIM);
    const char *p = a->load_error ? a->load_error : "no error";
    /* One message a line; long lines fold at the screen's width. */
    for (int y = 3; *p && y < a->rows; y++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[512];
        size_t w = (size_t)(a->cols > 2 ? a->cols - 2 : 1);
        size_t take = len < w ? len : w;
        if (take >= sizeof buf)
            take = sizeof buf - 1;
        memcpy(buf, p, take);
        buf[take] = 0;
        text(a, y, 1, a->cols - 2, buf, COL_DEFAULT, 0);
        p += take;
        if (take == len && nl)
            p++;
    }
}

static int error_key(struct app *a, int ch)
{
    if (ch == 27 || ch == 'e' || ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        a->screen = SCREEN_MAP;
        return 1;
    }
    return 0;
}

void draw_too_small(struct app *a)
{
    erase();
    const char *m1 = "terminal too small", *m2 = "need 40x12; q quits";
    int y = a->rows / 2 - 1;
    text(a, y < 0 ? 0 : y, 0, a->cols, m1, COL_DEFAULT, CA_BOLD);
    text(a, y + 1 < 0 ? 0 : y + 1, 0, a->cols, m2, COL_DEFAULT, 0);
}

const struct screen view_screens[SCREEN_COUNT] = {
    [SCREEN_MAP] = { map_draw, map_key },
    [SCREEN_HELP] = { help_draw, help_key },
    [SCREEN_ERROR] = { error_draw, error_key },
    [SCREEN_MATCHES] = { arena_matches_draw, arena_matches_key },
    [SCREEN_LADDER] = { arena_ladder_draw, arena_ladder_key },
};
