/* aggregate.c — run lines read back and summed up.
 *
 * A tournament's own runs and --aggregate's files take this one path:
 * each run line is parsed (jansson), the runs are grouped by their
 * settings in the order the settings first appear and ordered by seed,
 * and each group is printed as its run lines, as they were read, then
 * its aggregate line.  Sums are taken in seed order, so the same runs
 * give the same bytes however they were split over processes, files or
 * machines. */
#include "config.h"

#include <langinfo.h>
#include <limits.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tour_impl.h"
#include "core/grow.h"
#include "io/map.h"
#include "io/replay_read.h"
#include "io/trace.h"

/* The longest run line read: a summary of a million cars' laps is some
 * 60 MB; beyond this a file is not run lines (an endless line). */
#define RUN_LINE_MAX ((size_t)256 << 20)

struct run {
    json_t *o;
    char *line;
    long long seed;
    const char *failed;     /* in o; NULL: it ran */
};

struct group {
    char *key;              /* its settings as compact JSON */
    json_t *set;
    long *runs; long n; size_t cap;
    long printed;           /* runs already printed by agg_emit */
    int closed;             /* its aggregate too */
};

struct agg {
    struct run *runs; long n; size_t cap;
    struct group *groups; int ng; size_t gcap;
    struct name_index by_key;   /* the groups */
};

struct agg *agg_new(void)
{
    return calloc(1, sizeof(struct agg));
}

void agg_free(struct agg *a)
{
    if (!a)
        return;
    for (long i = 0; i < a->n; i++) {
        json_decref(a->runs[i].o);
        free(a->runs[i].line);
    }
    for (int g = 0; g < a->ng; g++) {
        free(a->groups[g].key);
        free(a->groups[g].runs);
    }
    free(a->runs);
    free(a->groups);
    name_index_free(&a->by_key);
    free(a);
}

static char *whyf(const char *what, const char *detail)
{
    char *s;
    return asprintf(&s, "%s%s", what, detail) < 0 ? NULL : s;
}

/* 1 when v is a number >= 0 (a whole one when `whole`), or null where
 * `null_ok` (a car that never finished a lap). */
static int count_ok(json_t *v, int whole, int null_ok)
{
    if (null_ok && json_is_null(v))
        return 1;
    return whole ? json_is_integer(v) && json_integer_value(v) >= 0
                 : json_is_number(v) && json_number_value(v) >= 0;
}

/* 1 when every value of the object o is count_ok. */
static int counts_ok(json_t *o, int whole, int null_ok)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v)
        if (!count_ok(v, whole, null_ok))
            return 0;
    return 1;
}

/* A run line's scores: an object of whole numbers (negative ones too:
 * hits on allies count against). */
static int scores_ok(json_t *o)
{
    const char *k;
    json_t *v;
    if (!json_is_object(o))
        return 0;
    json_object_foreach(o, k, v)
        if (!json_is_integer(v))
            return 0;
    return 1;
}

/* The fields a run line that ran must have, with their JSON types; the
 * counts and times are never negative (a run never writes one: a
 * negative count is a corrupted or forged line, and would skew means). */
static const char *missing_field(json_t *o)
{
    static const struct { const char *name; json_type t; } need[] = {
        { "ticks", JSON_INTEGER }, { "seconds", JSON_REAL }, { "collisions", JSON_INTEGER },
        { "shots", JSON_INTEGER }, { "hits", JSON_INTEGER },
        { "knockouts", JSON_OBJECT }, { "best_lap", JSON_OBJECT },
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        json_t *v = json_object_get(o, need[i].name);
        if (!v || (json_typeof(v) != need[i].t
                   && !(need[i].t == JSON_REAL && json_is_integer(v))))
            return need[i].name;
        if (json_is_number(v) && !count_ok(v, need[i].t == JSON_INTEGER, 0))
            return need[i].name;
    }
    if (!counts_ok(json_object_get(o, "knockouts"), 1, 0))
        return "knockouts";
    if (!counts_ok(json_object_get(o, "best_lap"), 0, 1))
        return "best_lap";
    json_t *laps = json_object_get(o, "laps");
    if (laps && !(json_is_object(laps) && counts_ok(laps, 1, 0)))
        return "laps";
    json_t *sc = json_object_get(o, "scores");
    if (sc && !scores_ok(sc))
        return "scores";
    json_t *w = json_object_get(o, "winner");
    if (!w || !(json_is_string(w) || json_is_null(w)))
        return "winner";
    return NULL;
}

