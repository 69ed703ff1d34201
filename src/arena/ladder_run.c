/* ladder_run.c — the ladder's matches (ladder_run.h): who plays whom,
 * each match in a forked child (no exec) recording it whole into
 * matches/ID.part, and the parent committing it: ID.part renamed to
 * ID.rec, then its line appended to results.jsonl, then the ratings.
 *
 * A match is a pair's first game; its sides-swapped twin (the next id,
 * the same map and seed) is queued at once and starts next, so a map's
 * asymmetry cancels out.  A pair n is matches 2n-1 and 2n on seed n. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ladder_impl.h"
#include "settings.h"
#include "bot/bot.h"
#include "bot/bot_world.h"
#include "core/world.h"
#include "io/map.h"
#include "run/headless.h"
#include "run/recording.h"

static char *errf(const char *a, const char *b)
{
    char msg[4400];
    snprintf(msg, sizeof msg, "botfield serve: %s%s\n", a, b);
    return strdup(msg);
}

/* Each map of the settings: two teams, and its duration for the bound. */
static int maps_read(struct arena_ladder *l, char **err)
{
    l->maps = calloc((size_t)l->s->nmaps + 1, sizeof *l->maps);
    if (!l->maps)
        return (*err = errf("out of memory", "")), -1;
    for (int i = 0; i < l->s->nmaps; i++) {
        struct lmap *m = &l->maps[i];
        size_t n = strlen(l->dir) + strlen(l->s->maps[i]) + 2;
        if (!(m->path = malloc(n)))
            return (*err = errf("out of memory", "")), -1;
        snprintf(m->path, n, "%s/%s", l->dir, l->s->maps[i]);
        l->nmaps = i + 1;
        /* loaded as a match loads it: with the arena's rounds */
        char rounds[16];
        snprintf(rounds, sizeof rounds, "%d", l->s->rounds > 0 ? l->s->rounds : 1);
        struct map_set set = { "match.rounds", rounds };
        struct world w;
        struct map_error me = { NULL, 0 };
        struct map_options mo = { 1, 1, 0, &set, 1 };
        if (map_load(m->path, &mo, &w, &me)) {
            const char *t = me.text ? me.text : "cannot be loaded\n";
            /* the arena's rounds come from arena.ini, not a --set */
            t += strncmp(t, "botfield: ", 10) ? 0 : 10;
            char *msg = errf(m->path, ": ");
            size_t n = msg ? strlen(msg) : 0;
            if (msg && (*err = malloc(n + strlen(t) + 1)))
                snprintf(*err, n + strlen(t) + 1, "%.*s%s", (int)n - 1, msg, t);
            free(msg);
            map_error_free(&me);
            return -1;
        }
        m->seconds = w.duration;
        m->tick_rate = w.tick_rate;
        m->budget = m->memory_kib = 0;
        for (size_t b = 0; b < w.bots.n; b++) {
            const struct world_bot *wb = &w.bots.p[b];
            if (!m->budget || wb->budget < m->budget)
                m->budget = wb->budget;
            if (!m->memory_kib || wb->memory_kib < m->memory_kib)
                m->memory_kib = wb->memory_kib;
        }
        int player = w.player.vehicle >= 0;
        world_free(&w);
        /* every match would fail, as fast as they start */
        if (player)
            return (*err = errf(m->path, ": has a player tank (a tank with player = true); "
                                "an arena's matches are played by bots alone: remove the key")), -1;
        if (games_setup(&m->g, m->path, l->maps_dir, NULL, 0))
            return (*err = errf(m->path, ": not an arena map (said above)")), -1;
    }
    return 0;
}

/* matches/: made when missing; a .part left by a crash deleted. */
static int matches_clean(struct arena_ladder *l, char **err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/matches", l->dir);
    if (mkdir(path, 0755) && errno != EEXIST)
        return (*err = errf(path, ": cannot be made")), -1;
    DIR *d = opendir(path);
    if (!d)
        return (*err = errf(path, ": cannot be read")), -1;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".part") && unlinkat(dirfd(d), e->d_name, 0))
            fprintf(stderr, "botfield serve: %s/%s: %s\n", path, e->d_name, strerror(errno));
    }
    closedir(d);
    return 0;
}

