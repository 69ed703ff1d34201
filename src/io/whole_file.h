/* whole_file.h — a file written whole or not at all.
 *
 * It is written into a temporary file beside it (PATH.XXXXXX, so on the
 * same file system) and renamed over PATH once complete: an error midway
 * (a full disk) leaves the old file as it was, or none.  SIGINT, SIGTERM,
 * SIGQUIT and SIGHUP are held meanwhile and delivered after the rename,
 * so a signal never leaves half a file or a temporary one behind.  A PATH
 * that exists and is not a regular file (a FIFO, /dev/stdout) is written
 * directly: it cannot be renamed over. */
#ifndef BOTFIELD_WHOLE_FILE_H
#define BOTFIELD_WHOLE_FILE_H

#include <signal.h>
#include <stdio.h>

struct whole_file {
    FILE *f;
    char *tmp;              /* NULL: written directly */
    const char *path;
    sigset_t held;          /* the signal mask before */
};

/* The stream to write into, or NULL with errno. */
FILE *whole_open(struct whole_file *wf, const char *path);
/* Closes and renames over the path: 0, or -1 with errno (the path is then
 * as it was and the temporary file removed); failed: a write error the
 * caller knows of, so nothing replaces the path. */
int whole_close(struct whole_file *wf, int failed);

#endif
