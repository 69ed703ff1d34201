/* recording.c — a run written to a recording as it goes (recording.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recording.h"
#include "say.h"
#include "bot/bot_world.h"
#include "core/state_hash.h"
#include "core/world.h"
#include "io/record.h"
#include "io/trace.h"
#include "io/utf8.h"

uint64_t recording_hash(const struct world *w, struct bot_world *bw)
{
    return bot_world_hash(bw, state_hash(w));
}

/* A vehicle's last intent line (valid 0: none yet). */
struct recorded_intent {
    int valid;
    struct bot_intent in;
    unsigned char say[BOT_SAY_ENCODED];
};

/* A checkpoint or end line: with "world" when intents are recorded. */
static int write_check(struct recording *rec, const char *type, const struct world *w,
                       struct bot_world *bw)
{
    uint64_t h = recording_hash(w, bw);
    return rec->intents ? record_hash_world(rec->f, type, w->tick, h, state_hash_public(w))
                        : record_hash(rec->f, type, w->tick, h);
}

/* The same intent, bit for bit (a -0 is another number to a replay). */
static int same_intent(const struct recorded_intent *r, const struct bot_intent *in)
{
    const struct bot_intent *a = &r->in;
    return r->valid && !memcmp(&a->turn, &in->turn, sizeof a->turn)
        && !memcmp(&a->speed, &in->speed, sizeof a->speed)
        && !memcmp(&a->turret, &in->turret, sizeof a->turret)
        && !memcmp(&a->radar, &in->radar, sizeof a->radar)
        && a->fire == in->fire && a->raced == in->raced
        && !memcmp(&a->race_turn, &in->race_turn, sizeof a->race_turn)
        && a->say_len == in->say_len && !memcmp(r->say, in->say, in->say_len);
}

/* The intent lines of the step just made, on its tick (the world.tick
 * its scripts saw): each vehicle whose bot's intent changed.  0 or -1. */
static int write_intents(struct recording *rec, const struct world *w,
                         const struct bot_world *bw)
{
    if (rec->nlast < w->vehicles.n) {
        struct recorded_intent *p = realloc(rec->last, w->vehicles.n * sizeof *p);
        if (!p)
            return -1;
        memset(p + rec->nlast, 0, (w->vehicles.n - rec->nlast) * sizeof *p);
        rec->last = p;
        rec->nlast = w->vehicles.n;
    }
    for (size_t i = 0; bw && i < w->vehicles.n; i++) {
        struct bot_intent in;
        struct recorded_intent *r = &rec->last[i];
        if (!bot_world_intent(bw, w, (int)i, &in) || same_intent(r, &in)
            || in.say_len > sizeof r->say)
            continue;
        struct record_intent ri = { in.turn, in.speed, in.turret, in.radar, in.fire,
                                    in.raced, in.race_turn, in.say, in.say_len };
        if (record_intent(rec->f, w->tick, w->vehicles.p[i].id, &ri))
            return -1;
        r->valid = 1;
        r->in = in;
        memcpy(r->say, in.say, in.say_len);
        r->in.say = NULL;
    }
    return 0;
}

static int write_failed(struct recording *rec)
{
    run_say("cannot write the recording %s: %s\n", rec->file,
            trace_strerror(errno));
    recording_stop(rec);
    return -1;
}

/* The script as a string, or NULL (said on stderr) when a recording
 * cannot carry it: a JSON string holds UTF-8 text without NUL bytes, and
 * a byte written as U+FFFD instead would change the script (its replay
 * would refuse it: the text no longer matches its SHA-256), or out of
 * memory. */
