/* replay_run.c — a recording recomputed and checked (replay_run.h). */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_run.h"
#include "core/player.h"
#include "recording.h"
#include "bot/bot_world.h"
#include "core/world.h"
#include "io/map.h"
#include "io/tune.h"
#include "core/state_hash.h"

_Static_assert(REPLAY_SAY_MAX == BOT_SAY_ENCODED, "an intent's say holds what out.say may");

/* ---- the intents ----------------------------------------------------------- */

/* The recording's intent lines as the bots read them.  0, or -1 out of
 * memory. */
static int make_intents(struct replay_run *run)
{
    const struct replay *rp = &run->rp;
    size_t n = 0;
    for (size_t k = 0; k < rp->n; k++)
        n += rp->lines[k].type == RL_INTENT;
    if (!n)
        return 0;
    run->intents = malloc(n * sizeof *run->intents);
    run->iline = malloc(n * sizeof *run->iline);
    if (!run->intents || !run->iline)
        return -1;
    for (size_t k = 0; k < rp->n; k++) {
        const struct replay_line *l = &rp->lines[k];
        if (l->type != RL_INTENT)
            continue;
        struct bot_intent in = { l->turn, l->speed, l->turret, l->fire, l->radar,
                                 l->has_race, l->race_turn, l->say, l->say_len };
        run->intents[run->nintents] = (struct bot_intent_at){ l->tick, l->id, in };
        run->iline[run->nintents++] = k;
    }
    return 0;
}

static void forget_intents(struct replay_run *run)
{
    free(run->intents);
    free(run->iline);
    run->intents = NULL;
    run->iline = NULL;
    run->nintents = 0;
}

/* The intents of the map that line l loads (NULL: the header's), up to
 * the next reload. */
static struct bot_intents intents_of(const struct replay_run *run,
                                     const struct replay_line *l)
{
    size_t from = l ? (size_t)(l - run->rp.lines) + 1 : 0, to = from;
    while (to < run->rp.n && run->rp.lines[to].type != RL_RELOAD)
        to++;
    size_t a = 0;
    while (a < run->nintents && run->iline[a] < from)
        a++;
    size_t b = a;
    while (b < run->nintents && run->iline[b] < to)
        b++;
    return (struct bot_intents){ b - a, run->intents + a, run->stream };
}

/* ---- the scripts known so far ------------------------------------------- */

static int know_script(struct replay_run *run, const char *path, const char *text,
                       const char *sha)
{
    for (size_t k = 0; k < run->ns; k++)
        if (!strcmp(run->spath[k], path)) {
            run->stext[k] = text;
            run->ssha[k] = sha;
            return 0;
        }
    const char **p = realloc(run->spath, (run->ns + 1) * sizeof *p);
    if (!p)
        return -1;
    run->spath = p;
    const char **t = realloc(run->stext, (run->ns + 1) * sizeof *t);
    if (!t)
        return -1;
    run->stext = t;
    const char **h = realloc(run->ssha, (run->ns + 1) * sizeof *h);
    if (!h)
        return -1;
    run->ssha = h;
    run->spath[run->ns] = path;
    run->ssha[run->ns] = sha;
    run->stext[run->ns++] = text;
    return 0;
}

static void forget_scripts(struct replay_run *run)
{
    free(run->spath);
    free(run->stext);
    free(run->ssha);
    run->spath = run->stext = run->ssha = NULL;
}

static void say(char *msg)
{
    fputs(msg ? msg : "botfield: out of memory\n", stderr);
    free(msg);
}

/* A map of the recording (the header's or a reload's) into *w with its
 * bots from the scripts known: 0, or 2 with the message said. */
