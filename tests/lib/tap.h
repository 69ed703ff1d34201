/* tap.h — a small TAP producer for botfield's tests, in the manner of git's
 * t/unit-tests/test-lib.h.
 *
 *   TEST(name) { ... checks ... }      declares a test function
 *   run(name_fn, "what it shows");     runs it: one "ok"/"not ok" line
 *   return tap_done();                 prints the plan; the exit status
 *
 * A failing check prints both sides with file and line as TAP comments;
 * a test that checked nothing fails.  Skips print "ok N # SKIP reason",
 * which Automake's harness counts as a skip (never "not ok ... # SKIP"). */
#ifndef BOTFIELD_TAP_H
#define BOTFIELD_TAP_H

#include <stdio.h>

#define TEST(name) static void name(void)

void tap_run(void (*fn)(void), const char *desc);
#define run(fn, desc) tap_run(fn, desc)
void tap_skip(const char *desc, const char *reason);
int tap_done(void);
/* For messages: "# ..." lines. */
void tap_note(const char *fmt, ...);

int tap_check(int ok, const char *file, int line, const char *expr);
int tap_check_int(long long a, const char *op, long long b, const char *file,
                  int line, const char *ea, const char *eb);
int tap_check_num(double a, const char *op, double b, const char *file,
                  int line, const char *ea, const char *eb);
int tap_check_near(double a, double b, double tol, const char *file, int line,
                   const char *ea, const char *eb);
int tap_check_str(const char *a, const char *b, const char *file, int line,
                  const char *ea, const char *eb);

#define check(x) tap_check(!!(x), __FILE__, __LINE__, #x)
/* check_int(a, <, b): op is one of == != < <= > >= */
#define check_int(a, op, b) \
    tap_check_int((long long)(a), #op, (long long)(b), __FILE__, __LINE__, #a, #b)
#define check_num(a, op, b) \
    tap_check_num((double)(a), #op, (double)(b), __FILE__, __LINE__, #a, #b)
#define check_near(a, b, tol) \
    tap_check_near((double)(a), (double)(b), (double)(tol), __FILE__, __LINE__, #a, #b)
#define check_str(a, b) tap_check_str((a), (b), __FILE__, __LINE__, #a, #b)

#endif
