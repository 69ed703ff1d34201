/* palette.h — how each thing the viewer draws looks, in every mode.
 *
 * One table (palette.c) gives each kind of mark its colour, its attribute
 * with colour and without (NO_COLOR, a monochrome terminal), its glyph on
 * a UTF-8 terminal and on an ASCII one, and for lines the dash pattern of
 * their braille dots.  It was designed as a whole so that no two things a
 * reader must tell apart differ only by colour: seen and hidden rays, gun
 * lines, aim lines and shell paths differ in pattern and glyph as well,
 * and the `?` screen's legend is printed from the same rows. */
#ifndef BOTFIELD_PALETTE_H
#define BOTFIELD_PALETTE_H

#include <stdint.h>

enum pal_item {
    PAL_TREE, PAL_BORDER, PAL_TRACK, PAL_WAYPOINT, PAL_WAYNUM,
    PAL_RAY_SEEN, PAL_RAY_PART, PAL_RAY_HIDDEN, PAL_EYE,
    PAL_GUN, PAL_AIM_LINE, PAL_LEAD, PAL_AIM_POINT,
    PAL_SHELL, PAL_SHELL_PATH, PAL_IMPACT,
    PAL_CONE, PAL_THREAT, PAL_HIT_POINT, PAL_TURN, PAL_CANDIDATE,
    PAL_NEXT_WP, PAL_CIRCLE, PAL_BRAKING,
    PAL_COLLISION, PAL_WRECK, PAL_WALKED, PAL_SHADOW, PAL_LABEL, PAL_SCALE,
    PAL_COUNT
};

/* A colour of PAL_TEAM takes the vehicle's (its team's or car's) colour. */
#define PAL_TEAM 0xff

struct pal_entry {
    uint8_t color;          /* COL_*, or PAL_TEAM */
    uint8_t attr;           /* CA_* with colour */
    uint8_t mono;           /* CA_* without colour */
    uint8_t dash;           /* lines in braille: step i is plotted when bit
                               (i % 8) is set; 0xff solid */
    uint32_t glyph;         /* UTF-8 terminal; 0: a braille line */
    char ascii;             /* ASCII terminal; 0: - | / \ by the slope */
    const char *legend;     /* its line in the ? screen's legend */
};

extern const struct pal_entry palette[PAL_COUNT];

/* A row as this terminal draws it (colour or not, UTF-8 or ASCII);
 * vcolor is the vehicle's colour for the rows coloured PAL_TEAM. */
struct app;
struct pen;
void pal_pen(const struct app *a, enum pal_item it, int vcolor, struct pen *p);
int pal_color(enum pal_item it, int vcolor);
/* The terminal colour (curses number) of a COL_* on a terminal of ncolors
 * colours; -1 for COL_DEFAULT. */
short pal_term_color(int col, int ncolors);
/* The COL_*s (bit n for colour n) drawn without bold on a terminal of
 * ncolors colours (struct canvas_style's no_bold). */
unsigned pal_no_bold(int ncolors);
int pal_attr(const struct app *a, enum pal_item it);
uint32_t pal_glyph(const struct app *a, enum pal_item it);
/* The ? screen's legend: its rows, each a sample drawn as the map draws
 * it (written into sample, at most 8 cells) and the row's text. */
int pal_sample(const struct app *a, enum pal_item it, uint32_t *sample, int max);

#endif