static int build(struct replay_run *run, const struct replay_line *l, struct world *w,
                 struct bot_world **bots)
{
    const char *mp = run->rp.map_path;
    /* The header's seed; a reload's own, or without one the map's. */
    struct map_options opt = { 1, run->rp.seed, 0, run->sets, run->rp.nset };
    if (l)
        opt = (struct map_options){ l->has_seed, l->seed, 0, run->sets, run->rp.nset };
    long line = l ? l->line : 1;
    const char *text = l ? l->text : run->rp.map_text;
    struct map_error err = { NULL, 0 };
    if (map_load_text(*mp ? mp : "default.ini", text, strlen(text), &opt, w, &err)) {
        char *m = replay_msg(run->file, line, "its map does not load:");
        if (m)
            fprintf(stderr, "botfield: %s%s", m, err.text ? err.text : "");
        free(m);
        map_error_free(&err);
        return 2;
    }
    if (*mp && !(w->map_path = strdup(mp))) {
        world_free(w);
        say(NULL);
        return 2;
    }
    struct bot_texts src = { run->ns, run->spath, run->stext };
    struct bot_intents in = intents_of(run, l);
    char *berr = NULL;
    if (in.n || in.open ? bot_world_attach_intents(w, &src, &in, bots, &berr)
             : bot_world_attach_texts(w, &src, bots, &berr)) {
        char *m = replay_msg(run->file, line, "its map's bots do not load: %s",
                             berr ? berr : "out of memory");
        free(berr);
        world_free(w);
        fputs("botfield: ", stderr);
        say(m);
        return 2;
    }
    return 0;
}

/* One bot_source line: its path follows the map's rules and its text is
 * what its SHA-256 says.  0, or 2 said. */
static int check_source(struct replay_run *run, const struct replay_line *l)
{
    char msg[512];
    struct bot_script s;
    if (bot_script_check_path(l->path, msg, sizeof msg)
        || bot_script_from_bytes(l->path, l->text, strlen(l->text), &s, msg, sizeof msg)) {
        fputs("botfield: ", stderr);
        say(replay_msg(run->file, l->line, "bot_source: %s (a script's path is the map's: "
                       "relative, inside the map's folder, ending in .lua)", msg));
        return 2;
    }
    int same = !strcmp(s.sha256, l->sha256);
    bot_script_free(&s);
    if (!same) {
        fputs("botfield: ", stderr);
        say(replay_msg(run->file, l->line, "bot_source '%s': the text's SHA-256 is not "
                       "the line's sha256; the text must be the script the line names",
                       l->path));
        return 2;
    }
    return know_script(run, l->path, l->text, l->sha256) ? (say(NULL), 2) : 0;
}

static int check_input(struct replay_run *run, const struct replay_line *l,
                       const struct world *w)
{
    int i = world_find_vehicle(w, l->id);
    if (i >= 0 && i == w->player.vehicle)
        return 0;
    fputs("botfield: ", stderr);
    if (i < 0)
        say(replay_msg(run->file, l->line, "input for \"%.64s\": the map has no such "
                       "vehicle; an input names a vehicle's id (tank.NAME, car.NAME, ...)",
                       l->id));
    else
        say(replay_msg(run->file, l->line, "input for \"%.64s\": not the map's player "
                       "tank; an input drives the tank with player = true", l->id));
    return 2;
}

/* An intent line names a vehicle with a bot, and its say is a value a
 * bot can read (out.say's encoding).  0, or 2 said. */
static int check_intent(struct replay_run *run, const struct replay_line *l,
                        const struct world *w)
{
    int i = world_find_vehicle(w, l->id);
    int has_bot = 0;
    for (size_t k = 0; i >= 0 && k < w->bots.n; k++)
        has_bot |= w->bots.p[k].vehicle == i;
    const char *why = i < 0 ? "the map has no such vehicle; an intent names a vehicle's id "
                              "(tank.NAME, ...)"
                    : !has_bot ? "that vehicle has no bot (no bot = in its section)" : NULL;
    if (!why && l->say_len) {
        FILE *f = fopen("/dev/null", "w");
        if (!f || bot_value_json(f, l->say, l->say_len))
            why = "its say is not a value out.say could hold (encoded as a bot says it)";
        if (f)
            fclose(f);
    }
    if (!why)
        return 0;
    fputs("botfield: ", stderr);
    say(replay_msg(run->file, l->line, "intent for \"%.64s\": %s", l->id, why));
    return 2;
}

