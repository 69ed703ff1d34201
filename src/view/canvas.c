/* canvas.c — the off-screen cell grid, braille dots, and the copy to curses. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "canvas.h"
#include "tui.h"
#include "../io/utf8.h"

int canvas_resize(struct canvas *cv, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    if (w == cv->w && h == cv->h && cv->c)
        return 0;
    struct cell *c = calloc((size_t)w * (size_t)h, sizeof *c);
    if (!c)
        return -1;
    free(cv->c);
    cv->c = c;
    cv->w = w;
    cv->h = h;
    return 0;
}

void canvas_free(struct canvas *cv)
{
    free(cv->c);
    cv->c = NULL;
    cv->w = cv->h = 0;
}

void canvas_clear(struct canvas *cv)
{
    memset(cv->c, 0, (size_t)cv->w * (size_t)cv->h * sizeof *cv->c);
}

static struct cell *at(struct canvas *cv, int x, int y)
{
    if (x < 0 || y < 0 || x >= cv->w || y >= cv->h)
        return NULL;
    return &cv->c[(size_t)y * (size_t)cv->w + (size_t)x];
}

void canvas_put(struct canvas *cv, int x, int y, uint32_t ch, int color,
                int attr, enum layer layer)
{
    struct cell *c = at(cv, x, y);
    if (!c || c->layer > layer)
        return;
    c->ch = ch;
    c->color = (uint8_t)color;
    c->attr = (uint8_t)attr;
    c->layer = (uint8_t)layer;
}

/* Decodes one UTF-8 sequence; bytes that are not one (malformed, overlong,
 * a surrogate: the test every stranger's text gets, io/utf8.h) come out
 * as '?' so a bad map name cannot desynchronise the cells. */
static uint32_t utf8_next(const char **sp)
{
    const unsigned char *s = (const unsigned char *)*sp;
    int n = utf8_len(s);
    if (n == 0) {
        *sp += 1;
        return '?';
    }
    uint32_t c = n == 1 ? s[0] : s[0] & (0x7fu >> n);
    for (int i = 1; i < n; i++)
        c = c << 6 | (s[i] & 0x3fu);
    *sp += n;
    return c;
}

/* Cells a character takes on the terminal: 1, 2 (wide, CJK), 0 (a
 * combining mark, drawn in the cell before it), or -1 for one that must
 * not reach it at all: the C0 and C1 controls and DEL (curses would echo
 * them as "^[", two cells for one, or send them as they are) and what the
 * locale cannot print. */
static int cell_width(uint32_t c, int utf8)
{
    if (c < 32 || (c >= 127 && c < 160))
        return -1;
    if (!utf8)
        return c > 126 ? -1 : 1;
#if TUI_WIDE
    int w = wcwidth((wchar_t)c);
    return w < 0 ? -1 : w > 2 ? 2 : w;
#else
    return 1;
#endif
}

void canvas_text(struct canvas *cv, int x, int y, const char *s, int color,
                 int attr, enum layer layer)
{
    /* A cell holds one narrow character: a wide one is '?', a combining
     * mark is left out (the grid stays one glyph a cell, whatever a bot
     * writes).  A control stays as it is: the screen shows it as '?'
     * (put_glyph), --chart as \xHH (chart.c). */
    while (*s) {
        uint32_t c = utf8_next(&s);
        int w = cell_width(c, 1);
        if (w == 0)
            continue;
        canvas_put(cv, x++, y, w == 2 ? '?' : c, color, attr, layer);
    }
}

/* Braille dot bits by (column, row) inside a cell: dots 1-2-3-7 down the
 * left column, 4-5-6-8 down the right (Unicode's U+2800 block order). */
static const uint8_t braille_bit[2][4] = {
    { 0x01, 0x02, 0x04, 0x40 },
    { 0x08, 0x10, 0x20, 0x80 },
};

static uint32_t slope_glyph(double sx, double sy)
{
    /* The dots are square, so this is the angle the eye sees. */
    double a = fabs(atan2(sy, sx)) * (180.0 / M_PI);
    if (a > 90)
        a = 180 - a;
    if (a < 25)
        return '-';
    if (a > 65)
        return '|';
    return (sx > 0) == (sy > 0) ? '\\' : '/';
}

