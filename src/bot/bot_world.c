/* bot_world.c — a world's Lua bots as the brain of their vehicles (see
 * bot_world.h).  Everything a script sees is built here from the const
 * world of the tick's start; everything it decides lands in its own
 * vehicle's struct decision, clamped to the vehicle's limits. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot_world.h"
#include "core/events.h"
#include "core/world.h"
#include "core/tick.h"
#include "core/explain.h"
#include "core/observe.h"
#include "core/wander/wander.h"
#include "io/trace.h"
#include "proc.h"
#include "proc_view.h"

#include <time.h>
#include <xxhash.h>

#define EVENTS_MAX 64           /* last tick's events kept per bot */

struct line { int vehicle; const char *type; const char *key; char *text; };

struct slot {
    int vehicle;
    struct bot *bot;
    struct bot_script script;
    struct bot_limits lim;
    const char *where;          /* world.bots[k].where */
    struct bot_report rep;
    int ran, inited;
    /* last tick's events about this vehicle, for world.events */
    struct bot_event ev[EVENTS_MAX];
    size_t nev;
    char err_ev[BOT_ERR_BYTES]; /* its own bot_error, as an event */
    /* the view's arrays, reused */
    struct bot_enemy *en; size_t encap;
    struct bot_shell *sh; size_t shcap;
    /* What this bot gave in the step it last decided in (bot_error, log
     * lines), and its own sight scratch (sight.hidden_from): a bot's, not
     * the bot world's, so bots may decide on several threads at once
     * (each slot is one vehicle's, decided by one thread). */
    struct line *lines; size_t nlines, linecap;
    long line_tick;             /* the step they belong to */
    int errors;
    /* out.say of that step (its say line), and what it said in the last
     * step, which its team reads this tick as world.messages.  Kept here,
     * in the bots' per-run state, not in the world: the bytes are the
     * bot layer's encoding (the core knows no Lua), a decision may write
     * only its own slot (as with the events above), and a snapshot
     * keeps them beside mem and next tick's events (bot_world_save). */
    unsigned char said[BOT_SAY_ENCODED];
    size_t said_len;
    unsigned char msg[BOT_SAY_ENCODED];
    size_t msg_len;
    struct sight_scratch scratch;
    /* What decide gave apply_out in the step of out_tick (-1: none yet),
     * and race.*()'s turn when it was kept as it was: the vehicle's
     * intent, which a recorder writes (bot_world_intent). */
    struct bot_out out;
    long out_tick;
    int raced;
    double race_turn;
    /* An intent-driven vehicle: no script, its intents the recording's
     * (bot_world_attach_intents), in tick order. */
    int puppet;
    const struct bot_intent_at **intents;
    size_t nint;
    /* A process bot (--bot-process): its program, and its answers by
     * tick (a step back computes those ticks again from them, without
     * asking it again); also a puppet, for what has no Lua state. */
    struct proc *proc;
    int proc_stopped;           /* said once: it is gone for good */
    struct proc_kept *kept;
    size_t nkept, capkept;
    /* A library agent (libbotfield): its caller sets its out before each
     * step (bot_world_agent_set); also a puppet, for what has no Lua state. */
    int agent;
    struct bot_out agent_out;
};

/* A process bot's answer of a tick, kept. */
struct proc_kept { long tick; struct bot_out out; size_t say_len; unsigned char say[BOT_SAY_ENCODED]; };

struct bot_world {
    struct brain brain;
    struct slot *slots;
    size_t n;
    int *slot_of;               /* per vehicle: its slot, -1 none */
    size_t nveh;
    char *dir;                  /* where the scripts are */
    int disk_too;               /* given texts first, then dir (bot_world_attach_given) */
    int errors;                 /* bot_error lines of the last step */
    int unrebuilt;              /* bots disabled by the last step back */
    int *heard;                 /* the slots with a msg, in vehicle order */
    size_t nheard;
    /* while attaching with intents: a script without text drives its
     * vehicle by them (bot_world_attach_intents) */
    const struct bot_intents *intents;
    /* while attaching: the bot key that marks a library agent (NULL: none) */
    const char *agent_path;
    const struct world *w;
};

/* ---- small helpers ------------------------------------------------------ */

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 8;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * elem);
    if (q)
        *cap = n;
    return q;
}

static char *dup_printf2(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 3;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s: %s", a, b);
    return s;
}

static void add_line(struct slot *s, int vehicle, const char *type,
                     const char *key, const char *text)
{
    struct line *l = grow(s->lines, &s->linecap, s->nlines + 1, sizeof *l);
    if (!l)
        return;
    s->lines = l;
    char *t = strdup(text);
    if (!t)
        return;
    /* field by field: cppcheck 2.10 loses t in a compound literal */
    struct line *ln = &s->lines[s->nlines++];
    ln->vehicle = vehicle;
    ln->type = type;
    ln->key = key;
    ln->text = t;
}

static void clear_lines(struct slot *s)
{
    for (size_t k = 0; k < s->nlines; k++)
        free(s->lines[k].text);
    s->nlines = 0;
    s->errors = 0;
}

/* The slot of vehicle i when its lines are those of the step at `tick`
 * (a bot that did not decide in it, dead or new, gave none), else NULL. */
static const struct slot *lines_of(const struct bot_world *bw, size_t i, long tick)
{
    if (bw->slot_of[i] < 0)
        return NULL;
    const struct slot *s = &bw->slots[bw->slot_of[i]];
    return s->line_tick == tick ? s : NULL;
}

/* ---- the view ----------------------------------------------------------- */

struct call_ctx {
    const struct world *w;
    int i;
    const struct decide_view *c;
    struct decision *d;
    struct bot_world *bw;
    struct bot_view *view;      /* a callback reports its work there */
    int wandered;               /* wander() ran this tick and gave */
    double wander_turn;         /* this turn (rad per tick) */
    /* race.*()'s last answer: its turn in deg/s and as the tick's turn
     * (rad), so a script that returns it unchanged drives exactly as
     * the built-in (degrees and back would cost a rounding) */
    int raced;
    double race_deg, race_turn;
};

static const char *process_for(const struct world *w, int v);
static void process_decide(struct bot_world *bw, struct slot *s, const struct decide_view *c,
                           int i, struct decision *d);

static int fill_view(struct bot_world *bw, struct slot *s, const struct world *w,
                     int i, const struct decision *d, struct bot_view *view)
{
    const struct vehicle *v = world_vehicle(w, i);
    memset(view, 0, sizeof *view);
    view->id = v->id;
    view->kind = vehicle_kind_names[v->kind];
    view->team = v->team >= 0 ? w->teams.p[v->team].name : "";
    view->x = v->pos.x;
    view->y = v->pos.y;
    view->heading = rad2deg(v->heading);
    view->speed = v->speed;
    view->turret = rad2deg(v->turret);
    view->reload_left = d->gun.reload_left;
    view->gun_ready = v->kind != VK_CAR && d->gun.reload_left <= 0;
    view->health = v->health;
    view->radius = v->p->radius;
    view->max_speed = vehicle_top_speed(v);
    view->turn_rate = rad2deg(v->p->turn_rate);
    view->turret_rate = rad2deg(v->p->turret_rate);
    view->shell_speed = v->p->shell_speed;
    view->range = v->p->range;
    view->fov = rad2deg(v->p->fov);
    view->view_range = v->p->view_range;
    view->is_car = v->kind == VK_CAR;
    view->accel = v->p->accel;
    view->brake = v->p->brake;
    view->min_speed = v->p->min_speed;
    view->back_angle = rad2deg(v->p->back_angle);
    view->sensor = sensor_names[v->p->sensor];
    view->radar = rad2deg(v->radar);
    view->radar_rate = rad2deg(v->p->radar_rate);
    view->tick = w->tick;
    view->round = w->round;
    view->rounds = w->rounds;
    view->time = (double)w->tick * w->dt;
    view->dt = w->dt;
    view->width = w->width;
    view->height = w->height;
    view->trees_total = w->trees.n;
    view->call_work = 0;

    /* enemies: the targets its sight saw this tick (the trace's sight
     * lines with seen true), in the records' order */
    size_t ne = 0;
    for (int k = v->sight_first; k < v->sight_first + v->sight_count; k++) {
        int j = world_sight_seen(w, k);
        if (j < 0)
            continue;
        const struct vehicle *t = world_vehicle(w, j);
        struct bot_enemy *en = grow(s->en, &s->encap, ne + 1, sizeof *en);
        if (!en)
            return -1;
        s->en = en;
        vec2 to = v2_sub(t->pos, v->pos);
        en[ne++] = (struct bot_enemy){ j, t->id, t->pos.x, t->pos.y,
                                       rad2deg(t->heading), t->speed, world_sight(w, k)->visible,
                                       v2_len(to), rad2deg(v2_angle(to)),
                                       vehicle_kind_names[t->kind], t->health };
    }
    view->enemies = s->en;
    view->n_enemies = ne;

    /* allies and waypoints: made by the callbacks below when the script
     * reads them (a copy into every bot's view each tick was the square
     * of a big team, in time and memory) */
    int nw = 0;
    const struct waypoint *wp = world_route(w, v, &nw);
    if (wp && nw > 0) {
        struct race_state rs = world_race_state(w, v);
        view->next_waypoint = v->racer >= 0 ? rs.next % nw + 1 : 0;
    }
    view->events = s->ev;
    view->n_events = s->nev;
    (void)bw;
    return 0;
}

