/* overlays.c — what each vehicle decided this tick, drawn from the records
 * the core kept (world.h): sight rays and view cones, the avoidance threat
 * and turn, aim points and shell paths, turning circles and next
 * waypoints, collision marks, and what the Lua bots drew (draw.*).  With a vehicle selected only its own
 * decisions are drawn, so a busy map stays readable. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "../core/explain.h"
#include "../bot/bot_world.h"
#include "race_line_draw.h"

static void line(struct app *a, vec2 p, vec2 q, const struct pen *pen)
{
    vec2 d0 = camera_dots(&a->cam, p), d1 = camera_dots(&a->cam, q);
    canvas_line(&a->cv, d0.x, d0.y, d1.x, d1.y, pen);
}

static void circle(struct app *a, vec2 c, double r, double a0, double a1,
                   const struct pen *pen)
{
    vec2 d = camera_dots(&a->cam, c);
    canvas_arc(&a->cv, d.x, d.y, camera_dot_len(&a->cam, r), a0, a1, pen);
}

/* A palette row's glyph at a world point. */
static void mark(struct app *a, vec2 p, enum pal_item it, int vcolor)
{
    int x, y;
    camera_cell(&a->cam, p, &x, &y);
    canvas_put(&a->cv, x, y, pal_glyph(a, it), pal_color(it, vcolor),
               pal_attr(a, it), LY_MARK);
}

static struct pen pen_of(const struct app *a, enum pal_item it, int vcolor)
{
    struct pen p;
    pal_pen(a, it, vcolor, &p);
    return p;
}

static int shown(const struct app *a, int i)
{
    return a->sel < 0 || a->sel == i;
}

static int finite2(vec2 p)
{
    return isfinite(p.x) && isfinite(p.y);
}

static enum pal_item ray_kind(const struct sight_record *r)
{
    return r->seen ? PAL_RAY_SEEN : r->visible > 0 ? PAL_RAY_PART : PAL_RAY_HIDDEN;
}

/* The observer's end of a ray: the eye glyph near it, in the ray's
 * colour and attributes, where the ray is long enough to leave room. */
static void ray_eye(struct app *a, vec2 from, vec2 to, enum pal_item kind, int top)
{
    vec2 d0 = camera_dots(&a->cam, from), d1 = camera_dots(&a->cam, to);
    double dx = d1.x - d0.x, dy = d1.y - d0.y;
    /* in cells: dots are half a cell wide and a quarter tall */
    double cells = fmax(fabs(dx) / 2, fabs(dy) / 4);
    if (!(cells >= 2))
        return;
    /* a cell and a half along; half way on a ray of two or three cells,
     * so the target's end stays bare */
    double t = fmin(1.5, cells / 2) / cells;
    int x = (int)floor((d0.x + t * dx) / 2), y = (int)floor((d0.y + t * dy) / 4);
    canvas_put(&a->cv, x, y, pal_glyph(a, PAL_EYE), pal_color(kind, 0),
               pal_attr(a, kind), top ? LY_LABEL : LY_MARK);
}

static int ray_drawable(const struct world *w, const struct sight_record *r)
{
    return r->observer >= 0 && r->target >= 0
        && (size_t)r->observer < w->vehicles.n && (size_t)r->target < w->vehicles.n;
}

/* Rays in passes, so the one that matters wins a cell two rays share:
 * hidden, then partly visible, then seen (a seen ray is never drawn over
 * by a hidden one), and those of the selected vehicle last of all.  With a
 * vehicle selected, the rays that reach it are shown under its own. */
static void rays(struct app *a)
{
    const struct world *w = &a->world;
    static const enum pal_item order[3] = { PAL_RAY_HIDDEN, PAL_RAY_PART, PAL_RAY_SEEN };
    for (int pass = 0; pass < 2; pass++)
        for (int o = 0; o < 3; o++)
            for (size_t k = 0; k < w->now.sights.n; k++) {
                const struct sight_record *r = &w->now.sights.p[k];
                if (!ray_drawable(w, r) || ray_kind(r) != order[o])
                    continue;
                int mine = a->sel >= 0 && r->observer == a->sel;
                int theirs = a->sel >= 0 && r->target == a->sel;
                if (pass == 0 ? mine || (a->sel >= 0 && !theirs) : !mine)
                    continue;
                vec2 p = w->vehicles.p[r->observer].pos, q = w->vehicles.p[r->target].pos;
                struct pen pen = pen_of(a, order[o], 0);
                line(a, p, q, &pen);
                ray_eye(a, p, q, order[o], mine);
            }
}