static int group_of(struct agg *a, json_t *set)
{
    char *key = json_dumps(set, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!key)
        return -1;
    int g = name_find(&a->by_key, key, NULL);
    if (g >= 0) {
        free(key);
        return g;
    }
    if (a->ng == INT_MAX
        || grow_reserve(&a->groups, &a->gcap, (size_t)a->ng + 1, sizeof *a->groups)
        || name_add(&a->by_key, key, NULL, a->ng)) {
        free(key);
        return -1;
    }
    a->groups[a->ng] = (struct group){ key, set, NULL, 0, 0, 0, 0 };
    return a->ng++;
}

/* What a run line never holds, refused from its shape before jansson
 * builds it (io/replay_read.h, json_shape): a run line is an object whose
 * values are strings, numbers, null or objects of those.  1 with *why
 * set, 1 with *why NULL for an aggregate line (skipped unread: it is
 * recomputed), else 0. */
static int refuse_shape(const char *line, char **why)
{
    struct json_shape sh;
    json_shape_scan(line, strlen(line), &sh);
    char at[96];
    if (!sh.object) {
        *why = whyf("not a JSON object: ", "a run line is one object {\"type\":\"run\",...}");
        return 1;
    }
    if (json_shape_type_is(&sh, "aggregate"))
        return 1;
    if (sh.array_at || sh.depth > 2) {
        snprintf(at, sizeof at, "%s at byte %zu", sh.array_at ? "an array" : "an object "
                 "in an object's object", sh.array_at ? sh.array_at : sh.deeper_at);
        *why = whyf(at, "; a run line's values are strings, numbers, null or objects of "
                    "those (no arrays)");
        return 1;
    }
    return 0;
}

int agg_add(struct agg *a, const char *line, char **why)
{
    *why = NULL;
    if (refuse_shape(line, why))
        return *why ? -1 : 0;
    json_error_t e;
    json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &e);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        *why = whyf("not a JSON object: ", o ? "" : e.text);
        return -1;
    }
    const char *type = json_string_value(json_object_get(o, "type"));
    if (type && strcmp(type, "aggregate") == 0) {
        json_decref(o);
        return 0;               /* a job's own aggregate: recomputed here */
    }
    json_t *seed = json_object_get(o, "seed"), *set = json_object_get(o, "set");
    json_t *failed = json_object_get(o, "failed");
    const char *bad = !type || strcmp(type, "run") ? "type (expected \"run\" or \"aggregate\")"
        : !json_is_integer(seed) || json_integer_value(seed) < 0 ? "seed"
        : !json_is_object(set) ? "set"
        : failed ? (json_is_string(failed) ? NULL : "failed")
        : missing_field(o);
    const char *k;
    json_t *v;
    json_object_foreach(set, k, v)
        if (!bad && !json_is_string(v))
            bad = "set (its values are strings)";
    if (bad) {
        json_decref(o);
        *why = whyf("a run line without a valid field ", bad);
        return -1;
    }
    char *copy = strdup(line);
    int g = copy && !grow_reserve(&a->runs, &a->cap, (size_t)a->n + 1, sizeof *a->runs)
        ? group_of(a, set) : -1;
    struct group *gp = g >= 0 ? &a->groups[g] : NULL;
    if (!gp || grow_reserve(&gp->runs, &gp->cap, (size_t)gp->n + 1, sizeof *gp->runs)) {
        free(copy);
        json_decref(o);
        *why = whyf("out of memory", "");
        return -1;
    }
    copy[strcspn(copy, "\r\n")] = 0;
    gp->runs[gp->n++] = a->n;
    struct run *r = &a->runs[a->n++];
    r->o = o;
    r->line = copy;
    r->seed = json_integer_value(seed);
    r->failed = failed ? json_string_value(failed) : NULL;
    return 0;
}

