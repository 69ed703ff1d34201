#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "utf8.h"
#include "../core/events.h"
#include "../core/world.h"
#include "../core/score.h"
#include "../core/tick.h"
#include "../core/round.h"

const char *trace_strerror(int e)
{
    /* "File too large" says nothing of the limit the user can change */
    if (e == EFBIG)
        return "file size limit reached (ulimit -f, or a quota): the output is cut "
               "short there";
    return strerror(e ? e : EIO);
}

/* The first number the writer refused since trace_error_clear(). */
static char refused[96];

int trace_number(char *buf, double v)
{
    if (!isfinite(v)) {
        /* JSON has no NaN or infinity: never written as a number.  The
         * line stays valid JSON, and the caller is told. */
        strcpy(buf, "null");
        return -1;
    }
    if (v == 0) {               /* -0 reads back as 0 in most tools anyway */
        strcpy(buf, "0");
        return 0;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return 0;
    }
    return 0;
}

const char *trace_error(void)
{
    return refused[0] ? refused : NULL;
}

void trace_error_clear(void)
{
    refused[0] = 0;
}

/* Writes a JSON string.  Ids are plain, but a map's `name` and its file
 * name may hold anything: quotes, backslashes and control characters are
 * escaped, and each byte that does not belong to valid UTF-8 becomes
 * U+FFFD, so every line is JSON whatever the map held. */
static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_len(p);
        if (n == 0) {
            fputs("\xef\xbf\xbd", f);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p++);
        } else if (*p < 0x20 || *p == 0x7f) {
            fprintf(f, "\\u%04x", *p++);
        } else {
            fwrite(p, 1, (size_t)n, f);
            p += n;
        }
    }
    fputc('"', f);
}

/* A number, after its key.  A non-finite value is a bug upstream: it is
 * written as null (the line stays JSON), remembered for trace_error(),
 * and every trace function then returns -1, so the run stops loudly. */
static void put_value(FILE *f, const char *what, double v)
{
    char b[40];
    if (trace_number(b, v) && !refused[0])
        snprintf(refused, sizeof refused, "%s = %g is not a finite number", what, v);
    fputs(b, f);
}

static void put_num(FILE *f, const char *key, double v)
{
    fprintf(f, ",\"%s\":", key);
    put_value(f, key, v);
}

static void put_key_str(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    put_str(f, s);
}

/* 0, or -1 when the stream failed or a number was refused. */
static int status(FILE *f)
{
    return ferror(f) || refused[0] ? -1 : 0;
}

static const char *vid(const struct world *w, int i)
{
    return i >= 0 && (size_t)i < w->vehicles.n ? w->vehicles.p[i].id : "";
}

/* A setting given in degrees (kept as radians): the shortest degrees that
 * the map loader turns back into the same radians (30, not
 * 29.999999999999996), else the exact conversion. */
static void put_deg(FILE *f, const char *key, double rad)
{
    char b[40];
    snprintf(b, sizeof b, "%.15g", rad2deg(rad));
    if (isfinite(rad) && deg2rad(strtod(b, NULL)) == rad)
        fprintf(f, ",\"%s\":%s", key, b);
    else
        put_num(f, key, rad2deg(rad));
}

/* Every setting that shapes the vehicle's decisions, by its map key
 * (angles and rates in degrees): a trace says which rules ran. */
