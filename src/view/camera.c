/* camera.c — world rectangle <-> map area of the screen. */
#include "config.h"

#include <math.h>

#include "camera.h"

/* Zooming stops where a cell would be smaller than this many world units
 * (nothing finer to see) or the whole map would shrink to a few cells. */
#define UPC_MIN 0.25

void camera_fit(struct camera *c, double ww, double wh)
{
    double a = ww / (c->w > 0 ? c->w : 1);
    double b = wh / (2.0 * (c->h > 0 ? c->h : 1));
    c->upc = a > b ? a : b;
    if (!(c->upc >= UPC_MIN))
        c->upc = UPC_MIN;
    c->cx = ww / 2;
    c->cy = wh / 2;
    c->fitted = 1;
}

void camera_resize(struct camera *c, int w, int h, double ww, double wh)
{
    c->w = w;
    c->h = h;
    if (c->fitted || !(c->upc > 0))
        camera_fit(c, ww, wh);
}

void camera_zoom(struct camera *c, double factor)
{
    double u = c->upc / factor;
    if (u < UPC_MIN)
        u = UPC_MIN;
    if (u > 1e7)
        u = 1e7;
    c->upc = u;
    c->fitted = 0;
}

void camera_pan(struct camera *c, double fx, double fy)
{
    c->cx += fx * c->w * c->upc;
    c->cy += fy * c->h * 2.0 * c->upc;
    c->fitted = 0;
}

void camera_center(struct camera *c, vec2 p)
{
    c->cx = p.x;
    c->cy = p.y;
}

vec2 camera_dots(const struct camera *c, vec2 p)
{
    double d = c->upc / 2.0;
    return v2((p.x - c->cx) / d + c->w, (p.y - c->cy) / d + 2.0 * c->h);
}

double camera_dot_len(const struct camera *c, double len)
{
    return len / (c->upc / 2.0);
}

void camera_cell(const struct camera *c, vec2 p, int *x, int *y)
{
    vec2 d = camera_dots(c, p);
    double fx = floor(d.x / 2.0), fy = floor(d.y / 4.0);
    /* Far off-screen points must not overflow an int. */
    *x = fx < -1e6 ? -1000000 : fx > 1e6 ? 1000000 : (int)fx;
    *y = fy < -1e6 ? -1000000 : fy > 1e6 ? 1000000 : (int)fy;
}

vec2 camera_world(const struct camera *c, int x, int y)
{
    return v2(c->cx + (x + 0.5 - c->w / 2.0) * c->upc,
              c->cy + (y + 0.5 - c->h / 2.0) * 2.0 * c->upc);
}
