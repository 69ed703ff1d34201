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
#include "compare.h"
#include "tui.h"
#include "../bot/bot_world.h"
#include "../core/explain.h"
#include "../core/race/race.h"
#include "../core/round.h"
#include "../core/score.h"

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

/* How many bytes of text (at most max) make its first line of `width`
 * cells when it wraps: a line that does not hold the rest (rest bytes)
 * breaks after its last blank, when there is one in its second half. */
static size_t wrap_line(const struct app *a, const char *text, int width, size_t max,
                        size_t rest)
{
    size_t k = tui_text_fit(text, width, max, &a->style);
    if (k < rest) {
        size_t sp = k;
        while (sp > k / 2 && text[sp - 1] != ' ')
            sp--;
        if (sp > k / 2)
            k = sp;
    }
    return k;
}

/* A message wider than the bottom line (a tuned value's error names the
 * file, section, key, value, problem and range: 130 columns) takes up to
 * three lines, over the map's last rows, while it shows: cut at 80
 * columns it lost what is allowed (wrap_line).  1 when drawn so. */
static int draw_long_message(struct app *a, const char *text, int color, int attr)
{
    enum { MAX_LINES = 3 };
    size_t len = strlen(text), start[MAX_LINES], take[MAX_LINES];
    if (a->cols < 20 || tui_text_fit(text, a->cols, len, &a->style) >= len)
        return 0;
    int n = 0;
    size_t at = 0;
    while (at < len && n < MAX_LINES) {
        size_t k = wrap_line(a, text + at, a->cols - (n ? 1 : 0), len - at, len - at);
        if (k == 0)
            break;
        start[n] = at;
        take[n] = k;
        n++;
        at += k;
    }
    if (n < 2 || a->rows - n < 2)
        return 0;
    for (int i = 0; i < n; i++) {
        char line[512];
        snprintf(line, sizeof line, "%s%.*s", i ? " " : "", (int)take[i], text + start[i]);
        pad_text(a, a->rows - n + i, 0, a->cols, line, color, attr);
    }
    return 1;
}