static char *script_text(const struct bot_script *s)
{
    if (memchr(s->bytes, 0, s->len)) {
        run_say("cannot record the bot script %s: it holds a NUL "
                "byte (a recording keeps scripts as text)\n", s->path);
        return NULL;
    }
    char *t = malloc(s->len + 1);
    if (!t) {
        run_say("cannot record the bot script %s: out of memory\n",
                s->path);
        return NULL;
    }
    memcpy(t, s->bytes, s->len);
    t[s->len] = 0;
    long line = 1;
    for (const unsigned char *p = (const unsigned char *)t; *p;) {
        int n = utf8_len(p);
        if (n == 0) {
            run_say("cannot record the bot script %s: line %ld holds a "
                    "byte that is not UTF-8 (a recording keeps scripts as JSON text, "
                    "UTF-8 only): save the script as UTF-8\n", s->path, line);
            free(t);
            return NULL;
        }
        line += *p == '\n';
        p += n;
    }
    return t;
}

/* 0 when every script of bw can be recorded, checked before the file
 * given to --record is opened (and truncated). */
static int scripts_recordable(const struct world *w, const struct bot_world *bw)
{
    for (size_t i = 0; bw && i < w->vehicles.n; i++) {
        const struct bot_script *s = bot_world_script(bw, (int)i);
        char *text = s ? script_text(s) : NULL;
        if (s && !text)
            return -1;
        free(text);
    }
    return 0;
}

/* The entry for path, added when new; NULL out of memory. */
static struct recorded_script *entry(struct recording *rec, const char *path)
{
    for (size_t k = 0; k < rec->nscripts; k++)
        if (!strcmp(rec->scripts[k].path, path))
            return &rec->scripts[k];
    struct recorded_script *p = realloc(rec->scripts, (rec->nscripts + 1) * sizeof *p);
    if (!p)
        return NULL;
    rec->scripts = p;
    struct recorded_script *e = &p[rec->nscripts];
    if (!(e->path = strdup(path)))
        return NULL;
    e->sha256[0] = 0;
    rec->nscripts++;
    return e;
}

/* A bot_reload line for each vehicle of bw that runs s now: the vehicles
 * a live reload of s's text changed (botfield-bots(7)).  A vehicle whose
 * bot kept its old script (the new one failed for it) has none. */
static int write_reloads(struct recording *rec, long tick, const struct world *w,
                         const struct bot_world *bw, const struct bot_script *s)
{
    for (size_t j = 0; j < w->vehicles.n; j++) {
        const struct bot_script *o = bot_world_script(bw, (int)j);
        if (o && !strcmp(o->path, s->path) && !strcmp(o->sha256, s->sha256)
            && record_bot_reload(rec->f, tick, w->vehicles.p[j].id, s->sha256))
            return -1;
    }
    return 0;
}

/* A bot_source line for each script of bw not yet written as it is now
 * (tick < 0: the start's, without a tick); with `reloads` (a live reload
 * of scripts, not a new map's) each followed by the bot_reload lines of
 * the vehicles it reloaded.  A replay applies the bot_source line and
 * reads the bot_reload lines as notes of it, so the reload happens once. */
static int write_scripts(struct recording *rec, long tick, const struct world *w,
                         const struct bot_world *bw, int reloads)
{
    for (size_t i = 0; bw && i < w->vehicles.n; i++) {
        const struct bot_script *s = bot_world_script(bw, (int)i);
        if (!s)
            continue;
        struct recorded_script *e = entry(rec, s->path);
        if (!e)
            return write_failed(rec);
        if (!strcmp(e->sha256, s->sha256))
            continue;
        char *text = script_text(s);
        if (!text) {
            recording_stop(rec);
            return -1;
        }
        int rc = record_bot_source(rec->f, tick, s->path, s->sha256, text);
        free(text);
        if (rc || (reloads && write_reloads(rec, tick, w, bw, s)))
            return write_failed(rec);
        memcpy(e->sha256, s->sha256, sizeof e->sha256);
    }
    return 0;
}

