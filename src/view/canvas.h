/* canvas.h — an off-screen grid of character cells that the drawing code
 * paints in layers before anything reaches curses.
 *
 * A cell holds a glyph (with colour and attributes) and, for UTF-8
 * terminals, a 2x4 braille dot mask: lines, rays and circles are plotted in
 * dot coordinates (eight dots a cell) and only become a braille character
 * where no glyph covers the cell.  A glyph is painted only over a glyph of
 * the same or a lower layer, so the order of the drawing calls matters less
 * than the layer each thing belongs to.  canvas_flush() copies the grid
 * into a curses window region; curses then sends only what changed. */
#ifndef BOTFIELD_CANVAS_H
#define BOTFIELD_CANVAS_H

#include <stdint.h>

/* Colours: 0 is the terminal's default; 1..7 follow world_colors[]. */
enum { COL_DEFAULT, COL_RED, COL_BLUE, COL_GREEN, COL_YELLOW, COL_MAGENTA,
       COL_CYAN, COL_WHITE, COL_COUNT };

/* Attributes, mapped onto curses ones at flush time. */
enum { CA_BOLD = 1, CA_DIM = 2, CA_REVERSE = 4, CA_UNDERLINE = 8 };

/* Layers, lowest first.  LY_SHADE is a background glyph that braille
 * dots show through; LY_GUN is the gun's glyphs, over every line; labels
 * (waypoint numbers, ids) sit over lines and marks, under vehicles. */
enum layer { LY_NONE, LY_SHADE, LY_GROUND, LY_TRACK, LY_LINE, LY_GUN,
             LY_SHELL, LY_MARK, LY_LABEL, LY_VEHICLE, LY_SELECTED, LY_TOP };

struct cell {
    uint32_t ch;            /* Unicode code point; 0: no glyph */
    uint8_t color, attr, layer;
    uint8_t dots;           /* braille mask, bit n = dot n+1 */
    uint8_t dot_color, dot_attr;
};

struct canvas {
    int w, h;               /* in cells */
    struct cell *c;
    int braille;            /* plot dots; else lines become ASCII glyphs */
};

/* (Re)sizes the grid; 0 or -1 when memory ran out. */
int canvas_resize(struct canvas *cv, int w, int h);
void canvas_free(struct canvas *cv);
void canvas_clear(struct canvas *cv);

/* A glyph at a cell, if its layer is at least the one already there. */
void canvas_put(struct canvas *cv, int x, int y, uint32_t ch, int color,
                int attr, enum layer layer);
/* A string of glyphs from (x, y) to the right (ASCII or UTF-8 text). */
void canvas_text(struct canvas *cv, int x, int y, const char *s, int color,
                 int attr, enum layer layer);

/* How a line is drawn: in braille, step i of the line (one dot apart) is
 * plotted when bit (i % 8) of dash is set; on an ASCII canvas each cell
 * gets the glyph `ascii`, or with 0 one of - | / \ by the slope.  The
 * palette (palette.h) makes these. */
struct pen {
    int color, attr;
    unsigned char dash;
    char ascii;
};

/* Plot in dot coordinates: a cell is 2 dots wide and 4 tall. */
void canvas_dot(struct canvas *cv, double dx, double dy, const struct pen *p,
                double slope_dx, double slope_dy);
void canvas_line(struct canvas *cv, double x0, double y0, double x1,
                 double y1, const struct pen *p);
/* An arc of a circle in dot coordinates (dots are square), angles in
 * radians clockwise from +x; a0 == a1 - 2pi draws the whole circle. */
void canvas_arc(struct canvas *cv, double cx, double cy, double r, double a0,
                double a1, const struct pen *p);
/* A background glyph in a cell that holds nothing yet (LY_SHADE). */
void canvas_shade(struct canvas *cv, int x, int y, uint32_t ch, int color,
                  int attr);

/* Copies the grid to the curses screen at (x0, y0).  no_bold: the colours
 * (bit n for colour n) drawn without bold (palette.h's pal_no_bold()). */
struct canvas_style { int color; int utf8; unsigned no_bold; };
void canvas_flush(const struct canvas *cv, int x0, int y0,
                  const struct canvas_style *st);

/* Sets a string at (x, y) of the curses screen with colour and attributes,
 * clipped to maxw cells: the panels use it too. */
int tui_text(int y, int x, const char *s, int maxw, int color, int attr,
              const struct canvas_style *st);
/* How many bytes of s tui_text would draw in maxw cells, kept within maxb
 * bytes: a character and its marks are never split.  To wrap a text. */
size_t tui_text_fit(const char *s, int maxw, size_t maxb, const struct canvas_style *st);

#endif
