/* term_restore.h — the terminal given back even when the viewer dies of a
 * signal it cannot turn into a clean exit (loop.c turns SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT into one, its recording ended): the fatal
 * ones (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) and the others that end
 * a process by default (SIGUSR1, SIGALRM, SIGXCPU, ...).  SIGXFSZ and
 * SIGPIPE are ignored meanwhile, so that a write past the file size limit
 * or into a closed pipe fails and is reported instead.
 *
 * The handler does only what is async-signal-safe: tcsetattr() with the
 * modes saved before curses started and one write() of reset sequences
 * prepared in advance (leave the alternate screen, show the cursor,
 * plain attributes, no mouse reports, keypad off); then the signal's
 * default action is restored and the signal raised again, so the process
 * dies of it as the parent expects (exit status 128 + N, a core dump
 * where enabled). */
#ifndef BOTFIELD_TERM_RESTORE_H
#define BOTFIELD_TERM_RESTORE_H

/* Saves the terminal modes of fd: call before curses changes them. */
void term_restore_save(int fd);

/* Prepares the reset sequences (from terminfo, so call with the curses
 * screen set up; `out` is the terminal's output) and installs the
 * handlers on an alternate stack (a stack overflow still restores).
 * 0, or -1 when the handlers could not be installed. */
int term_restore_arm(int out);

/* From a signal handler: the terminal given back as for a fatal signal,
 * then death by sig (its default action).  loop.c's handler calls it on
 * a second quit signal, when the first one's clean exit is too slow. */
void term_restore_die(int sig);

/* Puts back the handlers that were there before term_restore_arm(). */
void term_restore_disarm(void);

#endif
