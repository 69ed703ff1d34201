/* test-watch-serve.c — the daemon's side of watch (watch_serve.c): a
 * watcher that never reads is dropped while the others keep getting every
 * line; lines the person may not see are not sent and now lines tell
 * their ticks; a match's end moves the watcher to the next live match;
 * the live list, a switch to the match asked for, the ladder when asked
 * (once a second at most), and a bad request that drops its watcher. */
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

static int ladders;              /* ladder lines made */

char *arena_ladder_watch_line(struct arena_ladder *l, const char *person)
{
    (void)l;
    char *t = malloc(96);
    snprintf(t, 96, "{\"type\":\"arena\",\"ladder\":[],\"for\":\"%s\",\"n\":%d}\n", person,
             ++ladders);
    return t;
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

/* The daemon's own {"type":"arena"} lines taken out of buf. */
static void strip_arena(char *buf, size_t *n)
{
    size_t r = 0, w = 0;
    while (buf && r < *n) {
        char *nl = memchr(buf + r, '\n', *n - r);
        size_t len = nl ? (size_t)(nl - (buf + r)) + 1 : *n - r;
        if (strncmp(buf + r, "{\"type\":\"arena\"", 15)) {
            memmove(buf + w, buf + r, len);
            w += len;
        }
        r += len;
    }
    *n = w;
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
    strip_arena(got, &n);
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

static int count(const char *s, const char *what)
{
    int k = 0;
    for (const char *p = s; p && (p = strstr(p, what)); p++)
        k++;
    return k;
}

static void say(int fd, const char *line)
{
    if (write(fd, line, strlen(line)) != (ssize_t)strlen(line))
        abort();
}

TEST(the_live_list_and_a_switch_to_the_match_asked_for)
{
    live_file(0, 7, "{\"type\":\"recording\",\"format\":1,\"seed\":1}\n"
              "{\"type\":\"checkpoint\",\"tick\":5,\"hash\":\"x\"}\n");
    live_file(1, 8, "{\"type\":\"recording\",\"format\":1,\"seed\":2}\n");
    snprintf(lives[0].bots[0], 80, "alice/a");
    snprintf(lives[0].bots[1], 80, "bob/b");
    snprintf(lives[1].bots[0], 80, "carol/c");
    snprintf(lives[1].bots[1], 80, "alice/a");
    nlives = 1;
    struct arena_watchers *ws = arena_watchers_new();
    int a[2];
    pair(a);
    arena_watch_accept(ws, a[0], "alice", "{\"cmd\":\"watch\"}");
    char *got = NULL;
    size_t n = 0;
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(got && strstr(got, "{\"type\":\"arena\",\"live\":[{\"id\":7,\"bots\":[\"alice/a\","
                             "\"bob/b\"]}],\"following\":7}\n"));
    /* a second live match: told once, not at every turn */
    nlives = 2;
    free(got);
    got = NULL, n = 0;
    arena_watch_poll(ws, NULL);
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(got && strstr(got, "\"id\":8,\"bots\":[\"carol/c\",\"alice/a\"]}]"));
    check_int(count(got, "\"live\""), ==, 1);
    /* not live: an error line; then the one asked for, from its start */
    say(a[1], "{\"cmd\":\"follow\",\"match\":99}\n");
    arena_watch_poll(ws, NULL);
    free(got);
    got = NULL, n = 0;
    drain(a[1], &got, &n);
    check(got && strstr(got, "\"error\":\"match 99 is not live now\""));
    say(a[1], "{\"cmd\":\"follow\",\"match\":8}\n");
    append(0, "{\"type\":\"checkpoint\",\"tick\":6,\"hash\":\"old\"}\n");
    arena_watch_poll(ws, NULL);
    free(got);
    got = NULL, n = 0;
    drain(a[1], &got, &n);
    const char *sw = got ? strstr(got, "{\"type\":\"arena\",\"switched\":8}\n") : NULL;
    check(sw != NULL);
    check(sw && strstr(sw, "\"seed\":2") && !strstr(sw, "\"old\""));
    check(sw && strstr(sw, "\"following\":8"));
    arena_watchers_free(ws);
    free(got);
    close(a[1]);
}

/* Every line of buf whole: starts with '{' and ends with '}'. */
static int lines_whole(const char *buf, size_t n)
{
    size_t at = 0;
    while (at < n) {
        const char *nl = memchr(buf + at, '\n', n - at);
        if (!nl || buf[at] != '{' || nl[-1] != '}')
            return 0;
        at = (size_t)(nl - buf) + 1;
    }
    return 1;
}

TEST(a_switch_in_the_middle_of_a_line_keeps_lines_whole)
{
    /* lines of 20 kB, a small socket buffer: a send stops inside a line,
     * and the buffer is compacted before the switch */
    size_t cap = 1u << 20, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text, cap, "{\"type\":\"recording\",\"format\":1,\"seed\":1}\n");
    for (long t = 1; len + 21000 < cap && t < 40; t++) {
        len += (size_t)snprintf(text + len, cap - len, "{\"type\":\"checkpoint\",\"tick\":%ld,\"pad\":\"", t);
        memset(text + len, 'x', 20000);
        len += 20000;
        len += (size_t)snprintf(text + len, cap - len, "\"}\n");
    }
    live_file(0, 11, text);
    live_file(1, 12, "{\"type\":\"recording\",\"format\":1,\"seed\":2}\n");
    nlives = 2;
    struct arena_watchers *ws = arena_watchers_new();
    int a[2];
    pair(a);
    int small = 4096;
    setsockopt(a[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    setsockopt(a[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    arena_watchers_limits(ws, 30000, 100);
    arena_watch_accept(ws, a[0], "alice", "{\"cmd\":\"watch\"}");
    char *got = NULL;
    size_t n = 0;
    /* a poll that sends (a drained socket), then one that cannot (full)
     * but reads on: the unsent bytes are moved to the buffer's start, in
     * the middle of a line */
    for (int i = 0; i < 12; i++) {
        drain(a[1], &got, &n);
        arena_watch_poll(ws, NULL);
        arena_watch_poll(ws, NULL);
    }
    say(a[1], "{\"cmd\":\"follow\",\"match\":12}\n");
    for (int i = 0; i < 400; i++) {
        arena_watch_poll(ws, NULL);
        drain(a[1], &got, &n);
    }
    check(got && strstr(got, "\n{\"type\":\"arena\",\"switched\":12}\n{\"type\":\"recording\",\"format\":1,\"seed\":2}"));
    check(lines_whole(got, n));
    check(n > 0 && n < len);        /* the old match was cut short */
    arena_watchers_free(ws);
    free(got);
    free(text);
    close(a[1]);
}

TEST(a_match_not_begun_tells_no_tick)
{
    live_file(0, 13, "");           /* its recording made, nothing in it yet */
    nlives = 1;
    struct arena_watchers *ws = arena_watchers_new();
    int a[2];
    pair(a);
    arena_watch_accept(ws, a[0], "alice", "{\"cmd\":\"watch\"}");
    char *got = NULL;
    size_t n = 0;
    arena_watch_poll(ws, NULL);
    usleep(300 * 1000);             /* past the now lines' quarter second */
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(got && strstr(got, "\"live\""));
    check(!got || !strstr(got, "\"type\":\"now\""));
    arena_watchers_free(ws);
    free(got);
    close(a[1]);
}

TEST(the_ladder_when_asked_once_a_second_at_most)
{
    nlives = 0;
    ladders = 0;
    struct arena_watchers *ws = arena_watchers_new();
    int a[2];
    pair(a);
    arena_watch_accept(ws, a[0], "bob", "{\"cmd\":\"watch\"}");
    char *got = NULL;
    size_t n = 0;
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(!got || !strstr(got, "ladder"));
    say(a[1], "{\"cmd\":\"ladder\"}\n{\"cmd\":\"ladder\"}\n");
    arena_watch_poll(ws, NULL);
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(got && strstr(got, "\"for\":\"bob\",\"n\":1}"));
    say(a[1], "{\"cmd\":\"ladder\"}\n");
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check_int(ladders, ==, 1);          /* the second waits its second */
    usleep(1100 * 1000);
    arena_watch_poll(ws, NULL);
    drain(a[1], &got, &n);
    check(got && strstr(got, "\"n\":2}"));
    check_int(ladders, ==, 2);
    arena_watchers_free(ws);
    free(got);
    close(a[1]);
}

TEST(a_bad_request_drops_its_watcher)
{
    nlives = 0;
    const char *bad[] = { "hello\n", "{\"cmd\":\"follow\",\"match\":\"7\"}\n",
                          "{\"cmd\":\"ladder\",\"x\":1}\n", NULL };
    for (int k = 0; k <= 3; k++) {
        struct arena_watchers *ws = arena_watchers_new();
        int a[2];
        pair(a);
        arena_watch_accept(ws, a[0], "eve", "{\"cmd\":\"watch\"}");
        if (bad[k])
            say(a[1], bad[k]);
        else {                  /* a line longer than a request may be */
            char big[1000];
            memset(big, 'x', sizeof big);
            if (write(a[1], big, sizeof big) < 0)
                abort();
        }
        arena_watch_poll(ws, NULL);
        check_int(arena_watchers_count(ws), ==, 0);
        arena_watchers_free(ws);
        close(a[1]);
    }
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
    run(the_live_list_and_a_switch_to_the_match_asked_for,
        "the live matches are told when they change; a follow request switches to the "
        "match's start after a switched line, and one not live is an error line");
    run(a_switch_in_the_middle_of_a_line_keeps_lines_whole,
        "a switch while a line is half sent: that line is finished, then the switch, "
        "every line whole");
    run(a_match_not_begun_tells_no_tick,
        "a live match with nothing recorded yet: no now line (no tick is whole)");
    run(the_ladder_when_asked_once_a_second_at_most,
        "the ladder is sent when asked, for its person, at most once a second");
    run(a_bad_request_drops_its_watcher,
        "a request that is not JSON, has a wrong type or key, or is too long drops its watcher");
    char path[128];
    for (int id = 1; id <= 13; id++) {
        snprintf(path, sizeof path, "%s/%d.part", dir, id);
        unlink(path);
    }
    rmdir(dir);
    return tap_done();
}
