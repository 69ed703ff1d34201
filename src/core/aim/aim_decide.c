/* aim_decide.c — the gun's decision: target choice and intents.
 *
 * Every tick, for each tank or turret: pick a target among the enemies it
 * sees (keep the current one while it stays seen, else the nearest), solve
 * the intercept with the vehicle's method, turn the turret toward the aim
 * direction at turret_rate (stopping exactly on it when it is within this
 * tick's reach), and fire when the solution's firing time falls within this
 * tick.  The shell itself is made in the shells stage (shell.c), from where
 * the gun is at that moment. */
#include <math.h>
#include <string.h>

#include "aim.h"
#include "world.h"
#include "decide_guard.h"

struct aim_scene aim_scene_of(const struct vehicle *v, vec2 vel, const struct vehicle *tv,
                              double t_ready)
{
    struct aim_scene sc;
    sc.shooter = v->pos;
    sc.shooter_vel = vel;
    sc.facing = v->turret;
    sc.turn_rate = v->p->turret_rate;
    sc.target = tv->pos;
    sc.target_vel = v2_scale(tv->dir, tv->speed);
    sc.shell_speed = v->p->shell_speed;
    sc.range = v->p->range;
    sc.t_ready = t_ready;
    return sc;
}

/* The target: the current one while it is alive, the same generation and
 * seen this tick; otherwise the nearest seen enemy (lowest index on a tie,
 * since the records come in a fixed order). */
static int pick_target(const struct world *w, int i, struct aim_state *gun)
{
    const struct vehicle *v = world_vehicle(w, i);
    int best = -1, keep = 0;
    double bestd = INFINITY;
    for (int k = v->sight_first; k < v->sight_first + v->sight_count; k++) {
        int j = world_sight_seen(w, k);
        if (j < 0)
            continue;
        const struct vehicle *t = world_vehicle(w, j);
        if (!t->alive || t->kind == VK_CAR || t->team == v->team)
            continue;
        if (j == gun->target && t->gen == gun->target_gen)
            keep = 1;
        double d = v2_dist2(t->pos, v->pos);
        if (d < bestd) {
            bestd = d;
            best = j;
        }
    }
    if (keep)
        return gun->target;
    gun->target = best;
    gun->target_gen = best >= 0 ? world_vehicle(w, best)->gen : 0;
    return best;
}

int aim_decide(const struct decide_view *c, int i, struct decision *d)
{
    const struct world *w = c->w;
    const struct vehicle *v = world_vehicle(w, i);
    struct aim_state *gun = &d->gun;
    double dt = w->dt;

    /* reload_left counts from the start of the tick: move it on by one. */
    gun->reload_left = gun->reload_left > dt ? gun->reload_left - dt : 0;

    /* A record in the tick's store only for a gun with a target (most
     * never aim); act turns the records into the tick's aim events. */
    d->aim_slot = -1;
    int t = pick_target(w, i, gun);
    if (t < 0)
        return 0;
    struct aim_info *ai = lane_aim(c->lane, i, &d->aim_slot);
    if (!ai)
        return -1;
    const struct vehicle *tv = world_vehicle(w, t);

    /* This tick's motion, as the act stage will apply it (hull turn
     * first, then the move): exact for the tick in which the gun fires.
     * Only a gun with a target can fire, so only it needs one (a sincos). */
    ai->vel = v->kind == VK_TANK
            ? v2_scale(d->want.turn == 0 ? v->dir : v2_dir(v->heading + d->want.turn),
                       d->want.speed)
            : v2(0, 0);

    struct aim_scene sc = aim_scene_of(v, ai->vel, tv, gun->reload_left);
    struct aim_solution sol;
    aim_solve(v->p->aim, &sc, &sol);

    ai->sought = 1;
    ai->target = t;
    ai->ok = sol.ok;
    ai->reason = sol.reason;
    ai->aim_point = sol.point;
    ai->aim_dir = sol.dir;
    ai->t_impact = sol.t_impact;
    ai->t_rotate = sol.t_rotate;
    ai->t_fire = sol.t_fire;
    ai->iterations = sol.iterations;
    ai->bracket_lo = sol.lo;
    ai->bracket_hi = sol.hi;
    /* The probes go to their own store: up to 40 floats a record. */
    ai->first_step = lane_steps(c->lane, sol.steps, sol.nsteps);
    ai->nsteps = ai->first_step >= 0 ? sol.nsteps : 0;
    /* no probes: 0, as a record without a solver has (where the store
     * stood would differ between one thread and several, act.c) */
    if (ai->nsteps == 0)
        ai->first_step = 0;

    /* Without a solution, keep the turret on the target itself. */
    double dir = sol.ok ? sol.dir : v2_angle(v2_sub(tv->pos, v->pos));
    double diff = angle_diff(dir, v->turret);
    double reach = v->p->turret_rate * dt;
    if (fabs(diff) <= reach) {
        d->want.turret = diff;                  /* stop exactly on it */
        /* 1e-9 s of slack for the rounding of t_fire near a tick's end */
        if (sol.ok && sol.t_fire <= dt + 1e-9)
            d->want.fire = 1;
    } else {
        d->want.turret = diff > 0 ? reach : -reach;
    }
    return 0;
}
