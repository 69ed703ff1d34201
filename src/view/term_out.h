/* term_out.h — what the viewer writes to the terminal, counted.
 *
 * curses writes to a pseudo-terminal of the viewer's own; a thread copies
 * its bytes to the real terminal and counts them.  The byte-rate budget
 * (pace.h) needs the count: over SSH on a slow link sshd reads the
 * terminal eagerly, so a write never blocks and the viewer, feeling no
 * back-pressure, fell minutes behind.  curses sets the modes of the
 * pseudo-terminal; term_out_sync() gives the real one the same input
 * modes, term_out_close() the ones it had. */
#ifndef BOTFIELD_TERM_OUT_H
#define BOTFIELD_TERM_OUT_H

#include <stdio.h>

struct term_out;

/* A layer between curses and the terminal `in` (its modes) / `out` (its
 * bytes).  NULL, with errno, when no pseudo-terminal or thread could be
 * had: the caller then gives curses the terminal itself. */
struct term_out *term_out_open(int in, int out);

/* The stream to give newterm(). */
FILE *term_out_file(struct term_out *t);

/* The bytes curses has written so far (copied out or still queued). */
unsigned long long term_out_bytes(struct term_out *t);

/* The real terminal takes the input modes curses set on the layer's. */
void term_out_sync(struct term_out *t);

/* Before the viewer stops (Ctrl-Z), after endwin(): waits until what
 * curses wrote has reached the real terminal, then gives that its modes
 * back.  term_out_sync() takes the viewer's again on SIGCONT. */
void term_out_suspend(struct term_out *t);

/* The layer's size follows the real terminal's (after SIGWINCH). */
void term_out_resize(struct term_out *t, int rows, int cols);

/* Copies out what is left (after endwin()), ends the thread and puts the
 * real terminal's modes back.  NULL is fine. */
void term_out_close(struct term_out *t);

#endif