void canvas_dot(struct canvas *cv, double dx, double dy, const struct pen *p,
                double slope_dx, double slope_dy)
{
    if (!(dx >= 0 && dy >= 0 && dx < cv->w * 2.0 && dy < cv->h * 4.0))
        return;
    int ix = (int)dx, iy = (int)dy;
    struct cell *c = at(cv, ix >> 1, iy >> 2);
    if (!c)
        return;
    if (cv->braille) {
        c->dots |= braille_bit[ix & 1][iy & 3];
        c->dot_color = (uint8_t)p->color;
        c->dot_attr = (uint8_t)p->attr;
        return;
    }
    uint32_t g = p->ascii ? (uint32_t)(unsigned char)p->ascii
                          : slope_glyph(slope_dx, slope_dy);
    /* A line never hides a glyph: only blanks, shading and other lines
     * give way. */
    if (c->layer <= LY_SHADE || c->layer == LY_LINE) {
        c->ch = g;
        c->color = (uint8_t)p->color;
        c->attr = (uint8_t)p->attr;
        c->layer = LY_LINE;
    }
}

void canvas_shade(struct canvas *cv, int x, int y, uint32_t ch, int color,
                  int attr)
{
    struct cell *c = at(cv, x, y);
    if (c && c->layer == LY_NONE && !c->ch)
        canvas_put(cv, x, y, ch, color, attr, LY_SHADE);
}

/* Liang-Barsky: clips the segment to [0, xmax) x [0, ymax); 0 when nothing
 * is left.  Keeps long rays cheap when zoomed far in. */
static int clip(double *x0, double *y0, double *x1, double *y1,
                double xmax, double ymax)
{
    double t0 = 0, t1 = 1, dx = *x1 - *x0, dy = *y1 - *y0;
    double p[4] = { -dx, dx, -dy, dy };
    double q[4] = { *x0, xmax - *x0, *y0, ymax - *y0 };
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        double r = q[i] / p[i];
        if (p[i] < 0) {
            if (r > t1)
                return 0;
            if (r > t0)
                t0 = r;
        } else {
            if (r < t0)
                return 0;
            if (r < t1)
                t1 = r;
        }
    }
    double ox = *x0, oy = *y0;
    *x0 = ox + t0 * dx;
    *y0 = oy + t0 * dy;
    *x1 = ox + t1 * dx;
    *y1 = oy + t1 * dy;
    return 1;
}

/* Whether step i of a line is plotted: braille dashes; an ASCII line is
 * whole (its glyph tells it apart). */
static int dash_on(const struct canvas *cv, const struct pen *p, int i)
{
    return !cv->braille || (p->dash >> (i & 7) & 1);
}

/* The dash pattern's step at a distance of d dots (d >= 0), taken in
 * doubles: a bot's shape may start 1e15 dots off the screen, past any
 * int (the cast was undefined there); the pattern repeats every 8. */
static int dash_phase(double d)
{
    return (int)fmod(floor(d), 8.0);
}

void canvas_line(struct canvas *cv, double x0, double y0, double x1,
                 double y1, const struct pen *p)
{
    if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)))
        return;
    double sx = x1 - x0, sy = y1 - y0, ox = x0, oy = y0;
    if (!clip(&x0, &y0, &x1, &y1, cv->w * 2.0 - 1e-9, cv->h * 4.0 - 1e-9))
        return;
    double dx = x1 - x0, dy = y1 - y0;
    double len = fmax(fabs(dx), fabs(dy));
    int n = (int)ceil(len);
    if (n < 1)
        n = 1;
    /* The dash phase counts from the line's own start, so a clipped or
     * panned line keeps its pattern where it is. */
    int first = dash_phase(fmax(fabs(x0 - ox), fabs(y0 - oy)));
    for (int i = 0; i <= n; i++) {
        if (!dash_on(cv, p, first + i))
            continue;
        double t = (double)i / n;
        canvas_dot(cv, x0 + t * dx, y0 + t * dy, p, sx, sy);
    }
}

void canvas_arc(struct canvas *cv, double cx, double cy, double r, double a0,
                double a1, const struct pen *p)
{
    if (!(isfinite(cx) && isfinite(cy) && isfinite(r)) || r <= 0)
        return;
    /* Nothing to do when the circle's box misses the canvas. */
    if (cx + r < 0 || cy + r < 0 || cx - r > cv->w * 2.0 || cy - r > cv->h * 4.0)
        return;
    double span = a1 - a0;
    double steps = ceil(fabs(span) * r / 0.7);
    if (steps < 8)
        steps = 8;
    if (steps > 20000)
        steps = 20000;
    int n = (int)steps;
    /* Steps are under a dot apart: the dash counts whole dots of arc. */
    double step_len = fabs(span) * r / n;
    for (int i = 0; i <= n; i++) {
        if (!dash_on(cv, p, dash_phase(i * step_len)))
            continue;
        double a = a0 + span * i / n;
        double c = cos(a), s = sin(a);
        /* tangent direction, for the ASCII glyph */
        canvas_dot(cv, cx + r * c, cy + r * s, p, -s, c);
    }
}

/* ---- the copy to curses -------------------------------------------------- */

