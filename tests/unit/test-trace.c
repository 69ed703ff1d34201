/* The trace writer (src/io/trace.c): numbers read back exactly, events and
 * the summary are well formed. */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/rng.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/trace.h"

TEST(numbers_round_trip)
{
    struct rng r;
    rng_seed(&r, 11, 1);
    int bad = 0, long_ = 0;
    for (int i = 0; i < 100000; i++) {
        double v = (rng_unit(&r) - 0.5) * pow(10, rng_range(&r, -8, 8));
        char b[40];
        trace_number(b, v);
        if (strtod(b, NULL) != v)
            bad++;
        if (strlen(b) > 24)
            long_++;
    }
    check_int(bad, ==, 0);
    check_int(long_, ==, 0);
    char b[40];
    trace_number(b, 0.1);
    check_str(b, "0.1");
    trace_number(b, 90);
    check_str(b, "90");
    trace_number(b, -0.0);
    check_str(b, "0");
    check_int(trace_number(b, 1.5), ==, 0);
    check_int(trace_number(b, NAN), ==, -1);
    check_str(b, "null");
    check_int(trace_number(b, -INFINITY), ==, -1);
    check_str(b, "null");
}

static char *capture(void (*fn)(FILE *, struct world *), struct world *w)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, w);
    fclose(f);
    return buf;
}

static void write_events(FILE *f, struct world *w) { trace_events(f, w); }
static void write_summary(FILE *f, struct world *w) { trace_summary(f, w); }

TEST(event_lines)
{
    struct world w;
    world_init(&w, 100, 100);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    int red = world_add_team(&w, "red", 0);
    world_add_team(&w, "blue", 1);
    world_add_vehicle(&w, "tank.1", VK_TANK, red, &p, v2(10, 10), 0);
    world_add_vehicle(&w, "tank.2", VK_TANK, 1, &p, v2(90, 90), 0);
    world_finish(&w);
    w.tick = 12;
    struct event *e = world_event(&w, EV_COLLISION, 0, 1);
    e->u.collision.distance = 31.2;
    e = world_event(&w, EV_SIGHT, 0, 1);
    e->u.sight.visible = 0.4375;
    e->u.sight.seen = 1;
    e->u.sight.method = SIGHT_EXACT;
    e = world_event(&w, EV_SHOT, 0, 1);
    e->u.shot.x = 10;
    e->u.shot.y = 10;
    e->u.shot.heading = M_PI;
    e->u.shot.shell = 3;
    e = world_event(&w, EV_HIT, 0, 1);
    e->u.hit.shell = 3;
    e->u.hit.x = 80.5;
    e->u.hit.y = 82;
    e = world_event(&w, EV_MISS, 1, -1);
    e->u.miss.reason = MISS_TREE;
    e->u.miss.shell = 4;
    e->u.miss.x = 40;
    e->u.miss.y = 41.25;
    e = world_event(&w, EV_LAP, 0, -1);
    e->u.lap.lap = 1;
    e->u.lap.time = 14.98;
    e->u.lap.clean = 1;
    char *out = capture(write_events, &w);
    check_str(out,
        "{\"type\":\"collision\",\"tick\":12,\"a\":\"tank.1\",\"b\":\"tank.2\",\"distance\":31.2}\n"
        "{\"type\":\"sight\",\"tick\":12,\"from\":\"tank.1\",\"to\":\"tank.2\",\"visible\":0.4375,\"seen\":true,\"method\":\"exact\"}\n"
        "{\"type\":\"shot\",\"tick\":12,\"shooter\":\"tank.1\",\"target\":\"tank.2\",\"x\":10,\"y\":10,\"heading\":180,\"shell\":3}\n"
        "{\"type\":\"hit\",\"tick\":12,\"shooter\":\"tank.1\",\"target\":\"tank.2\",\"shell\":3,\"x\":80.5,\"y\":82}\n"
        "{\"type\":\"miss\",\"tick\":12,\"shooter\":\"tank.2\",\"reason\":\"tree\",\"shell\":4,\"x\":40,\"y\":41.25}\n"
        "{\"type\":\"lap\",\"tick\":12,\"id\":\"tank.1\",\"lap\":1,\"time\":14.98,\"clean\":true}\n");
    free(out);
    w.teams.p[1].alive = 0;
    w.teams.p[1].knockouts = 1;
    w.stats.collisions = 1;
    w.stats.min_separation = -8.8;
    out = capture(write_summary, &w);
    check_str(out,
        "{\"type\":\"summary\",\"ticks\":12,\"seconds\":0.2,\"collisions\":1,\"min_separation\":-8.8,"
        "\"edge_hits\":0,\"shots\":0,\"hits\":0,\"knockouts\":{\"red\":0,\"blue\":1},\"laps\":{},"
        "\"best_lap\":{},\"winner\":\"red\",\"won_by\":\"last_standing\","
        /* blue's knockout, while tank.1 was alive: a survival point */
        "\"damage\":{\"red\":0,\"blue\":0},\"kills\":{\"red\":0,\"blue\":0},"
        "\"survival\":{\"red\":1,\"blue\":0},\"last\":{\"red\":0,\"blue\":0},"
        "\"scores\":{\"red\":5,\"blue\":0},"
        "\"vehicle_damage\":{\"tank.1\":0,\"tank.2\":0},\"vehicle_kills\":{\"tank.1\":0,\"tank.2\":0},"
        "\"vehicle_survival\":{\"tank.1\":1,\"tank.2\":0},\"vehicle_last\":{\"tank.1\":0,\"tank.2\":0},"
        "\"vehicle_scores\":{\"tank.1\":5,\"tank.2\":0}}\n");
    free(out);
    world_free(&w);
}

