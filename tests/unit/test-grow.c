/* test-grow.c — the core's growable arrays (src/core/grow.c): capacity
 * doubles from 16 and keeps what was written; a size past SIZE_MAX fails
 * and leaves the array as it was; and a large array stays one mapping of
 * its own as it grows (the huge-page advice covers all of it), so glibc's
 * realloc moves it with mremap instead of copying it into a new one while
 * the old is still resident: the 100,000-tank battle's peak was its
 * 128 MiB of sight records held twice (issue 39). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/grow.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

TEST(doubles_and_keeps)
{
    int *a = NULL;
    size_t cap = 0;
    check_int(grow_reserve(&a, &cap, 1, sizeof *a), ==, 0);
    check_int(cap, ==, 16);
    for (size_t n = 0; n < 100000; n++) {
        if (grow_reserve(&a, &cap, n + 1, sizeof *a))
            break;
        a[n] = (int)(n * 7 + 1);
    }
    check_int(cap, ==, 131072);         /* 16 doubled 13 times */
    int same = 1;
    for (size_t n = 0; n < 100000; n++)
        same &= a[n] == (int)(n * 7 + 1);
    check(same);
    check_int(grow_reserve(&a, &cap, 10, sizeof *a), ==, 0);   /* room already */
    check_int(cap, ==, 131072);
    free(a);
}

TEST(overflow_leaves_it)
{
    char *a = NULL;
    size_t cap = 0;
    check_int(grow_reserve(&a, &cap, 100, 1), ==, 0);
    char *was = a;
    check_int(grow_reserve(&a, &cap, SIZE_MAX / 2 + 2, 1), ==, -1);
    check_int(grow_reserve(&a, &cap, SIZE_MAX / 8, 64), ==, -1);
    check(a == was);
    check_int(cap, ==, 128);
    free(a);
}

#ifdef __linux__
/* The mapping of /proc/self/maps that holds address p: [lo, hi); 0 when
 * found. */
static int mapping_of(uintptr_t p, uintptr_t *lo, uintptr_t *hi)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[512];
    int rc = -1;
    while (rc && fgets(line, sizeof line, f)) {
        unsigned long a, b;
        if (sscanf(line, "%lx-%lx", &a, &b) == 2 && a <= p && p < b) {
            *lo = a;
            *hi = b;
            rc = 0;
        }
    }
    fclose(f);
    return rc;
}

/* A line of /proc/self/status in kB ("VmRSS", "VmHWM"); -1 if absent. */
static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    size_t k = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, k) && line[k] == ':')
            v = strtol(line + k + 1, NULL, 10);
    fclose(f);
    return v;
}

/* Grown from nothing to 64 MiB, written whole at each size: after every
 * growth past 4 MiB (where huge pages are asked for) the array lies in one
 * mapping; the last doubling, to 128 MiB with 64 MiB written, does not
 * raise the peak by a copy of what was written. */
TEST(large_stays_one_mapping)
{
    unsigned char *a = NULL;
    size_t cap = 0, filled = 0;
    int whole = 1, grown = 0;
    for (size_t need = 1 << 20; need <= (size_t)64 << 20; need *= 2) {
        if (grow_reserve(&a, &cap, need, 1)) {
            check(!"the array could grow");
            free(a);
            return;
        }
        memset(a + filled, 0x5a, need - filled);
        filled = need;
        if (cap >= (size_t)4 << 20) {
            uintptr_t lo, hi, p = (uintptr_t)a;
            int found = mapping_of(p, &lo, &hi) == 0;
            if (!found || hi < p + cap) {
                tap_note("%zu bytes at %#lx: its mapping %#lx-%#lx", cap, (unsigned long)p,
                         (unsigned long)(found ? lo : 0), (unsigned long)(found ? hi : 0));
                whole = 0;
            }
            grown++;
        }
    }
    check_int(grown, ==, 5);            /* 4, 8, 16, 32 and 64 MiB */
    check(whole);
#if defined(__GLIBC__) && !defined(UNDER_SANITIZER)
    /* (a sanitizer's realloc always copies: its allocator is not glibc's) */
    long rss = status_kb("VmRSS");
    check_int(grow_reserve(&a, &cap, filled + 1, 1), ==, 0);
    a[filled] = 1;
    long hwm = status_kb("VmHWM");
    check_num(rss, >, 60 << 10);         /* the 64 MiB written are resident */
    /* a copy would add the 64 MiB written; the slice populated ahead is
     * 8 MiB, a huge page 2 */
    check_num(hwm - rss, <, 24 << 10);
    tap_note("peak %ld kB over %ld kB resident before the last doubling", hwm - rss, rss);
#endif
    free(a);
}
#endif

int main(void)
{
    run(doubles_and_keeps, "capacity doubles from 16 and keeps what was written");
    run(overflow_leaves_it, "a size past SIZE_MAX fails and leaves the array as it was");
#ifdef __linux__
    run(large_stays_one_mapping,
        "a large array stays one mapping as it grows, and doubling it copies nothing");
#else
    tap_skip("a large array stays one mapping as it grows",
             "reads Linux's /proc/self/maps and status");
#endif
    return tap_done();
}
