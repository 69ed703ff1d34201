/* games.c — games between bots in child processes (games.h).
 *
 * As runner.c does for --seeds: every game is a process of its own, so
 * nothing one bot does reaches another game.  The pool here is simpler:
 * the results are read in the list's order (the oldest game's pipe first;
 * a game that finished early waits in its pipe), which is the order they
 * are wanted in, and the only one that keeps --sprt's decision the same
 * for any --jobs. */
#include "config.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "games.h"
#include "bot/bot.h"
#include "bot/bot_world.h"
#include "core/world.h"
#include "run/headless.h"

static int setup_error(const char *what, const char *detail)
{
    fprintf(stderr, "botfield: %s: %s\n", what, detail);
    return 2;
}

/* The vehicles' bot keys and teams from the loaded map. */
static int read_teams(struct games_setup *s, const struct world *w)
{
    if (w->teams.n != 2)
        return setup_error(s->map, "--ladder and --sprt need a map of exactly two teams "
                           "(each bot drives every vehicle of one)");
    for (int t = 0; t < 2; t++)
        if (!(s->team[t] = strdup(w->teams.p[t].name)))
            return setup_error(s->map, "out of memory");
    s->keys = calloc(w->vehicles.n + 1, sizeof *s->keys);
    s->key_team = calloc(w->vehicles.n + 1, sizeof *s->key_team);
    if (!s->keys || !s->key_team)
        return setup_error(s->map, "out of memory");
    int seen[2] = { 0, 0 };
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (v->team < 0)
            continue;           /* a car races for no team */
        size_t len = strlen(v->id) + sizeof ".bot";
        char *k = malloc(len);
        if (!k)
            return setup_error(s->map, "out of memory");
        snprintf(k, len, "%s.bot", v->id);
        s->keys[s->nkeys] = k;
        s->key_team[s->nkeys++] = v->team;
        seen[v->team] = 1;
    }
    if (!seen[0] || !seen[1])
        return setup_error(s->map, "a team has no vehicle for a bot to drive");
    return 0;
}

/* name is free for bot i: no other bot's, and no file of the map's folder
 * (which a map's own bot key could name). */
static int name_free(const struct games_setup *s, const char *dir, const char *name, int i)
{
    for (int k = 0; k < i; k++)
        if (strcmp(s->bots[k], name) == 0)
            return 0;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) != 0;
}

/* The name of bot i (real path `real`) in the games: its path from the
 * map's folder when it is inside, else its file name (or "N-name", N its
 * place on the command line, when that is taken). */
static int bot_name(struct games_setup *s, const char *dir, const char *real, int i)
{
    size_t n = strlen(dir);
    if (strncmp(real, dir, n) == 0 && real[n] == '/')
        return (s->bots[i] = strdup(real + n + 1)) ? 0 : -1;
    const char *base = strrchr(real, '/') + 1;
    size_t len = strlen(base) + 24;
    if (!(s->bots[i] = malloc(len)))
        return -1;
    snprintf(s->bots[i], len, "%s", base);
    if (!name_free(s, dir, s->bots[i], i))
        snprintf(s->bots[i], len, "%d-%s", i + 1, base);
    return name_free(s, dir, s->bots[i], i) ? 0 : 1;
}

/* Bot i's script from its real path, under the rules of any script (a
 * regular file, its size capped) but in its own folder, which is the
 * user's choice: kept as text for the games. */
static int bot_text(struct games_setup *s, const char *bot, const char *real, int i)
{
    char folder[PATH_MAX], msg[512];
    snprintf(folder, sizeof folder, "%.*s", (int)(strrchr(real, '/') - real), real);
    struct bot_script sc;
    if (bot_script_read(*folder ? folder : "/", strrchr(real, '/') + 1, &sc, msg, sizeof msg))
        return setup_error(bot, msg);
    int nul = memchr(sc.bytes, 0, sc.len) != NULL;
    if (!nul && (s->texts[i] = malloc(sc.len + 1))) {
        memcpy(s->texts[i], sc.bytes, sc.len);
        s->texts[i][sc.len] = 0;
    }
    bot_script_free(&sc);
    if (nul)
        return setup_error(bot, "a NUL byte: a bot script is text");
    return s->texts[i] ? 0 : setup_error(bot, "out of memory");
}