static struct lmatch *run_push(struct arena_ladder *l)
{
    if (l->nrun == l->caprun) {
        int cap = l->caprun ? l->caprun * 2 : 16;
        struct lmatch *v = realloc(l->run, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        l->run = v;
        l->caprun = cap;
    }
    struct lmatch *m = &l->run[l->nrun++];
    memset(m, 0, sizeof *m);
    return m;
}

/* Queues match id (map, seed) with a on team 0 and b on team 1. */
static int queue(struct arena_ladder *l, long id, int map, uint64_t seed, int a, int b)
{
    struct lmatch *m = run_push(l);
    if (!m)
        return -1;
    *m = (struct lmatch){ .id = id, .map = map, .seed = seed, .bot = { a, b } };
    return 0;
}

/* matches/ID.rec with no result: renamed into place, then the daemon
 * was killed before its result line.  That match was never committed
 * (its id is played again): the recording goes, or a later failed match
 * of the same id would be fetched as this one. */
static void uncommitted_clean(struct arena_ladder *l)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/matches", l->dir);
    unsigned char *have = calloc((size_t)l->next_id + 1, 1);
    DIR *d = have ? opendir(path) : NULL;
    for (long i = 0; have && i < l->nres; i++)
        have[l->res[i].id] = 1;
    for (struct dirent *e; d && (e = readdir(d));) {
        char *end;
        long id = strtol(e->d_name, &end, 10);
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || strcmp(end, ".rec")
            || (id > 0 && id < l->next_id && have[id]))
            continue;
        fprintf(stderr, "botfield serve: %s/%s: a recording whose result was never "
                "written; removed (the match is played again)\n", path, e->d_name);
        if (unlinkat(dirfd(d), e->d_name, 0))
            fprintf(stderr, "botfield serve: %s/%s: %s\n", path, e->d_name, strerror(errno));
    }
    if (d)
        closedir(d);
    free(have);
}

/* A pair left half played by a stop: its missing twin queued again (when
 * both versions are still current and its map still named). */
static int requeue_twins(struct arena_ladder *l)
{
    long max = l->next_id;
    unsigned char *have = calloc((size_t)max + 2, 1);
    if (!have)
        return -1;
    for (long i = 0; i < l->nres; i++)
        have[l->res[i].id] = 1;
    for (long i = 0; i < l->nres; i++) {
        const struct lresult *r = &l->res[i];
        long twin = r->id % 2 ? r->id + 1 : r->id - 1;
        if (twin >= max || have[twin] || r->map < 0 || !l->bots[r->bot[0]].current
            || !l->bots[r->bot[1]].current)
            continue;
        have[twin] = 1;
        if (queue(l, twin, r->map, r->seed, r->bot[1], r->bot[0]))
            return free(have), -1;
    }
    free(have);
    if (l->next_id % 2 == 0)
        l->next_id++;           /* every new pair starts on an odd id */
    return 0;
}

struct arena_ladder *arena_ladder_open(const struct arena_settings *s,
                                       const char *maps_dir, char **err)
{
    struct arena_ladder *l = calloc(1, sizeof *l);
    *err = NULL;
    if (!l || !(l->dir = strdup(s->dir))) {
        free(l);
        *err = errf("out of memory", "");
        return NULL;
    }
    l->s = s;
    l->maps_dir = maps_dir;
    l->next_id = 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    l->workers = s->workers > 0 ? s->workers : cpus > 0 ? (int)cpus : 1;
    int rc = s->nmaps < 1 ? (*err = errf("the arena names no map", "")) != NULL : 0;
    if (!rc)
        rc = maps_read(l, err) || matches_clean(l, err) || ladder_scan_bots(l, err)
             || ladder_read_results(l, err);
    if (!rc)
        uncommitted_clean(l);
    if (!rc && (requeue_twins(l) || ladder_fit_start(l)))
        rc = (*err = errf("cannot start the ratings' fit: ", strerror(errno))) != NULL;
    if (rc) {
        arena_ladder_close(l);
        return NULL;
    }
    return l;
}

static void paths(const struct arena_ladder *l, long id, const char *ext, char *out, size_t n)
{
    snprintf(out, n, "%s/matches/%ld%s", l->dir, id, ext);
}

