/* drive.c — the drive mode's keys and the log of the player's inputs
 * (see drive.h). */
#include "config.h"

#include <math.h>

#include "app.h"
#include "drive.h"
#include "record_hooks.h"
#include "tui.h"

static const struct vehicle *player_of(const struct app *a)
{
    int p = a->world.player.vehicle;
    return p >= 0 && (size_t)p < a->world.vehicles.n ? &a->world.vehicles.p[p] : NULL;
}

void drive_input_changed(struct app *a)
{
    struct world *w = &a->world;
    /* Ticks computed after this one were computed with other inputs. */
    if (w->tick < a->hist.end) {
        history_cut(&a->hist, w->tick);
        replay_check_reset(&a->check);
    }
    if (timeline_input(&a->run.inputs, w->tick, &w->player.in))
        app_message(a, 1, "out of memory: this input will not replay when stepping back");
    record_hooks_input(a);
    a->dirty = 1;
}

void drive_note_input(struct app *a)
{
    if (timeline_input(&a->run.inputs, a->world.tick, &a->world.player.in))
        app_message(a, 1, "out of memory: this input will not replay when stepping back");
}

void drive_apply_log(struct app *a)
{
    const struct player_input *in = timeline_input_at(&a->run.inputs, a->world.tick);
    if (in)
        world_player_set(&a->world, a->world.player.vehicle, in);
}

void drive_reset(struct app *a)
{
    a->drive.on = 0;
}

/* Moves a held setting one step towards dir, within [lo, hi], on the grid
 * of `step` (a setting changed otherwise, by a replay, snaps to it). */
static double stepped(double cur, int dir, double step, double lo, double hi)
{
    double k = round(cur / step) + dir;
    double v = k * step;
    return v < lo ? lo : v > hi ? hi : v;
}

/* Changes the held input by f, when there is a live player. */
static void change(struct app *a, void (*f)(struct player_input *, const struct vehicle *, int),
                   int dir)
{
    const struct vehicle *v = player_of(a);
    if (!v || !v->alive) {
        app_message(a, 0, "your tank is knocked out (Esc leaves drive mode)");
        return;
    }
    struct player_input in = a->world.player.in;
    f(&in, v, dir);
    if (world_player_set(&a->world, a->world.player.vehicle, &in) == 0)
        drive_input_changed(a);
}

static void set_turn(struct player_input *in, const struct vehicle *v, int dir)
{
    double r = rad2deg(v->p->turn_rate);
    in->turn = stepped(in->turn, dir, r, -r, r);
}

static void set_speed(struct player_input *in, const struct vehicle *v, int dir)
{
    double s = v->p->speed;
    in->speed = stepped(in->speed, dir, s / DRIVE_SPEED_STEPS, 0, s);
}

static void set_turret(struct player_input *in, const struct vehicle *v, int dir)
{
    double r = rad2deg(v->p->turret_rate);
    in->turret = stepped(in->turret, dir, r, -r, r);
}

static void set_fire(struct player_input *in, const struct vehicle *v, int dir)
{
    (void)v;
    (void)dir;
    in->fire = 1;
}

void drive_key_turn(struct app *a, int ch)
{
    change(a, set_turn, ch == KEY_LEFT || ch == 'a' ? -1 : 1);
}

void drive_key_speed(struct app *a, int ch)
{
    change(a, set_speed, ch == KEY_UP || ch == 'w' ? 1 : -1);
}

void drive_key_turret(struct app *a, int ch)
{
    change(a, set_turret, ch == 'z' ? -1 : 1);
}

void drive_key_fire(struct app *a, int ch)
{
    (void)ch;
    change(a, set_fire, 0);
}

void drive_key_pause(struct app *a, int ch)
{
    (void)ch;
    a->paused = !a->paused;
}

void drive_key_fog(struct app *a, int ch)
{
    (void)ch;
    a->drive.fog = !a->drive.fog;
    app_message(a, 0, "fog of war %s", a->drive.fog ? "on: only what your tank sees"
                                                    : "off");
}

void drive_key_leave(struct app *a, int ch)
{
    (void)ch;
    a->drive.on = 0;
    a->drive.fog = 0;
    app_message(a, 0, "drive mode off (your tank keeps what it holds; D drives again)");
}

void drive_key_enter(struct app *a, int ch)
{
    if (a->drive.on) {
        drive_key_leave(a, ch);
        return;
    }
    const struct vehicle *v = player_of(a);
    if (!v) {
        app_message(a, 1, "no player tank on this map: give one tank player = true "
                    "(maps/duel.ini has one)");
        return;
    }
    a->drive.on = 1;
    a->sel = a->world.player.vehicle;
    a->follow = 1;
    a->cam.fitted = 0;
    a->relayout = 1;
    /* no message: the status line says `driving` and what the tank holds */
    a->msg[0] = 0;
}

int drive_key(struct app *a, int ch)
{
    if (!a->drive.on || a->screen != SCREEN_MAP || a->seek.prompt)
        return 0;
    const struct view_key *k = drive_key_find(ch);
    if (!k)
        return 0;
    k->act(a, ch);
    return 1;
}
