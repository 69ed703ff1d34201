/* draw_map.c — the map into the canvas: ground and trees, the track and
 * its numbered waypoints, vehicles with their guns, wrecks, shells and
 * their paths, and the selection.  Nothing here computes a decision: it
 * only draws the world as it is. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

uint32_t glyph_heading(const struct app *a, double heading)
{
    /* Eight directions, clockwise from +x (y grows downwards).  ASCII has
     * no diagonal arrow that is not also a line ('/' and '\' would each
     * mean two headings): there the nearest of four. */
    static const uint32_t arrows[8] = {
        0x2192, 0x2198, 0x2193, 0x2199, 0x2190, 0x2196, 0x2191, 0x2197
    };
    static const char ascii[4] = { '>', 'v', '<', '^' };
    if (a->ascii) {
        double o = fmod(heading / (M_PI / 2) + 0.5, 4.0);
        if (!(o >= 0))
            o += 4.0;
        return (uint32_t)ascii[(int)o & 3];
    }
    double o = fmod(heading / (M_PI / 4) + 0.5, 8.0);
    if (!(o >= 0))
        o += 8.0;
    return arrows[(int)o & 7];
}

int team_color(const struct app *a, int team)
{
    if (team < 0 || (size_t)team >= a->world.teams.n)
        return COL_CYAN;
    return 1 + a->world.teams.p[team].color % WORLD_NCOLORS;
}

int team_attr(const struct app *a, int team)
{
    /* Without colour the teams still look different. */
    if (a->style.color)
        return CA_BOLD;
    static const int mono[4] = { CA_BOLD, CA_UNDERLINE, 0, CA_DIM };
    return mono[(team < 0 ? 0 : team) % 4];
}

const char *vehicle_name(const struct app *a, int i)
{
    if (i < 0 || (size_t)i >= a->world.vehicles.n)
        return "-";
    return a->world.vehicles.p[i].id;
}

/* A car's own colour ([car.ID] color), else colours in turn by its index;
 * a tank or turret its team's. */
int vehicle_color(const struct app *a, int i)
{
    static const int cols[6] = { COL_CYAN, COL_YELLOW, COL_MAGENTA, COL_GREEN,
                                 COL_WHITE, COL_RED };
    if (i < 0 || (size_t)i >= a->world.vehicles.n)
        return COL_DEFAULT;
    const struct vehicle *v = &a->world.vehicles.p[i];
    if (v->kind != VK_CAR)
        return team_color(a, v->team);
    if (v->p->color >= 0)
        return 1 + v->p->color % WORLD_NCOLORS;
    return cols[i % 6];
}

static void dot_line(struct app *a, vec2 p, vec2 q, const struct pen *pen)
{
    vec2 d0 = camera_dots(&a->cam, p), d1 = camera_dots(&a->cam, q);
    canvas_line(&a->cv, d0.x, d0.y, d1.x, d1.y, pen);
}

/* ---- the ground: trees, map edge, track (cached per camera) --------------- */

static void ground_tree(struct app *a, struct canvas *g, const struct tree *t)
{
    struct camera *c = &a->cam;
    uint32_t ch = pal_glyph(a, PAL_TREE);
    int color = pal_color(PAL_TREE, 0), attr = pal_attr(a, PAL_TREE);
    int x0, y0, x1, y1;
    camera_cell(c, v2(t->c.x - t->r, t->c.y - t->r), &x0, &y0);
    camera_cell(c, v2(t->c.x + t->r, t->c.y + t->r), &x1, &y1);
    if (x1 < 0 || y1 < 0 || x0 >= g->w || y0 >= g->h)
        return;
    int any = 0;
    if (x1 - x0 >= 2 || y1 - y0 >= 2) {
        /* Big enough to show its shape: every cell whose centre is inside. */
        for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < g->h; y++)
            for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < g->w; x++)
                if (v2_dist2(camera_world(c, x, y), t->c) <= t->r * t->r) {
                    canvas_put(g, x, y, ch, color, attr, LY_GROUND);
                    any = 1;
                }
    }
    if (!any) {
        int x, y;
        camera_cell(c, t->c, &x, &y);
        canvas_put(g, x, y, ch, color, attr, LY_GROUND);
    }
}

/* Only the trees near the view, through the tree grid, so a map of a
 * million trees costs what its visible part costs.  A tree is listed in
 * every grid cell it overlaps: it is drawn from the cell holding its
 * centre, and the cells looked at reach past the view by the largest
 * radius. */
