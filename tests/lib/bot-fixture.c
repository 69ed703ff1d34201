/* bot-fixture.c — see bot-fixture.h. */
#include <math.h>
#include <string.h>

#include "bot-fixture.h"

/* Trivial fakes: each returns numbers that name the call, so a test can
 * tell which callback answered. */
static int f_aim(void *ctx, int handle, double *dir, double *t, const char **reason)
{
    ((struct fixture *)ctx)->calls++;
    if (handle == 3) {
        *reason = "out of range";
        return -1;
    }
    *dir = 45 + handle;
    *t = 0.5 * handle;
    return 0;
}

static int f_aim_classic(void *ctx, int handle, double *dir, double *t, const char **reason)
{
    int rc = f_aim(ctx, handle, dir, t, reason);
    *dir += 100;
    return rc;
}

static int f_avoid(void *ctx, double h, double s, double *turn, double *sp)
{
    ((struct fixture *)ctx)->calls++;
    *turn = h / 2;
    *sp = s / 2;
    return 0;
}

static int f_avoid_classic(void *ctx, double h, double s, double *turn, double *sp)
{
    f_avoid(ctx, h, s, turn, sp);
    *turn += 1000;
    return 0;
}

static int f_race(void *ctx, double *turn, double *sp)
{
    ((struct fixture *)ctx)->calls++;
    *turn = 12;
    *sp = 34;
    return 0;
}

static int f_race_classic(void *ctx, double *turn, double *sp)
{
    f_race(ctx, turn, sp);
    *turn = -12;
    return 0;
}

static int f_race_line(void *ctx, double *turn, double *sp)
{
    f_race(ctx, turn, sp);
    *turn = 7;
    return 0;
}

static int f_wander(void *ctx, double *turn, double *sp)
{
    ((struct fixture *)ctx)->calls++;
    *turn = 5;
    *sp = 6;
    return 0;
}

static int f_hidden(void *ctx, double x, double y, double *fr)
{
    ((struct fixture *)ctx)->calls++;
    *fr = x > y ? 0.25 : 0.75;
    return 0;
}

static size_t f_trees(void *ctx, double r, struct bot_tree *out, size_t max)
{
    ((struct fixture *)ctx)->calls++;
    size_t n = r > 1000 ? 1000 : (size_t)(r > 0 ? r : 0);
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++) {
        out[i].x = (double)i;
        out[i].y = 2.0 * (double)i;
        out[i].r = 10;
    }
    return n;
}

/* k + 0.5 for the k-th float; its work: 100 looks a ray */
static int f_observe(void *ctx, int K, int R, float *out, size_t max)
{
    struct fixture *f = ctx;
    f->calls++;
    int n = 12 + 11 * K + R;
    if (n < 0 || (size_t)n > max)
        return -1;
    for (int k = 0; k < n; k++)
        out[k] = (float)k + 0.5f;
    f->view.call_work = (size_t)R * 100;
    return n;
}

/* the fixture's tank: turn_rate 90, cruising speed 60 */
static int f_act(void *ctx, const double a[5], struct bot_out *o)
{
    ((struct fixture *)ctx)->calls++;
    *o = (struct bot_out){ a[0] * 90, (a[1] + 1) / 2 * 60, 30 + a[2], a[3] > 0, a[4] };
    return 0;
}

const struct bot_calls fixture_calls = {
    f_aim, f_aim_classic, f_avoid, f_avoid_classic, f_race, f_race_classic, f_wander,
    f_hidden, f_trees,
    f_race_line, f_observe, f_act,
};

void fixture_init(struct fixture *f, unsigned long long seed)
{
    memset(f, 0, sizeof *f);
    static const char *const eids[] = { "tank.4", "tank.5", "turret.1" };
    for (int i = 0; i < 3; i++) {
        struct bot_enemy *e = &f->enemies[i];
        e->handle = i + 1;
        e->id = eids[i];
        e->x = 300 + 100 * i;
        e->y = 200;
        e->heading = 180;
        e->speed = 20;
        e->visible = 1;
        e->distance = 200 + 100 * i;
        e->bearing = 0;
    }
    f->allies[0] = (struct bot_ally){ "tank.2", 50, 50, 0, 0 };
    f->allies[1] = (struct bot_ally){ "tank.3", 80, 60, 90, 5 };
    for (int i = 0; i < 4; i++)
        f->waypoints[i] = (struct bot_waypoint){ 100.0 * i, 50.0 * i, 30 };
    f->events[0].type = "hit";
    f->events[0].n_fields = 2;
    f->events[0].fields[0] = (struct bot_field){ "shooter", "turret.1", 0 };
    f->events[0].fields[1] = (struct bot_field){ "damage", NULL, 25 };
    f->events[1].type = "collision";
    f->events[1].n_fields = 2;
    f->events[1].fields[0] = (struct bot_field){ "b", "tank.2", 0 };
    f->events[1].fields[1] = (struct bot_field){ "distance", NULL, 31.5 };
    rng_seed(&f->rng, seed, 7);
    struct bot_view *v = &f->view;
    v->id = "tank.1";
    v->kind = "tank";
    v->team = "red";
    v->x = 100;
    v->y = 200;
    v->heading = 90;
    v->speed = 10;
    v->turret = 30;
    v->gun_ready = 1;
    v->reload_left = 0;
    v->health = 100;
    v->radius = 20;
    v->max_speed = 60;
    v->turn_rate = 90;
    v->turret_rate = 120;
    v->shell_speed = 400;
    v->range = 800;
    v->fov = 120;
    v->view_range = 600;
    v->tick = 42;
    v->time = 0.7;
    v->dt = 1.0 / 60;
    v->width = 2000;
    v->height = 1800;
    v->enemies = f->enemies;
    v->n_enemies = 3;
    v->allies = f->allies;
    v->n_allies = 2;
    v->waypoints = f->waypoints;
    v->n_waypoints = 4;
    v->next_waypoint = 2;
    v->events = f->events;
    v->n_events = 2;
    v->rng = &f->rng;
    v->calls = &fixture_calls;
    v->ctx = f;
}

struct bot *fixture_bot(const char *lua, long budget, size_t memory, char *err, size_t n)
{
    struct bot_script s;
    if (bot_script_from_bytes("test.lua", lua, strlen(lua), &s, err, n))
        return NULL;
    struct bot_limits lim = { budget ? budget : BOT_BUDGET_DEFAULT,
                              memory ? memory : (size_t)BOT_MEMORY_KIB_DEFAULT * 1024 };
    struct bot *b = bot_new(&s, lim, err, n);
    bot_script_free(&s);
    return b;
}