/* A bot_reload line (a note of the bot_source line before it, which the
 * replay applies): it names a vehicle with a bot of the world it will
 * meet, and the script that bot runs by then.  0, or 2 said. */
static int check_bot_reload(struct replay_run *run, const struct replay_line *l,
                            const struct world *w)
{
    int i = world_find_vehicle(w, l->id);
    const struct world_bot *wb = NULL;
    for (size_t k = 0; i >= 0 && k < w->bots.n && !wb; k++)
        if (w->bots.p[k].vehicle == i)
            wb = &w->bots.p[k];
    const char *sha = NULL;
    for (size_t k = 0; wb && k < run->ns && !sha; k++)
        if (!strcmp(run->spath[k], wb->path))
            sha = run->ssha[k];
    if (sha && !strcmp(sha, l->sha256))
        return 0;
    fputs("botfield: ", stderr);
    if (i < 0)
        say(replay_msg(run->file, l->line, "bot_reload for \"%.64s\": the map has no such "
                       "vehicle; a bot_reload names a vehicle's id (tank.NAME, ...)", l->id));
    else if (!wb)
        say(replay_msg(run->file, l->line, "bot_reload for \"%.64s\": that vehicle has no "
                       "bot (no bot = in its section)", l->id));
    else
        say(replay_msg(run->file, l->line, "bot_reload for \"%.64s\": its bot_sha256 is "
                       "not the SHA-256 of %s as the recording has it by then; a "
                       "bot_reload follows the bot_source line of the script it names",
                       l->id, wb->path));
    return 2;
}

/* A tune line: its section and key are the world's and tunable, its
 * value is one the map could have.  0, or 2 said. */
static int check_tune(struct replay_run *run, const struct replay_line *l,
                      const struct world *w)
{
    char msg[512];
    struct tune_key t;
    const char *file = *run->rp.map_path ? run->rp.map_path : "default.ini";
    if (tune_resolve(w, file, l->section, l->key, &t, msg, sizeof msg) == 0
        && tune_check(w, file, &t, l->value, msg, sizeof msg) == 0)
        return 0;
    fputs("botfield: ", stderr);
    say(replay_msg(run->file, l->line, "tune: %s", msg));
    return 2;
}

/* Every line that needs a world, checked against the world it will meet:
 * each map loads with its bots, each input names a vehicle.  The first
 * world (and its bots) is kept: the run starts from it. */
static int preflight(struct replay_run *run, struct world *first)
{
    const struct replay *rp = &run->rp;
    size_t k = 0;
    for (; k < rp->n && rp->lines[k].type == RL_BOT_SOURCE && rp->lines[k].tick < 0; k++)
        if (check_source(run, &rp->lines[k]))
            return 2;
    run->next = k;
    int rc = build(run, NULL, first, &run->bots);
    if (rc)
        return rc;
    /* The scripts at the start, to come back to after the check. */
    size_t start_ns = run->ns;
    const char **start_text = malloc((start_ns ? start_ns : 1) * 2 * sizeof *start_text);
    if (!start_text)
        rc = 2;
    else if (start_ns) {
        memcpy(start_text, run->stext, start_ns * sizeof *start_text);
        memcpy(start_text + start_ns, run->ssha, start_ns * sizeof *start_text);
    }
    struct world later;
    struct bot_world *later_bots = NULL;
    const struct world *cur = first;
    int have_later = 0;
    for (; k < rp->n && rc == 0; k++) {
        const struct replay_line *l = &rp->lines[k];
        if (l->type == RL_BOT_SOURCE)
            rc = check_source(run, l);
        else if (l->type == RL_INPUT)
            rc = check_input(run, l, cur);
        else if (l->type == RL_TUNE)
            rc = check_tune(run, l, cur);
        else if (l->type == RL_BOT_RELOAD)
            rc = check_bot_reload(run, l, cur);
        else if (l->type == RL_INTENT)
            rc = check_intent(run, l, cur);
        else if (l->type == RL_RELOAD) {
            if (have_later) {
                bot_world_free(&later, later_bots);
                world_free(&later);
                have_later = 0;
            }
            rc = build(run, l, &later, &later_bots);
            have_later = rc == 0;
            cur = &later;
        }
    }
    if (have_later) {
        bot_world_free(&later, later_bots);
        world_free(&later);
    }
    if (start_text) {
        run->ns = start_ns;
        if (start_ns) {     /* (no scripts: stext may be NULL) */
            memcpy(run->stext, start_text, start_ns * sizeof *start_text);
            memcpy(run->ssha, start_text + start_ns, start_ns * sizeof *start_text);
        }
    }
    free(start_text);
    if (rc) {
        bot_world_free(first, run->bots);
        run->bots = NULL;
        world_free(first);
    }
    return rc;
}

