/* panels.c — the status lines, the inspector of the selected vehicle and
 * the ending banner.  Text only: every number shown is one the core kept
 * for this tick (world.h); nothing is recomputed here. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "tui.h"
#include "../bot/bot_world.h"

/* A text line of exactly w cells: the text, then blanks, so the previous
 * frame's longer text never lingers. */
static void pad_text(struct app *a, int y, int x, int w, const char *s,
                     int color, int attr)
{
    int n = tui_text(y, x, s, w, color, attr, &a->style);
    for (; n < w; n++)
        tui_text(y, x + n, " ", 1, color, attr, &a->style);
}

static const char *times(const struct app *a)
{
    return a->ascii ? "x" : "\xc3\x97";     /* × */
}

static void speed_text(const struct app *a, char *buf, size_t n)
{
    if (a->speed_max)
        snprintf(buf, n, "%smax", times(a));
    else
        snprintf(buf, n, "%s%g", times(a), a->speed);
}

void draw_status(struct app *a)
{
    const struct world *w = &a->world;
    char sp[16], top[512], ov[64] = "";
    speed_text(a, sp, sizeof sp);
    static const struct { int bit; const char *name; } ovn[] = {
        { OV_RAYS, "rays" }, { OV_CONES, "cones" }, { OV_AVOID, "avoid" },
        { OV_TRAJ, "aim" }, { OV_WAYP, "waypoints" }, { OV_COLL, "marks" }, { OV_BOTS, "drawings" },
    };
    for (size_t i = 0; i < sizeof ovn / sizeof ovn[0]; i++)
        if (a->overlays & ovn[i].bit) {
            size_t l = strlen(ov);
            snprintf(ov + l, sizeof ov - l, "%s%s", l ? " " : "", ovn[i].name);
        }
    /* What changes first, the map's name after: a narrow terminal cuts the
     * end of the line. */
    snprintf(top, sizeof top, " tick %ld  %.2fs  %s  %s%s  %s%s%s", w->tick,
             (double)w->tick * w->dt, sp, a->paused ? "paused" : "running",
             a->follow ? "  follow" : "", w->name ? w->name : "",
             *ov ? "  on: " : "", ov);
    int tw = seek_timeline_width(a);
    pad_text(a, 0, 0, a->cols - tw, top, COL_DEFAULT, CA_REVERSE);
    seek_draw_timeline(a, 0, a->cols - tw, tw);

    /* Bottom line: the `g` prompt, a message when there is one, else the
     * live counts. */
    if (seek_draw_prompt(a, a->rows - 1))
        return;
    char bot[512];
    int color = COL_DEFAULT, attr = 0;
    if (a->msg[0]) {
        snprintf(bot, sizeof bot, " %s", a->msg);
        if (a->msg_err) {
            color = COL_RED;
            attr = CA_BOLD;
        }
    } else {
        long laps = 0;
        int cars = 0;
        for (size_t i = 0; i < w->vehicles.n; i++)
            if (w->vehicles.p[i].kind == VK_CAR) {
                laps += world_race_state(w, &w->vehicles.p[i]).laps;
                cars++;
            }
        int n = snprintf(bot, sizeof bot, " collisions %ld  shots %ld  hits %ld",
                         w->stats.collisions, w->stats.shots, w->stats.hits);
        if (cars && n > 0 && (size_t)n < sizeof bot)
            n += snprintf(bot + n, sizeof bot - (size_t)n, "  laps %ld", laps);
        for (size_t t = 0; t < w->teams.n && n > 0 && (size_t)n < sizeof bot; t++)
            if (w->teams.p[t].vehicles)
                n += snprintf(bot + n, sizeof bot - (size_t)n, "  %s %d",
                              w->teams.p[t].name, w->teams.p[t].alive);
        if (n > 0 && (size_t)n < sizeof bot)
            snprintf(bot + n, sizeof bot - (size_t)n, "   ? help");
    }
    pad_text(a, a->rows - 1, 0, a->cols, bot, color, attr);
}

