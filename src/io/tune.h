/* tune.h — a live change of one map key (botfield(6), TUNING): the
 * viewer's tuning panel, a recording's `tune` lines and a replay of them
 * all go through tune_apply(), so a tuned value means the same wherever
 * it is applied.
 *
 * What can be tuned: the numbers and methods of a vehicle's section
 * ([tank.ID], [turret.ID], [car.ID]), of a team ([team.NAME], for its
 * tanks that do not set the key themselves) and of [sight].  Keys that
 * would make another world (positions, teams, routes, bots, behaviour,
 * health, the player) are not tunable: edit the map for those.
 *
 * A value is checked by the key table's row exactly as a map line is
 * (values.c), with the same message: "FILE: [SECTION] KEY = VALUE:
 * problem (what is allowed)". */
#ifndef BOTFIELD_TUNE_H
#define BOTFIELD_TUNE_H

#include <stddef.h>

#include "keys.h"

struct world;

/* A tunable key of one section, resolved against a world. */
struct tune_key {
    unsigned kind;              /* SEC_TANK, SEC_TURRET, SEC_CAR, SEC_TEAM,
                                   SEC_SIGHT */
    const struct key_def *row;
    int index;                  /* the vehicle, or the team; -1 ([sight]) */
};

/* 1 when row k may change during a run. */
int tune_tunable(const struct key_def *k);

/* The rows of a kind of section that can be tuned, in the table's order:
 * their count, with up to max of them in rows. */
int tune_rows(unsigned kind, const struct key_def **rows, int max);

/* Section `section` ("tank.red.1", "team.red", "sight") and key `key` of
 * world w: 0 with *t, or -1 with the message in msg (the file named
 * `file`, as a map error names it). */
int tune_resolve(const struct world *w, const char *file, const char *section,
                 const char *key, struct tune_key *t, char *msg, size_t n);

/* The value t has now, as a map file would write it ("45", "classic").
 * A team's is that of its tank `shown` (tune_team_tank; -1: "-", no
 * tank takes it from the team). */
void tune_value_text(const struct world *w, const struct tune_key *t, int shown, char *buf,
                     size_t n);

/* Checks value for t as the loader checks a map line: 0, or -1 with the
 * message in msg. */
int tune_check(const struct world *w, const char *file, const struct tune_key *t,
               const char *value, char *msg, size_t n);

/* Whether an earlier change set `key` in the section `section` (a tank's
 * own): 1 or 0.  The caller knows its changes in order. */
struct tune_earlier {
    int (*set)(const void *ctx, const char *section, const char *key);
    const void *ctx;
};

/* The first tank of team `team` that takes `key` from it: its section in
 * the map (scan of the text w was loaded from; NULL: none known) does not
 * set the key, nor did an earlier change (NULL: none).  -1: none. */
struct scan_result;
int tune_team_tank(const struct world *w, const struct scan_result *scan,
                   const struct tune_earlier *earlier, int team, const char *key);

/* Sets section.key = value in w from its current tick on.  A team's value
 * reaches the tanks that take the key from it: not those whose section
 * in map_text (the text w was loaded from; NULL: none known) sets it, nor
 * those an earlier change set it for (earlier: NULL, none), as a map
 * with every change written in would read.  0, or -1 with the message
 * in msg (nothing changed). */
int tune_apply(struct world *w, const char *map_text, const struct tune_earlier *earlier,
               const char *file, const char *section, const char *key, const char *value,
               char *msg, size_t n);

/* The section name of vehicle i's own section, or of its team
 * ("team.red"), into buf. */
void tune_section_name(const struct world *w, unsigned kind, int index, char *buf, size_t n);

#endif
