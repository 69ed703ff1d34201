/* watch_serve.c — the daemon's side of `watch` (watch_serve.h).
 *
 * Each watcher tails the live match's growing recording (matches/ID.part,
 * written line by line by the match's child) from its start and is sent
 * the whole lines its person may see (arena_private_keep), plus
 * {"type":"now","tick":T} lines, so that its viewer knows the ticks no
 * line of its own tells (a tick is known once a later one is named).
 * When the match ends (its end line), the next live match's recording
 * follows on the same connection: the viewer starts a new world at a new
 * header.  Writes never block: a watcher's unsent bytes are bounded, the
 * file is read only while there is room, and a watcher whose buffer stays
 * full without taking a byte is dropped. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "watch_serve.h"
#include "ladder_run.h"
#include "private.h"

#define WATCH_LIVE_MAX 16
#define WATCH_CHUNK 65536
#define WATCH_NOW_TICKS 10          /* a now line at least every 10 ticks */
#define WATCH_NOW_SECONDS 0.25      /* or this long after the last line */
#define WATCH_POLL_MS 50

struct watcher {
    int fd;                         /* the connection, -1: dropped */
    char person[40];
    long match;                     /* the match followed, -1: none yet */
    int rfd;                        /* its recording, -1: none open */
    char *part;                     /* a line read, not whole yet */
    size_t npart, cappart;
    char *out;                      /* bytes to send, from off */
    size_t off, n, cap;
    long tick;                      /* the highest tick read */
    long told;                      /* the highest tick the watcher was told */
    double told_at;
    int ended;                      /* its end line was read */
    double stalled_since;           /* full and taking nothing since, 0: not */
};

struct arena_watchers {
    struct watcher *w;
    size_t n, cap;
    size_t bound;                   /* unsent bytes a watcher may have */
    double stall;                   /* s full before it is dropped */
    long dropped;
};

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

struct arena_watchers *arena_watchers_new(void)
{
    struct arena_watchers *ws = calloc(1, sizeof *ws);
    if (ws) {
        ws->bound = ARENA_WATCH_BUFFER;
        ws->stall = ARENA_WATCH_STALL_SECONDS;
    }
    return ws;
}

void arena_watchers_limits(struct arena_watchers *ws, size_t bound, double stall_seconds)
{
    ws->bound = bound;
    ws->stall = stall_seconds;
}

static void watcher_close_match(struct watcher *w)
{
    if (w->rfd >= 0)
        close(w->rfd);
    w->rfd = -1;
    w->npart = 0;
    w->ended = 0;
    w->tick = w->told = -1;
}

static void watcher_drop(struct arena_watchers *ws, struct watcher *w)
{
    if (w->fd >= 0) {
        close(w->fd);
        ws->dropped++;
    }
    w->fd = -1;
    watcher_close_match(w);
    free(w->part);
    free(w->out);
    w->part = w->out = NULL;
}

void arena_watchers_free(struct arena_watchers *ws)
{
    if (!ws)
        return;
    for (size_t i = 0; i < ws->n; i++)
        watcher_drop(ws, &ws->w[i]);
    free(ws->w);
    free(ws);
}

size_t arena_watchers_count(const struct arena_watchers *ws)
{
    size_t k = 0;
    for (size_t i = 0; i < ws->n; i++)
        k += ws->w[i].fd >= 0;
    return k;
}

/* One over a cap: told why (a short line into an empty socket buffer:
 * the write does not block) and closed. */
static void refuse(int fd, const char *why)
{
    char line[256];
    int n = snprintf(line, sizeof line, "{\"type\":\"refused\",\"error\":\"%s\"}\n", why);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    if (write(fd, line, (size_t)n) < 0) {
        /* (nothing more to do: the watcher is gone) */
    }
    close(fd);
}

/* Refused when the person already watches on ARENA_WATCH_PER_PERSON
 * connections, or ARENA_WATCH_MAX watch in all: 1. */
