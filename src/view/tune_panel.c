/* tune_panel.c — the tuning panel's keys and drawing (tune_panel.h).  The
 * rows, values, ranges and help are the key table's (src/io/keys.c); a
 * change goes through tune_set() (tune_apply.c). */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "tui.h"
#include "tune_panel.h"
#include "../io/tune.h"

#define TUNE_ROWS_MAX 64
#define PANEL_W 64

static const char *const scope_names[TUNE_SCOPES] = { "vehicle", "team", "sight" };

/* The section the panel shows now: 0 with its kind, index and name, or -1
 * with why not in why. */
static int target(const struct app *a, unsigned *kind, int *index, char *name, size_t n,
                  const char **why)
{
    const struct world *w = &a->world;
    const struct tune_state *t = a->tune;
    *why = NULL;
    if (t->scope == TUNE_SIGHT) {
        *kind = SEC_SIGHT;
        *index = -1;
    } else if (a->sel < 0 || (size_t)a->sel >= w->vehicles.n) {
        *why = "select a vehicle (Tab) to tune it, or s for [sight]";
        return -1;
    } else if (t->scope == TUNE_TEAM) {
        const struct vehicle *v = &w->vehicles.p[a->sel];
        if (v->team < 0 || v->kind != VK_TANK) {
            /* Short: at 80x24 the panel's line holds about 40 characters,
             * and the way on, "s: next", must not be the part cut. */
            *why = "team keys reach tanks only (s: next)";
            return -1;
        }
        *kind = SEC_TEAM;
        *index = v->team;
    } else {
        const struct vehicle *v = &w->vehicles.p[a->sel];
        *kind = v->kind == VK_TURRET ? SEC_TURRET : v->kind == VK_CAR ? SEC_CAR : SEC_TANK;
        *index = a->sel;
    }
    tune_section_name(w, *kind, *index, name, n);
    return 0;
}

/* The row under the cursor (kept in range): its tune_key and section. */
static int current(struct app *a, struct tune_key *k, char *name, size_t n)
{
    const char *why;
    const struct key_def *rows[TUNE_ROWS_MAX];
    if (target(a, &k->kind, &k->index, name, n, &why)) {
        app_message(a, 1, "%s", why);
        return -1;
    }
    int nr = tune_rows(k->kind, rows, TUNE_ROWS_MAX);
    if (nr > TUNE_ROWS_MAX)
        nr = TUNE_ROWS_MAX;
    if (nr == 0)
        return -1;
    struct tune_state *t = a->tune;
    t->row = ((t->row % nr) + nr) % nr;
    k->row = rows[t->row];
    return 0;
}

/* ---- keys --------------------------------------------------------------------- */

void tune_key_open(struct app *a, int ch)
{
    (void)ch;
    struct tune_state *t = a->tune;
    if (!t)
        return;
    t->open = !t->open;
    t->typing = t->asking = 0;
    if (t->open && a->sel < 0 && t->scope != TUNE_SIGHT)
        app_message(a, 0, "tuning: select a vehicle (Tab) to tune it, or s for [sight]");
}

void tune_key_move(struct app *a, int ch)
{
    a->tune->row += ch == KEY_UP ? -1 : 1;
}

void tune_key_scope(struct app *a, int ch)
{
    (void)ch;
    struct tune_state *t = a->tune;
    t->scope = (enum tune_scope)((t->scope + 1) % TUNE_SCOPES);
    t->row = 0;
    app_message(a, 0, "tuning the %s's keys", scope_names[t->scope]);
}

/* A step of 1, 2 or 5 times a power of ten near x. */
static double nice_step(double x)
{
    if (!(x > 0))
        return 1;
    double p = pow(10, floor(log10(x)));
    double m = x / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The number v moved by dir steps (coarse: a tenth of it, fine: a
 * hundredth), on the grid of the step, kept in the row's range. */
static double stepped(const struct key_def *k, double v, int dir, int fine)
{
    double range = k->max - k->min;
    double coarse = nice_step(fabs(v) > 0 ? fabs(v) / 10 : range / 100);
    if (coarse > range / 10)
        coarse = nice_step(range / 10);
    double step = fine ? coarse / 10 : coarse;
    if (k->type == KEY_COUNT && step < 1)
        step = 1;
    double r = (round(v / step) + dir) * step;
    /* (an open minimum: the smallest step above it) */
    double lo = k->flags & KEY_MIN_OPEN ? k->min + step : k->min;
    if (k->type == KEY_COUNT)
        r = round(r);
    return r < lo ? (v > lo ? lo : v) : r > k->max ? k->max : r;
}

void tune_key_change(struct app *a, int ch)
{
    struct tune_key k;
    char name[128], cur[64], next[64];
    if (current(a, &k, name, sizeof name))
        return;
    tune_value_text(&a->world, &k, tune_shown(a, &k), cur, sizeof cur);
    int dir = ch == '+' || ch == '=' || ch == '>' ? 1 : -1;
    if (k.row->type == KEY_ENUM) {
        int n = 0, at = 0;
        for (; k.row->names[n]; n++)
            if (!strcmp(k.row->names[n], cur))
                at = n;
        snprintf(next, sizeof next, "%s", k.row->names[((at + dir) % n + n) % n]);
    } else {
        double v = strtod(cur, NULL);
        snprintf(next, sizeof next, "%.10g", stepped(k.row, v, dir, ch == '<' || ch == '>'));
    }
    if (strcmp(next, cur))
        tune_set(a, name, k.row->name, next);
}

void tune_key_type(struct app *a, int ch)
{
    (void)ch;
    struct tune_key k;
    char name[128];
    if (current(a, &k, name, sizeof name))
        return;
    a->tune->typing = 1;
    a->tune->fresh = 1;
    tune_value_text(&a->world, &k, tune_shown(a, &k), a->tune->typed,
                    sizeof a->tune->typed);
}

void tune_key_save(struct app *a, int ch)
{
    (void)ch;
    tune_save(a, 0);
}

/* The value being typed: printable characters, Backspace, Ctrl-U (clears
 * it), Enter, Esc.  It starts as the value shown, which the first
 * character typed replaces (240 over 200 once gave 200240); Backspace
 * edits it instead. */
static void typing_key(struct app *a, int ch)
{
    struct tune_state *t = a->tune;
    int fresh = t->fresh;
    t->fresh = 0;
    if (fresh && ch >= 0 && ch < 256 && isprint(ch))
        t->typed[0] = 0;
    size_t n = strlen(t->typed);
    if (ch == 27) {
        t->typing = 0;
    } else if (ch == 21) {          /* Ctrl-U */
        t->typed[0] = 0;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n)
            t->typed[n - 1] = 0;
    } else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
        struct tune_key k;
        char name[128];
        t->typing = 0;
        if (current(a, &k, name, sizeof name) == 0)
            tune_set(a, name, k.row->name, t->typed);
    } else if (ch >= 0 && ch < 256 && isprint(ch) && n < TUNE_TYPED_MAX) {
        t->typed[n] = (char)ch;
        t->typed[n + 1] = 0;
    }
}

