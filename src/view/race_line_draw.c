/* race_line_draw.c — the planned racing line of a car on steer = line, on
 * the `w` overlay: the line the core plans (from the world's own cache of
 * plans, so the viewer draws exactly what the car follows), each stretch
 * coloured by the speed planned there: red below half of max_speed, yellow
 * below 80%, green above. */
#include "config.h"

#include "app.h"
#include "palette.h"
#include "race_line_draw.h"
#include "../core/decide.h"
#include "../core/race/race_line.h"

/* Points skipped between drawn ones: a line refined to a few units a step
 * is finer than any terminal cell. */
#define DRAW_STRIDE 2

static int speed_color(double v, double max_speed)
{
    return v < 0.5 * max_speed ? COL_RED : v < 0.8 * max_speed ? COL_YELLOW : COL_GREEN;
}

void race_line_draw(struct app *a, const struct vehicle *v)
{
    const struct world *w = &a->world;
    int n;
    const struct waypoint *wp = world_route(w, v, &n);
    if (v->kind != VK_CAR || v->p->steer != STEER_LINE || !wp || n < 3 || !w->scratch.ctx)
        return;
    /* built on the car's first tick; before it, nothing to draw */
    const struct race_plan *pl = race_plans_get(&w->scratch.ctx->plans, w, wp, n, v->p, w->dt);
    if (!pl)
        return;
    /* the turning circles' pen, its colour the planned speed's (on a
     * terminal without colour the pen's own look stays) */
    struct pen pen;
    pal_pen(a, PAL_CIRCLE, 0, &pen);
    int coloured = pen.color != COL_DEFAULT;
    for (int i = 0; i < pl->m; i += DRAW_STRIDE) {
        int j = i + DRAW_STRIDE < pl->m ? i + DRAW_STRIDE : 0;
        vec2 d0 = camera_dots(&a->cam, pl->pt[i]), d1 = camera_dots(&a->cam, pl->pt[j]);
        if (coloured)
            pen.color = speed_color(pl->v[i], v->p->max_speed);
        canvas_line(&a->cv, d0.x, d0.y, d1.x, d1.y, &pen);
    }
}
