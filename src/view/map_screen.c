/* map_screen.c — the main screen: the map, its overlays and panels, and
 * the keys that drive the run and the camera. */
#include "config.h"

#include <math.h>

#include "app.h"
#include "tui.h"

void map_draw(struct app *a)
{
    const struct world *w = &a->world;
    if (a->follow && a->sel >= 0 && (size_t)a->sel < w->vehicles.n)
        camera_center(&a->cam, w->vehicles.p[a->sel].pos);
    draw_map(a);
    draw_overlays(a);
    draw_banner(a);
    canvas_flush(&a->cv, a->map_x, a->map_y, &a->style);
    draw_inspector(a);
    draw_status(a);
}

static void toggle(struct app *a, int bit, const char *name)
{
    a->overlays ^= bit;
    app_message(a, 0, "%s %s", name, a->overlays & bit ? "on" : "off");
}

static void speed_change(struct app *a, int up)
{
    if (up) {
        if (a->speed_max)
            return;
        if (a->speed >= view_speeds[SPEED_MAX_IDX - 1])
            a->speed_max = 1;
        else
            for (int k = 0; k < SPEED_MAX_IDX; k++)
                if (view_speeds[k] > a->speed * (1 + 1e-9)) {
                    a->speed = view_speeds[k];
                    break;
                }
    } else if (a->speed_max)
        a->speed_max = 0;
    else
        for (int k = SPEED_MAX_IDX - 1; k >= 0; k--)
            if (view_speeds[k] < a->speed * (1 - 1e-9)) {
                a->speed = view_speeds[k];
                break;
            }
}

static void click(struct app *a)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
#ifdef BUTTON5_PRESSED
    /* The wheel zooms, where the terminal reports it. */
    if (ev.bstate & BUTTON4_PRESSED) {
        camera_zoom(&a->cam, 1.25);
        return;
    }
    if (ev.bstate & BUTTON5_PRESSED) {
        camera_zoom(&a->cam, 1 / 1.25);
        return;
    }
#endif
    if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return;
    int x = ev.x - a->map_x, y = ev.y - a->map_y;
    if (x < 0 || y < 0 || x >= a->cam.w || y >= a->cam.h)
        return;
    vec2 p = camera_world(&a->cam, x, y);
    /* The nearest vehicle within about a cell and a half of the click:
     * a glyph is much bigger than a tank when zoomed out. */
    double best = fmax(1.5 * 2.0 * a->cam.upc, 0);
    int pick = -1;
    const struct world *w = &a->world;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        double d = v2_dist(v->pos, p) - v->p->radius;
        if (d < best || (d == best && pick >= 0 && !w->vehicles.p[pick].alive && v->alive)) {
            best = d;
            pick = (int)i;
        }
    }
    if (pick != a->sel) {
        a->sel = pick;
        a->relayout = 1;
    }
}

int map_key(struct app *a, int ch)
{
    switch (ch) {
    case ' ':
        a->paused = !a->paused;
        break;
    case '.':
        a->paused = 1;
        app_step(a);
        break;
    case ',':
        a->paused = 1;
        app_step_back(a);
        break;
    case '+': case '=':
        speed_change(a, 1);
        break;
    case '-': case '_':
        speed_change(a, 0);
        break;
    case 'r': toggle(a, OV_RAYS, "rays"); break;
    case 'v': toggle(a, OV_CONES, "view cones"); break;
    case 'a': toggle(a, OV_AVOID, "avoidance"); break;
    case 't': toggle(a, OV_TRAJ, "aim and trajectories"); break;
    case 'w': toggle(a, OV_WAYP, "waypoints and turning circles"); break;
    case 'c': toggle(a, OV_COLL, "collision marks"); break;
    case '\t':
        app_select(a, 1);
        break;
    case KEY_BTAB:
        app_select(a, -1);
        break;
    case 'f':
        if (a->sel < 0)
            app_select(a, 1);
        a->follow = a->sel >= 0 && !a->follow;
        if (a->follow)
            a->cam.fitted = 0;
        break;
    case KEY_LEFT: case 'h':
        a->follow = 0;
        camera_pan(&a->cam, -0.125, 0);
        break;
    case KEY_RIGHT: case 'l':
        a->follow = 0;
        camera_pan(&a->cam, 0.125, 0);
        break;
    case KEY_UP: case 'k':
        a->follow = 0;
        camera_pan(&a->cam, 0, -0.125);
        break;
    case KEY_DOWN: case 'j':
        a->follow = 0;
        camera_pan(&a->cam, 0, 0.125);
        break;
    case 'z':
        camera_zoom(&a->cam, 1.5);
        break;
    case 'Z':
        camera_zoom(&a->cam, 1 / 1.5);
        break;
    case '0':
        a->follow = 0;
        camera_fit(&a->cam, a->world.width, a->world.height);
        break;
    case 'R':
        app_restart(a);
        break;
    case 'L':
        app_reload(a, 1);
        break;
    case '?':
        a->screen = SCREEN_HELP;
        break;
    case 'e':
        if (a->load_error)
            a->screen = SCREEN_ERROR;
        else
            app_message(a, 0, "no map error to show");
        break;
    case 27:
        /* Esc peels one thing at a time: the banner, then the selection. */
        if (a->world.ended && !a->banner_hidden)
            a->banner_hidden = 1;
        else if (a->sel >= 0) {
            a->sel = -1;
            a->follow = 0;
            a->relayout = 1;
        } else
            a->msg[0] = 0;
        break;
    case KEY_MOUSE:
        click(a);
        break;
    default:
        return 0;
    }
    return 1;
}