void draw_status(struct app *a)
{
    const struct world *w = &a->world;
    char sp[16], top[512], ov[128] = "";
    speed_text(a, sp, sizeof sp);
    static const struct { int bit; const char *name; } ovn[] = {
        { OV_RAYS, "rays" }, { OV_CONES, "cones" }, { OV_AVOID, "avoid" },
        { OV_TRAJ, "aim" }, { OV_WAYP, "waypoints" }, { OV_COLL, "marks" }, { OV_BOTS, "drawings" },
        { OV_LABELS, "ids" }, { OV_CANDS, "candidates" }, { OV_WALK, "walk" },
    };
    for (size_t i = 0; i < sizeof ovn / sizeof ovn[0]; i++)
        if (a->overlays & ovn[i].bit) {
            size_t l = strlen(ov);
            snprintf(ov + l, sizeof ov - l, "%s%s", l ? " " : "", ovn[i].name);
        }
    /* What changes first, the overlays that are on next, the map's name
     * last: a narrow terminal cuts the end of the line, and at 80 columns
     * a long name once hid which overlays a key had just turned on.
     * `--compare` writes its "differ from tick N" after the text (or over
     * its end): where the name would leave it no room, the name goes (both
     * halves are the one map), not the overlays. */
    int tw = seek_timeline_width(a);
    int n = snprintf(top, sizeof top, " tick %ld  %.2fs  %s  %s%s%s%s", w->tick,
                     (double)w->tick * w->dt, sp, a->paused ? "paused" : a->live ? "live" : "running",
                     a->drive.on ? "  driving" : a->follow ? "  follow" : "",
                     *ov ? "  on: " : "", ov);
    const char *name = w->name ? w->name : "";
    if (a->cmp && n + 2 + (int)strlen(name) + COMPARE_LABEL_ROOM > a->cols - tw)
        name = "";
    if (n > 0 && (size_t)n < sizeof top)
        snprintf(top + n, sizeof top - (size_t)n, "  %s", name);
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
        if (draw_long_message(a, bot, color, attr))
            return;
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
        /* each team's vehicles alive and its score (score.h) */
        struct score_sum *ts = calloc(w->teams.n + 1, sizeof *ts);
        if (ts)
            score_teams(w, ts);
        for (size_t t = 0; t < w->teams.n && n > 0 && (size_t)n < sizeof bot; t++)
            if (w->teams.p[t].vehicles)
                n += snprintf(bot + n, sizeof bot - (size_t)n, "  %s %d score %ld",
                              w->teams.p[t].name, w->teams.p[t].alive, ts ? ts[t].score : 0L);
        free(ts);
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

/* Degrees as in the map file and the trace: (-180, 180], 0 = +x,
 * 90 = +y (clockwise on screen). */
static double deg(double r)
{
    double d = rad2deg(angle_norm(r));
    /* as printed whole: never "-0", never "-180" */
    return d > -0.5 && d < 0.5 ? 0 : d <= -179.5 ? 180 : d;
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

/* A text wrapped to the inspector's width, up to max rows: a bot's error,
 * traceback and disabled reason are what a user must read whole (cut at
 * the panel's 29 cells, "attempt to index a nil value" read "attempt to
 * ind"); see wrap_line.  Each of the text's own lines starts a row after
 * `prefix`; the rows it wraps onto start after `cont`. */
static void add_wrapped(struct lines *l, const struct app *a, const char *prefix,
                        const char *cont, const char *text, int max)
{
    int line_start = 1;
    for (int k = 0; *text && k < max; k++) {
        const char *p = line_start ? prefix : cont;
        int width = a->panel_w - 1 - (int)strlen(p);
        if (width < 8)
            width = 8;
        size_t room = sizeof l->text[0] - 1 - strlen(p);
        size_t nl = strcspn(text, "\n");
        size_t len = wrap_line(a, text, width, nl < room ? nl : room, nl);
        if (len == 0)
            break;
        add(l, 0, "%s%.*s", p, (int)len, text);
        text += len;
        line_start = *text == '\n';
        if (line_start)
            text++;
    }
}

/* The bot's kept log lines up to the tick shown, each with its tick:
 * BOT_LOG_SHOW of them, scrolled back log_scroll lines from the newest. */
static void inspect_bot_logs(const struct app *a, int i, struct lines *l)
{
    int n = app_bot_log_lines(a, i);
    if (n <= 0)
        return;
    const struct bot_log_ring *g = a->last_err[i].logs;
    int scroll = a->log_scroll < n - BOT_LOG_SHOW ? a->log_scroll : n - BOT_LOG_SHOW;
    if (scroll < 0)
        scroll = 0;
    int last = n - scroll, first = last > BOT_LOG_SHOW ? last - BOT_LOG_SHOW : 0;
    if (n > BOT_LOG_SHOW)
        add(l, 0, " log %d-%d of %d  [ ] scroll", first + 1, last, n);
    for (int k = first; k < last; k++) {
        int at = (g->first + k) % BOT_LOG_KEEP;
        add(l, 0, " %ld log %s", g->line[at].tick, g->line[at].text);
    }
}

/* A process bot's: what it logged and its last error (no script, no
 * instructions or heap of ours to count). */
static void inspect_process(const struct app *a, int i, struct lines *l)
{
    const struct world *w = &a->world;
    const struct bot_report *r = w->vehicles.p[i].alive ? bot_world_report(a->bots, i) : NULL;
    add(l, 1, "bot: a process (--bot-process)");
    if (r && r->disabled)
        add_wrapped(l, a, " ", "   ", r->disabled_reason, 6);
    inspect_bot_logs(a, i, l);
    const struct bot_last_error *e = (size_t)i < a->nlast_err ? &a->last_err[i] : NULL;
    if (e && e->tick >= 0 && e->tick <= w->tick) {
        add(l, 1, "bot error, tick %ld", e->tick);
        add_wrapped(l, a, " ", " ", e->error, 4);
    }
}

/* The vehicle's Lua bot: first, since a bot's vehicle is what its script
 * makes of it.  Its script, its cost this tick against its limits, what it
 * logged, its last error with the start of the traceback. */
static void inspect_bot(const struct app *a, int i, struct lines *l)
{
    const struct world *w = &a->world;
    const struct bot_script *sc = bot_world_script(a->bots, i);
    if (!sc && bot_world_is_process(a->bots, i)) {
        inspect_process(a, i, l);
        return;
    }
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
        if (r->disabled) {
            char dis[BOT_ERR_BYTES + 16];
            snprintf(dis, sizeof dis, "disabled: %s", r->disabled_reason);
            add_wrapped(l, a, " ", "   ", dis, 6);
        }
    }
    inspect_bot_logs(a, i, l);
    const struct bot_last_error *e = (size_t)i < a->nlast_err ? &a->last_err[i] : NULL;
    if (e && e->tick >= 0 && e->tick <= w->tick) {
        add(l, 1, "bot error, tick %ld", e->tick);
        add_wrapped(l, a, " ", " ", e->error, 4);
        /* The innermost frames: where it happened and who called. */
        add_wrapped(l, a, "  ", "    ", e->traceback, 8);
    }
}

/* The wander record: the rule of the turn in progress, this tick's part
 * of it, what is left, a turn drawn this tick and the edge rule's sides. */
static void inspect_wander(struct lines *l, const struct explain_wander *x)
{
    if (x->rule == WANDER_NONE && x->drawn == 0) {
        add(l, 1, "wander: straight on");
        return;
    }
    add(l, 1, "wander: %s turn", wander_rule_names[x->rule]);
    add(l, 0, " turn %+.2f, %.2f left", rad2deg(x->turn), rad2deg(x->left));
    if (x->drawn != 0)
        add(l, 0, " drew %+.2f this tick", rad2deg(x->drawn));
    if (x->rule == WANDER_EDGE && x->drawn != 0)
        add(l, 0, " %s: R %.0f L %.0f", x->side_random ? "side random" : "clearer side",
            x->clear_right, x->clear_left);
}

/* The avoidance record and, from the decision record, what it chose. */
static void inspect_avoid(const struct app *a, const struct vehicle *v, struct lines *l,
                          const struct explain *x)
{
    const struct avoid_info *av = &v->avoid;
    add(l, 1, "avoid %s", avoid_names[v->p->avoid]);
    if (av->threat >= 0 || av->shell > 0) {
        if (av->threat >= 0)
            add(l, 0, " threat %s", vehicle_name(a, av->threat));
        else
            add(l, 0, " threat shell %ld", av->shell);
        add(l, 0, " distance %.1f", av->threat_dist);
        add(l, 0, " hit point %.0f, %.0f", av->hit_point.x, av->hit_point.y);
        if (v->p->avoid == AVOID_PREDICTIVE)
            add(l, 0, " closest %.1f in %.2fs", av->dca, av->tca);
    } else
        add(l, 0, " no threat");
    if (!x || !x->avoid.ran)
        return;
    const struct explain_avoid *e = &x->avoid;
    if (av->steer)
        add(l, 0, " steers %s: %+.2f at %.1f", av->turn < 0 ? "left" : av->turn > 0
            ? "right" : "ahead", rad2deg(e->turn), e->speed);
    if (e->planned_now) {
        /* the chosen candidate's cost, and the best of the others */
        double next = INFINITY;
        for (int c = 0; c < EXPLAIN_CANDS; c++)
            if (c != e->chosen && e->cost[c] < next)
                next = e->cost[c];
        add(l, 0, " cost %.3f, next %.3f", e->cost[e->chosen], next);
    }
    if (e->postponed)
        add(l, 0, " wander turn postponed");
    if (av->limited)
        add(l, 0, " speed limited: %.1f", e->speed);
}

/* One line a sight record: who, how far; then what share is visible
 * against which threshold, and why that one. */
static void inspect_sight(const struct app *a, const struct vehicle *v, struct lines *l)
{
    const struct world *w = &a->world;
    add(l, 1, "sight %s", sight_names[v->p->sight]);
    int any = 0;
    for (int k = 0; k < v->sight_count; k++) {
        size_t r = (size_t)(v->sight_first + k);
        if (v->sight_first < 0 || r >= w->now.sights.n)
            break;
        const struct sight_record *s = &w->now.sights.p[r];
        add(l, 0, " %s at %.0f", vehicle_name(a, s->target), sight_record_distance(s));
        add(l, 0, "  %.0f%% %s %.0f%% %s: %s", 100 * s->visible, s->seen ? ">=" : "<",
            100 * s->threshold, sight_rule_names[s->rule], s->seen ? "seen" : "hidden");
        any = 1;
    }
    if (!any)
        add(l, 0, " no enemy in view");
}

/* Predictive avoidance's candidates on a re-planning tick, as a grid:
 * a row per turn (R3 hard right .. L3 hard left, thirds of the turn
 * rate), a column per speed; each cell its cost, `*` the one chosen, `~`
 * a pruned one (its cost only the bound that ruled it out).  Last in the
 * inspector: the lines above matter more on a short terminal. */
static void inspect_candidates(struct lines *l, const struct explain *x)
{
    if (!x || !x->avoid.ran || !x->avoid.planned_now)
        return;
    const struct explain_avoid *e = &x->avoid;
    add(l, 1, "candidates  full  half  stop");
    for (int k = EXPLAIN_TURN_STEPS; k >= -EXPLAIN_TURN_STEPS; k--) {
        char row[64];
        int n = snprintf(row, sizeof row, " %c%d       ", k > 0 ? 'R' : k < 0 ? 'L' : ' ',
                         k < 0 ? -k : k);
        for (int m = 0; m < EXPLAIN_SPEEDS && n > 0 && (size_t)n < sizeof row; m++) {
            int c = (EXPLAIN_TURN_STEPS - k) * EXPLAIN_SPEEDS + m;
            n += snprintf(row + n, sizeof row - (size_t)n, "%5.2f%c", e->cost[c],
                          c == e->chosen ? '*' : e->tried[c] ? ' ' : '~');
        }
        add(l, 0, "%s", row);
    }
}

static void inspect_race(const struct app *a, const struct vehicle *v, struct lines *l,
                         const struct explain *x)
{
    const struct world *w = &a->world;
    char word[64];
    int nroute;
    const struct racer *rc = world_racer(w, v);
    if (!rc || !world_route(w, v, &nroute) || nroute <= 0)
        return;
    const struct race_info *ri = &rc->info;
    add(l, 1, v->kind == VK_CAR ? "race" : "route");
    add(l, 0, " next waypoint %d", world_race_state(w, v).next);
    /* --check's warning: a waypoint skipped as soon as the car leaves the
     * one before (race_check.c), the first such */
    const struct waypoint *wp = world_route(w, v, &nroute);
    for (int k = 0; v->kind == VK_CAR && k < nroute; k++)
        if (race_skipped_at_once(w, wp, nroute, v->p, w->dt, k)) {
            add(l, 0, " waypoint %d: no clean lap", k);
            break;
        }
    if (ri->circle_r > 0 && ri->circle_r < 1e9)
        add(l, 0, " turning radius %.1f", ri->circle_r);
    add(l, 0, " target speed %.1f", ri->target_speed);
    add(l, 0, " brakes: %s", words(brake_reason_names[ri->reason], word, sizeof word));
    if (ri->line_s >= 0 && ri->line_lap > 0)     /* not before its first tick */
        add(l, 0, " line %.0f/%.0f, corner %.1f", ri->line_s, ri->line_lap, ri->corner_speed);
    if (x && x->race.corner >= 0) {
        add(l, 0, "  for waypoint %d: %.1f", x->race.corner, x->race.corner_speed);
        add(l, 0, "  in %.1f, allows %.1f", x->race.corner_dist, x->race.allowed);
    }
    if (v->kind == VK_CAR) {
        add(l, 0, " laps %d/%d", world_race_state(w, v).laps, w->track_laps);
        if (world_race_state(w, v).best_lap > 0)
            add(l, 0, " best lap %.2fs", world_race_state(w, v).best_lap);
        else if (world_race_state(w, v).laps > 0)   /* none clean */
            add(l, 0, " best lap -");
        if (world_race_state(w, v).finished)
            add(l, 0, " finished %.2fs", world_race_state(w, v).finish_time);
    }
}

/* The first answer to "why is it doing that?": which record decided this
 * tick's motion, in a line; the sections below give the numbers. */
static void inspect_why(const struct app *a, const struct vehicle *v, struct lines *l,
                        const struct explain *x)
{
    const struct world *w = &a->world;
    const struct racer *rc = world_racer(w, v);
    char word[64];
    if (!x)
        return;
    if (x->bot.ran)
        add(l, 0, "why: its bot decides");
    else if (x->avoid.ran && v->avoid.steer && v->avoid.threat < 0 && v->avoid.shell > 0)
        add(l, 0, "why: dodges shell %ld", v->avoid.shell);
    else if (x->avoid.ran && v->avoid.steer)
        add(l, 0, "why: avoids %s", v->avoid.threat >= 0
            ? vehicle_name(a, v->avoid.threat) : "a neighbour");
    else if (x->avoid.ran && v->avoid.limited)
        add(l, 0, "why: slows to keep a gap");
    else if (x->wander.ran && x->wander.turn != 0)
        add(l, 0, "why: %s turn %s", wander_rule_names[x->wander.rule],
            x->wander.turn > 0 ? "right" : "left");
    else if (rc && x->race.corner >= 0 && rc->info.reason != BRAKE_NONE)
        add(l, 0, "why: brakes for waypoint %d", x->race.corner);
    else if (rc && rc->info.reason != BRAKE_NONE)
        add(l, 0, "why: brakes, %s", words(brake_reason_names[rc->info.reason], word, sizeof word));
    else if (rc && rc->info.next >= 0)
        add(l, 0, "why: drives to waypoint %d", rc->info.next);
}

static void inspect(const struct app *a, const struct vehicle *v, struct lines *l)
{
    const struct world *w = &a->world;
    char word[64];
    int i = (int)(v - w->vehicles.p);
    /* this tick's decision record (explain.h), NULL: none kept */
    const struct explain *x = world_explain(w, i);
    add(l, 1, "%s", v->id);
    add(l, 0, "%s%s%s  %s", vehicle_kind_names[v->kind], v->team >= 0 ? " of " : "",
        v->team >= 0 ? w->teams.p[v->team].name : "",
        v->alive ? "alive" : "wreck");
    add(l, 0, "at %.0f, %.0f", v->pos.x, v->pos.y);
    add(l, 0, "heading %.0f  speed %.1f", deg(v->heading), v->speed);
    if (v->kind != VK_CAR)
        add(l, 0, "turret %.0f  reload %.1fs", deg(v->turret),
            v->gun.reload_left > 0 ? v->gun.reload_left : 0.0);
    if (v->team >= 0 && v->kind != VK_CAR) {
        /* its points so far (score.h): a wreck keeps them */
        struct score_sum sc = score_vehicle(w, v);
        add(l, 0, "score %ld", sc.score);
        add(l, 0, " damage %ld kills %ld", sc.damage, sc.kills);
        add(l, 0, " survival %ld last %ld", sc.survival, sc.last);
    }
    if (v->alive)
        inspect_why(a, v, l, x);
    inspect_bot(a, i, l);
    if (!v->alive)
        return;

    if (x && x->wander.ran)
        inspect_wander(l, &x->wander);
    if (v->kind == VK_TANK)
        inspect_avoid(a, v, l, x);
    if (v->kind != VK_CAR) {
        inspect_sight(a, v, l);
        const struct aim_info *ai = world_aim(w, v);
        add(l, 1, "aim %s", aim_names[v->p->aim]);
        int t = v->gun.target;
        add(l, 0, " target %s", t >= 0 ? vehicle_name(a, t) : "none");
        if (ai && ai->ok) {
            add(l, 0, " aim %.0f, %.0f", ai->aim_point.x, ai->aim_point.y);
            add(l, 0, " impact in %.3fs", ai->t_impact);
            add(l, 0, " iterations %d", ai->iterations);
            add(l, 0, " rotation %.3fs", ai->t_rotate);
            if (isfinite(ai->bracket_lo) && isfinite(ai->bracket_hi))
                add(l, 0, " bracket %.4f..%.4fs", ai->bracket_lo, ai->bracket_hi);
        } else if (ai)
            add(l, 0, " no solution: %s", words(aim_reason_names[ai->reason], word, sizeof word));
    }
    inspect_race(a, v, l, x);
    inspect_candidates(l, x);
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

/* A match's lines under a round's result: which round ended, and what
 * comes next, or the match's winner (round.h judges). */
static void match_lines(struct lines *l, const struct world *w)
{
    if (w->round < w->rounds) {
        add(l, 1, "round %d of %d over", w->round, w->rounds);
        add(l, 0, "Space plays round %d of %d", w->round + 1, w->rounds);
        return;
    }
    int *wins = calloc(w->teams.n + 1, sizeof *wins);
    struct score_sum *tot = calloc(w->teams.n + 1, sizeof *tot);
    int winner = round_match_winner(w, wins);
    add(l, 1, "match over: %d rounds", w->rounds);
    if (tot)
        round_totals(w, tot, NULL);
    /* won on the total score; the rounds won said alongside */
    if (winner >= 0 && wins && tot)
        add(l, 1, "team %s wins the match (total score %ld, %d rounds won)",
            w->teams.p[winner].name, tot[winner].score, wins[winner]);
    else
        add(l, 1, "the match is a draw");
    free(tot);
    free(wins);
}

/* The duration reached with teams alive: the higher team score wins
 * (score_winner), equal scores are a draw. */
static void score_banner(struct lines *l, const struct world *w)
{
    int playing = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        playing += w->teams.p[t].vehicles > 0;
    struct score_sum *ts = playing > 1 ? calloc(w->teams.n + 1, sizeof *ts) : NULL;
    if (!ts) {              /* no teams to score: no battle to win */
        add(l, 1, "time up: no winner");
        return;
    }
    score_teams(w, ts);
    int win = score_winner(w, ts);
    if (win >= 0)
        add(l, 1, "time up: team %s wins on score", w->teams.p[win].name);
    else
        add(l, 1, "time up: draw on score");
    char line[64] = "";
    int n = 0;
    for (size_t t = 0; t < w->teams.n && n >= 0 && (size_t)n < sizeof line; t++)
        if (w->teams.p[t].vehicles)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s%s %ld", n ? "  " : "",
                          w->teams.p[t].name, ts[t].score);
    if (*line)
        add(l, 0, "%s", line);
    free(ts);
}

void draw_banner(struct app *a)
{
    const struct world *w = &a->world;
    if (!app_over(a) || a->banner_hidden)
        return;
    /* the map's duration reached with no winner yet */
    int time_up = !w->ended;
    struct lines l;
    l.n = 0;
    int cars = 0;
    for (size_t i = 0; i < w->vehicles.n; i++)
        cars += w->vehicles.p[i].kind == VK_CAR;
    if (cars) {
        add(&l, 1, time_up ? "time up: race over" : "race finished");
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
            if (world_race_state(w, v).finished && world_race_state(w, v).best_lap <= 0)
                add(&l, 0, "%d. %-12.12s %7.2fs best -", k + 1, v->id,
                    world_race_state(w, v).finish_time);
            else if (world_race_state(w, v).finished)
                add(&l, 0, "%d. %-12.12s %7.2fs best %.2fs", k + 1, v->id,
                    world_race_state(w, v).finish_time, world_race_state(w, v).best_lap);
            else
                add(&l, 0, "%d. %-12.12s %d laps", k + 1, v->id, world_race_state(w, v).laps);
        }
        free(r);
    } else if (time_up)
        score_banner(&l, w);
    else if (w->winner >= 0 && (size_t)w->winner < w->teams.n)
        /* "team bots wins": a team's name may read as a plural noun */
        add(&l, 1, "team %s wins", w->teams.p[w->winner].name);
    else
        add(&l, 1, "battle over: no winner");
    if (w->rounds > 1)
        match_lines(&l, w);
    add(&l, 0, "tick %ld, %.2fs", w->tick, (double)w->tick * w->dt);
    add(&l, 0, time_up ? ", step back  R restart  Esc hide" : ". , step  R restart  Esc hide");

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
