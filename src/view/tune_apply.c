/* tune_apply.c — the tuning panel's changes: applied to the world, kept
 * on the session's timeline (replayed on their ticks), recorded, and
 * saved into the map file (see tune_panel.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "record_hooks.h"
#include "tune_panel.h"
#include "../io/map.h"
#include "../io/map_write.h"
#include "../io/tune.h"

/* The name of the map in messages, as the loader names it. */
static const char *map_name(const struct app *a)
{
    return a->opt->map_path ? a->opt->map_path : "default.ini";
}

/* The text the world was loaded from, for a team's own keys. */
static const char *map_text(const struct app *a)
{
    if (a->tune && a->tune->text)
        return a->tune->text;
    return a->opt->map_text ? a->opt->map_text : map_default_text;
}

static void quiet(void *ctx, int line, int section, const char *message)
{
    (void)ctx; (void)line; (void)section; (void)message;
}

/* The text's sections and keys, for the panel's team values. */
static void rescan(struct app *a)
{
    struct tune_state *t = a->tune;
    if (t->scanned)
        scan_free(&t->scan);
    memset(&t->scan, 0, sizeof t->scan);
    const char *text = map_text(a);
    t->scanned = 1;
    if (scan_text(text, strlen(text), &t->scan, quiet, NULL)) {
        scan_free(&t->scan);
        t->scanned = 0;
    }
}

void tune_free(struct app *a)
{
    struct tune_state *t = a->tune;
    if (!t)
        return;
    if (t->scanned)
        scan_free(&t->scan);
    free(t->text);
    free(t);
    a->tune = NULL;
}

void tune_reset(struct app *a)
{
    if (!a->tune && !(a->tune = calloc(1, sizeof *a->tune)))
        return;
    struct tune_state *t = a->tune;
    t->typing = t->asking = 0;
    t->sight0 = a->world.sight;
    free(t->text);
    t->text = NULL;
    /* The file's bytes as loaded: what a save compares the disk with.
     * (Read again here: the loader keeps no copy.  A replay runs the
     * recording's map, which has no file to save into.) */
    const char *replayed = record_hooks_map_text(a);
    if (replayed)
        t->text = strdup(replayed);
    else if (a->opt->map_path && !a->opt->replay) {
        char msg[256];
        size_t len;
        if (map_write_read(a->opt->map_path, &t->text, &len, msg, sizeof msg) == 0)
            t->hash = map_write_hash(t->text, len);
    }
    rescan(a);
}

/* A tuning on the timeline (entry i of its entries). */
static int is_tune(const struct timeline *tl, size_t i)
{
    return tl->p[i].kind == TIMELINE_TUNE;
}

/* The timeline's tunings before entry `upto` (tune.h's earlier changes). */
struct before { const struct timeline *tl; size_t upto; };

static int tuned_before(const void *ctx, const char *section, const char *key)
{
    const struct before *b = ctx;
    for (size_t i = 0; i < b->upto; i++)
        if (is_tune(b->tl, i) && !strcmp(b->tl->p[i].section, section)
            && !strcmp(b->tl->p[i].key, key))
            return 1;
    return 0;
}

/* Applies section.key = value, after the timeline's entries before i.
 * 0, or -1 with the message said. */
static int apply(struct app *a, const char *section, const char *key, const char *value,
                 size_t i)
{
    char msg[512];
    struct before b = { &a->run.inputs, i };
    struct tune_earlier e = { tuned_before, &b };
    if (tune_apply(&a->world, map_text(a), &e, map_name(a), section, key, value,
                   msg, sizeof msg)) {
        app_message(a, 1, "%s", msg);
        return -1;
    }
    return 0;
}

int tune_shown(const struct app *a, const struct tune_key *k)
{
    const struct tune_state *t = a->tune;
    if (k->kind != SEC_TEAM)
        return k->index;
    struct before b = { &a->run.inputs, timeline_upto(&a->run.inputs, a->world.tick) };
    struct tune_earlier e = { tuned_before, &b };
    return tune_team_tank(&a->world, t->scanned ? &t->scan : NULL, &e, k->index, k->row->name);
}

/* The tunings given at tick (before: ticks before it; sight: [sight]'s
 * alone). */
static void apply_given(struct app *a, long tick, int before, int sight)
{
    const struct timeline *tl = &a->run.inputs;
    size_t upto = timeline_upto(tl, tick);
    for (size_t i = 0; i < upto; i++) {
        const struct timeline_entry *c = &tl->p[i];
        if (c->kind != TIMELINE_TUNE || (before ? c->tick >= tick : c->tick != tick)
            || (sight && strcmp(c->section, "sight")))
            continue;
        apply(a, c->section, c->key, c->value, i);
    }
}