/* ---- the built-in methods, for the script ----------------------------- */

static int aim_with(void *p, int method, int handle, double *dir, double *t_impact,
                    const char **reason)
{
    struct call_ctx *cc = p;
    const struct world *w = cc->w;
    const struct vehicle *v = world_vehicle(w, cc->i);
    if (v->kind == VK_CAR || handle < 0 || (size_t)handle >= world_nvehicles(w)
        || !world_vehicle(w, handle)->alive) {
        *reason = "no_target";
        return -1;
    }
    const struct vehicle *tv = world_vehicle(w, handle);
    /* the scene the built-in row solves, with my present motion: a bot
     * asks before it has decided this tick's */
    vec2 vel = v->kind == VK_TANK ? v2_scale(v->dir, v->speed) : v2(0, 0);
    struct aim_scene sc = aim_scene_of(v, vel, tv, cc->d->gun.reload_left);
    struct aim_solution sol;
    if (!aim_solve(method, &sc, &sol) || !isfinite(sol.dir) || !isfinite(sol.t_impact)) {
        *reason = aim_reason_names[sol.reason];
        return -1;
    }
    *dir = rad2deg(sol.dir);
    *t_impact = sol.t_impact;
    return 0;
}

static int aim_exact_cb(void *p, int h, double *dir, double *t, const char **why)
{
    return aim_with(p, AIM_EXACT, h, dir, t, why);
}

static int aim_classic_cb(void *p, int h, double *dir, double *t, const char **why)
{
    return aim_with(p, AIM_CLASSIC, h, dir, t, why);
}

/* The wanted heading and speed as this tick's intent, within the limits. */
static void want_heading(const struct vehicle *v, double dt, double heading_deg,
                         double speed, struct decision *dd)
{
    double step = v->p->turn_rate * dt;
    dd->want.turn = clampd(angle_diff(deg2rad(heading_deg), v->heading), -step, step);
    dd->want.speed = clampd(speed, 0, v->p->speed);
}

static int avoid_with(void *p, int method, double heading, double speed,
                      double *turn, double *speed_out)
{
    struct call_ctx *cc = p;
    const struct vehicle *v = world_vehicle(cc->w, cc->i);
    if (v->kind != VK_TANK || !isfinite(heading) || !isfinite(speed))
        return -1;
    struct decision dd = *cc->d;
    want_heading(v, cc->w->dt, heading, speed, &dd);
    avoid_decide_with(cc->c, cc->i, method, &dd);
    cc->d->avoid = dd.avoid;        /* its record (and held plan) lasts */
    /* As the built-in row does: when avoidance steers, this tick's wander
     * turn is postponed, not lost, so an edge turn still completes once
     * the threat is past (wander() then avoid.*() = the built-in row). */
    if (dd.avoid.steer && cc->wandered) {
        cc->d->wander.turn_left += cc->wander_turn;
        cc->wandered = 0;
    }
    *turn = rad2deg(dd.want.turn / cc->w->dt);
    *speed_out = dd.want.speed;
    return 0;
}

static int avoid_predictive_cb(void *p, double h, double s, double *t, double *o)
{
    return avoid_with(p, AVOID_PREDICTIVE, h, s, t, o);
}

static int avoid_classic_cb(void *p, double h, double s, double *t, double *o)
{
    return avoid_with(p, AVOID_CLASSIC, h, s, t, o);
}

static int race_with(void *p, int rule, double *turn, double *speed)
{
    struct call_ctx *cc = p;
    const struct vehicle *v = world_vehicle(cc->w, cc->i);
    if (v->kind == VK_TURRET)
        return -1;
    struct decision dd = *cc->d;
    if (rule < 0)
        race_decide_line(cc->c, cc->i, &dd);
    else
        race_decide_with(cc->c, cc->i, rule, &dd);
    *turn = rad2deg(dd.want.turn / cc->w->dt);
    *speed = dd.want.speed;
    cc->raced = 1;
    cc->race_deg = *turn;
    cc->race_turn = dd.want.turn;
    return 0;
}

static int race_exact_cb(void *p, double *t, double *s)
{
    return race_with(p, SPEED_RULE_EXACT, t, s);
}

static int race_classic_cb(void *p, double *t, double *s)
{
    return race_with(p, SPEED_RULE_CLASSIC, t, s);
}

/* race.line(): as the built-in steer = line car decides (its plan made
 * before the tick's decisions, tick.c, for every bot's car too). */
static int race_line_cb(void *p, double *turn, double *speed)
{
    return race_with(p, -1, turn, speed);
}

static int wander_cb(void *p, double *turn, double *speed)
{
    struct call_ctx *cc = p;
    const struct vehicle *v = world_vehicle(cc->w, cc->i);
    if (v->kind != VK_TANK)
        return -1;
    struct decision dd = *cc->d;
    wander_decide(cc->c, cc->i, &dd);
    cc->d->rng = dd.rng;            /* its draws and its turn last */
    cc->d->wander = dd.wander;
    cc->wandered = 1;
    cc->wander_turn = dd.want.turn;
    *turn = rad2deg(dd.want.turn / cc->w->dt);
    *speed = dd.want.speed;
    return 0;
}

static int hidden_from_cb(void *p, double x, double y, double *fraction)
{
    struct call_ctx *cc = p;
    cc->view->call_work = 0;
    if (!isfinite(x) || !isfinite(y))
        return -1;
    const struct vehicle *v = world_vehicle(cc->w, cc->i);
    struct sight_shape shape = sight_shape_of(v);
    struct slot *s = &cc->bw->slots[cc->bw->slot_of[cc->i]];
    double vis = sight_query(cc->w, SIGHT_EXACT, v2(x, y), &shape, &s->scratch, NULL);
    cc->view->call_work = s->scratch.ncand + s->scratch.nspans;
    *fraction = isfinite(vis) ? 1 - vis : 0;
    return 0;
}

/* Every live vehicle of my team but me, in the vehicles' order. */
static size_t allies_cb(void *p, void (*put)(void *arg, size_t k, const struct bot_ally *a),
                        void *arg)
{
    struct call_ctx *cc = p;
    const struct world *w = cc->w;
    const struct vehicle *v = world_vehicle(w, cc->i);
    size_t na = 0;
    if (v->team < 0)
        return 0;
    for (size_t j = 0; j < world_nvehicles(w); j++) {
        const struct vehicle *o = world_vehicle(w, (int)j);
        if ((int)j == cc->i || !o->alive || o->team != v->team)
            continue;
        if (put) {
            struct bot_ally a = { o->id, o->pos.x, o->pos.y, rad2deg(o->heading), o->speed };
            put(arg, na, &a);
        }
        na++;
    }
    return na;
}

/* What my team said last tick (world.messages), in vehicle order; the
 * sender's own message too (it is of the team, and alive if it decides:
 * botfield-bots(7)); a vehicle of no team hears only itself. */
static size_t messages_cb(void *p, void (*put)(void *arg, size_t k, const struct bot_message *m),
                          void *arg)
{
    struct call_ctx *cc = p;
    const struct world *w = cc->w;
    int team = world_vehicle(w, cc->i)->team;
    size_t n = 0;
    for (size_t h = 0; h < cc->bw->nheard; h++) {
        const struct slot *s = &cc->bw->slots[cc->bw->heard[h]];
        const struct vehicle *from = world_vehicle(w, s->vehicle);
        if (s->vehicle != cc->i && (team < 0 || from->team != team))
            continue;
        if (put) {
            struct bot_message m = { from->id, s->msg, s->msg_len };
            put(arg, n, &m);
        }
        n++;
    }
    return n;
}

