/* utf8.h — whether the bytes at a point are one valid UTF-8 character.
 *
 * One test for every place that takes a stranger's text (the trace's JSON
 * strings, messages quoting a map or a recording, a bot's errors, the
 * scripts a recording keeps), so they all agree on what is text.  Inline:
 * the bot library uses it without linking the io one. */
#ifndef BOTFIELD_UTF8_H
#define BOTFIELD_UTF8_H

/* The length of the valid UTF-8 sequence at p (1 to 4; 1 for the NUL
 * that ends a string), or 0 when the bytes there are not one: no
 * overlong forms, no surrogates, nothing past U+10FFFF (RFC 3629).  A
 * sequence cut short by the NUL is not one, and nothing past the NUL is
 * read. */
static inline int utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    int n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
          : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f)
        || (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
        return 0;
    return n;
}

#endif
