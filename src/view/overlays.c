/* overlays.c — what each vehicle decided this tick, drawn from the records
 * the core kept (world.h): sight rays and view cones, the avoidance threat
 * and turn, aim points and shell paths, turning circles and next
 * waypoints, collision marks, and what the Lua bots drew (draw.*).  With a vehicle selected only its own
 * decisions are drawn, so a busy map stays readable. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "app.h"
#include "../bot/bot_world.h"
#include "race_line_draw.h"

static void line(struct app *a, vec2 p, vec2 q, int color, int attr,
                 enum line_style st)
{
    vec2 d0 = camera_dots(&a->cam, p), d1 = camera_dots(&a->cam, q);
    canvas_line(&a->cv, d0.x, d0.y, d1.x, d1.y, color, attr, st);
}

static void circle(struct app *a, vec2 c, double r, double a0, double a1,
                   int color, int attr)
{
    vec2 d = camera_dots(&a->cam, c);
    canvas_arc(&a->cv, d.x, d.y, camera_dot_len(&a->cam, r), a0, a1, color,
               attr, LS_DOTTED);
}

static void mark(struct app *a, vec2 p, uint32_t wide, char ascii, int color)
{
    int x, y;
    camera_cell(&a->cam, p, &x, &y);
    canvas_put(&a->cv, x, y, a->ascii ? (uint32_t)ascii : wide, color, CA_BOLD,
               LY_MARK);
}

static int shown(const struct app *a, int i)
{
    return a->sel < 0 || a->sel == i;
}

static int finite2(vec2 p)
{
    return isfinite(p.x) && isfinite(p.y);
}

static void rays(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t k = 0; k < w->sights.n; k++) {
        const struct sight_record *r = &w->sights.p[k];
        if (!shown(a, r->observer) || r->observer < 0 || r->target < 0
            || (size_t)r->observer >= w->vehicles.n
            || (size_t)r->target >= w->vehicles.n)
            continue;
        /* Green: seen; yellow: partly visible but under the threshold;
         * red: hidden. */
        int color = r->seen ? COL_GREEN : r->visible > 0 ? COL_YELLOW : COL_RED;
        line(a, w->vehicles.p[r->observer].pos, w->vehicles.p[r->target].pos,
             color, r->seen ? CA_BOLD : 0, r->seen ? LS_SLOPE : LS_DOTTED);
    }
}

static void cones(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive || v->kind == VK_CAR || !shown(a, (int)i))
            continue;
        double dir = v->kind == VK_TURRET ? v->p->facing : v->heading;
        double half = v->p->fov / 2, r = v->p->view_range;
        int color = team_color(a, v->team);
        if (v->p->fov >= 2 * M_PI - 1e-9) {
            circle(a, v->pos, r, 0, 2 * M_PI, color, CA_DIM);
            continue;
        }
        line(a, v->pos, v2_add(v->pos, v2_scale(v2_dir(dir - half), r)), color,
             CA_DIM, LS_DOTTED);
        line(a, v->pos, v2_add(v->pos, v2_scale(v2_dir(dir + half), r)), color,
             CA_DIM, LS_DOTTED);
        circle(a, v->pos, r, dir - half, dir + half, color, CA_DIM);
    }
}

static void avoidance(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        const struct avoid_info *av = &v->avoid;
        if (!v->alive || v->kind != VK_TANK || !shown(a, (int)i) || av->threat < 0
            || (size_t)av->threat >= w->vehicles.n)
            continue;
        line(a, v->pos, w->vehicles.p[av->threat].pos, COL_MAGENTA, 0, LS_DOTTED);
        if (finite2(av->hit_point) && (av->hit_point.x != 0 || av->hit_point.y != 0)) {
            line(a, v->pos, av->hit_point, COL_MAGENTA, CA_DIM, LS_DOTTED);
            mark(a, av->hit_point, 0x2715 /* ✕ */, 'x', COL_MAGENTA);
        }
        if (av->turn) {
            /* A short stroke 60 degrees off the nose, on the turning side. */
            double len = fmax(6.0, camera_dot_len(&a->cam, v->p->radius * 2));
            double d = v->heading + av->turn * (M_PI / 3);
            vec2 p = camera_dots(&a->cam, v->pos);
            canvas_line(&a->cv, p.x, p.y, p.x + len * cos(d), p.y + len * sin(d),
                        COL_MAGENTA, CA_BOLD, LS_SLOPE);
        }
    }
}

