/* watch_client.h — arena-shell's `watch`: the ordinary viewer on the
 * stream the daemon sends for a {"cmd":"watch"} request (watch_serve.c),
 * following each live match as its recording grows, one after another. */
#ifndef BOTFIELD_ARENA_WATCH_CLIENT_H
#define BOTFIELD_ARENA_WATCH_CLIENT_H

/* The frames a second and the bytes a second the viewer draws at most
 * by default: a watcher is a terminal over SSH. */
#define ARENA_WATCH_FPS 10
#define ARENA_WATCH_RATE 3000

/* fd: the connection, its request already sent (taken over: closed).
 * Runs until the person quits or the daemon closes the connection; the
 * exit status. */
int arena_watch_client(int fd, const char *person, const char *maps_dir);

#endif
