/* env.c — libbotfield: B worlds of one map stepped with one call
 * (botfield.h; botfield-env(3)).  Each world is a session (session.h),
 * as every mode's is: its agents are bots whose out the caller sets
 * (bot_world_attach_agents), so a recording keeps their intents and the
 * viewer replays an episode exactly. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "env_impl.h"
#include "bot/bot_world.h"
#include "core/observe.h"
#include "core/round.h"
#include "core/tick.h"
#include "io/trace.h"
#include "run/say.h"

#ifndef BOTFIELD_MAPS_DIR
#define BOTFIELD_MAPS_DIR "maps"
#endif

static int fail(struct bf_env *env, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct bf_env *env, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(env->err, sizeof env->err, fmt, ap);
    va_end(ap);
    /* what the run layer said of it (a file's error), kept quiet here */
    const char *said = run_said();
    size_t n = strlen(env->err);
    if (*said && !strstr(env->err, said))
        snprintf(env->err + n, sizeof env->err - n, " (%s)", said);
    run_say_quietly(1);
    return code;
}

/* ---- one world ------------------------------------------------------------ */

static void world_close(struct env_world *e)
{
    if (!e->loaded)
        return;
    /* an episode cut short: its trace ends as the replay of its recording
     * (closed here too) does, with the summary */
    if (e->tr.f) {
        headless_trace_end(&e->tr, &e->w);
        fclose(e->tr.f);
        e->tr.f = NULL;
    }
    if (e->rec.f)
        recording_close(&e->rec, &e->w, e->bots);
    recording_stop(&e->rec);
    memset(&e->rec, 0, sizeof e->rec);
    session_free(&e->s);
    bot_world_free(&e->w, e->bots);
    e->bots = NULL;
    world_free(&e->w);
    e->loaded = 0;
}

/* A world that does not load: out of memory (the loaders say so; a text
 * that loaded once loads again unless memory ran out), or the map's or a
 * bot's problem. */
static int oom_or_map(const char *why)
{
    return !why || strstr(why, "out of memory") || strstr(why, "not enough memory")
        ? BF_E_NOMEM : BF_E_MAP;
}

/* World e from the map's text with `seed`, its agents' bots attached. */
static int world_open(struct bf_env *env, struct env_world *e, uint64_t seed)
{
    struct map_options opt = { 1, seed, 0, env->sets, env->nset };
    struct map_error me = { NULL, 0 };
    const char *name = env->map_path ? env->map_path : "default.ini";
    /* (the map read once, once the agents' settings are known: a reset
     * builds a world without reading the text again) */
    if (env->kept ? map_kept_build(env->kept, &opt, &e->w, &me)
                  : map_load_text(name, env->text, env->len, &opt, &e->w, &me)) {
        int code = oom_or_map(me.text);
        fail(env, code, "%s", me.text ? me.text : "the map does not load");
        map_error_free(&me);
        return code;
    }
    if (env->map_path && !(e->w.map_path = strdup(env->map_path))) {
        world_free(&e->w);
        return fail(env, BF_E_NOMEM, "out of memory");
    }
    char *err = NULL;
    if (bot_world_attach_agents(&e->w, BOTFIELD_MAPS_DIR, ENV_AGENT_BOT, &e->bots, &err)) {
        int code = oom_or_map(err);
        fail(env, code, "%s", err ? err : "out of memory");
        free(err);
        world_free(&e->w);
        return code;
    }
    e->loaded = 1;
    e->seed = seed;
    e->done = 0;
    e->stepped = 0;
    session_init(&e->s, &e->w, &e->bots);
    memset(e->last, 0, (size_t)env->A * sizeof *e->last);
    return BF_OK;
}

/* The episode is over: won or lost, or its match's last round. */
static int episode_over(const struct world *w)
{
    return w->rounds > 1 ? round_match_over(w) : w->ended;
}

/* The map's duration ran out (a match of rounds runs to its end). */
static int time_up(const struct world *w)
{
    return w->rounds <= 1 && w->tick >= lround(w->duration * w->tick_rate);
}

/* ---- the agents ------------------------------------------------------------ */