/* The slots with a message to deliver, in vehicle order (after a step,
 * after a restore). */
static void index_messages(struct bot_world *bw)
{
    bw->nheard = 0;
    for (size_t i = 0; i < bw->nveh; i++)
        if (bw->slot_of[i] >= 0 && bw->slots[bw->slot_of[i]].msg_len)
            bw->heard[bw->nheard++] = bw->slot_of[i];
}

/* My route (a car's track, a patrol's points), from index 0. */
static size_t waypoints_cb(void *p,
                           void (*put)(void *arg, size_t k, const struct bot_waypoint *b),
                           void *arg)
{
    struct call_ctx *cc = p;
    int nw = 0;
    const struct waypoint *wp = world_route(cc->w, world_vehicle(cc->w, cc->i), &nw);
    if (!wp || nw <= 0) {
        /* no route of its own (a tank that does not patrol, a turret):
         * botfield-bots(7)'s world.waypoints is the track, whoever asks */
        wp = cc->w->track.p;
        nw = (int)cc->w->track.n;
    }
    if (!wp || nw <= 0)
        return 0;
    for (int k = 0; put && k < nw; k++) {
        struct bot_waypoint b = { wp[k].c.x, wp[k].c.y, wp[k].r };
        put(arg, (size_t)k, &b);
    }
    return (size_t)nw;
}

/* The trees within r of me, nearest-independent: in the map's order. */
static size_t trees_cb(void *p, double r, struct bot_tree *out, size_t max)
{
    struct call_ctx *cc = p;
    const struct world *w = cc->w;
    vec2 me = world_vehicle(w, cc->i)->pos;
    size_t n = 0;
    if (!(r >= 0))
        return 0;
    for (size_t k = 0; k < w->trees.n && n < max; k++) {
        const struct tree *t = &w->trees.p[k];
        if (v2_dist(t->c, me) - t->r <= r)
            out[n++] = (struct bot_tree){ t->c.x, t->c.y, t->r };
    }
    return n;
}

/* world.shells: the shells in flight I see (sight_sees_shell) and my
 * own, in the shells' order, which is their ids' (each tick drops the
 * ended ones in order and adds the new ones last, numbered on). */
static size_t shells_cb(void *p, const struct bot_shell **out)
{
    struct call_ctx *cc = p;
    const struct world *w = cc->w;
    struct slot *s = &cc->bw->slots[cc->bw->slot_of[cc->i]];
    size_t n = 0;
    for (size_t k = 0; k < w->shells.n; k++) {
        const struct shell *sh = &w->shells.p[k];
        int mine = sh->shooter == cc->i;
        if (!sh->alive || !(mine || sight_sees_shell(w, cc->i, sh)))
            continue;
        struct bot_shell *b = grow(s->sh, &s->shcap, n + 1, sizeof *b);
        if (!b)
            break;              /* out of memory: the shells so far */
        s->sh = b;
        const struct vehicle *from = world_vehicle(w, sh->shooter);
        b[n++] = (struct bot_shell){ sh->id, sh->pos.x, sh->pos.y,
                                     rad2deg(angle_norm(v2_angle(sh->vel))), v2_len(sh->vel),
                                     from->team >= 0 ? w->teams.p[from->team].name : "",
                                     mine };
    }
    *out = s->sh;
    return n;
}

/* The bot layer's limits are the core's (it does not include observe.h:
 * it knows nothing of the world). */
_Static_assert(BOT_OBSERVE_NEAREST == OBSERVE_MAX_NEAREST && BOT_OBSERVE_RAYS == OBSERVE_MAX_RAYS
                   && BOT_OBSERVE_MAX == OBSERVE_OWN + (OBSERVE_ENEMY + OBSERVE_SHELL)
                                                      * OBSERVE_MAX_NEAREST + OBSERVE_MAX_RAYS,
               "agent.observe's limits are libbotfield's");

/* agent.observe(): the world the script decides on (this tick's start,
 * after this tick's sight), the vehicle's own observation. */
static int observe_cb(void *p, int K, int R, float *out, size_t max)
{
    struct call_ctx *cc = p;
    cc->view->call_work = 0;
    if (K < 0 || K > OBSERVE_MAX_NEAREST || R < 0 || R > OBSERVE_MAX_RAYS
        || (size_t)observe_size(K, R) > max)
        return -1;
    observe_vehicle(cc->w, cc->i, K, R, out);
    cc->view->call_work = (size_t)R * cc->w->vehicles.n + cc->w->shells.n;
    return observe_size(K, R);
}

static int act_cb(void *p, const double a[5], struct bot_out *o)
{
    struct call_ctx *cc = p;
    *o = bot_out_of_action(cc->w, cc->i, a);
    return 0;
}

static const struct bot_calls calls = {
    aim_exact_cb, aim_classic_cb, avoid_predictive_cb, avoid_classic_cb,
    race_exact_cb, race_classic_cb, wander_cb, hidden_from_cb, trees_cb,
    race_line_cb, observe_cb, act_cb,
};

/* ---- the brain ---------------------------------------------------------- */

static int owns(void *user, const struct world *w, int i)
{
    const struct bot_world *bw = user;
    (void)w;
    return i >= 0 && (size_t)i < bw->nveh && bw->slot_of[i] >= 0;
}

/* The script's intents, clamped to the vehicle's limits (bot.h leaves
 * that to us): turn to +-turn_rate, speed to [0, max_speed] and a car's
 * accel and brake, the turret toward `turret` at turret_rate, a radar
 * toward `radar` at radar_rate, fire only when loaded, along the turret
 * as it points after this tick's turn. */
static void apply_out(const struct world *w, int i, struct decide_lane *c,
                      struct decision *d, const struct bot_out *o)
{
    const struct vehicle *v = world_vehicle(w, i);
    double dt = w->dt;
    if (v->kind != VK_TURRET) {
        double step = v->p->turn_rate * dt;
        d->want.turn = clampd(deg2rad(o->turn) * dt, -step, step);
        double s = clampd(o->speed, 0, vehicle_top_speed(v));
        if (v->kind == VK_CAR)
            s = clampd(s, v->speed - v->p->brake * dt, v->speed + v->p->accel * dt);
        d->want.speed = s < 0 ? 0 : s;
    } else {
        d->want.turn = 0;
        d->want.speed = 0;
    }
    if (v->kind == VK_CAR)
        return;
    double reach = v->p->turret_rate * dt;
    d->want.turret = clampd(angle_diff(deg2rad(o->turret), v->turret), -reach, reach);
    /* a bot's radar stays unless it says where (no built-in sweep) */
    double sweep = v->p->radar_rate * dt;
    d->want.radar = v->p->sensor != SENSOR_RADAR ? 0
                  : clampd(angle_diff(deg2rad(o->radar), v->radar), -sweep, sweep);
    if (o->fire && d->gun.reload_left <= 0) {
        struct aim_info *ai = lane_aim(c, i, &d->aim_slot);
        if (!ai)
            return;
        ai->sought = 1;
        ai->ok = 1;
        ai->target = -1;
        ai->aim_dir = angle_norm(v->turret + d->want.turret);
        ai->t_fire = dt;        /* once the turret has turned */
        ai->t_impact = ai->t_rotate = 0;
        ai->vel = v->kind == VK_TANK
                ? v2_scale(d->want.turn == 0 ? v->dir : v2_dir(v->heading + d->want.turn),
                           d->want.speed)
                : v2(0, 0);
        ai->aim_point = v->pos;
        d->want.fire = 1;
    }
}

/* The intent in effect on `tick`: the last one recorded at or before it
 * (held between lines, as the player's input is), NULL before the first. */
static const struct bot_intent *puppet_intent(const struct slot *s, long tick)
{
    size_t lo = 0, hi = s->nint;        /* the first recorded after tick */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->intents[mid]->tick <= tick)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &s->intents[lo - 1]->in : NULL;
}

/* An intent-driven vehicle decides what its bot decided then, through
 * the same clamps (apply_out): no script runs, no log or error. */
