/* serve.c — `botfield serve ARENA`, the daemon (botfield-arena(7)).
 *
 * One thread, one poll() loop: the socket's clients, each with a bounded
 * request and a deadline, answered without ever blocking (a client that
 * does not read its answer is dropped); the ladder's matches and the
 * watchers are polled each turn.  The socket is the only door, and only
 * the arena's account can open it (mode 0600). */
#include "arena.h"
#include "ladder_run.h"
#include "requests.h"
#include "settings.h"
#include "watch_serve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define CLIENTS_MAX 256         /* more at once wait in the listen queue */
#define CLIENT_MS 5000          /* a request is sent, and its answer read, within this */

struct client {
    int fd;
    char *buf;                  /* the request, then the answer */
    size_t len, cap, sent;
    int answering;
    int too_big;                /* over the bound: read to its end, then refused */
    long long deadline;         /* ms */
};

static volatile sig_atomic_t stopping;

static void on_stop(int sig) { (void)sig; stopping = 1; }

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A match a daemon killed with -9 had just forked holds the socket and
 * the lock for a moment, until the child closes its copies or dies with
 * its parent: both are asked RETRIES times a tenth of a second apart
 * before the arena is taken as served. */
#define RETRIES 10

static void tenth_of_a_second(void)
{
    struct timespec pause = { 0, 100 * 1000 * 1000 };
    nanosleep(&pause, NULL);
}

/* 1 when something answers on the socket at a, every time it is asked. */
static int answered(const struct sockaddr_un *a)
{
    for (int i = 0; i < RETRIES; i++) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return 0;
        int got = connect(fd, (const struct sockaddr *)a, sizeof *a) == 0;
        close(fd);
        if (!got)
            return 0;
        if (i < RETRIES - 1)
            tenth_of_a_second();
    }
    return 1;
}

/* Binds ARENA/arena.sock, mode 0600; refuses when a daemon answers on it. */
static int listen_on(const char *dir, char *path, size_t n)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if ((size_t)snprintf(path, n, "%s/arena.sock", dir) >= sizeof a.sun_path) {
        fprintf(stderr, "botfield serve: %s/arena.sock: the path is too long for a socket "
                "(at most %zu bytes); move the arena to a shorter path\n", dir, sizeof a.sun_path - 1);
        return -1;
    }
    memcpy(a.sun_path, path, strlen(path) + 1);
    if (answered(&a)) {
        fprintf(stderr, "botfield serve: %s: another daemon serves this arena\n", path);
        return -1;
    }
    unlink(path);               /* a stale socket, left by a daemon killed */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    mode_t old = umask(077);
    int bad = fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 64);
    umask(old);
    if (bad || chmod(path, 0600)) {
        fprintf(stderr, "botfield serve: %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

static void drop(struct client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->buf);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

/* A descriptor held in reserve: out of descriptors, it is given up to
 * take the waiting client off the queue and close it (else the socket
 * stays readable and the loop spins). */
static int spare_fd = -1;
/* Clients are taken only on descriptors below this: the ladder keeps
 * FD_LADDER_ROOM of them for its matches, files and refits. */
#define FD_LADDER_ROOM 64
static int fd_ceiling = INT_MAX;

/* 1 when a waiting client was taken and closed; 0 when none waits (the
 * kernel says EMFILE before it looks at the queue). */
static int shed_one(int lfd)
{
    if (spare_fd >= 0)
        close(spare_fd);
    int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd >= 0)
        close(fd);
    spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    return fd >= 0;
}

static void accept_all(int lfd, struct client *cs)
{
    for (;;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
            if (shed_one(lfd))
                continue;       /* until the queue is empty */
            return;
        }
        if (fd < 0)
            return;
        if (fd >= fd_ceiling) {
            close(fd);          /* the ladder's descriptors come first */
            continue;
        }
        int i = 0;
        while (i < CLIENTS_MAX && cs[i].fd >= 0)
            i++;
        if (i == CLIENTS_MAX) {
            close(fd);
            continue;
        }
        cs[i] = (struct client){ fd, NULL, 0, 0, 0, 0, 0, now_ms() + CLIENT_MS };
    }
}

/* The request read so far: 1 when its line is whole, 0 not yet, -1 drop. */
static int read_request(struct client *c, size_t max)
{
    for (;;) {
        if (c->len + 4096 + 1 > c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 8192;
            char *b = cap <= max + 8192 ? realloc(c->buf, cap) : NULL;
            if (!b)
                return -1;
            c->buf = b, c->cap = cap;
        }
        ssize_t got = read(c->fd, c->buf + c->len, c->cap - c->len - 1);
        if (got < 0)
            return errno == EAGAIN || errno == EINTR ? 0 : -1;
        if (got == 0)
            return -1;
        char *nl = memchr(c->buf + c->len, '\n', (size_t)got);
        c->len += (size_t)got;
        if (nl) {
            c->len = (size_t)(nl - c->buf);
            return 1;
        }
        if (c->len > max) {
            /* the rest is read and dropped, so that the sender gets its
             * answer instead of a broken pipe; the deadline bounds it */
            c->too_big = 1;
            c->len = 0;
        }
    }
}