static int add_set(struct bf_env *env, const char *key, const char *value)
{
    char *k = strdup(key), *v = strdup(value);
    char **m = realloc(env->set_mem, (size_t)(env->nset_mem + 2) * sizeof *m);
    if (m)
        env->set_mem = m;
    struct map_set *s = realloc(env->sets, (size_t)(env->nset + 1) * sizeof *s);
    if (s)
        env->sets = s;
    if (!k || !v || !m || !s) {
        free(k);
        free(v);
        return -1;
    }
    m[env->nset_mem++] = k;
    m[env->nset_mem++] = v;
    s[env->nset++] = (struct map_set){ k, v };
    return 0;
}

/* Does agents' item name vehicle v (its id, or team.NAME of its team)? */
static int names(const struct world *w, const struct vehicle *v, const char *item, size_t n)
{
    if (strlen(v->id) == n && !strncmp(v->id, item, n))
        return 1;
    return n > 5 && !strncmp(item, "team.", 5) && v->team >= 0
        && strlen(w->teams.p[v->team].name) == n - 5
        && !strncmp(w->teams.p[v->team].name, item + 5, n - 5);
}

/* The agents named in `list` (NULL or "": the player tank), in vehicle
 * order, into env->veh and env->ids; their bot keys into env->sets. */
static int pick_agents(struct bf_env *env, const struct world *w, const char *list)
{
    size_t nv = w->vehicles.n;
    char *pick = calloc(nv ? nv : 1, 1);
    if (!pick)
        return fail(env, BF_E_NOMEM, "out of memory");
    if (!list || !*list) {
        if (w->player.vehicle < 0) {
            free(pick);
            return fail(env, BF_E_AGENT, "agents: none named, and the map has no player "
                        "tank (name vehicles, as tank.ID or team.NAME, comma-separated)");
        }
        pick[w->player.vehicle] = 1;
    }
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        int hit = 0;
        int team = n > 5 && !strncmp(p, "team.", 5);
        for (size_t i = 0; i < nv; i++)
            if (names(w, &w->vehicles.p[i], p, n)) {
                hit = 1;
                pick[i] |= team ? 2 : 1;
            }
        /* a team's bot key reaches its tanks without a section (random = N) */
        char key[256];
        snprintf(key, sizeof key, "%.*s.bot", (int)(n < 200 ? n : 200), p);
        if (hit && team && add_set(env, key, ENV_AGENT_BOT)) {
            free(pick);
            return fail(env, BF_E_NOMEM, "out of memory");
        }
        if (!hit) {
            free(pick);
            return fail(env, BF_E_AGENT, "agents: '%.*s' names no vehicle of the map (a "
                        "vehicle's id, as tank.ID, or team.NAME)", (int)(n > 200 ? 200 : n), p);
        }
        p += n + (p[n] == ',');
    }
    env->A = 0;
    for (size_t i = 0; i < nv; i++)
        env->A += pick[i] != 0;
    env->veh = calloc((size_t)env->A, sizeof *env->veh);
    env->ids = calloc((size_t)env->A, sizeof *env->ids);
    if (!env->veh || !env->ids) {
        free(pick);
        return fail(env, BF_E_NOMEM, "out of memory");
    }
    char key[256];
    int a = 0;
    for (size_t i = 0; i < nv; i++) {
        if (!pick[i])
            continue;
        env->veh[a] = (int)i;
        if (!(env->ids[a++] = strdup(w->vehicles.p[i].id)))
            return free(pick), fail(env, BF_E_NOMEM, "out of memory");
        snprintf(key, sizeof key, "%s.bot", w->vehicles.p[i].id);
        /* named by its team alone: the team's key (its own section, if it
         * overrides it, is set by check_agents) */
        int rc = pick[i] & 1 ? add_set(env, key, ENV_AGENT_BOT) : 0;
        /* a player tank takes the keyboard's intents: the agent's instead */
        if (!rc && (int)i == w->player.vehicle) {
            snprintf(key, sizeof key, "%s.player", w->vehicles.p[i].id);
            rc = add_set(env, key, "false");
        }
        if (rc)
            return free(pick), fail(env, BF_E_NOMEM, "out of memory");
    }
    free(pick);
    return BF_OK;
}

