/* tune_panel.h — the viewer's tuning panel (T): the keys of the selected
 * vehicle's section, its team's or [sight], with their values, ranges and
 * help from the key table, changed while the run goes on.
 *
 * A change applies from the tick shown on (tune_apply(), src/io/tune.h):
 * the world continues from its state with the new setting.  The changes
 * are a log of (tick, section, key, value), replayed on their ticks when
 * stepping or seeking, as the player's inputs are (drive.h): stepping back
 * before a change shows the old value, forward again applies it.  A
 * change made in the past forgets the ticks computed after it.  W saves
 * the values in effect into the map file (map_write.h), asking first when
 * the file changed on disk since it was loaded. */
#ifndef BOTFIELD_VIEW_TUNE_PANEL_H
#define BOTFIELD_VIEW_TUNE_PANEL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/world.h"
#include "../io/scan.h"

struct app;

enum tune_scope { TUNE_VEHICLE, TUNE_TEAM, TUNE_SIGHT, TUNE_SCOPES };

#define TUNE_TYPED_MAX 63

struct tune_state {
    int open;
    enum tune_scope scope;
    int row;                        /* the cursor, in the scope's rows */
    int typing;                     /* Enter: a value being typed */
    int fresh;                      /* typed holds the shown value, untouched:
                                       a character typed replaces it */
    char typed[TUNE_TYPED_MAX + 1];
    int asking;                     /* W on a file changed on disk: y/n */
    /* (the changes: the session's timeline, a->run.inputs) */
    char *text;                     /* the map file as loaded (NULL: the
                                       built-in map, or a replay's) */
    uint64_t hash;                  /* of its bytes */
    struct scan_result scan;        /* its sections and keys (which tanks
                                       set a key themselves) */
    int scanned;
    struct sight_config sight0;     /* [sight] as loaded */
};

/* tune_apply.c */
/* A new world (loaded, reloaded, swapped): the file read again. */
void tune_reset(struct app *a);
void tune_free(struct app *a);
/* loop.c, after every step (forward or replayed): the changes logged on
 * the world's tick. */
void tune_apply_log(struct app *a);
/* loop.c, after a snapshot is restored: [sight] as it was on that tick
 * (the vehicles' settings are in the snapshot), then its tick's changes. */
void tune_restored(struct app *a);
/* A change by the user at the tick shown: applied, logged, recorded.
 * 0, or -1 with the message shown. */
int tune_set(struct app *a, const char *section, const char *key, const char *value);
/* A replay's tune line, applied by the replay on its tick: logged only. */
void tune_note(struct app *a, const char *section, const char *key, const char *value);
/* The vehicle whose value of k the panel shows: k's own, or for a team
 * its first tank that takes the key from it (-1: none). */
struct tune_key;
int tune_shown(const struct app *a, const struct tune_key *k);
/* W: the values in effect saved into the map file (force: even when it
 * changed on disk). */
void tune_save(struct app *a, int force);

/* tune_panel.c */
/* loop.c, before the table's keys: 1 when the open panel took the key. */
int tune_key(struct app *a, int ch);
/* map_screen.c: the panel over the map, and its prompt on the bottom line. */
void tune_draw(struct app *a);
/* keys_table.c: T opens and closes; the panel's rows (VIEW_KEY_TUNE). */
void tune_key_open(struct app *a, int ch);
void tune_key_move(struct app *a, int ch);
void tune_key_change(struct app *a, int ch);
void tune_key_type(struct app *a, int ch);
void tune_key_scope(struct app *a, int ch);
void tune_key_save(struct app *a, int ch);

#endif
