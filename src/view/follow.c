/* follow.c — the viewer on a recording as it grows (follow.h).
 *
 * A tick T is known when a line of a later tick has arrived (the lines
 * come in tick order; a sender's {"type":"now"} lines tell ticks that no
 * other line would): the viewer computes up to there and waits.  Its copy
 * is its own: pausing, stepping back or seeking leaves the live end, and
 * End comes back to it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "arena_view.h"
#include "side_lines.h"
#include "follow.h"
#include "tui.h"
#include "../io/replay_read.h"
#include "../run/replay_run.h"

#define FOLLOW_CHUNK 65536
#define FOLLOW_READS 16             /* chunks a loop turn at most */
#define FOLLOW_RETRY 0.1            /* s between looks at a regular file */
#define FOLLOW_NEXT_SECONDS 3.0     /* the end shown before the next match */

struct view_follow *follow_new(int fd, const char *name)
{
    struct view_follow *f = calloc(1, sizeof *f);
    if (!f || !(f->rs = replay_stream_new(name))) {
        free(f);
        return NULL;
    }
    struct stat st;
    f->fd = fd;
    f->name = name;
    f->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    return f;
}

void follow_free(struct view_follow *f)
{
    if (!f)
        return;
    replay_stream_free(f->rs);
    arena_view_free(f->arena);
    side_free(f->side);
    if (f->fd >= 0)
        close(f->fd);
    free(f);
}

static int put_stream(void *rs, const char *p, size_t n)
{
    return replay_stream_put(rs, p, n);
}

/* One read: >0 bytes put, 0 nothing now, -1 closed, -2 out of memory or
 * a read error (errno). */
static int read_some(struct view_follow *f)
{
    char buf[FOLLOW_CHUNK];
    ssize_t n = read(f->fd, buf, sizeof buf);
    if (n > 0 && f->side)
        return side_split(f->side, buf, (size_t)n, put_stream, f->rs) ? (errno = ENOMEM, -2)
                                                                     : (int)n;
    if (n > 0)
        return replay_stream_put(f->rs, buf, (size_t)n) ? (errno = ENOMEM, -2) : (int)n;
    if (n == 0)
        return f->regular ? 0 : -1;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -2;
}

/* The header and the starting scripts are in: the first tick's world can
 * be built. */
static int open_enough(const struct view_follow *f, const struct replay *rp)
{
    return replay_stream_done(f->rs) || replay_stream_seen(f->rs) >= 0
           || (rp->n > 0 && rp->lines[rp->n - 1].tick >= 0);
}

int follow_open(struct view_follow *f, struct replay *rp)
{
    memset(rp, 0, sizeof *rp);
    fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) | O_NONBLOCK);
    for (;;) {
        char *err = NULL;
        if (replay_stream_take(f->rs, rp, &err)) {
            fprintf(stderr, "botfield: %s", err ? err : "out of memory\n");
            free(err);
            replay_free(rp);
            return 2;
        }
        if (replay_stream_has_header(f->rs) && (open_enough(f, rp) || f->eof))
            return 0;
        if (f->eof) {
            fprintf(stderr, "botfield: %s: the stream ended before a recording's header; "
                    "a recording starts with {\"type\":\"recording\",...}\n", f->name);
            replay_free(rp);
            return 2;
        }
        int got = read_some(f);
        if (got == -1)
            f->eof = 1;
        else if (got == -2) {
            fprintf(stderr, "botfield: %s: cannot read the recording: %s\n", f->name,
                    strerror(errno));
            replay_free(rp);
            return 2;
        } else if (got == 0 && f->regular && replay_stream_has_header(f->rs))
            return 0;           /* a file of a header and scripts only, so far */
        else if (got == 0) {
            struct pollfd p = { f->fd, POLLIN, 0 };
            poll(&p, 1, f->regular ? (int)(FOLLOW_RETRY * 1000) : -1);
        }
    }
}

static int whole(const struct app *a)
{
    return replay_stream_done(a->fl->rs) || a->fl->eof;
}

/* The last tick known (where End and seeking stop). */
static long known_tick(const struct app *a)
{
    const struct replay *rp = &a->run.replay->rp;
    long seen = replay_stream_seen(a->fl->rs);
    if (whole(a))
        for (size_t k = 0; k < rp->n; k++)
            if (rp->lines[k].tick > seen)
                seen = rp->lines[k].tick;
    return seen < 0 ? 0 : seen;
}

static void stop_following(struct app *a, const char *why)
{
    a->fl_dead = 1;
    a->paused = 1;
    app_message(a, 1, "%s: %s; following stops here", a->fl->name, why);
}

void follow_read(struct app *a)
{
    struct view_follow *f = a->fl;
    if (!f || a->fl_dead || f->eof || !a->run.replay)
        return;
    int got = 0;
    for (int i = 0; i < FOLLOW_READS && (got = read_some(f)) > 0; i++)
        ;
    if (got == -1)
        f->eof = 1;
    else if (got == -2) {
        stop_following(a, strerror(errno));
        return;
    }
    if (f->regular)
        a->fl_retry_at = a->now + FOLLOW_RETRY;
    struct replay_run *run = a->run.replay;
    size_t n0 = run->rp.n;
    char *err = NULL;
    if (replay_stream_take(f->rs, &run->rp, &err)) {
        size_t len = err ? strlen(err) : 0;
        if (len && err[len - 1] == '\n')
            err[len - 1] = 0;
        a->fl_dead = 1;
        a->paused = 1;
        app_message(a, 1, "%s; following stops here", err ? err : "out of memory");
        free(err);
        return;
    }
    size_t len;
    char *side;
    while ((side = side_pop(f->side, &len))) {
        arena_view_line(a, side, len);
        free(side);
    }
    if (replay_run_check_new(run, n0, &a->world)) {
        stop_following(a, "a line that cannot be replayed (said when the viewer ends)");
        return;
    }
    a->seek.limit = known_tick(a);
    if (run->rp.n > n0 || got == -1)
        a->fl_waiting = 0;
    a->dirty = 1;
}