/* The caller's --set lines, split at their first '='. */
/* Every agent is driven by the caller in a world built with the sets: a
 * vehicle of an agent team whose own section names a bot of its own gets
 * the agent's key too (with fix; else: an error). */
static int check_agents(struct bf_env *env, int fix)
{
    struct env_world e;
    memset(&e, 0, sizeof e);
    if (!(e.last = calloc((size_t)env->A, sizeof *e.last)))
        return fail(env, BF_E_NOMEM, "out of memory");
    int rc = world_open(env, &e, 0), again = 0;
    for (int a = 0; !rc && a < env->A; a++) {
        if (bot_world_is_agent(e.bots, env->veh[a]))
            continue;
        char key[256];
        snprintf(key, sizeof key, "%s.bot", env->ids[a]);
        if (!fix)
            rc = fail(env, BF_E_AGENT, "agents: %s cannot be driven (its bot key is not the "
                      "agent's)", env->ids[a]);
        else if (add_set(env, key, ENV_AGENT_BOT))
            rc = fail(env, BF_E_NOMEM, "out of memory");
        again = 1;
    }
    world_close(&e);
    free(e.last);
    return rc ? rc : again && fix ? check_agents(env, 0) : BF_OK;
}

static int caller_sets(struct bf_env *env, const struct bf_config *c)
{
    for (int k = 0; k < c->nset; k++) {
        const char *eq = c->set[k] ? strchr(c->set[k], '=') : NULL;
        if (!eq || eq == c->set[k])
            return fail(env, BF_E_ARG, "set %d: '%.200s' is not SECTION.KEY=VALUE", k,
                        c->set[k] ? c->set[k] : "(null)");
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - c->set[k] < 255 ? eq - c->set[k] : 255),
                 c->set[k]);
        if (add_set(env, key, eq + 1))
            return fail(env, BF_E_NOMEM, "out of memory");
    }
    return BF_OK;
}

/* ---- the env ----------------------------------------------------------------- */

static int check_config(struct bf_env *env, const struct bf_config *c)
{
    if (c->worlds < 1 || c->worlds > BF_MAX_WORLDS)
        return fail(env, BF_E_ARG, "worlds = %d: from 1 to %d", c->worlds, BF_MAX_WORLDS);
    if (c->nearest < -1 || c->nearest > BF_MAX_NEAREST)
        return fail(env, BF_E_ARG, "nearest = %d: from 0 to %d (-1: 4)", c->nearest,
                    BF_MAX_NEAREST);
    if (c->rays < -1 || c->rays > BF_MAX_RAYS)
        return fail(env, BF_E_ARG, "rays = %d: from 0 to %d (-1: 8)", c->rays, BF_MAX_RAYS);
    if (c->nset < 0 || (c->nset > 0 && !c->set) || c->nset > 256)
        return fail(env, BF_E_ARG, "nset = %d: from 0 to 256, with set given", c->nset);
    /* a reward is a float: a weight beyond 1e30 would score +-inf */
    for (int k = 0; c->weights && k < 4; k++)
        if (!(fabs(c->weights[k]) <= 1e30))
            return fail(env, BF_E_ARG, "weights[%d] = %g: a finite number from -1e30 to 1e30",
                        k, c->weights[k]);
    return BF_OK;
}

