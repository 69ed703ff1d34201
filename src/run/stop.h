/* stop.h — a headless run stopped by a signal ends its files cleanly
 * (botfield(6), SIGNALS).
 *
 * While armed, SIGINT, SIGTERM, SIGQUIT, SIGHUP and SIGPIPE only note the
 * signal: the run checks stop_signal() between ticks, writes what it has
 * computed (whole lines: the trace, the summary, the recording's end
 * line), then stop_die() ends the process by the signal's default
 * action, so its parent sees it killed by that signal.  The handler
 * stays async-signal-safe: a flag, alarm(), sigaction(), raise().
 *
 * Two safety nets keep a stop from waiting on the program: a second
 * signal (other than SIGPIPE, which the run's own writes into a closed
 * pipe raise again and again) kills at once, and STOP_GRACE_SECONDS after
 * the first one the process dies of it anyway (a write blocked on a pipe
 * nobody reads).  A signal the parent ignores (nohup, a shell's
 * background job) stays ignored. */
#ifndef BOTFIELD_STOP_H
#define BOTFIELD_STOP_H

#define STOP_GRACE_SECONDS 3

/* Installs the handlers (again: nothing). */
void stop_arm(void);
/* The previous actions back, the grace timer off (nothing when not
 * armed). */
void stop_disarm(void);
/* The first signal received since armed, or 0. */
int stop_signal(void);
/* When a signal was received: the handlers off and the process ended
 * by that signal's default action (a core dump for SIGQUIT where the
 * limits allow one).  Returns only when none was, or the default action
 * did not end the process. */
void stop_die(void);

#endif
