/* fuzz-world.c — libFuzzer target that steps valid worlds (issue 20).
 *
 * The input is a map: when map_load_text() accepts it and it is small
 * (FUZZ_WORLD_MAX_VEHICLES vehicles, FUZZ_WORLD_MAX_TREES trees), the
 * world is prepared and stepped FUZZ_WORLD_TICKS ticks, each tick's events
 * and states written through the trace writer into memory.  A crash, a
 * sanitizer report (ASan, UBSan with float-cast-overflow) or a non-finite
 * number in the trace (the writer prints `null` for one; no event or state
 * line may hold null) is a finding: the last aborts.  fuzz-map.c fuzzes
 * the loader; this one the values a valid map may hold.
 *
 * Built only by ./configure --enable-fuzz CC=clang; run with
 * make fuzz-world [FUZZ_SECONDS=N]. */
#include "config.h"

#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"
#include "io/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_WORLD_MAX_VEHICLES 64
#define FUZZ_WORLD_MAX_TREES 256
#define FUZZ_WORLD_TICKS 50

/* The lines written since the last rewind must not hold a null value (a
 * non-finite number): a null token outside every string.  (A name may
 * hold any text, so the strings are skipped, escapes included.) */
static int has_null(const char *b, size_t n)
{
    int in_str = 0;
    for (size_t i = 0; i < n; i++) {
        if (in_str) {
            if (b[i] == '\\')
                i++;
            else if (b[i] == '"')
                in_str = 0;
        } else if (b[i] == '"') {
            in_str = 1;
        } else if (b[i] == 'n' && n - i >= 4 && memcmp(b + i, "null", 4) == 0) {
            return 1;
        }
    }
    return 0;
}

static void check_text(FILE *f, char **buf, size_t *len)
{
    fflush(f);
    if (*buf && has_null(*buf, *len)) {
        fprintf(stderr, "fuzz-world: a non-finite number in the trace:\n%.*s\n",
                (int)(*len > 4000 ? 4000 : *len), *buf);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) {
        setlocale(LC_NUMERIC, "C");     /* as main.c */
        once = 1;
    }
    struct world w;
    struct map_error err;
    if (map_load_text("fuzz.ini", (const char *)data, size, NULL, &w, &err) != 0) {
        map_error_free(&err);
        return 0;
    }
    map_error_free(&err);
    if (w.vehicles.n <= FUZZ_WORLD_MAX_VEHICLES && w.trees.n <= FUZZ_WORLD_MAX_TREES) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            /* The header and tree lines may hold no number that is not
             * finite either; the summary (which may say null) is not
             * written. */
            trace_begin(f, &w, PACKAGE_VERSION);
            trace_states(f, &w);
            check_text(f, &buf, &len);
            for (int t = 0; t < FUZZ_WORLD_TICKS && !w.ended; t++) {
                if (tick_step(&w))
                    break;
                rewind(f);              /* only this tick's lines */
                trace_events(f, &w);
                trace_states(f, &w);
                check_text(f, &buf, &len);
            }
            fclose(f);
            free(buf);
        }
    }
    world_free(&w);
    return 0;
}
