/* watch_serve.h — the daemon's side of `watch`: each watcher's
 * connection, fed what its person may see of the live matches without
 * ever blocking the daemon (a slow watcher skips, a dropped one costs
 * nothing). */
#ifndef BOTFIELD_ARENA_WATCH_SERVE_H
#define BOTFIELD_ARENA_WATCH_SERVE_H

#include <stddef.h>

struct arena_ladder;
struct arena_watchers;

struct arena_watchers *arena_watchers_new(void);
void arena_watchers_free(struct arena_watchers *ws);

/* A connection whose request was {"cmd":"watch",...}: the watchers own
 * fd from now on (request: the request line, for its options). */
void arena_watch_accept(struct arena_watchers *ws, int fd, const char *person,
                        const char *request);

/* Feeds every watcher what is new; never blocks.  Returns how many ms
 * the daemon may sleep. */
int arena_watch_poll(struct arena_watchers *ws, struct arena_ladder *l);

/* A watcher's unsent bytes at most: the recording is read on only while
 * there is room, and one whose buffer stays full for the stall time,
 * taking nothing, is dropped (never waited for). */
#define ARENA_WATCH_BUFFER ((size_t)256 << 10)
#define ARENA_WATCH_STALL_SECONDS 10.0

/* Watchers at once, a person's and everybody's: one over is told why on
 * a {"type":"refused","error":...} line and closed. */
#define ARENA_WATCH_PER_PERSON 100
#define ARENA_WATCH_MAX 250

/* Other bounds (the tests'). */
void arena_watchers_limits(struct arena_watchers *ws, size_t bound, double stall_seconds);
/* The watchers connected now. */
size_t arena_watchers_count(const struct arena_watchers *ws);

#endif
