/* regress-main.c — replays fuzz inputs through the fuzz target in every
 * build, so a crash the fuzzer once found stays fixed under plain
 * `make check` (and is caught by the sanitizer and valgrind runs too).
 *
 * Each file of tests/fuzz/regress/ (the crashing inputs found while
 * fuzzing) and of the seed corpus (maps/, tests/maps/good, tests/maps/bad)
 * goes through LLVMFuzzerTestOneInput() — the very code libFuzzer runs —
 * and through map_load_text(), which must either succeed or give an error
 * text.  A crash kills the test, which the harness reports. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/tap.h"
#include "core/world.h"
#include "io/map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const dirs[] = {
    "tests/fuzz/regress", "maps", "tests/maps/good", "tests/maps/bad"
};

static char *cur_text;
static size_t cur_len;

static int read_file(const char *path, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        return -1;
    }
    *text = buf;
    *len = n;
    return 0;
}

TEST(replay)
{
    LLVMFuzzerTestOneInput((const uint8_t *)cur_text, cur_len);
    struct world w;
    struct map_error e;
    int rc = map_load_text("regress.ini", cur_text, cur_len, NULL, &w, &e);
    check(rc == 0 || rc == -1);
    if (rc == 0) {
        check(e.text == NULL);
        world_free(&w);
    } else {
        check(e.text != NULL && e.text[0] != 0);
    }
    map_error_free(&e);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    /* Some inputs crashed only once their world ran (tick.c's collision
     * pass): step each world that loads a few ticks, as the fuzzer can. */
    setenv("FUZZ_MAP_TICKS", "3", 0);
    const char *top = getenv("top_srcdir");
    if (!top)
        top = ".";
    int files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", top, dirs[d]);
        DIR *dp = opendir(dir);
        if (!dp) {
            tap_note("cannot open %s", dir);
            continue;
        }
        /* Sorted, so the TAP lines come in the same order everywhere. */
        char **names = NULL;
        size_t n = 0;
        struct dirent *de;
        while ((de = readdir(dp))) {
            if (de->d_name[0] == '.' || !strcmp(de->d_name, "README"))
                continue;
            char **nn = realloc(names, (n + 1) * sizeof *names);
            if (!nn || !(nn[n] = strdup(de->d_name))) {
                free(nn ? nn : names);
                closedir(dp);
                tap_note("out of memory");
                return 1;
            }
            names = nn;
            n++;
        }
        closedir(dp);
        if (n)
            qsort(names, n, sizeof *names, by_name);
        for (size_t i = 0; i < n; i++) {
            char path[8192], desc[8300];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            struct stat st;
            if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                free(names[i]);     /* maps/bots/: the bots, not maps */
                continue;
            }
            snprintf(desc, sizeof desc, "%s/%s loads or fails cleanly", dirs[d], names[i]);
            if (read_file(path, &cur_text, &cur_len) == 0) {
                run(replay, desc);
                free(cur_text);
                cur_text = NULL;
                files++;
            } else {
                tap_skip(desc, "cannot read the file");
            }
            free(names[i]);
        }
        free(names);
    }
    if (files == 0)
        tap_skip("fuzz regression inputs", "no input files found");
    return tap_done();
}
