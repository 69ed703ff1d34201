/* compare.c — `--compare KEY=VALUE`: the option, the second world, and
 * the headless comparison (compare.h). */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare.h"
#include "recording.h"
#include "session.h"
#include "stop.h"
#include "io/map.h"
#include "bot/bot_world.h"
#include "core/round.h"
#include "core/state_hash.h"
#include "core/world.h"
#include "io/trace.h"

/* Where the built-in map's bots are (Makefile.am defines it). */
#ifndef BOTFIELD_MAPS_DIR
# define BOTFIELD_MAPS_DIR "maps"
#endif

static int bad(const char *arg, const char *why)
{
    fprintf(stderr, "botfield: --compare %s: %s\n"
            "Try 'botfield --help' for more information.\n", arg, why);
    return 2;
}

int compare_option(struct compare_opts *c, const char *arg)
{
    const char *eq = strchr(arg, '=');
    size_t klen = eq ? (size_t)(eq - arg) : 0;
    /* The same shape as --set's: SECTION.KEY, the last dot splitting. */
    int ok = klen > 0 && klen < sizeof c->key[0] && arg[0] != '.' && arg[klen - 1] != '.'
        && memchr(arg, '.', klen);
    for (size_t i = 0; ok && i < klen; i++)
        ok = isalnum((unsigned char)arg[i]) || strchr("._-", arg[i]);
    if (!ok)
        return bad(arg, "expected SECTION.KEY=VALUE as in the map "
                   "(e.g. team.red.aim=classic)");
    /* The value goes into the map's text and the output's JSON strings. */
    json_t *check = json_string(eq + 1);
    int clean = check != NULL && eq[1];
    json_decref(check);
    for (const char *p = eq + 1; clean && *p; p++)
        clean = (unsigned char)*p >= 0x20 && *p != 0x7f;
    if (!clean)
        return bad(arg, "the value must be UTF-8 text, not empty, without control "
                   "characters (no newline)");
    for (int i = 0; i < c->n; i++)
        if (strlen(c->key[i]) == klen && strncasecmp(c->key[i], arg, klen) == 0)
            return bad(arg, "that key is compared twice; give it once");
    if (c->n == COMPARE_MAX)
        return bad(arg, "at most 8 --compare settings");
    memcpy(c->key[c->n], arg, klen);
    c->key[c->n][klen] = 0;
    c->set[c->n] = (struct map_set){ c->key[c->n], eq + 1 };
    c->n++;
    return 0;
}

/* B's settings: A's (--set), each compared key replacing A's own. */
static int build_options(struct compare_opts *c, const struct map_options *a)
{
    c->map = *a;
    c->all = calloc((size_t)a->nset + (size_t)c->n + 1, sizeof *c->all);
    if (!c->all)
        return -1;
    int n = 0;
    for (int i = 0; i < a->nset; i++) {
        int replaced = 0;
        for (int k = 0; k < c->n; k++)
            replaced |= strcasecmp(a->set[i].key, c->set[k].key) == 0;
        if (!replaced)
            c->all[n++] = a->set[i];
    }
    for (int k = 0; k < c->n; k++)
        c->all[n++] = c->set[k];
    c->map.set = c->all;
    c->map.nset = n;
    size_t len = 0;
    c->label[0] = 0;
    for (int k = 0; k < c->n && len < sizeof c->label; k++)
        len += (size_t)snprintf(c->label + len, sizeof c->label - len, "%s%s=%s",
                                k ? " " : "", c->set[k].key, c->set[k].value);
    return 0;
}

char *compare_messages(const struct compare_opts *c, const char *text)
{
    /* The loader names every setting "--set KEY=VALUE:" (errors.c);
     * ours become "--compare KEY=VALUE:", each message at a line start. */
    static const char set[] = "botfield: --set ";
    size_t n = strlen(text), extra = 0;
    for (const char *p = strstr(text, set); p; p = strstr(p + 1, set))
        extra += 4;                         /* "compare" is 4 longer than "set" */
    char *out = malloc(n + extra + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = text; *p;) {
        int ours = 0;
        if (strncmp(p, set, sizeof set - 1) == 0 && (p == text || p[-1] == '\n'))
            for (int k = 0; k < c->n && !ours; k++) {
                const char *q = p + sizeof set - 1;
                size_t kl = strlen(c->set[k].key), vl = strlen(c->set[k].value);
                ours = strncmp(q, c->set[k].key, kl) == 0 && q[kl] == '='
                    && strncmp(q + kl + 1, c->set[k].value, vl) == 0 && q[kl + 1 + vl] == ':';
            }
        if (ours) {
            o += sprintf(o, "botfield: --compare ");
            p += sizeof set - 1;
        } else
            *o++ = *p++;
    }
    *o = 0;
    return out;
}