/* ---- the run ----------------------------------------------------------------- */

/* The header's "K=V" settings as the loader takes them (split in place at
 * the first '=', as --set splits its argument).  0, or -1 out of memory. */
static int split_sets(struct replay_run *run)
{
    if (!run->rp.nset)
        return 0;
    if (!(run->sets = calloc((size_t)run->rp.nset, sizeof *run->sets)))
        return -1;
    for (int i = 0; i < run->rp.nset; i++) {
        char *eq = strchr(run->rp.set[i], '=');    /* replay_read checked it is there */
        if (!eq)
            return -1;
        *eq = 0;
        run->sets[i] = (struct map_set){ run->rp.set[i], eq + 1 };
    }
    return 0;
}

int replay_run_open(struct replay_run *run, const char *file, struct world *w)
{
    memset(run, 0, sizeof *run);
    run->file = file;
    run->diverged = -1;
    char *err = NULL, *warn = NULL;
    int rc = replay_read(file, &run->rp, &err, &warn);
    if (warn)
        fprintf(stderr, "botfield: %s", warn);
    free(warn);
    if (rc) {
        fputs("botfield: ", stderr);
        say(err);
        return 2;
    }
    if (split_sets(run) || make_intents(run)) {
        forget_intents(run);
        replay_free(&run->rp);
        say(NULL);
        return 2;
    }
    if ((rc = preflight(run, w))) {
        forget_intents(run);
        replay_free(&run->rp);
        forget_scripts(run);
        free(run->sets);
        run->sets = NULL;
    }
    run->map_text = run->rp.map_text;
    return rc;
}

void replay_run_free(struct replay_run *run, struct world *w)
{
    bot_world_free(w, run->bots);
    run->bots = NULL;
    free(run->sets);
    run->sets = NULL;
    replay_free(&run->rp);
    forget_scripts(run);
    forget_intents(run);
}

long replay_run_last_tick(const struct replay_run *run)
{
    long last = 0;
    for (size_t k = run->next; k < run->rp.n; k++) {
        const struct replay_line *l = &run->rp.lines[k];
        if (l->type == RL_RELOAD)
            return -1;
        if (l->tick > last)
            last = l->tick;
    }
    /* Nothing left: where the world is (a run that ended on a reload's
     * map with no line after it goes no further). */
    return run->next >= run->rp.n && last == 0 ? -2 : last;
}

/* 1 when the state differs from line l's hash. */
static int compare(struct replay_run *run, struct world *w, const struct replay_line *l)
{
    /* with intent-driven vehicles, whose bots' mem is not here: the
     * core's state alone (botfield(6), RECORDINGS) */
    if (bot_world_puppets(run->bots) ? l->has_world && state_hash_public(w) == l->world
                                     : recording_hash(w, run->bots) == l->hash)
        return 0;
    run->diverged = w->tick;
    run->diverged_line = l->line;
    return 1;
}

