/* screens.c — the help and error screens and the too-small message, and
 * the table of screen states (each a draw and a key function, as ncdu
 * does; the map screen lives in map_screen.c). */
#include "config.h"

#include <string.h>

#include "app.h"
#include "tui.h"

void map_draw(struct app *a);
int map_key(struct app *a, int ch);

static void text(struct app *a, int y, int x, int w, const char *s, int color,
                 int attr)
{
    if (y >= 0 && y < a->rows && x < a->cols)
        tui_text(y, x, s, w < a->cols - x ? w : a->cols - x, color, attr, &a->style);
}

static void help_draw(struct app *a)
{
    erase();
    int avail = a->rows - 1;
    int scroll = view_nkeys > avail;
    int maxtop = scroll ? view_nkeys - avail : 0;
    if (a->help_top > maxtop)
        a->help_top = maxtop;
    if (a->help_top < 0)
        a->help_top = 0;
    text(a, 0, 1, a->cols - 2, "botfield keys", COL_CYAN, CA_BOLD);
    text(a, 0, 15, a->cols - 16, scroll ? "(j k scroll, ? or Esc closes)"
         : "(? or Esc closes, q quits)", COL_DEFAULT, CA_DIM);
    /* One key a line; a short terminal scrolls the list. */
    for (int r = 0; r < avail && a->help_top + r < view_nkeys; r++) {
        int k = a->help_top + r;
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
};