static void puppet_decide(const struct world *w, int i, struct decide_lane *lane,
                          struct decision *d, struct slot *s)
{
    const struct vehicle *v = world_vehicle(w, i);
    const struct bot_intent *in = puppet_intent(s, w->tick);
    struct bot_out out = { 0, 0, rad2deg(v->turret), 0, rad2deg(v->radar) };
    if (in)
        out = (struct bot_out){ in->turn, in->speed, in->turret, in->fire, in->radar };
    s->said_len = in && in->say_len <= sizeof s->said ? in->say_len : 0;
    if (s->said_len)
        memcpy(s->said, in->say, s->said_len);
    apply_out(w, i, lane, d, &out);
    if (in && in->raced && v->kind != VK_TURRET)
        d->want.turn = in->race_turn;
}

/* The intent of this step, for a recorder (bot_world_intent). */
static void keep_intent(struct slot *s, long tick, const struct bot_out *out, int raced,
                        double race_turn)
{
    s->out = *out;
    s->out_tick = tick;
    s->raced = raced;
    s->race_turn = race_turn;
}

/* The view's lists, made when read through the call's context. */
static void view_lists(struct bot_view *view, struct call_ctx *cc, const struct world *w)
{
    view->ctx = cc;
    view->allies_of = allies_cb;
    view->waypoints_of = waypoints_cb;
    view->messages_of = messages_cb;
    view->shells_of = shells_cb;
    view->shells_total = w->shells.n;
}

static void decide(void *user, const struct decide_view *c, int i, struct decision *d)
{
    const struct world *w = c->w;
    struct bot_world *bw = user;
    struct slot *s = &bw->slots[bw->slot_of[i]];
    /* A vehicle decides once a step: what it gave before is another
     * step's (a step back may redo the same tick number). */
    clear_lines(s);
    s->line_tick = w->tick;
    /* the gun's reload runs on as for any gun; a car has none, and the
     * tick leaves its d->gun unset (me.reload_left would read garbage) */
    if (world_vehicle(w, i)->kind == VK_CAR)
        memset(&d->gun, 0, sizeof d->gun);
    else
        d->gun.reload_left = d->gun.reload_left > w->dt ? d->gun.reload_left - w->dt : 0;
    d->gun.target = -1;
    /* its avoidance record lasts (a held plan) unless avoid.* runs again */
    d->avoid = world_vehicle(w, i)->avoid;
    d->avoid.threat = -1;
    d->avoid.shell = 0;
    d->avoid.steer = 0;
    if (s->agent) {
        s->said_len = 0;
        s->ran = 1;
        apply_out(w, i, c->lane, d, &s->agent_out);
        keep_intent(s, w->tick, &s->agent_out, 0, 0);
    } else if (s->proc)
        process_decide(bw, s, c, i, d);
    else if (s->puppet)
        puppet_decide(w, i, c->lane, d, s);
    if (s->proc || s->puppet)
        return;

    struct bot_view view;
    struct call_ctx cc = { w, i, c, d, bw, &view, 0, 0, 0, 0, 0 };
    if (fill_view(bw, s, w, i, d, &view)) {
        c->lane->failed = 1;
        return;
    }
    view.rng = &d->rng;
    view.calls = &calls;
    view_lists(&view, &cc, w);
    if (!s->inited) {
        char err[BOT_ERR_BYTES];
        s->inited = 1;
        if (bot_init(s->bot, &view, err, sizeof err)) {
            add_line(s, i, "bot_error", "error", err);
            s->errors++;
        }
        /* init's log lines go to the trace with the first tick's */
        const struct bot_report *ir = bot_init_report(s->bot);
        for (int k = 0; k < ir->n_log; k++)
            add_line(s, i, "log", "text", ir->log[k]);
    }
    struct bot_out out = { 0, view.speed, view.turret, 0, view.radar };
    bot_set_exact_count(s->bot, d->why != NULL);
    int rc = bot_tick(s->bot, &view, &out, &s->rep);
    s->ran = 1;
    const unsigned char *said = bot_said(s->bot, &s->said_len);
    if (said)
        memcpy(s->said, said, s->said_len);
    if (rc && s->rep.error[0]) {
        add_line(s, i, "bot_error", "error", s->rep.error);
        s->errors++;
    }
    for (int k = 0; k < s->rep.n_log; k++)
        add_line(s, i, "log", "text", s->rep.log[k]);
    if (d->why) {
        struct explain_bot *x = &d->why->bot;
        x->ran = 1;
        x->instructions = s->rep.instructions;
        x->budget = s->lim.budget;
        x->heap = s->rep.heap;
        x->memory = s->lim.memory_bytes;
        x->abandoned = s->rep.abandoned;
        x->disabled = s->rep.disabled;
        x->error = s->rep.disabled ? s->rep.disabled_reason : s->rep.error;
    }
    apply_out(w, i, c->lane, d, &out);
    keep_intent(s, w->tick, &out, cc.raced && out.turn == cc.race_deg, cc.race_turn);
    if (s->raced && world_vehicle(w, i)->kind != VK_TURRET)
        d->want.turn = cc.race_turn;    /* race.*()'s turn as it was */
}

/* Its own bot_error of this step, as one of next tick's world.events. */
static void error_event(struct slot *s, const char *text, const char *id, long tick)
{
    if (s->nev >= EVENTS_MAX)
        return;
    snprintf(s->err_ev, sizeof s->err_ev, "%s", text);
    struct bot_event *be = &s->ev[s->nev++];
    memset(be, 0, sizeof *be);
    be->type = "bot_error";
    /* the error stays fields[0]: a restored step points it at err_ev */
    be->fields[0] = (struct bot_field){ "error", s->err_ev, 0 };
    be->fields[1] = (struct bot_field){ "id", id, 0 };
    be->fields[2] = (struct bot_field){ "tick", NULL, (double)tick };
    be->kind[2] = BOT_FIELD_INT;
    be->n_fields = 3;
}

/* One field of an event, as events.def says Lua gets it: its key, its
 * value typed as the trace writes it (an id, a boolean, an integer), an
 * absent vehicle left out (a table cannot hold nil), a waypoint's index
 * counted from 1. */
static void put_bot_field(struct bot_event *be, const struct world *w,
                          const struct event_field *x)
{
    struct bot_field *f = &be->fields[be->n_fields];
    unsigned char *kind = &be->kind[be->n_fields];
    *f = (struct bot_field){ x->key, NULL, 0 };
    switch (x->type) {
    case EVF_VEHICLE_OR_NULL:
        if (x->i < 0)
            return;
        /* fall through */
    case EVF_VEHICLE:
        f->str = x->i >= 0 ? w->vehicles.p[x->i].id : "";
        break;
    case EVF_NUM:
        f->num = x->num;
        break;
    case EVF_INT:
        *kind = BOT_FIELD_INT;
        f->num = (double)x->i;
        break;
    case EVF_INDEX:
        *kind = BOT_FIELD_INT;
        f->num = (double)(x->i + EVENT_INDEX_BASE_LUA);
        break;
    case EVF_BOOL:
        *kind = BOT_FIELD_BOOL;
        f->num = x->i != 0;
        break;
    case EVF_NAME:
        f->str = x->str;
        break;
    }
    be->n_fields++;
}

_Static_assert(1 + EVENT_FIELDS_MAX <= BOT_EVENT_FIELDS,
               "a bot event holds the tick and every field of an event");

/* ev as one of world.events: its type, its tick, then its fields, those
 * of its trace line (events.def). */
static void event_to_bot(const struct world *w, const struct event *ev, struct bot_event *be)
{
    struct event_field x[EVENT_FIELDS_MAX];
    int n = event_fields(ev, x);
    memset(be, 0, sizeof *be);
    be->type = event_kind_names[ev->kind];
    be->fields[0] = (struct bot_field){ "tick", NULL, (double)w->tick };
    be->kind[0] = BOT_FIELD_INT;
    be->n_fields = 1;
    for (int k = 0; k < n && k < EVENT_FIELDS_MAX; k++)
        put_bot_field(be, w, &x[k]);
}

/* ev into s's list.  A library's agent reads no events: its list holds
 * only their kinds, counted as a script's are (the state hash counts them,
 * and a replay's puppet builds them whole). */
static void event_put(struct slot *s, const struct world *w, const struct event *ev)
{
    struct bot_event *be = &s->ev[s->nev++];
    if (s->agent) {
        be->type = event_kind_names[ev->kind];
        be->n_fields = 0;
        return;
    }
    event_to_bot(w, ev, be);
}

/* A knockout is news to every bot whose vehicle is alive after the step
 * (whoever it was and whoever fired). */
static void knockout_to_all(struct bot_world *bw, const struct world *w,
                            const struct event *ev)
{
    for (size_t k = 0; k < bw->n; k++) {
        struct slot *s = &bw->slots[k];
        if (!w->vehicles.p[s->vehicle].alive || s->nev >= EVENTS_MAX)
            continue;
        event_put(s, w, ev);
    }
}

