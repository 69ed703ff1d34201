/* canvas_string.c — a canvas as text: the cells canvas_flush() would give
 * curses, written as UTF-8 (or ASCII) lines instead. */
#include "config.h"

#include <stdlib.h>

#include "canvas_string.h"

static size_t put_utf8(char *s, uint32_t c)
{
    if (c < 0x80) {
        s[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        s[0] = (char)(0xc0 | c >> 6);
        s[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        s[0] = (char)(0xe0 | c >> 12);
        s[1] = (char)(0x80 | (c >> 6 & 0x3f));
        s[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    s[0] = (char)(0xf0 | (c >> 18 & 0x07));
    s[1] = (char)(0x80 | (c >> 12 & 0x3f));
    s[2] = (char)(0x80 | (c >> 6 & 0x3f));
    s[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

char *canvas_string(const struct canvas *cv)
{
    /* At most four bytes a cell and a newline a row. */
    char *s = malloc((size_t)cv->w * (size_t)cv->h * 4 + (size_t)cv->h + 1);
    if (!s)
        return NULL;
    size_t n = 0;
    for (int y = 0; y < cv->h; y++) {
        size_t keep = n;
        for (int x = 0; x < cv->w; x++) {
            const struct cell *c = &cv->c[(size_t)y * (size_t)cv->w + (size_t)x];
            uint32_t ch = c->ch ? c->ch : c->dots && cv->braille ? 0x2800u + c->dots : ' ';
            if (!cv->braille && (ch > 126 || ch < 32))
                ch = '?';
            n += put_utf8(s + n, ch);
            if (ch != ' ')
                keep = n;
        }
        n = keep;
        s[n++] = '\n';
    }
    s[n] = 0;
    return s;
}
