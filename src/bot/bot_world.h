/* bot_world.h — a world's Lua bots: the glue between the simulation and
 * the bot layer (bot.h).
 *
 * bot_world_attach() reads the script of every vehicle the map gives a
 * `bot` (world.bots), makes its sandboxed Lua state and registers a brain
 * (decide.h) in the world: from then on, in the tick's decide stage, each
 * such vehicle's decision comes from its script, over a view of what the
 * vehicle knows (its own state, the enemies its sight saw this tick, its
 * allies, the track, last tick's events about it), and the built-in
 * methods it may call (aim.*, avoid.*, race.*, wander, sight.hidden_from,
 * world.trees) run the same functions as the built-in rows, on a copy of
 * its decision.  The intents are clamped to the vehicle's limits here.
 *
 * The core never includes this header: it only sees the brain. */
#ifndef BOTFIELD_BOT_WORLD_H
#define BOTFIELD_BOT_WORLD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bot.h"

struct world;
struct bot_world;

/* Loads every bot of w.  Scripts are found in the map file's folder
 * (w->map_path), or in bundled_dir for the built-in map.  0, or -1 with
 * *err (malloc'd) the map error: "map.ini:12: [tank.a] bot = x.lua:
 * problem", the world left without bots. */
int bot_world_attach(struct world *w, const char *bundled_dir,
                     struct bot_world **out, char **err);
/* The same with every script's text given (a recording's), never read
 * from disk: src[k] is the text of the script at path[k] (as the map
 * writes it).  A bot whose path has no text, or breaks the path rules, is
 * an error like a missing file. */
struct bot_texts { size_t n; const char *const *path; const char *const *text; };
int bot_world_attach_texts(struct world *w, const struct bot_texts *src,
                           struct bot_world **out, char **err);
/* The same with the texts of the bots the user named on the command line
 * (--ladder's, read by the caller from wherever the user put them: the
 * user's own files); every other bot is read from the map's folder under
 * its rules, as bot_world_attach() does. */
int bot_world_attach_given(struct world *w, const char *bundled_dir,
                           const struct bot_texts *given, struct bot_world **out, char **err);
/* ---- intents (botfield(6), RECORDINGS: the intent line) ---------------- */

/* What a bot decided on a tick: its out.* as the script gave them
 * (before the clamps), race.*()'s turn when kept as it was (radians this
 * tick), and out.say encoded (say_len 0: nothing said). */
struct bot_intent {
    double turn, speed, turret;
    int fire;
    double radar;
    int raced;
    double race_turn;
    const unsigned char *say;
    size_t say_len;
};
/* A recording's intent: vehicle `id`'s from the step to `tick` (the
 * world.tick its script saw) on, until its next. */
struct bot_intent_at { long tick; const char *id; struct bot_intent in; };
/* open: more may come (a recording followed as it grows): a bot without
 * its script is driven by intents even before its first has arrived. */
struct bot_intents { size_t n; const struct bot_intent_at *p; int open; };
/* As bot_world_attach_texts(), but a bot whose script has no text and
 * whose vehicle has intents in `in` (in tick order; kept, not copied:
 * they must outlive the bots) is driven by them, holding each until its
 * next: no script runs, it has no mem, no log or error, no report.  A
 * bot with neither is the same error. */
int bot_world_attach_intents(struct world *w, const struct bot_texts *src,
                             const struct bot_intents *in, struct bot_world **out,
                             char **err);
/* A followed recording's intents grew (in: all of them now, in tick
 * order; the old array may be gone): each intent-driven bot of bw, on
 * world w, takes its own from in.  0, or -1 out of memory. */
int bot_world_intents_grew(struct bot_world *bw, const struct world *w,
                           const struct bot_intents *in);
/* How many vehicles of bw are driven by intents. */
int bot_world_puppets(const struct bot_world *bw);
/* Vehicle i's bot's intent of the last step (the one to w->tick, which
 * its script saw as world.tick): 1 with *out filled (its say valid until the next step), 0 when it has
 * no script-driven bot or did not decide in that step. */
int bot_world_intent(const struct bot_world *bw, const struct world *w, int i,
                     struct bot_intent *out);

/* Reloads in place (mem kept) every bot whose script is `path`, with
 * `text`: how many, or -1 with *err (malloc'd) when it does not load. */
int bot_world_reload_text(struct bot_world *bw, struct world *w, const char *path,
                          const char *text, char **err);
/* ---- process bots (botfield-bots(7), PROCESS BOTS) ------------------- */

/* --bot-process WHO=COMMAND: WHO a vehicle id or team.NAME (each of its
 * vehicles gets a program of its own). */
struct bot_process { const char *who; const char *command; };
/* The programs the person running botfield named, and the wait for each
 * answer: every later attach (not a replay's) starts a program for each
 * vehicle they name, whose `bot` key the caller set to a name of its
 * own, instead of reading a script.  The array must outlive the bots. */