void arena_ladder_close(struct arena_ladder *l)
{
    if (!l)
        return;
    char path[4200];
    while (l->fit_pid > 0)      /* ladder.json with everything known */
        ladder_fit_poll(l, 1);
    for (int i = 0; i < l->nrun; i++)
        if (l->run[i].pid > 0) {
            kill(l->run[i].pid, SIGKILL);
            waitpid(l->run[i].pid, NULL, 0);
            for (const char *const *e = (const char *const[]){ ".part", ".trace.part",
                                                               ".out.part", ".now.part",
                                                               NULL }; *e; e++) {
                paths(l, l->run[i].id, *e, path, sizeof path);
                unlink(path);
            }
        }
    for (int i = 0; l->maps && i < l->nmaps; i++) {
        free(l->maps[i].path);
        games_setup_free(&l->maps[i].g);
    }
    for (long i = 0; i < l->nres; i++)
        free(l->res[i].failed);
    free(l->maps), free(l->bots), free(l->hash), free(l->res), free(l->run), free(l->dir);
    free(l);
}

int arena_ladder_add_bot(struct arena_ladder *l, const char *person, const char *bot)
{
    if (!arena_name_ok(person) || !arena_name_ok(bot))
        return 0;
    return ladder_scan_one(l, person, bot);
}

/* ---- the child -------------------------------------------------------- */

/* The map's bot keys set to the two bots, and the match's rounds. */
static struct map_set *match_set(const struct arena_ladder *l, const struct lmatch *m,
                                 char names[2][96], char *rounds, int *n)
{
    const struct games_setup *g = &l->maps[m->map].g;
    struct map_set *set = calloc((size_t)g->nkeys + 2, sizeof *set);
    if (!set)
        return NULL;
    for (int t = 0; t < 2; t++)
        snprintf(names[t], 96, "bots/%s/%s.lua", l->bots[m->bot[t]].person,
                 l->bots[m->bot[t]].name);
    for (int k = 0; k < g->nkeys; k++)
        set[k] = (struct map_set){ g->keys[k], names[g->key_team[k]] };
    snprintf(rounds, 16, "%d", l->s->rounds > 0 ? l->s->rounds : 1);
    set[g->nkeys] = (struct map_set){ "match.rounds", rounds };
    *n = g->nkeys + 1;
    return set;
}

static void child_fail(const char *what)
{
    fprintf(stderr, "%s\n", what);
    fflush(stderr);
    _exit(2);
}

/* In the child: the match recorded whole into ID.part (fsync'd), its
 * trace (bot errors, logs, the summary) into ID.trace.part. */
