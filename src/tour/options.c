/* options.c — --seeds, --set, --jobs, --csv, --chart and --aggregate read
 * and checked; the sweep's combinations. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "tour.h"
#include "tour_impl.h"
#include "core/world.h"
#include "io/keys.h"
#include "io/map_write.h"

static int bad(const char *opt, const char *value, const char *allowed)
{
    fprintf(stderr, "botfield: %s %s: %s\n"
            "Try 'botfield --help' for more information.\n", opt, value, allowed);
    return 2;
}

static int digits(const char *s, size_t n, uint64_t *out)
{
    if (n == 0 || n > 20)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int parse_seeds(struct tour_options *t, const char *arg)
{
    const char *dash = strchr(arg, '-');
    /* Up to 2^63-1: the run lines are read back as JSON integers, which
     * jansson keeps signed. */
    const char *allowed = "expected A-B, two seeds from 0 to 9223372036854775807 "
                          "(digits only) with A <= B and at most 1000000 runs";
    if (!dash || digits(arg, (size_t)(dash - arg), &t->lo)
        || digits(dash + 1, strlen(dash + 1), &t->hi) || t->hi < t->lo
        || t->hi > (uint64_t)INT64_MAX
        || t->hi - t->lo >= TOUR_MAX_RUNS)
        return bad("--seeds", arg, allowed);
    t->has_seeds = 1;
    return 0;
}

/* Whether the key's values are lists themselves ("x y r, x y r"): then a
 * comma does not make a sweep. */
static int list_valued(const char *key)
{
    const char *dot = strrchr(key, '.');
    size_t n = strcspn(key, ".");
    for (unsigned b = 0; b < SEC_NKINDS; b++)
        if (strlen(section_names[b]) == n && strncasecmp(section_names[b], key, n) == 0) {
            const struct key_def *k = key_find(1u << b, dot + 1);
            return k && (k->type == KEY_XYR_LIST || k->type == KEY_ROUTE);
        }
    return 0;
}

