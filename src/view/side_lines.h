/* side_lines.h — an arena watch's own lines ({"type":"arena",...}: its
 * live matches, ladder, switches) taken out of the stream as the bytes
 * arrive, before the recording's reader sees them: they are no
 * recording's, and they must be seen at once, not after the match
 * being shown was read to its end. */
#ifndef BOTFIELD_SIDE_LINES_H
#define BOTFIELD_SIDE_LINES_H

#include <stddef.h>

#define SIDE_LINE_MAX ((size_t)1 << 20)     /* a longer one is dropped */
#define SIDE_QUEUE 16                       /* kept; later ones push out the oldest */

struct side_lines {
    int state;                  /* at a line's start, in a side line, in another */
    char head[16];              /* a line's first bytes, not yet told apart */
    size_t nhead;
    char *cur;                  /* the side line so far */
    size_t ncur, capcur;
    int too_long;
    char *q[SIDE_QUEUE];        /* whole side lines, oldest first */
    size_t qlen[SIDE_QUEUE];
    int nq;
};

/* The bytes p[0..n): the others' put through put(ctx, bytes, len) in
 * order, the side lines queued.  0, or -1: put failed or memory ran out. */
int side_split(struct side_lines *s, const char *p, size_t n,
               int (*put)(void *ctx, const char *p, size_t n), void *ctx);
/* The oldest side line (malloc'd, NUL-ended, *len), NULL: none. */
char *side_pop(struct side_lines *s, size_t *len);
void side_free(struct side_lines *s);

#endif
