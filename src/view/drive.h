/* drive.h — the viewer's drive mode: the keyboard drives the map's player
 * tank (`[tank.ID] player = true`, src/core/player.h).
 *
 * A terminal reports key presses, never releases, so a key moves a held
 * setting one step and the setting holds until another key changes it:
 * Left/Right (a/d) step the hull's turn through full left, straight, full
 * right; Up/Down (w/s) the speed in quarters of the cruising speed; z/x
 * the turret's turn like the hull's; space (f) wants one shot.  Key repeat
 * cannot overshoot (each setting stops at its ends), and a slow link or a
 * fast tick rate changes nothing: what is held applies to every tick.
 *
 * The inputs are kept on the session's timeline (src/run/timeline.h), so
 * that stepping back and seeking replay them: a change made at tick t
 * applies from tick t + 1, and a change made in the past (after stepping
 * back) forgets the ticks computed after it, as a changed bot script
 * does, and the inputs and tunings given after it. */
#ifndef BOTFIELD_VIEW_DRIVE_H
#define BOTFIELD_VIEW_DRIVE_H

#include <stddef.h>

#include "../core/player.h"

struct app;

struct drive_mode {
    int on;                         /* drive mode */
    int fog;                        /* show only what the player sees */
};

/* Steps of the speed setting between 0 and the cruising speed. */
#define DRIVE_SPEED_STEPS 4

/* The player's inputs changed (a drive key, at a->world.tick): sets them
 * in the world, logs them, and forgets a computed future they change.
 * A recorder of the player's inputs writes its `input` line here: the
 * tick is a->world.tick, the input a->world.player.in. */
void drive_input_changed(struct app *a);

/* loop.c: after every computed step (forward or replayed) and after a
 * snapshot is restored: the input given at the world's tick, if any. */
void drive_apply_log(struct app *a);
/* Keeps the player's current input on the timeline at the current tick
 * (a replay's recorded input), without cutting the history. */
void drive_note_input(struct app *a);
/* loop.c: a new world (loaded or reloaded): drive mode off. */
void drive_reset(struct app *a);
/* loop.c, first in the key handler: 1 when drive mode took the key. */
int drive_key(struct app *a, int ch);

/* keys_table.c: the key that enters (and leaves) drive mode, and the
 * drive keys' rows (VIEW_KEY_DRIVE). */
void drive_key_enter(struct app *a, int ch);
void drive_key_turn(struct app *a, int ch);
void drive_key_speed(struct app *a, int ch);
void drive_key_turret(struct app *a, int ch);
void drive_key_fire(struct app *a, int ch);
void drive_key_pause(struct app *a, int ch);
void drive_key_fog(struct app *a, int ch);
void drive_key_leave(struct app *a, int ch);

/* drive_view.c: the player's status line and what it sees (map_draw),
 * and the fog of war (draw_map: 1 when vehicle i is not drawn). */
void drive_draw(struct app *a);
int drive_hidden(const struct app *a, int i);

#endif