void bot_world_processes(const struct bot_process *p, size_t n, int timeout_ms);
/* Vehicle i is driven from outside its scripts: by a program, or by a
 * caller of libbotfield (an agent): its intents are inputs a recording
 * keeps. */
int bot_world_is_process(const struct bot_world *bw, int i);

/* ---- library agents (libbotfield, botfield-env(3)) -------------------- */

/* As bot_world_attach(), but every bot whose `bot` key is agent_path (a
 * name the caller set on the vehicles it drives, never read as a file) is
 * an agent: no script runs; its out is what bot_world_agent_set() gave
 * last, through a Lua bot's clamps (before any: still, turret and radar
 * held), and a recording keeps it as intents. */
int bot_world_attach_agents(struct world *w, const char *bundled_dir, const char *agent_path,
                            struct bot_world **out, char **err);
/* Vehicle i is an agent. */
int bot_world_is_agent(const struct bot_world *bw, int i);
/* Vehicle i's action (botfield-env(3), ACTIONS: turn, speed, turret,
 * fire, radar, each in [-1, 1], checked by the caller) as a bot's out:
 * fractions of its rates and cruising speed, the turret and radar turned
 * from where they point now. */
struct bot_out bot_out_of_action(const struct world *w, int i, const double a[5]);
/* Agent i's out from the next step on: 0, or -1 when i is no agent. */
int bot_world_agent_set(struct bot_world *bw, int i, const struct bot_out *out);

/* Unregisters the brain and frees every bot (NULL: nothing). */
void bot_world_free(struct world *w, struct bot_world *bw);

/* The lines the bots gave in the last step (bot_error, log), in vehicle
 * order, as trace lines. */
int bot_world_trace(const struct bot_world *bw, const struct world *w, FILE *f);
/* How many bot_error lines the last step had. */
int bot_world_errors(const struct bot_world *bw);
/* How many bots the last bot_world_restore() could not rebuild (and so
 * disabled): the viewer names that, not a global, when the replay after
 * the step back differs from the first run. */
int bot_world_unrebuilt(const struct bot_world *bw);

/* Vehicle i's bot's report of its last tick (log, error, drawings, cost),
 * NULL when it has no bot or has not run yet. */
const struct bot_report *bot_world_report(const struct bot_world *bw, int i);
/* Vehicle i's script path and SHA-256, NULL when it has no bot. */
const struct bot_script *bot_world_script(const struct bot_world *bw, int i);

/* ---- step back, reload ------------------------------------------------ */

/* Every bot's mem as plain data, for a snapshot of the world. */
struct bot_world_mem {
    size_t n;
    unsigned char **buf;    /* per bot, in world.bots order */
    size_t *len;
    int *inited;
    /* per bot, what world.events will hold on the next tick (the events of
     * the tick saved): the snapshot does not keep the world's events; and
     * its abandoned ticks in a row and disabled state (bot_run_state) */
    struct bot_world_events *events;
};
/* 0, or -1 with err (a mem that is not plain data: a cycle, a function). */
int bot_world_save(struct bot_world *bw, struct bot_world_mem *m, char *err, size_t n);
/* Rebuilds every Lua state from its script and loads mem back: what a
 * step back needs, since globals and upvalues are not kept.  A bot that
 * cannot be rebuilt (its mem does not fit a fresh state) is disabled and
 * says why on its next tick.  0, or -1 when m is not this world's. */
int bot_world_restore(struct bot_world *bw, const struct bot_world_mem *m);
void bot_world_mem_free(struct bot_world_mem *m);
/* A match's next round: every bot rebuilt from its script as at a step
 * back, with its mem kept, and nothing else: its init runs again, no
 * events or messages carry over, a disabled bot runs again.  0, or -1
 * with err (a mem that is not plain data cannot be kept). */
int bot_world_new_round(struct bot_world *bw, char *err, size_t n);

/* The bots' part of the state a tick reads, hashed on from `seed` (the
 * core's state_hash()): every bot's mem as a snapshot keeps it, whether
 * its init ran, and how many events it will read next tick.  A mem that
 * is not plain data hashes as such (a marker), never as an error.  seed
 * itself when there are no bots. */
uint64_t bot_world_hash(struct bot_world *bw, uint64_t seed);

/* The bots' part of the state a tick reads, hashed on from `seed` (the
 * core's state_hash()): every bot's mem as a snapshot keeps it, whether
 * its init ran, and how many events it will read next tick.  A mem that
 * is not plain data hashes as such (a marker), never as an error.  seed
 * itself when there are no bots. */
uint64_t bot_world_hash(struct bot_world *bw, uint64_t seed);

/* Re-reads every script; each one whose bytes changed is reloaded (its mem
 * kept).  Returns how many were reloaded; a broken edit keeps the old bot
 * running and its message goes to *err (malloc'd; NULL when none). */
int bot_world_reload(struct bot_world *bw, struct world *w, char **err);

#endif
