/* aim_classic.c — the article's bisection ("Throwing a Winning
 * Pass", CalculateInterceptShotPosition), kept as printed where it is right:
 * guess t_impact in the middle of [t_min, t_max]; from the target's position
 * then (equation (1)) take the flight time dist / Sb and the rotation time;
 * t_shot = t_impact - (t_rot + t_flight); t_shot > 0 lowers t_max, else
 * raises t_min; stop when t_impact moves less than 0.01 s, fail after 40
 * steps or when a probe is farther than the maximum range.  The shooter is
 * taken as standing still (the listing passes vShooter but never uses it),
 * and the gun as loaded.
 *
 * Bounds from the article's comments (think in 1-D): t_rot lies between 0
 * and pi/w, the flight is shortest with the target coming straight in and
 * longest with it running away:
 *     t_min = D / (Sb + |vT|),  t_max = pi/w + D / |Sb - |vT||
 * with the flight part capped by range / Sb (the commenter's D_b / S_b; it
 * also keeps t_max finite when Sb = |vT|).
 *
 * Three flaws of the listing, documented and (but for measurements, see
 * enum AIM_CLASSIC_*) fixed without changing its character:
 *  1. The rotation time.  Equation (3) says w*t_R = acos(P0_ST . P1_ST): the
 *     angle between the facing when the calculation begins and the facing
 *     at the shot.  The listing computes pSFacing.AngleRads(), the absolute
 *     heading of the aim direction, as if the turret always started at
 *     angle 0: the rotation time is wrong unless it faces +x.  We use the
 *     relative angle (shortest way round), as equation (3) does.
 *  2. Success without a root.  The listing stops when the step is below the
 *     tolerance, whatever the signs: if t_shot <= 0 at every probe (the
 *     root lies beyond t_max), it walks up to t_max and reports a solution
 *     there.  f(t_min) <= 0 always holds, so a sign change needs one probe
 *     with t_shot > 0 (or a t_max proven to have one, fix 3); we require
 *     it.
 *  3. The commenter's t_max ignores the target's motion while the turret
 *     turns: the target goes on for up to pi/w seconds, so the flight may
 *     last longer than D / (Sb - |vT|).  When the shell is faster than the
 *     target, t_max = (Sb*pi/w + D) / (Sb - |vT|) is safe: there
 *     t_impact - t_flight >= pi/w >= t_rot. */
#include <math.h>
#include <string.h>

#include "aim.h"
#include "decide_guard.h"

#define CLASSIC_TOL 0.01        /* SOLUTION_TOLERANCE_SECONDS */
#define CLASSIC_MAX_STEPS 40    /* MAX_STEPS */

int aim_classic_solve(const struct aim_scene *s, unsigned flags,
                      struct aim_solution *sol)
{
    memset(sol, 0, sizeof *sol);
    double sb = s->shell_speed, w = s->turn_rate;
    double D = v2_dist(s->target, s->shooter);
    double vt = v2_len(s->target_vel);
    double rot = M_PI / w, tb_cap = s->range / sb;
    double t_min = D / (sb + vt), t_max;
    /* positive: t_shot(t_max) >= 0 is known without a probe */
    int positive = 0;
    if (flags & AIM_CLASSIC_COMMENT_TMAX) {
        double tb = sb != vt ? D / fabs(sb - vt) : INFINITY;
        t_max = rot + (tb < tb_cap ? tb : tb_cap);
    } else if (sb > vt) {
        t_max = (sb * rot + D) / (sb - vt);
        positive = 1;
        if (t_max > rot + tb_cap) {
            t_max = rot + tb_cap;
            positive = 0;
        }
    } else {
        t_max = rot + tb_cap;
    }

    double t_impact = 0.5 * (t_min + t_max), t_last;
    for (int idx = 0; idx < CLASSIC_MAX_STEPS; idx++) {
        if (sol->nsteps < AIM_STEPS_MAX)
            sol->steps[sol->nsteps++] = (float)t_impact;
        sol->iterations = idx + 1;
        /* (1): where the target is at t_impact */
        vec2 p = v2_add(s->target, v2_scale(s->target_vel, t_impact));
        vec2 to = v2_sub(p, s->shooter);
        double dist = v2_len(to);
        double heading = v2_angle(to);
        double t_rot = (flags & AIM_CLASSIC_LISTING_HEADING)
                     ? fabs(heading) / w                          /* listing */
                     : fabs(angle_diff(heading, s->facing)) / w;  /* (3) */
        double t_flight = dist / sb;
        double t_shot = t_impact - (t_rot + t_flight);
        if (dist >= s->range) {
            sol->reason = AIM_REASON_OUT_OF_RANGE;
            sol->lo = t_min;
            sol->hi = t_max;
            return sol->ok = 0;
        }
        t_last = t_impact;
        if (t_shot > 0.0) {
            positive = 1;
            t_max = t_impact;
        } else {
            t_min = t_impact;
        }
        t_impact = 0.5 * (t_min + t_max);
        if (fabs(t_impact - t_last) < CLASSIC_TOL) {
            sol->lo = t_min;
            sol->hi = t_max;
            if (!positive && !(flags & AIM_CLASSIC_NO_SIGN_CHECK)) {
                sol->reason = vt >= sb ? AIM_REASON_TOO_FAST
                                       : AIM_REASON_OUT_OF_RANGE;
                return sol->ok = 0;
            }
            /* The listing returns the last probe's position. */
            sol->t_impact = t_last;
            sol->point = p;
            sol->dir = heading;
            /* What the turret really needs, whatever the flags. */
            sol->t_rotate = fabs(angle_diff(heading, s->facing)) / w;
            sol->t_fire = sol->t_rotate > s->t_ready ? sol->t_rotate : s->t_ready;
            sol->reason = AIM_REASON_OK;
            return sol->ok = 1;
        }
    }
    sol->lo = t_min;
    sol->hi = t_max;
    sol->reason = AIM_REASON_NO_CONVERGENCE;
    return sol->ok = 0;
}
