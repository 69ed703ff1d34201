/* tick.c — one step as a list of named stages (stages.h), the behaviour
 * table the decide stage runs, and the tick context's upkeep. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tick.h"
#include "stages.h"
#include "drive.h"
#include "explain.h"
#include "grow.h"
#include "par.h"
#include "player.h"
#include "race/race_line.h"
#include "world.h"

/* ---- the behaviour table ------------------------------------------------ */

/* Avoidance replaces the drive row's turn for this tick (the article's
 * CheckForCollisions takes the tick's turn); a wander turn is postponed,
 * not lost, so an edge turn still completes once the threat is past. */
static void avoid_row(const struct decide_view *c, int i, struct decision *d)
{
    double planned = d->want.turn;
    avoid_decide(c, i, d);
    int postpone = d->avoid.steer && world_vehicle(c->w, i)->p->drive == DRIVE_WANDER;
    if (postpone)
        d->wander.turn_left += planned;
    if (d->why)
        explain_avoid_done(d->why, planned, d, postpone);
}

static void aim_row(const struct decide_view *c, int i, struct decision *d)
{
    if (aim_decide(c, i, d))
        c->lane->failed = 1;
}

/* The built-in behaviours, in the order they decide for a vehicle: each
 * row sees what the rows before it wrote.  A new behaviour is a new row. */
static const struct decider builtin[] = {
    { "drive", NEEDS_NOTHING, DECIDE_TANK | DECIDE_TURRET | DECIDE_CAR, drive_decide },
    { "avoid", NEEDS_GRID,    DECIDE_TANK,                              avoid_row },
    { "aim",   NEEDS_SIGHT,   DECIDE_TANK | DECIDE_TURRET,              aim_row },
};
_Static_assert(DECIDE_TANK == 1u << VK_TANK && DECIDE_TURRET == 1u << VK_TURRET
               && DECIDE_CAR == 1u << VK_CAR, "row kinds follow enum vehicle_kind");

const struct decider *tick_deciders(size_t *n)
{
    *n = sizeof builtin / sizeof builtin[0];
    return builtin;
}

/* ---- the tick context --------------------------------------------------- */

struct aim_info *lane_aim(struct decide_lane *c, int shooter, int *slot)
{
    if (grow_reserve(&c->aims, &c->aimcap, c->naims + 1, sizeof *c->aims))
        return NULL;
    struct aim_info *ai = &c->aims[c->naims];
    memset(ai, 0, sizeof *ai);
    ai->shooter = shooter;
    *slot = (int)c->naims++;
    return ai;
}

int lane_steps(struct decide_lane *c, const float *steps, int n)
{
    int at = (int)c->nsteps;
    if (n <= 0)
        return at;
    if (grow_reserve(&c->steps, &c->stepcap, c->nsteps + (size_t)n, sizeof *c->steps))
        return -1;
    memcpy(c->steps + c->nsteps, steps, (size_t)n * sizeof *steps);
    c->nsteps += (size_t)n;
    return at;
}

void tick_ctx_free(struct tick_ctx *c)
{
    if (!c)
        return;
    free(c->d);
    free(c->race);
    free(c->lane.aims);
    free(c->lane.steps);
    free(c->lane.avoid_buf);
    free(c->entries);
    free(c->why);
    free(c->plan_of);
    shell_index_free(&c->shell_index);
    race_plans_free(c->plans);
    par_state_free(c->par);
    free(c);
}

void decide_tick_brute(const struct world *w, struct tick_ctx *c)
{
    double r = 0, sp = 0;
    for (size_t j = 0; j < w->vehicles.n; j++) {
        const struct vehicle *o = &w->vehicles.p[j];
        if (o->alive) {
            r = o->p->radius > r ? o->p->radius : r;
            sp = fabs(o->speed) > sp ? fabs(o->speed) : sp;
        }
    }
    c->tick.brute_maxr = r;
    c->tick.brute_maxs = sp;
}

/* Racer r's racing line, when its car steers by one or a bot may ask
 * (race.c reads it):
 * planned here, before the decisions, so none fills the plan cache.  A
 * plan is a pure function of its key and the map, whenever it is made. */
static const struct race_plan *line_plan(const struct world *w, struct tick_ctx *c,
                                         size_t r)
{
    const struct vehicle *v = &w->vehicles.p[w->racers.p[r].vehicle];
    if (!v->alive || v->kind != VK_CAR || v->p->player
        || (v->p->steer != STEER_LINE && !world_is_bot(w, w->racers.p[r].vehicle)))
        return NULL;
    int n;
    const struct waypoint *wp = world_route(w, v, &n);
    return wp && n >= 3 ? race_plans_get(&c->plans, w, wp, n, v->p, w->dt) : NULL;
}

