/* test-watch-serve.c — the daemon's side of watch (watch_serve.c): a
 * watcher that never reads is dropped while the others keep getting every
 * line; lines the person may not see are not sent and now lines tell
 * their ticks; a match's end moves the watcher to the next live match. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "arena/watch_serve.h"
#include "arena/ladder_run.h"
#include "arena/private.h"

/* The ladder's live matches and the privacy filter, as the test says
 * (defined here: the test links watch_serve.c alone). */

static struct arena_live lives[2];
static int nlives;

int arena_ladder_live(struct arena_ladder *l, struct arena_live *out, int max)
{
    (void)l;
    int n = nlives < max ? nlives : max;
    memcpy(out, lives, (size_t)n * sizeof *out);
    return n;
}

/* "secret" lines are another person's */
int arena_private_keep(const char *line, size_t n, const char *person)
{
    (void)person;
    return !memmem(line, n, "secret", 6);
}

static char dir[64];

static void live_file(int k, long id, const char *text)
{
    lives[k].id = id;
    snprintf(lives[k].path, sizeof lives[k].path, "%s/%ld.part", dir, id);
    FILE *f = fopen(lives[k].path, "w");
    fputs(text, f);
    fclose(f);
}

static void append(int k, const char *text)
{
    FILE *f = fopen(lives[k].path, "a");
    fputs(text, f);
    fclose(f);
}

/* What the peer end has to read now, appended to *buf. */
static size_t drain(int fd, char **buf, size_t *n)
{
    char chunk[65536];
    ssize_t k;
    size_t got = 0;
    while ((k = read(fd, chunk, sizeof chunk)) > 0) {
        *buf = realloc(*buf, *n + (size_t)k + 1);
        memcpy(*buf + *n, chunk, (size_t)k);
        *n += (size_t)k;
        (*buf)[*n] = 0;
        got += (size_t)k;
    }
    return got;
}

static void pair(int sv[2])
{
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        abort();
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
}

TEST(a_watcher_that_never_reads_is_dropped)
{
    /* a recording far larger than the bound and the socket's buffer */
    size_t cap = 3u << 20, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text, cap, "{\"type\":\"recording\",\"format\":1}\n");
    for (long t = 1; len + 100 < cap && t < 40000; t++)
        len += (size_t)snprintf(text + len, cap - len,
                                "{\"type\":\"checkpoint\",\"tick\":%ld,\"hash\":\"0000000000000000\"}\n", t);
    live_file(0, 1, text);
    nlives = 1;
    struct arena_watchers *ws = arena_watchers_new();
    arena_watchers_limits(ws, 65536, 0);
    int a[2], b[2];
    pair(a);
    pair(b);
    arena_watch_accept(ws, a[0], "alice", "{\"cmd\":\"watch\"}");
    arena_watch_accept(ws, b[0], "bob", "{\"cmd\":\"watch\"}");
    check_int(arena_watchers_count(ws), ==, 2);
    char *got = NULL;
    size_t n = 0;
    for (int i = 0; i < 2000 && n < len; i++) {
        arena_watch_poll(ws, NULL);
        drain(b[1], &got, &n);
    }
    check_int(arena_watchers_count(ws), ==, 1);
    check_int(n, ==, len);
    check(got && !memcmp(got, text, len));
    /* the one that never read: what was sent, then the end */
    char *ga = NULL;
    size_t na = 0;
    drain(a[1], &ga, &na);
    char c;
    check_int(read(a[1], &c, 1), ==, 0);
    check_int(na, <, len);
    arena_watchers_free(ws);
    free(ga);
    free(got);
    free(text);
    close(a[1]);
    close(b[1]);
}

TEST(private_lines_are_not_sent_and_now_tells_their_ticks)
{
    live_file(0, 1, "{\"type\":\"recording\",\"format\":1}\n"
              "{\"type\":\"checkpoint\",\"tick\":5,\"hash\":\"x\"}\n"
              "{\"type\":\"bot_source\",\"tick\":40,\"secret\":1}\n");
    nlives = 1;
    struct arena_watchers *ws = arena_watchers_new();
    int a[2];
    pair(a);
    arena_watch_accept(ws, a[0], "alice", "{\"cmd\":\"watch\"}");
    char *got = NULL;
    size_t n = 0;
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(got && !strstr(got, "secret"));
    check(got && strstr(got, "{\"type\":\"checkpoint\",\"tick\":5,"));
    /* the private line was of tick 40: the ticks before it are whole */
    check(got && strstr(got, "{\"type\":\"now\",\"tick\":39}\n"));
    /* one that hangs up is gone at the next turn */
    close(a[1]);
    arena_watch_poll(ws, NULL);
    check_int(arena_watchers_count(ws), ==, 0);
    arena_watchers_free(ws);
    free(got);
}

