/* trace.h — JSON Lines traces and the summary line (TRACE.md).
 *
 * The writer only reads the world.  Numbers are written as the shortest of
 * %.15g, %.16g and %.17g that reads back as the same double, so a trace is
 * exact and the same run gives the same bytes.  Every function returns 0,
 * or -1 when the stream reported an error. */
#ifndef BOTFIELD_TRACE_H
#define BOTFIELD_TRACE_H

#include <stdio.h>

struct world;

/* Formats v as a JSON number into buf (at least 32 bytes); NaN and the
 * infinities, which JSON cannot hold, become null. */
void trace_number(char *buf, double v);

/* Header, trees, entities and waypoints. */
int trace_begin(FILE *f, const struct world *w, const char *version);
/* This tick's events, in the order they happened. */
int trace_events(FILE *f, const struct world *w);
/* A state line for every vehicle. */
int trace_states(FILE *f, const struct world *w);
/* The summary object, one line. */
int trace_summary(FILE *f, const struct world *w);

#endif