int recording_open(struct recording *rec, const char *file, const struct world *w,
                   const struct bot_world *bw, const char *map_path, const char *map_text,
                   const struct map_set *set, int nset)
{
    memset(rec, 0, sizeof *rec);
    if (scripts_recordable(w, bw))
        return -1;
    rec->file = strdup(file);
    rec->f = fopen(file, "w");
    if (!rec->file || !rec->f) {
        run_say("cannot write the recording %s: %s\n", file,
                strerror(errno));
        recording_stop(rec);
        return -1;
    }
    rec->frontier = w->tick;
    /* a process bot's answers are inputs: its intents are recorded, and
     * a replay, which never starts the program, is checked by the world's
     * public hash (as an arena match's) */
    for (size_t i = 0; bw && i < w->vehicles.n; i++)
        rec->intents |= bot_world_is_process(bw, (int)i);
    /* The map's file name only: a folder (a home folder's name) is no
     * part of the run, and a replay reads no file of it. */
    const char *slash = map_path ? strrchr(map_path, '/') : NULL;
    if (record_header(rec->f, PACKAGE_VERSION, bot_lua_version(),
                      w->seed, slash ? slash + 1 : map_path ? map_path : "", map_text,
                      set, nset))
        return write_failed(rec);
    return write_scripts(rec, -1, w, bw, 0);
}

int recording_tick(struct recording *rec, const struct world *w, struct bot_world *bw)
{
    if (!rec->f || w->tick <= rec->frontier)
        return 0;
    rec->frontier = w->tick;
    if (rec->intents && write_intents(rec, w, bw))
        return write_failed(rec);
    if (w->tick % RECORD_CHECKPOINT_TICKS)
        return 0;
    return write_check(rec, "checkpoint", w, bw) ? write_failed(rec) : 0;
}

int recording_scripts(struct recording *rec, const struct world *w,
                      const struct bot_world *bw)
{
    return rec->f ? write_scripts(rec, w->tick, w, bw, 1) : 0;
}

int recording_reload(struct recording *rec, long tick, const char *map_text,
                     const struct world *nw, const struct bot_world *nb)
{
    if (!rec->f)
        return 0;
    /* The scripts first: the replay has them when it loads the map. */
    if (write_scripts(rec, tick, nw, nb, 0))
        return -1;
    if (record_reload(rec->f, tick, nw->seed, map_text))
        return write_failed(rec);
    rec->frontier = nw->tick;
    rec->nlast = 0;             /* a new map's vehicles: all intents again */
    return 0;
}

int recording_input(struct recording *rec, const struct world *w)
{
    if (!rec->f)
        return 0;
    const struct player_state *pl = &w->player;
    if (pl->vehicle < 0 || (size_t)pl->vehicle >= w->vehicles.n)
        return 0;
    if (record_input(rec->f, w->tick, w->vehicles.p[pl->vehicle].id, pl->in.turn,
                     pl->in.speed, pl->in.turret, pl->in.fire))
        return write_failed(rec);
    return 0;
}

int recording_tune(struct recording *rec, const struct world *w, const char *section,
                   const char *key, const char *value)
{
    if (!rec->f)
        return 0;
    if (record_tune(rec->f, w->tick, section, key, value))
        return write_failed(rec);
    return 0;
}

int recording_close(struct recording *rec, const struct world *w, struct bot_world *bw)
{
    if (!rec->f)
        return 0;
    int rc = 0;
    if (w->tick == rec->frontier && write_check(rec, "end", w, bw))
        rc = -1;
    if (fclose(rec->f))
        rc = -1;
    rec->f = NULL;
    if (rc)
        run_say("cannot write the recording %s: %s\n", rec->file,
                trace_strerror(errno));
    recording_stop(rec);
    return rc;
}

void recording_stop(struct recording *rec)
{
    if (rec->f)
        fclose(rec->f);
    rec->f = NULL;
    for (size_t k = 0; k < rec->nscripts; k++)
        free(rec->scripts[k].path);
    free(rec->scripts);
    rec->scripts = NULL;
    rec->nscripts = 0;
    free(rec->last);
    rec->last = NULL;
    rec->nlast = 0;
    free(rec->file);
    rec->file = NULL;
}