/* ---- the aggregate line ------------------------------------------------- */

static void put_str(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(t ? t : "null", f);
    free(t);
    json_decref(j);
}

static void put_num(FILE *f, const char *key, double v, int valid)
{
    char buf[40];
    if (!valid || trace_number(buf, v))
        snprintf(buf, sizeof buf, "null");
    fprintf(f, "\"%s\":%s", key, buf);
}

static void put_interval(FILE *f, long k, long n, struct interval *iv)
{
    if (n > 0)
        *iv = wilson95(k, n);
    fprintf(f, "{\"n\":%ld,", k);
    put_num(f, "rate", iv->p, n > 0);
    fputc(',', f);
    put_num(f, "lo", iv->lo, n > 0);
    fputc(',', f);
    put_num(f, "hi", iv->hi, n > 0);
    fputc('}', f);
}

static void put_spread(FILE *f, const char *name, const double *x, long n, int with_n)
{
    double m, sd;
    mean_sd(x, n, &m, &sd);
    fprintf(f, ",\"%s\":{", name);
    if (with_n)
        fprintf(f, "\"n\":%ld,", n);
    put_num(f, "mean", m, n > 0);
    fputc(',', f);
    put_num(f, "sd", sd, n > 0);
    fputc('}', f);
}

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* The team `name` of gs (found through x, with *cap the room in
 * gs->teams), added after the others when new: its index, or -1 out of
 * memory. */
static int team_index(struct group_stat *gs, struct name_index *x, size_t *cap,
                      const char *name)
{
    int t = name_find(x, name, NULL);
    if (t >= 0)
        return t;
    char *copy = gs->nteams < INT_MAX ? strdup(name) : NULL;
    if (!copy || grow_reserve(&gs->teams, cap, (size_t)gs->nteams + 1, sizeof *gs->teams)
        || name_add(x, copy, NULL, gs->nteams)) {
        free(copy);
        return -1;
    }
    gs->teams[gs->nteams] = (struct team_stat){ copy, 0, { 0, 0, 0 } };
    return gs->nteams++;
}

/* The counts of a group's runs (r[0..n), in seed order) into gs: the
 * teams in the order they first appear. */
static int count_group(struct run *const *r, long n, struct group_stat *gs)
{
    struct name_index x = { NULL, 0, 0 };
    size_t cap = 0;
    int rc = 0;
    gs->runs = n;
    for (long i = 0; rc == 0 && i < n; i++) {
        if (r[i]->failed) {
            gs->failed++;
            continue;
        }
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(r[i]->o, "knockouts"), k, v)
            if (rc == 0 && team_index(gs, &x, &cap, k) < 0)
                rc = -1;
        const char *w = json_string_value(json_object_get(r[i]->o, "winner"));
        int t = w && rc == 0 ? team_index(gs, &x, &cap, w) : -2;
        if (t == -1)
            rc = -1;
        else if (t >= 0)
            gs->teams[t].wins++;
        else if (rc == 0)
            gs->draws++;
    }
    name_index_free(&x);
    gs->ok = n - gs->failed;
    return rc;
}

/* Each team's mean score over the runs that ran and carry it, with its
 * 95% interval (mean95; null below two runs), into x (room for n). */
