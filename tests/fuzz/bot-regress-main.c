/* bot-regress-main.c — replays the bot fuzz target's inputs in every
 * build: the crashing inputs once found (tests/fuzz/bot-regress/), the
 * bundled bots (maps/bots/) and the test fixtures (tests/bots/), each run
 * through LLVMFuzzerTestOneInput(), the very code libFuzzer runs.  A crash
 * kills the test, which the harness reports; a hang is the harness's
 * timeout. */
#include "config.h"

#include <dirent.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const dirs[] = { "tests/fuzz/bot-regress", "maps/bots", "tests/bots" };

static unsigned char *cur;
static size_t cur_len;

static int read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    cur = malloc(1 << 20);
    cur_len = cur ? fread(cur, 1, 1 << 20, f) : 0;
    int bad = ferror(f) || !cur;
    fclose(f);
    if (bad) {
        free(cur);
        cur = NULL;
        return -1;
    }
    return 0;
}

TEST(replay)
{
    check(LLVMFuzzerTestOneInput(cur, cur_len) == 0);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
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
        char *names[512];
        size_t n = 0;
        struct dirent *de;
        while ((de = readdir(dp)) && n < 512)
            if (de->d_name[0] != '.' && strcmp(de->d_name, "README") != 0)
                names[n++] = strdup(de->d_name);
        closedir(dp);
        qsort(names, n, sizeof names[0], by_name);
        for (size_t i = 0; i < n; i++) {
            if (!names[i])
                continue;
            char path[8192], desc[8300];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            struct stat st;
            if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                free(names[i]);     /* a folder of a test's own (tests/bots/memory) */
                continue;
            }
            snprintf(desc, sizeof desc, "%s/%s runs or fails cleanly", dirs[d], names[i]);
            if (read_file(path) == 0) {
                run(replay, desc);
                free(cur);
                cur = NULL;
                files++;
            } else {
                tap_skip(desc, "cannot read the file");
            }
            free(names[i]);
        }
    }
    if (files == 0)
        printf("not ok 1 - no bot fuzz inputs found\n1..1\n");
    return files ? tap_done() : 1;
}
