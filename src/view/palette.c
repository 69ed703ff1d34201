/* palette.c — the one table of how things look (palette.h).
 *
 * The rules it keeps, mode by mode:
 *  - colour: team colours are the map's; everything the viewer adds avoids
 *    relying on them alone (a team may be any colour);
 *  - no colour (NO_COLOR, TERM=vt100): seen rays bold and solid, hidden
 *    ones dim and sparse, partly visible ones dashed; gun lines are glyphs
 *    (box drawing or '='), never dots, so no ray is mistaken for a gun;
 *  - ASCII: every line kind has a glyph of its own (only seen rays follow
 *    the slope), so '.' is the map edge and nothing else. */
#include "config.h"

#include "app.h"
#include "palette.h"
#include "tui.h"

/* glyph 1: a gun line, one box-drawing glyph a cell chosen by the slope. */
const struct pal_entry palette[PAL_COUNT] = {
    [PAL_TREE]       = { COL_GREEN, 0, 0, 0xff, 0x2663, '#', "tree" },
    [PAL_BORDER]     = { COL_DEFAULT, CA_DIM, CA_DIM, 0x55, 0, '.', "edge of the map" },
    [PAL_TRACK]      = { COL_DEFAULT, CA_DIM, CA_DIM, 0x33, 0, ',', "track between waypoints" },
    [PAL_WAYPOINT]   = { COL_YELLOW, CA_DIM, CA_DIM, 0xff, 0, 'o', "waypoint circle" },
    [PAL_WAYNUM]     = { COL_YELLOW, CA_BOLD, CA_BOLD, 0, '0', '0', "waypoint number" },
    [PAL_RAY_SEEN]   = { COL_CYAN, CA_BOLD, CA_BOLD, 0xff, 0, 0, "ray: the target is seen" },
    [PAL_RAY_PART]   = { COL_YELLOW, 0, 0, 0x77, 0, ';', "ray: partly visible, under the threshold" },
    [PAL_RAY_HIDDEN] = { COL_DEFAULT, CA_DIM, CA_DIM, 0x55, 0, ':', "ray: the target is hidden" },
    [PAL_EYE]        = { COL_CYAN, CA_BOLD, CA_BOLD, 0, 0x25c9, '@', "observer's end of a ray" },
    [PAL_GUN]        = { PAL_TEAM, CA_BOLD, 0, 0, 1, '=', "gun barrel" },
    [PAL_AIM_LINE]   = { PAL_TEAM, 0, CA_DIM, 0x33, 0, '\'', "gun to its aim point" },
    [PAL_LEAD]       = { COL_WHITE, CA_DIM, CA_DIM, 0x11, 0, '"', "target's way to the aim point" },
    [PAL_AIM_POINT]  = { PAL_TEAM, CA_BOLD, CA_BOLD, 0, 0x2295, '+', "aim point of the next shot" },
    [PAL_SHELL]      = { COL_YELLOW, CA_BOLD, CA_BOLD, 0, 0x2022, '*', "shell in flight" },
    [PAL_SHELL_PATH] = { COL_YELLOW, CA_DIM, CA_DIM, 0x55, 0, '~', "shell path, to its end" },
    [PAL_IMPACT]     = { COL_YELLOW, CA_BOLD, CA_BOLD | CA_UNDERLINE, 0, 0x2297, 'X', "shell's predicted impact (and when)" },
    [PAL_CONE]       = { PAL_TEAM, CA_DIM, CA_DIM, 0x11, 0, '`', "view cone" },
    [PAL_THREAT]     = { COL_MAGENTA, 0, 0, 0x33, 0, '$', "line to the avoidance threat" },
    [PAL_HIT_POINT]  = { COL_MAGENTA, CA_BOLD, CA_BOLD, 0, 0x2715, 'x', "threat: closest approach, and the threat (!)" },
    [PAL_TURN]       = { COL_MAGENTA, CA_BOLD, CA_BOLD, 0xff, 0, ')', "avoidance: the chosen turn" },
    [PAL_CANDIDATE]  = { COL_MAGENTA, CA_DIM, CA_DIM, 0x55, 0, '{', "avoidance: the turns it weighed" },
    [PAL_NEXT_WP]    = { PAL_TEAM, CA_BOLD, CA_BOLD, 0xff, 0, 'O', "next waypoint" },
    [PAL_CIRCLE]     = { COL_GREEN, 0, 0, 0x77, 0, 'c', "turning circle" },
    [PAL_BRAKING]    = { COL_RED, CA_BOLD, CA_BOLD, 0xff, 0, 'C', "turning circle while braking" },
    [PAL_COLLISION]  = { COL_RED, CA_BOLD, CA_BOLD, 0, 0x2739, '&', "collision" },
    [PAL_WRECK]      = { PAL_TEAM, CA_BOLD, CA_DIM, 0, 0x2716, '%', "wreck" },
    [PAL_WALKED]     = { COL_DEFAULT, CA_DIM, CA_DIM, 0, 0x00b7, '_', "cells the sight walk visited" },
    [PAL_SHADOW]     = { COL_RED, 0, 0, 0x0f, 0, '}', "what the trees hide of the target" },
    [PAL_LABEL]      = { PAL_TEAM, 0, CA_UNDERLINE, 0, 0, 0, "vehicle id" },
    [PAL_SCALE]      = { COL_DEFAULT, 0, 0, 0, 0, 0, "scale: map units a bar spans" },
};

