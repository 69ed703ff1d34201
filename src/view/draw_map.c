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
    /* Eight directions, clockwise from +x (y grows downwards). */
    static const uint32_t arrows[8] = {
        0x2192, 0x2198, 0x2193, 0x2199, 0x2190, 0x2196, 0x2191, 0x2197
    };
    static const char ascii[8] = { '>', '\\', 'v', '/', '<', '\\', '^', '/' };
    double o = fmod(heading / (M_PI / 4) + 0.5, 8.0);
    if (!(o >= 0))
        o += 8.0;
    int k = (int)o & 7;
    return a->ascii ? (uint32_t)ascii[k] : arrows[k];
}

int team_color(const struct app *a, int team)
{
    /* Cars have no team: they take colours in turn by their index. */
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

static int car_color(int i)
{
    static const int cols[6] = { COL_CYAN, COL_YELLOW, COL_MAGENTA, COL_GREEN,
                                 COL_WHITE, COL_RED };
    return cols[i % 6];
}

static void dot_line(struct app *a, vec2 p, vec2 q, int color, int attr,
                     enum line_style st)
{
    vec2 d0 = camera_dots(&a->cam, p), d1 = camera_dots(&a->cam, q);
    canvas_line(&a->cv, d0.x, d0.y, d1.x, d1.y, color, attr, st);
}

/* ---- the ground: trees, map edge, track (cached per camera) --------------- */

static void ground_tree(struct app *a, struct canvas *g, const struct tree *t)
{
    struct camera *c = &a->cam;
    uint32_t ch = a->ascii ? '#' : 0x2663;  /* ♣ */
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
                    canvas_put(g, x, y, ch, COL_GREEN, 0, LY_GROUND);
                    any = 1;
                }
    }
    if (!any) {
        int x, y;
        camera_cell(c, t->c, &x, &y);
        canvas_put(g, x, y, ch, COL_GREEN, 0, LY_GROUND);
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
    for (size_t i = 0; i < n; i++) {
        const struct waypoint *p = &w->track.p[i], *q = &w->track.p[(i + 1) % n];
        vec2 d0 = camera_dots(&a->cam, p->c), d1 = camera_dots(&a->cam, q->c);
        if (n > 1)
            canvas_line(g, d0.x, d0.y, d1.x, d1.y, COL_DEFAULT, CA_DIM, LS_DOTTED);
        canvas_arc(g, d0.x, d0.y, camera_dot_len(&a->cam, p->r), 0, 2 * M_PI,
                   COL_YELLOW, CA_DIM, LS_DOTTED);
    }
    /* Numbers last, so lines never cover them. */
    for (size_t i = 0; i < n; i++) {
        char num[24];
        int x, y;
        snprintf(num, sizeof num, "%zu", i);
        camera_cell(&a->cam, w->track.p[i].c, &x, &y);
        canvas_text(g, x - ((int)strlen(num) - 1) / 2, y, num, COL_YELLOW,
                    CA_BOLD, LY_TRACK);
    }
}

static void draw_ground(struct app *a)
{
    struct canvas *g = &a->ground;
    const struct camera *c = &a->cam;
    const struct camera *o = &a->ground_cam;
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
    canvas_line(g, p0.x, p0.y, p1.x, p0.y, COL_DEFAULT, CA_DIM, LS_DOTTED);
    canvas_line(g, p1.x, p0.y, p1.x, p1.y, COL_DEFAULT, CA_DIM, LS_DOTTED);
    canvas_line(g, p1.x, p1.y, p0.x, p1.y, COL_DEFAULT, CA_DIM, LS_DOTTED);
    canvas_line(g, p0.x, p1.y, p0.x, p0.y, COL_DEFAULT, CA_DIM, LS_DOTTED);
    ground_trees(a, g);
    ground_track(a, g);
    a->ground_cam = *c;
    a->ground_ok = 1;
}

/* ---- vehicles and shells -------------------------------------------------- */

static void gun_line(struct app *a, const struct vehicle *v, int color)
{
    /* At least past the vehicle's own cell, longer when zoomed in. */
    double len = fmax(5.0, camera_dot_len(&a->cam, v->p->radius * 1.4));
    vec2 d = camera_dots(&a->cam, v->pos);
    canvas_line(&a->cv, d.x, d.y, d.x + len * cos(v->turret),
                d.y + len * sin(v->turret), color, 0, LS_SLOPE);
}

static void hull(struct app *a, const struct vehicle *v, int color, int attr)
{
    /* Only once the hull spans a few cells is its outline worth dots. */
    if (camera_dot_len(&a->cam, v->p->length) < 8)
        return;
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
            dot_line(a, k[i], k[(i + 1) % 4], color, attr, LS_DOTTED);
    else {
        vec2 d = camera_dots(&a->cam, v->pos);
        canvas_arc(&a->cv, d.x, d.y, camera_dot_len(&a->cam, v->p->radius), 0,
                   2 * M_PI, color, attr, LS_DOTTED);
    }
}

static void draw_vehicle(struct app *a, int i)
{
    const struct vehicle *v = &a->world.vehicles.p[i];
    if (drive_hidden(a, i))
        return;
    int x, y;
    camera_cell(&a->cam, v->pos, &x, &y);
    int color = v->kind == VK_CAR ? car_color(i) : team_color(a, v->team);
    int attr = v->kind == VK_CAR ? CA_BOLD : team_attr(a, v->team);
    if (!v->alive) {
        canvas_put(&a->cv, x, y, a->ascii ? 'x' : 0x2716 /* ✖ */, color,
                   CA_DIM, LY_SHELL);
        return;
    }
    hull(a, v, color, 0);
    uint32_t ch;
    if (v->kind == VK_TURRET) {
        ch = 'T';
        gun_line(a, v, color);
    } else {
        ch = glyph_heading(a, v->heading);
        if (v->kind == VK_TANK)
            gun_line(a, v, color);
    }
    if (i == a->sel)
        attr |= CA_REVERSE;
    canvas_put(&a->cv, x, y, ch, color, attr, LY_VEHICLE);
}

static void draw_shells(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->shells.n; i++) {
        const struct shell *s = &w->shells.p[i];
        if (!s->alive)
            continue;
        dot_line(a, s->start, s->pos, COL_YELLOW, CA_DIM, LS_DOTTED);
        int x, y;
        camera_cell(&a->cam, s->pos, &x, &y);
        canvas_put(&a->cv, x, y, a->ascii ? '*' : 0x2022 /* • */, COL_YELLOW,
                   CA_BOLD, LY_SHELL);
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
    canvas_put(&a->cv, x - 1, y, '[', COL_DEFAULT, CA_BOLD, LY_MARK);
    canvas_put(&a->cv, x + 1, y, ']', COL_DEFAULT, CA_BOLD, LY_MARK);
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
    draw_selection(a);
}