static void put_scores(FILE *f, struct run *const *r, long n, const struct group_stat *gs,
                       double *x)
{
    fputs(",\"scores\":{", f);
    for (int t = 0; t < gs->nteams; t++) {
        long k = 0;
        for (long i = 0; i < n; i++) {
            json_t *v = r[i]->failed ? NULL
                : json_object_get(json_object_get(r[i]->o, "scores"), gs->teams[t].name);
            if (json_is_integer(v))
                x[k++] = (double)json_integer_value(v);
        }
        struct interval iv = { 0, 0, 0 };
        if (k >= 2)
            iv = mean95(x, k);
        else if (k == 1)
            iv.p = x[0];
        fprintf(f, "%s", t ? "," : "");
        put_str(f, gs->teams[t].name);
        fprintf(f, ":{\"n\":%ld,", k);
        put_num(f, "mean", iv.p, k > 0);
        fputc(',', f);
        put_num(f, "lo", iv.lo, k > 1);
        fputc(',', f);
        put_num(f, "hi", iv.hi, k > 1);
        fputc('}', f);
    }
    fputc('}', f);
}

/* The measures' values over the runs that ran, into x (room for every
 * car of every run): collisions, seconds, hit rates, best laps. */
static void put_measures(FILE *f, struct run *const *r, long n, double *x, long cap)
{
    static const char *const plain[] = { "collisions", "seconds" };
    for (int m = 0; m < 2; m++) {
        long k = 0;
        for (long i = 0; i < n; i++)
            if (!r[i]->failed)
                x[k++] = num(r[i]->o, plain[m]);
        put_spread(f, plain[m], x, k, 0);
    }
    long k = 0;
    double hits = 0, shots = 0;
    for (long i = 0; i < n; i++)
        if (!r[i]->failed && num(r[i]->o, "shots") > 0) {
            x[k++] = num(r[i]->o, "hits") / num(r[i]->o, "shots");
            hits += num(r[i]->o, "hits");
            shots += num(r[i]->o, "shots");
        }
    put_spread(f, "hit_rate", x, k, 1);
    fputs(",", f);
    put_num(f, "hits_per_shot", shots > 0 ? hits / shots : 0, shots > 0);
    k = 0;
    for (long i = 0; i < n; i++) {
        const char *car;
        json_t *v;
        if (!r[i]->failed)
            json_object_foreach(json_object_get(r[i]->o, "best_lap"), car, v)
                if (json_is_number(v) && k < cap)
                    x[k++] = json_number_value(v);
    }
    put_spread(f, "best_lap", x, k, 1);
}

static int put_aggregate(FILE *f, const struct group *g, struct run *const *r,
                         struct group_stat *gs)
{
    if (count_group(r, g->n, gs))
        return -1;
    long cap = g->n;
    for (long i = 0; i < g->n; i++)
        if (!r[i]->failed)
            cap += (long)json_object_size(json_object_get(r[i]->o, "best_lap"));
    double *x = malloc(((size_t)cap + 1) * sizeof *x);
    if (!x)
        return -1;
    fprintf(f, "{\"type\":\"aggregate\",\"set\":%s,\"runs\":%ld,\"failed\":%ld,\"wins\":{",
            g->key, gs->runs, gs->failed);
    for (int t = 0; t < gs->nteams; t++) {
        fputs(t ? "," : "", f);
        put_str(f, gs->teams[t].name);
        fputc(':', f);
        put_interval(f, gs->teams[t].wins, gs->ok, &gs->teams[t].iv);
    }
    fputs("},\"draws\":", f);
    put_interval(f, gs->draws, gs->ok, &gs->draw_iv);
    put_scores(f, r, g->n, gs, x);
    put_measures(f, r, g->n, x, cap);
    free(x);
    fputs(",\"failures\":[", f);
    long nf = 0;
    for (long i = 0; i < g->n; i++)
        if (r[i]->failed) {
            fprintf(f, "%s{\"seed\":%lld,\"reason\":", nf++ ? "," : "", r[i]->seed);
            put_str(f, r[i]->failed);
            fputc('}', f);
        }
    fputs("]}\n", f);
    return 0;
}

/* ---- the groups in order ------------------------------------------------ */

static int by_seed(const void *x, const void *y)
{
    const struct run *a = *(struct run *const *)x, *b = *(struct run *const *)y;
    return (a->seed > b->seed) - (a->seed < b->seed);
}

