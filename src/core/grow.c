#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

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
    *slot = p;
    *cap = c;
    return 0;
}
