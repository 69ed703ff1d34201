/* proc.c — a process bot's program in lockstep (proc.h).
 *
 * posix_spawn starts /bin/sh -c COMMAND in a new process group with three
 * pipes (ours close-on-exec, and every other descriptor of ours closed in
 * the child), so the group can be killed whole and nothing of ours leaks
 * into it.  Every pipe of ours is non-blocking and every wait is a poll()
 * bounded by the answer's deadline.  SIGPIPE from a write to a program
 * that closed its input is blocked around the write and taken back, so
 * botfield's own handling of SIGPIPE is left as it was. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

extern char **environ;

struct proc {
    pid_t pid;                          /* 0 once reaped */
    pid_t group;                        /* its process group (its first pid) */
    int in, out, err;                   /* our ends, -1: closed */
    char *ob;                           /* bytes for its input, from ooff */
    size_t ooff, on, ocap;
    char *ib;                           /* bytes from its output, from ioff */
    size_t ioff, in_n, icap;
    size_t taken;                       /* the last answer's bytes, to drop */
    long owed;                          /* late answers still to skip */
    enum proc_answer dead;              /* PROC_OK: running */
    char why[96];
    size_t eread;                       /* standard error read this tick */
    char eline[PROC_LOG_BYTES + 1];     /* its standard error's line so far */
    size_t elen;
    char log[PROC_LOG_LINES][PROC_LOG_BYTES + 1];
    int nlog, dropped;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static int spawn(struct proc *p, const char *command, int pin[2], int pout[2], int perr[2])
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    if (posix_spawn_file_actions_init(&fa))
        return -1;
    if (posix_spawnattr_init(&at)) {
        posix_spawn_file_actions_destroy(&fa);
        return -1;
    }
    sigset_t none, dflt;
    sigemptyset(&none);
    /* its signals as a program started from a shell has them, whatever
     * botfield ignores (arena-shell ignores SIGPIPE) */
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGPIPE);
    sigaddset(&dflt, SIGINT);
    sigaddset(&dflt, SIGTERM);
    sigaddset(&dflt, SIGHUP);
    int rc = posix_spawn_file_actions_adddup2(&fa, pin[0], 0)
          || posix_spawn_file_actions_adddup2(&fa, pout[1], 1)
          || posix_spawn_file_actions_adddup2(&fa, perr[1], 2)
          || posix_spawn_file_actions_addclosefrom_np(&fa, 3)
          || posix_spawnattr_setpgroup(&at, 0)
          || posix_spawnattr_setsigmask(&at, &none)
          || posix_spawnattr_setsigdefault(&at, &dflt)
          || posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK
                                               | POSIX_SPAWN_SETSIGDEF);
    char *argv[] = { "/bin/sh", "-c", (char *)command, NULL };
    if (!rc)
        rc = posix_spawn(&p->pid, "/bin/sh", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return rc ? (errno = rc, -1) : 0;
}

struct proc *proc_start(const char *command, char *err, size_t n)
{
    int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
    struct proc *p = calloc(1, sizeof *p);
    /* what its programs leave behind comes back to us, to be reaped (a
     * container's first process may reap nothing) */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (!p || pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)
        || spawn(p, command, pin, pout, perr)) {
        snprintf(err, n, "cannot start '%s': %s", command, strerror(errno));
        for (int k = 0; k < 2; k++) {
            close_fd(&pin[k]);
            close_fd(&pout[k]);
            close_fd(&perr[k]);
        }
        free(p);
        return NULL;
    }
    close(pin[0]);
    close(pout[1]);
    close(perr[1]);
    p->group = p->pid;
    p->in = pin[1];
    p->out = pout[0];
    p->err = perr[0];
    for (int *fd = &p->in; fd <= &p->err; fd++)
        fcntl(*fd, F_SETFL, fcntl(*fd, F_GETFL) | O_NONBLOCK);
    return p;
}