/* The group's settings for the chart's labels. */
static int label_group(const struct group *g, struct group_stat *gs)
{
    size_t n = json_object_size(g->set), len = 1;
    gs->keys = calloc(n + 1, sizeof *gs->keys);
    gs->values = calloc(n + 1, sizeof *gs->values);
    const char *k;
    json_t *v;
    json_object_foreach(g->set, k, v)
        len += strlen(k) + strlen(json_string_value(v)) + 2;
    gs->label = malloc(len);
    if (!gs->keys || !gs->values || !gs->label)
        return -1;
    gs->label[0] = 0;
    json_object_foreach(g->set, k, v) {
        gs->keys[gs->nkeys] = (char *)k;
        gs->values[gs->nkeys++] = (char *)json_string_value(v);
        size_t at = strlen(gs->label);
        snprintf(gs->label + at, len - at, "%s%s=%s", at ? " " : "", k, json_string_value(v));
    }
    return 0;
}

static void free_stats(struct group_stat *gs, int ng)
{
    for (int g = 0; gs && g < ng; g++) {
        for (int t = 0; t < gs[g].nteams; t++)
            free(gs[g].teams[t].name);
        free(gs[g].teams);
        free(gs[g].label);
        free(gs[g].keys);
        free(gs[g].values);
    }
    free(gs);
}

/* 1 when standard output failed (said once, with why: a full disk, the
 * file size limit), else 0.  A failed put_aggregate leaves it in error. */
static int stdout_failed(void)
{
    static int said;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (!said)
        fprintf(stderr, "botfield: cannot write standard output: %s\n", trace_strerror(errno));
    said = 1;
    return 1;
}

int agg_emit(struct agg *a, const struct tour_options *t, int group_complete)
{
    if (a->ng == 0)
        return 0;
    struct group *g = &a->groups[a->ng - 1];
    if (t->chart) {
        /* The chart draws the runs, not their lines: a failed run's line,
         * which says why it failed, goes to standard error instead. */
        for (; g->printed < g->n; g->printed++)
            if (a->runs[g->runs[g->printed]].failed)
                fprintf(stderr, "botfield: a run failed: %s\n", a->runs[g->runs[g->printed]].line);
        return 0;
    }
    for (; g->printed < g->n; g->printed++)
        printf("%s\n", a->runs[g->runs[g->printed]].line);
    int rc = 0;
    if (group_complete) {
        struct run **r = malloc(((size_t)g->n + 1) * sizeof *r);
        struct group_stat *gs = calloc(1, sizeof *gs);
        for (long i = 0; r && i < g->n; i++)
            r[i] = &a->runs[g->runs[i]];
        rc = r && gs ? put_aggregate(stdout, g, r, gs) : -1;
        g->closed = rc == 0;
        free(r);
        free_stats(gs, 1);
    }
    return stdout_failed() || rc ? -1 : 0;
}

