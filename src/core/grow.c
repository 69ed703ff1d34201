#include <stdint.h>
#include <stdlib.h>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "grow.h"

/* Arrays this large are worth their pages made at once (grow_populate). */
#define GROW_POPULATE_MIN ((size_t)256 << 10)
/* And this large, asked for huge pages (MADV_HUGEPAGE; "madvise" is the
 * usual transparent_hugepage setting): even a populated page costs some
 * 5 us on its first touch from user space on the development VM, one
 * page at a time however many threads touch them (24 MiB: 33 ms), and a
 * 2 MiB page is one of those instead of 512 (24 MiB: 1.5 ms once the
 * kernel has huge pages to hand out, as it has again after a run freed
 * them).  Where there are none, the pages are small ones as before. */
#define GROW_HUGE_MIN ((size_t)4 << 20)

/* The pages of [p, p + n) made present with one call instead of one page
 * fault each, where Linux can (5.14's MADV_POPULATE_WRITE; elsewhere, or
 * when it says no, the pages come on first touch as before).  A fault is
 * the costly part of a large fresh array: on the 2-core development VM
 * about 13 us a page touched, 1.2 us a page populated (32 MiB: 110 ms
 * against 10 ms), and a battle's first tick grows ~25 MiB of sight
 * records and events.  Contents are untouched: only when, not what. */
static void grow_populate(char *p, size_t n)
{
#if defined(__linux__) && defined(MADV_WILLNEED)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
    /* asked each time, not cached in a static: lanes on several threads
     * grow their lists at once, and this runs only for big arrays */
    long ps = sysconf(_SC_PAGESIZE);
    size_t page = ps > 0 ? (size_t)ps : 4096;
    uintptr_t lo = ((uintptr_t)p + page - 1) / page * page;
    uintptr_t hi = ((uintptr_t)p + n) / page * page;
    if (hi <= lo)
        return;
#ifdef MADV_HUGEPAGE
    if (hi - lo >= GROW_HUGE_MIN)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
    (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)n;
#endif
}

int grow_reserve_slow(void *pp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return -1;
        c *= 2;
    }
    if (elem == 0 || c > SIZE_MAX / elem)
        return -1;
    /* pp is the address of an object pointer: all object pointers share
     * void *'s representation on every platform we build for. */
    void **slot = pp;
    void *p = realloc(*slot, c * elem);
    if (!p)
        return -1;
    /* the whole new room, the doubling's headroom too: a list grown one
     * item at a time (a one-thread tick's records) fills it within the
     * tick, and populating only up to `need` would leave it a fault a page
     * again.  The cost: at most the room realloc already gave, in use. */
    if (c * elem >= GROW_POPULATE_MIN)
        grow_populate((char *)p + *cap * elem, (c - *cap) * elem);
    *slot = p;
    *cap = c;
    return 0;
}
