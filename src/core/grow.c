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
/* At most this much of a grown array's unused room is populated ahead:
 * a doubled 100,000-tank array's whole headroom, made present, nearly
 * doubled the peak resident set (issue 39).  The rest comes on first
 * touch, in huge pages where the kernel has them. */
#define GROW_HEADROOM_MAX ((size_t)8 << 20)

/* The pages of [p + from, p + from + n) made present with one call
 * instead of one page fault each, where Linux can (5.14's
 * MADV_POPULATE_WRITE; elsewhere, or when it says no, the pages come on
 * first touch as before).  A fault is the costly part of a large fresh
 * array: on the 2-core development VM about 13 us a page touched, 1.2 us
 * a page populated (32 MiB: 110 ms against 10 ms), and a battle's first
 * tick grows ~25 MiB of sight records and events.  p is the array,
 * `size` bytes in all.  Contents are untouched: only when, not what. */
static void grow_populate(char *p, size_t size, size_t from, size_t n)
{
#if defined(__linux__) && defined(MADV_WILLNEED)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
    /* asked each time, not cached in a static: lanes on several threads
     * grow their lists at once, and this runs only for big arrays */
    long ps = sysconf(_SC_PAGESIZE);
    size_t page = ps > 0 ? (size_t)ps : 4096;
#ifdef MADV_HUGEPAGE
    /* The whole array, its first and last pages too, not just the part
     * grown: a flag on part of a mapping splits it in two, and mremap
     * moves only a whole one, so the next realloc would copy the array
     * into a new one, the old still resident meanwhile (the 100,000-tank
     * battle's peak, 389 MB, was its 128 MiB of sight records copied;
     * issue 39).  A large malloc'd array is a mapping of its own, from
     * the page holding its start to the page holding its end; a smaller
     * one lies in the heap, whose pages it shares: harmless, as the flag
     * only lets the kernel use huge pages. */
    if (size >= GROW_HUGE_MIN) {
        uintptr_t a0 = (uintptr_t)p / page * page;
        uintptr_t a1 = ((uintptr_t)p + size + page - 1) / page * page;
        (void)madvise((void *)a0, a1 - a0, MADV_HUGEPAGE);
    }
#endif
    uintptr_t lo = ((uintptr_t)p + from + page - 1) / page * page;
    uintptr_t hi = ((uintptr_t)p + from + n) / page * page;
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)size;
    (void)from;
    (void)n;
#endif
}

/* Bytes to populate from the old capacity `cap` on, in an array grown to
 * `c` elements for `need`: what is needed now plus at most
 * GROW_HEADROOM_MAX of the headroom. */
static size_t grow_ahead(size_t cap, size_t need, size_t c, size_t elem)
{
    size_t used = (need - cap) * elem, room = (c - cap) * elem;
    size_t extra = room - used;
    return used + (extra < GROW_HEADROOM_MAX ? extra : GROW_HEADROOM_MAX);
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
    /* the new room up to `need` and a bounded slice past it: a list grown
     * one item at a time (a one-thread tick's records) fills the slice
     * within the tick, and populating only up to `need` would leave it a
     * fault a page again; the rest of the doubling waits for first touch. */
    if (c * elem >= GROW_POPULATE_MIN)
        grow_populate(p, c * elem, *cap * elem, grow_ahead(*cap, need, c, elem));
    *slot = p;
    *cap = c;
    return 0;
}
