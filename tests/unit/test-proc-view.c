/* test-proc-view.c — a process bot's lines (src/bot/proc_view.c): the
 * tick line is JSON with a Lua bot's names and values (checked against
 * the fixture's view, read back with jansson); an answer's out.say has
 * the very bytes a Lua bot's out.say of the same value has (the oracle:
 * a Lua bot in the sandbox); and every bad answer the protocol names is
 * that tick's error with the defaults kept. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/bot-fixture.h"
#include "bot/proc_view.h"

static struct fixture fx;
static struct proc_reply reply;

static json_t *tick_json(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = proc_tick_line(f, &fx.view);
    fclose(f);
    json_error_t je;
    json_t *o = rc ? NULL : json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!o)
        tap_note("not JSON: %s (%s)", buf, je.text);
    free(buf);
    return o;
}

TEST(the_tick_line_has_the_lua_names_and_values)
{
    fixture_init(&fx, 1);
    json_t *o = tick_json();
    check(o != NULL);
    json_t *me = json_object_get(o, "me"), *w = json_object_get(o, "world");
    check_str(json_string_value(json_object_get(o, "type")), "tick");
    check_str(json_string_value(json_object_get(me, "id")), fx.view.id);
    check_num(json_number_value(json_object_get(me, "x")), ==, fx.view.x);
    check_num(json_number_value(json_object_get(me, "heading")), ==, fx.view.heading);
    check(json_is_boolean(json_object_get(me, "gun_ready")));
    check_int(json_integer_value(json_object_get(w, "tick")), ==, fx.view.tick);
    json_t *en = json_object_get(w, "enemies");
    check_int(json_array_size(en), ==, fx.view.n_enemies);
    check_str(json_string_value(json_object_get(json_array_get(en, 0), "id")),
              fx.view.enemies[0].id);
    check_num(json_number_value(json_object_get(json_array_get(en, 2), "bearing")), ==,
              fx.view.enemies[2].bearing);
    check_int(json_array_size(json_object_get(w, "allies")), ==, fx.view.n_allies);
    check_int(json_array_size(json_object_get(w, "waypoints")), ==, fx.view.n_waypoints);
    check_int(json_array_size(json_object_get(w, "events")), ==, fx.view.n_events);
    check(json_is_array(json_object_get(w, "shells")));
    check(json_is_array(json_object_get(w, "messages")));
    json_decref(o);
}

/* Lua's bytes for out.say = LUA, and ours for {"say":JSON}: the same. */
static int same_say(const char *lua, const char *json)
{
    char err[512], script[512];
    snprintf(script, sizeof script, "function tick(me, world, mem, out) out.say = %s end", lua);
    struct bot *b = fixture_bot(script, 0, 0, err, sizeof err);
    if (!b) {
        tap_note("%s", err);
        return 0;
    }
    struct bot_out out;
    static struct bot_report rep;
    fixture_init(&fx, 1);
    bot_tick(b, &fx.view, &out, &rep);
    size_t ln;
    const unsigned char *lb = bot_said(b, &ln);
    char line[512];
    snprintf(line, sizeof line, "{\"say\":%s}", json);
    int ok = lb && proc_read_reply(line, strlen(line), &fx.view, &reply, err, sizeof err) == 0
             && reply.say_len == ln && !memcmp(reply.say, lb, ln);
    if (!ok)
        tap_note("say %s: lua %zu bytes, ours %zu (%s)", json, lb ? ln : 0, reply.say_len,
                 rep.error[0] ? rep.error : err);
    bot_free(b);
    return ok;
}

TEST(say_is_encoded_as_lua_encodes_it)
{
    check(same_say("42", "42"));
    check(same_say("1.5", "1.5"));
    check(same_say("'hi'", "\"hi\""));
    check(same_say("true", "true"));
    check(same_say("{3, 2, 1}", "[3,2,1]"));
    check(same_say("{b = 2, a = {1, 'x'}, ab = false, B = 0.25}",
                   "{\"b\":2,\"a\":[1,\"x\"],\"ab\":false,\"B\":0.25}"));
}

