/* ladder_run.h — the arena's ladder engine: the bots, the matches played
 * between them (each in a child process, paired sides-swapped on one
 * seed), the results and the ratings (src/tour/ratings.c), and what the
 * arena-shell commands print about them.  The daemon (serve.c) owns one
 * and calls arena_ladder_poll() from its loop. */
#ifndef BOTFIELD_ARENA_LADDER_RUN_H
#define BOTFIELD_ARENA_LADDER_RUN_H

#include "settings.h"

struct arena_ladder;

/* Reads what the folder holds (bots/, the results of finished matches);
 * NULL with *err on failure. */
struct arena_ladder *arena_ladder_open(const struct arena_settings *s,
                                       const char *maps_dir, char **err);
void arena_ladder_close(struct arena_ladder *l);

/* A bot was stored (new, or a new version) at bots/PERSON/BOT.lua: it
 * enters the ladder, and plays soon.  0, or -1 when memory ran out. */
int arena_ladder_add_bot(struct arena_ladder *l, const char *person, const char *bot);
/* The strictest bot_budget and bot_memory (KiB) of the arena's maps'
 * bots: a submitted script is checked with them.  Left as they are when
 * no map says (the callers start from the defaults). */
void arena_ladder_bot_limits(const struct arena_ladder *l, long *budget, long *memory_kib);

/* Reaps finished matches, records them, and starts new ones on free
 * workers; never blocks.  Returns how many ms the daemon may sleep. */
int arena_ladder_poll(struct arena_ladder *l);

/* The matches played live now (at their map's tick_rate, recorded line
 * by line into path): how many there are; the first max of them in out.
 * bots: "person/bot" on team 0 and team 1. */
struct arena_live { long id; char path[4096]; char bots[2][80]; };
int arena_ladder_live(struct arena_ladder *l, struct arena_live *out, int max);

/* What the commands print, malloc'd text (NULL: memory ran out). */
char *arena_ladder_table(struct arena_ladder *l, int json);
char *arena_ladder_bots(struct arena_ladder *l, const char *person);
char *arena_ladder_log(struct arena_ladder *l, const char *person, const char *bot);
char *arena_ladder_matches(struct arena_ladder *l, long n);
/* The watch screen's ladder line (ladder_text.c): the first
 * ARENA_WATCH_LADDER_ROWS bots and PERSON's own, newline-ended. */
#define ARENA_WATCH_LADDER_ROWS 100
char *arena_ladder_watch_line(struct arena_ladder *l, const char *person);

/* A finished match's recording as PERSON may see it: NULL with *err
 * (no such match). */
char *arena_ladder_fetch(struct arena_ladder *l, const char *person, long id, char **err);

#endif