/* For the selected observer (the o key): the tree-grid cells its sight
 * walk visited, shaded, and the angular intervals the trees hide of each
 * target, as a wedge from the observer to the target's distance. */
static void sight_walk(struct app *a)
{
    const struct world *w = &a->world;
    const struct sight_store *st = &w->now.sight_store;
    double cell = w->tree_grid.cell;
    if (a->sel < 0)
        return;
    for (size_t k = 0; k < w->now.sights.n; k++) {
        const struct sight_record *r = &w->now.sights.p[k];
        if (r->observer != a->sel || !ray_drawable(w, r))
            continue;
        for (int s = 0; cell > 0 && s < r->n_spans; s++) {
            size_t si = (size_t)r->first_span + (size_t)s;
            if (r->first_span < 0 || si >= st->nspans)
                break;
            const struct sight_span *sp = &st->spans[si];
            int x0, y0, x1, y1;
            camera_cell(&a->cam, v2(sp->c0 * cell, sp->cy * cell), &x0, &y0);
            camera_cell(&a->cam, v2((sp->c1 + 1) * cell, (sp->cy + 1) * cell), &x1, &y1);
            /* a grid cell smaller than a screen cell still shows */
            if (x1 <= x0)
                x1 = x0 + 1;
            if (y1 <= y0)
                y1 = y0 + 1;
            for (int y = y0 < 0 ? 0 : y0; y < y1 && y < a->cv.h; y++)
                for (int x = x0 < 0 ? 0 : x0; x < x1 && x < a->cv.w; x++)
                    canvas_shade(&a->cv, x, y, pal_glyph(a, PAL_WALKED),
                                 pal_color(PAL_WALKED, 0), pal_attr(a, PAL_WALKED));
        }
        vec2 o = w->vehicles.p[r->observer].pos;
        double dist = v2_dist(o, w->vehicles.p[r->target].pos);
        struct pen pen = pen_of(a, PAL_SHADOW, 0);
        for (int h = 0; h < r->n_intervals; h++) {
            size_t hi = (size_t)r->first_interval + (size_t)h;
            if (r->first_interval < 0 || hi >= w->now.sight_intervals.n)
                break;
            const struct sight_interval *iv = &w->now.sight_intervals.p[hi];
            line(a, o, v2_add(o, v2_scale(v2_dir(iv->a0), dist)), &pen);
            line(a, o, v2_add(o, v2_scale(v2_dir(iv->a1), dist)), &pen);
            circle(a, o, dist, iv->a0, iv->a1, &pen);
        }
    }
}

static void cones(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive || v->kind == VK_CAR || !shown(a, (int)i))
            continue;
        double dir = vehicle_sensor_angle(v);
        double half = v->p->fov / 2, r = v->p->view_range;
        struct pen pen = pen_of(a, PAL_CONE, vehicle_color(a, (int)i));
        /* a radar's cone moves on its own: its centre line shows where */
        if (v->p->sensor == SENSOR_RADAR)
            line(a, v->pos, v2_add(v->pos, v2_scale(v2_dir(dir), r)), &pen);
        if (v->p->fov >= 2 * M_PI - 1e-9) {
            circle(a, v->pos, r, 0, 2 * M_PI, &pen);
            continue;
        }
        line(a, v->pos, v2_add(v->pos, v2_scale(v2_dir(dir - half), r)), &pen);
        line(a, v->pos, v2_add(v->pos, v2_scale(v2_dir(dir + half), r)), &pen);
        circle(a, v->pos, r, dir - half, dir + half, &pen);
    }
}