/* A bot named on the command line: the user typed its path, so it may be
 * anywhere (a map's bot keys, a stranger's file, never leave the map's
 * folder: that rule is the map loader's and is unchanged). */
static int bot_path(struct games_setup *s, const char *dir, const char *bot, int i)
{
    char real[PATH_MAX];
    if (!realpath(bot, real))
        return setup_error(bot, strerror(errno));
    size_t len = strlen(real);
    if (len < 5 || strcmp(real + len - 4, ".lua"))
        return setup_error(bot, "a bot must be a .lua file");
    for (int k = 0; k < i; k++)
        if (strcmp(s->real[k], real) == 0)
            return setup_error(bot, "that bot is given twice");
    if (!(s->real[i] = strdup(real)))
        return setup_error(bot, "out of memory");
    int rc = bot_name(s, dir, real, i);
    if (rc)
        return setup_error(bot, rc < 0 ? "out of memory"
                           : "its file name is taken in the map's folder and by another bot; "
                             "rename it");
    return bot_text(s, bot, real, i);
}

int games_setup(struct games_setup *s, const char *map, const char *maps_dir,
                char *const *bots, int nbots)
{
    memset(s, 0, sizeof *s);
    s->map = map;
    s->maps_dir = maps_dir;
    struct world w;
    struct map_error me = { NULL, 0 };
    struct map_options mo = { 1, 1, 1, NULL, 0 };
    if (map_load(map, &mo, &w, &me)) {
        fputs(me.text ? me.text : "botfield: cannot load the map\n", stderr);
        map_error_free(&me);
        return 2;
    }
    int rc = read_teams(s, &w);
    world_free(&w);
    char real[PATH_MAX];
    if (!rc && !realpath(map, real))
        rc = setup_error(map, strerror(errno));
    s->bots = calloc((size_t)nbots + 1, sizeof *s->bots);
    s->real = calloc((size_t)nbots + 1, sizeof *s->real);
    s->texts = calloc((size_t)nbots + 1, sizeof *s->texts);
    s->nbots = nbots;
    if (!rc && (!s->bots || !s->real || !s->texts))
        rc = setup_error(map, "out of memory");
    const char *dir = rc ? "" : dirname(real);
    for (int i = 0; !rc && i < nbots; i++)
        rc = bot_path(s, dir, bots[i], i);
    return rc;
}

void games_setup_free(struct games_setup *s)
{
    free(s->team[0]);
    free(s->team[1]);
    for (int k = 0; k < s->nkeys; k++)
        free(s->keys[k]);
    free(s->keys);
    free(s->key_team);
    for (int i = 0; s->bots && i < s->nbots; i++)
        free(s->bots[i]);
    free(s->bots);
    for (int i = 0; s->real && i < s->nbots; i++)
        free(s->real[i]);
    free(s->real);
    for (int i = 0; s->texts && i < s->nbots; i++)
        free(s->texts[i]);
    free(s->texts);
}

/* In the child: the game headless, its summary (and any message) on fd. */
static void play_child(const struct games_setup *s, const struct game *g, int fd)
{
    if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
        _exit(1);
    struct map_set *set = calloc((size_t)s->nkeys + 1, sizeof *set);
    if (!set)
        _exit(1);
    for (int k = 0; k < s->nkeys; k++)
        set[k] = (struct map_set){ s->keys[k], s->bots[g->bot[s->key_team[k]]] };
    struct map_options mo = { 1, g->seed, 0, set, s->nkeys };
    struct world w;
    struct map_error me = { NULL, 0 };
    if (map_load(s->map, &mo, &w, &me)) {
        fputs(me.text ? me.text : "botfield: cannot load the map\n", stderr);
        fflush(stderr);
        _exit(2);
    }
    struct bot_world *bots = NULL;
    char *berr = NULL;
    /* the user's bots by their texts; any other bot key of the map from
     * its folder, under the map's rules */
    struct bot_texts given = { (size_t)s->nbots, (const char *const *)s->bots,
                               (const char *const *)s->texts };
    if (bot_world_attach_given(&w, s->maps_dir, &given, &bots, &berr)) {
        fprintf(stderr, "%s\n", berr ? berr : "botfield: cannot load the bots");
        fflush(stderr);
        _exit(2);
    }
    struct headless_options ho = { -1, NULL, 1, 1, bots, 0, 1, 0 };
    int rc = headless_run(&w, &ho);
    fflush(NULL);
    _exit(rc);
}

