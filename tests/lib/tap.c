#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

static int tests, failures, checks_in_test, failed_in_test;

void tap_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    fputs("\n", stdout);
    va_end(ap);
}

void tap_run(void (*fn)(void), const char *desc)
{
    checks_in_test = failed_in_test = 0;
    fn();
    tests++;
    if (checks_in_test == 0) {
        printf("# this test checked nothing\n");
        failed_in_test = 1;
    }
    if (failed_in_test)
        failures++;
    printf("%s %d - %s\n", failed_in_test ? "not ok" : "ok", tests, desc);
    fflush(stdout);
}

void tap_skip(const char *desc, const char *reason)
{
    tests++;
    printf("ok %d - %s # SKIP %s\n", tests, desc, reason);
}

int tap_done(void)
{
    printf("1..%d\n", tests);
    return failures ? 1 : 0;
}

static int record(int ok)
{
    checks_in_test++;
    if (!ok)
        failed_in_test = 1;
    return ok;
}

int tap_check(int ok, const char *file, int line, const char *expr)
{
    if (!ok)
        printf("# check \"%s\" failed at %s:%d\n", expr, file, line);
    return record(ok);
}

#define CMP(a, op, b)                                                 \
    (!strcmp(op, "==") ? (a) == (b) : !strcmp(op, "!=") ? (a) != (b) \
     : !strcmp(op, "<") ? (a) < (b) : !strcmp(op, "<=") ? (a) <= (b) \
     : !strcmp(op, ">") ? (a) > (b) : !strcmp(op, ">=") ? (a) >= (b) : 0)

int tap_check_int(long long a, const char *op, long long b, const char *file,
                  int line, const char *ea, const char *eb)
{
    int ok = CMP(a, op, b);
    if (!ok)
        printf("# check \"%s %s %s\" failed at %s:%d\n#    left: %lld\n#   right: %lld\n",
               ea, op, eb, file, line, a, b);
    return record(ok);
}

int tap_check_num(double a, const char *op, double b, const char *file,
                  int line, const char *ea, const char *eb)
{
    int ok = CMP(a, op, b);
    if (!ok)
        printf("# check \"%s %s %s\" failed at %s:%d\n#    left: %.17g\n#   right: %.17g\n",
               ea, op, eb, file, line, a, b);
    return record(ok);
}

int tap_check_near(double a, double b, double tol, const char *file, int line,
                   const char *ea, const char *eb)
{
    int ok = fabs(a - b) <= tol;        /* false for NaN too */
    if (!ok)
        printf("# check \"%s ~= %s (within %g)\" failed at %s:%d\n#    left: %.17g\n"
               "#   right: %.17g\n", ea, eb, tol, file, line, a, b);
    return record(ok);
}

int tap_check_str(const char *a, const char *b, const char *file, int line,
                  const char *ea, const char *eb)
{
    int ok = a && b && strcmp(a, b) == 0;
    if (!ok)
        printf("# check \"%s == %s\" failed at %s:%d\n#    left: \"%s\"\n#   right: \"%s\"\n",
               ea, eb, file, line, a ? a : "(null)", b ? b : "(null)");
    return record(ok);
}
