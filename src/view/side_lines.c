/* side_lines.c — an arena watch's own lines out of the stream
 * (side_lines.h).  A line is told apart by its first 15 bytes: the
 * daemon writes "type" first, as every recording line has it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "side_lines.h"

enum { AT_START, IN_SIDE, IN_OTHER };

static const char tag[] = "{\"type\":\"arena\"";
#define TAG_LEN (sizeof tag - 1)

static int queue(struct side_lines *s)
{
    char *c = malloc(s->ncur + 1);
    if (!c)
        return -1;
    memcpy(c, s->cur, s->ncur);
    c[s->ncur] = 0;
    if (s->nq == SIDE_QUEUE) {
        free(s->q[0]);
        memmove(s->q, s->q + 1, (SIDE_QUEUE - 1) * sizeof *s->q);
        memmove(s->qlen, s->qlen + 1, (SIDE_QUEUE - 1) * sizeof *s->qlen);
        s->nq--;
    }
    s->q[s->nq] = c;
    s->qlen[s->nq++] = s->ncur;
    return 0;
}

static int side_add(struct side_lines *s, const char *p, size_t n)
{
    if (s->too_long || s->ncur + n > SIDE_LINE_MAX) {
        s->too_long = 1;
        return 0;
    }
    if (s->ncur + n > s->capcur) {
        size_t cap = s->capcur ? s->capcur : 256;
        while (cap < s->ncur + n)
            cap *= 2;
        char *c = realloc(s->cur, cap);
        if (!c)
            return -1;
        s->cur = c;
        s->capcur = cap;
    }
    memcpy(s->cur + s->ncur, p, n);
    s->ncur += n;
    return 0;
}

int side_split(struct side_lines *s, const char *p, size_t n,
               int (*put)(void *ctx, const char *p, size_t n), void *ctx)
{
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(p + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - p) + 1 : n;   /* this line's bytes here */
        if (s->state == AT_START) {
            size_t take = end - i < TAG_LEN - s->nhead ? end - i : TAG_LEN - s->nhead;
            memcpy(s->head + s->nhead, p + i, take);
            s->nhead += take;
            i += take;
            int whole = s->nhead > 0 && s->head[s->nhead - 1] == '\n';
            if (s->nhead < TAG_LEN && !whole)
                continue;                               /* more bytes to tell */
            int side = s->nhead == TAG_LEN && !memcmp(s->head, tag, TAG_LEN);
            s->state = side ? IN_SIDE : IN_OTHER;
            s->ncur = 0;
            s->too_long = 0;
            if (side ? side_add(s, s->head, s->nhead) : put(ctx, s->head, s->nhead))
                return -1;
            s->nhead = 0;
            if (whole)
                s->state = AT_START;
            continue;
        }
        if (s->state == IN_OTHER ? put(ctx, p + i, end - i)
                                 : side_add(s, p + i, nl ? end - i - 1 : end - i))
            return -1;
        i = end;
        if (nl) {
            if (s->state == IN_SIDE && !s->too_long && queue(s))
                return -1;
            s->state = AT_START;
        }
    }
    return 0;
}

char *side_pop(struct side_lines *s, size_t *len)
{
    if (!s || s->nq == 0)
        return NULL;
    char *c = s->q[0];
    *len = s->qlen[0];
    memmove(s->q, s->q + 1, (size_t)(s->nq - 1) * sizeof *s->q);
    memmove(s->qlen, s->qlen + 1, (size_t)(s->nq - 1) * sizeof *s->qlen);
    s->nq--;
    return c;
}

void side_free(struct side_lines *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nq; i++)
        free(s->q[i]);
    free(s->cur);
    free(s);
}