/* The terminal colour of a COL_*: on the terminal's own background, black
 * or white, so no plain ANSI blue (unreadable on black) and no plain
 * yellow or cyan (faint on white).  With 256 colours, mid tones that read
 * on both (gold, teal, a light blue); with 16, the bright blue and
 * magenta (bright yellow and cyan would be fainter on white still). */
short pal_term_color(int col, int ncolors)
{
    static const short c8[COL_COUNT] = {
        [COL_RED] = COLOR_RED, [COL_BLUE] = COLOR_BLUE, [COL_GREEN] = COLOR_GREEN,
        [COL_YELLOW] = COLOR_YELLOW, [COL_MAGENTA] = COLOR_MAGENTA,
        [COL_CYAN] = COLOR_CYAN, [COL_WHITE] = COLOR_WHITE,
    };
    static const short c256[COL_COUNT] = {
        [COL_RED] = 196, [COL_BLUE] = 33, [COL_GREEN] = 34, [COL_YELLOW] = 178,
        [COL_MAGENTA] = 170, [COL_CYAN] = 37, [COL_WHITE] = 250,
    };
    if (col <= 0 || col >= COL_COUNT)
        return -1;
    if (ncolors >= 256)
        return c256[col];
    if (ncolors >= 16 && (col == COL_BLUE || col == COL_MAGENTA))
        return (short)(c8[col] + 8);
    return c8[col];
}

/* With 8 or 16 colours most terminals (xterm, the Linux console, PuTTY)
 * show bold as the bright colour, and bright yellow and cyan are all but
 * invisible on white: those two stay plain there (plain yellow and cyan
 * read on black too).  The 256-colour gold and teal keep their bold. */
unsigned pal_no_bold(int ncolors)
{
    return ncolors >= 256 ? 0 : 1u << COL_YELLOW | 1u << COL_CYAN;
}

int pal_color(enum pal_item it, int vcolor)
{
    return palette[it].color == PAL_TEAM ? vcolor : palette[it].color;
}

int pal_attr(const struct app *a, enum pal_item it)
{
    return a->style.color ? palette[it].attr : palette[it].mono;
}

uint32_t pal_glyph(const struct app *a, enum pal_item it)
{
    return a->ascii ? (uint32_t)(unsigned char)palette[it].ascii : palette[it].glyph;
}

void pal_pen(const struct app *a, enum pal_item it, int vcolor, struct pen *p)
{
    p->color = pal_color(it, vcolor);
    p->attr = pal_attr(a, it);
    p->dash = palette[it].dash;
    p->ascii = palette[it].ascii;
}

int pal_sample(const struct app *a, enum pal_item it, uint32_t *sample, int max)
{
    const struct pal_entry *e = &palette[it];
    int n = 0;
    if (max < 4)
        return 0;
    if (e->dash && !e->glyph) {
        /* A line: four cells of it, as a level line draws them. */
        for (int k = 0; k < 4; k++) {
            if (a->ascii) {
                sample[n++] = e->ascii ? (uint32_t)(unsigned char)e->ascii : '-';
                continue;
            }
            /* Dots 2 and 5 (the second row) for steps 2k and 2k + 1. */
            unsigned m = 0;
            if (e->dash >> ((2 * k) & 7) & 1)
                m |= 0x02;
            if (e->dash >> ((2 * k + 1) & 7) & 1)
                m |= 0x10;
            sample[n++] = 0x2800u + m;
        }
        return n;
    }
    if (e->glyph == 1 && !a->ascii) {
        sample[n++] = 0x2500;
        sample[n++] = 0x2571;
        return n;
    }
    uint32_t g = pal_glyph(a, it);
    if (g)
        sample[n++] = g;
    return n;
}
