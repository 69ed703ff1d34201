/* test-shell-impact.c — a shell carries the gun's prediction from the tick
 * it was fired (struct shell: impact, impact_time), which the viewer draws
 * instead of running the shell on to the end of its range: the point is
 * the aim point of the firing tick, and on a target that keeps its course
 * the hit comes where and when it says. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tap.h"
#include "core/tick.h"
#include "core/world.h"

static int add(struct world *w, const char *id, enum vehicle_kind kind, int team,
               vec2 pos, double heading, double speed)
{
    struct vehicle_params p;
    world_default_params(&p, kind);
    p.drive = speed > 0 ? DRIVE_STRAIGHT : DRIVE_HOLD;
    p.speed = speed;
    p.avoid = AVOID_NONE;
    p.facing = heading;
    p.fov = 2 * M_PI;
    return world_add_vehicle(w, id, kind, team, &p, pos, heading);
}

static const struct event *find_event(const struct world *w, enum event_kind k)
{
    for (size_t i = 0; i < w->events.n; i++)
        if (w->events.p[i].kind == k)
            return &w->events.p[i];
    return NULL;
}

TEST(prediction_kept_and_met)
{
    struct world w;
    world_init(&w, 2000, 1000);
    int red = world_add_team(&w, "red", 0), blue = world_add_team(&w, "blue", 1);
    int gun = add(&w, "turret.g", VK_TURRET, red, v2(200, 500), 0, 0);
    /* a tank crossing the field of fire, 600 units off, at 60 units/s */
    int tank = add(&w, "tank.t", VK_TANK, blue, v2(800, 300), M_PI / 2, 60);
    check_int(world_finish(&w), ==, 0);

    /* to the tick the gun fires: its shell holds that tick's aim point */
    vec2 aim = v2(NAN, NAN);
    int fired = 0;
    for (int i = 0; i < 600 && !fired; i++) {
        tick_step(&w);
        const struct event *e = find_event(&w, EV_SHOT);
        const struct aim_info *ai = world_aim(&w, &w.vehicles.p[gun]);
        if (e && ai) {
            fired = 1;
            aim = ai->aim_point;
        }
    }
    check(fired);
    check_int((int)w.shells.n, ==, 1);
    if (!fired || w.shells.n != 1) {
        world_free(&w);
        return;
    }
    const struct shell *s = &w.shells.p[0];
    check_num(s->impact.x, ==, aim.x);
    check_num(s->impact.y, ==, aim.y);
    double when = s->impact_time, fired_at = (double)w.tick * w.dt;
    /* in the future, within the shell's range */
    check_num(when, >, fired_at - w.dt);
    check_num(v2_dist(s->start, s->impact), <=, s->range);

    /* the hit: at the predicted point and time, to within the tank's
     * radius (the shell stops at its outline, the aim is its centre) and
     * the tick the hit is counted in */
    int hit = 0;
    for (int i = 0; i < 600 && !hit; i++) {
        tick_step(&w);
        const struct event *e = find_event(&w, EV_HIT);
        hit = e && e->b == tank;
    }
    check(hit);
    double t_hit = (double)w.tick * w.dt;
    double early = w.vehicles.p[tank].p->radius / w.vehicles.p[gun].p->shell_speed;
    check_num(t_hit, <=, when + w.dt + 1e-9);
    check_num(t_hit, >=, when - early - 1e-9);
    check_num(v2_dist(w.shells.p[0].pos, aim), <=,
              w.vehicles.p[tank].p->radius + 1e-6);
    world_free(&w);
}

int main(void)
{
    run(prediction_kept_and_met, "a shell keeps its gun's predicted impact; the hit comes there and then");
    return tap_done();
}