TEST(an_answer_read_as_out)
{
    fixture_init(&fx, 1);
    char err[512];
    const char *a = "{\"turn\":-30,\"speed\":60,\"turret\":45,\"fire\":true,\"radar\":10,"
                    "\"draw\":[[\"line\",0,0,10,10,\"red\"],[\"circle\",5,5,3],[\"text\",1,2,\"hi\"],"
                    "[\"mark\",3,4]],\"log\":[\"one\",\"two\"]}";
    check_int(proc_read_reply(a, strlen(a), &fx.view, &reply, err, sizeof err), ==, 0);
    check_num(reply.out.turn, ==, -30);
    check_num(reply.out.speed, ==, 60);
    check_num(reply.out.turret, ==, 45);
    check_int(reply.out.fire, ==, 1);
    check_num(reply.out.radar, ==, 10);
    check_int(reply.n_shapes, ==, 4);
    check_str(reply.shapes[0].color, "red");
    check_str(reply.shapes[2].text, "hi");
    check_int(reply.n_log, ==, 2);
    check_str(reply.log[1], "two");
    /* left out: the defaults (speed, turret and radar as they are) */
    check_int(proc_read_reply("{}", 2, &fx.view, &reply, err, sizeof err), ==, 0);
    check_num(reply.out.speed, ==, fx.view.speed);
    check_num(reply.out.turret, ==, fx.view.turret);
    check_num(reply.out.turn, ==, 0);
}

static int bad(const char *answer, const char *says)
{
    char err[512] = "";
    int rc = proc_read_reply(answer, strlen(answer), &fx.view, &reply, err, sizeof err);
    int ok = rc == -1 && strstr(err, says) && reply.out.turn == 0 && !reply.out.fire
             && reply.out.speed == fx.view.speed && reply.n_log == 0 && reply.say_len == 0;
    if (!ok)
        tap_note("%s: rc %d, '%s'", answer, rc, err);
    return ok;
}

TEST(bad_answers_are_that_ticks_error)
{
    fixture_init(&fx, 1);
    check(bad("garbage", "not JSON"));
    check(bad("{\"turn\":NaN}", "not JSON"));
    check(bad("{\"turn\":1e999}", "not JSON"));
    check(bad("[1,2]", "not a JSON object"));
    check(bad("{\"fire\":1,\"turn\":5}", "out.fire is not a boolean (a number)"));
    check(bad("{\"turn\":\"5\",\"log\":[\"x\"]}", "out.turn is not a finite number (a string)"));
    check(bad("{\"turn\":5,\"shoot\":true}", "a field 'shoot'"));
    check(bad("{\"turn\":5,\"turn\":6}", "not JSON"));
    check(bad("{\"say\":null}", "out.say holds a null"));
    check(bad("{\"log\":[1]}", "log[1] is not a string"));
    check(bad("{\"draw\":[[\"square\",1,2]]}", "draw[1] is not"));
    check(bad("{\"draw\":[[\"line\",1,2]]}", "line takes 4 numbers"));
    char big[2000];
    int k = snprintf(big, sizeof big, "{\"say\":\"");
    memset(big + k, 'a', 400);
    snprintf(big + k + 400, sizeof big - (size_t)k - 400, "\"}");
    check(bad(big, "more than 256 bytes"));
    /* past the most, shapes and lines are dropped, not an error */
    char many[20000];
    k = snprintf(many, sizeof many, "{\"log\":[");
    for (int i = 0; i < 20; i++)
        k += snprintf(many + k, sizeof many - (size_t)k, "%s\"%0250d\"", i ? "," : "", i);
    snprintf(many + k, sizeof many - (size_t)k, "]}");
    char err[256];
    check_int(proc_read_reply(many, strlen(many), &fx.view, &reply, err, sizeof err), ==, 0);
    check_int(reply.n_log, ==, BOT_LOG_LINES);
    check_int(strlen(reply.log[0]), ==, BOT_LOG_BYTES);
}

int main(void)
{
    run(the_tick_line_has_the_lua_names_and_values,
        "the tick line is JSON with me and world as a Lua bot has them");
    run(say_is_encoded_as_lua_encodes_it,
        "out.say from JSON has the bytes a Lua bot's out.say of the same value has");
    run(an_answer_read_as_out, "an answer's fields read as out.*, draw.* and log; "
        "fields left out keep their defaults");
    run(bad_answers_are_that_ticks_error,
        "garbage, NaN, a number for fire, an unknown field, a null say, a say too big, "
        "bad shapes: the tick's error, defaults kept; too many lines dropped");
    return tap_done();
}