/* ---- the inspector ------------------------------------------------------ */

struct lines {
    char text[64][64];
    int n;
    int head[64];
};

static void add(struct lines *l, int head, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void add(struct lines *l, int head, const char *fmt, ...)
{
    if (l->n >= 64)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text[l->n], sizeof l->text[0], fmt, ap);
    va_end(ap);
    l->head[l->n++] = head;
}

static double deg(double r)
{
    double d = fmod(rad2deg(r), 360.0);
    return d < 0 ? d + 360.0 : d;
}

/* An enum's name as the inspector says it: "out_of_range" is "out of
 * range" (the names themselves are the core's, beside each enum). */
static const char *words(const char *name, char *buf, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++)
        buf[i] = name[i] == '_' ? ' ' : name[i];
    buf[i] = 0;
    return buf;
}

/* Up to max lines of a multi-line text, each one its own inspector line. */
static void add_text_lines(struct lines *l, const char *prefix, const char *text, int max)
{
    for (int k = 0; *text && k < max; k++) {
        size_t len = strcspn(text, "\n");
        add(l, 0, "%s%.*s", prefix, (int)len, text);
        text += len + (text[len] == '\n');
    }
}

/* The vehicle's Lua bot: first, since a bot's vehicle is what its script
 * makes of it.  Its script, its cost this tick against its limits, what it
 * logged, its last error with the start of the traceback. */
static void inspect_bot(const struct app *a, int i, struct lines *l)
{
    const struct world *w = &a->world;
    const struct bot_script *sc = bot_world_script(a->bots, i);
    if (!sc)
        return;
    const struct world_bot *wb = NULL;
    for (size_t k = 0; k < w->bots.n; k++)
        if (w->bots.p[k].vehicle == i)
            wb = &w->bots.p[k];
    add(l, 1, "bot");
    add(l, 0, " %s", sc->path);
    /* A wreck's bot no longer runs; its last report does not survive a
     * step back (the bots are rebuilt), so it is not shown at all. */
    const struct bot_report *r = w->vehicles.p[i].alive ? bot_world_report(a->bots, i) : NULL;
    if (!w->vehicles.p[i].alive)
        add(l, 0, " stopped with its vehicle");
    else if (!r)
        add(l, 0, " not run yet");
    if (r) {
        add(l, 0, " instr %ld/%ld", r->instructions, wb ? wb->budget : 0L);
        add(l, 0, " heap %zu/%ld KiB", (r->heap + 1023) / 1024, wb ? wb->memory_kib : 0L);
        if (r->disabled)
            add(l, 0, " disabled: %s", r->disabled_reason);
        for (int k = 0; k < r->n_log && k < BOT_LOG_LINES; k++)
            add(l, 0, " log %s", r->log[k]);
    }
    const struct bot_last_error *e = (size_t)i < a->nlast_err ? &a->last_err[i] : NULL;
    if (e && e->tick >= 0 && e->tick <= w->tick) {
        add(l, 1, "bot error, tick %ld", e->tick);
        add_text_lines(l, " ", e->error, 2);
        /* The innermost frames: where it happened and who called. */
        add_text_lines(l, "  ", e->traceback, 4);
    }
}