static void write_begin(FILE *f, struct world *w) { trace_begin(f, w, "v\"1"); }

/* Strings are escaped as JSON requires; bytes that are not UTF-8 (a lone
 * continuation, an overlong form, a surrogate, a cut sequence, 0xff)
 * become U+FFFD; valid UTF-8 of 2, 3 and 4 bytes is kept. */
TEST(strings_escaped)
{
    struct world w;
    world_init(&w, 100, 100);
    world_finish(&w);
    w.name = strdup("a\"b\\c\x01\x1f\x7f|\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|"
                    "\x80|\xc0\xaf|\xed\xa0\x80|\xe2\x82|\xff|\xf4\x90\x80\x80");
    char *out = capture(write_begin, &w);
    check_str(out,
        "{\"type\":\"header\",\"format\":1,\"version\":\"v\\\"1\",\"map\":"
        "\"a\\\"b\\\\c\\u0001\\u001f\\u007f|\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|"
        "\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
        "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd|"
        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\","
        "\"seed\":1,\"tick_rate\":60,\"width\":100,\"height\":100,\"lua\":\"\"}\n");
    free(out);
    world_free(&w);
}

static int events_rc;
static void write_events_rc(FILE *f, struct world *w) { events_rc = trace_events(f, w); }
static int summary_rc;
static void write_summary_rc(FILE *f, struct world *w) { summary_rc = trace_summary(f, w); }

/* A non-finite number never reaches the trace as a number: the writer
 * refuses it (null in a line that stays JSON, -1, trace_error() says
 * which); the summary's min_separation with no pair is a documented null,
 * not a refusal. */
TEST(non_finite_refused)
{
    struct world w;
    world_init(&w, 100, 100);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    int red = world_add_team(&w, "red", 0);
    world_add_vehicle(&w, "tank.1", VK_TANK, red, &p, v2(10, 10), 0);
    world_finish(&w);
    trace_error_clear();
    char *out = capture(write_summary_rc, &w);
    check_int(summary_rc, ==, 0);
    check(out && strstr(out, "\"min_separation\":null,"));
    check(trace_error() == NULL);
    free(out);

    w.tick = 30;
    struct event *e = world_event(&w, EV_AIM, 0, 0);
    e->u.aim.ok = 1;
    e->u.aim.x = NAN;
    e->u.aim.y = 5;
    e->u.aim.t_impact = INFINITY;
    out = capture(write_events_rc, &w);
    check_int(events_rc, ==, -1);
    check(out && strstr(out, "\"aim_x\":null,\"aim_y\":5,\"t_impact\":null,"));
    check(trace_error() && strstr(trace_error(), "aim_x = nan is not a finite number"));
    free(out);
    trace_error_clear();
    check(trace_error() == NULL);
    world_free(&w);
}

int main(void)
{
    run(numbers_round_trip, "numbers are the shortest text that reads back exactly");
    run(event_lines, "event and summary lines in the documented form");
    run(strings_escaped, "strings are JSON: escapes, and U+FFFD for bytes that are not UTF-8");
    run(non_finite_refused, "a non-finite number is refused loudly, never written as a number");
    return tap_done();
}