/* The decisions' per-tick products (decide.h: struct decide_tick); 0, or
 * -1 when memory ran out. */
static int decide_tick_make(const struct world *w, struct tick_ctx *c)
{
    c->tick.avoid_brute = c->opts.avoid_brute;
    if (c->opts.avoid_brute)
        decide_tick_brute(w, c);
    c->tick.plan = NULL;
    if (w->racers.n == 0)
        return 0;
    if (grow_reserve(&c->plan_of, &c->plan_ofcap, w->racers.n, sizeof *c->plan_of))
        return -1;
    const struct race_plan **plan = c->plan_of;
    if (!plan)
        return -1;      /* (not after a growth: for gcc -fanalyzer) */
    for (size_t r = 0; r < w->racers.n; r++)
        plan[r] = line_plan(w, c, r);
    c->tick.plan = plan;
    return 0;
}

/* The world's context, made on its first step; sized for this tick. */
static struct tick_ctx *ctx_for(struct world *w)
{
    if (!w->scratch.ctx && !(w->scratch.ctx = calloc(1, sizeof *w->scratch.ctx)))
        return NULL;
    struct tick_ctx *c = w->scratch.ctx;
    if (grow_reserve(&c->d, &c->dcap, w->vehicles.n, sizeof *c->d)
        || grow_reserve(&c->race, &c->racecap, w->racers.n, sizeof *c->race)
        || decide_tick_make(w, c))
        return NULL;
    c->failed = 0;
    c->lane.failed = 0;
    c->entries_ready = 0;
    c->lane.naims = c->lane.nsteps = 0;
    return c;
}

int tick_set_options(struct world *w, const struct tick_options *o)
{
    if (!w->scratch.ctx && !(w->scratch.ctx = calloc(1, sizeof *w->scratch.ctx)))
        return -1;
    w->scratch.ctx->opts = *o;
    return 0;
}

/* ---- the stages --------------------------------------------------------- */

void decision_start(const struct world *restrict w, int i, struct decision *restrict d)
{
    const struct vehicle *v = world_vehicle(w, i);
    d->aim_slot = -1;
    d->why = NULL;
    if (!v->alive) {
        memset(&d->want, 0, sizeof d->want);
        return;
    }
    d->want.turn = 0;
    d->want.speed = v->speed;
    d->want.turret = 0;
    /* a radar turns clockwise at its full rate unless a bot says
     * otherwise (the built-in behaviours and the player's tank) */
    d->want.radar = v->p->sensor == SENSOR_RADAR ? v->p->radar_rate * w->dt : 0;
    d->want.fire = 0;
    d->rng = v->rng;
    d->wander = v->wander;
    /* the gun only where a row keeps it (act copies back the same); the
     * avoidance row writes its record whole */
    if (v->kind != VK_CAR)
        d->gun = v->gun;
}

struct tick_ctx *tick_ready(struct world *w)
{
    struct tick_ctx *c = ctx_for(w);
    if (!c || (w->scratch.vgrid_tick != w->tick && grid_stage(w)))
        return NULL;
    return c;
}

struct decide_view tick_view(const struct world *w, struct tick_ctx *c, int i)
{
    int r = world_vehicle(w, i)->racer;
    struct decide_view view = { w, &c->tick, &c->lane, r >= 0 ? &c->race[r] : NULL };
    return view;
}

/* One vehicle's decision: the brain's for a vehicle it owns (a bot), else
 * the built-in rows.  Every decision starts from the vehicle as it is: no
 * turn, its speed, no turret turn, no fire, its lasting state. */
void decide_vehicle(const struct world *w, int i, struct tick_ctx *c,
                    struct decision *d)
{
    decision_start(w, i, d);
    const struct vehicle *v = world_vehicle(w, i);
    if (!v->alive)
        return;
    d->why = explain_start(w, c, i);
    const struct decide_view view = tick_view(w, c, i);
    const struct brain *brain = w->brain;
    if (brain && brain->owns(brain->user, w, i)) {
        brain->decide(brain->user, &view, i, d);
    } else if (v->p->player) {
        player_decide(&view, i, d);
    } else {
        /* The table itself, not tick_deciders(): its size and rows are
         * known here, so the loop unrolls and each row is a direct call. */
        unsigned kind = 1u << v->kind;
#pragma GCC unroll 8
        for (size_t k = 0; k < sizeof builtin / sizeof builtin[0]; k++)
            if (builtin[k].kinds & kind)
                builtin[k].decide(&view, i, d);
    }
    if (d->why)
        d->why->want = d->want;
}

