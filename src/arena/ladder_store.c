/* ladder_store.c — the ladder's files: the bots found in bots/, the
 * results (results.jsonl, the commit point of a match), the ratings fit
 * from all of them and ladder.json. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "ladder_impl.h"
#include "settings.h"
#include "store.h"
#include "bot/bot.h"

void ladder_bot_key(const struct lbot *b, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", b->person, b->name);
}

static unsigned long hash_of(const char *person, const char *name, const char *sha)
{
    unsigned long h = 5381;
    for (const char *p[3] = { person, name, sha }, **q = p; q < p + 3; q++) {
        for (const char *c = *q; *c; c++)
            h = h * 33 + (unsigned char)*c;
        h = h * 33 + '/';
    }
    return h;
}

static int same(const struct lbot *b, const char *person, const char *name, const char *sha)
{
    return !strcmp(b->person, person) && !strcmp(b->name, name) && !strcmp(b->sha, sha);
}

/* The index doubled when half full. */
static int rehash(struct arena_ladder *l)
{
    int cap = l->hcap ? l->hcap * 2 : 1024;
    int *h = malloc((size_t)cap * sizeof *h);
    if (!h)
        return -1;
    memset(h, -1, (size_t)cap * sizeof *h);
    for (int i = 0; i < l->nbots; i++) {
        const struct lbot *b = &l->bots[i];
        unsigned long k = hash_of(b->person, b->name, b->sha) & (unsigned long)(cap - 1);
        while (h[k] >= 0)
            k = (k + 1) & (unsigned long)(cap - 1);
        h[k] = i;
    }
    free(l->hash);
    l->hash = h;
    l->hcap = cap;
    return 0;
}

static int ident_new(struct arena_ladder *l, const char *person, const char *name,
                   const char *sha)
{
    if (l->nbots == l->capbots) {
        int cap = l->capbots ? l->capbots * 2 : 64;
        struct lbot *b = realloc(l->bots, (size_t)cap * sizeof *b);
        if (!b)
            return -1;
        l->bots = b;
        l->capbots = cap;
    }
    struct lbot *b = &l->bots[l->nbots];
    memset(b, 0, sizeof *b);
    snprintf(b->person, sizeof b->person, "%s", person);
    snprintf(b->name, sizeof b->name, "%s", name);
    snprintf(b->sha, sizeof b->sha, "%s", sha);
    l->nbots++;
    l->refit = 1;
    if (2 * l->nbots > l->hcap)
        return rehash(l) ? -1 : l->nbots - 1;
    unsigned long mask = (unsigned long)(l->hcap - 1);
    unsigned long k = hash_of(person, name, sha) & mask;
    while (l->hash[k] >= 0)
        k = (k + 1) & mask;
    l->hash[k] = l->nbots - 1;
    return l->nbots - 1;
}

/* The identity (person, name, version): its index, -1 when absent (add:
 * added) or memory ran out. */
int ladder_bot_find(struct arena_ladder *l, const char *person, const char *name,
                    const char *sha, int add)
{
    if (!l->hcap && rehash(l))
        return -1;
    unsigned long mask = (unsigned long)(l->hcap - 1);
    for (unsigned long k = hash_of(person, name, sha) & mask; l->hash[k] >= 0;
         k = (k + 1) & mask)
        if (same(&l->bots[l->hash[k]], person, name, sha))
            return l->hash[k];
    return add ? ident_new(l, person, name, sha) : -1;
}

/* bots/PERSON/NAME.lua as it is now: its version becomes the current one
 * (none when the file is gone or unreadable).  0, or -1 out of memory. */
