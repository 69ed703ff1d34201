/* aim.c — target choice, the solver dispatcher and the gun's intents.
 *
 * Every tick, for each tank or turret: pick a target among the enemies it
 * sees (keep the current one while it stays seen, else the nearest), solve
 * the intercept with the vehicle's method, turn the turret toward the aim
 * direction at turret_rate (stopping exactly on it when it is within this
 * tick's reach), and fire when the solution's firing time falls within this
 * tick.  The shell itself is made in the shell phase (shell.c), from where
 * the gun is at that moment. */
#include <math.h>
#include <string.h>

#include "aim.h"
#include "world.h"

int aim_none_solve(const struct aim_scene *s, struct aim_solution *sol)
{
    memset(sol, 0, sizeof *sol);
    vec2 to = v2_sub(s->target, s->shooter);
    double dist = v2_len(to);
    sol->dir = dist > 0 ? v2_angle(to) : s->facing;
    sol->point = s->target;
    sol->t_rotate = fabs(angle_diff(sol->dir, s->facing)) / s->turn_rate;
    sol->t_fire = sol->t_rotate > s->t_ready ? sol->t_rotate : s->t_ready;
    sol->t_impact = sol->t_fire + dist / s->shell_speed;
    sol->lo = sol->hi = sol->t_impact;
    if (dist >= s->range) {
        sol->reason = AIM_REASON_OUT_OF_RANGE;
        return sol->ok = 0;
    }
    sol->reason = AIM_REASON_OK;
    return sol->ok = 1;
}

/* A solution is one only when every number in it is finite: at the range's
 * extremes (speeds of 1e-300, a million units to go) an impact time can
 * overflow, and the aim point computed from it with it.  Such a solution
 * is refused as no_convergence, its numbers zeroed (a trace never carries
 * a non-finite number, and nothing fires along a NaN). */
static int aim_finite(struct aim_solution *sol)
{
    double sum = sol->t_impact * 0 + sol->t_rotate * 0 + sol->t_fire * 0
               + sol->point.x * 0 + sol->point.y * 0 + sol->dir * 0
               + sol->lo * 0 + sol->hi * 0;
    if (sum == 0)
        return sol->ok;                 /* x * 0 is NaN for inf or NaN */
    sol->ok = 0;
    sol->reason = AIM_REASON_NO_CONVERGENCE;
    sol->t_impact = sol->t_rotate = sol->t_fire = sol->dir = 0;
    sol->lo = sol->hi = 0;
    sol->point = v2(0, 0);
    return 0;
}

/* The one dispatcher on the method (as libtcod's field of view does). */
int aim_solve(int method, const struct aim_scene *s, struct aim_solution *sol)
{
    switch ((enum aim_method)method) {
    case AIM_NONE:    aim_none_solve(s, sol); return aim_finite(sol);
    case AIM_CLASSIC: aim_classic_solve(s, AIM_CLASSIC_FIXED, sol); return aim_finite(sol);
    case AIM_EXACT:   aim_exact_solve(s, sol); return aim_finite(sol);
    }
    memset(sol, 0, sizeof *sol);
    sol->reason = AIM_REASON_NO_CONVERGENCE;
    return 0;
}

double aim_miss_distance(const struct aim_scene *s, double dir, double t_fire)
{
    vec2 from = v2_add(s->shooter, v2_scale(s->shooter_vel, t_fire));
    vec2 vel = v2_scale(v2_dir(dir), s->shell_speed);
    /* target minus shell, tau seconds after the shot */
    vec2 d0 = v2_sub(v2_add(s->target, v2_scale(s->target_vel, t_fire)), from);
    vec2 dv = v2_sub(s->target_vel, vel);
    double tmax = s->range / s->shell_speed;
    double vv = v2_len2(dv);
    double tau = vv > 0 ? clampd(-v2_dot(d0, dv) / vv, 0, tmax) : 0;
    return v2_len(v2_add(d0, v2_scale(dv, tau)));
}

/* The target: the current one while it is alive, the same generation and
 * seen this tick; otherwise the nearest seen enemy (lowest index on a tie,
 * since the records come in a fixed order). */
