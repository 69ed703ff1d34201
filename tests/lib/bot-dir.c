/* bot-dir.c — a folder of bot scripts for the unit tests (bot-dir.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bot-dir.h"
#include "map-fixture.h"
#include "tap.h"
#include "bot/bot_world.h"
#include "core/world.h"

char dir[64];

void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        perror(path);
        exit(99);
    }
}

int load(const char *map, struct world *w, struct bot_world **bw)
{
    *bw = NULL;
    if (fixture_load_text("test.ini", map, w))
        return -1;
    char *err = NULL;
    if (bot_world_attach(w, dir, bw, &err)) {
        tap_note("bots: %s", err ? err : "?");
        free(err);
        world_free(w);
        return -1;
    }
    return 0;
}