/* Keeps, for each bot, what happened to its vehicle in this step: next
 * tick's world.events: a hit to its target and its shooter, a miss and
 * a shot to the shooter, a knockout to every vehicle alive, any other
 * event to the vehicles it names. */
static void after(void *user, const struct world *w)
{
    struct bot_world *bw = user;
    for (size_t k = 0; k < bw->n; k++)
        bw->slots[k].nev = 0;
    /* At most EVENTS_MAX a bot: in a crowd the sight and aim events about
     * me (one per vehicle that sees or aims at me, which world.enemies and
     * aim.* also give) could fill the list and push out the hit that
     * matters.  So three passes: every other kind first, then aim, then
     * sight, each in the world's order; the last two leave room for this
     * step's own bot_error events (an init error and a tick error).  The
     * sight records are the step's first events (sight_event_of), seen
     * in the last pass only. */
    size_t ns = w->now.sights.n, n = ns + w->now.events.n;
    for (int pass = 0; pass < 3; pass++)
    for (size_t e = pass == 2 ? 0 : ns; e < n; e++) {
        struct event made;
        const struct event *ev;
        if (e < ns) {
            const struct sight_record *r = &w->now.sights.p[e];
            if (!owns(bw, w, r->observer) && !owns(bw, w, r->target))
                continue;       /* (most of a crowd's: no event made) */
            sight_event_of(r, &made);
            ev = &made;
        } else {
            ev = &w->now.events.p[e - ns];
        }
        int kind_pass = ev->kind == EV_SIGHT ? 2 : ev->kind == EV_AIM ? 1 : 0;
        if (kind_pass != pass)
            continue;
        if (ev->kind == EV_KNOCKOUT) {
            knockout_to_all(bw, w, ev);
            continue;
        }
        /* a shot goes to its shooter only (not to the one it aims at) */
        int who[2] = { ev->a, ev->kind == EV_SHOT ? -1 : ev->b };
        for (int m = 0; m < 2; m++) {
            if (who[m] < 0 || (size_t)who[m] >= bw->nveh || bw->slot_of[who[m]] < 0
                || (m == 1 && who[1] == who[0]))
                continue;
            struct slot *s = &bw->slots[bw->slot_of[who[m]]];
            if (s->nev >= (pass ? EVENTS_MAX - 2 : EVENTS_MAX))
                continue;
            event_put(s, w, ev);
        }
    }
    /* what each bot said in this step: its team hears it next tick */
    for (size_t k = 0; k < bw->n; k++) {
        struct slot *s = &bw->slots[k];
        s->msg_len = s->line_tick == w->tick ? s->said_len : 0;
        memcpy(s->msg, s->said, s->msg_len);
    }
    index_messages(bw);
    /* its own errors of this tick, as events too; and the step's count */
    bw->errors = 0;
    for (size_t k = 0; k < bw->n; k++) {
        struct slot *s = &bw->slots[k];
        if (s->line_tick != w->tick)
            continue;
        bw->errors += s->errors;
        for (size_t l = 0; l < s->nlines; l++)
            if (!strcmp(s->lines[l].type, "bot_error"))
                error_event(s, s->lines[l].text, w->vehicles.p[s->vehicle].id, w->tick);
    }
}

/* ---- attach, free ------------------------------------------------------- */

static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 2);
    if (!d)
        return NULL;
    if (n == 0)
        strcpy(d, "/");
    else {
        memcpy(d, path, n);
        d[n] = 0;
    }
    return d;
}

static void slot_free(struct slot *s)
{
    proc_stop(s->proc);
    free(s->kept);
    bot_free(s->bot);
    bot_script_free(&s->script);
    free(s->en);
    free(s->sh);
    clear_lines(s);
    free(s->lines);
    sight_scratch_free(&s->scratch);
    free(s->intents);
}

/* The process bots' last line: {"type":"end","result":SUMMARY} (the
 * summary line's object), as far as each takes it. */
static void tell_end(const struct world *w, const struct bot_world *bw)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = NULL;
    for (size_t k = 0; k < bw->n; k++) {
        if (!bw->slots[k].proc)
            continue;
        if (!f && w && (f = open_memstream(&buf, &len))) {
            fputs("{\"type\":\"end\",\"result\":", f);
            trace_summary(f, w);
            fclose(f);
            while (len && buf[len - 1] == '\n')
                buf[--len] = 0;
            if (len < 2 || buf[len - 1] != '}') {
                free(buf);
                buf = NULL;
                len = 0;
            } else
                buf[len++] = '}';  /* (the summary's own newline made room) */
        }
        if (buf)
            proc_tell(bw->slots[k].proc, buf, len);
        else
            proc_tell(bw->slots[k].proc, "{\"type\":\"end\"}", 15);
    }
    free(buf);
    /* a second in all for them to exit on their own */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t k = 0; k < bw->n; k++)
        proc_close_input(bw->slots[k].proc, 100);
    for (int all = 0; !all;) {
        all = 1;
        for (size_t k = 0; k < bw->n; k++)
            all &= proc_exited(bw->slots[k].proc);
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (!all && (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 > 1.0)
            break;
        if (!all)
            nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
    }
}

void bot_world_free(struct world *w, struct bot_world *bw)
{
    if (!bw)
        return;
    if (w && w->brain == &bw->brain)
        w->brain = NULL;
    tell_end(w, bw);
    for (size_t k = 0; k < bw->n; k++)
        slot_free(&bw->slots[k]);
    free(bw->slots);
    free(bw->slot_of);
    free(bw->heard);
    free(bw->dir);
    free(bw);
}

/* The script of wb: from the texts when given (a recording's, or the
 * user's own bots of --ladder: bw->disk_too), else read from the map's
 * folder. */
static int script_of(const struct bot_world *bw, const struct bot_texts *src,
                     const struct world_bot *wb, struct bot_script *out, char *msg, size_t n)
{
    if (!src)
        return bot_script_read(bw->dir, wb->path, out, msg, n);
    memset(out, 0, sizeof *out);
    if (bot_script_check_path(wb->path, msg, n))
        return -1;
    for (size_t k = 0; k < src->n; k++)
        if (!strcmp(src->path[k], wb->path))
            return bot_script_from_bytes(wb->path, src->text[k], strlen(src->text[k]),
                                         out, msg, n);
    if (bw->disk_too)
        return bot_script_read(bw->dir, wb->path, out, msg, n);
    snprintf(msg, n, "bot '%s': the recording holds no bot_source for it", wb->path);
    return -1;
}

/* Slot s's intents: those of vehicle `id` in `in`.  0, or -1 out of
 * memory or none (and more cannot come). */
static int take_intents(struct slot *s, const char *id, const struct bot_intents *in)
{
    size_t n = 0;
    for (size_t k = 0; in && k < in->n; k++)
        n += !strcmp(in->p[k].id, id);
    free(s->intents);
    s->intents = NULL;
    s->nint = 0;
    if (!n)
        return in && in->open ? 0 : -1;
    if (!(s->intents = malloc(n * sizeof *s->intents)))
        return -1;
    for (size_t k = 0; k < in->n; k++)
        if (!strcmp(in->p[k].id, id))
            s->intents[s->nint++] = &in->p[k];
    return 0;
}

/* wb's vehicle driven by the intents recorded for it (none: -1, the
 * caller says the script's error). */
static int load_puppet(const struct world *w, const struct bot_intents *in,
                       const struct world_bot *wb, struct slot *s)
{
    char msg[256];
    if (bot_script_check_path(wb->path, msg, sizeof msg))
        return -1;              /* a path the rules refuse is that error still */
    if (take_intents(s, w->vehicles.p[wb->vehicle].id, in))
        return -1;
    s->puppet = 1;
    s->script.path = strdup(wb->path);
    return s->script.path ? 0 : -1;
}

int bot_world_intents_grew(struct bot_world *bw, const struct world *w,
                           const struct bot_intents *in)
{
    for (size_t k = 0; bw && k < bw->n; k++) {
        struct slot *s = &bw->slots[k];
        if (s->puppet && take_intents(s, w->vehicles.p[s->vehicle].id, in))
            return -1;
    }
    return 0;
}