static int pick_target(struct world *w, int i)
{
    struct vehicle *v = &w->vehicles.p[i];
    int best = -1, keep = 0;
    double bestd = INFINITY;
    for (int k = v->sight_first; k < v->sight_first + v->sight_count; k++) {
        const struct sight_record *r = &w->sights.p[k];
        if (!r->seen || r->target < 0 || (size_t)r->target >= w->vehicles.n)
            continue;
        const struct vehicle *t = &w->vehicles.p[r->target];
        if (!t->alive || t->kind == VK_CAR || t->team == v->team)
            continue;
        if (r->target == v->gun.target && t->gen == v->gun.target_gen)
            keep = 1;
        double d = v2_dist2(t->pos, v->pos);
        if (d < bestd) {
            bestd = d;
            best = r->target;
        }
    }
    if (keep)
        return v->gun.target;
    v->gun.target = best;
    v->gun.target_gen = best >= 0 ? w->vehicles.p[best].gen : 0;
    return best;
}

int aim_decide(struct world *w, int i)
{
    struct vehicle *v = &w->vehicles.p[i];
    double dt = w->dt;

    /* reload_left counts from the start of the tick: move it on by one. */
    v->gun.reload_left = v->gun.reload_left > dt ? v->gun.reload_left - dt : 0;

    /* Every vehicle's start of the tick, for the shell phase; a record in
     * the tick's store only for a gun with a target (most never aim). */
    v->from = v->pos;
    v->aim_slot = -1;

    int t = pick_target(w, i);
    if (t < 0)
        return 0;
    if (WORLD_RESERVE(w->aims, w->aims.n + 1))
        return -1;
    const struct vehicle *tv = &w->vehicles.p[t];

    struct aim_info *ai = &w->aims.p[w->aims.n];
    memset(ai, 0, sizeof *ai);
    v->aim_slot = (int)w->aims.n++;
    /* This tick's motion, as the act phase will apply it (hull turn first,
     * then the move): exact for the tick in which the gun fires.  Only a
     * gun with a target can fire, so only it needs one (a sincos). */
    ai->vel = v->kind == VK_TANK
            ? v2_scale(v->want_turn == 0 ? v->dir : v2_dir(v->heading + v->want_turn),
                       v->want_speed)
            : v2(0, 0);

    struct aim_scene sc;
    sc.shooter = v->pos;
    sc.shooter_vel = ai->vel;
    sc.facing = v->turret;
    sc.turn_rate = v->p->turret_rate;
    sc.target = tv->pos;
    /* What the shooter can see of the target: where it is and how it is
     * going at the start of the tick (its own intent is not known yet). */
    sc.target_vel = v2_scale(tv->dir, tv->speed);
    sc.shell_speed = v->p->shell_speed;
    sc.range = v->p->range;
    sc.t_ready = v->gun.reload_left;

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
    ai->first_step = (int)w->aim_steps.n;
    if (sol.nsteps > 0 && WORLD_RESERVE(w->aim_steps, w->aim_steps.n + (size_t)sol.nsteps) == 0) {
        memcpy(w->aim_steps.p + w->aim_steps.n, sol.steps, (size_t)sol.nsteps * sizeof *sol.steps);
        w->aim_steps.n += (size_t)sol.nsteps;
        ai->nsteps = sol.nsteps;
    }

    struct event *e = world_event(w, EV_AIM, i, t);
    if (e) {
        e->u.aim.ok = sol.ok;
        e->u.aim.reason = sol.reason;
        e->u.aim.x = sol.point.x;
        e->u.aim.y = sol.point.y;
        e->u.aim.t_impact = sol.t_impact;
        e->u.aim.iterations = sol.iterations;
        e->u.aim.method = v->p->aim;
    }

    /* Without a solution, keep the turret on the target itself. */
    double dir = sol.ok ? sol.dir : v2_angle(v2_sub(tv->pos, v->pos));
    double diff = angle_diff(dir, v->turret);
    double reach = v->p->turret_rate * dt;
    if (fabs(diff) <= reach) {
        v->want_turret = diff;                  /* stop exactly on it */
        /* 1e-9 s of slack for the rounding of t_fire near a tick's end */
        if (sol.ok && sol.t_fire <= dt + 1e-9)
            v->want_fire = 1;
    } else {
        v->want_turret = diff > 0 ? reach : -reach;
    }
    return 0;
}