int ladder_scan_one(struct arena_ladder *l, const char *person_in, const char *name_in)
{
    /* copies: the caller's may live in l->bots, which adding moves */
    char person[LADDER_NAME], name[LADDER_NAME];
    snprintf(person, sizeof person, "%s", person_in);
    snprintf(name, sizeof name, "%s", name_in);
    for (int i = 0; i < l->nbots; i++)
        if (!strcmp(l->bots[i].person, person) && !strcmp(l->bots[i].name, name))
            l->bots[i].current = 0;
    char rel[128], msg[256], path[4200];
    snprintf(rel, sizeof rel, "bots/%s/%s.lua", person, name);
    struct bot_script sc;
    if (bot_script_read(l->dir, rel, &sc, msg, sizeof msg)) {
        fprintf(stderr, "botfield serve: %s: %s (not in the ladder)\n", rel, msg);
        return 0;
    }
    char sha[LADDER_SHA];
    snprintf(sha, sizeof sha, "%.12s", sc.sha256);
    bot_script_free(&sc);
    int i = ladder_bot_find(l, person, name, sha, 1);
    if (i < 0)
        return -1;
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", l->dir, rel);
    l->bots[i].current = 1;
    l->bots[i].submitted = stat(path, &st) ? 0 : st.st_mtime;
    l->refit = 1;
    return 0;
}

/* NAME.lua with NAME a good name: NAME in out. */
static int lua_name(const char *file, char *out)
{
    size_t n = strlen(file);
    if (n < 5 || n - 4 >= LADDER_NAME || strcmp(file + n - 4, ".lua"))
        return 0;
    memcpy(out, file, n - 4);
    out[n - 4] = 0;
    return arena_name_ok(out);
}