static int open_env(struct bf_env *env, const struct bf_config *c)
{
    int rc = check_config(env, c);
    if (rc)
        return rc;
    env->B = c->worlds;
    env->K = c->nearest < 0 ? 4 : c->nearest;
    env->R = c->rays < 0 ? 8 : c->rays;
    env->O = observe_size(env->K, env->R);
    env->auto_reset = c->auto_reset != 0;
    static const double score_weights[4] = { SCORE_DAMAGE, SCORE_KILL, SCORE_SURVIVAL,
                                             SCORE_LAST };
    memcpy(env->weights, c->weights ? c->weights : score_weights, sizeof env->weights);
    if ((rc = caller_sets(env, c)))
        return rc;
    struct world w;
    struct map_error me = { NULL, 0 };
    struct map_options opt = { 0, 0, 0, env->sets, env->nset };
    if (c->map) {
        if (!(env->map_path = strdup(c->map)))
            return fail(env, BF_E_NOMEM, "out of memory");
        if (map_load_kept(c->map, &opt, &w, &me, &env->text)) {
            fail(env, BF_E_MAP, "%s", me.text ? me.text : "the map does not load");
            map_error_free(&me);
            return BF_E_MAP;
        }
        env->len = strlen(env->text);
    } else {
        if (!(env->text = malloc(map_default_len + 1)))
            return fail(env, BF_E_NOMEM, "out of memory");
        memcpy(env->text, map_default_text, map_default_len);
        env->text[env->len = map_default_len] = 0;
        if (map_load_text("default.ini", env->text, env->len, &opt, &w, &me)) {
            fail(env, BF_E_MAP, "%s", me.text ? me.text : "the map does not load");
            map_error_free(&me);
            return BF_E_MAP;
        }
    }
    rc = pick_agents(env, &w, c->agents);
    world_free(&w);
    if (rc || (rc = check_agents(env, 1)))
        return rc;
    struct map_options kopt = { 0, 0, 0, env->sets, env->nset };
    if (map_keep_text(env->map_path ? env->map_path : "default.ini", env->text, env->len, &kopt,
                      &env->kept, &me)) {
        rc = fail(env, oom_or_map(me.text), "%s", me.text ? me.text : "the map does not load");
        map_error_free(&me);
        return rc;
    }
    env->worlds = calloc((size_t)env->B, sizeof *env->worlds);
    if (!env->worlds)
        return fail(env, BF_E_NOMEM, "out of memory: %d worlds", env->B);
    for (int b = 0; b < env->B; b++)
        if (!(env->worlds[b].last = calloc((size_t)env->A, sizeof *env->worlds[b].last)))
            return fail(env, BF_E_NOMEM, "out of memory: %d worlds", env->B);
    for (int b = 0; b < env->B; b++)
        if ((rc = world_open(env, &env->worlds[b], (uint64_t)b)))
            return rc;
    return BF_OK;
}

int bf_open(const struct bf_config *c, struct bf_env **out, char *err, size_t errlen)
{
    run_say_quietly(1);         /* (a library writes on no terminal) */
    if (out)
        *out = NULL;
    if (err && errlen)
        err[0] = 0;
    if (!c || !out) {
        if (err && errlen)
            snprintf(err, errlen, "bf_open: the config and out are required");
        return BF_E_ARG;
    }
    struct bf_env *env = calloc(1, sizeof *env);
    if (!env) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        return BF_E_NOMEM;
    }
    int rc = open_env(env, c);
    if (rc) {
        if (err && errlen)
            snprintf(err, errlen, "%s", env->err);
        bf_close(env);
        return rc;
    }
    *out = env;
    return BF_OK;
}

void bf_close(struct bf_env *env)
{
    run_say_quietly(1);         /* (a library writes on no terminal) */
    if (!env)
        return;
    for (int b = 0; env->worlds && b < env->B; b++) {
        world_close(&env->worlds[b]);
        free(env->worlds[b].last);
    }
    free(env->worlds);
    for (int k = 0; k < env->nset_mem; k++)
        free(env->set_mem[k]);
    free(env->set_mem);
    free(env->sets);
    for (int a = 0; env->ids && a < env->A; a++)
        free(env->ids[a]);
    free(env->ids);
    free(env->veh);
    free(env->text);
    map_kept_free(env->kept);
    free(env->map_path);
    free(env);
}

int bf_worlds(const struct bf_env *env) { return env ? env->B : BF_E_ARG; }
int bf_agents(const struct bf_env *env) { return env ? env->A : BF_E_ARG; }
int bf_obs_size(const struct bf_env *env) { return env ? env->O : BF_E_ARG; }

const char *bf_agent_id(const struct bf_env *env, int a)
{
    return env && a >= 0 && a < env->A ? env->ids[a] : NULL;
}

