/* aim.c — the solver dispatcher, the baseline solver and the miss distance.
 *
 * The solvers behind one dispatcher (aim_solve); the gun's decision that
 * calls them is in aim_decide.c. */
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
