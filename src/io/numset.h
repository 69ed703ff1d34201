/* numset.h — a set of whole numbers with how often each was added, so
 * that a duplicate [waypoint.N] is found without comparing every pair of
 * sections. */
#ifndef BOTFIELD_NUMSET_H
#define BOTFIELD_NUMSET_H

#include <stddef.h>

struct numset {
    long *n;
    int *count;                 /* 0: an empty slot */
    size_t cap, used;
};

/* Adds n: how many times it was there before, or -1 out of memory. */
int numset_add(struct numset *S, long n);
void numset_free(struct numset *S);

#endif