/* The program is done for: its group killed and reaped, why said. */
static enum proc_answer finish(struct proc *p, enum proc_answer how)
{
    if (p->dead)
        return p->dead;
    p->dead = how;
    close_fd(&p->in);
    close_fd(&p->out);
    if (p->pid > 0) {
        int st = 0;
        pid_t r = waitpid(p->pid, &st, WNOHANG);
        kill(-p->pid, SIGKILL);
        if (r == 0)
            r = waitpid(p->pid, &st, 0);
        while (waitpid(-p->pid, NULL, 0) > 0 || errno == EINTR)
            ;   /* the rest of its group, ours as their subreaper */
        if (how == PROC_GONE && r > 0 && WIFEXITED(st))
            snprintf(p->why, sizeof p->why, "it exited with status %d", WEXITSTATUS(st));
        else if (how == PROC_GONE && r > 0 && WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL)
            snprintf(p->why, sizeof p->why, "it was killed by signal %d", WTERMSIG(st));
        else if (how == PROC_GONE)
            snprintf(p->why, sizeof p->why, "it closed its standard output");
        p->pid = 0;
    }
    if (how == PROC_TOO_LONG)
        snprintf(p->why, sizeof p->why, "it wrote a line over %zu bytes", PROC_LINE_MAX);
    else if (how == PROC_DEAF)
        snprintf(p->why, sizeof p->why, "it left %zu bytes of its input unread",
                 PROC_PENDING_MAX);
    return how;
}

static int grow(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c *= 2;
    char *b = realloc(*buf, c);
    if (!b)
        return -1;
    *buf = b;
    *cap = c;
    return 0;
}

/* A write that cannot raise SIGPIPE (blocked, and taken back if raised). */
static ssize_t write_quiet(int fd, const void *b, size_t n)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t k = write(fd, b, n);
    int e = errno;
    if (k < 0 && e == EPIPE) {
        struct timespec zero = { 0, 0 };
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE))
            sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return k;
}

/* What it takes of its input now.  -1: it closed its input. */
static int flush_in(struct proc *p)
{
    while (p->ooff < p->on) {
        ssize_t k = write_quiet(p->in, p->ob + p->ooff, p->on - p->ooff);
        if (k > 0) {
            p->ooff += (size_t)k;
            continue;
        }
        if (k < 0 && (errno == EAGAIN || errno == EINTR))
            return 0;
        return -1;
    }
    p->ooff = p->on = 0;
    return 0;
}

static void log_line(struct proc *p)
{
    if (p->nlog < PROC_LOG_LINES) {
        memcpy(p->log[p->nlog], p->eline, p->elen);
        p->log[p->nlog++][p->elen] = 0;
    } else
        p->dropped++;
    p->elen = 0;
}

/* Its standard error, as far as it is there (PROC_ERR_READ at most). */
static void read_err(struct proc *p)
{
    char buf[4096];
    while (p->err >= 0 && p->eread < PROC_ERR_READ) {
        ssize_t k = read(p->err, buf, sizeof buf);
        if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR)) {
            if (p->elen)
                log_line(p);
            close_fd(&p->err);
            return;
        }
        if (k < 0)
            return;
        p->eread += (size_t)k;
        for (ssize_t i = 0; i < k; i++) {
            unsigned char c = (unsigned char)buf[i];
            if (c == '\n') {
                log_line(p);
                continue;
            }
            if (p->elen < PROC_LOG_BYTES)
                p->eline[p->elen++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
        }
    }
}

/* Its output, as far as it is there.  -1: closed (or out of memory). */
static int read_out(struct proc *p)
{
    for (;;) {
        if (grow(&p->ib, &p->icap, p->in_n + 65536))
            return -1;
        ssize_t k = read(p->out, p->ib + p->in_n, 65536);
        if (k > 0) {
            p->in_n += (size_t)k;
            if (p->in_n - p->ioff > PROC_LINE_MAX + 1)
                return 0;       /* (enough to say it is too long) */
            continue;
        }
        if (k < 0 && (errno == EAGAIN || errno == EINTR))
            return 0;
        return -1;
    }
}

/* A whole answer in the buffer, skipping those owed: 1 with it. */
static int take_answer(struct proc *p, const char **answer, size_t *alen)
{
    for (;;) {
        char *s = p->ib + p->ioff;
        char *nl = p->in_n > p->ioff ? memchr(s, '\n', p->in_n - p->ioff) : NULL;
        if (!nl)
            return 0;
        size_t len = (size_t)(nl - s);
        if (len > PROC_LINE_MAX)
            return 0;           /* (said as too long by the caller) */
        if (p->owed > 0) {
            p->owed--;
            p->ioff += len + 1;
            continue;
        }
        *nl = 0;
        *answer = s;
        *alen = len;
        p->taken = len + 1;
        return 1;
    }
}