static int over_caps(const struct arena_watchers *ws, int fd, const char *person)
{
    size_t all = 0, mine = 0;
    for (size_t i = 0; i < ws->n; i++)
        if (ws->w[i].fd >= 0) {
            all++;
            mine += strcmp(ws->w[i].person, person) == 0;
        }
    if (mine >= ARENA_WATCH_PER_PERSON)
        refuse(fd, "you watch on 100 connections already (at most 100 a person): close one");
    else if (all >= ARENA_WATCH_MAX)
        refuse(fd, "the arena has 250 watchers already (its most): try again later");
    return mine >= ARENA_WATCH_PER_PERSON || all >= ARENA_WATCH_MAX;
}

void arena_watch_accept(struct arena_watchers *ws, int fd, const char *person,
                        const char *request)
{
    (void)request;              /* (no options yet) */
    if (over_caps(ws, fd, person))
        return;
    struct watcher *w = NULL;
    for (size_t i = 0; i < ws->n && !w; i++)
        if (ws->w[i].fd < 0)
            w = &ws->w[i];
    if (!w && ws->n == ws->cap) {
        size_t cap = ws->cap ? ws->cap * 2 : 8;
        struct watcher *p = realloc(ws->w, cap * sizeof *p);
        if (!p) {
            close(fd);
            return;
        }
        ws->w = p;
        ws->cap = cap;
    }
    if (!w)
        w = &ws->w[ws->n++];
    memset(w, 0, sizeof *w);
    w->fd = fd;
    w->rfd = -1;
    w->match = -1;
    w->tick = w->told = -1;
    snprintf(w->person, sizeof w->person, "%s", person);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    shutdown(fd, SHUT_RD);      /* nothing more is read from it */
}

static int out_put(struct watcher *w, const char *p, size_t n)
{
    if (w->off > 0 && w->off == w->n)
        w->off = w->n = 0;
    if (w->n + n > w->cap) {
        if (w->off) {
            memmove(w->out, w->out + w->off, w->n - w->off);
            w->n -= w->off;
            w->off = 0;
        }
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->n + n)
            cap *= 2;
        char *q = realloc(w->out, cap);
        if (!q)
            return -1;
        w->out = q;
        w->cap = cap;
    }
    memcpy(w->out + w->n, p, n);
    w->n += n;
    return 0;
}

/* A line's "tick" as the recorder writes it (after "type"), -1: none. */
static long line_tick(const char *s, size_t n)
{
    static const char key[] = ",\"tick\":";
    size_t k = sizeof key - 1;
    for (size_t i = 0; i + k < n && i < 64; i++)
        if (!memcmp(s + i, key, k))
            return strtol(s + i + k, NULL, 10);
    return -1;
}

static int is_end(const char *s, size_t n)
{
    static const char key[] = "{\"type\":\"end\"";
    return n >= sizeof key - 1 && !memcmp(s, key, sizeof key - 1);
}

/* One whole line of the recording: sent when the person may see it. */
static int take_line(struct watcher *w, const char *s, size_t n)
{
    long t = line_tick(s, n);
    if (t > w->tick)
        w->tick = t;
    if (is_end(s, n))
        w->ended = 1;
    if (!arena_private_keep(s, n, w->person))
        return 0;
    if (t > w->told)
        w->told = t;
    return out_put(w, s, n);
}

static int grow_part(struct watcher *w, const char *p, size_t n)
{
    if (w->npart + n > w->cappart) {
        size_t cap = w->cappart ? w->cappart : 4096;
        while (cap < w->npart + n)
            cap *= 2;
        char *q = realloc(w->part, cap);
        if (!q)
            return -1;
        w->part = q;
        w->cappart = cap;
    }
    memcpy(w->part + w->npart, p, n);
    w->npart += n;
    return 0;
}

/* What is new in the recording, while the watcher has room.  -1: out of
 * memory. */
static int read_match(struct arena_watchers *ws, struct watcher *w)
{
    char buf[WATCH_CHUNK];
    while (!w->ended && w->rfd >= 0 && w->n - w->off < ws->bound) {
        ssize_t got = read(w->rfd, buf, sizeof buf);
        if (got <= 0)
            return 0;
        size_t i = 0;
        while (i < (size_t)got && !w->ended) {
            char *nl = memchr(buf + i, '\n', (size_t)got - i);
            size_t len = nl ? (size_t)(nl - (buf + i)) + 1 : (size_t)got - i;
            if (grow_part(w, buf + i, len))
                return -1;
            i += len;
            if (nl) {
                if (take_line(w, w->part, w->npart))
                    return -1;
                w->npart = 0;
            }
        }
        if (w->ended || i < (size_t)got) {
            /* (after the end line nothing is the match's) */
            break;
        }
    }
    return 0;
}