static int load_slot(struct bot_world *bw, const struct bot_texts *src,
                     const struct world_bot *wb, struct slot *s, char **err)
{
    char msg[BOT_ERR_BYTES + 64];
    s->vehicle = wb->vehicle;
    s->where = wb->where;
    s->out_tick = -1;
    if (bw->agent_path && !strcmp(wb->path, bw->agent_path)) {
        s->puppet = s->agent = 1;
        s->agent_out = (struct bot_out){ 0, 0, rad2deg(bw->w->vehicles.p[wb->vehicle].turret),
                                         0, rad2deg(bw->w->vehicles.p[wb->vehicle].radar) };
        s->script.path = strdup(wb->path);
        return s->script.path ? 0 : ((*err = strdup("out of memory")), -1);
    }
    /* (a replay's never: its answers are the recording's intents) */
    const char *cmd = bw->intents ? NULL : process_for(bw->w, wb->vehicle);
    if (cmd) {
        s->puppet = 1;
        s->lim = (struct bot_limits){ wb->budget, (size_t)wb->memory_kib * 1024 };
        if (!(s->script.path = strdup(wb->path)))
            return (*err = strdup("out of memory")) ? -1 : -1;
        if (!(s->proc = proc_start(cmd, msg, sizeof msg))) {
            *err = dup_printf2(bw->w->vehicles.p[wb->vehicle].id, msg);
            return -1;
        }
        return 0;
    }
    if (script_of(bw, src, wb, &s->script, msg, sizeof msg)) {
        bot_script_free(&s->script);
        if (bw->intents && !load_puppet(bw->w, bw->intents, wb, s))
            return 0;
        *err = dup_printf2(wb->where, msg);
        return -1;
    }
    long mem = wb->memory_kib;
    s->lim = (struct bot_limits){ wb->budget, (size_t)mem * 1024 };
    if (!(s->bot = bot_new(&s->script, s->lim, msg, sizeof msg))) {
        *err = dup_printf2(wb->where, msg);
        return -1;
    }
    return 0;
}

static int attach_agents(struct world *w, const char *bundled_dir, const struct bot_texts *src,
                         int disk_too, const struct bot_intents *intents,
                         const char *agent_path, struct bot_world **out, char **err);

static int attach(struct world *w, const char *bundled_dir, const struct bot_texts *src,
                  int disk_too, const struct bot_intents *intents, struct bot_world **out,
                  char **err)
{
    return attach_agents(w, bundled_dir, src, disk_too, intents, NULL, out, err);
}

int bot_world_attach_agents(struct world *w, const char *bundled_dir, const char *agent_path,
                            struct bot_world **out, char **err)
{
    return attach_agents(w, bundled_dir, NULL, 0, NULL, agent_path, out, err);
}

static int attach_agents(struct world *w, const char *bundled_dir, const struct bot_texts *src,
                         int disk_too, const struct bot_intents *intents,
                         const char *agent_path, struct bot_world **out, char **err)
{
    *out = NULL;
    *err = NULL;
    if (w->bots.n == 0)
        return 0;
    struct bot_world *bw = calloc(1, sizeof *bw);
    if (!bw)
        goto oom;
    bw->n = w->bots.n;
    bw->nveh = w->vehicles.n;
    bw->slots = calloc(bw->n, sizeof *bw->slots);
    bw->slot_of = malloc(bw->nveh * sizeof *bw->slot_of);
    bw->heard = malloc(bw->n * sizeof *bw->heard);
    bw->dir = w->map_path ? folder_of(w->map_path) : strdup(bundled_dir ? bundled_dir : ".");
    bw->disk_too = disk_too;
    bw->intents = intents;
    bw->agent_path = agent_path;
    bw->w = w;
    if (!bw->slots || !bw->slot_of || !bw->heard || !bw->dir)
        goto oom;
    for (size_t i = 0; i < bw->nveh; i++)
        bw->slot_of[i] = -1;
    for (size_t k = 0; k < bw->n; k++) {
        const struct world_bot *wb = &w->bots.p[k];
        if (load_slot(bw, src, wb, &bw->slots[k], err)) {
            bot_world_free(w, bw);
            return -1;
        }
        bw->slot_of[wb->vehicle] = (int)k;
        memcpy(w->bots.p[k].sha256, bw->slots[k].script.sha256, sizeof w->bots.p[k].sha256);
    }
    bw->intents = NULL;
    bw->w = NULL;
    w->bot_engine = bot_lua_version();
    bw->brain = (struct brain){ "lua", bw, owns, decide, after, 1 };
    w->brain = &bw->brain;
    *out = bw;
    return 0;
oom:
    if (bw && !bw->slots)
        bw->n = 0;              /* no slots to free (or to tell the end) */
    bot_world_free(w, bw);
    *err = strdup("out of memory loading the bots");
    return -1;
}

int bot_world_attach(struct world *w, const char *bundled_dir,
                     struct bot_world **out, char **err)
{
    return attach(w, bundled_dir, NULL, 0, NULL, out, err);
}

int bot_world_attach_given(struct world *w, const char *bundled_dir,
                           const struct bot_texts *given, struct bot_world **out, char **err)
{
    return attach(w, bundled_dir, given, 1, NULL, out, err);
}

int bot_world_attach_texts(struct world *w, const struct bot_texts *src,
                           struct bot_world **out, char **err)
{
    return attach(w, NULL, src, 0, NULL, out, err);
}

int bot_world_attach_intents(struct world *w, const struct bot_texts *src,
                             const struct bot_intents *intents, struct bot_world **out,
                             char **err)
{
    return attach(w, NULL, src, 0, intents, out, err);
}

int bot_world_intent(const struct bot_world *bw, const struct world *w, int i,
                     struct bot_intent *out)
{
    if (!bw || i < 0 || (size_t)i >= bw->nveh || bw->slot_of[i] < 0)
        return 0;
    const struct slot *s = &bw->slots[bw->slot_of[i]];
    if ((s->puppet && !s->proc && !s->agent) || s->out_tick != w->tick)
        return 0;
    *out = (struct bot_intent){ s->out.turn, s->out.speed, s->out.turret, s->out.fire,
                                s->out.radar, s->raced, s->raced ? s->race_turn : 0,
                                s->said, s->said_len };
    return 1;
}

int bot_world_puppets(const struct bot_world *bw)
{
    int n = 0;
    for (size_t k = 0; bw && k < bw->n; k++)
        n += bw->slots[k].puppet;
    return n;
}

/* ---- readers ------------------------------------------------------------ */

static int say_json(FILE *f, const void *arg)
{
    const struct slot *s = arg;
    return bot_value_json(f, s->said, s->said_len);
}

int bot_world_trace(const struct bot_world *bw, const struct world *w, FILE *f)
{
    int rc = 0;
    for (size_t i = 0; bw && i < bw->nveh && i < w->vehicles.n; i++) {
        const struct slot *s = lines_of(bw, i, w->tick);
        for (size_t k = 0; s && k < s->nlines; k++) {
            const struct line *l = &s->lines[k];
            if (trace_bot_line(f, l->type, w->tick, w->vehicles.p[l->vehicle].id, l->key, l->text))
                rc = -1;
        }
        if (s && s->said_len
            && trace_say_line(f, w->tick, w->vehicles.p[i].id, say_json, s))
            rc = -1;
    }
    return rc;
}

int bot_world_errors(const struct bot_world *bw)
{
    return bw ? bw->errors : 0;
}

int bot_world_unrebuilt(const struct bot_world *bw)
{
    return bw ? bw->unrebuilt : 0;
}

const struct bot_report *bot_world_report(const struct bot_world *bw, int i)
{
    if (!bw || i < 0 || (size_t)i >= bw->nveh || bw->slot_of[i] < 0)
        return NULL;
    const struct slot *s = &bw->slots[bw->slot_of[i]];
    return s->ran ? &s->rep : NULL;
}

const struct bot_script *bot_world_script(const struct bot_world *bw, int i)
{
    if (!bw || i < 0 || (size_t)i >= bw->nveh || bw->slot_of[i] < 0
        || bw->slots[bw->slot_of[i]].puppet)
        return NULL;
    return &bw->slots[bw->slot_of[i]].script;
}

/* ---- mem, step back, reload ---------------------------------------------- */

struct bot_world_events {
    struct bot_event ev[EVENTS_MAX];
    size_t nev;
    char err_ev[BOT_ERR_BYTES];
    struct bot_run_state run;   /* abandoned in a row, disabled ... */
    char run_sha256[65];        /* ... of the script of then */
    unsigned char msg[BOT_SAY_ENCODED];     /* what its team hears next tick */
    size_t msg_len;
};