void replay_run_divergence(const struct replay_run *run, char *buf, size_t n)
{
    /* The recorder's versions are the recording's strings: quoted as
     * text (a control byte as \xHH), as every message quotes a file. */
    char *v = text_printable(run->rp.version, 0), *lua = text_printable(run->rp.lua, 0);
    const char *this_lua = bot_lua_version();
    if (!v || !lua)
        snprintf(buf, n, "replay diverges at tick %ld", run->diverged);
    else if (strcmp(v, PACKAGE_VERSION) || strcmp(lua, this_lua))
        snprintf(buf, n, "replay diverges at tick %ld (recorded with botfield %s / %s, "
                 "this is botfield %s / %s)", run->diverged, v, *lua ? lua : "no Lua",
                 PACKAGE_VERSION, this_lua);
    else
        snprintf(buf, n, "replay diverges at tick %ld (%s:%ld: the recomputed state is "
                 "not the recorded one; same botfield %s and %s)", run->diverged,
                 run->file, run->diverged_line, v, lua);
    free(v);
    free(lua);
}

/* A tune line before the one applying (run->next - 1), since the map
 * now running was loaded, set section.key (tune.h). */
static int tuned_before(const void *ctx, const char *section, const char *key)
{
    const struct replay_run *run = ctx;
    for (size_t k = run->next - 1; k-- > 0;) {
        const struct replay_line *l = &run->rp.lines[k];
        if (l->type == RL_RELOAD)
            break;
        if (l->type == RL_TUNE && !strcmp(l->section, section) && !strcmp(l->key, key))
            return 1;
    }
    return 0;
}

int replay_run_before(struct replay_run *run, struct world *w)
{
    while (run->next < run->rp.n) {
        const struct replay_line *l = &run->rp.lines[run->next];
        /* (a map reload: the session's, replay_run_reload) */
        if (l->tick > w->tick || l->type == RL_RELOAD)
            break;
        run->next++;
        if (l->tick < w->tick)
            continue;           /* (never: the reader keeps the order) */
        char *err = NULL;
        switch (l->type) {
        case RL_CHECKPOINT:
        case RL_END:
            if (compare(run, w, l))
                return 2;
            break;
        case RL_BOT_SOURCE:
            if (know_script(run, l->path, l->text, l->sha256))
                return say(NULL), -1;
            if (bot_world_reload_text(run->bots, w, l->path, l->text, &err) < 0) {
                fprintf(stderr, "botfield: %s:%ld: the script does not reload: %s\n",
                        run->file, l->line, err ? err : "out of memory");
                free(err);
                return -1;
            }
            free(err);
            run->scripts_applied++;
            break;
        case RL_RELOAD:
            break;
        case RL_INPUT: {
            /* The player's held input from this tick's step on; checked
             * before the run (check_input): the player tank. */
            struct player_input in = { l->turn, l->speed, l->turret, l->fire };
            if (world_player_set(w, world_find_vehicle(w, l->id), &in)) {
                fprintf(stderr, "botfield: %s:%ld: the input cannot be applied (a number "
                        "out of range?)\n", run->file, l->line);
                return -1;
            }
            break;
        }
        case RL_INTENT:
            /* read by the intent-driven bots themselves, by tick (checked
             * before the run: check_intent); a bot whose script is here
             * runs it and ignores its intents */
            break;
        case RL_BOT_RELOAD:
            /* a note of botfield-bots(7): the bot_source line before it
             * carries the script and reloaded it (checked before the run:
             * check_bot_reload); reloading here again would be twice */
            break;
        case RL_TUNE: {
            /* A live tuning from this tick's step on; checked before the
             * run (check_tune). */
            char msg[512];
            struct tune_earlier before = { tuned_before, run };
            if (tune_apply(w, run->map_text, &before, *run->rp.map_path ? run->rp.map_path
                           : "default.ini", l->section, l->key, l->value, msg, sizeof msg)) {
                fputs("botfield: ", stderr);
                say(replay_msg(run->file, l->line, "the tune cannot be applied: %s", msg));
                return -1;
            }
            run->tunes_applied++;
            break;
        }
        }
    }
    return 0;
}