void tune_apply_log(struct app *a)
{
    if (a->tune)
        apply_given(a, a->world.tick, 0, 0);
}

void tune_restored(struct app *a)
{
    const struct tune_state *t = a->tune;
    if (!t)
        return;
    /* [sight] is the world's, not the state's: as loaded, then every
     * change of it before this tick. */
    a->world.sight = t->sight0;
    apply_given(a, a->world.tick, 1, 1);
    tune_apply_log(a);
}

int tune_set(struct app *a, const char *section, const char *key, const char *value)
{
    struct tune_state *t = a->tune;
    if (!t)
        return -1;
    struct world *w = &a->world;
    /* A replay runs as it was recorded up to its end: a change before
     * would only make it diverge from its own checkpoints. */
    if (a->opt->replay && a->seek.limit >= 0 && w->tick < a->seek.limit) {
        app_message(a, 1, "a replay runs as recorded up to tick %ld: tune from there on",
                    a->seek.limit);
        return -1;
    }
    /* After the timeline's changes up to this tick (later ones are
     * dropped). */
    if (apply(a, section, key, value, timeline_upto(&a->run.inputs, w->tick)))
        return -1;
    /* Ticks computed after this one were computed with the old value. */
    if (w->tick < a->hist.end) {
        history_cut(&a->hist, w->tick);
        replay_check_reset(&a->check);
    }
    if (timeline_tune(&a->run.inputs, w->tick, section, key, value))
        app_message(a, 1, "out of memory: this change will not replay when stepping back");
    else
        app_message(a, 0, "tick %ld: [%s] %s = %s from the next tick on", w->tick, section,
                    key, value);
    record_hooks_tune(a, section, key, value);
    a->dirty = 1;
    return 0;
}

void tune_note(struct app *a, const char *section, const char *key, const char *value)
{
    if (a->tune && timeline_tune(&a->run.inputs, a->world.tick, section, key, value))
        app_message(a, 1, "out of memory: this change will not replay when stepping back");
}

/* ---- saving ----------------------------------------------------------------- */

void tune_save(struct app *a, int force)
{
    struct tune_state *t = a->tune;
    t->asking = 0;
    if (a->opt->replay || !a->opt->map_path) {
        app_message(a, 1, "%s: no map file to save into", a->opt->replay
                    ? "a replay runs the recording's map" : "the built-in map");
        return;
    }
    /* The value in effect of each key changed up to the tick shown, in
     * the order first changed. */
    const struct timeline *tl = &a->run.inputs;
    struct map_set *set = calloc(tl->n ? tl->n : 1, sizeof *set);
    char **keys = calloc(tl->n ? tl->n : 1, sizeof *keys);
    int nset = 0, oom = !set || !keys;
    for (size_t i = 0; !oom && i < timeline_upto(tl, a->world.tick); i++) {
        const struct timeline_entry *c = &tl->p[i];
        if (c->kind != TIMELINE_TUNE)
            continue;
        char *full = malloc(strlen(c->section) + strlen(c->key) + 2);
        if (!full) {
            oom = 1;
            break;
        }
        sprintf(full, "%s.%s", c->section, c->key);
        int k = 0;
        while (k < nset && strcmp(keys[k], full))
            k++;
        if (k < nset)
            free(full);
        else
            keys[nset++] = full;
        set[k] = (struct map_set){ keys[k], c->value };
    }
    char msg[512];
    uint64_t h = 0;
    int rc = oom ? -1 : nset == 0 ? -2
        : map_write_back(a->opt->map_path, set, nset, t->hash, force, &h, msg, sizeof msg);
    if (oom)
        app_message(a, 1, "out of memory: not saved");
    else if (rc == -2)
        app_message(a, 0, "nothing tuned up to this tick: nothing to save");
    else if (rc == 1) {
        t->asking = 1;
        app_message(a, 1, "%s: overwrite it? (y/n)", msg);
    } else if (rc < 0)
        app_message(a, 1, "not saved: %s", msg);
    else {
        t->hash = h;
        size_t len;
        char *text = NULL;
        if (map_write_read(a->opt->map_path, &text, &len, msg, sizeof msg) == 0) {
            free(t->text);
            t->text = text;
            rescan(a);
        }
        /* Our own write is no change to reload from. */
        (void)watch_read(&a->wt);
        app_message(a, 0, "saved %d value%s into %s", nset, nset == 1 ? "" : "s",
                    a->opt->map_path);
    }
    for (int k = 0; keys && k < nset; k++)
        free(keys[k]);
    free(keys);
    free(set);
}
