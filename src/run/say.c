/* say.c — the run layer's messages (say.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "say.h"

/* Per thread: libbotfield's callers may step envs on threads of their own. */
static _Thread_local int quiet;
static _Thread_local char kept[512];

void run_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!quiet) {
        fputs("botfield: ", stderr);
        vfprintf(stderr, fmt, ap);
    } else {
        vsnprintf(kept, sizeof kept, fmt, ap);
        size_t n = strlen(kept);
        while (n > 0 && kept[n - 1] == '\n')
            kept[--n] = 0;
    }
    va_end(ap);
}

void run_say_quietly(int on)
{
    quiet = on;
    kept[0] = 0;
}

const char *run_said(void)
{
    return kept;
}