int replay_run_reload(struct replay_run *run, struct world *nw, struct bot_world **nb)
{
    if (run->next >= run->rp.n || run->rp.lines[run->next].type != RL_RELOAD)
        return -1;
    const struct replay_line *l = &run->rp.lines[run->next++];
    if (build(run, l, nw, nb))
        return -1;
    run->map_text = l->text;
    return 0;
}

int replay_run_check(struct replay_run *run, struct world *w)
{
    while (run->next < run->rp.n) {
        const struct replay_line *l = &run->rp.lines[run->next];
        if (l->tick != w->tick || (l->type != RL_CHECKPOINT && l->type != RL_END))
            break;
        run->next++;
        if (compare(run, w, l))
            return 1;
    }
    return 0;
}


/* ---- a recording as it grows (--follow) --------------------------------------- */

int replay_run_open_read(struct replay_run *run, const char *file, struct replay *rp,
                         struct world *w)
{
    memset(run, 0, sizeof *run);
    run->file = file;
    run->diverged = -1;
    run->rp = *rp;
    run->stream = 1;
    memset(rp, 0, sizeof *rp);
    /* the intents read so far drive their vehicles from the first tick
     * (more are handed over as they come: replay_run_check_new) */
    int rc = split_sets(run) || make_intents(run) ? (say(NULL), 2) : preflight(run, w);
    if (rc) {
        forget_intents(run);
        replay_free(&run->rp);
        forget_scripts(run);
        free(run->sets);
        run->sets = NULL;
    }
    run->map_text = run->rp.map_text;
    return rc;
}

/* New intent lines followed: every intent known again, and the bots
 * driven by them given theirs (the map running now: after the last
 * reload line, if any).  0, or 2 said. */
static int intents_grew(struct replay_run *run, size_t from, const struct world *w)
{
    const struct replay_line *reload = NULL;
    int grew = 0;
    for (size_t k = 0; k < run->rp.n; k++) {
        grew |= k >= from && run->rp.lines[k].type == RL_INTENT;
        if (run->rp.lines[k].type == RL_RELOAD && run->rp.lines[k].tick <= w->tick)
            reload = &run->rp.lines[k];
    }
    if (!grew)
        return 0;
    forget_intents(run);
    struct bot_intents in;
    if (!make_intents(run) && (in = intents_of(run, reload), 1)
        && !bot_world_intents_grew(run->bots, w, &in))
        return 0;
    say(NULL);
    return 2;
}

int replay_run_check_new(struct replay_run *run, size_t from, const struct world *w)
{
    if (intents_grew(run, from, w))
        return 2;
    for (size_t k = from; k < run->rp.n; k++) {
        const struct replay_line *l = &run->rp.lines[k];
        char msg[512];
        struct bot_script s;
        int rc = 0;
        if (l->type == RL_INPUT)
            rc = check_input(run, l, w);
        else if (l->type == RL_TUNE)
            rc = check_tune(run, l, w);
        else if (l->type == RL_BOT_SOURCE) {
            /* its text is the script its sha256 names (check_source
             * without learning it: the replay does, on its tick) */
            rc = bot_script_check_path(l->path, msg, sizeof msg)
                 || bot_script_from_bytes(l->path, l->text, strlen(l->text), &s, msg,
                                          sizeof msg);
            if (!rc) {
                rc = strcmp(s.sha256, l->sha256) != 0;
                snprintf(msg, sizeof msg, "the text's SHA-256 is not the line's sha256");
                bot_script_free(&s);
            }
            if (rc) {
                fputs("botfield: ", stderr);
                say(replay_msg(run->file, l->line, "bot_source: %s", msg));
            }
        }
        if (rc)
            return 2;
    }
    return 0;
}