void bot_world_mem_free(struct bot_world_mem *m)
{
    for (size_t k = 0; m->buf && k < m->n; k++)
        free(m->buf[k]);
    free(m->buf);
    free(m->len);
    free(m->inited);
    free(m->events);
    memset(m, 0, sizeof *m);
}

int bot_world_save(struct bot_world *bw, struct bot_world_mem *m, char *err, size_t n)
{
    memset(m, 0, sizeof *m);
    if (!bw)
        return 0;
    m->buf = calloc(bw->n, sizeof *m->buf);
    m->len = calloc(bw->n, sizeof *m->len);
    m->inited = calloc(bw->n, sizeof *m->inited);
    m->events = calloc(bw->n, sizeof *m->events);
    if (!m->buf || !m->len || !m->inited || !m->events) {
        bot_world_mem_free(m);
        snprintf(err, n, "out of memory");
        return -1;
    }
    m->n = bw->n;
    for (size_t k = 0; k < bw->n; k++) {
        const struct slot *s = &bw->slots[k];
        m->inited[k] = s->inited;
        memcpy(m->events[k].ev, s->ev, s->nev * sizeof *s->ev);
        m->events[k].nev = s->nev;
        memcpy(m->events[k].err_ev, s->err_ev, sizeof s->err_ev);
        memcpy(m->events[k].msg, s->msg, s->msg_len);
        m->events[k].msg_len = s->msg_len;
        if (s->puppet)
            continue;           /* no script, no mem: its intents are the recording's */
        bot_run_state_get(s->bot, &m->events[k].run);
        memcpy(m->events[k].run_sha256, s->script.sha256, sizeof s->script.sha256);
        if (bot_mem_save(bw->slots[k].bot, &m->buf[k], &m->len[k], err, n)) {
            bot_world_mem_free(m);
            return -1;
        }
    }
    return 0;
}

/* An intent-driven vehicle back at a snapshot: what its team hears next. */
static void restore_puppet(struct slot *s, const struct bot_world_mem *m, size_t k)
{
    s->inited = m->inited[k];
    s->ran = 0;
    s->nev = 0;
    s->msg_len = m->events[k].msg_len;
    memcpy(s->msg, m->events[k].msg, s->msg_len);
    s->said_len = 0;
}

int bot_world_restore(struct bot_world *bw, const struct bot_world_mem *m)
{
    if (!bw)
        return 0;
    if (m->n != bw->n)
        return -1;
    bw->unrebuilt = 0;
    for (size_t k = 0; k < bw->n; k++) {
        struct slot *s = &bw->slots[k];
        if (s->puppet) {
            restore_puppet(s, m, k);
            continue;
        }
        char msg[BOT_ERR_BYTES], why[BOT_ERR_BYTES + 64];
        struct bot *nb = bot_new(&s->script, s->lim, msg, sizeof msg);
        /* The run state goes back with the script it belonged to: after a
         * reload, the past is replayed with the new script, which starts
         * afresh (a reload clears the disabling). */
        struct bot_run_state fresh = { 0, 0, "", 0, 0 };
        const struct bot_run_state *run =
            strcmp(m->events[k].run_sha256, s->script.sha256) ? &fresh : &m->events[k].run;
        /* A bot that cannot be rebuilt is no reason to refuse the step
         * back (the viewer gave up on it): its mem may not fit a fresh
         * state of its bot_memory (the top level holds more than it did
         * then), or the top level may run past the CPU backstop this time.
         * That bot is disabled, and says why on its next tick; the others
         * go back. */
        if (!nb) {
            bot_run_state_set(s->bot, run);
            snprintf(why, sizeof why, "it could not be rebuilt at a step back: %s", msg);
            bot_disable(s->bot, why);
            bw->unrebuilt++;
        } else {
            bot_run_state_set(nb, run);
            if (bot_mem_load(nb, m->buf[k], m->len[k])) {
                snprintf(why, sizeof why, "its mem does not fit a fresh state at a step back: %s",
                         bot_init_report(nb)->error);
                bot_disable(nb, why);
                bw->unrebuilt++;
            }
            bot_free(s->bot);
            s->bot = nb;
        }
        s->inited = m->inited[k];
        s->ran = 0;
        /* next tick's world.events as they were (the bot_error event's
         * text lives in the slot: point it there again) */
        s->nev = m->events[k].nev;
        memcpy(s->ev, m->events[k].ev, s->nev * sizeof *s->ev);
        memcpy(s->err_ev, m->events[k].err_ev, sizeof s->err_ev);
        for (size_t e = 0; e < s->nev; e++)
            if (!strcmp(s->ev[e].type, "bot_error"))
                s->ev[e].fields[0].str = s->err_ev;
        s->msg_len = m->events[k].msg_len;
        memcpy(s->msg, m->events[k].msg, s->msg_len);
        s->said_len = 0;
    }
    index_messages(bw);
    return 0;
}

/* Slot k runs `fresh` from now on (taken over either way): 1, 0 when it
 * is the script already running, -1 with *err when it does not load. */
static int reload_slot(struct bot_world *bw, struct world *w, size_t k,
                       struct bot_script *fresh, char **err)
{
    struct slot *s = &bw->slots[k];
    char msg[BOT_ERR_BYTES + 64];
    if (s->puppet || !strcmp(fresh->sha256, s->script.sha256)) {
        bot_script_free(fresh);
        return 0;
    }
    if (bot_reload(s->bot, fresh, msg, sizeof msg)) {
        if (!*err)
            *err = dup_printf2(w->bots.p[k].where, msg);
        bot_script_free(fresh);
        return -1;
    }
    bot_script_free(&s->script);
    s->script = *fresh;
    memcpy(w->bots.p[k].sha256, fresh->sha256, sizeof fresh->sha256);
    if (s->line_tick != w->tick) {      /* its lines: this step's from now */
        clear_lines(s);
        s->line_tick = w->tick;
    }
    add_line(s, s->vehicle, "bot_reload", "bot_sha256", fresh->sha256);
    return 1;
}

int bot_world_reload(struct bot_world *bw, struct world *w, char **err)
{
    *err = NULL;
    int reloaded = 0;
    for (size_t k = 0; bw && k < bw->n; k++) {
        const struct world_bot *wb = &w->bots.p[k];
        struct bot_script fresh;
        char msg[BOT_ERR_BYTES + 64];
        if (bot_script_read(bw->dir, wb->path, &fresh, msg, sizeof msg)) {
            if (!*err)
                *err = dup_printf2(wb->where, msg);
            continue;
        }
        if (reload_slot(bw, w, k, &fresh, err) > 0)
            reloaded++;
    }
    return reloaded;
}

int bot_world_reload_text(struct bot_world *bw, struct world *w, const char *path,
                          const char *text, char **err)
{
    *err = NULL;
    int reloaded = 0;
    for (size_t k = 0; bw && k < bw->n; k++) {
        const struct world_bot *wb = &w->bots.p[k];
        if (strcmp(wb->path, path))
            continue;
        struct bot_script fresh;
        char msg[BOT_ERR_BYTES + 64];
        if (bot_script_from_bytes(wb->path, text, strlen(text), &fresh, msg, sizeof msg)) {
            *err = dup_printf2(wb->where, msg);
            return -1;
        }
        int rc = reload_slot(bw, w, k, &fresh, err);
        if (rc < 0)
            return -1;
        reloaded += rc;
    }
    return reloaded;
}

/* ---- the bots' share of the state hash ------------------------------------ */

uint64_t bot_world_hash(struct bot_world *bw, uint64_t seed)
{
    uint64_t h = seed;
    for (size_t k = 0; bw && k < bw->n; k++) {
        const struct slot *s = &bw->slots[k];
        long long head[3] = { s->vehicle, s->inited, (long long)s->nev };
        h = XXH3_64bits_withSeed(head, sizeof head, h);
        if (s->msg_len)         /* (none: the hash as before messages) */
            h = XXH3_64bits_withSeed(s->msg, s->msg_len, h);
        if (s->puppet)
            continue;           /* no mem here: a replay checks "world" then */
        unsigned char *buf = NULL;
        size_t len = 0;
        char err[BOT_ERR_BYTES];
        if (bot_mem_save(s->bot, &buf, &len, err, sizeof err)) {
            static const char marker[] = "mem: not plain data";
            h = XXH3_64bits_withSeed(marker, sizeof marker, h);
            continue;
        }
        h = XXH3_64bits_withSeed(buf, len, h);
        free(buf);
    }
    return h;
}