void decide_one(const struct world *w, size_t i, struct tick_ctx *c)
{
    struct decision *d = &c->d[i];
    if (w->vehicles.p[i].alive) {
        decide_vehicle(w, (int)i, c, d);
    } else {
        /* a wreck (a battle's late ticks are mostly wrecks): what
         * decision_start gives it, one cache line, no call; written only
         * when it differs (after its first tick a wreck's is the same) */
        static const struct intent none;
        /* (up to fire's end: the padding after it is never written) */
        if (memcmp(&d->want, &none, offsetof(struct intent, fire) + sizeof none.fire) != 0)
            memset(&d->want, 0, sizeof d->want);
        if (d->aim_slot != -1)
            d->aim_slot = -1;
        if (d->why)
            d->why = NULL;
    }
}

void race_snapshot(const struct world *w, struct tick_ctx *c)
{
    for (size_t r = 0; r < w->racers.n; r++)
        c->race[r] = w->racers.p[r].info;
}

/* A benchmark's stage clock (c->times): the seconds since the last
 * mark added to stage k.  Off (NULL), one test a stage. */
static double clock_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void stage_mark(struct tick_ctx *c, enum tick_timer k, double *last)
{
    if (!c->times)
        return;
    double t = clock_now();
    if (*last > 0)              /* (no clock before the context existed) */
        c->times[k] += t - *last;
    *last = t;
}

int tick_step(struct world *w)
{
    double t_mark = w->scratch.ctx && w->scratch.ctx->times ? clock_now() : 0;
    struct tick_ctx *c = tick_ready(w);                     /* 1 grid */
    if (!c)
        return -1;
    stage_mark(c, TICK_T_GRID, &t_mark);
    if (w->tick == 0 && collide_measure_start(w))           /* tick 0's separation */
        return -1;
    int rc = 0;
    w->tick++;
    /* sensed ahead (tick_sense_ahead): its records (the sight events) are
     * this tick's already */
    int ahead = w->scratch.sensed_tick == w->tick;
    w->scratch.sensed_tick = -1;
    if (!ahead)
        w->now.events.n = 0;
    w->now.aims.n = 0;
    w->now.aim_steps.n = 0;
    if (!ahead && sight_update(w))                          /* 2 sense */
        rc = -1;
    stage_mark(c, TICK_T_SENSE, &t_mark);
    if (decide_act_stage(w, c, par_threads(w)))            /* 3 decide, 4 act */
        c->failed = 1;
    stage_mark(c, TICK_T_DECIDE, &t_mark);
    if (c->failed || c->lane.failed)
        rc = -1;
    if (shells_update(w, c))                                /* 5 shells */
        rc = -1;
    stage_mark(c, TICK_T_SHELLS, &t_mark);
    player_tick_done(w);
    if (grid_stage(w) || collide_stage(w))               /* 6 detect */
        rc = -1;
    race_detect(w);
    end_stage(w);
    stage_mark(c, TICK_T_DETECT, &t_mark);
    if (w->brain && w->brain->after)
        w->brain->after(w->brain->user, w);
    return rc;
}

#ifdef BOTFIELD_CHECK_FUSED
#include <stdio.h>          /* the sanitizer build's check alone prints */
void world_fused_check(const struct world *w, int i)
{
    /* the fused sweep has moved vehicles [0, acted): no decision may
     * read them */
    if (!w->scratch.ctx || i >= w->scratch.ctx->acted)
        return;
    fprintf(stderr, "botfield: tick %ld: a decision read vehicle %d, already "
            "moved by the fused decide+act pass\n", w->tick, i);
    abort();
}
#endif

void world_moved(struct world *w)
{
    w->scratch.vgrid_tick = -1;
    w->scratch.sensed_tick = -1;
}

int tick_sense_ahead(struct world *w)
{
    w->scratch.sensed_tick = -1;
    if (!tick_ready(w))
        return -1;
    w->now.events.n = 0;
    w->tick++;
    int rc = sight_update(w);
    w->tick--;
    if (!rc)
        w->scratch.sensed_tick = w->tick + 1;
    return rc;
}

const struct decision *tick_decision(const struct world *w, int i)
{
    if (!w->scratch.ctx || !w->scratch.ctx->kept || i < 0 || (size_t)i >= w->scratch.ctx->dcap || (size_t)i >= w->vehicles.n)
        return NULL;
    return &w->scratch.ctx->d[i];
}