TEST(a_match_that_ends_moves_the_watcher_to_the_next)
{
    live_file(0, 1, "{\"type\":\"recording\",\"format\":1,\"seed\":1}\n"
              "{\"type\":\"checkpoint\",\"tick\":5,\"hash\":\"x\"}\n");
    live_file(1, 2, "{\"type\":\"recording\",\"format\":1,\"seed\":2}\n");
    nlives = 2;
    struct arena_watchers *ws = arena_watchers_new();
    int a[2];
    pair(a);
    arena_watch_accept(ws, a[0], "alice", "{\"cmd\":\"watch\"}");
    char *got = NULL;
    size_t n = 0;
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(got && strstr(got, "\"seed\":1") && !strstr(got, "\"seed\":2"));
    append(0, "{\"type\":\"end\",\"tick\":9,\"hash\":\"x\"}\n");
    lives[0] = lives[1];
    nlives = 1;
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    const char *end = got ? strstr(got, "{\"type\":\"end\"") : NULL;
    check(end && strstr(end, "\"seed\":2"));
    arena_watchers_free(ws);
    free(got);
    close(a[1]);
}

/* n connections of person accepted; their peer ends in peers[]. */
static void connect_n(struct arena_watchers *ws, const char *person, int n, int *peers)
{
    for (int i = 0; i < n; i++) {
        int sv[2];
        pair(sv);
        arena_watch_accept(ws, sv[0], person, "{\"cmd\":\"watch\"}");
        peers[i] = sv[1];
    }
}

TEST(watchers_over_the_caps_are_told_and_closed)
{
    nlives = 0;
    struct arena_watchers *ws = arena_watchers_new();
    int peers[ARENA_WATCH_MAX + 3];  /* alice's refused one is among them */
    connect_n(ws, "alice", ARENA_WATCH_PER_PERSON + 1, peers);
    check_int(arena_watchers_count(ws), ==, ARENA_WATCH_PER_PERSON);
    char *got = NULL;
    size_t n = 0;
    drain(peers[ARENA_WATCH_PER_PERSON], &got, &n);
    check(got && strstr(got, "{\"type\":\"refused\",\"error\":\"you watch on 100 connections"));
    char c;
    check_int(read(peers[ARENA_WATCH_PER_PERSON], &c, 1), ==, 0);       /* closed */
    /* people of ARENA_WATCH_PER_PERSON connections each up to the arena's cap, then one more */
    char name[16];
    int k = ARENA_WATCH_PER_PERSON + 1;
    for (int p = 0; k < ARENA_WATCH_MAX + 2; p++) {
        snprintf(name, sizeof name, "p%d", p);
        int m = ARENA_WATCH_MAX + 2 - k < ARENA_WATCH_PER_PERSON ? ARENA_WATCH_MAX + 2 - k
                                                                 : ARENA_WATCH_PER_PERSON;
        connect_n(ws, name, m, peers + k);
        k += m;
    }
    check_int(arena_watchers_count(ws), ==, ARENA_WATCH_MAX);
    free(got);
    got = NULL, n = 0;
    drain(peers[ARENA_WATCH_MAX + 1], &got, &n);
    check(got && strstr(got, "the arena has 250 watchers already"));
    /* one hangs up: room for a newcomer again */
    close(peers[0]);
    arena_watch_poll(ws, NULL);
    check_int(arena_watchers_count(ws), ==, ARENA_WATCH_MAX - 1);
    connect_n(ws, "zed", 1, peers + ARENA_WATCH_MAX + 2);
    check_int(arena_watchers_count(ws), ==, ARENA_WATCH_MAX);
    free(got);
    got = NULL, n = 0;
    arena_watch_poll(ws, NULL);
    drain(peers[ARENA_WATCH_MAX + 2], &got, &n);
    check(!got || !strstr(got, "refused"));
    arena_watchers_free(ws);
    for (int i = 1; i < ARENA_WATCH_MAX + 3; i++)
        close(peers[i]);
    free(got);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/watch-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        return 1;
    run(a_watcher_that_never_reads_is_dropped,
        "a watcher that never reads is dropped; another gets every line");
    run(private_lines_are_not_sent_and_now_tells_their_ticks,
        "a line the person may not see is not sent; a now line tells its tick; a "
        "watcher that hangs up is dropped");
    run(a_match_that_ends_moves_the_watcher_to_the_next,
        "after a match's end line the next live match's recording follows");
    run(watchers_over_the_caps_are_told_and_closed,
        "a person's 101st connection, and the 251st watcher, are refused with why");
    char path[128];
    for (int id = 1; id <= 2; id++) {
        snprintf(path, sizeof path, "%s/%d.part", dir, id);
        unlink(path);
    }
    rmdir(dir);
    return tap_done();
}