static pid_t start(const struct games_setup *s, const struct game *g, int *fd)
{
    int p[2];
    if (pipe(p))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        play_child(s, g, p[1]);
    }
    close(p[1]);
    if (pid < 0)
        close(p[0]);
    *fd = p[0];
    return pid;
}

/* Everything the child writes, to its end (kept up to 64 KiB). */
static char *read_all(int fd)
{
    size_t n = 0;
    char *buf = calloc(1, 1), chunk[4096];
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        char *b = n < 65536 && buf ? realloc(buf, n + (size_t)got + 1) : NULL;
        if (b) {
            memcpy(b + n, chunk, (size_t)got);
            n += (size_t)got;
            b[n] = 0;
            buf = b;
        }
    }
    close(fd);
    return buf;
}

/* Why a game failed: its messages on one line, and its exit status. */
static char *failure(const char *out, int status)
{
    size_t n = out ? strlen(out) : 0;
    char *why = malloc(n + 64);
    if (!why)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (out[i] != '\n')
            why[k++] = out[i];
        else if (i + 1 < n)
            why[k++] = ';', why[k++] = ' ';
    if (WIFSIGNALED(status))
        snprintf(why + k, 64, "%skilled by signal %d", k ? "; " : "", WTERMSIG(status));
    else
        snprintf(why + k, 64, "%sexit status %d", k ? "; " : "", WEXITSTATUS(status));
    return why;
}

/* The game's result from its summary line ("winner": a team or null). */
static struct game_result result_of(const struct games_setup *s, const char *out, int status)
{
    static const char head[] = "{\"type\":\"summary\",";
    struct game_result r = { -1, NULL, NULL };
    const char *line = out ? strstr(out, head) : NULL;
    json_t *o = line && WIFEXITED(status) && WEXITSTATUS(status) == 0
        ? json_loadb(line, strcspn(line, "\n"), 0, NULL) : NULL;
    json_t *w = o ? json_object_get(o, "winner") : NULL;
    if (w && json_is_null(w))
        r.half0 = 1;
    for (int t = 0; t < 2 && json_is_string(w); t++)
        if (strcmp(json_string_value(w), s->team[t]) == 0) {
            r.half0 = t == 0 ? 2 : 0;
            r.winner = s->team[t];
        }
    json_decref(o);
    if (r.half0 < 0)
        r.why = failure(out, status);
    return r;
}

static void stop_all(pid_t *pid, int *fd, long jobs)
{
    for (long k = 0; k < jobs; k++)
        if (pid[k] > 0) {
            kill(pid[k], SIGKILL);
            close(fd[k]);
            waitpid(pid[k], NULL, 0);
            pid[k] = 0;
        }
}

int games_play(const struct games_setup *s, const struct game *games, long n, long jobs,
               game_done_fn done, void *ctx)
{
    pid_t *pid = calloc((size_t)jobs, sizeof *pid);
    int *fd = calloc((size_t)jobs, sizeof *fd);
    int rc = pid && fd ? 0 : -1;
    long next = 0;
    for (long i = 0; rc == 0 && i < n; i++) {
        for (; next < n && next - i < jobs; next++)
            if ((pid[next % jobs] = start(s, &games[next], &fd[next % jobs])) < 0) {
                fprintf(stderr, "botfield: cannot start a game: %s\n", strerror(errno));
                rc = -1;
                break;
            }
        if (rc)
            break;
        long k = i % jobs;
        char *out = read_all(fd[k]);
        int status = 0;
        while (waitpid(pid[k], &status, 0) < 0 && errno == EINTR)
            ;
        pid[k] = 0;
        struct game_result r = result_of(s, out, status);
        free(out);
        int stop = done(ctx, i, &r);
        free(r.why);
        if (stop)
            break;
    }
    if (pid && fd)
        stop_all(pid, fd, jobs);
    free(pid);
    free(fd);
    return rc;
}

/* ---- results read back (botfield-parallel's merge) ----------------------- */