static void inspect(const struct app *a, const struct vehicle *v, struct lines *l)
{
    const struct world *w = &a->world;
    char word[64];
    add(l, 1, "%s", v->id);
    add(l, 0, "%s%s%s  %s", vehicle_kind_names[v->kind], v->team >= 0 ? " of " : "",
        v->team >= 0 ? w->teams.p[v->team].name : "",
        v->alive ? "alive" : "wreck");
    add(l, 0, "at %.0f, %.0f", v->pos.x, v->pos.y);
    add(l, 0, "heading %.0f  speed %.1f", deg(v->heading), v->speed);
    if (v->kind != VK_CAR)
        add(l, 0, "turret %.0f  reload %.1fs", deg(v->turret),
            v->gun.reload_left > 0 ? v->gun.reload_left : 0.0);
    inspect_bot(a, (int)(v - w->vehicles.p), l);
    if (!v->alive)
        return;

    if (v->kind == VK_TANK) {
        const struct avoid_info *av = &v->avoid;
        add(l, 1, "avoid");
        if (av->threat >= 0) {
            add(l, 0, " threat %s", vehicle_name(a, av->threat));
            add(l, 0, " distance %.1f", av->threat_dist);
            add(l, 0, " hit point %.0f, %.0f", av->hit_point.x, av->hit_point.y);
            add(l, 0, " turn %s", av->turn < 0 ? "left" : av->turn > 0 ? "right" : "none");
            if (av->tca > 0 || av->dca > 0)
                add(l, 0, " closest %.1f in %.2fs", av->dca, av->tca);
        } else
            add(l, 0, " no threat");
    }
    if (v->kind != VK_CAR) {
        add(l, 1, "sight");
        int any = 0;
        for (int k = 0; k < v->sight_count; k++) {
            size_t r = (size_t)(v->sight_first + k);
            if (v->sight_first < 0 || r >= w->sights.n)
                break;
            const struct sight_record *s = &w->sights.p[r];
            add(l, 0, " %s %.0f%% %s", vehicle_name(a, s->target),
                100 * s->visible, s->seen ? "seen" : "hidden");
            any = 1;
        }
        if (!any)
            add(l, 0, " no enemy in view");
        const struct aim_info *ai = world_aim(w, v);
        add(l, 1, "aim");
        int t = v->gun.target;
        add(l, 0, " target %s", t >= 0 ? vehicle_name(a, t) : "none");
        if (ai && ai->ok) {
            add(l, 0, " aim %.0f, %.0f", ai->aim_point.x, ai->aim_point.y);
            add(l, 0, " impact in %.3fs", ai->t_impact);
            add(l, 0, " iterations %d", ai->iterations);
            add(l, 0, " rotation %.3fs", ai->t_rotate);
        } else if (ai)
            add(l, 0, " no solution: %s", words(aim_reason_names[ai->reason], word, sizeof word));
    }
    int nroute;
    const struct racer *rc = world_racer(w, v);
    if (rc && world_route(w, v, &nroute) && nroute > 0) {
        const struct race_info *ri = &rc->info;
        add(l, 1, v->kind == VK_CAR ? "race" : "route");
        add(l, 0, " next waypoint %d", world_race_state(w, v).next);
        if (ri->circle_r > 0 && ri->circle_r < 1e9)
            add(l, 0, " turning radius %.1f", ri->circle_r);
        add(l, 0, " target speed %.1f", ri->target_speed);
        add(l, 0, " brakes: %s", words(brake_reason_names[ri->reason], word, sizeof word));
        if (ri->line_s >= 0)
            add(l, 0, " line %.0f/%.0f, corner %.1f", ri->line_s, ri->line_lap, ri->corner_speed);
        if (v->kind == VK_CAR) {
            add(l, 0, " laps %d/%d", world_race_state(w, v).laps, w->track_laps);
            if (world_race_state(w, v).best_lap > 0)
                add(l, 0, " best lap %.2fs", world_race_state(w, v).best_lap);
            if (world_race_state(w, v).finished)
                add(l, 0, " finished %.2fs", world_race_state(w, v).finish_time);
        }
    }
}

