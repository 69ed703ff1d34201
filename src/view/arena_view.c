/* arena_view.c — the arena's screens on a watch (arena_view.h).
 *
 * The daemon's lines: {"type":"arena","live":[{"id":N,"bots":[A,B]}...],
 * "following":N} whenever the live matches change; "ladder":[[rank,bot,
 * elo,lo,hi,games]...] with "bots" and "matches", when asked;
 * "switched":N before the asked match's header; "error":TEXT.  What we
 * send: {"cmd":"follow","match":N} and {"cmd":"ladder"}.  Everything the
 * daemon sends is drawn as text only: control bytes become '?'. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "app.h"
#include "arena_view.h"
#include "follow.h"
#include "tui.h"

#define LIVE_MAX 16                 /* the daemon lists at most 16 */
#define LADDER_MAX 1000             /* rows kept (the daemon sends ~100) */
#define BANNER_SECONDS 10.0

struct live_match { long id; char bots[2][80]; };
struct ladder_row { long rank, games; char bot[80]; double elo, lo, hi; };

struct arena_view {
    char person[64];                /* "name/": a bot of mine starts so */
    struct live_match live[LIVE_MAX];
    int nlive;
    long following;                 /* -1: none yet */
    long newest;                    /* the highest match id seen live */
    int sel, top;                   /* the match list's cursor, the ladder's top */
    struct ladder_row *ladder;
    int nladder, asked;             /* asked: a ladder is on its way */
    long ladder_bots, ladder_matches;
    int switching;
    char banner[256];
    double banner_until;
};

struct arena_view *arena_view_new(const char *person)
{
    struct arena_view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    snprintf(v->person, sizeof v->person, "%s/", person);
    v->following = v->newest = -1;
    return v;
}

void arena_view_free(struct arena_view *v)
{
    if (v)
        free(v->ladder);
    free(v);
}

int arena_view_switching(const struct arena_view *v) { return v && v->switching; }
void arena_view_switched(struct arena_view *v) { v->switching = 0; }

