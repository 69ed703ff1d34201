/* ladder_text.c — a finished match committed (its recording, its result,
 * its bots' logs) and what the arena-shell commands print: ladder, bots,
 * log, matches, fetch. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "ladder_impl.h"
#include "settings.h"

static void path_of(const struct arena_ladder *l, long id, const char *ext, char *out, size_t n)
{
    snprintf(out, n, "%s/matches/%ld%s", l->dir, id, ext);
}

/* The side (0, 1) whose bot drives vehicle id, -1 none. */
static int side_of(const struct games_setup *g, const char *id)
{
    size_t n = strlen(id);
    for (int k = 0; k < g->nkeys; k++)
        if (!strncmp(g->keys[k], id, n) && !strcmp(g->keys[k] + n, ".bot"))
            return g->key_team[k];
    return -1;
}

/* A bot_error or log line of the trace into its side's log (its last
 * LADDER_LOG_LINES kept). */
static void log_line(const struct games_setup *g, long match, json_t *o, json_t *logs[2])
{
    const char *type = json_string_value(json_object_get(o, "type"));
    const char *id = json_string_value(json_object_get(o, "id"));
    int side = id ? side_of(g, id) : -1;
    if (side < 0)
        return;
    int err = !strcmp(type, "bot_error");
    json_t *e = json_object();
    json_object_set_new(e, "match", json_integer(match));
    json_object_set(e, "tick", json_object_get(o, "tick"));
    json_object_set_new(e, "vehicle", json_string(id));
    json_object_set_new(e, "type", json_string(type));
    json_object_set(e, "text", json_object_get(o, err ? "error" : "text"));
    json_array_append_new(logs[side], e);
    if (json_array_size(logs[side]) > LADDER_LOG_LINES)
        json_array_remove(logs[side], 0);
}

/* The summary's winner and scores into r. */
static void summary(const struct games_setup *g, json_t *o, struct lresult *r)
{
    json_t *w = json_object_get(o, "winner"), *sc = json_object_get(o, "scores");
    r->winner = -1;
    for (int t = 0; t < 2; t++) {
        if (json_is_string(w) && !strcmp(json_string_value(w), g->team[t]))
            r->winner = t;
        r->score[t] = json_integer_value(json_object_get(sc, g->team[t]));
    }
}

/* The trace's summary (1: found) and its bots' lines. */
static int read_trace(const struct arena_ladder *l, const struct lmatch *m, struct lresult *r,
                      json_t *logs[2])
{
    char path[4200];
    path_of(l, m->id, ".trace.part", path, sizeof path);
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    int found = 0;
    const struct games_setup *g = &l->maps[m->map].g;
    while (f && getline(&line, &cap, f) > 0) {
        int sum = !strncmp(line, "{\"type\":\"summary\"", 17);
        if (!sum && strncmp(line, "{\"type\":\"bot_error\"", 19)
            && strncmp(line, "{\"type\":\"log\"", 13))
            continue;
        json_t *o = json_loads(line, 0, NULL);
        if (o && sum) {
            summary(g, o, r);
            found = 1;
        } else if (o) {
            log_line(g, m->id, o, logs);
        }
        json_decref(o);
    }
    free(line);
    if (f)
        fclose(f);
    return found;
}

/* Why a match failed, as everybody may read it (`matches`): its status
 * only.  What the match said (a bot's load error names its script) goes
 * to the daemon's own log, never to the people. */
static char *failure(const struct arena_ladder *l, long id, int status)
{
    char path[4200], buf[300] = "", why[200];
    path_of(l, id, ".out.part", path, sizeof path);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    for (char *c = buf; *c; c++)
        if (*c == '\n' || *c == '\t')
            *c = ' ';
    if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "killed by signal %d (%s)", WTERMSIG(status),
                 WTERMSIG(status) == SIGKILL || WTERMSIG(status) == SIGXCPU
                 ? "over its time bound" : "a crash");
    else if (WIFEXITED(status) && WEXITSTATUS(status))
        snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(status));
    else
        snprintf(why, sizeof why, "its recording or its result was not written");
    fprintf(stderr, "botfield serve: match %ld failed: %s%s%s\n", id, why, *buf ? ": " : "",
            buf);
    return strdup(why);
}