static void match_child(const struct arena_ladder *l, const struct lmatch *m, char *texts[2])
{
    char rec_path[4200], trace[4200], names[2][96], rounds[16], *map_text = NULL, *berr = NULL;
    const struct lmap *mp = &l->maps[m->map];
    paths(l, m->id, ".part", rec_path, sizeof rec_path);
    paths(l, m->id, ".trace.part", trace, sizeof trace);
    int nset = 0;
    struct map_set *set = match_set(l, m, names, rounds, &nset);
    struct map_options mo = { 1, m->seed, 0, set, nset };
    struct world w;
    struct map_error me = { NULL, 0 };
    if (!set || map_load_kept(mp->path, &mo, &w, &me, &map_text))
        child_fail(me.text ? me.text : "cannot load the map");
    const char *given_names[2] = { names[0], names[1] };
    struct bot_texts given = { 2, given_names, (const char *const *)texts };
    struct bot_world *bots = NULL;
    if (bot_world_attach_given(&w, l->maps_dir, &given, &bots, &berr))
        child_fail(berr ? berr : "cannot load the bots");
    /* a live match says which ticks are whole in ID.now.part, so that
     * watchers go on through ticks that add no line (watch_serve.c); made before
     * the recording, so a watcher that finds one finds the other */
    char now_path[4200];
    paths(l, m->id, ".now.part", now_path, sizeof now_path);
    int now_fd = m->live ? open(now_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    headless_progress(now_fd);
    struct recording rec;
    if (recording_open(&rec, rec_path, &w, bots, mp->path, map_text, set, nset))
        child_fail("cannot write the recording");
    /* every bot's intents recorded: a fetched copy replays without the
     * other people's scripts (botfield-arena(7), PRIVACY) */
    rec.intents = 1;
    struct headless_options ho = { -1, trace, LONG_MAX, 0, bots, 0, 1, 0 };
    headless_pace(m->live ? w.tick_rate : 0);
    int rc = recording_headless(&rec, &w, bots, &ho);
    int fd = open(rec_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fsync(fd))
        rc = 1;
    fflush(NULL);
    _exit(rc);
}

/* The match's CPU bound: ten times its map's duration (every round). */
static double match_seconds(const struct arena_ladder *l, const struct lmatch *m)
{
    int rounds = l->s->rounds > 0 ? l->s->rounds : 1;
    return 10 * l->maps[m->map].seconds * rounds + 10;
}

/* The child's limits and output, then the match. */
static void child_start(const struct arena_ladder *l, const struct lmatch *m, char *texts[2])
{
    char out[4200];
    paths(l, m->id, ".out.part", out, sizeof out);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
        _exit(2);
    arena_child_detach(-1);
    rlim_t cpu = (rlim_t)ceil(match_seconds(l, m));
    struct rlimit rl = { cpu, cpu + 5 };
    setrlimit(RLIMIT_CPU, &rl);
    match_child(l, m, texts);
}

/* The two bots' scripts as they are now: 0, or -1 when one changed
 * since the match was chosen (a new version: the match is dropped). */
static int read_texts(struct arena_ladder *l, const struct lmatch *m, char *texts[2])
{
    texts[0] = texts[1] = NULL;
    for (int t = 0; t < 2; t++) {
        const struct lbot *b = &l->bots[m->bot[t]];
        char rel[128], msg[256];
        snprintf(rel, sizeof rel, "bots/%s/%s.lua", b->person, b->name);
        struct bot_script sc;
        if (bot_script_read(l->dir, rel, &sc, msg, sizeof msg))
            return -1;
        int same = strncmp(sc.sha256, b->sha, LADDER_SHA - 1) == 0;
        texts[t] = same ? strndup((const char *)sc.bytes, sc.len) : NULL;
        bot_script_free(&sc);
        if (!texts[t])
            return -1;
    }
    return 0;
}

static int live_count(const struct arena_ladder *l)
{
    int n = 0;
    for (int i = 0; i < l->nrun; i++)
        n += l->run[i].pid > 0 && l->run[i].live;
    return n;
}

/* Starts queued match m: 0, or -1 when it cannot be played (dropped). */
static int match_start(struct arena_ladder *l, struct lmatch *m)
{
    char *texts[2];
    if (read_texts(l, m, texts)) {
        free(texts[0]), free(texts[1]);
        /* a new version (or none) is current now: the next pair knows */
        for (int t = 0; t < 2; t++)
            ladder_scan_one(l, l->bots[m->bot[t]].person, l->bots[m->bot[t]].name);
        return -1;
    }
    m->live = live_count(l) < l->s->live;
    m->wall = match_seconds(l, m) + (m->live ? l->maps[m->map].seconds * l->s->rounds : 0);
    clock_gettime(CLOCK_MONOTONIC, &m->start);
    fflush(NULL);
    m->pid = fork();
    if (m->pid == 0)
        child_start(l, m, texts);
    free(texts[0]), free(texts[1]);
    if (m->pid < 0) {
        fprintf(stderr, "botfield serve: cannot start a match: %s\n", strerror(errno));
        m->pid = 0;
        return 1;
    }
    return 0;
}

/* ---- pairing ------------------------------------------------------------ */

static int busy(const struct arena_ladder *l, int b)
{
    int n = 0;
    for (int i = 0; i < l->nrun; i++)
        n += l->run[i].bot[0] == b || l->run[i].bot[1] == b;
    return n;
}

/* How uncertain a bot's rating is: a bot never fitted most. */
static double width(const struct lbot *b)
{
    return b->rated ? b->r.hi - b->r.lo : INFINITY;
}

/* The least certain current bot (the least busy first; then the fewest
 * games played, counted from the results, not from the last fit, which
 * may not know the newest yet; then the widest interval, then the first
 * found): -1 when none. */
static int pick_first(const struct arena_ladder *l)
{
    int best = -1, bb = 0;
    for (int i = 0; i < l->nbots; i++) {
        if (!l->bots[i].current)
            continue;
        int bi = busy(l, i);
        const struct lbot *x = &l->bots[i], *y = best >= 0 ? &l->bots[best] : NULL;
        long gx = x->played, gy = y ? y->played : 0;
        if (!y || bi < bb || (bi == bb && (gx < gy || (gx == gy && width(x) > width(y))))) {
            best = i;
            bb = bi;
        }
    }
    return best;
}

/* Its opponent: the nearest rating among the other current bots (never
 * itself; a person's own bots may meet), the least busy first. */
static int pick_second(const struct arena_ladder *l, int a)
{
    int best = -1, bb = 0;
    double bd = 0;
    for (int i = 0; i < l->nbots; i++) {
        if (!l->bots[i].current || i == a)
            continue;
        int bi = busy(l, i);
        double d = fabs(l->bots[i].r.elo - l->bots[a].r.elo);
        if (best < 0 || bi < bb || (bi == bb && d < bd)) {
            best = i;
            bb = bi;
            bd = d;
        }
    }
    return best;
}

/* A new pair queued (both sides): 1, 0 when fewer than two bots, -1. */
static int pair_new(struct arena_ladder *l)
{
    int a = pick_first(l), b = a >= 0 ? pick_second(l, a) : -1;
    if (b < 0)
        return 0;
    long id = l->next_id;
    uint64_t seed = (uint64_t)(id + 1) / 2;
    int map = (int)(((id - 1) / 2) % l->nmaps);
    if (queue(l, id, map, seed, a, b) || queue(l, id + 1, map, seed, b, a))
        return -1;
    l->next_id += 2;
    return 1;
}

/* ---- reaping ------------------------------------------------------------ */

static void run_remove(struct arena_ladder *l, int i)
{
    memmove(&l->run[i], &l->run[i + 1], (size_t)(l->nrun - i - 1) * sizeof *l->run);
    l->nrun--;
}

static double elapsed(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

/* Finished children committed; one over its wall-clock bound killed. */
static void reap(struct arena_ladder *l)
{
    for (int i = 0; i < l->nrun;) {
        struct lmatch *m = &l->run[i];
        int status = 0;
        pid_t got = m->pid > 0 ? waitpid(m->pid, &status, WNOHANG) : 0;
        if (got == 0 && m->pid > 0 && elapsed(&m->start) > m->wall) {
            kill(m->pid, SIGKILL);
            got = waitpid(m->pid, &status, 0);
        }
        if (got == m->pid && got > 0) {
            ladder_finish(l, m, status);
            run_remove(l, i);
        } else {
            i++;
        }
    }
}

static int running(const struct arena_ladder *l)
{
    int n = 0;
    for (int i = 0; i < l->nrun; i++)
        n += l->run[i].pid > 0;
    return n;
}

/* The first queued match: its index, or -1. */
static int queued(const struct arena_ladder *l)
{
    for (int i = 0; i < l->nrun; i++)
        if (l->run[i].pid == 0)
            return i;
    return -1;
}

int arena_ladder_poll(struct arena_ladder *l)
{
    reap(l);
    ladder_fit_poll(l, 0);
    for (int tries = 0; running(l) < l->workers && tries < 4 * l->workers + 4; tries++) {
        int q = queued(l);
        if (q < 0 && pair_new(l) <= 0)
            break;
        q = q >= 0 ? q : queued(l);
        int rc = match_start(l, &l->run[q]);
        if (rc < 0)
            run_remove(l, q);
        if (rc > 0)
            break;              /* fork failed: try again next turn */
    }
    return running(l) || l->fit_pid > 0 ? 100 : 1000;
}

void arena_ladder_bot_limits(const struct arena_ladder *l, long *budget, long *memory_kib)
{
    for (int i = 0; i < l->nmaps; i++) {
        const struct lmap *m = &l->maps[i];
        if (m->budget > 0 && (!*budget || m->budget < *budget))
            *budget = m->budget;
        if (m->memory_kib > 0 && (!*memory_kib || m->memory_kib < *memory_kib))
            *memory_kib = m->memory_kib;
    }
}

int arena_ladder_live(struct arena_ladder *l, struct arena_live *out, int max)
{
    int n = 0;
    for (int i = 0; i < l->nrun; i++) {
        const struct lmatch *m = &l->run[i];
        if (m->pid <= 0 || !m->live)
            continue;
        if (n < max) {
            out[n].id = m->id;
            paths(l, m->id, ".part", out[n].path, sizeof out[n].path);
            for (int t = 0; t < 2; t++)
                ladder_bot_key(&l->bots[m->bot[t]], out[n].bots[t], sizeof out[n].bots[t]);
        }
        n++;
    }
    return n;
}
