/* runner.c — the tournament's runs, each in a child process of a pool of
 * at most --jobs at a time.
 *
 * A child loads the map with its seed and settings and runs it headless,
 * its summary line on one pipe and its messages on another; the parent
 * keeps what each child wrote and, as soon as every run before it is
 * done, turns it into its run line, prints it and hands it to the
 * aggregate (the same path as --aggregate's files), so the output
 * streams in seed order.  Every run is a process of its own, so nothing
 * one run does (a bot's error, a crash) reaches another, and the output
 * is the same for any number of jobs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "tour_impl.h"
#include "run/headless.h"
#include "run/recording.h"
#include "bot/bot_world.h"
#include "core/world.h"

/* What a run left: its summary (standard output), its messages
 * (standard error) and how it ended. */
struct result {
    char *out, *err;
    size_t nout, nerr;
    int status;
    int done;           /* reaped */
};

struct child {
    pid_t pid;
    long job;
    int fd[2];          /* read ends: standard output, standard error; -1 closed */
};

static void append(char **buf, size_t *n, const char *p, size_t k)
{
    /* A run writes one line; its messages are kept to a sane length. */
    if (*n > 65536)
        return;
    char *b = realloc(*buf, *n + k + 1);
    if (!b)
        return;
    memcpy(b + *n, p, k);
    *n += k;
    b[*n] = 0;
    *buf = b;
}

/* --record DIR: run `job`'s recording, DIR/SEED.rec, or in a sweep of
 * several combinations DIR/SEED-C.rec (C from 1, the sweep's order, as
 * the run lines come). */
static void record_name(const struct tour_options *t, const char *dir, long job, char *buf,
                        size_t cap)
{
    long n = (long)(t->hi - t->lo + 1);
    unsigned long long seed = (unsigned long long)(t->lo + (uint64_t)(job % n));
    if (tour_combos(t) > 1)
        snprintf(buf, cap, "%s/%llu-%ld.rec", dir, seed, job / n + 1);
    else
        snprintf(buf, cap, "%s/%llu.rec", dir, seed);
}

/* In the child: one battle, its summary on standard output (and with
 * --record, its recording). */
static void run_child(const struct tour_options *t, const struct tour_cli *cli,
                      long job, int out, int err)
{
    if (dup2(out, 1) < 0 || dup2(err, 2) < 0)
        _exit(1);
    long combo = job / (long)(t->hi - t->lo + 1);
    struct map_set *set = calloc((size_t)t->nsets + 1, sizeof *set);
    if (!set)
        _exit(1);
    struct map_options mo = { 1, t->lo + (uint64_t)(job % (long)(t->hi - t->lo + 1)), 0,
                              set, tour_combo_sets(t, combo, set) };
    struct world w;
    struct map_error me = { NULL, 0 };
    char *text = NULL;          /* the map's text, for a recording */
    int rc = cli->nargs ? map_load_kept(cli->args[0], &mo, &w, &me, cli->record ? &text : NULL)
        : map_load_text("default.ini", map_default_text, map_default_len, &mo, &w, &me);
    if (rc) {
        fputs(me.text ? me.text : "botfield: cannot load the map\n", stderr);
        fflush(stderr);
        _exit(2);
    }
    struct bot_world *bots = NULL;
    char *berr = NULL;
    if (bot_world_attach(&w, cli->maps_dir, &bots, &berr)) {
        fprintf(stderr, "%s\n", berr ? berr : "botfield: cannot load the bots");
        fflush(stderr);
        _exit(2);
    }
    struct headless_options ho = { -1, NULL, 1, 1, bots, 0, 1, 0 };
    if (cli->ticks >= 0)
        ho.ticks = cli->ticks;
    else if (cli->seconds >= 0)
        ho.ticks = lround(cli->seconds * w.tick_rate);
    if (cli->record) {
        struct recording rec;
        char file[4096];
        record_name(t, cli->record, job, file, sizeof file);
        if (recording_open(&rec, file, &w, bots, cli->nargs ? cli->args[0] : NULL,
                           text ? text : map_default_text, mo.set, mo.nset)) {
            fflush(NULL);
            _exit(1);
        }
        free(text);
        rc = recording_headless(&rec, &w, bots, &ho);
    } else {
        rc = headless_run(&w, &ho);
    }
    fflush(NULL);
    _exit(rc);
}

/* Why a run failed, one line: its messages, lines joined by "; ", and
 * how it died when a signal killed it (or its exit status when it said
 * nothing). */
