/* fuzz-map.c — libFuzzer target for the map loader (the hardening issue).
 *
 * Feeds arbitrary bytes to map_load_text(), which runs our scanner,
 * iniparser, the key-table validation and, when the map is valid, the
 * world build (placement, tree grid).  With FUZZ_MAP_TICKS=N in the
 * environment a world that loaded (and is small) is also prepared and
 * stepped N ticks, so the core is fuzzed through the worlds the loader
 * hands back; by default only the loader is, so that a finding points at
 * the loader.
 *
 * Built only by ./configure --enable-fuzz CC=clang (make tests/fuzz/fuzz-map).
 * Run:  tests/fuzz/fuzz-map -dict=$srcdir/tests/fuzz/map.dict CORPUS_DIR */
#include "config.h"

#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Entities beyond which a loaded world is not stepped (keeps each input
 * fast; loading itself is still fuzzed up to the loader's own limit). */
#define FUZZ_MAX_STEP_ENTITIES 2000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The program reads numbers in the C locale (main.c); so do we. */
    static int once, ticks;
    if (!once) {
        setlocale(LC_NUMERIC, "C");
        const char *t = getenv("FUZZ_MAP_TICKS");
        ticks = t ? atoi(t) : 0;
        once = 1;
    }
    struct world w;
    struct map_error err;
    if (map_load_text("fuzz.ini", (const char *)data, size, NULL, &w, &err) == 0) {
        if (ticks > 0 && w.vehicles.n + w.trees.n <= FUZZ_MAX_STEP_ENTITIES)
            for (int i = 0; i < ticks; i++)
                if (tick_step(&w))
                    break;
        world_free(&w);
    }
    map_error_free(&err);
    return 0;
}
