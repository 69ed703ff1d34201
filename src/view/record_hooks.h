/* record_hooks.h — the viewer's --record and --replay (botfield(6),
 * RECORDINGS): what loop.c calls at its few points, kept out of it. */
#ifndef BOTFIELD_RECORD_HOOKS_H
#define BOTFIELD_RECORD_HOOKS_H

struct app;
struct world;

/* --replay, before the viewer starts: reads and checks the recording,
 * builds its first world into *w, and *ro = *o with the recording's bots.
 * 0 with *vr the replay's state (for the app), or the exit status (2)
 * with the message on stderr. */
struct view_options;
struct view_rec;
int record_hooks_replay_open(const struct view_options *o, struct view_options *ro,
                             struct world *w, struct view_rec **vr);
/* Once the app holds its world: opens --record.  0, or 1 said on stderr. */
int record_hooks_start(struct app *a);
/* The replay's last recorded tick (where seeking ends); -1: not a replay. */
long record_hooks_last_tick(const struct app *a);
/* The player's input changed at the current tick: its input line (a
 * change after a step back stops the recording, said). */
void record_hooks_input(struct app *a);
/* A value tuned at the current tick (tune_apply.c): its tune line (a
 * change after a step back stops the recording, said). */
void record_hooks_tune(struct app *a, const char *section, const char *key,
                       const char *value);
/* A replay's map text now running (its tune lines read it); NULL: not a
 * replay. */
const char *record_hooks_map_text(const struct app *a);
/* Once the app holds its world: its session (a->run), with the replay
 * and the viewer's hooks (a recorded map reload swaps the world). */
void record_hooks_attach(struct app *a);
/* After a step: what the session's recording and replay did, told. */
void record_hooks_after_step(struct app *a);
/* A script or the map was reloaded from disk (map_text: the new map's
 * text, NULL for scripts). */
void record_hooks_reloaded(struct app *a, long tick, const char *map_text);
/* Quitting: the end line; everything freed. */
void record_hooks_finish(struct app *a);

#endif