static char *failure(const struct result *r)
{
    char how[160] = "";
    if (WIFSIGNALED(r->status))
        snprintf(how, sizeof how, "killed by signal %d (%s)", WTERMSIG(r->status),
                 strsignal(WTERMSIG(r->status)));
    else if (WEXITSTATUS(r->status) != 0 && !r->nerr)
        snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(r->status));
    else if (WEXITSTATUS(r->status) == 0)
        snprintf(how, sizeof how, "no summary line");
    size_t n = r->nerr;
    while (n && (r->err[n - 1] == '\n' || r->err[n - 1] == ' '))
        n--;
    char *s = malloc(2 * n + strlen(how) + 3);
    if (!s)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (r->err[i] == '\n') {
            s[k++] = ';';
            s[k++] = ' ';
        } else {
            s[k++] = r->err[i];
        }
    }
    if (k && *how) {
        s[k++] = ';';
        s[k++] = ' ';
    }
    strcpy(s + k, how);
    return s;
}

static const char summary_head[] = "{\"type\":\"summary\",";

/* The run line of job `job`: its seed and settings, then the summary's
 * fields, or "failed" and why. */
static char *run_line(const struct tour_options *t, long job, const struct result *r,
                      struct map_set *set)
{
    long n = (long)(t->hi - t->lo + 1);
    json_t *o = json_object();
    json_t *s = json_object();
    int ns = tour_combo_sets(t, job / n, set);
    for (int i = 0; i < ns; i++)
        json_object_set_new(s, set[i].key, json_string(set[i].value));
    json_object_set_new(o, "type", json_string("run"));
    json_object_set_new(o, "seed", json_integer((json_int_t)(t->lo + (uint64_t)(job % n))));
    json_object_set_new(o, "set", s);
    int ok = WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0 && r->out
        && strncmp(r->out, summary_head, sizeof summary_head - 1) == 0
        && r->nout && r->out[r->nout - 1] == '\n' && !memchr(r->out, '\n', r->nout - 1);
    if (!ok) {
        char *why = failure(r);
        json_object_set_new(o, "failed", json_string(why ? why : "out of memory"));
        free(why);
    }
    char *head = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!head)
        return NULL;
    if (!ok)
        return head;
    /* The summary as the child wrote it, after the seed and settings. */
    size_t hl = strlen(head);
    const char *rest = r->out + sizeof summary_head - 1;
    char *line = malloc(hl + strlen(rest) + 2);
    if (line) {
        memcpy(line, head, hl - 1);
        line[hl - 1] = ',';
        strcpy(line + hl, rest);
        line[strlen(line) - 1] = 0;     /* the newline */
    }
    free(head);
    return line;
}

static long default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