const char *bf_agent_team(const struct bf_env *env, int a)
{
    if (!env || a < 0 || a >= env->A)
        return NULL;
    /* the same in every world: the first with an episode says it */
    for (int b = 0; b < env->B; b++) {
        if (!env->worlds[b].loaded)
            continue;
        const struct world *w = &env->worlds[b].w;
        const struct vehicle *v = world_vehicle(w, env->veh[a]);
        return v->team >= 0 ? w->teams.p[v->team].name : "";
    }
    return NULL;
}

const char *bf_error(const struct bf_env *env)
{
    return env ? env->err : "no env";
}

_Static_assert(BF_OWN == OBSERVE_OWN && BF_ENEMY == OBSERVE_ENEMY && BF_SHELL == OBSERVE_SHELL
               && BF_MAX_NEAREST == OBSERVE_MAX_NEAREST && BF_MAX_RAYS == OBSERVE_MAX_RAYS,
               "the library's observation is the core's");

static void observe_world(const struct bf_env *env, struct env_world *e, float *obs)
{
    /* what the agents will see when they next decide: that tick's sight,
     * sensed now (and kept by it), and its number (a bot's time left) */
    tick_sense_ahead(&e->w);
    e->w.tick++;
    for (int a = 0; a < env->A; a++)
        observe_vehicle(&e->w, env->veh[a], env->K, env->R, obs + (size_t)a * (size_t)env->O);
    e->w.tick--;
}

static int reset_one(struct bf_env *env, int b, uint64_t seed, float *obs)
{
    struct env_world *e = &env->worlds[b];
    world_close(e);
    e->end_tick = 0;
    int rc = world_open(env, e, seed);
    if (!rc && obs)
        observe_world(env, e, obs + (size_t)b * (size_t)env->A * (size_t)env->O);
    if (rc) {
        /* which world: a reset of every world stops at the first failing,
         * the ones before it reset, the ones after it as they were */
        char msg[sizeof env->err];
        snprintf(msg, sizeof msg, "%s", env->err);
        fail(env, rc, "world %d: %s", b, msg);
    }
    return rc;
}

int bf_reset(struct bf_env *env, int b, uint64_t seed, float *obs)
{
    run_say_quietly(1);         /* (a library writes on no terminal) */
    if (!env)
        return BF_E_ARG;
    if (b < -1 || b >= env->B)
        return fail(env, BF_E_ARG, "world %d: from 0 to %d (-1: every world)", b, env->B - 1);
    env->err[0] = 0;
    for (int k = b < 0 ? 0 : b; k < (b < 0 ? env->B : b + 1); k++) {
        int rc = reset_one(env, k, b < 0 ? seed + (uint64_t)k : seed, obs);
        if (rc)
            return rc;
    }
    return BF_OK;
}

/* ---- a step ------------------------------------------------------------------ */

static const char *const action_names[BF_ACTIONS] = { "turn", "speed", "turret", "fire",
                                                      "radar" };

static int check_actions(struct bf_env *env, const float *act)
{
    size_t n = (size_t)env->B * (size_t)env->A * BF_ACTIONS;
    for (size_t k = 0; k < n; k++) {
        if (isfinite(act[k]) && act[k] >= -1.0f && act[k] <= 1.0f)
            continue;
        size_t per = (size_t)env->A * BF_ACTIONS;
        int b = (int)(k / per), a = (int)(k % per / BF_ACTIONS), j = (int)(k % BF_ACTIONS);
        return fail(env, BF_E_ACTION, "world %d, agent %d (%s), action %d (%s) = %g: each "
                    "action is a finite number in [-1, 1]; nothing was stepped", b, a,
                    env->ids[a], j, action_names[j], (double)act[k]);
    }
    for (int b = 0; b < env->B; b++)
        if (!env->worlds[b].loaded)
            return fail(env, BF_E_STATE, "world %d has no episode (its last reset failed): "
                        "reset it; nothing was stepped", b);
    for (int b = 0; b < env->B; b++)
        if (env->worlds[b].done && !env->auto_reset)
            return fail(env, BF_E_DONE, "world %d: its episode is over (tick %ld): reset it "
                        "first (bf_reset), or open with auto_reset; nothing was stepped", b,
                        env->worlds[b].w.tick);
    return BF_OK;
}