/* The ticks the watcher's lines did not tell (another person's lines,
 * ticks without a line): a now line every WATCH_NOW_TICKS, or soon
 * after the last line. */
static int tell_now(struct watcher *w, double now)
{
    if (w->tick <= w->told || w->ended)
        return 0;
    if (w->tick < w->told + WATCH_NOW_TICKS && now - w->told_at < WATCH_NOW_SECONDS)
        return 0;
    char line[64];
    /* the ticks before the last line's are whole; its own may not be */
    int n = snprintf(line, sizeof line, "{\"type\":\"now\",\"tick\":%ld}\n", w->tick - 1);
    w->told = w->tick;
    w->told_at = now;
    return out_put(w, line, (size_t)n);
}

/* The match to follow: the one followed while it is live or its end line
 * is still to come, else the first live one but it.  (One that is no
 * longer live and read to its end without an end line was cut short: the
 * next one's header starts a new recording all the same.)  1 when a new
 * one was opened. */
static int pick_match(struct arena_watchers *ws, struct watcher *w,
                      const struct arena_live *live, int nlive)
{
    int still = 0;
    for (int k = 0; k < nlive; k++)
        still |= live[k].id == w->match;
    if (w->rfd >= 0 && !w->ended && (still || w->n - w->off >= ws->bound))
        return 0;
    for (int k = 0; k < nlive; k++)
        if (live[k].id != w->match) {
            int fd = open(live[k].path, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            watcher_close_match(w);
            w->rfd = fd;
            w->match = live[k].id;
            return 1;
        }
    return 0;
}

/* Sends what the socket takes now.  0, or -1: the watcher is gone. */
static int send_some(struct watcher *w)
{
    while (w->off < w->n) {
        ssize_t k = send(w->fd, w->out + w->off, w->n - w->off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0) {
            w->off += (size_t)k;
            w->stalled_since = 0;
            continue;
        }
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return 0;
        return -1;
    }
    return 0;
}

/* A watcher that hung up (nothing is read from it: a hang-up is all). */
static int hung_up(const struct watcher *w)
{
    struct pollfd p = { w->fd, 0, 0 };
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

static void serve_one(struct arena_watchers *ws, struct watcher *w,
                      const struct arena_live *live, int nlive, double now)
{
    if (hung_up(w)) {
        watcher_drop(ws, w);
        return;
    }
    /* what is new in the match followed, then maybe the next one's */
    if (read_match(ws, w) || (pick_match(ws, w, live, nlive) && read_match(ws, w))
        || tell_now(w, now) || send_some(w)) {
        watcher_drop(ws, w);
        return;
    }
    if (w->n - w->off < ws->bound) {
        w->stalled_since = 0;
        return;
    }
    /* Full: one that takes nothing for ws->stall seconds is dropped. */
    if (w->stalled_since == 0)
        w->stalled_since = now;
    if (now - w->stalled_since >= ws->stall)
        watcher_drop(ws, w);
}

int arena_watch_poll(struct arena_watchers *ws, struct arena_ladder *l)
{
    struct arena_live live[WATCH_LIVE_MAX];
    int nlive = 0, any = 0;
    for (size_t i = 0; i < ws->n; i++)
        any |= ws->w[i].fd >= 0;
    if (!any)
        return 1000;
    nlive = arena_ladder_live(l, live, WATCH_LIVE_MAX);
    if (nlive < 0)
        nlive = 0;
    if (nlive > WATCH_LIVE_MAX)
        nlive = WATCH_LIVE_MAX;
    double now = mono();
    for (size_t i = 0; i < ws->n; i++)
        if (ws->w[i].fd >= 0)
            serve_one(ws, &ws->w[i], live, nlive, now);
    return WATCH_POLL_MS;
}
