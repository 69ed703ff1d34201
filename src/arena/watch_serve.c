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
 * full without taking a byte is dropped.
 *
 * Besides the recording, a watcher is sent {"type":"arena",...} lines
 * that are no recording's: "live" (the live matches and the one it
 * follows), whenever they change; "ladder" (the ladder screen's rows),
 * when asked; "switched" (its next header is the match it asked for:
 * what it had not been sent of the old match is not sent); "error".
 * It may send, one JSON object a line, at most WATCH_IN_MAX bytes:
 *   {"cmd":"follow","match":ID}   follow that live match from its start
 *                                  (one switch every WATCH_FOLLOW_SECONDS)
 *   {"cmd":"ladder"}               the ladder, at most every
 *                                  WATCH_LADDER_SECONDS (later: then)
 * A longer line, or one that is not such an object, drops it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <stdint.h>
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
#define WATCH_IN_MAX 256            /* a watcher's request line at most */
#define WATCH_LADDER_SECONDS 1.0    /* between two ladders sent to one */
#define WATCH_FOLLOW_SECONDS 0.25   /* between two switches of one */

struct watcher {
    int fd;                         /* the connection, -1: dropped */
    char person[40];
    long match;                     /* the match followed, -1: none yet */
    int rfd;                        /* its recording, -1: none open */
    char *part;                     /* a line read, not whole yet */
    size_t npart, cappart;
    char *out;                      /* bytes to send, from off */
    size_t off, n, cap;
    int nfd;                        /* its ID.now.part, -1: none */
    long done;                      /* the last tick whole, from it */
    int at_eof;                     /* the last read reached the file's end */
    long tick;                      /* the highest tick read */
    long told;                      /* the highest tick the watcher was told */
    double told_at;
    int ended;                      /* its end line was read */
    double stalled_since;           /* full and taking nothing since, 0: not */
    char in[WATCH_IN_MAX];          /* its request line, not whole yet */
    size_t nin;
    int in_eof;                     /* it sends no more (it may still read) */
    unsigned long live_sig;         /* the live list it was sent last */
    int live_sent;
    int mid_line;                   /* the last byte sent ended no line */
    double follow_at;               /* its last switch */
    int ladder_due;                 /* asked for the ladder, not sent yet */
    double ladder_at;               /* the last ladder sent */
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
    if (w->nfd >= 0)
        close(w->nfd);
    w->rfd = w->nfd = -1;
    w->done = -1;
    w->at_eof = 0;
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
    w->rfd = w->nfd = -1;
    w->done = -1;
    w->match = -1;
    w->tick = w->told = -1;
    snprintf(w->person, sizeof w->person, "%s", person);
    w->ladder_at = w->follow_at = -1e9;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
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
    w->at_eof = 0;      /* (only a read that reaches the end says so) */
    while (!w->ended && w->rfd >= 0 && w->n - w->off < ws->bound) {
        ssize_t got = read(w->rfd, buf, sizeof buf);
        w->at_eof = got == 0;
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
    /* told and t as a line's tick: the ticks before it are whole */
    long t = w->tick > w->done + 1 ? w->tick : w->done + 1;
    if (t <= w->told || w->ended || t < 1)
        return 0;       /* (t 0: no tick is whole yet, nothing to tell) */
    if (t < w->told + WATCH_NOW_TICKS && now - w->told_at < WATCH_NOW_SECONDS)
        return 0;
    char line[64];
    /* the ticks before the last line's are whole; its own may not be */
    int n = snprintf(line, sizeof line, "{\"type\":\"now\",\"tick\":%ld}\n", t - 1);
    w->told = t;
    w->told_at = now;
    return out_put(w, line, (size_t)n);
}

/* The live match's ID.now.part beside its ID.part (-1: none, or not
 * yet: then the watcher waits for lines, as for a match not paced). */
static int open_progress(const char *part)
{
    char path[4200];
    size_t n = strlen(part);
    if (n < 5 || n + 5 > sizeof path)
        return -1;
    snprintf(path, sizeof path, "%.*s.now.part", (int)(n - 5), part);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* The recording of live match id, "" when it is not live. */
static const char *live_path(const struct arena_live *live, int nlive, long id)
{
    for (int k = 0; k < nlive; k++)
        if (live[k].id == id)
            return live[k].path;
    return "";
}

/* The last tick the match wrote whole, from ID.now.part (-1: unknown). */
static long progress(const struct watcher *w)
{
    int64_t t;
    if (w->nfd < 0 || pread(w->nfd, &t, sizeof t, 0) != (ssize_t)sizeof t || t < 0)
        return -1;
    return (long)t;
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
            w->nfd = open_progress(live[k].path);
            w->match = live[k].id;
            return 1;
        }
    return 0;
}

/* A short {"type":"arena",...} line of the daemon's own ("type" first,
 * as every line of a recording). */
static int put_json(struct watcher *w, json_t *o)
{
    json_t *line = json_pack("{s:s}", "type", "arena");
    json_object_update(line, o);
    json_decref(o);
    char *t = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(line);
    int rc = t ? out_put(w, t, strlen(t)) || out_put(w, "\n", 1) : -1;
    free(t);
    return rc;
}

static int put_error(struct watcher *w, const char *why)
{
    return put_json(w, json_pack("{s:s}", "error", why));
}

/* The live matches and the one followed, when they changed since the
 * watcher was last told. */
static int tell_live(struct watcher *w, const struct arena_live *live, int nlive)
{
    unsigned long sig = 5381u + (unsigned long)w->match;
    for (int k = 0; k < nlive; k++)
        sig = sig * 33u ^ (unsigned long)live[k].id;
    if (w->live_sent && sig == w->live_sig)
        return 0;
    json_t *a = json_array();
    for (int k = 0; k < nlive; k++)
        json_array_append_new(a, json_pack("{s:I,s:[s,s]}", "id", (json_int_t)live[k].id,
                                           "bots", live[k].bots[0], live[k].bots[1]));
    w->live_sig = sig;
    w->live_sent = 1;
    return put_json(w, json_pack("{s:o,s:I}", "live", a, "following", (json_int_t)w->match));
}

/* The bytes not sent yet that are whole lines are not sent: the line
 * being sent is finished, and the next line the watcher reads is ours. */
static void drop_unsent(struct watcher *w)
{
    /* (not out[off - 1]: a compaction moves the unsent bytes to 0) */
    if (!w->mid_line) {
        w->n = w->off;
        return;
    }
    char *nl = memchr(w->out + w->off, '\n', w->n - w->off);
    if (nl)
        w->n = (size_t)(nl - w->out) + 1;
}

/* {"cmd":"follow","match":ID}: that live match from its start, after a
 * "switched" line. */
static int follow_match(struct watcher *w, long id, const struct arena_live *live, int nlive,
                        double now)
{
    char why[160];
    if (now - w->follow_at < WATCH_FOLLOW_SECONDS)
        return put_error(w, "one switch every quarter of a second at most");
    const struct arena_live *m = NULL;
    for (int k = 0; k < nlive; k++)
        if (live[k].id == id)
            m = &live[k];
    if (!m) {
        snprintf(why, sizeof why, "match %ld is not live now", id);
        return put_error(w, why);
    }
    w->follow_at = now;
    if (id == w->match && w->rfd >= 0) {
        snprintf(why, sizeof why, "you are watching match %ld already", id);
        return put_error(w, why);
    }
    int fd = open(m->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, sizeof why, "match %ld is not under way now", id);
        return put_error(w, why);
    }
    drop_unsent(w);
    watcher_close_match(w);
    w->rfd = fd;
    w->nfd = open_progress(m->path);
    w->stalled_since = 0;
    w->match = id;
    return put_json(w, json_pack("{s:I}", "switched", (json_int_t)id));
}

/* One request line.  -1: not one (the watcher is dropped). */
static int request(struct watcher *w, const char *line, size_t n,
                   const struct arena_live *live, int nlive, double now)
{
    json_t *o = json_loadb(line, n, JSON_REJECT_DUPLICATES, NULL);
    const char *cmd = json_string_value(json_object_get(o, "cmd"));
    json_t *id = json_object_get(o, "match");
    int rc = -1;
    if (cmd && !strcmp(cmd, "ladder") && json_object_size(o) == 1) {
        w->ladder_due = 1;
        rc = 0;
    } else if (cmd && !strcmp(cmd, "follow") && json_object_size(o) == 2
               && json_is_integer(id) && json_integer_value(id) >= 0)
        rc = follow_match(w, (long)json_integer_value(id), live, nlive, now);
    json_decref(o);
    return rc;
}

/* What the watcher sent: its whole lines taken.  -1: drop it. */
static int read_requests(struct watcher *w, const struct arena_live *live, int nlive,
                         double now)
{
    if (w->in_eof)
        return 0;
    ssize_t got = recv(w->fd, w->in + w->nin, sizeof w->in - w->nin, MSG_DONTWAIT);
    if (got == 0)
        w->in_eof = 1;
    if (got <= 0)
        return got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR ? -1 : 0;
    w->nin += (size_t)got;
    char *nl;
    while ((nl = memchr(w->in, '\n', w->nin))) {
        size_t len = (size_t)(nl - w->in);
        if (request(w, w->in, len, live, nlive, now))
            return -1;
        memmove(w->in, nl + 1, w->nin - len - 1);
        w->nin -= len + 1;
    }
    return w->nin == sizeof w->in ? -1 : 0;     /* a line too long */
}

/* The ladder, when asked and none was sent for a while. */
static int tell_ladder(struct watcher *w, struct arena_ladder *l, double now)
{
    if (!w->ladder_due || now - w->ladder_at < WATCH_LADDER_SECONDS)
        return 0;
    char *t = arena_ladder_watch_line(l, w->person);
    int rc = t ? out_put(w, t, strlen(t)) : -1;
    free(t);
    w->ladder_due = 0;
    w->ladder_at = now;
    return rc;
}

/* The progress read before the file was read to its end (of the same
 * match): those ticks are whole. */
static void tell_progress(struct watcher *w, long whole, long followed)
{
    if (w->at_eof && followed == w->match && whole > w->done)
        w->done = whole;
}

/* Sends what the socket takes now.  0, or -1: the watcher is gone. */
static int send_some(struct watcher *w)
{
    while (w->off < w->n) {
        ssize_t k = send(w->fd, w->out + w->off, w->n - w->off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0) {
            w->off += (size_t)k;
            w->mid_line = w->out[w->off - 1] != '\n';
            w->stalled_since = 0;
            continue;
        }
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return 0;
        return -1;
    }
    return 0;
}

/* A watcher that hung up. */
static int hung_up(const struct watcher *w)
{
    struct pollfd p = { w->fd, 0, 0 };
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL));
}

static void serve_one(struct arena_watchers *ws, struct arena_ladder *l, struct watcher *w,
                      const struct arena_live *live, int nlive, double now)
{
    if (hung_up(w) || read_requests(w, live, nlive, now)) {
        watcher_drop(ws, w);
        return;
    }
    /* the ticks whole before the file is read: its lines up to them are in
     * (its progress file may come a moment after its recording) */
    if (w->nfd < 0 && w->rfd >= 0 && !w->ended)
        w->nfd = open_progress(live_path(live, nlive, w->match));
    long whole = progress(w);
    long followed = w->match;
    /* what is new in the match followed, then maybe the next one's */
    if (read_match(ws, w) || (pick_match(ws, w, live, nlive) && read_match(ws, w))
        || tell_live(w, live, nlive) || tell_ladder(w, l, now)
        || (tell_progress(w, whole, followed), tell_now(w, now))
        || send_some(w)) {
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
            serve_one(ws, l, &ws->w[i], live, nlive, now);
    return WATCH_POLL_MS;
}
