/* camera.h — which world rectangle the map area of the screen shows.
 *
 * A character cell is about twice as tall as wide, so one cell covers
 * (upc, 2 upc) world units: upc is the world width of a cell.  Fit, zoom,
 * pan and follow change only the camera; the drawing code asks it where a
 * world point lands, in cells (to put glyphs) or in braille dots (2 x 4 a
 * cell, so a dot is upc/2 square). */
#ifndef BOTFIELD_CAMERA_H
#define BOTFIELD_CAMERA_H

#include "../core/vec.h"

struct camera {
    double cx, cy;          /* world point at the centre of the area */
    double upc;             /* world units per cell column */
    int w, h;               /* the map area, in cells */
    int fitted;             /* still the fit view: refit on resize */
};

/* Sets the area size; a fitted camera refits. */
void camera_resize(struct camera *c, int w, int h, double ww, double wh);
/* The whole map (ww x wh) in the area, centred, aspect kept. */
void camera_fit(struct camera *c, double ww, double wh);
/* Zooms by factor (> 1: closer) keeping the centre. */
void camera_zoom(struct camera *c, double factor);
/* Pans by a fraction of the area (dx, dy in area widths / heights). */
void camera_pan(struct camera *c, double fx, double fy);
void camera_center(struct camera *c, vec2 p);

/* World to cell (x right, y down) and to dot coordinates. */
void camera_cell(const struct camera *c, vec2 p, int *x, int *y);
vec2 camera_dots(const struct camera *c, vec2 p);
/* A world length in dots. */
double camera_dot_len(const struct camera *c, double len);
/* The world point at the centre of a cell. */
vec2 camera_world(const struct camera *c, int x, int y);

#endif