int compare_load(const struct compare_opts *c, const char *map_path, struct world *out,
                 struct bot_world **bots)
{
    struct map_error err = { NULL, 0 };
    int rc = map_path ? map_load(map_path, &c->map, out, &err)
                      : map_load_text("default.ini", map_default_text, map_default_len,
                                      &c->map, out, &err);
    if (rc) {
        char *m = err.text ? compare_messages(c, err.text) : NULL;
        const char *said = m ? m : err.text ? err.text : "botfield: cannot load the map\n";
        fputs(said, stderr);
        /* A's world loaded first: what fails is B's setting, even when
         * the message is about the map (a tree that no longer fits). */
        if (!strstr(said, "--compare "))
            fprintf(stderr, "botfield: the map loads, but not with --compare %s\n", c->label);
        free(m);
        map_error_free(&err);
        return 2;
    }
    char *berr = NULL;
    *bots = NULL;
    if (bot_world_attach(out, BOTFIELD_MAPS_DIR, bots, &berr)) {
        /* Lua's message quotes the script's bytes (an unfinished string) */
        char *safe = berr ? text_printable(berr, 1) : NULL;
        fprintf(stderr, "%s\n", safe ? safe : "botfield: cannot load the bots");
        free(safe);
        free(berr);
        world_free(out);
        return 2;
    }
    return 0;
}

/* The value the first world has for `key` (SECTION.KEY), as its trace's
 * entity lines give it: the vehicle's own, or for a team the value most
 * of its vehicles have (a turret or a tank may have its own section);
 * NULL for a key they do not show (then the label says "(map)"). */
#define DISTINCT_MAX 8
static json_t *entity_value(json_t *entities, const char *key)
{
    const char *dot = strrchr(key, '.');
    char sec[128];
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - key), key);
    int team = strncasecmp(sec, "team.", 5) == 0;
    json_t *seen[DISTINCT_MAX];
    long count[DISTINCT_MAX];
    int nseen = 0, best = -1;
    size_t i;
    json_t *e;
    json_array_foreach(entities, i, e) {
        const char *want = team ? sec + 5 : sec;
        const char *have = json_string_value(json_object_get(e, team ? "team" : "id"));
        json_t *v = json_object_get(e, dot + 1);
        if (!have || !v || strcasecmp(have, want) != 0)
            continue;
        int k = 0;
        while (k < nseen && !json_equal(seen[k], v))
            k++;
        if (k == nseen) {
            if (nseen == DISTINCT_MAX)
                continue;
            seen[nseen] = v;
            count[nseen++] = 0;
        }
        count[k]++;
        if (best < 0 || count[k] > count[best])
            best = k;
    }
    return best >= 0 ? seen[best] : NULL;
}

void compare_base_label(const struct compare_opts *c, const struct world *w, char *buf,
                        size_t cap)
{
    json_t *entities = json_array();
    char *text = NULL;
    size_t len = 0;
    FILE *f = entities ? open_memstream(&text, &len) : NULL;
    if (f) {
        trace_begin(f, w, PACKAGE_VERSION);
        fclose(f);
    }
    for (char *p = text, *nl; p && *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        json_t *o = strstr(p, "\"type\":\"entity\"") ? json_loads(p, 0, NULL) : NULL;
        if (o)
            json_array_append_new(entities, o);
    }
    free(text);
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < c->n && n < cap; k++) {
        json_t *v = entity_value(entities, c->set[k].key);
        char *s = v && !json_is_string(v) ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
        int m = snprintf(buf + n, cap - n, "%s%s=%s", k ? " " : "", c->set[k].key,
                         v && json_is_string(v) ? json_string_value(v) : s ? s : "(map)");
        free(s);
        n += m > 0 ? (size_t)m : 0;
    }
    json_decref(entities);
}

int compare_differ(const struct world *a, struct world *b)
{
    if (a->vehicles.n != b->vehicles.n)
        return 1;
    /* The settings are state (state_hash.h) and differ by design: b is
     * hashed with a's, so only what they made differently counts. */
    size_t n = b->vehicles.n;
    const struct vehicle_params **keep = malloc((n ? n : 1) * sizeof *keep);
    if (!keep)
        return state_hash(a) != state_hash(b);
    for (size_t i = 0; i < n; i++) {
        keep[i] = b->vehicles.p[i].p;
        b->vehicles.p[i].p = a->vehicles.p[i].p;
    }
    int differ = state_hash(a) != state_hash(b);
    for (size_t i = 0; i < n; i++)
        b->vehicles.p[i].p = keep[i];
    free(keep);
    return differ;
}

/* Both worlds to the end (the map's duration, a won battle, or `ticks`),
 * each summary on a line, then the first tick where they differ. */
