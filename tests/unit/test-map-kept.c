/* test-map-kept — a map read once and built again (map_keep_text,
 * map_kept_build: libbotfield's resets) gives, seed after seed, the world
 * map_load_text gives from the same text and settings: the same state
 * hash at its start and after 40 ticks, the same round text; and a build
 * that cannot be made says what map_load_text says. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/state_hash.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

static char *slurp(const char *rel, size_t *len)
{
    char path[4096];
    const char *top = getenv("top_srcdir");
    snprintf(path, sizeof path, "%s/%s", top ? top : ".", rel);
    FILE *f = fopen(path, "rb");
    char *t = f ? malloc(1 << 20) : NULL;
    *len = t ? fread(t, 1, (1 << 20) - 1, f) : 0;
    if (t)
        t[*len] = 0;
    if (f)
        fclose(f);
    return t;
}

/* Both ways for seeds 1 to 12: the number of seeds that differ. */
static int compare(const char *name, const char *text, size_t len, const struct map_set *set,
                   int nset)
{
    struct map_options opt = { 0, 0, 0, set, nset };
    struct map_kept *k;
    struct map_error e;
    if (map_keep_text(name, text, len, &opt, &k, &e)) {
        tap_note("%s: %s", name, e.text ? e.text : "?");
        map_error_free(&e);
        return 1;
    }
    int differ = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        struct map_options o = { 1, seed, 0, set, nset };
        struct world a, b;
        struct map_error ea, eb;
        int ra = map_load_text(name, text, len, &o, &a, &ea);
        int rb = map_kept_build(k, &o, &b, &eb);
        int same = ra == rb;
        if (ra || rb) {
            same = same && ea.text && eb.text && !strcmp(ea.text, eb.text);
            if (!same)
                tap_note("%s seed %d: %s / %s", name, (int)seed, ea.text ? ea.text : "ok",
                         eb.text ? eb.text : "ok");
        } else {
            same = state_hash(&a) == state_hash(&b) && a.round_text_len == b.round_text_len
                   && (!a.round_text || !memcmp(a.round_text, b.round_text, a.round_text_len))
                   && a.round_map == b.round_map;
            for (int t = 0; t < 40 && same; t++) {
                tick_step(&a);
                tick_step(&b);
                same = state_hash(&a) == state_hash(&b);
            }
            if (!same)
                tap_note("%s seed %d: the worlds differ", name, (int)seed);
        }
        differ += !same;
        if (!ra)
            world_free(&a);
        if (!rb)
            world_free(&b);
        map_error_free(&ea);
        map_error_free(&eb);
    }
    map_kept_free(k);
    return differ;
}

TEST(kept_builds_as_loaded)
{
    static const char *const maps[] = {
        "maps/learn.ini", "maps/default.ini", "maps/forest.ini", "maps/race.ini",
        "maps/bots-rounds.ini", "maps/crowd.ini", "tests/maps/rounds-trees.ini",
        "tests/maps/bad/no-room.ini",
    };
    static const struct map_set set[] = { { "map.duration", "5" }, { "trees.random", "40" } };
    int differ = 0, read = 0;
    for (size_t m = 0; m < sizeof maps / sizeof *maps; m++) {
        size_t len;
        char *text = slurp(maps[m], &len);
        if (!text) {
            tap_note("%s cannot be read", maps[m]);
            differ++;
            continue;
        }
        read++;
        differ += compare(maps[m], text, len, NULL, 0);
        /* with settings written in (and one map whose random tanks never fit) */
        if (strstr(text, "[trees]"))
            differ += compare(maps[m], text, len, set, 2);
        free(text);
    }
    check_int(read, ==, 8);
    check_int(differ, ==, 0);
}

TEST(bad_text_is_refused_once)
{
    static const char bad[] = "[map]\nwidth = wide\n";
    struct map_options opt = { 0, 0, 0, NULL, 0 };
    struct map_kept *k = (struct map_kept *)&opt;
    struct map_error e, e2;
    struct world w;
    check_int(map_keep_text("bad.ini", bad, sizeof bad - 1, &opt, &k, &e), ==, -1);
    check(k == NULL);
    check_int(map_load_text("bad.ini", bad, sizeof bad - 1, &opt, &w, &e2), ==, -1);
    check_str(e.text ? e.text : "", e2.text ? e2.text : "(none)");
    map_error_free(&e);
    map_error_free(&e2);
}

int main(void)
{
    run(kept_builds_as_loaded,
        "a map kept builds, seed after seed, the world map_load_text does (with --set too)");
    run(bad_text_is_refused_once, "a map that does not read is refused with load's message");
    return tap_done();
}
