/* numset.c — an open-addressing hash set of longs with counts. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "numset.h"

static size_t num_hash(long n)
{
    uint64_t x = (uint64_t)n * 0x9e3779b97f4a7c15u;
    return (size_t)(x ^ (x >> 29));
}

int numset_add(struct numset *S, long n)
{
    if (2 * (S->used + 1) > S->cap) {
        size_t cap = S->cap ? 2 * S->cap : 64;
        long *nn = malloc(cap * sizeof *nn);
        int *cc = calloc(cap, sizeof *cc);
        if (!nn || !cc) {
            free(nn);
            free(cc);
            return -1;
        }
        for (size_t i = 0; i < S->cap; i++)
            if (S->count[i]) {
                size_t k = num_hash(S->n[i]) & (cap - 1);
                while (cc[k])
                    k = (k + 1) & (cap - 1);
                nn[k] = S->n[i];
                cc[k] = S->count[i];
            }
        free(S->n);
        free(S->count);
        S->n = nn;
        S->count = cc;
        S->cap = cap;
    }
    size_t k = num_hash(n) & (S->cap - 1);
    while (S->count[k] && S->n[k] != n)
        k = (k + 1) & (S->cap - 1);
    if (S->count[k])
        return S->count[k]++;
    S->n[k] = n;
    S->count[k] = 1;
    S->used++;
    return 0;
}

void numset_free(struct numset *S)
{
    free(S->n);
    free(S->count);
    memset(S, 0, sizeof *S);
}