static void put_settings(FILE *f, const struct vehicle *v)
{
    const struct vehicle_params *p = v->p;
    if (v->kind == VK_CAR) {
        put_num(f, "max_speed", p->max_speed);
        put_num(f, "min_speed", p->min_speed);
        put_num(f, "accel", p->accel);
        put_num(f, "brake", p->brake);
        put_deg(f, "turn_rate", p->turn_rate);
        put_deg(f, "back_angle", p->back_angle);
        put_key_str(f, "speed_rule", speed_rule_names[p->speed_rule]);
        put_key_str(f, "steer", steer_names[p->steer]);
        return;
    }
    if (v->kind == VK_TANK) {
        put_key_str(f, "behaviour", drive_names[p->drive]);
        put_num(f, "speed", p->speed);
        put_deg(f, "turn_rate", p->turn_rate);
        put_key_str(f, "avoid", avoid_names[p->avoid]);
        put_num(f, "collision_range", p->collision_range);
    } else {
        put_deg(f, "facing", angle_norm(p->facing));
    }
    put_deg(f, "fov", p->fov);
    put_num(f, "view_range", p->view_range);
    put_key_str(f, "sight", sight_names[p->sight]);
    put_deg(f, "turret_rate", p->turret_rate);
    put_num(f, "shell_speed", p->shell_speed);
    put_num(f, "range", p->range);
    put_num(f, "reload", p->reload);
    put_key_str(f, "aim", aim_names[p->aim]);
    fprintf(f, ",\"health\":%d", p->health);
    /* only where the map changed it: bundled traces stay as they were */
    if (p->sensor != (v->kind == VK_TURRET ? SENSOR_TURRET : SENSOR_HULL))
        put_key_str(f, "sensor", sensor_names[p->sensor]);
    if (p->sensor == SENSOR_RADAR)
        put_deg(f, "radar_rate", p->radar_rate);
    if (v->kind == VK_TANK && !p->dodge)
        put_key_str(f, "dodge", "no");
}

/* The trees, a line each (the header's, and a new round's). */
static void put_trees(FILE *f, const struct world *w)
{
    for (size_t i = 0; i < w->trees.n; i++) {
        fputs("{\"type\":\"tree\"", f);
        put_num(f, "x", w->trees.p[i].c.x);
        put_num(f, "y", w->trees.p[i].c.y);
        put_num(f, "r", w->trees.p[i].r);
        fputs("}\n", f);
    }
}

int trace_round_trees(FILE *f, const struct world *w)
{
    put_trees(f, w);
    return status(f);
}

int trace_begin(FILE *f, const struct world *w, const char *version)
{
    fprintf(f, "{\"type\":\"header\",\"format\":1");
    put_key_str(f, "version", version);
    put_key_str(f, "map", w->name ? w->name : "");
    fprintf(f, ",\"seed\":%llu", (unsigned long long)w->seed);
    put_num(f, "tick_rate", w->tick_rate);
    put_num(f, "width", w->width);
    put_num(f, "height", w->height);
    /* The Lua that runs (or would run) the bots (a trace names it, since
     * a script's numbers may print differently under another version);
     * the caller sets w->bot_engine, "" when it did not. */
    put_key_str(f, "lua", w->bot_engine ? w->bot_engine : "");
    fputs("}\n", f);
    put_trees(f, w);
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        fputs("{\"type\":\"entity\"", f);
        put_key_str(f, "id", v->id);
        put_key_str(f, "kind", vehicle_kind_names[v->kind]);
        if (v->team >= 0)
            put_key_str(f, "team", w->teams.p[v->team].name);
        put_num(f, "radius", v->p->radius);
        if (v->kind == VK_TANK) {
            put_num(f, "length", v->p->length);
            put_num(f, "width", v->p->width);
        }
        put_settings(f, v);
        for (size_t b = 0; b < w->bots.n; b++)
            if (w->bots.p[b].vehicle == (int)i) {
                put_key_str(f, "bot", w->bots.p[b].path);
                put_key_str(f, "bot_sha256", w->bots.p[b].sha256);
            }
        fputs("}\n", f);
    }
    for (size_t i = 0; i < w->track.n; i++) {
        fprintf(f, "{\"type\":\"waypoint\",\"index\":%zu", i);
        put_num(f, "x", w->track.p[i].c.x);
        put_num(f, "y", w->track.p[i].c.y);
        put_num(f, "r", w->track.p[i].r);
        fputs("}\n", f);
    }
    return status(f);
}