int tune_key(struct app *a, int ch)
{
    struct tune_state *t = a->tune;
    if (!t || !t->open || a->screen != SCREEN_MAP)
        return 0;
    if (t->typing) {
        typing_key(a, ch);
        return 1;
    }
    if (t->asking) {
        t->asking = 0;
        if (ch == 'y' || ch == 'Y')
            tune_save(a, 1);
        else
            app_message(a, 0, "not saved");
        return 1;
    }
    const struct view_key *k = tune_key_find(ch);
    if (!k)
        return 0;
    k->act(a, ch);
    return 1;
}

/* ---- drawing ------------------------------------------------------------------ */

static void line(struct app *a, int y, int x, int w, const char *s, int color, int attr)
{
    int n = tui_text(y, x, s, w, color, attr, &a->style);
    for (; n < w; n++)
        tui_text(y, x + n, " ", 1, color, attr, &a->style);
}

/* The range of row k, short: "0..1", "(0..36000]", "aim: none exact". */
static void range_text(const struct key_def *k, char *buf, size_t n)
{
    if (k->type == KEY_ENUM) {
        size_t m = 0;
        buf[0] = 0;
        for (int i = 0; k->names[i] && m < n; i++)
            m += (size_t)snprintf(buf + m, n - m, "%s%s", i ? " " : "", k->names[i]);
        return;
    }
    snprintf(buf, n, "%s%.6g..%.6g]", k->flags & KEY_MIN_OPEN ? "(" : "[", k->min, k->max);
}

void tune_draw(struct app *a)
{
    struct tune_state *t = a->tune;
    if (!t || !t->open || a->screen != SCREEN_MAP || a->too_small)
        return;
    int w = a->cam.w < PANEL_W ? a->cam.w : PANEL_W, x = a->map_x, y = a->map_y;
    unsigned kind;
    int index;
    char name[128], buf[512];
    const char *why;
    if (target(a, &kind, &index, name, sizeof name, &why)) {
        snprintf(buf, sizeof buf, " tune: %s", why);
        line(a, y, x, w, buf, COL_CYAN, CA_BOLD | CA_REVERSE);
        return;
    }
    const struct key_def *rows[TUNE_ROWS_MAX];
    int nr = tune_rows(kind, rows, TUNE_ROWS_MAX);
    if (nr > TUNE_ROWS_MAX)
        nr = TUNE_ROWS_MAX;
    if (nr == 0)
        return;
    t->row = ((t->row % nr) + nr) % nr;
    /* Short enough for the 50 cells the panel gets at 80x24 with the
     * inspector open: "(s: vehicle/team/sight, W saves)" lost its end. */
    snprintf(buf, sizeof buf, " tune [%s]  (s: next section, W saves)", name);
    line(a, y++, x, w, buf, COL_CYAN, CA_BOLD | CA_REVERSE);
    /* As many rows as fit, the cursor's always among them. */
    int room = a->cam.h - 3;
    int first = t->row >= room ? t->row - room + 1 : 0;
    for (int r = first; r < nr && r - first < room; r++) {
        struct tune_key k = { kind, rows[r], index };
        char val[64], range[96];
        tune_value_text(&a->world, &k, tune_shown(a, &k), val, sizeof val);
        range_text(rows[r], range, sizeof range);
        snprintf(buf, sizeof buf, "%s%-16s %-12s %s", r == t->row ? ">" : " ", rows[r]->name,
                 val, range);
        line(a, y++, x, w, buf, COL_DEFAULT, r == t->row ? CA_REVERSE : 0);
    }
    const struct key_def *cur = rows[t->row];
    snprintf(buf, sizeof buf, " %s", cur->help);
    line(a, y++, x, w, buf, COL_DEFAULT, CA_DIM);
    /* The value being typed, or the save's question, on the bottom line
     * (over any message that came since: the next key answers). */
    if (t->asking) {
        snprintf(buf, sizeof buf, " %s changed on disk since it was loaded: overwrite it? "
                 "(y/n)", a->opt->map_path ? a->opt->map_path : "the map");
        line(a, a->rows - 1, 0, a->cols, buf, COL_RED, CA_BOLD);
    } else if (t->typing) {
        snprintf(buf, sizeof buf, " [%s] %s = %s_   (Enter applies, Esc cancels)", name,
                 cur->name, t->typed);
        line(a, a->rows - 1, 0, a->cols, buf, COL_DEFAULT, CA_BOLD);
    }
}