/* A short stroke from a vehicle at an absolute direction. */
static void stroke(struct app *a, const struct vehicle *v, double dir, double cells,
                   const struct pen *pen)
{
    double len = fmax(cells * 2, camera_dot_len(&a->cam, v->p->radius * 2));
    vec2 p = camera_dots(&a->cam, v->pos);
    canvas_line(&a->cv, p.x, p.y, p.x + len * cos(dir), p.y + len * sin(dir), pen);
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
        vec2 tp = w->vehicles.p[av->threat].pos;
        struct pen pen = pen_of(a, PAL_THREAT, 0);
        line(a, v->pos, tp, &pen);
        /* The threat itself: a '!' over it, beside its own glyph. */
        int x, y;
        camera_cell(&a->cam, tp, &x, &y);
        canvas_put(&a->cv, x, y - 1, '!', pal_color(PAL_HIT_POINT, 0),
                   pal_attr(a, PAL_HIT_POINT), LY_MARK);
        if (finite2(av->hit_point) && (av->hit_point.x != 0 || av->hit_point.y != 0)) {
            line(a, v->pos, av->hit_point, &pen);
            mark(a, av->hit_point, PAL_HIT_POINT, 0);
        }
        if (av->turn) {
            /* A stroke 60 degrees off the nose, on the turning side. */
            struct pen tp2 = pen_of(a, PAL_TURN, 0);
            tp2.ascii = av->turn > 0 ? ')' : '(';
            stroke(a, v, v->heading + av->turn * (M_PI / 3), 3, &tp2);
        }
    }
}

/* The predictive method's candidate turns (the p key): seven strokes,
 * hard left to hard right, fanned 10 degrees apart (a schematic: a tick's
 * turn is too small to see); the chosen one drawn as the turn, a short
 * stroke for a turn the search pruned without working out its cost.  On a
 * tick it re-planned, the decision record (world_explain) says which it
 * weighed and which won; between re-plans, the plan it holds
 * (avoid_info.plan_k). */
static void candidates(struct app *a)
{
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (!v->alive || v->kind != VK_TANK || !shown(a, (int)i)
            || v->p->avoid != AVOID_PREDICTIVE)
            continue;
        const struct explain *x = world_explain(w, (int)i);
        int planned = x && x->avoid.ran && x->avoid.planned_now;
        struct pen cand = pen_of(a, PAL_CANDIDATE, 0), pick = pen_of(a, PAL_TURN, 0);
        for (int k = -3; k <= 3; k++) {
            int chosen = planned ? 3 - x->avoid.chosen / EXPLAIN_SPEEDS == k
                                 : v->avoid.held && v->avoid.plan_k == k;
            int tried = !planned;
            for (int m = 0; planned && m < EXPLAIN_SPEEDS; m++)
                tried |= x->avoid.tried[(3 - k) * EXPLAIN_SPEEDS + m];
            stroke(a, v, v->heading + k * (M_PI / 18), chosen ? 5 : tried ? 4 : 2,
                   chosen ? &pick : &cand);
        }
    }
}

/* Where a shell ends: its predicted impact (the gun's solution when it
 * fired), else the end of its range. */