int follow_may_step(struct app *a)
{
    if (!a->fl || whole(a))
        return 1;
    if (a->fl_dead)
        return 0;
    long lr = replay_stream_last_reload(a->fl->rs);
    if (lr >= 0 && (size_t)lr >= a->run.replay->next)
        return 1;       /* the map running now is whole: a reload follows */
    return replay_stream_seen(a->fl->rs) > a->world.tick;
}

void follow_after_step(struct app *a)
{
    /* The replay's last line is applied, but more may come. */
    if (a->fl && !whole(a) && a->run.news.ended) {
        a->run.news.ended = 0;
        a->run.replaying = 1;
    }
}

/* view_run returns for the next recording; a list of the arena's that is
 * open stays open over it (a key pressed just before the switch is not
 * undone by it). */
static void quit_for_next(struct app *a)
{
    a->fl->ended_for_next = 1;
    a->fl->screen = a->screen == SCREEN_MATCHES || a->screen == SCREEN_LADDER ? (int)a->screen
                                                                              : SCREEN_MAP;
    a->quit = 1;
}

/* The arena's next recording: once its end was shown live for a while. */
static void next_recording(struct app *a)
{
    const struct replay_run *run = a->run.replay;
    const struct view_follow *f = a->fl;
    /* (a file or a closed stream holds no next recording) */
    int more = !f->regular && (!f->eof || replay_stream_pending(f->rs) > 0);
    /* the match the watcher asked for: at once */
    if (arena_view_switching(f->arena) && whole(a) && more) {
        quit_for_next(a);
        return;
    }
    if (!f->next_at_end || !more || !a->live || !whole(a) || run->next < run->rp.n) {
        a->fl_next_at = 0;
        return;
    }
    if (a->fl_next_at == 0) {
        a->fl_next_at = a->now + FOLLOW_NEXT_SECONDS;
        app_message(a, 0, "the match is over; the next live match follows");
    } else if (a->now >= a->fl_next_at) {
        quit_for_next(a);
    }
}

void follow_catch_up(struct app *a)
{
    if (!a->fl)
        return;
    if (a->fl->regular && !whole(a) && a->now >= a->fl_retry_at)
        follow_read(a);
    /* Back at the frontier by running: live again. */
    if (!a->live && !a->paused && !follow_may_step(a))
        a->live = 1;
    /* Live, a pause the user did not ask for (a round's end) passes. */
    if (a->live && a->paused && a->diverged < 0 && a->run.replaying && !whole(a)
        && !a->fl_dead && !seek_busy(a))
        a->paused = 0;
    a->fl_waiting = 0;
    if (a->live && !a->paused && !seek_busy(a)) {
        long behind = known_tick(a) - a->world.tick;
        double stop = a->now + 0.8 / 30;
        /* Far behind (opening on a match under way): as fast as it goes. */
        if (behind > lround(a->world.tick_rate / 2) + 1)
            while (!a->paused && !a->quit && follow_may_step(a) && view_now() < stop
                   && known_tick(a) > a->world.tick)
                if (app_step(a))
                    break;
        a->fl_waiting = !follow_may_step(a);
    }
    next_recording(a);
}

int follow_key(struct app *a, int ch)
{
    if (!a->fl || ch != KEY_END || a->screen != SCREEN_MAP || a->seek.prompt)
        return 0;
    seek_halt(a);
    a->live = 1;
    a->paused = 0;
    a->dirty = 1;
    app_message(a, 0, "live: at the newest tick, following the recording as it grows");
    return 1;
}

void follow_key_after(struct app *a, long tick_before, int paused_before)
{
    if (a->fl && ((a->paused && !paused_before) || a->world.tick < tick_before
                  || seek_busy(a)))
        a->live = 0;
}

int follow_poll_fd(const struct app *a)
{
    const struct view_follow *f = a->fl;
    return f && !f->regular && !f->eof && !a->fl_dead ? f->fd : -1;
}

static int sooner_ms(int timeout, double t, double now)
{
    double ms = ceil((t - now) * 1000);
    int m = ms < 0 ? 0 : ms > 60000 ? 60000 : (int)ms;
    return timeout < 0 || m < timeout ? m : timeout;
}

int follow_timeout(const struct app *a, int timeout)
{
    if (!a->fl)
        return timeout;
    double now = view_now();
    if (a->fl->regular && !whole(a) && !a->fl_dead)
        timeout = sooner_ms(timeout, a->fl_retry_at, now);
    if (a->fl_next_at > 0)
        timeout = sooner_ms(timeout, a->fl_next_at, now);
    return timeout;
}

int view_follow_run(const struct view_options *o, struct view_follow *f)
{
    struct view_options vo = *o;
    vo.replay = f->name;
    vo.follow = f;
    f->next_at_end = 1;
    for (;;) {
        f->ended_for_next = 0;
        int rc = view_run(&vo, NULL);
        if (!f->ended_for_next)
            return rc;
        replay_stream_next(f->rs);
        if (f->arena)
            arena_view_switched(f->arena);
        if (!replay_stream_pending(f->rs) && !f->eof)
            fprintf(stderr, "botfield: %s: waiting for the next recording (Ctrl-C quits)\n",
                    f->name);
    }
}
