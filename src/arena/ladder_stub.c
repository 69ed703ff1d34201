/* ladder_stub.c — placeholder for the ladder engine (ladder_run.c
 * replaces it): a ladder that plays nothing. */
#include "ladder_run.h"

#include <stdlib.h>
#include <string.h>

struct arena_ladder { int unused; };

struct arena_ladder *arena_ladder_open(const struct arena_settings *s,
                                       const char *maps_dir, char **err)
{
    (void)s, (void)maps_dir, (void)err;
    return calloc(1, sizeof(struct arena_ladder));
}

void arena_ladder_close(struct arena_ladder *l) { free(l); }

int arena_ladder_add_bot(struct arena_ladder *l, const char *person, const char *bot)
{
    (void)l, (void)person, (void)bot;
    return 0;
}

int arena_ladder_poll(struct arena_ladder *l) { (void)l; return 1000; }

char *arena_ladder_table(struct arena_ladder *l, int json)
{
    (void)l;
    return strdup(json ? "[]\n" : "no matches yet\n");
}

char *arena_ladder_bots(struct arena_ladder *l, const char *person)
{
    (void)l, (void)person;
    return strdup("");
}

char *arena_ladder_log(struct arena_ladder *l, const char *person, const char *bot)
{
    (void)l, (void)person, (void)bot;
    return strdup("");
}

char *arena_ladder_matches(struct arena_ladder *l, long n)
{
    (void)l, (void)n;
    return strdup("");
}

char *arena_ladder_fetch(struct arena_ladder *l, const char *person, long id, char **err)
{
    (void)l, (void)person, (void)id;
    *err = strdup("no such match\n");
    return NULL;
}