static void shell_ahead(struct app *a, const struct shell *s)
{
    const struct world *w = &a->world;
    struct pen pen = pen_of(a, PAL_SHELL_PATH, 0);
    double left = s->range - s->travelled;
    vec2 dir = v2_norm(s->vel);
    double to_impact = v2_dot(v2_sub(s->impact, s->pos), dir);
    int predicted = finite2(s->impact) && s->impact_time > 0
                 && to_impact >= 0 && to_impact <= left + 1e-9;
    if (!predicted) {
        if (left > 0)
            line(a, s->pos, v2_add(s->pos, v2_scale(dir, left)), &pen);
        return;
    }
    vec2 end = v2_add(s->pos, v2_scale(dir, to_impact));
    line(a, s->pos, end, &pen);
    mark(a, end, PAL_IMPACT, 0);
    double t = s->impact_time - (double)w->tick * w->dt;
    char buf[32];
    snprintf(buf, sizeof buf, "%.1fs", t > 0 ? t : 0.0);
    int x, y;
    camera_cell(&a->cam, end, &x, &y);
    canvas_text(&a->cv, x + 1, y, buf, pal_color(PAL_IMPACT, 0),
                pal_attr(a, PAL_IMPACT) & ~CA_UNDERLINE, LY_LABEL);
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
        int color = vehicle_color(a, (int)i);
        /* The gun's line to the next shot's predicted impact, and the
         * target's own way there: where both meet, the shell and the
         * target arrive together. */
        struct pen aim = pen_of(a, PAL_AIM_LINE, color), lead = pen_of(a, PAL_LEAD, 0);
        line(a, v->pos, ai->aim_point, &aim);
        int t = v->gun.target;
        if (t >= 0 && (size_t)t < w->vehicles.n)
            line(a, w->vehicles.p[t].pos, ai->aim_point, &lead);
        mark(a, ai->aim_point, PAL_AIM_POINT, color);
    }
    for (size_t k = 0; k < w->shells.n; k++) {
        const struct shell *s = &w->shells.p[k];
        if (s->alive && shown(a, s->shooter))
            shell_ahead(a, s);
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
        int color = vehicle_color(a, (int)i);
        race_line_draw(a, v);
        /* A patrol route is not on the ground layer: show its points. */
        if (v->kind != VK_CAR && !v->p->route_track) {
            struct pen wp = pen_of(a, PAL_WAYPOINT, 0), tr = pen_of(a, PAL_TRACK, 0);
            wp.color = tr.color = color;
            for (int k = 0; k < n; k++) {
                circle(a, route[k].c, route[k].r, 0, 2 * M_PI, &wp);
                line(a, route[k].c, route[(k + 1) % n].c, &tr);
            }
        }
        int next = world_race_state(w, v).next;
        if (next >= 0 && next < n) {
            struct pen nx = pen_of(a, PAL_NEXT_WP, color), tr = pen_of(a, PAL_TRACK, 0);
            tr.color = color;
            line(a, v->pos, route[next].c, &tr);
            circle(a, route[next].c, route[next].r, 0, 2 * M_PI, &nx);
        }
        const struct racer *rc = world_racer(w, v);
        const struct race_info *ri = rc ? &rc->info : NULL;
        if (ri && ri->circle_r > 0 && ri->circle_r < 1e6 && finite2(ri->circle_c)) {
            struct pen c = pen_of(a, ri->reason != BRAKE_NONE ? PAL_BRAKING : PAL_CIRCLE, 0);
            circle(a, ri->circle_c, ri->circle_r, 0, 2 * M_PI, &c);
        }
    }
}

static void collisions(struct app *a)
{
    for (int k = 0; k < a->nmarks; k++) {
        const struct mark *m = &a->marks[k];
        if (m->tick <= a->world.tick && a->world.tick - m->tick < MARK_TICKS)
            mark(a, m->p, PAL_COLLISION, 0);
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
            struct pen pen = { color, 0, 0xff, 0 };
            if (!finite2(p))
                continue;
            switch (sh->kind) {
            case BOT_LINE:
                if (finite2(q))
                    line(a, p, q, &pen);
                break;
            case BOT_CIRCLE:
                if (isfinite(sh->x2) && sh->x2 > 0)
                    circle(a, p, sh->x2, 0, 2 * M_PI, &pen);
                break;
            case BOT_TEXT: {
                int x, y;
                camera_cell(&a->cam, p, &x, &y);
                canvas_text(&a->cv, x, y, sh->text, color, CA_BOLD, LY_MARK);
                break;
            }
            case BOT_MARK: {
                int x, y;
                camera_cell(&a->cam, p, &x, &y);
                canvas_put(&a->cv, x, y, a->ascii ? '*' : 0x25c6 /* ◆ */, color,
                           CA_BOLD, LY_MARK);
                break;
            }
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
    if (a->overlays & OV_WALK)
        sight_walk(a);
    if (a->overlays & OV_TRAJ)
        trajectories(a);
    if (a->overlays & OV_CANDS)
        candidates(a);
    if (a->overlays & OV_AVOID)
        avoidance(a);
    /* Rays over the aim lines: a ray is what says whether the gun could
     * see, and an aim line along it must not make it look hidden. */
    if (a->overlays & OV_RAYS)
        rays(a);
    if (a->overlays & OV_COLL)
        collisions(a);
    if (a->overlays & OV_BOTS)
        bot_drawings(a);
}