int agg_finish(struct agg *a, const struct tour_options *t, int ascii)
{
    struct run **order = malloc(((size_t)a->n + 1) * sizeof *order);
    json_t **objs = malloc(((size_t)a->n + 1) * sizeof *objs);
    struct group_stat *gs = calloc((size_t)a->ng + 1, sizeof *gs);
    int rc = order && objs && gs ? 0 : 1;
    long at = 0, failed = 0;
    /* With --chart the aggregate lines are drawn, not printed; those
     * agg_emit printed are not printed again. */
    char *unused = NULL;
    size_t unused_len = 0;
    FILE *junk = open_memstream(&unused, &unused_len);
    if (!junk)
        rc = 1;
    for (int g = 0; rc == 0 && g < a->ng; g++) {
        struct run **r = order + at;
        for (long i = 0; i < a->groups[g].n; i++)
            r[i] = &a->runs[a->groups[g].runs[i]];
        qsort(r, (size_t)a->groups[g].n, sizeof *r, by_seed);
        for (long i = 1; i < a->groups[g].n; i++)
            if (r[i]->seed == r[i - 1]->seed) {
                fprintf(stderr, "botfield: seed %lld with the settings %s comes twice\n",
                        r[i]->seed, a->groups[g].key);
                rc = 2;
            }
        for (long i = 0; rc == 0 && i < a->groups[g].n; i++) {
            if (!t->chart && i >= a->groups[g].printed)
                printf("%s\n", r[i]->line);
            else if (i >= a->groups[g].printed && r[i]->failed)     /* --aggregate --chart */
                fprintf(stderr, "botfield: a run failed: %s\n", r[i]->line);
            objs[at + i] = r[i]->o;
        }
        FILE *out = t->chart || a->groups[g].closed ? junk : stdout;
        if (rc == 0 && (put_aggregate(out, &a->groups[g], r, &gs[g])
                        || label_group(&a->groups[g], &gs[g])))
            rc = 1;
        failed += gs[g].failed;
        at += a->groups[g].n;
    }
    if (junk)
        fclose(junk);
    free(unused);
    if (rc == 0 && t->chart)
        rc = chart_draw(stdout, gs, a->ng, !ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
            ? 1 : 0;
    if (rc == 0 && t->csv && csv_write(t->csv, objs, at))
        rc = 1;
    if (stdout_failed() && rc == 0)
        rc = 1;
    free_stats(gs, a->ng);
    free(order);
    free(objs);
    return rc ? rc : failed ? 1 : 0;
}

/* ---- --aggregate FILE... ------------------------------------------------ */

int tour_aggregate_files(struct tour_options *t, const struct tour_cli *cli)
{
    struct agg *a = agg_new();
    int rc = a ? 0 : 1;
    char *line = NULL;
    size_t cap = 0;
    for (int i = 0; rc == 0 && i < cli->nargs; i++) {
        const char *path = cli->args[i];
        int std = strcmp(path, "-") == 0;
        FILE *f = std ? stdin : fopen(path, "r");
        if (!f) {
            fprintf(stderr, "botfield: --aggregate %s: cannot read: %s\n", path, strerror(errno));
            rc = 2;
            break;
        }
        size_t n;
        enum text_line got;
        long no = 0;
        while (rc == 0 && (got = text_getline(f, &line, &cap, RUN_LINE_MAX, &n)) != TEXT_EOF) {
            char *why = NULL;
            const char *name = std ? "(standard input)" : path;
            no++;
            if (got != TEXT_LINE) {
                if (got == TEXT_LONG)
                    fprintf(stderr, "botfield: %s:%ld: a line longer than %zu bytes; a run "
                            "line is at most %zu\n", name, no, n, (size_t)RUN_LINE_MAX);
                else if (got == TEXT_NUL)
                    fprintf(stderr, "botfield: %s:%ld: a NUL byte at byte %zu; run lines "
                            "are text (JSON Lines)\n", name, no, n + 1);
                else if (got == TEXT_NOMEM)
                    fprintf(stderr, "botfield: %s:%ld: out of memory\n", name, no);
                else
                    fprintf(stderr, "botfield: --aggregate %s: cannot read: %s\n", path,
                            strerror(errno));
                rc = 2;
                break;
            }
            if (strspn(line, " \t\r\n") == n)
                continue;       /* a blank line */
            if (agg_add(a, line, &why)) {
                /* jansson's message quotes the line: its bytes, escaped */
                char *safe = why ? text_printable(why, 0) : NULL;
                fprintf(stderr, "botfield: %s:%ld: %s\n", name, no, safe ? safe : "out of memory");
                free(safe);
                rc = 2;
            }
            free(why);
        }
        if (ferror(f) && rc == 0) {
            fprintf(stderr, "botfield: --aggregate %s: cannot read: %s\n", path, strerror(errno));
            rc = 2;
        }
        if (!std)
            fclose(f);
    }
    free(line);
    if (rc == 0 && a->n == 0) {
        fprintf(stderr, "botfield: --aggregate: no run lines in the files given\n");
        rc = 2;
    }
    if (rc == 0)
        rc = agg_finish(a, t, cli->ascii);
    agg_free(a);
    return rc;
}
