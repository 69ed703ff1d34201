/* player.c — the player tank's decision: the held intents of w->player,
 * clamped to the tank's limits (see player.h). */
#include <math.h>
#include <string.h>

#include "player.h"
#include "tick.h"
#include "world.h"
#include "decide_guard.h"

void player_decide(const struct decide_view *c, int i, struct decision *d)
{
    const struct world *w = c->w;
    const struct vehicle *v = world_vehicle(w, i);
    const struct player_input *in = &w->player.in;
    double dt = w->dt;

    /* the gun's reload runs on as any gun's; no target is picked, and no
     * avoidance plan is made (the player steers) */
    d->gun.reload_left = d->gun.reload_left > dt ? d->gun.reload_left - dt : 0;
    d->gun.target = -1;
    d->avoid = v->avoid;
    d->avoid.threat = -1;
    d->avoid.shell = 0;
    d->avoid.steer = 0;
    d->avoid.turn = 0;
    d->avoid.held = 0;

    double step = v->p->turn_rate * dt;
    d->want.turn = clampd(deg2rad(in->turn) * dt, -step, step);
    d->want.speed = clampd(in->speed, 0, v->p->speed);
    double reach = v->p->turret_rate * dt;
    d->want.turret = clampd(deg2rad(in->turret) * dt, -reach, reach);
    if (!in->fire || d->gun.reload_left > 0)
        return;
    /* A shot along the turret as it points after this tick's turn, as a
     * Lua bot's: an aim record with no target (no aim event). */
    struct aim_info *ai = lane_aim(c->lane, i, &d->aim_slot);
    if (!ai) {
        c->lane->failed = 1;
        return;
    }
    ai->sought = 1;
    ai->ok = 1;
    ai->target = -1;
    ai->aim_dir = angle_norm(v->turret + d->want.turret);
    ai->t_fire = dt;
    ai->t_impact = ai->t_rotate = 0;
    ai->vel = v2_scale(d->want.turn == 0 ? v->dir : v2_dir(v->heading + d->want.turn),
                       d->want.speed);
    ai->aim_point = v->pos;
    d->want.fire = 1;
}