static void ground_trees(struct app *a, struct canvas *g)
{
    const struct world *w = &a->world;
    const struct tree_grid *tg = &w->tree_grid;
    if (!tg->start || tg->nx <= 0 || tg->ny <= 0 || !(tg->cell > 0)) {
        for (size_t i = 0; i < w->trees.n; i++)
            ground_tree(a, g, &w->trees.p[i]);
        return;
    }
    vec2 lo = camera_world(&a->cam, -1, -1), hi = camera_world(&a->cam, g->w, g->h);
    double m = a->max_tree_r;
    int x0 = grid_cell_of(lo.x - m, tg->cell, tg->nx), x1 = grid_cell_of(hi.x + m, tg->cell, tg->nx);
    int y0 = grid_cell_of(lo.y - m, tg->cell, tg->ny), y1 = grid_cell_of(hi.y + m, tg->cell, tg->ny);
    for (int cy = y0; cy <= y1; cy++)
        for (int cx = x0; cx <= x1; cx++) {
            int c = cy * tg->nx + cx;
            for (int k = tg->start[c]; k < tg->start[c + 1]; k++) {
                const struct tree *t = &w->trees.p[tg->items[k]];
                if (grid_cell_of(t->c.x, tg->cell, tg->nx) == cx
                    && grid_cell_of(t->c.y, tg->cell, tg->ny) == cy)
                    ground_tree(a, g, t);
            }
        }
}

static void ground_track(struct app *a, struct canvas *g)
{
    const struct world *w = &a->world;
    size_t n = w->track.n;
    struct pen track, circ;
    pal_pen(a, PAL_TRACK, 0, &track);
    pal_pen(a, PAL_WAYPOINT, 0, &circ);
    for (size_t i = 0; i < n; i++) {
        const struct waypoint *p = &w->track.p[i], *q = &w->track.p[(i + 1) % n];
        vec2 d0 = camera_dots(&a->cam, p->c), d1 = camera_dots(&a->cam, q->c);
        if (n > 1)
            canvas_line(g, d0.x, d0.y, d1.x, d1.y, &track);
        canvas_arc(g, d0.x, d0.y, camera_dot_len(&a->cam, p->r), 0, 2 * M_PI, &circ);
    }
    /* Numbers last, on a layer over every line, so nothing covers them
     * in any mode. */
    for (size_t i = 0; i < n; i++) {
        char num[24];
        int x, y;
        snprintf(num, sizeof num, "%zu", i);
        camera_cell(&a->cam, w->track.p[i].c, &x, &y);
        canvas_text(g, x - ((int)strlen(num) - 1) / 2, y, num,
                    pal_color(PAL_WAYNUM, 0), pal_attr(a, PAL_WAYNUM), LY_LABEL);
    }
}

static void draw_ground(struct app *a)
{
    struct canvas *g = &a->ground;
    const struct camera *c = &a->cam;
    const struct camera *o = &a->ground_cam;
    /* A round of random trees (or a step back across one) changed them. */
    if (a->ground_trees != a->world.trees_version) {
        a->ground_trees = a->world.trees_version;
        a->ground_ok = 0;
        a->max_tree_r = 0;
        for (size_t i = 0; i < a->world.trees.n; i++)
            if (a->world.trees.p[i].r > a->max_tree_r)
                a->max_tree_r = a->world.trees.p[i].r;
    }
    if (a->ground_ok && g->w == a->cv.w && g->h == a->cv.h && o->cx == c->cx
        && o->cy == c->cy && o->upc == c->upc && o->w == c->w && o->h == c->h)
        return;
    if (canvas_resize(g, a->cv.w, a->cv.h)) {
        a->ground_ok = 0;
        return;
    }
    g->braille = a->cv.braille;
    canvas_clear(g);
    const struct world *w = &a->world;
    /* The map's edge: a dim frame, so a fitted map shows where it ends.
     * The far edges sit half a dot inside, on the map's last dots. */
    vec2 p0 = camera_dots(c, v2(0, 0)), p1 = camera_dots(c, v2(w->width, w->height));
    p1.x -= 0.5;
    p1.y -= 0.5;
    struct pen edge;
    pal_pen(a, PAL_BORDER, 0, &edge);
    canvas_line(g, p0.x, p0.y, p1.x, p0.y, &edge);
    canvas_line(g, p1.x, p0.y, p1.x, p1.y, &edge);
    canvas_line(g, p1.x, p1.y, p0.x, p1.y, &edge);
    canvas_line(g, p0.x, p1.y, p0.x, p0.y, &edge);
    ground_trees(a, g);
    ground_track(a, g);
    a->ground_cam = *c;
    a->ground_ok = 1;
}

/* ---- vehicles and shells -------------------------------------------------- */