static float reward_of(const struct bf_env *env, struct env_world *e, int a)
{
    struct score_sum now = score_vehicle(&e->w, world_vehicle(&e->w, env->veh[a]));
    struct score_sum *was = &e->last[a];
    double r = env->weights[0] * (double)(now.damage - was->damage)
             + env->weights[1] * (double)(now.kills - was->kills)
             + env->weights[2] * (double)(now.survival - was->survival)
             + env->weights[3] * (double)(now.last - was->last);
    *was = now;
    return (float)r;
}

/* The episode of e ended: its recording and trace closed. */
static int episode_end(struct bf_env *env, struct env_world *e, int b)
{
    int rc = BF_OK;
    if (e->tr.f) {
        if (headless_trace_end(&e->tr, &e->w) | (fclose(e->tr.f) != 0))
            rc = fail(env, BF_E_RECORD, "world %d: the trace cannot be written: %s", b,
                      strerror(errno));
        e->tr.f = NULL;
    }
    if (e->rec.f && session_finish(&e->s))
        rc = fail(env, BF_E_RECORD, "world %d: the recording cannot be written", b);
    return rc;
}

static int step_world(struct bf_env *env, int b, const float *act, float *obs, float *rew,
                      uint8_t *dones)
{
    struct env_world *e = &env->worlds[b];
    size_t base = (size_t)b * (size_t)env->A;
    for (int a = 0; a < env->A; a++) {
        const float *x = act + (base + (size_t)a) * BF_ACTIONS;
        double ad[BF_ACTIONS] = { x[0], x[1], x[2], x[3], x[4] };
        struct bot_out o = bot_out_of_action(&e->w, env->veh[a], ad);
        bot_world_agent_set(e->bots, env->veh[a], &o);
    }
    int r, round = e->w.round;
    do
        r = session_step(&e->s);
    while (r == SESSION_NEW_WORLD);
    /* a match's next round began: its scores start again from zero */
    if (e->w.round != round)
        memset(e->last, 0, (size_t)env->A * sizeof *e->last);
    if (r == SESSION_FAILED)
        return fail(env, BF_E_NOMEM, "world %d: the step failed (out of memory, or the "
                    "match's next round cannot start)", b);
    e->stepped++;
    int rc = BF_OK;
    if (e->tr.f && headless_trace_tick(&e->tr, &e->w, e->bots)) {
        const char *why = trace_error() ? trace_error() : strerror(errno);
        fclose(e->tr.f);
        e->tr.f = NULL;
        rc = fail(env, BF_E_RECORD, "world %d: the trace cannot be written: %s", b, why);
    }
    if (e->s.news.rec_failed)
        rc = fail(env, BF_E_RECORD, "world %d: the recording cannot be written", b);
    int over = episode_over(&e->w), up = !over && time_up(&e->w);
    for (int a = 0; a < env->A; a++) {
        if (rew)
            rew[base + (size_t)a] = reward_of(env, e, a);
        /* knocked out: done, but in a match of rounds it plays the next
         * round, so only the match's end is its end */
        int out = !world_vehicle(&e->w, env->veh[a])->alive && e->w.rounds <= 1;
        if (dones)
            dones[base + (size_t)a] = (uint8_t)((over || out ? BF_TERMINATED : 0)
                                                | (up ? BF_TRUNCATED : 0));
    }
    if (over || up) {
        e->done = 1;
        const char *team = "";
        if (bf_winner(env, b, &team, &e->end_tick))
            e->end_tick = e->w.tick;    /* (out of memory: no winner named) */
        snprintf(e->winner, sizeof e->winner, "%s", team);
        int erc = episode_end(env, e, b);
        if (!rc)
            rc = erc;
        if (env->auto_reset) {
            long end = e->end_tick;
            int rrc = reset_one(env, b, e->seed + (uint64_t)env->B, NULL);
            e->end_tick = end;
            if (rrc)
                return rrc;
        }
    }
    if (obs)
        observe_world(env, e, obs + base * (size_t)env->O);
    return rc;
}

