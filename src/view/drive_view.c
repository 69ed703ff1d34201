/* drive_view.c — what the player sees in drive mode: its status line
 * (what it holds, its reload), which enemies see it and how much (the
 * visible fraction against the threshold that applied, from the same
 * sight records the bots read), the enemies it sees; and the fog of war. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "drive.h"
#include "tui.h"

static const struct vehicle *live_player(const struct app *a)
{
    int p = a->world.player.vehicle;
    return p >= 0 && (size_t)p < a->world.vehicles.n ? &a->world.vehicles.p[p] : NULL;
}

/* Does the player's tank see vehicle i this tick? */
static int player_sees(const struct world *w, const struct vehicle *pv, int i)
{
    for (int k = pv->sight_first; k < pv->sight_first + pv->sight_count; k++)
        if ((size_t)k < w->now.sights.n && w->now.sights.p[k].target == i)
            return w->now.sights.p[k].seen;
    return 0;
}

int drive_hidden(const struct app *a, int i)
{
    if (!a->drive.on || !a->drive.fog)
        return 0;
    const struct vehicle *pv = live_player(a);
    int p = a->world.player.vehicle;
    return pv && i != p && !player_sees(&a->world, pv, i);
}

/* "left", "right" or "straight" for a held turn rate. */
static const char *turning(double rate)
{
    return rate < 0 ? "left" : rate > 0 ? "right" : "still";
}

static void line(struct app *a, int y, int x, int w, const char *s, int color, int attr)
{
    int n = tui_text(y, x, s, w, color, attr, &a->style);
    for (; n < w; n++)
        tui_text(y, x + n, " ", 1, color, attr, &a->style);
}

/* The bottom line: what the tank holds, its gun, where it is (the
 * numbers a test reads).  Where that does not fit (80 columns), a short
 * form with the heading, the gun and the shots first and single letters
 * for the turns (L, R, -), the position last. */
static void status_line(struct app *a, const struct vehicle *v)
{
    const struct world *w = &a->world;
    const struct player_input *in = &w->player.in;
    char s[256], gun[32];
    if (v->gun.reload_left > 0)
        snprintf(gun, sizeof gun, "reload %.1fs", v->gun.reload_left);
    else
        snprintf(gun, sizeof gun, "loaded");
    if (!v->alive)
        snprintf(s, sizeof s, " driving %s: knocked out   Esc leaves", v->id);
    else {
        int n = snprintf(s, sizeof s, " driving  turn %s  speed %.0f/%.0f  turret %s  %s%s  "
                         "x %.1f y %.1f hdg %.1f gun %.1f  shots %ld",
                         in->turn < 0 ? "left" : in->turn > 0 ? "right" : "straight",
                         in->speed, v->p->speed, turning(in->turret), gun,
                         in->fire ? " fire!" : "", v->pos.x, v->pos.y, rad2deg(v->heading),
                         rad2deg(v->turret), w->stats.shots);
        if (n > a->cols) {
            char g[32];
            if (v->gun.reload_left > 0)
                snprintf(g, sizeof g, "rl %.1fs", v->gun.reload_left);
            else
                snprintf(g, sizeof g, "loaded");
            snprintf(s, sizeof s, " driving hdg %.0f gun %.0f shots %ld turn %s %.0f/%.0f "
                     "tur %s %s%s x %.0f y %.0f", rad2deg(v->heading), rad2deg(v->turret),
                     w->stats.shots, in->turn < 0 ? "L" : in->turn > 0 ? "R" : "-",
                     in->speed, v->p->speed, in->turret < 0 ? "L" : in->turret > 0 ? "R" : "-",
                     g, in->fire ? "!" : "", v->pos.x, v->pos.y);
        }
    }
    line(a, a->rows - 1, 0, a->cols, s, COL_GREEN, CA_BOLD);
}

/* The box at the map's top left: who sees you, whom you see. */
static void sight_box(struct app *a, const struct vehicle *pv)
{
    const struct world *w = &a->world;
    int p = w->player.vehicle;
    int y = a->map_y, x = a->map_x, width = 34, rows = a->cam.h / 2;
    if (width > a->cam.w || rows < 2)
        return;
    char s[96];
    int shown = 0;
    line(a, y++, x, width, " seen by (visible / threshold)", COL_CYAN, CA_BOLD | CA_REVERSE);
    for (size_t k = 0; k < w->now.sights.n && shown < rows - 2; k++) {
        const struct sight_record *r = &w->now.sights.p[k];
        if (r->target != p)
            continue;
        snprintf(s, sizeof s, " %-12.12s %3.0f%% / %2.0f%% %s", w->vehicles.p[r->observer].id,
                 100 * r->visible, 100 * r->threshold, r->seen ? "SEES YOU" : "hidden");
        line(a, y++, x, width, s, r->seen ? COL_RED : COL_GREEN, r->seen ? CA_BOLD : 0);
        shown++;
    }
    if (!shown)
        line(a, y++, x, width, " nobody has you in view", COL_GREEN, 0);
    line(a, y++, x, width, " you see", COL_CYAN, CA_BOLD | CA_REVERSE);
    int seen = 0;
    for (int k = pv->sight_first; k < pv->sight_first + pv->sight_count
                                   && (size_t)k < w->now.sights.n && y < a->map_y + rows + 2; k++) {
        const struct sight_record *r = &w->now.sights.p[k];
        if (!r->seen)
            continue;
        snprintf(s, sizeof s, " %-12.12s %3.0f%% at %.0f", w->vehicles.p[r->target].id,
                 100 * r->visible, v2_dist(r->from, r->to));
        line(a, y++, x, width, s, COL_YELLOW, 0);
        seen++;
    }
    if (!seen)
        line(a, y, x, width, " no enemy", COL_DEFAULT, CA_DIM);
}

void drive_draw(struct app *a)
{
    const struct vehicle *v = live_player(a);
    if (!a->drive.on || !v)
        return;
    if (a->screen != SCREEN_MAP || a->too_small)
        return;
    sight_box(a, v);
    if (!a->msg[0] && !a->seek.prompt)
        status_line(a, v);
}