/* A bot's log file with lines added, its last LADDER_LOG_LINES kept. */
static void log_write(const struct arena_ladder *l, int bot, json_t *lines)
{
    const struct lbot *b = &l->bots[bot];
    char dir[4200], name[64], path[4300];
    snprintf(dir, sizeof dir, "%s/bots/%s", l->dir, b->person);
    snprintf(name, sizeof name, "%s.log.jsonl", b->name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    json_t *all = json_array();
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    while (f && getline(&line, &cap, f) > 0)
        json_array_append_new(all, json_string(line));
    if (f)
        fclose(f);
    free(line);
    size_t i;
    json_t *e;
    json_array_foreach(lines, i, e) {
        char *s = json_dumps(e, JSON_COMPACT | JSON_PRESERVE_ORDER);
        size_t n = s ? strlen(s) : 0;
        char *s2 = s ? realloc(s, n + 2) : NULL;
        if (s2) {
            memcpy(s2 + n, "\n", 2);
            json_array_append_new(all, json_string(s2));
        }
        free(s2 ? s2 : s);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    size_t from = json_array_size(all) > LADDER_LOG_LINES
        ? json_array_size(all) - LADDER_LOG_LINES : 0;
    for (i = from; m && i < json_array_size(all); i++)
        fputs(json_string_value(json_array_get(all, i)), m);
    if (m && !fclose(m) && arena_write_atomic(dir, name, buf, len))
        fprintf(stderr, "botfield serve: cannot write %s\n", path);
    free(buf);
    json_decref(all);
}

/* ID.part renamed to ID.rec (synced): 0, or -1. */
static int commit_recording(const struct arena_ladder *l, long id)
{
    char part[4200], rec[4200], dir[4200];
    path_of(l, id, ".part", part, sizeof part);
    path_of(l, id, ".rec", rec, sizeof rec);
    snprintf(dir, sizeof dir, "%s/matches", l->dir);
    if (rename(part, rec))
        return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    return 0;
}

void ladder_finish(struct arena_ladder *l, const struct lmatch *m, int status)
{
    struct lresult r = { m->id, m->map, m->seed, l->s->rounds > 0 ? l->s->rounds : 1,
                         { m->bot[0], m->bot[1] }, -2, { 0, 0 }, NULL };
    json_t *logs[2] = { json_array(), json_array() };
    int got = read_trace(l, m, &r, logs);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) || commit_recording(l, m->id)) {
        r.winner = -2;
        r.failed = failure(l, m->id, status);
    }
    char path[4200];
    for (const char *const *e = (const char *const[]){ ".part", ".trace.part", ".out.part",
                                                       ".now.part", NULL }; *e; e++) {
        path_of(l, m->id, *e, path, sizeof path);
        unlink(path);
    }
    if (ladder_append_result(l, &r)) {
        fprintf(stderr, "botfield serve: cannot append match %ld to results.jsonl: %s\n",
                m->id, strerror(errno));
        free(r.failed);
        /* not committed: its recording goes (fetch serves committed
         * matches only; the next start would remove it too) */
        path_of(l, m->id, ".rec", path, sizeof path);
        unlink(path);
    }
    for (int t = 0; t < 2; t++) {
        if (json_array_size(logs[t]))
            log_write(l, m->bot[t], logs[t]);
        json_decref(logs[t]);
    }
    if (ladder_fit_start(l))
        fprintf(stderr, "botfield serve: cannot start the ratings' refit: %s\n",
                strerror(errno));
}

/* ---- the commands ------------------------------------------------------- */

