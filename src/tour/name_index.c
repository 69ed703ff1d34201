/* name_index.c — names (and pairs of names) to indices in a hash table, so
 * that the aggregate finds a group, a team or a CSV column in the same
 * time however many there are (tour_impl.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tour_impl.h"

/* 64-bit FNV-1a over name, a separator that tells a pair from a name,
 * then sub: names are short, the table needs only a fair spread. */
static size_t pair_hash(const char *name, const char *sub)
{
    uint64_t h = UINT64_C(14695981039346656037);
    const uint64_t prime = UINT64_C(1099511628211);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * prime;
    h = (h ^ (sub ? 0x100u : 0x200u)) * prime;
    for (const unsigned char *p = (const unsigned char *)sub; p && *p; p++)
        h = (h ^ *p) * prime;
    return (size_t)(h ^ (h >> 32));
}

static int same(const struct name_slot *e, const char *name, const char *sub)
{
    return strcmp(e->name, name) == 0 && (sub ? e->sub && strcmp(e->sub, sub) == 0 : !e->sub);
}

int name_find(const struct name_index *x, const char *name, const char *sub)
{
    if (!x->cap)
        return -1;
    size_t mask = x->cap - 1;
    for (size_t k = pair_hash(name, sub) & mask; x->slot[k].name; k = (k + 1) & mask)
        if (same(&x->slot[k], name, sub))
            return x->slot[k].index;
    return -1;
}

static void put(struct name_slot *slot, size_t cap, struct name_slot e)
{
    size_t k = pair_hash(e.name, e.sub) & (cap - 1);
    while (slot[k].name)
        k = (k + 1) & (cap - 1);
    slot[k] = e;
}

int name_add(struct name_index *x, const char *name, const char *sub, int index)
{
    /* At most half full, so that a search ends soon. */
    if (2 * (x->n + 1) > x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        struct name_slot *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t k = 0; k < x->cap; k++)
            if (x->slot[k].name)
                put(slot, cap, x->slot[k]);
        free(x->slot);
        x->slot = slot;
        x->cap = cap;
    }
    put(x->slot, x->cap, (struct name_slot){ name, sub, index });
    x->n++;
    return 0;
}

void name_index_free(struct name_index *x)
{
    free(x->slot);
    memset(x, 0, sizeof *x);
}