void compare_b_name(const char *file, char *buf, size_t cap)
{
    const char *slash = strrchr(file, '/');
    const char *dot = strrchr(file, '.');
    if (dot && dot > (slash ? slash + 1 : file))
        snprintf(buf, cap, "%.*s.b%s", (int)(dot - file), file, dot);
    else
        snprintf(buf, cap, "%s.b", file);
}

static int step_both(const struct compare_opts *c, struct world *w[2],
                     struct bot_world *bots[2], struct recording rec[2], long ticks);

/* Opens both sides' recordings: 0, or -1 said (neither left open). */
static int open_records(const struct compare_opts *c, const struct compare_record *r,
                        struct world *w[2], struct bot_world *bots[2], struct recording rec[2])
{
    char bfile[4096];
    compare_b_name(r->file, bfile, sizeof bfile);
    if (recording_open(&rec[0], r->file, w[0], bots[0], r->map_path, r->map_text,
                       r->set, r->nset))
        return -1;
    if (recording_open(&rec[1], bfile, w[1], bots[1], r->map_path, r->map_text,
                       c->map.set, c->map.nset)) {
        recording_stop(&rec[0]);
        return -1;
    }
    return 0;
}

static int run_headless(const struct compare_opts *c, struct world *w[2],
                        struct bot_world *bots[2], const struct compare_record *r, long ticks)
{
    struct recording rec[2];
    memset(rec, 0, sizeof rec);
    /* a signal ends both sides as it ends a run (botfield(6), SIGNALS):
     * after the tick being computed, the summaries and the end lines */
    stop_arm();
    if (r->file && open_records(c, r, w, bots, rec)) {
        stop_disarm();
        return 1;
    }
    int rc = step_both(c, w, bots, rec, ticks);
    for (int s = 0; s < 2; s++)
        if (recording_close(&rec[s], w[s], bots[s]))
            rc = 1;
    stop_die();
    stop_disarm();
    return rc;
}

/* Both worlds to the end, two sessions, each step recorded (rec[s].f
 * NULL: not). */
static int step_both(const struct compare_opts *c, struct world *w[2],
                     struct bot_world *bots[2], struct recording rec[2], long ticks)
{
    long limit[2];
    struct session ses[2];
    for (int s = 0; s < 2; s++) {
        limit[s] = ticks >= 0 ? ticks : w[s]->rounds > 1 ? LONG_MAX
                                                         : lround(w[s]->duration * w[s]->tick_rate);
        session_init(&ses[s], w[s], &bots[s]);
        ses[s].rec = &rec[s];
    }
    long diverged = compare_differ(w[0], w[1]) ? 0 : -1;
    while (!stop_signal()) {
        int stepped = 0;
        for (int s = 0; s < 2; s++) {
            /* (a match: to the end of its last round) */
            if (w[s]->tick >= limit[s]
                || (ticks < 0 && (w[s]->rounds > 1 ? round_match_over(w[s]) : w[s]->ended)))
                continue;
            if (session_step(&ses[s]) != SESSION_STEPPED || ses[s].news.rec_failed)
                return 1;
            stepped |= 1 << s;
        }
        if (!stepped)
            break;
        if (diverged < 0 && (stepped != 3 || compare_differ(w[0], w[1])))
            diverged = w[stepped == 2 ? 1 : 0]->tick;
    }
    if (trace_summary(stdout, w[0]) || trace_summary(stdout, w[1]))
        return 1;
    json_t *o = json_pack("{s:s, s:s}", "type", "compare", "set", c->label);
    if (o)
        json_object_set_new(o, "diverged", diverged >= 0 ? json_integer(diverged)
                                                         : json_null());
    char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (!s) {
        fprintf(stderr, "botfield: out of memory\n");
        return 1;
    }
    printf("%s\n", s);
    free(s);
    return fflush(stdout) ? 1 : 0;
}

int compare_prepare(struct compare_opts *c, const struct map_options *a, const char *map_path,
                    struct world *wb, struct bot_world **bb)
{
    *bb = NULL;
    int rc = build_options(c, a) ? 1 : compare_load(c, map_path, wb, bb);
    if (rc == 1)
        fprintf(stderr, "botfield: out of memory\n");
    return rc;
}

int compare_run(struct compare_opts *c, const struct map_options *a, const char *map_path,
                struct world *w, struct bot_world *bots, long ticks, double seconds,
                const struct compare_record *rec)
{
    struct world wb;
    struct bot_world *bb = NULL;
    int rc = compare_prepare(c, a, map_path, &wb, &bb);
    if (rc == 0) {
        if (ticks < 0 && seconds >= 0)
            ticks = lround(seconds * w->tick_rate);
        struct world *both[2] = { w, &wb };
        struct bot_world *bb2[2] = { bots, bb };
        rc = run_headless(c, both, bb2, rec, ticks);
        bot_world_free(&wb, bb);
        world_free(&wb);
    }
    bot_world_free(w, bots);
    world_free(w);
    free(c->all);
    return rc;
}