/* One field of an event line, as events.def says the trace writes it. */
static void put_field(FILE *f, const struct world *w, const struct event_field *x)
{
    switch (x->type) {
    case EVF_VEHICLE:
        put_key_str(f, x->key, vid(w, (int)x->i));
        break;
    case EVF_VEHICLE_OR_NULL:
        if (x->i >= 0)
            put_key_str(f, x->key, vid(w, (int)x->i));
        else
            fprintf(f, ",\"%s\":null", x->key);
        break;
    case EVF_NUM:
        put_num(f, x->key, x->num);
        break;
    case EVF_INT:
        fprintf(f, ",\"%s\":%ld", x->key, x->i);
        break;
    case EVF_INDEX:
        fprintf(f, ",\"%s\":%ld", x->key, x->i + EVENT_INDEX_BASE_TRACE);
        break;
    case EVF_BOOL:
        fprintf(f, ",\"%s\":%s", x->key, x->i ? "true" : "false");
        break;
    case EVF_NAME:
        put_key_str(f, x->key, x->str);
        break;
    }
}

/* {"type":"TYPE","tick":N, then the event's fields (events.def). */
static void put_event(FILE *f, const struct world *w, const struct event *e)
{
    struct event_field x[EVENT_FIELDS_MAX];
    int n = event_fields(e, x);
    fprintf(f, "{\"type\":\"%s\",\"tick\":%ld", event_kind_names[e->kind], w->tick);
    for (int k = 0; k < n && k < EVENT_FIELDS_MAX; k++)
        put_field(f, w, &x[k]);
    fputs("}\n", f);
}

int trace_events(FILE *f, const struct world *w)
{
    /* the sight records are the tick's first events (sight_event_of) */
    for (size_t k = 0; k < w->now.sights.n; k++) {
        struct event e;
        sight_event_of(&w->now.sights.p[k], &e);
        put_event(f, w, &e);
    }
    for (size_t k = 0; k < w->now.events.n; k++)
        put_event(f, w, &w->now.events.p[k]);
    return status(f);
}

int trace_states(FILE *f, const struct world *w)
{
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        fprintf(f, "{\"type\":\"state\",\"tick\":%ld", w->tick);
        put_key_str(f, "id", v->id);
        if (v->team >= 0)
            put_key_str(f, "team", w->teams.p[v->team].name);
        put_num(f, "x", v->pos.x);
        put_num(f, "y", v->pos.y);
        put_num(f, "heading", rad2deg(v->heading));
        put_num(f, "speed", v->speed);
        if (v->kind != VK_CAR)
            put_num(f, "turret", rad2deg(v->turret));
        if (v->p->sensor == SENSOR_RADAR)
            put_num(f, "radar", rad2deg(v->radar));
        fprintf(f, ",\"alive\":%s}\n", v->alive ? "true" : "false");
    }
    return status(f);
}

/* Field k (0 damage, 1 kills, 2 survival, 3 last, 4 score) of s. */
static long score_field(const struct score_sum *s, int k)
{
    const long f[] = { s->damage, s->kills, s->survival, s->last, s->score };
    return f[k];
}

/* put_scores' vehicles for a round line: the teams' fields only. */
static const struct score_sum teams_only;
#define SCORES_TEAMS_ONLY (&teams_only)

/* The summary's scores (vehicles: each vehicle's, NULL: as they stand): for each field an object by team ("scores" the
 * score), then the same by tank and turret ("vehicle_..."): flat, as a
 * run line's values must be (objects of numbers), one CSV column each. */
static void put_scores(FILE *f, const struct world *w, const struct score_sum *teams,
                       const struct score_sum *vehicles)
{
    static const char *const name[] = { "damage", "kills", "survival", "last", "scores" };
    for (int k = 0; k < 5; k++) {
        fprintf(f, ",\"%s\":{", name[k]);
        for (size_t t = 0; t < w->teams.n; t++) {
            if (t)
                fputc(',', f);
            put_str(f, w->teams.p[t].name);
            fprintf(f, ":%ld", score_field(&teams[t], k));
        }
        fputc('}', f);
    }
    for (int k = 0; vehicles != SCORES_TEAMS_ONLY && k < 5; k++) {
        fprintf(f, ",\"vehicle_%s\":{", name[k]);
        int first = 1;
        for (size_t i = 0; i < w->vehicles.n; i++) {
            const struct vehicle *v = &w->vehicles.p[i];
            if (v->team < 0)
                continue;
            if (!first)
                fputc(',', f);
            first = 0;
            put_str(f, v->id);
            struct score_sum s = vehicles ? vehicles[i] : score_vehicle(w, v);
            fprintf(f, ":%ld", score_field(&s, k));
        }
        fputc('}', f);
    }
}