static void serve_client(struct client *c, struct arena_daemon *d, struct arena_watchers *ws)
{
    if (!c->answering) {
        int r = read_request(c, arena_request_max(d->set));
        if (r <= 0) {
            if (r < 0)
                drop(c);
            return;
        }
        char *watch = NULL, *ans = c->too_big ? arena_answer_too_big(d->set)
                                              : arena_answer(d, c->buf, c->len, &watch);
        if (watch) {
            c->buf[c->len] = 0;
            arena_watch_accept(ws, c->fd, watch, c->buf);
            free(watch);
            c->fd = -1;         /* the watchers' now */
            drop(c);
            return;
        }
        free(c->buf);
        if (!ans) {
            c->buf = NULL;
            drop(c);
            return;
        }
        c->buf = ans, c->len = strlen(ans), c->sent = 0, c->answering = 1;
    }
    while (c->sent < c->len) {
        ssize_t w = write(c->fd, c->buf + c->sent, c->len - c->sent);
        if (w < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        if (w <= 0)
            break;
        c->sent += (size_t)w;
    }
    drop(c);
}

static int loop(int lfd, struct arena_daemon *d, struct arena_watchers *ws)
{
    static struct client cs[CLIENTS_MAX];
    static struct pollfd pf[CLIENTS_MAX + 1];
    for (int i = 0; i < CLIENTS_MAX; i++)
        cs[i].fd = -1;
    while (!stopping) {
        int wait = arena_ladder_poll(d->ladder), w2 = arena_watch_poll(ws, d->ladder);
        wait = w2 < wait ? w2 : wait;
        wait = wait > 1000 ? 1000 : wait < 0 ? 0 : wait;
        int n = 0;
        pf[n++] = (struct pollfd){ lfd, POLLIN, 0 };
        for (int i = 0; i < CLIENTS_MAX; i++)
            if (cs[i].fd >= 0)
                pf[n++] = (struct pollfd){ cs[i].fd, cs[i].answering ? POLLOUT : POLLIN, 0 };
        if (n > 1 && wait > 100)
            wait = 100;         /* the clients' deadlines */
        if (poll(pf, (nfds_t)n, wait) < 0 && errno != EINTR)
            return 1;
        if (pf[0].revents)
            accept_all(lfd, cs);
        long long t = now_ms();
        for (int i = 0, k = 1; i < CLIENTS_MAX; i++) {
            if (cs[i].fd < 0)
                continue;
            int ready = k < n && pf[k].fd == cs[i].fd && pf[k].revents;
            k += k < n && pf[k].fd == cs[i].fd;
            /* the deadline first: a client that keeps sending is ready
             * every turn, and must not keep its place for ever */
            if (t > cs[i].deadline)
                drop(&cs[i]);
            else if (ready)
                serve_client(&cs[i], d, ws);
        }
    }
    return 0;
}

/* The temporary files of writes a kill -9 cut short (store.c names
 * them .tmp.*): in the folder and in each person's. */
static void remove_temps(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!strncmp(e->d_name, ".tmp.", 5))
            unlink(path);
        else if (depth && e->d_name[0] != '.' && e->d_type == DT_DIR)
            remove_temps(path, depth - 1);
    }
    if (d)
        closedir(d);
}

/* ARENA/arena.lock held (flock) for the daemon's life: of two daemons
 * started at once only one gets it (the socket alone would let both
 * find no answer, and both bind).  The descriptor, or -1 said. */
static int lock_arena(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/arena.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "botfield serve: %s: %s\n", path, strerror(errno));
        return -1;
    }
    /* held, perhaps, by a match just forked (see RETRIES) */
    int held = flock(fd, LOCK_EX | LOCK_NB);
    for (int i = 1; i < RETRIES && held; i++) {
        tenth_of_a_second();
        held = flock(fd, LOCK_EX | LOCK_NB);
    }
    if (held) {
        fprintf(stderr, "botfield serve: %s: another daemon serves this arena\n", dir);
        close(fd);
        return -1;
    }
    return fd;
}

static int open_folder(const char *dir)
{
    char path[PATH_MAX];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, i ? "matches" : "bots");
        if (mkdir(path, 0700) && errno != EEXIST) {
            fprintf(stderr, "botfield serve: %s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

int arena_serve_main(int argc, char **argv, const char *maps_dir)
{
    if (argc != 2 || argv[1][0] == '-') {
        fputs("usage: botfield serve ARENA   (the arena's folder, holding arena.ini; "
              "botfield-arena(7))\n", stderr);
        return 2;
    }
    struct arena_settings set;
    char *err = NULL, sock[PATH_MAX];
    if (arena_settings_read(argv[1], &set, &err)) {
        fputs(err, stderr);
        free(err);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = { .sa_handler = on_stop };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int lock = open_folder(set.dir) ? -1 : lock_arena(set.dir);
    int lfd = lock < 0 ? -1 : listen_on(set.dir, sock, sizeof sock);
    spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct rlimit nofile;
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY)
        fd_ceiling = nofile.rlim_cur > 2 * FD_LADDER_ROOM
                     ? (int)(nofile.rlim_cur - FD_LADDER_ROOM) : (int)nofile.rlim_cur / 2;
    if (lfd >= 0) {             /* the arena is ours now: no other daemon writes */
        char bots[PATH_MAX];
        snprintf(bots, sizeof bots, "%s/bots", set.dir);
        remove_temps(set.dir, 0);
        remove_temps(bots, 1);
    }
    struct arena_daemon d = { &set, NULL, NULL, 0, 0 };
    d.ladder = lfd < 0 ? NULL : arena_ladder_open(&set, maps_dir, &err);
    struct arena_watchers *ws = d.ladder ? arena_watchers_new() : NULL;
    int rc = 1;
    if (ws) {
        fprintf(stderr, "botfield serve: %s: serving on %s\n", set.name, sock);
        rc = loop(lfd, &d, ws);
    } else if (err)
        fputs(err, stderr);
    if (lfd >= 0) {
        close(lfd);
        unlink(sock);
    }
    arena_watchers_free(ws);
    if (d.ladder)
        arena_ladder_close(d.ladder);
    if (spare_fd >= 0)
        close(spare_fd);
    if (lock >= 0)
        close(lock);            /* last: the arena is another daemon's now */
    free(d.subs);
    free(err);
    arena_settings_free(&set);
    return rc;
}
