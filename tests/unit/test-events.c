/* test-events — the two readers of an event agree: the trace's line
 * (src/io/trace.c) and the Lua bot's world.events table (src/bot/), both
 * made from the one list of fields, src/core/events.def.
 *
 * Two bot tanks; one event of each kind (and each variant: an aim with
 * and without a solution, a shot with and without a target) is put in
 * the world, written as a trace line and handed to the bots as the
 * brain's `after` hook does; on the next tick each bot the event is about
 * logs its world.events entry, every key sorted.  That entry must carry
 * exactly the trace line's keys, values and kinds of value, but for the
 * two rules botfield-bots(7) states: a null (a shot's absent target) is
 * no key in Lua, and a waypoint's index counts from 1 in Lua where the
 * trace counts from 0. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "bot/bot_world.h"
#include "core/events.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "io/trace.h"

static char dir[96];

static const char *const MAP =
    "[map]\nwidth = 2000\nheight = 2000\nseed = 3\n"
    "[team.red]\n[team.blue]\n"
    "[tank.a]\nteam = red\nx = 100\ny = 100\nbot = ev.lua\n"
    "[tank.b]\nteam = blue\nx = 1900\ny = 1900\nbot = ev.lua\n";

/* Each event of world.events as one line: key=kind:value, keys sorted. */
static const char *const BOT =
    "function tick(me, world, mem, out)\n"
    "  for _, e in ipairs(world.events) do\n"
    "    local keys, t = {}, {}\n"
    "    for k in pairs(e) do keys[#keys + 1] = k end\n"
    "    table.sort(keys)\n"
    "    for _, k in ipairs(keys) do\n"
    "      local v = e[k]\n"
    "      if type(v) == 'number' then v = 'n:' .. string.format('%.17g', v)\n"
    "      elseif type(v) == 'boolean' then v = 'b:' .. tostring(v)\n"
    "      else v = 's:' .. tostring(v) end\n"
    "      t[#t + 1] = k .. '=' .. v\n"
    "    end\n"
    "    log(table.concat(t, ' '))\n"
    "  end\n"
    "end\n";

/* ---- a trace line as the bot should see it ------------------------------ */

struct kv { char key[32]; char val[96]; };

static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* A JSON string at *p (no escapes in this test's ids); -1 when not one. */
static int json_str(const char **p, char *out, size_t n)
{
    if (**p != '"')
        return -1;
    const char *e = strchr(*p + 1, '"');
    if (!e || (size_t)(e - *p) > n)
        return -1;
    memcpy(out, *p + 1, (size_t)(e - *p - 1));
    out[e - *p - 1] = 0;
    *p = e + 1;
    return 0;
}

/* One value after "key": into kv->val as the bot's line writes it; 1 for
 * null (no key in Lua), 0, or -1 when the line is not the flat JSON the
 * trace writes. */
static int json_value(const char **p, struct kv *kv)
{
    char s[80];
    if (**p == '"') {
        if (json_str(p, s, sizeof s))
            return -1;
        snprintf(kv->val, sizeof kv->val, "s:%s", s);
        return 0;
    }
    static const char *const words[] = { "true", "false", "null" };
    for (int k = 0; k < 3; k++)
        if (!strncmp(*p, words[k], strlen(words[k]))) {
            *p += strlen(words[k]);
            snprintf(kv->val, sizeof kv->val, "b:%s", words[k]);
            return k == 2;
        }
    char *end;
    double v = strtod(*p, &end);
    if (end == *p)
        return -1;
    *p = end;
    /* botfield-bots(7): a waypoint's index counts from 1, as
     * world.waypoints does; the trace's from 0, as its waypoint lines */
    if (!strcmp(kv->key, "index"))
        v += 1;
    snprintf(kv->val, sizeof kv->val, "n:%.17g", v);
    return 0;
}

/* The trace line {"k":v,...} as the bot's line: "k=kind:v ..." sorted. */
static int expected_of(const char *line, char *out, size_t n)
{
    struct kv kv[16];
    int nk = 0;
    const char *p = line;
    if (*p++ != '{')
        return -1;
    while (*p != '}') {
        if (nk == 16 || json_str(&p, kv[nk].key, sizeof kv[nk].key) || *p++ != ':')
            return -1;
        int rc = json_value(&p, &kv[nk]);
        if (rc < 0)
            return -1;
        nk += rc == 0;
        if (*p == ',')
            p++;
    }
    qsort(kv, (size_t)nk, sizeof *kv, by_key);
    size_t len = 0;
    out[0] = 0;
    for (int k = 0; k < nk; k++)
        len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s=%s",
                                k ? " " : "", kv[k].key, kv[k].val);
    return len < n ? 0 : -1;
}

/* ---- the events ---------------------------------------------------------- */

static struct event one(enum event_kind kind, int a, int b)
{
    struct event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.a = a;
    e.b = b;
    return e;
}

