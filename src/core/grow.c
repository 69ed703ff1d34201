#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int grow_reserve(void *pp, size_t *cap, size_t need, size_t elem)
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
    void *old;
    memcpy(&old, pp, sizeof old);
    void *p = realloc(old, c * elem);
    if (!p)
        return -1;
    memcpy(pp, &p, sizeof p);
    *cap = c;
    return 0;
}
