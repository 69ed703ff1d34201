/* store.h — the arena's files: written whole or not at all, and only at
 * paths built from checked names (botfield-arena(7), FILES). */
#ifndef BOTFIELD_ARENA_STORE_H
#define BOTFIELD_ARENA_STORE_H

#include <stddef.h>

/* All of p[0..n) written to fd (a blocking one), through EINTR and short
 * writes: 0, or -1 with errno. */
int arena_write_all(int fd, const char *p, size_t n);

/* dir/name written as data[0..n): a temporary file in dir, fsync, rename
 * over dir/name, fsync of dir, so that a kill -9 or a power cut leaves
 * the old file or the new, never half of one.  0, or -1 with errno. */
int arena_write_atomic(const char *dir, const char *name, const void *data, size_t n);

/* Appends one line to dir/name and fsyncs it: 0 or -1 with errno. */
int arena_append_line(const char *dir, const char *name, const char *line, size_t n);

/* In a child the daemon forked: dies with the daemon (a match left
 * running after a kill -9 would write into the next daemon's files), and
 * holds none of its descriptors (its socket, its clients) but `keep` and
 * 0 to 2.  A child that lost its parent already exits. */
void arena_child_detach(int keep);

#endif