static void trajectories(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        const struct aim_info *ai = world_aim(w, v);
        if (!v->alive || v->kind == VK_CAR || !shown(a, (int)i) || !ai
            || !ai->ok || !finite2(ai->aim_point))
            continue;
        int color = team_color(a, v->team);
        /* The gun's line to the predicted impact, and the target's own way
         * there: where both meet the shell and the target arrive together. */
        line(a, v->pos, ai->aim_point, color, 0, LS_DOTTED);
        int t = v->gun.target;
        if (t >= 0 && (size_t)t < w->vehicles.n)
            line(a, w->vehicles.p[t].pos, ai->aim_point, COL_WHITE, CA_DIM,
                 LS_DOTTED);
        mark(a, ai->aim_point, 0x2295 /* ⊕ */, '+', color);
    }
    for (size_t k = 0; k < w->shells.n; k++) {
        const struct shell *s = &w->shells.p[k];
        if (!s->alive || !shown(a, s->shooter))
            continue;
        double left = s->range - s->travelled;
        if (!(left > 0))
            continue;
        vec2 end = v2_add(s->pos, v2_scale(v2_norm(s->vel), left));
        line(a, s->pos, end, COL_YELLOW, 0, LS_DOTTED);
    }
}

static void waypoints(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive || !shown(a, (int)i))
            continue;
        int n;
        const struct waypoint *route = world_route(w, v, &n);
        if (!route || n <= 0)
            continue;
        int color = v->kind == VK_CAR ? COL_CYAN : team_color(a, v->team);
        race_line_draw(a, v);
        /* A patrol route is not on the ground layer: show its points. */
        if (v->kind != VK_CAR && !v->p->route_track)
            for (int k = 0; k < n; k++) {
                circle(a, route[k].c, route[k].r, 0, 2 * M_PI, color, CA_DIM);
                line(a, route[k].c, route[(k + 1) % n].c, color, CA_DIM, LS_DOTTED);
            }
        int next = world_race_state(w, v).next;
        if (next >= 0 && next < n) {
            line(a, v->pos, route[next].c, color, 0, LS_DOTTED);
            circle(a, route[next].c, route[next].r, 0, 2 * M_PI, color, CA_BOLD);
        }
        const struct racer *rc = world_racer(w, v);
        const struct race_info *ri = rc ? &rc->info : NULL;
        if (ri && ri->circle_r > 0 && ri->circle_r < 1e6 && finite2(ri->circle_c))
            circle(a, ri->circle_c, ri->circle_r, 0, 2 * M_PI,
                   ri->reason != BRAKE_NONE ? COL_RED : COL_GREEN, 0);
    }
}

static void collisions(struct app *a)
{
    for (int k = 0; k < a->nmarks; k++) {
        const struct mark *m = &a->marks[k];
        if (m->tick <= a->world.tick && a->world.tick - m->tick < MARK_TICKS)
            mark(a, m->p, 0x2739 /* ✹ */, '!', COL_RED);
    }
}

/* A bot's colour name (draw.*'s last argument) as a canvas colour: the
 * map's colour names; anything else is the terminal's default. */
static int bot_color(const char *name)
{
    for (int k = 0; world_colors[k]; k++)
        if (!strcmp(name, world_colors[k]))
            return k + 1;
    return COL_DEFAULT;
}

/* Every bot's drawings of its last tick, in world coordinates.  A wreck's
 * bot no longer runs: its last drawings are stale and left out. */
static void bot_drawings(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct bot_report *r = bot_world_report(a->bots, (int)i);
        if (!r || !w->vehicles.p[i].alive || !shown(a, (int)i))
            continue;
        for (int k = 0; k < r->n_shapes && k < BOT_SHAPES_MAX; k++) {
            const struct bot_shape *sh = &r->shapes[k];
            int color = bot_color(sh->color);
            vec2 p = { sh->x1, sh->y1 }, q = { sh->x2, sh->y2 };
            if (!finite2(p))
                continue;
            switch (sh->kind) {
            case BOT_LINE:
                if (finite2(q))
                    line(a, p, q, color, 0, LS_SLOPE);
                break;
            case BOT_CIRCLE:
                if (isfinite(sh->x2) && sh->x2 > 0)
                    circle(a, p, sh->x2, 0, 2 * M_PI, color, 0);
                break;
            case BOT_TEXT: {
                int x, y;
                camera_cell(&a->cam, p, &x, &y);
                canvas_text(&a->cv, x, y, sh->text, color, CA_BOLD, LY_MARK);
                break;
            }
            case BOT_MARK:
                mark(a, p, 0x25c6 /* ◆ */, '*', color);
                break;
            }
        }
    }
}

void draw_overlays(struct app *a)
{
    if (a->overlays & OV_CONES)
        cones(a);
    if (a->overlays & OV_WAYP)
        waypoints(a);
    if (a->overlays & OV_RAYS)
        rays(a);
    if (a->overlays & OV_TRAJ)
        trajectories(a);
    if (a->overlays & OV_AVOID)
        avoidance(a);
    if (a->overlays & OV_COLL)
        collisions(a);
    if (a->overlays & OV_BOTS)
        bot_drawings(a);
}