/* KEY=VALUE or KEY=V1,V2,...: the key is SECTION.KEY of the map. */
static int parse_set(struct tour_options *t, const char *arg)
{
    const char *eq = strchr(arg, '=');
    size_t klen = eq ? (size_t)(eq - arg) : 0;
    int ok = klen > 0 && arg[0] != '.' && arg[klen - 1] != '.' && memchr(arg, '.', klen);
    for (size_t i = 0; ok && i < klen; i++)
        ok = isalnum((unsigned char)arg[i]) || strchr("._-", arg[i]);
    if (!ok)
        return bad("--set", arg, "expected SECTION.KEY=VALUE as in the map "
                   "(e.g. team.red.turn_rate=30), or a list of values "
                   "separated by commas (a sweep)");
    /* The value goes into the map's text and the output's JSON strings. */
    json_t *check = json_string(eq + 1);
    int clean = check != NULL;
    json_decref(check);
    for (const char *p = eq + 1; clean && *p; p++)
        clean = (unsigned char)*p >= 0x20 && *p != 0x7f;
    if (!clean)
        return bad("--set", arg, "the value must be UTF-8 text without control "
                   "characters (no newline)");
    for (int i = 0; i < t->nsets; i++)
        if (strlen(t->sets[i].key) == klen && strncasecmp(t->sets[i].key, arg, klen) == 0)
            return bad("--set", arg, "that key is set twice; give its values "
                       "once, as a list separated by commas");
    struct tour_set *s = realloc(t->sets, ((size_t)t->nsets + 1) * sizeof *s);
    if (!s)
        return bad("--set", arg, "out of memory");
    t->sets = s;
    s = &t->sets[t->nsets];
    memset(s, 0, sizeof *s);
    char *key = strndup(arg, klen);
    char *vals = strdup(eq + 1);
    if (!key || !vals) {
        free(key);
        free(vals);
        return bad("--set", arg, "out of memory");
    }
    s->key = key;
    int sweep = !list_valued(key);
    for (char *p = vals;;) {
        char *comma = sweep ? strchr(p, ',') : NULL;
        if (comma)
            *comma = 0;
        const char *why = NULL;
        char **v = realloc(s->values, ((size_t)s->nvalues + 1) * sizeof *v);
        if (!v) {
            why = "out of memory";
        } else {
            s->values = v;
            v[s->nvalues++] = p;
            if (comma && (comma == p || !comma[1]))
                why = "a list of values has an empty item";
            for (int i = 0; !why && i + 1 < s->nvalues; i++)
                if (strcmp(v[i], p) == 0)
                    why = "a value comes twice in the list";
        }
        if (why) {
            /* the set is not kept: nothing of it may stay allocated */
            free(s->values);
            free(key);
            free(vals);
            memset(s, 0, sizeof *s);
            return bad("--set", arg, why);
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    t->nsets++;
    return 0;
}

/* The options live until the process exits (the single-run settings are
 * read by the map loader to the end): freed then, so that valgrind's
 * leak check of any run stays clean. */
static struct tour_options *registered;    /* static storage in main.c */

static void free_options(void)
{
    struct tour_options *t = registered;
    for (int i = 0; i < t->nsets; i++) {
        free((char *)t->sets[i].key);
        if (t->sets[i].nvalues)
            free(t->sets[i].values[0]);     /* the one copy the values point into */
        free(t->sets[i].values);
    }
    free(t->sets);
    free(t->one);
}

int tour_option(struct tour_options *t, int code, const char *arg)
{
    if (!registered && atexit(free_options) == 0)
        registered = t;
    t->given = 1;
    switch (code) {
    case TOUR_OPT_SEEDS: return parse_seeds(t, arg);
    case TOUR_OPT_SET: return parse_set(t, arg);
    case TOUR_OPT_JOBS: {
        char *end;
        errno = 0;
        t->jobs = strtol(arg, &end, 10);
        if (errno || end == arg || *end || t->jobs < 1 || t->jobs > 1024)
            return bad("--jobs", arg, "expected a number of processes, 1 to 1024");
        return 0;
    }
    case TOUR_OPT_CSV: t->csv = arg; return 0;
    case TOUR_OPT_CHART: t->chart = 1; return 0;
    case TOUR_OPT_AGGREGATE: t->aggregate = 1; return 0;
    default: return 2;
    }
}

long tour_combos(const struct tour_options *t)
{
    long n = 1;
    for (int i = 0; i < t->nsets; i++)
        n *= t->sets[i].nvalues;
    return n;
}

int tour_combo_sets(const struct tour_options *t, long combo, struct map_set *out)
{
    /* The first --set varies slowest, as nested loops in the order given. */
    for (int i = t->nsets - 1; i >= 0; i--) {
        long n = t->sets[i].nvalues;
        out[i].key = t->sets[i].key;
        out[i].value = t->sets[i].values[combo % n];
        combo /= n;
    }
    return t->nsets;
}

/* 1 when a and b are one file (by another name, or a link to it). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0
        && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* --csv over one of the run's inputs (the map, a file of run lines) would
 * destroy it once the runs are done: refused before anything runs (2).
 * The CSV is written after every battle: one that cannot be written is
 * said before the first (1, as when the write fails). */
static int csv_over_input(const struct tour_options *t, const struct tour_cli *cli,
                          const char *what)
{
    for (int i = 0; t->csv && i < cli->nargs; i++)
        if (strcmp(cli->args[i], "-") && same_file(t->csv, cli->args[i])) {
            fprintf(stderr, "botfield: --csv %s: that is %s; the CSV would overwrite it\n",
                    t->csv, what);
            return 2;
        }
    int e = t->csv ? file_cannot_write(t->csv) : 0;
    if (e) {
        fprintf(stderr, "botfield: --csv %s: cannot write: %s\n", t->csv, strerror(e));
        return 1;
    }
    return 0;
}

/* --record DIR with --seeds: a folder for the runs' recordings, made
 * when missing (its parent must exist); a file of that name is refused,
 * never replaced. */
static int record_folder(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        fprintf(stderr, "botfield: --record %s: not a folder; with --seeds, --record names a "
                "folder that gets one recording per run (SEED.rec)\n", dir);
        return 2;
    }
    if (mkdir(dir, 0777) == 0)
        return 0;
    fprintf(stderr, "botfield: --record %s: cannot make the folder: %s\n", dir,
            strerror(errno));
    return 2;
}

static int refuse(const char *what)
{
    fprintf(stderr, "botfield: %s\nTry 'botfield --help' for more information.\n", what);
    return 2;
}

int tour_main(struct tour_options *t, const struct tour_cli *cli, struct map_options *map)
{
    /* Which options go with --aggregate and --seeds was checked with the
     * table of options (cli_options.c). */
    if (t->aggregate) {
        if (cli->nargs < 1)
            return refuse("--aggregate needs the files of run lines to read");
        int rc = csv_over_input(t, cli, "a file of run lines being read");
        if (rc)
            return rc;
        return tour_aggregate_files(t, cli);
    }
    if (!t->has_seeds) {
        for (int i = 0; i < t->nsets; i++)
            if (t->sets[i].nvalues > 1) {
                /* The whole list, as typed: quoting its first value alone
                 * ("--set team.red.aim=classic") hid what was wrong. */
                fprintf(stderr, "botfield: --set %s=", t->sets[i].key);
                for (int k = 0; k < t->sets[i].nvalues; k++)
                    fprintf(stderr, "%s%s", k ? "," : "", t->sets[i].values[k]);
                fprintf(stderr, ": a list of values is a sweep: it needs --seeds "
                        "(and --headless); one run takes one value\n");
                return 2;
            }
        t->one = calloc((size_t)t->nsets + 1, sizeof *t->one);
        if (!t->one)
            return refuse("out of memory");
        map->nset = tour_combo_sets(t, 0, t->one);
        map->set = t->one;
        return -1;
    }
    int crc = csv_over_input(t, cli, "the map file itself");
    if (crc)
        return crc;
    /* Every run reads the map: a pipe would give it to the first only. */
    struct stat st;
    if (cli->nargs && stat(cli->args[0], &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(stderr, "botfield: %s: not a regular file; every run of a tournament "
                "reads the map, so it must be a file (not a pipe or a device)\n",
                cli->args[0]);
        return 2;
    }
    /* A map that does not load would fail every run: said once, before
     * any runs (a bad --set fails only the runs that use it). */
    if (cli->nargs) {
        struct world w;
        struct map_error me = { NULL, 0 };
        struct map_options mo = { 1, t->lo, 1, NULL, 0 };
        if (map_load(cli->args[0], &mo, &w, &me)) {
            fputs(me.text ? me.text : "botfield: cannot load the map\n", stderr);
            map_error_free(&me);
            return 2;
        }
        world_free(&w);
    }
    if (tour_combos(t) * (long)(t->hi - t->lo + 1) > TOUR_MAX_RUNS)
        return refuse("--seeds and --set: more than 1000000 runs in all");
    if (cli->record && record_folder(cli->record))
        return 2;
    return tour_run(t, cli);
}