/* A team's name, or null for none. */
static void put_team(FILE *f, const struct world *w, int t)
{
    if (t >= 0 && (size_t)t < w->teams.n)
        put_str(f, w->teams.p[t].name);
    else
        fputs("null", f);
}

/* A match's end of the summary: each round's winner, the rounds each
 * team won, the match's winner (round.h judges: on the total score) and
 * the scores summed over the rounds. */
static int put_match(FILE *f, const struct world *w)
{
    int *wins = calloc(w->teams.n + 1, sizeof *wins);
    struct score_sum *teams = calloc(w->teams.n + 1, sizeof *teams);
    struct score_sum *vehicles = calloc(w->vehicles.n + 1, sizeof *vehicles);
    if (!wins || !teams || !vehicles) {
        free(wins);
        free(teams);
        free(vehicles);
        return -1;
    }
    int winner = round_match_winner(w, wins);
    round_totals(w, teams, vehicles);
    /* an object by round ("1": its winner), not an array: the summary
     * is a tournament's run line, whose values may not be arrays */
    fputs("},\"rounds\":{", f);
    for (size_t k = 0; k < w->round_winners.n; k++) {
        fprintf(f, "%s\"%zu\":", k ? "," : "", k + 1);
        put_team(f, w, w->round_winners.p[k]);
    }
    if (round_over(w)) {
        fprintf(f, "%s\"%d\":", w->round_winners.n ? "," : "", w->round);
        put_team(f, w, round_result(w));
    }
    fputs("},\"round_wins\":{", f);
    for (size_t t = 0; t < w->teams.n; t++) {
        fprintf(f, "%s", t ? "," : "");
        put_str(f, w->teams.p[t].name);
        fprintf(f, ":%d", wins[t]);
    }
    free(wins);
    fputs("},\"winner\":", f);
    put_team(f, w, winner);
    fprintf(f, ",\"won_by\":%s", tick_teams_started(w) >= 2 ? "\"score\"" : "null");
    put_scores(f, w, teams, vehicles);
    free(teams);
    free(vehicles);
    fputs("}\n", f);
    return status(f);
}

int trace_round(FILE *f, const struct world *w)
{
    fprintf(f, "{\"type\":\"round\",\"tick\":%ld,\"round\":%d,\"rounds\":%d,\"winner\":",
            w->tick, w->round, w->rounds);
    put_team(f, w, round_result(w));
    /* how, as a run's won_by; then this round's scores by team */
    int left = 0;
    for (size_t t = 0; t < w->teams.n; t++)
        left += w->teams.p[t].alive > 0;
    const char *by = tick_teams_started(w) < 2 ? "null"
                     : left == 1 ? "\"last_standing\"" : left >= 2 ? "\"score\"" : "null";
    fprintf(f, ",\"won_by\":%s", by);
    struct score_sum *teams = calloc(w->teams.n + 1, sizeof *teams);
    if (!teams)
        return -1;
    score_teams(w, teams);
    put_scores(f, w, teams, SCORES_TEAMS_ONLY);
    free(teams);
    fputs("}\n", f);
    return status(f);
}