int bot_world_new_round(struct bot_world *bw, char *err, size_t n)
{
    struct bot_world_mem m;
    if (bot_world_save(bw, &m, err, n))
        return -1;
    for (size_t k = 0; k < m.n; k++) {
        m.inited[k] = 0;
        m.events[k].nev = 0;
        m.events[k].msg_len = 0;
        m.events[k].run_sha256[0] = 0;  /* a fresh run state */
    }
    int rc = bot_world_restore(bw, &m);
    bot_world_mem_free(&m);
    if (rc)
        snprintf(err, n, "the bots do not match the world");
    return rc;
}

/* ---- process bots (--bot-process) ---------------------------------------- */

/* Set once by the command line, before any attach (the person running
 * botfield names the programs; a map or a recording never does). */
static const struct bot_process *processes;
static size_t nprocesses;
static int process_timeout_ms = 1000;

void bot_world_processes(const struct bot_process *p, size_t n, int timeout_ms)
{
    processes = p;
    nprocesses = n;
    process_timeout_ms = timeout_ms;
}

/* The command for vehicle v of w: by its id, else by its team
 * ("team.NAME"); NULL: none. */
static const char *process_for(const struct world *w, int v)
{
    const struct vehicle *veh = &w->vehicles.p[v];
    for (size_t k = 0; k < nprocesses; k++)
        if (!strcmp(processes[k].who, veh->id))
            return processes[k].command;
    for (size_t k = 0; k < nprocesses; k++)
        if (!strncmp(processes[k].who, "team.", 5) && veh->team >= 0
            && !strcmp(processes[k].who + 5, w->teams.p[veh->team].name))
            return processes[k].command;
    return NULL;
}

int bot_world_is_process(const struct bot_world *bw, int i)
{
    return bw && i >= 0 && (size_t)i < bw->nveh && bw->slot_of[i] >= 0
           && (bw->slots[bw->slot_of[i]].proc != NULL || bw->slots[bw->slot_of[i]].agent);
}

int bot_world_is_agent(const struct bot_world *bw, int i)
{
    return bw && i >= 0 && (size_t)i < bw->nveh && bw->slot_of[i] >= 0
           && bw->slots[bw->slot_of[i]].agent;
}

int bot_world_agent_set(struct bot_world *bw, int i, const struct bot_out *out)
{
    if (!bot_world_is_agent(bw, i))
        return -1;
    bw->slots[bw->slot_of[i]].agent_out = *out;
    return 0;
}

/* Its answer of `tick` when it gave one before (a step back's recompute):
 * NULL when the program is to be asked. */
static const struct proc_kept *kept_answer(const struct slot *s, long tick)
{
    size_t lo = 0, hi = s->nkept;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->kept[mid].tick < tick)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nkept && s->kept[lo].tick == tick ? &s->kept[lo] : NULL;
}

static void keep_answer(struct slot *s, long tick, const struct bot_out *out,
                        const unsigned char *say, size_t say_len)
{
    if (s->nkept && s->kept[s->nkept - 1].tick >= tick)
        return;                 /* (kept already: ticks only grow here) */
    struct proc_kept *k = grow(s->kept, &s->capkept, s->nkept + 1, sizeof *k);
    if (!k)
        return;                 /* (a step back then asks it again) */
    s->kept = k;
    k = &s->kept[s->nkept++];
    k->tick = tick;
    k->out = *out;
    k->say_len = say_len <= sizeof k->say ? say_len : 0;
    memcpy(k->say, say, k->say_len);
}

/* One line to the program and its answer, as a Lua bot's tick: its
 * errors, logs and drawings this step's.  1 with *r filled, 0 when it
 * gave none (late, gone: said as a bot_error). */
static int process_ask(struct slot *s, int i, const char *line, size_t len,
                       const struct bot_view *view, struct proc_reply *r)
{
    const char *ans;
    size_t alen;
    enum proc_answer a = proc_ask(s->proc, line, len, process_timeout_ms, &ans, &alen);
    char lines[PROC_LOG_LINES][PROC_LOG_BYTES + 1], err[BOT_ERR_BYTES];
    /* its standard error's lines: the tick's (an init's wait for it) */
    int dropped, n = view ? proc_log(s->proc, lines, &dropped) : 0;
    for (int k = 0; k < n; k++)
        add_line(s, i, "log", "text", lines[k]);
    _Static_assert(PROC_LOG_BYTES == BOT_LOG_BYTES, "a process's log line is a bot's");
    for (int k = 0; k < n && s->rep.n_log < BOT_LOG_LINES; k++)
        memcpy(s->rep.log[s->rep.n_log++], lines[k], sizeof s->rep.log[0]);
    if (a == PROC_OK) {
        if (!view)
            return 1;
        if (proc_read_reply(ans, alen, view, r, err, sizeof err) == 0)
            return 1;
        add_line(s, i, "bot_error", "error", err);
        snprintf(s->rep.error, sizeof s->rep.error, "%s", err);
        s->errors++;
        return 0;
    }
    if (a == PROC_LATE)
        snprintf(err, sizeof err, "no answer within %d ms (--bot-timeout): this tick is "
                 "abandoned, the defaults used", process_timeout_ms);
    else if (!s->proc_stopped)
        snprintf(err, sizeof err, "the process bot stopped: %s; its vehicle keeps the "
                 "defaults from now on", proc_why(s->proc));
    else
        return 0;
    s->proc_stopped = a != PROC_LATE;
    if (s->proc_stopped) {
        s->rep.disabled = 1;
        snprintf(s->rep.disabled_reason, sizeof s->rep.disabled_reason, "%s", err);
    }
    add_line(s, i, "bot_error", "error", err);
    snprintf(s->rep.error, sizeof s->rep.error, "%s", err);
    s->errors++;
    return 0;
}

/* A process bot's decision: the init line once, then this tick's line;
 * its answer through the same clamps as a Lua bot's out (apply_out). */
static void process_decide(struct bot_world *bw, struct slot *s, const struct decide_view *c,
                           int i, struct decision *d)
{
    const struct world *w = c->w;
    const struct proc_kept *k = kept_answer(s, w->tick);
    struct bot_view view;
    struct call_ctx cc = { w, i, c, d, bw, &view, 0, 0, 0, 0, 0 };
    if (fill_view(bw, s, w, i, d, &view)) {
        c->lane->failed = 1;
        return;
    }
    view_lists(&view, &cc, w);
    static _Thread_local struct proc_reply r;
    struct bot_out out = { 0, view.speed, view.turret, 0, view.radar };
    s->said_len = 0;
    if (k) {
        out = k->out;
        s->said_len = k->say_len;
        memcpy(s->said, k->say, k->say_len);
    } else {
        char *buf = NULL;
        size_t len = 0;
        FILE *f;
        s->rep.n_shapes = s->rep.n_log = 0;
        s->rep.error[0] = s->rep.traceback[0] = 0;
        if (!s->inited && (f = open_memstream(&buf, &len))) {
            s->inited = 1;
            struct bot_tree *trees = malloc((w->trees.n + 1) * sizeof *trees);
            for (size_t t = 0; trees && t < w->trees.n; t++)
                trees[t] = (struct bot_tree){ w->trees.p[t].c.x, w->trees.p[t].c.y,
                                              w->trees.p[t].r };
            proc_init_line(f, &view, trees, trees ? w->trees.n : 0);
            free(trees);
            fclose(f);
            process_ask(s, i, buf, len, NULL, &r);
            free(buf);
            buf = NULL;
            len = 0;
        }
        if ((f = open_memstream(&buf, &len))) {
            proc_tick_line(f, &view);
            fclose(f);
            if (process_ask(s, i, buf, len, &view, &r)) {
                out = r.out;
                s->said_len = r.say_len;
                memcpy(s->said, r.say, r.say_len);
                for (int m = 0; m < r.n_log; m++) {
                    add_line(s, i, "log", "text", r.log[m]);
                    if (s->rep.n_log < BOT_LOG_LINES)
                        memcpy(s->rep.log[s->rep.n_log++], r.log[m], sizeof r.log[m]);
                }
                s->rep.n_shapes = r.n_shapes;
                memcpy(s->rep.shapes, r.shapes, (size_t)r.n_shapes * sizeof *r.shapes);
            }
        }
        free(buf);
        keep_answer(s, w->tick, &out, s->said, s->said_len);
    }
    s->ran = 1;
    apply_out(w, i, c->lane, d, &out);
    keep_intent(s, w->tick, &out, 0, 0);
}