static int start(const struct tour_options *t, const struct tour_cli *cli,
                 struct child *c, long job)
{
    int out[2], err[2];
    if (pipe(out))
        return -1;
    if (pipe(err)) {
        close(out[0]);
        close(out[1]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(out[0]);
        close(err[0]);
        run_child(t, cli, job, out[1], err[1]);
    }
    close(out[1]);
    close(err[1]);
    if (pid < 0) {
        close(out[0]);
        close(err[0]);
        return -1;
    }
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fcntl(err[0], F_SETFD, FD_CLOEXEC);
    *c = (struct child){ pid, job, { out[0], err[0] } };
    return 0;
}

/* Reads what is ready from the children; reaps those whose pipes closed.
 * Returns how many finished. */
static int drain(struct child *kids, int nk, struct pollfd *pf, struct result *res)
{
    int np = 0;
    for (int i = 0; i < nk; i++)
        for (int k = 0; k < 2; k++)
            pf[np++] = (struct pollfd){ kids[i].fd[k], POLLIN, 0 };
    while (poll(pf, (nfds_t)np, -1) < 0)
        if (errno != EINTR)
            return -1;
    int done = 0;
    for (int i = 0; i < nk; i++) {
        struct child *c = &kids[i];
        struct result *r = &res[c->job];
        for (int k = 0; k < 2; k++) {
            if (c->fd[k] < 0 || !(pf[2 * i + k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[4096];
            ssize_t got = read(c->fd[k], buf, sizeof buf);
            if (got > 0)
                append(k ? &r->err : &r->out, k ? &r->nerr : &r->nout, buf, (size_t)got);
            else if (got == 0 || errno != EINTR) {
                close(c->fd[k]);
                c->fd[k] = -1;
            }
        }
        if (c->fd[0] < 0 && c->fd[1] < 0) {
            while (waitpid(c->pid, &r->status, 0) < 0 && errno == EINTR)
                ;
            c->pid = 0;
            r->done = 1;
            done++;
        }
    }
    return done;
}

/* How far the runs are, on standard error when it is a terminal (a long
 * tournament prints nothing else until its end); the line is wiped when
 * all are done. */
static int progress_tty = -1;
static long progress_shown = -1;        /* the percentage on the line; -1 none */

/* The progress line wiped, so that a message (a failed run's) starts a
 * line of its own, or at the end; the next progress() draws it again. */
static void progress_wipe(void)
{
    if (progress_tty > 0 && progress_shown >= 0) {
        fprintf(stderr, "\r%60s\r", "");
        progress_shown = -1;
    }
}

static void progress(long done, long all)
{
    if (progress_tty < 0)
        progress_tty = isatty(2);
    long pct = done * 100 / all;
    if (!progress_tty || pct == progress_shown)
        return;
    if (done < all) {
        progress_shown = pct;
        fprintf(stderr, "\rbotfield: %ld of %ld runs (%ld%%)", done, all, pct);
    } else {
        progress_wipe();
    }
}

/* The run lines of the runs done, in order: each to the aggregate and
 * printed at once (agg_emit), its output then freed.  *emitted: the
 * runs delivered so far.  0, or -1. */
static int deliver(const struct tour_options *t, struct agg *a, struct result *res,
                   long *emitted, long upto, struct map_set *set)
{
    long per = (long)(t->hi - t->lo + 1);
    if (*emitted < upto && res[*emitted].done)
        progress_wipe();
    for (; *emitted < upto && res[*emitted].done; ++*emitted) {
        long j = *emitted;
        char *line = run_line(t, j, &res[j], set);
        char *why = NULL;
        int bad = !line || agg_add(a, line, &why);
        if (bad)
            fprintf(stderr, "botfield: run %ld: %s\n", j, why ? why : "out of memory");
        free(why);
        free(line);
        free(res[j].out);
        free(res[j].err);
        res[j].out = res[j].err = NULL;
        if (bad || agg_emit(a, t, j % per == per - 1))
            return -1;
    }
    return 0;
}

/* Every job run, each delivered as soon as those before it are.  0, or
 * -1 when a process could not start or output failed. */
static int run_pool(const struct tour_options *t, const struct tour_cli *cli,
                    long njobs, struct result *res, struct agg *a)
{
    long width = t->jobs ? t->jobs : default_jobs();
    if (width > njobs)
        width = njobs;
    struct child *kids = calloc((size_t)width, sizeof *kids);
    struct pollfd *pf = calloc((size_t)width * 2, sizeof *pf);
    struct map_set *set = calloc((size_t)t->nsets + 1, sizeof *set);
    int rc = kids && pf && set ? 0 : -1;
    long next = 0, finished = 0, emitted = 0;
    int nk = 0;
    while (rc == 0 && (next < njobs || nk > 0)) {
        while (nk < width && next < njobs) {
            if (start(t, cli, &kids[nk], next)) {
                fprintf(stderr, "botfield: cannot start a run: %s\n", strerror(errno));
                rc = -1;
                break;
            }
            nk++;
            next++;
        }
        int d = drain(kids, nk, pf, res);
        if (d < 0 || deliver(t, a, res, &emitted, next, set))
            rc = -1;
        else
            progress(finished += d, njobs);
        /* The finished leave the pool. */
        int k = 0;
        for (int i = 0; i < nk; i++)
            if (kids[i].pid)
                kids[k++] = kids[i];
        nk = k;
    }
    for (int i = 0; i < nk; i++) {
        kill(kids[i].pid, SIGKILL);
        waitpid(kids[i].pid, NULL, 0);
    }
    free(kids);
    free(pf);
    free(set);
    return rc;
}

int tour_run(struct tour_options *t, const struct tour_cli *cli)
{
    long njobs = tour_combos(t) * (long)(t->hi - t->lo + 1);
    struct result *res = calloc((size_t)njobs, sizeof *res);
    struct agg *a = agg_new();
    int rc = res && a ? run_pool(t, cli, njobs, res, a) : -1;
    if (res)
        for (long j = 0; j < njobs; j++) {
            free(res[j].out);
            free(res[j].err);
        }
    free(res);
    if (rc == 0)
        rc = agg_finish(a, t, cli->ascii);
    else
        rc = 1;
    agg_free(a);
    return rc;
}
