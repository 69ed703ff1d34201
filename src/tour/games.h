/* games.h — games between bots on a two-team map, for --ladder and
 * --sprt: in a game each bot drives every vehicle of one team (as a
 * `bot` key on each would), each game a child process, at most `jobs` at
 * a time, their results handed back in the order of the list whatever
 * order they finished in. */
#ifndef BOTFIELD_GAMES_H
#define BOTFIELD_GAMES_H

#include <stdint.h>

#include "io/map.h"

/* The map and the bots: read once by games_setup(). */
struct games_setup {
    const char *map;            /* the map file */
    const char *maps_dir;       /* the bundled bots' folder */
    char *team[2];              /* the map's two teams, in its order */
    char **keys;                /* "tank.a.bot": a vehicle's bot key ... */
    int *key_team;              /* ... and its team (0 or 1) */
    int nkeys;
    char **bots;                /* the bots' names in the games: paths from the map's
                                 * folder, or a bot's file name when it lives elsewhere */
    int nbots;
    char **real;                /* each bot's real path, as the user named it */
    char **texts;               /* each bot's script, read once (the user's own file) */
};

/* One game: its seed; bot[0] drives team[0], bot[1] team[1]. */
struct game { uint64_t seed; int bot[2]; };

/* What a game gave: bot[0]'s half points (2 won, 1 draw, 0 lost), the
 * winning team (NULL: a draw); or half0 -1 and why it failed. */
struct game_result { int half0; const char *winner; char *why; };

/* Reads the map (two teams; its vehicles) and each bot's script (its
 * path as given, from the current folder: anywhere, the user named it;
 * the map's own bot keys stay inside the map's folder), and names each
 * bot for the games: 0, or 2 after saying what is wrong. */
int games_setup(struct games_setup *s, const char *map, const char *maps_dir,
                char *const *bots, int nbots);
void games_setup_free(struct games_setup *s);

/* Called for each game in list order; a non-zero return stops the rest
 * (the children running are killed). */
typedef int (*game_done_fn)(void *ctx, long i, const struct game_result *r);

/* Plays games[0..n): 0, or -1 when a process could not start. */
int games_play(const struct games_setup *s, const struct game *games, long n, long jobs,
               game_done_fn done, void *ctx);

/* The same games' results read from game lines (as --ladder prints them)
 * instead of played: botfield-parallel's jobs played them elsewhere, in
 * the list's order.  A line's seed must be the game's and its bots the
 * game's by file name (a job names them by its own copies' paths; given:
 * the paths the user gave).  Other lines are skipped.  Every game of the
 * list must be there, all checked before the first is handed on.  0, or
 * 2 after saying what is wrong (file:line). */
int games_read(const struct games_setup *s, char *const *given, const struct game *games,
               long n, const char *file, game_done_fn done, void *ctx);

#endif