static attr_t curses_attr(int attr, int color, const struct canvas_style *st)
{
    attr_t a = A_NORMAL;
    if (st->color && color > 0 && color < 32 && (st->no_bold >> color & 1u))
        attr &= ~CA_BOLD;
    if (attr & CA_BOLD)
        a |= A_BOLD;
    if (attr & CA_DIM)
        a |= A_DIM;
    if (attr & CA_REVERSE)
        a |= A_REVERSE;
    if (attr & CA_UNDERLINE)
        a |= A_UNDERLINE;
    return a;
}

/* Sets the cell at (y, x) to ch followed by up to nmark combining marks.
 * Anything but a printable character one cell wide becomes '?': nothing
 * can make curses echo two cells for one or send a control. */
static void put_glyph(int y, int x, uint32_t ch, const uint32_t *marks,
                      int nmark, int color, int attr,
                      const struct canvas_style *st)
{
    attr_t a = curses_attr(attr, color, st);
    short pair = (short)(st->color ? color : 0);
    if (cell_width(ch, st->utf8) != 1)
        ch = '?', nmark = 0;
#if TUI_WIDE
    if (st->utf8) {
        cchar_t cc;
        wchar_t wc[CCHARW_MAX + 1];
        int n = 0;
        wc[n++] = (wchar_t)ch;
        for (int i = 0; i < nmark && n < CCHARW_MAX; i++)
            wc[n++] = (wchar_t)marks[i];
        wc[n] = 0;
        setcchar(&cc, wc, a, pair, NULL);
        mvadd_wch(y, x, &cc);
        return;
    }
#endif
    (void)marks;
    mvaddch(y, x, (chtype)ch | a | COLOR_PAIR(pair));
}

static void put_cell(int y, int x, uint32_t ch, int color, int attr,
                     const struct canvas_style *st)
{
    put_glyph(y, x, ch, NULL, 0, color, attr, st);
}

void canvas_flush(const struct canvas *cv, int x0, int y0,
                  const struct canvas_style *st)
{
    for (int y = 0; y < cv->h; y++)
        for (int x = 0; x < cv->w; x++) {
            const struct cell *c = &cv->c[(size_t)y * (size_t)cv->w + (size_t)x];
            /* Shading gives way to the dots of a line across it. */
            if (c->ch && !(c->layer == LY_SHADE && c->dots && cv->braille))
                put_cell(y0 + y, x0 + x, c->ch, c->color, c->attr, st);
            else if (c->dots && cv->braille)
                put_cell(y0 + y, x0 + x, 0x2800u + c->dots, c->dot_color,
                         c->dot_attr, st);
            else
                put_cell(y0 + y, x0 + x, ' ', 0, 0, st);
        }
}

int tui_text(int y, int x, const char *s, int maxw, int color, int attr,
              const struct canvas_style *st)
{
    const char *p = s;
    int n = 0;
    while (*p && n < maxw) {
        uint32_t c = utf8_next(&p);
        int w = cell_width(c, st->utf8);
        if (w == 0)             /* a mark with nothing before it */
            continue;
        if (w < 0)
            c = '?', w = 1;
        /* A wide character that would cross the edge is left out, as
         * the terminal would wrap it onto the next row. */
        if (n + w > maxw)
            break;
        /* The marks that follow go into this character's cell. */
        uint32_t marks[8];
        int nmark = 0;
        const char *q = p;
        while (*q) {
            const char *r = q;
            uint32_t m = utf8_next(&r);
            if (cell_width(m, st->utf8) != 0)
                break;
            if (nmark < 8)
                marks[nmark++] = m;
            q = r;
        }
        p = q;
        if (w == 2) {
#if TUI_WIDE
            cchar_t cc;
            wchar_t wc[2] = { (wchar_t)c, 0 };
            setcchar(&cc, wc, curses_attr(attr, color, st), (short)(st->color ? color : 0), NULL);
            mvadd_wch(y, x + n, &cc);
#endif
        } else {
            put_glyph(y, x + n, c, marks, nmark, color, attr, st);
        }
        n += w;
    }
    return n;
}

size_t tui_text_fit(const char *s, int maxw, size_t maxb, const struct canvas_style *st)
{
    /* tui_text's walk, counting instead of drawing. */
    const char *p = s;
    int n = 0;
    while (*p && n < maxw) {
        const char *q = p;
        uint32_t c = utf8_next(&q);
        int w = cell_width(c, st->utf8);
        if (w < 0)
            w = 1;
        if (w > 0 && n + w > maxw)
            break;
        while (w > 0 && *q) {       /* the marks that share its cell */
            const char *r = q;
            if (cell_width(utf8_next(&r), st->utf8) != 0)
                break;
            q = r;
        }
        if ((size_t)(q - s) > maxb)
            break;
        p = q;
        n += w;
    }
    return (size_t)(p - s);
}