/* The gun: glyphs (a box-drawing stroke by the slope, or '=') in the cells
 * the barrel crosses beyond the vehicle's own, over every line, so a gun
 * is never mistaken for a ray or a ray hidden under a gun line. */
static void gun_line(struct app *a, int i, const struct vehicle *v, int color)
{
    double len = fmax(5.0, camera_dot_len(&a->cam, v->p->radius * 1.4));
    vec2 d = camera_dots(&a->cam, v->pos);
    double c = cos(v->turret), s = sin(v->turret);
    uint32_t g = '=';
    if (!a->ascii) {
        /* dots are square: the angle the eye sees */
        double ang = fabs(atan2(s, c)) * (180.0 / M_PI);
        if (ang > 90)
            ang = 180 - ang;
        g = ang < 25 ? 0x2500 : ang > 65 ? 0x2502
          : (c > 0) == (s > 0) ? 0x2572 : 0x2571;
    }
    int x0 = (int)floor(d.x / 2), y0 = (int)floor(d.y / 4);
    int attr = pal_attr(a, PAL_GUN) | (i == a->sel ? CA_BOLD : 0);
    for (double t = 0; t <= len; t += 0.5) {
        int x = (int)floor((d.x + t * c) / 2), y = (int)floor((d.y + t * s) / 4);
        if (x != x0 || y != y0)
            canvas_put(&a->cv, x, y, g, color, attr, i == a->sel ? LY_SELECTED : LY_GUN);
    }
}

static void hull(struct app *a, const struct vehicle *v, int color)
{
    /* Only once the hull spans a few cells is its outline worth dots (and
     * in ASCII the vehicle's glyph says enough). */
    if (a->ascii || camera_dot_len(&a->cam, v->p->length) < 8)
        return;
    struct pen pen = { color, 0, 0xff, 0 };
    vec2 f = v2_dir(v->heading), s = v2_perp(f), k[4];
    double l = v->p->length / 2, wd = v->p->width / 2;
    if (v->kind != VK_TANK)
        l = wd = v->p->radius;
    k[0] = v2_add(v->pos, v2_add(v2_scale(f, l), v2_scale(s, wd)));
    k[1] = v2_add(v->pos, v2_add(v2_scale(f, l), v2_scale(s, -wd)));
    k[2] = v2_add(v->pos, v2_add(v2_scale(f, -l), v2_scale(s, -wd)));
    k[3] = v2_add(v->pos, v2_add(v2_scale(f, -l), v2_scale(s, wd)));
    if (v->kind == VK_TANK)
        for (int i = 0; i < 4; i++)
            dot_line(a, k[i], k[(i + 1) % 4], &pen);
    else {
        vec2 d = camera_dots(&a->cam, v->pos);
        canvas_arc(&a->cv, d.x, d.y, camera_dot_len(&a->cam, v->p->radius), 0,
                   2 * M_PI, &pen);
    }
}

static void draw_vehicle(struct app *a, int i)
{
    const struct vehicle *v = &a->world.vehicles.p[i];
    if (drive_hidden(a, i))
        return;
    int x, y;
    camera_cell(&a->cam, v->pos, &x, &y);
    int color = vehicle_color(a, i);
    int attr = v->kind == VK_CAR ? CA_BOLD : team_attr(a, v->team);
    if (!v->alive) {
        canvas_put(&a->cv, x, y, pal_glyph(a, PAL_WRECK), color,
                   pal_attr(a, PAL_WRECK), LY_SHELL);
        return;
    }
    hull(a, v, color);
    uint32_t ch;
    if (v->kind == VK_TURRET) {
        ch = 'T';
        gun_line(a, i, v, color);
    } else {
        ch = glyph_heading(a, v->heading);
        if (v->kind == VK_TANK)
            gun_line(a, i, v, color);
    }
    /* The selected one over everything, wrecks and labels included. */
    if (i == a->sel)
        attr |= CA_REVERSE;
    canvas_put(&a->cv, x, y, ch, color, attr, i == a->sel ? LY_SELECTED : LY_VEHICLE);
}

static void draw_shells(struct app *a)
{
    const struct world *w = &a->world;
    struct pen path;
    pal_pen(a, PAL_SHELL_PATH, 0, &path);
    for (size_t i = 0; i < w->shells.n; i++) {
        const struct shell *s = &w->shells.p[i];
        if (!s->alive)
            continue;
        dot_line(a, s->start, s->pos, &path);
        int x, y;
        camera_cell(&a->cam, s->pos, &x, &y);
        canvas_put(&a->cv, x, y, pal_glyph(a, PAL_SHELL), pal_color(PAL_SHELL, 0),
                   pal_attr(a, PAL_SHELL), LY_SHELL);
    }
}

