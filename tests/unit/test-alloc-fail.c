/* test-alloc-fail.c — allocation failures give an error, never a crash.
 *
 * Linked with -Wl,--wrap for malloc, calloc, realloc and strdup, so every
 * allocation made by the core and the loader (static libraries linked into
 * this program) goes through the wrappers below.  For n = 1, 2, ... the
 * n-th allocation fails; loading a map, preparing and stepping it must then
 * end in an error value (with a message for the loader), and everything
 * allocated before must still be freed (LeakSanitizer in the sanitizer
 * build, valgrind by hand).  The loop ends when a whole run no longer
 * reaches the n-th allocation. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/state_hash.h"
#include "core/tick.h"
#include "core/world.h"
#include "io/map.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

/* Atomic: the runs on two threads allocate from both at once. */
static _Atomic long alloc_count;
static long fail_at;                /* 0: never fail; -1: count, never
                                       fail; set between runs */

static int fail_now(void)
{
    if (fail_at < 0) {          /* counting only */
        atomic_fetch_add(&alloc_count, 1);
        return 0;
    }
    return fail_at > 0 && atomic_fetch_add(&alloc_count, 1) + 1 == fail_at;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return fail_now() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return fail_now() ? NULL : __real_strdup(s); }

static char path_buf[4096];
static const char *fixture(const char *rel)
{
    const char *top = getenv("top_srcdir");
    snprintf(path_buf, sizeof path_buf, "%s/%s", top ? top : ".", rel);
    return path_buf;
}

/* One run with the n-th allocation failing: 1 when it reached it. */
static const char *cur_map;
static int cur_threads;     /* > 1: the stages on threads (par.h), however
                               few the tanks */
static int loads_failed, steps_failed, runs, reached;

TEST(every_failure)
{
    for (long n = 1; n < 200000; n++) {
        alloc_count = 0;
        fail_at = n;
        struct world w;
        struct map_error e;
        int rc = map_load(cur_map, NULL, &w, &e);
        check(rc == 0 || rc == -1);
        if (rc) {
            /* Out of memory while writing the message itself may leave
             * the text empty (main.c then says the map cannot be loaded);
             * without an injected failure a bad map always has one. */
            if (alloc_count < n)
                check(e.text != NULL);
            loads_failed++;
            map_error_free(&e);
        } else {
            if (cur_threads > 1) {
                w.threads = cur_threads;
                w.threads_min = -1;
            }
            int s = 0;
            for (int t = 0; t < 3 && s == 0; t++)
                s = tick_step(&w);
            if (s)
                steps_failed++;
            world_free(&w);
            map_error_free(&e);
        }
        runs++;
        if (alloc_count < n) {
            reached = 1;        /* a whole run no longer reaches n */
            break;
        }
    }
    fail_at = 0;
    check(reached);
    tap_note("%s: %d runs, %d failed loading, %d failed stepping", cur_map, runs,
             loads_failed, steps_failed);
}

/* A close skirmish: sixty tanks on 800 x 800 fire dozens of shells in
 * their first SKIRMISH_TICKS ticks, so the shells' list grows during them. */
static const char skirmish[] =
    "[map]\nname = skirmish\nwidth = 800\nheight = 800\nseed = 3\n"
    "[team.a]\nrandom = 30\n[team.b]\nrandom = 30\n";
#define SKIRMISH_TICKS 90

/* > 1: the skirmish's stages on threads however few the tanks and
 * shells (the threads' buffers: the shells' flight's bodies, par.h) */
static int skirmish_threads = 1;

/* The skirmish's ticks: 0 and the state's hash in *h, or -1 when a step
 * failed.  The load itself never fails here (fail_at is past it). */
static int skirmish_run(uint64_t *h, long *shots)
{
    struct world w;
    struct map_error e;
    if (map_load_text("skirmish", skirmish, strlen(skirmish), NULL, &w, &e)) {
        map_error_free(&e);
        return -2;
    }
    if (skirmish_threads > 1) {
        w.threads = skirmish_threads;
        w.threads_min = -1;
    }
    int s = 0;
    for (int t = 0; t < SKIRMISH_TICKS && s == 0; t++)
        s = tick_step(&w);
    *h = state_hash(&w);
    *shots = w.stats.shots;
    world_free(&w);
    map_error_free(&e);
    return s ? -1 : 0;
}

/* A failure inside a tick is the tick's error: a run whose steps all
 * said 0 ends in the state of the run without a failure (before, the
 * shells' list not growing dropped a tick's firing and flight, and the
 * tick said nothing). */
TEST(no_silent_change)
{
    uint64_t clean, h;
    long shots, s2;
    /* the allocations of the load, then of the whole run */
    alloc_count = 0;
    fail_at = -1;               /* counting, never failing */
    struct world w;
    struct map_error e;
    if (map_load_text("skirmish", skirmish, strlen(skirmish), NULL, &w, &e)) {
        check(!"the skirmish loads");
        tap_note("%s", e.text ? e.text : "");
        map_error_free(&e);
        fail_at = 0;
        return;
    }
    long loading = alloc_count;
    world_free(&w);
    map_error_free(&e);
    alloc_count = 0;
    check(skirmish_run(&clean, &shots) == 0);
    long total = alloc_count;
    check(shots > 32);          /* the shells' list grew twice at least */
    int failed = 0, absorbed = 0, differ = 0;
    for (long n = loading + 1; n <= total; n++) {
        alloc_count = 0;
        fail_at = n;
        int rc = skirmish_run(&h, &s2);
        check(rc != -2);
        if (rc)
            failed++;
        else if (h == clean)
            absorbed++;
        else
            differ++;
    }
    fail_at = 0;
    check(failed > 0);
    check(differ == 0);
#ifdef _OPENMP
    /* the threads' buffers that fall back (the flight's bodies, the
     * firing lists) were each refused once: they absorbed it */
    if (skirmish_threads > 1)
        check(absorbed > 0);
#endif
    tap_note("skirmish on %d thread(s): %ld allocations in %d ticks, %d failed stepping, "
             "%d absorbed with the same state, %d with a different one", skirmish_threads,
             total - loading, SKIRMISH_TICKS, failed, absorbed, differ);
}

int main(void)
{
    static const char *const maps[] = {
        "maps/default.ini", "tests/maps/good/explicit-lists.ini",
        "tests/maps/bad/typo-key.ini", "maps/race.ini",
        "maps/default.ini",         /* on 2 threads: the threads' buffers */
    };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        cur_map = fixture(maps[i]);
        cur_threads = i == 4 ? 2 : 1;
        runs = loads_failed = steps_failed = reached = 0;
        char desc[256];
        snprintf(desc, sizeof desc, "%s%s: every allocation failure ends in an error, no crash",
                 maps[i], cur_threads > 1 ? " (2 threads)" : "");
        run(every_failure, desc);
    }
    run(no_silent_change, "an allocation failure in a tick is its error, never a silently different state");
    skirmish_threads = 2;
    run(no_silent_change, "the same on 2 threads (the threads' buffers: a buffer that "
        "cannot grow falls back or fails the tick, never changes it)");
    return tap_done();
}
