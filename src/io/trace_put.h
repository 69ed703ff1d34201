/* trace_put.h — the pieces trace.c writes lines with, for the writers of
 * other lines (trace_decide.c): a string escaped as JSON, a `,"key":`
 * number (exact, a non-finite one refused as trace.h says), a `,"key":`
 * string, and the writer's status (0, or -1). */
#ifndef BOTFIELD_TRACE_PUT_H
#define BOTFIELD_TRACE_PUT_H

#include <stdio.h>

void trace_put_str(FILE *f, const char *s);
void trace_put_num(FILE *f, const char *key, double v);
void trace_put_key_str(FILE *f, const char *key, const char *s);
int trace_status(FILE *f);
/* A string of len bytes, NULs written as \u0000; a bare number. */
void trace_put_strn(FILE *f, const char *s, size_t len);
void trace_put_value(FILE *f, double v);

#endif