static void draw_selection(struct app *a)
{
    if (a->sel < 0 || (size_t)a->sel >= a->world.vehicles.n)
        return;
    int x, y;
    camera_cell(&a->cam, a->world.vehicles.p[a->sel].pos, &x, &y);
    /* Brackets beside it: visible without colour and under any glyph of a
     * lower layer. */
    canvas_put(&a->cv, x - 1, y, '[', COL_DEFAULT, CA_BOLD, LY_TOP);
    canvas_put(&a->cv, x + 1, y, ']', COL_DEFAULT, CA_BOLD, LY_TOP);
}

/* Ids beside the vehicles (the n key), without the kind's prefix: the
 * glyph already says tank, turret or car. */
static void draw_labels(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        const char *id = v->id ? v->id : "?";
        const char *dot = strchr(id, '.');
        int x, y;
        camera_cell(&a->cam, v->pos, &x, &y);
        canvas_text(&a->cv, x + 2, y, dot && dot[1] ? dot + 1 : id,
                    pal_color(PAL_LABEL, vehicle_color(a, (int)i)),
                    pal_attr(a, PAL_LABEL) | (v->alive ? 0 : CA_DIM), LY_LABEL);
    }
}

/* Does the span of n cells from (x, y) hold a vehicle, its gun, a shell,
 * a mark or a label (what the scale bar must not cover)? */
static int span_busy(const struct canvas *cv, int x, int y, int n)
{
    for (int k = x - 1; k <= x + n; k++)
        if (k >= 0 && k < cv->w && cv->c[(size_t)y * (size_t)cv->w + (size_t)k].layer >= LY_GUN)
            return 1;
    return 0;
}

/* A scale bar in a corner of the map, the lower left when nothing is
 * there: a round number of map units and the cells it spans, so a zoom
 * is never mistaken for a change of distance.  It never covers a vehicle:
 * with the inspector open the map reaches the corners and a tank on the
 * bottom rows was hidden under it; then another corner, or none. */
static void draw_scale(struct app *a)
{
    double upc = a->cam.upc;
    if (!(upc > 0) || a->cv.w < 20 || a->cv.h < 4)
        return;
    /* The largest of 1, 2, 5 x 10^k that spans at most 10 cells. */
    double want = upc * 10, unit = pow(10, floor(log10(want)));
    double len = want >= 5 * unit ? 5 * unit : want >= 2 * unit ? 2 * unit : unit;
    int cells = (int)floor(len / upc + 0.5);
    if (cells < 2)
        cells = 2;
    char buf[64];
    int n = 0;
    buf[n++] = '|';
    for (int k = 0; k < cells - 2 && n < 20; k++)
        buf[n++] = '-';
    buf[n++] = '|';
    /* A blank after the number: drawn over the map (with the inspector
     * open, the map reaches the corner) a "3" of a label or a digit-like
     * glyph beside "200" read as "2003". */
    snprintf(buf + n, sizeof buf - (size_t)n, " %g ", len);
    int w = (int)strlen(buf), h = a->cv.h;
    const int at[4][2] = { { 1, h - 1 }, { a->cv.w - w - 1, h - 1 }, { 1, 0 },
                           { a->cv.w - w - 1, 0 } };
    for (int k = 0; k < 4; k++)
        if (!span_busy(&a->cv, at[k][0], at[k][1], w)) {
            canvas_text(&a->cv, at[k][0], at[k][1], buf, pal_color(PAL_SCALE, 0),
                        pal_attr(a, PAL_SCALE), LY_TOP);
            return;
        }
}

void draw_map(struct app *a)
{
    draw_ground(a);
    if (a->ground_ok && a->ground.w == a->cv.w && a->ground.h == a->cv.h)
        memcpy(a->cv.c, a->ground.c,
               (size_t)a->cv.w * (size_t)a->cv.h * sizeof *a->cv.c);
    else
        canvas_clear(&a->cv);
    draw_shells(a);
    /* Wrecks first, so a live vehicle on top of one is the one shown. */
    for (size_t i = 0; i < a->world.vehicles.n; i++)
        if (!a->world.vehicles.p[i].alive)
            draw_vehicle(a, (int)i);
    for (size_t i = 0; i < a->world.vehicles.n; i++)
        if (a->world.vehicles.p[i].alive)
            draw_vehicle(a, (int)i);
    if (a->overlays & OV_LABELS)
        draw_labels(a);
    draw_selection(a);
    draw_scale(a);
}