/* A string of the daemon's, as text for the screen. */
static void copy_text(char *dst, size_t n, const char *s)
{
    snprintf(dst, n, "%s", s ? s : "?");
    for (char *p = dst; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

static int mine(const struct arena_view *v, const char *bot)
{
    return !strncmp(bot, v->person, strlen(v->person));
}

/* A match of mine that was not live before: the banner says so. */
static void banner_for(struct app *a, struct arena_view *v, const struct live_match *m)
{
    int k = mine(v, m->bots[0]) ? 0 : mine(v, m->bots[1]) ? 1 : -1;
    if (k < 0)
        return;
    snprintf(v->banner, sizeof v->banner, "your %s starts match %ld against %s: %s",
             m->bots[k], m->id, m->bots[1 - k],
             m->id == v->following ? "you are watching it" : "m, then Enter, watches it");
    v->banner_until = a->now + BANNER_SECONDS;
}

static void take_live(struct app *a, struct arena_view *v, json_t *live, json_t *fol)
{
    v->nlive = 0;
    v->following = json_is_integer(fol) ? (long)json_integer_value(fol) : -1;
    long newest = v->newest;
    size_t i;
    json_t *m;
    json_array_foreach(live, i, m) {
        if (v->nlive == LIVE_MAX)
            break;
        json_t *id = json_object_get(m, "id"), *b = json_object_get(m, "bots");
        if (!json_is_integer(id))
            continue;
        struct live_match *lm = &v->live[v->nlive++];
        lm->id = (long)json_integer_value(id);
        copy_text(lm->bots[0], sizeof lm->bots[0], json_string_value(json_array_get(b, 0)));
        copy_text(lm->bots[1], sizeof lm->bots[1], json_string_value(json_array_get(b, 1)));
        if (lm->id > v->newest)
            banner_for(a, v, lm);
        if (lm->id > newest)
            newest = lm->id;
    }
    v->newest = newest;
    if (v->sel >= v->nlive)
        v->sel = v->nlive ? v->nlive - 1 : 0;
}

static void take_ladder(struct arena_view *v, json_t *rows, json_t *o)
{
    size_t n = json_array_size(rows), i;
    if (n > LADDER_MAX)
        n = LADDER_MAX;
    struct ladder_row *r = calloc(n + 1, sizeof *r);
    if (!r)
        return;
    json_t *row;
    int k = 0;
    json_array_foreach(rows, i, row) {
        if (i >= n)
            break;
        if (json_array_size(row) != 6)
            continue;
        r[k].rank = (long)json_integer_value(json_array_get(row, 0));
        copy_text(r[k].bot, sizeof r[k].bot, json_string_value(json_array_get(row, 1)));
        r[k].elo = json_number_value(json_array_get(row, 2));
        r[k].lo = json_number_value(json_array_get(row, 3));
        r[k].hi = json_number_value(json_array_get(row, 4));
        r[k].games = (long)json_integer_value(json_array_get(row, 5));
        k++;
    }
    free(v->ladder);
    v->ladder = r;
    v->nladder = k;
    v->ladder_bots = (long)json_integer_value(json_object_get(o, "bots"));
    v->ladder_matches = (long)json_integer_value(json_object_get(o, "matches"));
    v->asked = 0;
}

void arena_view_line(struct app *a, const char *line, size_t len)
{
    struct arena_view *v = a->fl ? a->fl->arena : NULL;
    json_t *o = v ? json_loadb(line, len, 0, NULL) : NULL;
    if (!o)
        return;
    json_t *x;
    if ((x = json_object_get(o, "live")) && json_is_array(x))
        take_live(a, v, x, json_object_get(o, "following"));
    else if ((x = json_object_get(o, "ladder")) && json_is_array(x))
        take_ladder(v, x, o);
    else if ((x = json_object_get(o, "switched")) && json_is_integer(x)) {
        v->switching = 1;
        app_message(a, 0, "switching to match %ld", (long)json_integer_value(x));
    } else if ((x = json_object_get(o, "error")) && json_is_string(x)) {
        char why[160];
        copy_text(why, sizeof why, json_string_value(x));
        app_message(a, 1, "the arena: %s", why);
    }
    json_decref(o);
    a->dirty = 1;
}

/* A request line to the daemon (a few bytes into a socket the daemon
 * reads every 50 ms: it does not block; if it cannot go, we say so). */
static void ask(struct app *a, const char *line)
{
    size_t n = strlen(line), at = 0;
    /* a line sent whole, or the daemon would read half of it as garbage
     * (a few bytes: a tenth of a second at most) */
    for (int tries = 0; at < n && tries < 20; tries++) {
        ssize_t k = send(a->fl->fd, line + at, n - at, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0)
            at += (size_t)k;
        else if (k < 0 && errno != EAGAIN && errno != EINTR)
            break;
        else
            poll(NULL, 0, 5);
    }
    if (at < n)
        app_message(a, 1, "the arena did not take the request; try again");
}

static void ask_ladder(struct app *a)
{
    a->fl->arena->asked = 1;
    ask(a, "{\"cmd\":\"ladder\"}\n");
}

void arena_view_key(struct app *a, int ch)
{
    if (!a->fl || !a->fl->arena) {
        app_message(a, 1, "%c: only when watching an arena (ssh to it, or botfield arena-shell)",
                    ch);
        return;
    }
    if (ch == 'm') {
        a->screen = SCREEN_MATCHES;
    } else {
        a->fl->arena->top = 0;
        a->screen = SCREEN_LADDER;
        ask_ladder(a);
    }
    a->dirty = 1;
}

static void text(struct app *a, int y, int x, const char *s, int color, int attr)
{
    if (y >= 0 && y < a->rows && x < a->cols)
        tui_text(y, x, s, a->cols - x, color, attr, &a->style);
}

void arena_view_draw_banner(struct app *a)
{
    struct arena_view *v = a->fl ? a->fl->arena : NULL;
    if (!v || !v->banner[0] || a->now >= v->banner_until)
        return;
    char line[264];
    snprintf(line, sizeof line, " %s ", v->banner);
    text(a, a->map_y, a->map_x, line, COL_YELLOW, CA_BOLD | CA_REVERSE);
}

void arena_matches_draw(struct app *a)
{
    const struct arena_view *v = a->fl->arena;
    char line[256];
    erase();
    text(a, 0, 1, "live matches", COL_CYAN, CA_BOLD);
    text(a, 0, 15, "(j k choose, Enter watches, A the ladder, Esc closes)", COL_DEFAULT, CA_DIM);
    if (v->nlive == 0)
        text(a, 2, 3, "no match is live now; the next one shows here", COL_DEFAULT, 0);
    for (int k = 0; k < v->nlive && k + 2 < a->rows; k++) {
        const struct live_match *m = &v->live[k];
        int my = mine(v, m->bots[0]) || mine(v, m->bots[1]);
        snprintf(line, sizeof line, "%c %6ld  %s  vs  %s%s", k == v->sel ? '>' : ' ', m->id,
                 m->bots[0], m->bots[1], m->id == v->following ? "   (watching)" : "");
        text(a, k + 2, 1, line, my ? COL_YELLOW : COL_DEFAULT,
             (k == v->sel ? CA_REVERSE : 0) | (my ? CA_BOLD : 0));
    }
}

int arena_matches_key(struct app *a, int ch)
{
    struct arena_view *v = a->fl->arena;
    char line[80];
    switch (ch) {
    case 27: case 'm':
        a->screen = SCREEN_MAP;
        return 1;
    case 'j': case KEY_DOWN:
        v->sel += v->sel + 1 < v->nlive;
        return 1;
    case 'k': case KEY_UP:
        v->sel -= v->sel > 0;
        return 1;
    case 'A':
        arena_view_key(a, 'A');
        return 1;
    case '\n': case '\r': case KEY_ENTER:
        if (v->sel < v->nlive) {
            snprintf(line, sizeof line, "{\"cmd\":\"follow\",\"match\":%ld}\n", v->live[v->sel].id);
            ask(a, line);
            a->screen = SCREEN_MAP;
        }
        return 1;
    }
    return 0;
}

void arena_ladder_draw(struct app *a)
{
    struct arena_view *v = a->fl->arena;
    char line[256];
    erase();
    snprintf(line, sizeof line, "ladder: %ld bots, %ld matches", v->ladder_bots,
             v->ladder_matches);
    text(a, 0, 1, line, COL_CYAN, CA_BOLD);
    text(a, 0, 2 + (int)strlen(line), "(j k scroll, r again, m the matches, Esc closes)",
         COL_DEFAULT, CA_DIM);
    if (v->asked && !v->ladder) {
        text(a, 2, 3, "asking the arena...", COL_DEFAULT, 0);
        return;
    }
    int avail = a->rows - 2;
    if (v->top > v->nladder - avail)
        v->top = v->nladder - avail;
    if (v->top < 0)
        v->top = 0;
    text(a, 1, 1, "rank  bot                              elo    95% interval    games",
         COL_DEFAULT, CA_UNDERLINE);
    for (int r = 0; r < avail && v->top + r < v->nladder; r++) {
        const struct ladder_row *l = &v->ladder[v->top + r];
        snprintf(line, sizeof line, "%4ld  %-30.30s %7.1f  [%6.1f, %6.1f] %6ld", l->rank,
                 l->bot, l->elo, l->lo, l->hi, l->games);
        int my = mine(v, l->bot);
        text(a, r + 2, 1, line, my ? COL_YELLOW : COL_DEFAULT, my ? CA_BOLD : 0);
    }
}

int arena_ladder_key(struct app *a, int ch)
{
    struct arena_view *v = a->fl->arena;
    switch (ch) {
    case 27: case 'A':
        a->screen = SCREEN_MAP;
        return 1;
    case 'm':
        a->screen = SCREEN_MATCHES;
        return 1;
    case 'r':
        ask_ladder(a);
        return 1;
    case 'j': case KEY_DOWN: case ' ': case KEY_NPAGE:
        v->top += ch == ' ' || ch == KEY_NPAGE ? a->rows - 3 : 1;
        return 1;
    case 'k': case KEY_UP: case KEY_PPAGE:
        v->top -= ch == KEY_PPAGE ? a->rows - 3 : 1;
        if (v->top < 0)
            v->top = 0;
        return 1;
    }
    return 0;
}