static int read_error(const char *file, long line, const char *what)
{
    fprintf(stderr, "botfield: --games %s:%ld: %s\n", file, line, what);
    return 2;
}

/* The last part of a path. */
static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Whether a line's bot name is bot i: the same file name as the path the
 * user gave or its real one (a job names the bot by its own copy's path). */
static int same_bot(const struct games_setup *s, char *const *given, int i, const char *name)
{
    return strcmp(base_of(name), base_of(given[i])) == 0
        || strcmp(base_of(name), base_of(s->real[i])) == 0;
}

/* A game line's result for game g: 0, or 2 after saying what is wrong. */
static int line_result(const struct games_setup *s, char *const *given, const struct game *g,
                       json_t *o, const char *file, long line, struct game_result *r)
{
    json_t *seed = json_object_get(o, "seed"), *w = json_object_get(o, "winner");
    json_t *failed = json_object_get(o, "failed"), *bots = json_object_get(o, "bots");
    char what[400];
    int ok = json_is_integer(seed) && (uint64_t)json_integer_value(seed) == g->seed;
    for (int t = 0; t < 2 && ok; t++) {
        json_t *b = json_object_get(bots, s->team[t]);
        ok = json_is_string(b) && same_bot(s, given, g->bot[t], json_string_value(b));
    }
    if (!ok) {
        snprintf(what, sizeof what, "a game of seed %llu, %s on %s and %s on %s, was expected "
                 "here (the games come in the order one machine plays them)",
                 (unsigned long long)g->seed, base_of(given[g->bot[0]]), s->team[0],
                 base_of(given[g->bot[1]]), s->team[1]);
        return read_error(file, line, what);
    }
    *r = (struct game_result){ -1, NULL, NULL };
    if (json_is_string(failed)) {
        r->why = strdup(json_string_value(failed));
        return 0;
    }
    if (json_is_null(w)) {
        r->half0 = 1;
        return 0;
    }
    for (int t = 0; t < 2 && json_is_string(w); t++)
        if (strcmp(json_string_value(w), s->team[t]) == 0) {
            r->half0 = t == 0 ? 2 : 0;
            r->winner = s->team[t];
        }
    return r->half0 < 0 ? read_error(file, line, "\"winner\" is not one of the map's two "
                                     "teams nor null") : 0;
}

/* Every game line of f, checked against the list: 0, or 2 said. */
static int read_results(const struct games_setup *s, char *const *given,
                        const struct game *games, long n, const char *file, FILE *f,
                        struct game_result *res)
{
    char *buf = NULL;
    size_t cap = 0;
    long i = 0, line = 0;
    int rc = 0;
    while (rc == 0 && getline(&buf, &cap, f) > 0) {
        line++;
        json_t *o = json_loads(buf, 0, NULL);
        json_t *type = o ? json_object_get(o, "type") : NULL;
        if (!o)
            rc = read_error(file, line, "not a JSON line");
        else if (json_is_string(type) && !strcmp(json_string_value(type), "game"))
            rc = i < n ? line_result(s, given, &games[i], o, file, line, &res[i])
                       : read_error(file, line, "more games than the range's");
        i += rc == 0 && json_is_string(type) && !strcmp(json_string_value(type), "game");
        json_decref(o);
    }
    free(buf);
    if (rc == 0 && i < n) {
        fprintf(stderr, "botfield: --games %s: %ld games where %ld were expected\n",
                file, i, n);
        rc = 2;
    }
    return rc;
}

int games_read(const struct games_setup *s, char *const *given, const struct game *games,
               long n, const char *file, game_done_fn done, void *ctx)
{
    FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
    if (!f) {
        fprintf(stderr, "botfield: --games %s: %s\n", file, strerror(errno));
        return 2;
    }
    struct game_result *res = calloc((size_t)n + 1, sizeof *res);
    int rc = res ? read_results(s, given, games, n, file, f, res) : 2;
    if (!res)
        fprintf(stderr, "botfield: --games %s: out of memory\n", file);
    /* every line checked before the first is used: a bad file prints nothing */
    for (long i = 0; rc == 0 && i < n; i++)
        if (done(ctx, i, &res[i]))
            break;
    for (long i = 0; res && i < n; i++)
        free(res[i].why);
    free(res);
    if (f != stdin)
        fclose(f);
    return rc;
}