enum proc_answer proc_ask(struct proc *p, const char *line, size_t len, int timeout_ms,
                          const char **answer, size_t *alen)
{
    *answer = "";
    *alen = 0;
    if (p->dead)
        return p->dead;
    /* the last answer is done with */
    p->ioff += p->taken;
    p->taken = 0;
    if (p->ioff == p->in_n)
        p->ioff = p->in_n = 0;
    else if (p->ioff > (1u << 20)) {
        memmove(p->ib, p->ib + p->ioff, p->in_n - p->ioff);
        p->in_n -= p->ioff;
        p->ioff = 0;
    }
    if (p->on - p->ooff + len + 1 > PROC_PENDING_MAX)
        return finish(p, PROC_DEAF);
    if (p->ooff && p->ooff == p->on)
        p->ooff = p->on = 0;
    if (grow(&p->ob, &p->ocap, p->on + len + 1))
        return finish(p, PROC_GONE);
    memcpy(p->ob + p->on, line, len);
    p->ob[p->on + len] = '\n';
    p->on += len + 1;
    p->eread = 0;
    double deadline = now_s() + timeout_ms / 1000.0;
    for (;;) {
        if (p->ooff < p->on && flush_in(p))
            return finish(p, PROC_GONE);
        if (take_answer(p, answer, alen)) {
            read_err(p);        /* what it said before answering */
            return PROC_OK;
        }
        if (p->in_n - p->ioff > PROC_LINE_MAX)
            return finish(p, PROC_TOO_LONG);
        double left = deadline - now_s();
        if (left <= 0) {
            read_err(p);
            p->owed++;
            return PROC_LATE;
        }
        struct pollfd f[3] = { { p->out, POLLIN, 0 },
                               { p->eread < PROC_ERR_READ ? p->err : -1, POLLIN, 0 },
                               { p->ooff < p->on ? p->in : -1, POLLOUT, 0 } };
        int ms = (int)(left * 1000) + 1;
        if (poll(f, 3, ms) < 0 && errno != EINTR)
            return finish(p, PROC_GONE);
        if (f[1].revents)
            read_err(p);
        if (f[0].revents) {
            int closed = read_out(p);
            if (take_answer(p, answer, alen)) {
                read_err(p);
                return PROC_OK;
            }
            if (closed) {
                read_err(p);
                return finish(p, PROC_GONE);
            }
        }
    }
}

void proc_tell(struct proc *p, const char *line, size_t len)
{
    if (!p || p->dead || p->on - p->ooff + len + 1 > PROC_PENDING_MAX
        || grow(&p->ob, &p->ocap, p->on + len + 1))
        return;
    memcpy(p->ob + p->on, line, len);
    p->ob[p->on + len] = '\n';
    p->on += len + 1;
    flush_in(p);
}

int proc_log(struct proc *p, char lines[PROC_LOG_LINES][PROC_LOG_BYTES + 1], int *dropped)
{
    int n = p->nlog;
    for (int k = 0; k < n; k++)
        memcpy(lines[k], p->log[k], sizeof p->log[k]);
    *dropped = p->dropped;
    p->nlog = p->dropped = 0;
    return n;
}

int proc_group(const struct proc *p)
{
    return p->group;
}

const char *proc_why(const struct proc *p)
{
    return p->why;
}

/* The group killed, and every process of it that is ours to wait for
 * (its orphans are: proc_start makes botfield their subreaper) reaped. */
static void kill_group(pid_t g)
{
    kill(-g, SIGKILL);
    while (waitpid(-g, NULL, 0) > 0 || errno == EINTR)
        ;
}

void proc_close_input(struct proc *p, int ms)
{
    if (!p || p->dead || p->in < 0)
        return;
    double until = now_s() + ms / 1000.0;
    while (p->ooff < p->on && !flush_in(p) && now_s() < until)
        poll(NULL, 0, 2);
    close_fd(&p->in);
}

int proc_exited(struct proc *p)
{
    if (!p || p->pid <= 0)
        return 1;
    int st;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid || (r < 0 && errno != EINTR)) {
        p->pid = 0;             /* (its group is killed all the same) */
        return 1;
    }
    return 0;
}

void proc_stop(struct proc *p)
{
    if (!p)
        return;
    if (p->pid > 0)
        kill_group(p->pid);
    else if (p->group > 0)
        kill_group(p->group);
    /* what left its group (setsid) and ended since is ours to reap, as
     * its subreaper (botfield starts no other children where process
     * bots run) */
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
    close_fd(&p->in);
    close_fd(&p->out);
    close_fd(&p->err);
    free(p->ob);
    free(p->ib);
    free(p);
}
