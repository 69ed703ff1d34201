/* grow.h — the one growable-array helper of the core.
 *
 * grow_reserve(&p, &cap, need, elem) makes the array p of cap elements of
 * `elem` bytes hold at least `need`: capacity doubles from 16, so n pushes
 * cost O(n) copies; on failure (no memory, or a size that would overflow)
 * p and cap are left as they were and -1 comes back, else 0.  p is the
 * address of any object pointer (T **), passed as void *. */
#ifndef BOTFIELD_GROW_H
#define BOTFIELD_GROW_H

#include <stddef.h>

int grow_reserve_slow(void *pp, size_t *cap, size_t need, size_t elem);
/* Inline for the common case, an array already big enough: the tick
 * reserves its scratch every step. */
static inline int grow_reserve(void *pp, size_t *cap, size_t need, size_t elem)
{
    return need <= *cap ? 0 : grow_reserve_slow(pp, cap, need, elem);
}

#endif