int bf_step(struct bf_env *env, const float *actions, float *obs, float *rewards,
            uint8_t *dones)
{
    run_say_quietly(1);         /* (a library writes on no terminal) */
    if (!env)
        return BF_E_ARG;
    if (!actions)
        return fail(env, BF_E_ARG, "bf_step: actions are required (%zu floats)",
                    (size_t)env->B * (size_t)env->A * BF_ACTIONS);
    int rc = check_actions(env, actions);
    if (rc)
        return rc;
    env->err[0] = 0;
    int first = BF_OK;
    for (int b = 0; b < env->B; b++) {
        rc = step_world(env, b, actions, obs, rewards, dones);
        /* a world that could not step says so before a recording that
         * could not be written (the worlds stepped) */
        if (rc && (!first || first == BF_E_RECORD))
            first = rc;
    }
    return first;
}

/* ---- recording and trace -------------------------------------------------- */

static int fresh_world(struct bf_env *env, int b, const char *file)
{
    if (!env)
        return BF_E_ARG;
    if (b < 0 || b >= env->B || !file)
        return fail(env, BF_E_ARG, "world %d: from 0 to %d, with a file", b, env->B - 1);
    if (!env->worlds[b].loaded)
        return fail(env, BF_E_STATE, "world %d has no episode (its last reset failed)", b);
    if (env->worlds[b].stepped)
        return fail(env, BF_E_STATE, "world %d: already stepped %d ticks: record or trace "
                    "an episode from its start (right after bf_reset)", b,
                    env->worlds[b].stepped);
    return BF_OK;
}

int bf_record(struct bf_env *env, int b, const char *file)
{
    run_say_quietly(1);         /* (a library writes on no terminal) */
    int rc = fresh_world(env, b, file);
    if (rc)
        return rc;
    struct env_world *e = &env->worlds[b];
    if (e->rec.f)
        return fail(env, BF_E_STATE, "world %d is being recorded already", b);
    if (recording_open(&e->rec, file, &e->w, e->bots, env->map_path, env->text, env->sets,
                       env->nset))
        return fail(env, BF_E_RECORD, "world %d: cannot write the recording %s: %s", b, file,
                    strerror(errno));
    e->rec.intents = 1;
    e->s.rec = &e->rec;
    return BF_OK;
}

int bf_trace(struct bf_env *env, int b, const char *file)
{
    run_say_quietly(1);         /* (a library writes on no terminal) */
    int rc = fresh_world(env, b, file);
    if (rc)
        return rc;
    struct env_world *e = &env->worlds[b];
    if (e->tr.f)
        return fail(env, BF_E_STATE, "world %d has a trace already", b);
    FILE *f = fopen(file, "w");
    if (!f)
        return fail(env, BF_E_RECORD, "world %d: cannot write the trace %s: %s", b, file,
                    strerror(errno));
    if (headless_trace_begin(f, &e->w, &e->tr)) {
        fclose(f);
        e->tr.f = NULL;
        return fail(env, BF_E_RECORD, "world %d: cannot write the trace %s", b, file);
    }
    return BF_OK;
}

int bf_winner(const struct bf_env *env, int b, const char **team, long *tick)
{
    if (!env || b < 0 || b >= env->B)
        return BF_E_ARG;
    const struct env_world *e = &env->worlds[b];
    if (!e->loaded)
        return BF_E_STATE;
    if (e->end_tick > 0 && e->stepped == 0) {
        /* just reset by auto_reset: the episode that ended */
        if (team)
            *team = e->winner;
        if (tick)
            *tick = e->end_tick;
        return BF_OK;
    }
    const struct world *w = &e->w;
    int win = w->winner;
    /* stopped with two teams alive: the team of the highest score wins */
    if (!w->ended && w->teams.n > 0) {
        struct score_sum *sums = calloc(w->teams.n, sizeof *sums);
        if (!sums)
            return BF_E_NOMEM;
        score_teams(w, sums);
        win = score_winner(w, sums);
        free(sums);
    }
    if (team)
        *team = win >= 0 ? w->teams.p[win].name : "";
    if (tick)
        *tick = w->tick;
    return BF_OK;
}
