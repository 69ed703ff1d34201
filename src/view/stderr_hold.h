/* stderr_hold.h — what is written on stderr while curses owns the screen is
 * held back and written after it, where the shell can show it.
 *
 * The viewer's own messages go to its status line, but code it shares
 * with the headless runs (a recording that cannot be written, a script it
 * cannot record) says so on stderr: written over the curses screen, the
 * line stayed there, between the map's cells, until a full redraw.
 * In an ASan build the sanitizer's death callback writes what was held,
 * its report included, before the process ends. */
#ifndef BOTFIELD_STDERR_HOLD_H
#define BOTFIELD_STDERR_HOLD_H

/* From here on stderr goes to a temporary file, when stderr is a
 * terminal (else it is left as it is). */
void stderr_hold_start(void);

/* Gives stderr back and writes on it what was held. */
void stderr_hold_end(void);

/* The same, async-signal-safe, for the fatal signal handler. */
void stderr_hold_release_in_signal(void);

#endif
