/* map_screen.c — the main screen: the map, its overlays and panels; its
 * keys, which drive the run and the camera, are the key table's. */
#include "config.h"

#include "app.h"
#include "arena_view.h"
#include "compare.h"
#include "tui.h"
#include "tune_panel.h"

/* One world in the whole map area (--compare draws two: compare_draw.c). */
static void draw_world(struct app *a)
{
    const struct world *w = &a->world;
    if (a->follow && a->sel >= 0 && (size_t)a->sel < w->vehicles.n)
        camera_center(&a->cam, w->vehicles.p[a->sel].pos);
    draw_map(a);
    draw_overlays(a);
    draw_banner(a);
    canvas_flush(&a->cv, a->map_x, a->map_y, &a->style);
    draw_inspector(a);
}

void map_draw(struct app *a)
{
    if (!compare_draw(a))
        draw_world(a);
    draw_status(a);
    compare_draw_status(a);
    drive_draw(a);
    tune_draw(a);
    arena_view_draw_banner(a);
}

/* Every key of the map screen is a row of the key table (keys_table.c). */
int map_key(struct app *a, int ch)
{
    const struct view_key *k = view_key_find(ch);
    if (!k)
        return 0;
    k->act(a, ch);
    return 1;
}