/* The names in a folder that pass keep(), sorted (the scan's order does
 * not depend on the file system's). */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **names_in(const char *path, size_t *n)
{
    DIR *d = opendir(path);
    char **v = NULL;
    *n = 0;
    if (!d)
        return NULL;
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nv = realloc(v, cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        if (!(v[*n] = strdup(e->d_name)))
            break;
        (*n)++;
    }
    closedir(d);
    if (v)
        qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

static void names_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* One person's folder. */
static int scan_person(struct arena_ladder *l, const char *person)
{
    char path[4200], name[LADDER_NAME];
    snprintf(path, sizeof path, "%s/bots/%s", l->dir, person);
    size_t n;
    char **files = names_in(path, &n);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (lua_name(files[i], name))
            rc = ladder_scan_one(l, person, name);
    names_free(files, n);
    return rc;
}

int ladder_scan_bots(struct arena_ladder *l, char **err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/bots", l->dir);
    size_t n;
    char **people = names_in(path, &n);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (arena_name_ok(people[i]))
            rc = scan_person(l, people[i]);
    names_free(people, n);
    if (rc)
        *err = strdup("botfield serve: out of memory reading bots/\n");
    return rc;
}

/* ---- results.jsonl ------------------------------------------------------ */

static int map_index(const struct arena_ladder *l, const char *name)
{
    for (int i = 0; i < l->s->nmaps; i++)
        if (!strcmp(l->s->maps[i], name))
            return i;
    return -1;
}

/* "person/bot" and its version into the identity: its index or -1. */
static int result_bot(struct arena_ladder *l, json_t *bot, json_t *ver)
{
    const char *b = json_string_value(bot), *v = json_string_value(ver);
    const char *slash = b ? strchr(b, '/') : NULL;
    char person[LADDER_NAME];
    if (!slash || !v || slash - b >= LADDER_NAME || strlen(v) >= LADDER_SHA)
        return -2;
    snprintf(person, sizeof person, "%.*s", (int)(slash - b), b);
    if (!arena_name_ok(person) || !arena_name_ok(slash + 1))
        return -2;
    return ladder_bot_find(l, person, slash + 1, v, 1);
}

/* A result line's fields into r: NULL, or what is wrong. */
static const char *result_parse(struct arena_ladder *l, json_t *o, struct lresult *r)
{
    json_t *bots = json_object_get(o, "bots"), *ver = json_object_get(o, "versions");
    json_t *w = json_object_get(o, "winner"), *sc = json_object_get(o, "scores");
    json_t *failed = json_object_get(o, "failed");
    memset(r, 0, sizeof *r);
    r->id = json_integer_value(json_object_get(o, "id"));
    if (r->id < 1)
        return "\"id\" must be a match number from 1";
    const char *map = json_string_value(json_object_get(o, "map"));
    r->map = map ? map_index(l, map) : -1;
    r->seed = (uint64_t)json_integer_value(json_object_get(o, "seed"));
    r->rounds = (int)json_integer_value(json_object_get(o, "rounds"));
    for (int t = 0; t < 2; t++)
        if ((r->bot[t] = result_bot(l, json_array_get(bots, (size_t)t),
                                    json_array_get(ver, (size_t)t))) < 0)
            return r->bot[t] == -1 ? "out of memory"
                                   : "\"bots\" and \"versions\" must be two \"person/bot\" "
                                     "names and two versions";
    if (json_is_string(failed)) {
        r->winner = -2;
        r->failed = strdup(json_string_value(failed));
        return r->failed ? NULL : "out of memory";
    }
    r->winner = json_is_null(w) ? -1 : json_is_integer(w) ? (int)json_integer_value(w) : -3;
    if (r->winner < -1 || r->winner > 1)
        return "\"winner\" must be 0, 1 or null (or \"failed\" a reason)";
    for (int t = 0; t < 2; t++)
        r->score[t] = json_integer_value(json_array_get(sc, (size_t)t));
    return NULL;
}

static int result_push(struct arena_ladder *l, const struct lresult *r)
{
    if (l->nres == l->capres) {
        long cap = l->capres ? l->capres * 2 : 1024;
        struct lresult *v = realloc(l->res, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        l->res = v;
        l->capres = cap;
    }
    l->res[l->nres++] = *r;
    l->failed += r->winner == -2;
    for (int t = 0; t < 2 && r->winner != -2; t++)
        if (r->bot[t] >= 0 && r->bot[t] < l->nbots)
            l->bots[r->bot[t]].played++;
    if (r->id >= l->next_id)
        l->next_id = r->id + 1;
    l->refit = 1;
    return 0;
}

/* One line (NUL-ended in place): NULL, or what is wrong with it. */
static const char *result_line(struct arena_ladder *l, const char *line, size_t n)
{
    json_t *o = json_loadb(line, n, 0, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return "not a JSON object";
    }
    struct lresult r;
    const char *why = result_parse(l, o, &r);
    json_decref(o);
    if (!why && result_push(l, &r))
        why = "out of memory";
    if (why)
        free(r.failed);
    return why;
}

/* The file's lines; a torn or bad last line is cut off (the daemon was
 * killed while appending it: that match was never committed). */
static int results_parse(struct arena_ladder *l, const char *file, char *buf, size_t len,
                         char **err)
{
    size_t at = 0;
    for (long line = 1; at < len; line++) {
        char *nl = memchr(buf + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;
        const char *why = nl ? result_line(l, buf + at, n) : "no end of line (torn)";
        int last = !nl || (size_t)(nl - buf) + 1 == len;
        if (why && last) {
            fprintf(stderr, "botfield serve: %s:%ld: %s: the last line is ignored "
                    "(a match that was being recorded when the daemon stopped)\n",
                    file, line, why);
            return truncate(file, (off_t)at) ? -1 : 0;
        }
        if (why) {
            char msg[4400];
            snprintf(msg, sizeof msg, "botfield serve: %s:%ld: %s (each line is a finished "
                     "match as the daemon wrote it)\n", file, line, why);
            *err = strdup(msg);
            return -1;
        }
        at += n + 1;
    }
    return 0;
}

int ladder_read_results(struct arena_ladder *l, char **err)
{
    char file[4200];
    snprintf(file, sizeof file, "%s/results.jsonl", l->dir);
    FILE *f = fopen(file, "r");
    if (!f)
        return errno == ENOENT ? 0 : (*err = strdup("botfield serve: cannot read "
                                                    "results.jsonl\n"), -1);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[65536];
    for (size_t got; m && (got = fread(chunk, 1, sizeof chunk, f)) > 0;)
        fwrite(chunk, 1, got, m);
    int bad = ferror(f) || !m;
    fclose(f);
    if (m)
        fclose(m);
    int rc = bad ? -1 : results_parse(l, file, buf, len, err);
    if (rc && !*err)
        *err = strdup("botfield serve: cannot read results.jsonl\n");
    free(buf);
    return rc;
}

/* A result as its JSON line. */
static char *result_json(const struct arena_ladder *l, const struct lresult *r)
{
    json_t *o = json_object(), *bots = json_array(), *ver = json_array();
    char key[80];
    json_object_set_new(o, "id", json_integer(r->id));
    json_object_set_new(o, "map", json_string(l->s->maps[r->map]));
    json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(o, "rounds", json_integer(r->rounds));
    for (int t = 0; t < 2; t++) {
        ladder_bot_key(&l->bots[r->bot[t]], key, sizeof key);
        json_array_append_new(bots, json_string(key));
        json_array_append_new(ver, json_string(l->bots[r->bot[t]].sha));
    }
    json_object_set_new(o, "bots", bots);
    json_object_set_new(o, "versions", ver);
    if (r->winner == -2) {
        json_object_set_new(o, "failed", json_string(r->failed ? r->failed : "?"));
    } else {
        json_object_set_new(o, "winner", r->winner < 0 ? json_null() : json_integer(r->winner));
        json_object_set_new(o, "scores", json_pack("[I,I]", (json_int_t)r->score[0],
                                                   (json_int_t)r->score[1]));
        int h = r->winner == 0 ? 2 : r->winner == 1 ? 0 : 1;
        json_object_set_new(o, "half_points", json_pack("[i,i]", h, 2 - h));
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

/* Appended and synced: the match is committed.  0, or -1. */
int ladder_append_result(struct arena_ladder *l, const struct lresult *r)
{
    char file[4200];
    snprintf(file, sizeof file, "%s/results.jsonl", l->dir);
    char *line = result_json(l, r);
    int fd = line ? open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
    size_t n = line ? strlen(line) : 0;
    int rc = -1;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0) {
        line[n] = '\n';         /* (json_dumps' NUL: the line is written by length) */
        rc = write(fd, line, n + 1) == (ssize_t)(n + 1) && fsync(fd) == 0 ? 0 : -1;
        int e = errno;
        /* a short write (a full disk) cut back: the next line must not
         * follow a torn one, which the next start could not read past */
        if (rc && ftruncate(fd, st.st_size) == 0)
            fsync(fd);
        errno = e;
    }
    if (fd >= 0)
        close(fd);
    free(line);
    if (rc == 0 && result_push(l, r))
        rc = -1;
    return rc;
}

/* ---- ratings ------------------------------------------------------------ */

static const struct arena_ladder *sort_ladder;

static int cmp_ident(const void *a, const void *b)
{
    const struct lbot *x = &sort_ladder->bots[*(const int *)a];
    const struct lbot *y = &sort_ladder->bots[*(const int *)b];
    int c = strcmp(x->person, y->person);
    c = c ? c : strcmp(x->name, y->name);
    return c ? c : strcmp(x->sha, y->sha);
}

/* The games in the sorted identities' indices (rank[i]: identity i's). */
static struct rating_game *fit_games(const struct arena_ladder *l, const int *rank, long *n)
{
    struct rating_game *g = malloc((size_t)(l->nres + 1) * sizeof *g);
    *n = 0;
    for (long i = 0; g && i < l->nres; i++) {
        const struct lresult *r = &l->res[i];
        if (r->winner == -2 || r->bot[0] == r->bot[1])
            continue;
        int h = r->winner == 0 ? 2 : r->winner == 1 ? 0 : 1;
        g[(*n)++] = (struct rating_game){ rank[r->bot[0]], rank[r->bot[1]], h };
    }
    return g;
}

/* Every identity fit from every result, in an order that depends on the
 * results only (the identities sorted), centred on their mean: the same
 * ratings whatever order the matches finished or the bots were found. */
int ladder_fit(struct arena_ladder *l)
{
    int n = l->nbots, rc = -1;
    if (n == 0)
        return 0;
    int *order = malloc((size_t)n * sizeof *order), *rank = malloc((size_t)n * sizeof *rank);
    struct rating *out = malloc((size_t)n * sizeof *out);
    struct rating_game *g = NULL;
    long ng = 0;
    if (order && rank && out) {
        for (int i = 0; i < n; i++)
            order[i] = i;
        sort_ladder = l;
        qsort(order, (size_t)n, sizeof *order, cmp_ident);
        for (int i = 0; i < n; i++)
            rank[order[i]] = i;
        g = fit_games(l, rank, &ng);
    }
    if (g && ratings_fit(n, g, ng, 0, out) == 0) {
        double mean = 0;
        for (int i = 0; i < n; i++)
            mean += out[i].elo / n;
        for (int i = 0; i < n; i++) {
            struct rating r = out[rank[i]];
            r.elo -= mean, r.lo -= mean, r.hi -= mean;
            l->bots[i].r = r;
            l->bots[i].rated = 1;
        }
        l->refit = 0;
        rc = 0;
    }
    free(order), free(rank), free(out), free(g);
    return rc;
}

/* ---- ladder.json -------------------------------------------------------- */

static int cmp_rank(const void *a, const void *b)
{
    const struct lbot *x = &sort_ladder->bots[*(const int *)a];
    const struct lbot *y = &sort_ladder->bots[*(const int *)b];
    if (x->r.elo != y->r.elo)
        return x->r.elo < y->r.elo ? 1 : -1;
    return cmp_ident(a, b);
}

/* The current bots, best first: their indices (n of them, malloc'd). */
int *ladder_ranked(struct arena_ladder *l, int *n)
{
    int *v = malloc((size_t)(l->nbots + 1) * sizeof *v);
    *n = 0;
    for (int i = 0; v && i < l->nbots; i++)
        if (l->bots[i].current)
            v[(*n)++] = i;
    sort_ladder = l;
    if (v)
        qsort(v, (size_t)*n, sizeof *v, cmp_rank);
    return v;
}

/* Elo to one decimal: the same text for the same fit. */
static json_t *elo_json(double v)
{
    return json_real(round(v * 10) / 10);
}

json_t *ladder_json(struct arena_ladder *l)
{
    int n;
    int *v = ladder_ranked(l, &n);
    json_t *a = json_array();
    char key[80];
    for (int k = 0; v && k < n; k++) {
        const struct lbot *b = &l->bots[v[k]];
        ladder_bot_key(b, key, sizeof key);
        json_t *o = json_object();
        json_object_set_new(o, "rank", json_integer(k + 1));
        json_object_set_new(o, "bot", json_string(key));
        json_object_set_new(o, "version", json_string(b->sha));
        json_object_set_new(o, "elo", elo_json(b->r.elo));
        json_object_set_new(o, "lo", elo_json(b->r.lo));
        json_object_set_new(o, "hi", elo_json(b->r.hi));
        json_object_set_new(o, "games", json_integer(b->r.games));
        json_object_set_new(o, "points", json_real(0.5 * (double)b->r.half_points));
        json_array_append_new(a, o);
    }
    free(v);
    return a;
}

int ladder_write_json(struct arena_ladder *l)
{
    if (l->refit && ladder_fit(l))
        return -1;
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(l->s->name ? l->s->name : ""));
    json_object_set_new(o, "matches", json_integer(l->nres));
    json_object_set_new(o, "failed", json_integer(l->failed));
    json_object_set_new(o, "ladder", ladder_json(l));
    char *s = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    json_decref(o);
    int rc = s ? arena_write_atomic(l->dir, "ladder.json", s, strlen(s)) : -1;
    free(s);
    return rc;
}
