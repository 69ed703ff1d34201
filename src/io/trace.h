/* trace.h — JSON Lines traces and the summary line (botfield(6), HEADLESS OUTPUT).
 *
 * The writer only reads the world.  Numbers are written as the shortest of
 * %.15g, %.16g and %.17g that reads back as the same double, so a trace is
 * exact and the same run gives the same bytes.  Strings are escaped as
 * JSON requires, bytes that are not UTF-8 written as U+FFFD.  Every
 * function returns 0, or -1 when the stream reported an error or a
 * number was refused (trace_error()). */
#ifndef BOTFIELD_TRACE_H
#define BOTFIELD_TRACE_H

#include <stdio.h>

struct world;

/* Formats v as a JSON number into buf (at least 32 bytes): 0.  NaN and
 * the infinities, which JSON cannot hold, are refused: buf holds null and
 * the result is -1. */
int trace_number(char *buf, double v);

/* A number the writer refused (a non-finite value reached it, a bug
 * upstream): what and where, e.g. "aim_x = nan is not a finite number";
 * NULL when none.  Once one is refused every trace_* function returns -1
 * (the line written stays JSON, with null) until trace_error_clear(). */
const char *trace_error(void);
void trace_error_clear(void);

/* Why a write of an output file (trace, recording, CSV) failed, for its
 * message: strerror(e), but past the file size limit (EFBIG: ulimit -f,
 * a quota) a sentence that says which limit. */
const char *trace_strerror(int e);

/* Header, trees, entities and waypoints. */
int trace_begin(FILE *f, const struct world *w, const char *version);
/* This tick's events, in the order they happened. */
int trace_events(FILE *f, const struct world *w);
/* A state line for every vehicle. */
int trace_states(FILE *f, const struct world *w);
/* The decide lines of this tick (--trace-decisions): each live vehicle's
 * decision record (core/explain.h); none unless w->explain was on. */
int trace_decisions(FILE *f, const struct world *w);
/* A match's round line, at its end: {"type":"round","tick":T,"round":R,
 * "rounds":N,"winner":TEAM or null} (round.h judges). */
int trace_round(FILE *f, const struct world *w);
/* A round's trees, as the header's tree lines: written as a round of a
 * match with random trees starts (its trees replace those before). */
int trace_round_trees(FILE *f, const struct world *w);
/* The summary object, one line. */
int trace_summary(FILE *f, const struct world *w);

/* A bot's line: {"type":TYPE,"tick":T,"id":ID,KEY:TEXT} -- bot_error
 * (key "error"), log ("text"), bot_reload ("bot_sha256"); the text is
 * escaped like every string. */
int trace_bot_line(FILE *f, const char *type, long tick, const char *id,
                   const char *key, const char *text);

/* A bot's say line: {"type":"say","tick":T,"id":ID,"data":...}, the data
 * written by data(f, arg) (0, or -1 when it could not). */
int trace_say_line(FILE *f, long tick, const char *id,
                   int (*data)(FILE *f, const void *arg), const void *arg);

/* A JSON string, quoted and escaped as every string of the trace (the
 * recordings write theirs with it too). */
void trace_string(FILE *f, const char *s);

#endif