void draw_inspector(struct app *a)
{
    if (a->panel_w <= 0)
        return;
    int x = a->cols - a->panel_w, h = a->cam.h;
    static struct lines l;
    l.n = 0;
    if (a->sel >= 0 && (size_t)a->sel < a->world.vehicles.n)
        inspect(a, &a->world.vehicles.p[a->sel], &l);
    uint32_t bar = a->ascii ? '|' : 0x2502;
    char bars[8];
    if (bar == '|')
        strcpy(bars, "|");
    else
        strcpy(bars, "\xe2\x94\x82");
    for (int y = 0; y < h; y++) {
        tui_text(a->map_y + y, x, bars, 1, COL_DEFAULT, CA_DIM, &a->style);
        if (y < l.n)
            pad_text(a, a->map_y + y, x + 1, a->panel_w - 1, l.text[y],
                     l.head[y] ? COL_CYAN : COL_DEFAULT, l.head[y] ? CA_BOLD : 0);
        else
            pad_text(a, a->map_y + y, x + 1, a->panel_w - 1, "", 0, 0);
    }
}

/* ---- the ending banner ---------------------------------------------------- */

struct rank { int i; int finished; double time; int laps; };

static int rank_cmp(const void *p, const void *q)
{
    const struct rank *x = p, *y = q;
    if (x->finished != y->finished)
        return y->finished - x->finished;
    if (x->finished && x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->laps != y->laps)
        return y->laps - x->laps;
    return x->i - y->i;
}

void draw_banner(struct app *a)
{
    const struct world *w = &a->world;
    if (!w->ended || a->banner_hidden)
        return;
    struct lines l;
    l.n = 0;
    int cars = 0;
    for (size_t i = 0; i < w->vehicles.n; i++)
        cars += w->vehicles.p[i].kind == VK_CAR;
    if (cars) {
        add(&l, 1, "race finished");
        struct rank *r = calloc((size_t)cars, sizeof *r);
        int n = 0;
        for (size_t i = 0; r && i < w->vehicles.n; i++) {
            const struct vehicle *v = &w->vehicles.p[i];
            if (v->kind != VK_CAR)
                continue;
            r[n++] = (struct rank){ (int)i, world_race_state(w, v).finished, world_race_state(w, v).finish_time,
                                    world_race_state(w, v).laps };
        }
        if (r)
            qsort(r, (size_t)n, sizeof *r, rank_cmp);
        for (int k = 0; k < n && k < 10; k++) {
            const struct vehicle *v = &w->vehicles.p[r[k].i];
            if (world_race_state(w, v).finished)
                add(&l, 0, "%d. %-12.12s %7.2fs best %.2fs", k + 1, v->id,
                    world_race_state(w, v).finish_time, world_race_state(w, v).best_lap);
            else
                add(&l, 0, "%d. %-12.12s %d laps", k + 1, v->id, world_race_state(w, v).laps);
        }
        free(r);
    } else if (w->winner >= 0 && (size_t)w->winner < w->teams.n)
        add(&l, 1, "%s wins", w->teams.p[w->winner].name);
    else
        add(&l, 1, "battle over: no winner");
    add(&l, 0, "tick %ld, %.2fs", w->tick, (double)w->tick * w->dt);
    add(&l, 0, ". , step  R restart  Esc hide");

    int bw = 0;
    for (int k = 0; k < l.n; k++) {
        int len = (int)strlen(l.text[k]);
        if (len > bw)
            bw = len;
    }
    bw += 4;
    if (bw > a->cv.w)
        bw = a->cv.w;
    int bh = l.n + 2;
    int x0 = (a->cv.w - bw) / 2, y0 = (a->cv.h - bh) / 2;
    for (int y = 0; y < bh; y++)
        for (int x = 0; x < bw; x++) {
            int edge = y == 0 || y == bh - 1 || x == 0 || x == bw - 1;
            /* A reverse-video frame: visible with or without colour. */
            canvas_put(&a->cv, x0 + x, y0 + y, ' ', COL_YELLOW,
                       edge ? CA_REVERSE : 0, LY_TOP);
        }
    for (int k = 0; k < l.n; k++)
        canvas_text(&a->cv, x0 + 2, y0 + 1 + k, l.text[k], l.head[k] ? COL_YELLOW : 0,
                    l.head[k] ? CA_BOLD : 0, LY_TOP);
}
