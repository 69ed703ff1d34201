/* watch_serve.h — the daemon's side of `watch`: each watcher's
 * connection, fed what its person may see of the live matches without
 * ever blocking the daemon (a slow watcher skips, a dropped one costs
 * nothing). */
#ifndef BOTFIELD_ARENA_WATCH_SERVE_H
#define BOTFIELD_ARENA_WATCH_SERVE_H

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

#endif