int trace_summary(FILE *f, const struct world *w)
{
    fprintf(f, "{\"type\":\"summary\",\"ticks\":%ld", w->tick);
    put_num(f, "seconds", (double)w->tick / w->tick_rate);
    fprintf(f, ",\"collisions\":%ld", w->stats.collisions);
    /* +inf while fewer than two vehicles: no pair, written as null. */
    if (isinf(w->stats.min_separation) && w->stats.min_separation > 0)
        fputs(",\"min_separation\":null", f);
    else
        put_num(f, "min_separation", w->stats.min_separation);
    fprintf(f, ",\"edge_hits\":%ld,\"shots\":%ld,\"hits\":%ld",
            w->stats.edge_hits, w->stats.shots, w->stats.hits);
    fputs(",\"knockouts\":{", f);
    for (size_t t = 0; t < w->teams.n; t++) {
        if (t)
            fputc(',', f);
        put_str(f, w->teams.p[t].name);
        fprintf(f, ":%d", w->teams.p[t].knockouts);
    }
    fputs("},\"laps\":{", f);
    int first = 1;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (v->kind != VK_CAR)
            continue;
        if (!first)
            fputc(',', f);
        first = 0;
        put_str(f, v->id);
        fprintf(f, ":%d", world_race_state(w, v).laps);
    }
    fputs("},\"best_lap\":{", f);
    first = 1;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (v->kind != VK_CAR)
            continue;
        fprintf(f, "%s", first ? "" : ",");
        first = 0;
        put_str(f, v->id);
        if (world_race_state(w, v).best_lap > 0)    /* a clean lap */
        {
            fputc(':', f);
            put_value(f, "best_lap", world_race_state(w, v).best_lap);
        }
        else
            fputs(":null", f);
    }
    if (w->rounds > 1)
        return put_match(f, w);
    fputs("},\"winner\":", f);
    int winner = -1, left = 0;
    if (tick_teams_started(w) >= 2)
        for (size_t t = 0; t < w->teams.n; t++)
            if (w->teams.p[t].alive > 0) {
                left++;
                winner = (int)t;
            }
    struct score_sum *teams = calloc(w->teams.n + 1, sizeof *teams);
    if (!teams)
        return -1;
    score_teams(w, teams);
    if (left >= 2)
        winner = score_winner(w, teams);
    if (winner >= 0 && left >= 1)
        put_str(f, w->teams.p[winner].name);
    else
        fputs("null", f);
    fprintf(f, ",\"won_by\":%s", left == 1 ? "\"last_standing\"" : left >= 2 ? "\"score\"" : "null");
    put_scores(f, w, teams, NULL);
    free(teams);
    fputs("}\n", f);
    return status(f);
}

int trace_bot_line(FILE *f, const char *type, long tick, const char *id,
                   const char *key, const char *text)
{
    fprintf(f, "{\"type\":");
    put_str(f, type);
    fprintf(f, ",\"tick\":%ld", tick);
    put_key_str(f, "id", id);
    put_key_str(f, key, text);
    fputs("}\n", f);
    return status(f);
}

/* A string of len bytes that may hold NULs (a bot's out.say): put_str's
 * escapes, a NUL as \u0000 (a string may not end at its first one here). */
static void put_strn(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    for (size_t i = 0; i < len;) {
        unsigned char c[5] = { 0 };
        memcpy(c, s + i, len - i < 4 ? len - i : 4);
        int n = c[0] ? utf8_len(c) : 1;
        if (n == 0) {
            fputs("\xef\xbf\xbd", f);
            i++;
        } else if (c[0] == '"' || c[0] == '\\') {
            fprintf(f, "\\%c", c[0]);
            i++;
        } else if (c[0] < 0x20 || c[0] == 0x7f) {
            fprintf(f, "\\u%04x", c[0]);
            i++;
        } else {
            fwrite(c, 1, (size_t)n, f);
            i += (size_t)n;
        }
    }
    fputc('"', f);
}

int trace_say_line(FILE *f, long tick, const char *id,
                   int (*data)(FILE *f, const void *arg), const void *arg)
{
    fprintf(f, "{\"type\":\"say\",\"tick\":%ld", tick);
    put_key_str(f, "id", id);
    fputs(",\"data\":", f);
    int rc = data(f, arg);
    fputs("}\n", f);
    return rc || status(f) ? -1 : 0;
}

void trace_string(FILE *f, const char *s)
{
    put_str(f, s);
}

/* For the other writers of trace lines (trace_put.h). */
void trace_put_str(FILE *f, const char *s) { put_str(f, s); }
void trace_put_num(FILE *f, const char *key, double v) { put_num(f, key, v); }
void trace_put_key_str(FILE *f, const char *key, const char *s) { put_key_str(f, key, s); }
int trace_status(FILE *f) { return status(f); }
void trace_put_strn(FILE *f, const char *s, size_t len) { put_strn(f, s, len); }
void trace_put_value(FILE *f, double v) { put_value(f, "say data", v); }