static char *text_of(FILE *m, char **buf)
{
    if (fclose(m)) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

/* o as one compact line ending in a newline (malloc'd; o's reference is
 * taken); NULL when memory ran out. */
static char *json_line(json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    json_decref(o);
    char *t = s ? realloc(s, strlen(s) + 2) : NULL;
    if (t)
        strcat(t, "\n");
    else
        free(s);
    return t;
}

char *arena_ladder_table(struct arena_ladder *l, int json)
{
    ladder_fit_poll(l, 0);
    if (json) {
        return json_line(ladder_json(l));
    }
    int n;
    int *v = ladder_ranked(l, &n);
    char *buf = NULL, key[80];
    size_t len = 0;
    FILE *m = v ? open_memstream(&buf, &len) : NULL;
    if (!m)
        return free(v), NULL;
    if (n == 0)
        fputs("no bots yet\n", m);
    else
        fprintf(m, "%4s  %-65s %7s  %-17s %6s %8s\n", "rank", "bot", "elo", "95% interval",
                "games", "points");
    for (int k = 0; k < n; k++) {
        const struct lbot *b = &l->bots[v[k]];
        ladder_bot_key(b, key, sizeof key);
        fprintf(m, "%4d  %-65s %7.1f  [%7.1f, %7.1f] %6ld %8.1f\n", k + 1, key, b->r.elo,
                b->r.lo, b->r.hi, b->r.games, 0.5 * (double)b->r.half_points);
    }
    free(v);
    return text_of(m, &buf);
}

/* The text of a bot's last error in its log ("" none). */
static void last_error(const struct arena_ladder *l, const struct lbot *b, char *out, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/bots/%s/%s.log.jsonl", l->dir, b->person, b->name);
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    *out = 0;
    while (f && getline(&line, &cap, f) > 0) {
        if (!strstr(line, "\"type\":\"bot_error\""))
            continue;
        json_t *o = json_loads(line, 0, NULL);
        const char *t = json_string_value(json_object_get(o, "text"));
        if (t)
            snprintf(out, n, "match %lld: %s", json_integer_value(json_object_get(o, "match")),
                     t);
        json_decref(o);
    }
    free(line);
    if (f)
        fclose(f);
}

static long matches_of(const struct arena_ladder *l, int bot)
{
    long n = 0;
    for (long i = 0; i < l->nres; i++)
        n += l->res[i].bot[0] == bot || l->res[i].bot[1] == bot;
    return n;
}

char *arena_ladder_bots(struct arena_ladder *l, const char *person)
{
    ladder_fit_poll(l, 0);
    char *buf = NULL, when[32], err[200];
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    int any = 0;
    for (int i = 0; i < l->nbots; i++) {
        const struct lbot *b = &l->bots[i];
        if (!b->current || strcmp(b->person, person))
            continue;
        if (!any++)
            fprintf(m, "%-32s %-17s %7s %7s  %s\n", "bot", "submitted (UTC)", "matches",
                    "elo", "last error");
        struct tm tm;
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", gmtime_r(&b->submitted, &tm));
        last_error(l, b, err, sizeof err);
        fprintf(m, "%-32s %-17s %7ld %7.1f  %s\n", b->name, when, matches_of(l, i),
                b->r.elo, *err ? err : "-");
    }
    if (!any)
        fputs("no bots yet: submit one (botfield-arena(7))\n", m);
    return text_of(m, &buf);
}

/* One line of a bot's log as text. */
static void log_text(FILE *m, const char *line)
{
    json_t *o = json_loads(line, 0, NULL);
    const char *type = json_string_value(json_object_get(o, "type"));
    const char *text = json_string_value(json_object_get(o, "text"));
    if (type && text)
        fprintf(m, "match %lld tick %lld %s %s: %s\n",
                json_integer_value(json_object_get(o, "match")),
                json_integer_value(json_object_get(o, "tick")),
                json_string_value(json_object_get(o, "vehicle")),
                strcmp(type, "bot_error") ? "log" : "error", text);
    json_decref(o);
}

char *arena_ladder_log(struct arena_ladder *l, const char *person, const char *bot)
{
    if (!arena_name_ok(person) || !arena_name_ok(bot))
        return strdup("no such bot\n");
    char path[4200], *buf = NULL, *line = NULL;
    size_t len = 0, cap = 0;
    snprintf(path, sizeof path, "%s/bots/%s/%s.log.jsonl", l->dir, person, bot);
    FILE *m = open_memstream(&buf, &len), *f = fopen(path, "r");
    if (!m) {
        if (f)
            fclose(f);
        return NULL;
    }
    while (f && getline(&line, &cap, f) > 0)
        log_text(m, line);
    free(line);
    if (f)
        fclose(f);
    fflush(m);
    if (len == 0)
        fprintf(m, "no errors or log lines of %s yet\n", bot);
    return text_of(m, &buf);
}

/* How a match failed, as `matches` shows it: the status alone (a result
 * written by an earlier version put what the match said before it, after
 * which came "; "). */
static const char *failed_status(const char *failed)
{
    const char *s = failed ? strrchr(failed, ';') : NULL;
    return !failed ? "?" : s && s[1] == ' ' ? s + 2 : failed;
}

char *arena_ladder_matches(struct arena_ladder *l, long n)
{
    char *buf = NULL, a[80], b[80];
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    if (n <= 0)
        n = 20;
    if (l->nres == 0)
        fputs("no matches yet\n", m);
    for (long i = l->nres - 1; i >= 0 && i >= l->nres - n; i--) {
        const struct lresult *r = &l->res[i];
        ladder_bot_key(&l->bots[r->bot[0]], a, sizeof a);
        ladder_bot_key(&l->bots[r->bot[1]], b, sizeof b);
        fprintf(m, "%ld  %s  %s vs %s  ", r->id, r->map >= 0 ? l->s->maps[r->map] : "?", a, b);
        if (r->winner == -2)
            fprintf(m, "failed: %s\n", failed_status(r->failed));
        else if (r->winner < 0)
            fprintf(m, "draw %ld-%ld\n", r->score[0], r->score[1]);
        else
            fprintf(m, "%s won %ld-%ld\n", r->winner ? b : a, r->score[0], r->score[1]);
    }
    return text_of(m, &buf);
}

char *arena_ladder_fetch(struct arena_ladder *l, const char *person, long id, char **err)
{
    char path[4200], msg[200], *buf = NULL, *line = NULL;
    size_t len = 0, cap = 0;
    path_of(l, id, ".rec", path, sizeof path);
    FILE *f = id > 0 && id < l->next_id && arena_name_ok(person) ? fopen(path, "r") : NULL;
    if (!f) {
        snprintf(msg, sizeof msg, "no such match %ld (see `matches`: a failed match or one "
                 "being played has no recording)\n", id);
        *err = strdup(msg);
        return NULL;
    }
    FILE *m = open_memstream(&buf, &len);
    for (ssize_t n; m && (n = getline(&line, &cap, f)) > 0;)
        if (arena_private_keep(line, (size_t)n, person))
            fwrite(line, 1, (size_t)n, m);
    free(line);
    fclose(f);
    char *out = m ? text_of(m, &buf) : NULL;
    if (!out)
        *err = strdup("out of memory\n");
    return out;
}

/* Elo to one decimal (0 for none yet: JSON has no NaN). */
static double tenth(double v)
{
    return isfinite(v) ? round(v * 10) / 10 : 0;
}

/* The watch screen's ladder: one {"type":"arena","ladder":[...]} line of
 * the first ARENA_WATCH_LADDER_ROWS bots and every bot of PERSON's (rows
 * [rank, "person/bot", elo, lo, hi, games]), so that a thousand bots do
 * not cost every watcher a hundred kilobytes; "bots" says how many there
 * are in all. */
char *arena_ladder_watch_line(struct arena_ladder *l, const char *person)
{
    ladder_fit_poll(l, 0);
    int n;
    int *v = ladder_ranked(l, &n);
    json_t *rows = json_array(), *o = json_object();
    char key[80];
    for (int k = 0; v && rows && k < n; k++) {
        const struct lbot *b = &l->bots[v[k]];
        if (k >= ARENA_WATCH_LADDER_ROWS && strcmp(b->person, person))
            continue;
        ladder_bot_key(b, key, sizeof key);
        json_array_append_new(rows, json_pack("[i s f f f I]", k + 1, key, tenth(b->r.elo),
                                              tenth(b->r.lo), tenth(b->r.hi),
                                              (json_int_t)b->r.games));
    }
    free(v);
    json_object_set_new(o, "type", json_string("arena"));
    json_object_set_new(o, "ladder", rows);
    json_object_set_new(o, "bots", json_integer(n));
    json_object_set_new(o, "matches", json_integer(l->nres));
    return json_line(o);
}