/* One of every kind and variant, every field a value of its own. */
static size_t all_events(struct event *ev)
{
    size_t n = 0;
    ev[n] = one(EV_COLLISION, 0, 1);
    ev[n++].u.collision.distance = 31.5;
    ev[n] = one(EV_SIGHT, 0, 1);
    ev[n].u.sight.visible = 0.4375;
    ev[n].u.sight.seen = 1;
    ev[n++].u.sight.method = SIGHT_EXACT;
    ev[n] = one(EV_SIGHT, 1, 0);
    ev[n].u.sight.visible = 0.125;
    ev[n++].u.sight.method = SIGHT_CLASSIC;
    ev[n] = one(EV_AIM, 0, 1);
    ev[n].u.aim.ok = 1;
    ev[n].u.aim.x = 12.5;
    ev[n].u.aim.y = -3.25;
    ev[n].u.aim.t_impact = 0.75;
    ev[n].u.aim.iterations = 7;
    ev[n++].u.aim.method = AIM_EXACT;
    ev[n] = one(EV_AIM, 1, 0);
    ev[n].u.aim.reason = AIM_REASON_OUT_OF_RANGE;
    ev[n].u.aim.iterations = 3;
    ev[n++].u.aim.method = AIM_CLASSIC;
    ev[n] = one(EV_SHOT, 0, 1);
    ev[n].u.shot.x = 10.5;
    ev[n].u.shot.y = 20.25;
    ev[n].u.shot.heading = -2.5;
    ev[n++].u.shot.shell = 3;
    ev[n] = one(EV_SHOT, 1, -1);          /* a bot's shot: no target */
    ev[n].u.shot.x = 11;
    ev[n].u.shot.heading = 4;
    ev[n++].u.shot.shell = 5;
    ev[n] = one(EV_HIT, 0, 1);
    ev[n].u.hit.shell = 3;
    ev[n].u.hit.x = 80.5;
    ev[n++].u.hit.y = 82;
    ev[n] = one(EV_MISS, 1, -1);
    ev[n].u.miss.reason = MISS_EDGE;
    ev[n].u.miss.shell = 4;
    ev[n].u.miss.x = 40;
    ev[n++].u.miss.y = 41.25;
    ev[n++] = one(EV_KNOCKOUT, 1, 0);
    ev[n] = one(EV_WAYPOINT_REACHED, 0, -1);
    ev[n++].u.waypoint.index = 2;
    ev[n] = one(EV_WAYPOINT_SKIPPED, 0, -1);
    ev[n++].u.waypoint.index = 0;
    ev[n] = one(EV_LAP, 0, -1);
    ev[n].u.lap.lap = 2;
    ev[n++].u.lap.time = 14.98;
    ev[n] = one(EV_FINISH, 0, -1);
    ev[n++].u.finish.time = 44.5;
    return n;
}

/* The trace's line of w's only event, without its newline. */
static char *trace_line(struct world *w)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        exit(99);
    int rc = trace_events(f, w);
    fclose(f);
    if (rc || !len || buf[len - 1] != '\n')
        return buf;
    buf[len - 1] = 0;
    return buf;
}

/* The one line vehicle i's bot logged on the last tick, "" for none. */
static const char *logged(const struct bot_world *bw, int i, int *n)
{
    const struct bot_report *r = bot_world_report(bw, i);
    *n = r ? r->n_log : -1;
    return r && r->n_log > 0 ? r->log[0] : "";
}

/* Puts e in the world, then checks what each bot it is about saw. */
static void check_event(struct world *w, struct bot_world *bw, const struct event *e)
{
    w->now.events.n = 0;
    struct event *we = world_event(w, e->kind, e->a, e->b);
    if (!we)
        exit(99);
    *we = *e;
    char *line = trace_line(w);
    char want[512];
    if (!check(expected_of(line, want, sizeof want) == 0))
        tap_note("not a flat JSON line: %s", line);
    w->brain->after(w->brain->user, w);         /* next tick's world.events */
    check_int(tick_step(w), ==, 0);
    for (int i = 0; i < 2; i++) {
        /* a shot reaches its shooter only; every other kind here, the
         * vehicles it names (a knockout reaches every one alive, and both
         * are alive in this test) */
        int about = e->a == i || (e->b == i && e->kind != EV_SHOT)
                    || e->kind == EV_KNOCKOUT, n;
        const char *got = logged(bw, i, &n);
        check_int(n, ==, about);
        if (about && !check_str(got, want))
            tap_note("trace line: %s", line);
    }
    free(line);
}

TEST(every_event_the_same_in_trace_and_lua)
{
    char path[160];
    snprintf(path, sizeof path, "%s/ev.lua", dir);
    FILE *f = fopen(path, "w");
    if (!f || fputs(BOT, f) < 0 || fclose(f))
        exit(99);
    struct world w;
    struct map_error me = { 0 };
    snprintf(path, sizeof path, "%s/ev.ini", dir);
    if (map_load_text(path, MAP, strlen(MAP), NULL, &w, &me)) {
        tap_note("map: %s", me.text ? me.text : "?");
        map_error_free(&me);
        check(0);
        return;
    }
    struct bot_world *bw = NULL;
    char *err = NULL;
    if (!check(bot_world_attach(&w, dir, &bw, &err) == 0)) {
        tap_note("bots: %s", err ? err : "?");
        free(err);
        world_free(&w);
        return;
    }
    check_int(tick_step(&w), ==, 0);            /* init, nothing seen */
    struct event ev[32];
    size_t n = all_events(ev);
    int kinds[EVENT_KIND_COUNT] = { 0 };
    for (size_t k = 0; k < n; k++) {
        /* no reader drops a field beyond the room both keep */
        struct event_field x[EVENT_FIELDS_MAX];
        if (!check(event_fields(&ev[k], x) <= EVENT_FIELDS_MAX))
            tap_note("%s: more fields than EVENT_FIELDS_MAX", event_kind_names[ev[k].kind]);
        check_event(&w, bw, &ev[k]);
        kinds[ev[k].kind] = 1;
    }
    /* a kind added to the core is added here too */
    for (int k = 0; k < EVENT_KIND_COUNT; k++)
        if (!check(kinds[k]))
            tap_note("no %s event in this test", event_kind_names[k]);
    bot_world_free(&w, bw);
    world_free(&w);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/botfield-ev-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    run(every_event_the_same_in_trace_and_lua,
        "every event kind: world.events = the trace line (null absent, index + 1)");
    char path[160];
    snprintf(path, sizeof path, "%s/ev.lua", dir);
    remove(path);
    if (rmdir(dir))
        tap_note("could not remove %s", dir);
    return tap_done();
}
