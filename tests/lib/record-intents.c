/* record-intents — the test driver of recordings with intents (an
 * arena's matches: botfield-arena(7), fetch).
 *
 *   record-intents record MAP TICKS RECORDING TRACE
 *       runs MAP headless for TICKS ticks, recorded with intents on (the
 *       recorder's flag, rec.intents, which no option of botfield sets),
 *       writing the trace as `botfield --headless --trace` would.
 *   record-intents filter PERSON IN OUT
 *       writes the lines of IN that arena_private_keep() keeps for PERSON.
 *   record-intents       (as `make check` runs it)
 *       a TAP test of arena_private_keep(). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/private.h"
#include "bot/bot_world.h"
#include "core/world.h"
#include "io/map.h"
#include "run/headless.h"
#include "run/recording.h"
#include "tap.h"

static int record(const char *map, long ticks, const char *file, const char *trace)
{
    struct map_options mo = { 0, 0, 0, NULL, 0 };
    struct map_error err = { NULL, 0 };
    struct world w;
    char *text = NULL;
    if (map_load_kept(map, &mo, &w, &err, &text)) {
        fputs(err.text ? err.text : "cannot load the map\n", stderr);
        return 2;
    }
    struct bot_world *bots = NULL;
    char *berr = NULL;
    if (bot_world_attach(&w, ".", &bots, &berr)) {
        fprintf(stderr, "%s\n", berr ? berr : "cannot load the bots");
        return 2;
    }
    struct recording rec;
    if (recording_open(&rec, file, &w, bots, map, text, NULL, 0))
        return 1;
    free(text);
    rec.intents = 1;
    struct headless_options ho = { ticks, trace, 1, 0, bots, 0, 1, 0 };
    int rc = recording_headless(&rec, &w, bots, &ho);
    bot_world_free(&w, bots);
    world_free(&w);
    return rc;
}

static int filter(const char *person, const char *in, const char *out)
{
    FILE *f = fopen(in, "r"), *g = fopen(out, "w");
    if (!f || !g) {
        perror("record-intents filter");
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0)
        if (arena_private_keep(line, (size_t)n, person))
            fwrite(line, 1, (size_t)n, g);
    free(line);
    fclose(f);
    return fclose(g) ? 1 : 0;
}

#define KEEP(s) arena_private_keep(s, strlen(s), "alice")

static void test_private(void)
{
    check(KEEP("{\"type\":\"bot_source\",\"path\":\"bots/alice/x.lua\","
                   "\"sha256\":\"0\",\"text\":\"t\"}\n") == 1);
    check(KEEP("{\"type\":\"bot_source\",\"path\":\"bots/bob/x.lua\","
                   "\"sha256\":\"0\",\"text\":\"t\"}\n") == 0);
    /* a name that begins like alice's is another person's */
    check(KEEP("{\"type\":\"bot_source\",\"path\":\"bots/alicex/x.lua\"}") == 0);
    check(KEEP("{\"type\":\"bot_source\",\"path\":\"bots/alice/../bob/x.lua\"}") == 0);
    check(KEEP("{\"type\":\"bot_source\",\"path\":\"x.lua\"}") == 0);
    check(KEEP("{\"type\":\"bot_source\",\"text\":\"no path\"}") == 0);
    /* an escaped type is still the type */
    check(KEEP("{\"type\":\"bot_sourc\\u0065\",\"path\":\"bots/bob/x.lua\"}") == 0);
    check(KEEP("{\"type\":\"bot_reload\",\"tick\":5,\"id\":\"tank.a\","
                   "\"bot_sha256\":\"00\"}") == 0);
    check(KEEP("{\"type\":\"intent\",\"tick\":5,\"id\":\"tank.b\"}") == 1);
    check(KEEP("{\"type\":\"checkpoint\",\"tick\":600,\"hash\":\"0\"}\n") == 1);
    check(KEEP("not json") == 0);
    check(KEEP("[1,2]") == 0);
    /* a duplicate key could hide a path from one reader and not another */
    check(KEEP("{\"type\":\"bot_source\",\"path\":\"bots/alice/x.lua\","
                   "\"path\":\"bots/bob/x.lua\"}") == 0);
    check(arena_private_keep("{\"type\":\"bot_source\",\"path\":\"bots/alice/x.lua\"}",
                                 10, "alice") == 0);
}

int main(int argc, char **argv)
{
    if (argc == 6 && !strcmp(argv[1], "record"))
        return record(argv[2], atol(argv[3]), argv[4], argv[5]);
    if (argc == 5 && !strcmp(argv[1], "filter"))
        return filter(argv[2], argv[3], argv[4]);
    tap_run(test_private, "arena_private_keep: others' scripts and every bot_reload "
            "dropped, the rest kept, what is not a JSON object dropped");
    return tap_done();
}
