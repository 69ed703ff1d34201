/* aim.h — targets, intercept solvers and shells ("Throwing a
 * Winning Pass").
 *
 *   none     fire at where the target is now;
 *   classic  the article's bisection over the impact time (0.01 s, 40 steps),
 *            with equation (3)'s relative rotation and two documented fixes;
 *   exact    ours: the earliest feasible impact to 1e-10 s, bracketed
 *            Newton inside intervals proven to hold at most one root.
 * aim_decide() runs in the decide phase for tank or turret i: it picks a
 * target among what i sees, solves, and writes i's turret and fire intents.
 * shells_update() is the shell phase: firing, swept flight, hits, misses.
 *
 * The solvers are pure functions of an aim_scene, so tests and benchmarks
 * call them directly:  aim_solve(AIM_EXACT, &scene, &sol). */
#ifndef BOTFIELD_AIM_H
#define BOTFIELD_AIM_H

#include <stdint.h>
#include "vec.h"
#include "names.h"

struct world;

/* Why a gun found no solution (the trace's and the inspector's words). */
#define AIM_REASON_LIST(X)                                              \
    X(AIM_REASON_OK, "ok") X(AIM_REASON_OUT_OF_RANGE, "out_of_range")   \
    X(AIM_REASON_TOO_FAST, "too_fast")                                  \
    X(AIM_REASON_NO_CONVERGENCE, "no_convergence")
enum aim_reason { AIM_REASON_LIST(NAMES_ENUM) };
#define AIM_REASON_COUNT (0 AIM_REASON_LIST(NAMES_COUNT))
extern const char *const aim_reason_names[AIM_REASON_COUNT + 1];

/* Gun state that lasts across ticks. */
struct aim_state {
    double reload_left;     /* seconds after the start of this tick until
                               the gun is loaded again (0: loaded) */
    int target;             /* vehicle index, -1: none */
    uint32_t target_gen;    /* generation of that vehicle when picked */
};

/* The intercept problem at the start of a tick (t = 0).  The shooter moves
 * straight at shooter_vel, the target straight at target_vel; the turret
 * faces `facing` and turns either way at turn_rate (rad/s); the shell flies
 * straight at shell_speed from the gun's centre at the moment it is fired,
 * at most `range`; the gun cannot fire before t_ready (reload). */
struct aim_scene {
    vec2 shooter, shooter_vel;
    double facing, turn_rate;
    vec2 target, target_vel;
    double shell_speed, range;
    double t_ready;
};

/* The scene shooter v faces at the start of a tick, aiming at tv: the
 * target as v can see it (where it is and how it is going; its own intent
 * is not known yet), v's turret and gun, v moving at vel (the motion the
 * act stage will give it this tick, or a bot's present one: a bot asks
 * before it decides) and its gun loaded after t_ready.  The built-in aim
 * row and a bot's aim.* calls both solve this one. */
struct vehicle;
struct aim_scene aim_scene_of(const struct vehicle *v, vec2 vel, const struct vehicle *tv,
                              double t_ready);

/* Probe times kept for the viewer (the classic bisection needs at most 40). */
#define AIM_STEPS_MAX 40

struct aim_solution {
    int ok;
    enum aim_reason reason;
    double t_impact;        /* seconds from t = 0 until the shell meets it */
    double t_rotate;        /* turret rotation included in t_impact */
    double t_fire;          /* when the gun fires (>= t_rotate, t_ready) */
    vec2 point;             /* predicted impact point */
    double dir;             /* absolute direction to fire along, radians */
    int iterations;         /* evaluations of the equation */
    double lo, hi;          /* the final bracket of the impact time */
    int nsteps;
    float steps[AIM_STEPS_MAX];  /* the first probes of the impact time */
};

/* Classic's switches, to measure the article's listing as printed. */
enum {
    AIM_CLASSIC_FIXED = 0,
    AIM_CLASSIC_LISTING_HEADING = 1,  /* t_rot from the absolute heading */
    AIM_CLASSIC_NO_SIGN_CHECK = 2,    /* success without a sign change */
    AIM_CLASSIC_COMMENT_TMAX = 4      /* the commenter's t_max */
};

/* Solves with a method; returns sol->ok. */
int aim_solve(int method, const struct aim_scene *s, struct aim_solution *sol);
int aim_none_solve(const struct aim_scene *s, struct aim_solution *sol);
int aim_classic_solve(const struct aim_scene *s, unsigned flags,
                      struct aim_solution *sol);
int aim_exact_solve(const struct aim_scene *s, struct aim_solution *sol);

/* The exact method's equation: for an impact at time T, the slack
 * f(T) = t_fire(T) - max(t_rotate(T), t_ready), where t_fire is when a shell
 * must leave the (moving) gun to meet the target at T.  f >= 0 means
 * feasible; the earliest root is the earliest impact.  For tests. */
double aim_exact_slack(const struct aim_scene *s, double T);

/* Fires along dir at time t_fire (from where the shooter is then) and
 * returns the closest approach of the shell to the target's centre. */
double aim_miss_distance(const struct aim_scene *s, double dir, double t_fire);

/* What the gun decided this tick, for the shell phase, the viewer and the
 * tests.  Only a gun with a target seeks a solution, and in a crowd few
 * do: the records live in the tick's store w->now.aims, not in every vehicle's
 * (which the tick loops stream over), and world_aim() finds a vehicle's. */
struct aim_info {
    int sought;             /* a solution was sought this tick (always 1
                               in the store: kept for readers) */
    int ok;
    enum aim_reason reason;
    vec2 aim_point;         /* predicted impact point */
    double aim_dir;         /* absolute direction to fire along, radians */
    double t_impact;        /* seconds from now until impact */
    double t_rotate;        /* seconds of turret rotation included */
    double t_fire;          /* seconds from now until the shot */
    int iterations;
    double bracket_lo, bracket_hi;
    int first_step, nsteps; /* the solver's first probes of the impact time,
                               in w->now.aim_steps (this tick only) */
    int target;             /* vehicle index */
    int shooter;            /* the vehicle whose record it is */
    vec2 vel;               /* the vehicle's velocity this tick (where a
                               shot leaves from: vehicle.from + vel * t) */
};

struct shell {
    long id;                /* 1 for the run's first shot, then 2, ...:
                               the trace's `shell` */
    vec2 pos, vel;
    vec2 start;
    double travelled, range;
    double delay;           /* seconds of its first tick before it was fired */
    int shooter, target;    /* vehicle indices (target: -1 when none) */
    int alive;              /* 0 from the tick it ended (kept one tick) */
    int hit;                /* the vehicle it met, -1: none */
    int miss;               /* enum miss_reason when it missed, -1: none */
    /* What the gun predicted when it fired (its aim_info): where and when
     * the shell meets the target, so the viewer can show it without
     * solving anything.  impact_time is world seconds (tick x dt). */
    vec2 impact;
    double impact_time;
};

/* 0, or -1 when memory for the tick's record ran out (the gun then
 * neither turns nor fires this tick). */
struct decide_view;
struct decision;
struct tick_ctx;
int aim_decide(const struct decide_view *c, int i, struct decision *d);
/* 0, or -1 when memory ran out (a shell or an event could not be kept). */
int shells_update(struct world *w, const struct tick_ctx *c);


#endif
