/* The decision records (src/core/explain.h): none without w->explain
 * (no decision gets one, nothing is kept), the same run either way, and
 * what a record says of a head-on pair agrees with the decision made. */
#include <math.h>
#include <string.h>

#include "../lib/tap.h"
#include "core/explain.h"
#include "core/tick.h"
#include "core/world.h"

/* Two tanks of one team driving straight at each other, predictive. */
static void head_on(struct world *w, int explain)
{
    world_init(w, 2000, 1000);
    struct vehicle_params p;
    world_default_params(&p, VK_TANK);
    p.drive = DRIVE_STRAIGHT;
    p.avoid = AVOID_PREDICTIVE;
    int t = world_add_team(w, "red", 0);
    world_add_vehicle(w, "tank.a", VK_TANK, t, &p, v2(800, 500), 0);
    world_add_vehicle(w, "tank.b", VK_TANK, t, &p, v2(1010, 510), M_PI);
    world_finish(w);
    w->explain = explain;
}

TEST(off_means_none)
{
    struct world w;
    head_on(&w, 0);
    for (int k = 0; k < 20; k++)
        check_int(tick_step(&w), ==, 0);
    check(world_explain(&w, 0) == NULL && world_explain(&w, 1) == NULL);
    const struct decision *d0 = tick_decision(&w, 0);     /* NULL: a fused tick */
    check(d0 == NULL || d0->why == NULL);
    check(w.scratch.ctx->why == NULL);
    world_free(&w);
}

TEST(same_run_either_way)
{
    struct world a, b;
    head_on(&a, 0);
    head_on(&b, 1);
    int same = 1;
    for (int k = 0; k < 300; k++) {
        tick_step(&a);
        tick_step(&b);
        for (int i = 0; i < 2; i++)
            same &= memcmp(&a.vehicles.p[i].pos, &b.vehicles.p[i].pos, sizeof(vec2)) == 0
                 && a.vehicles.p[i].heading == b.vehicles.p[i].heading
                 && a.vehicles.p[i].speed == b.vehicles.p[i].speed;
    }
    check(same);
    world_free(&a);
    world_free(&b);
}

TEST(threat_recorded)
{
    struct world w;
    head_on(&w, 1);
    int planned = 0, agree = 1;
    for (int k = 0; k < 60; k++) {
        tick_step(&w);
        for (int i = 0; i < 2; i++) {
            const struct explain *x = world_explain(&w, i);
            if (!x || x->tick != w.tick || !x->avoid.ran)
                agree = 0;
            else if (x->avoid.turn != x->want.turn || x->avoid.speed != x->want.speed)
                agree = 0;
            if (x && x->avoid.planned_now) {
                planned++;
                /* the chosen candidate is the cheapest tried, and its
                 * turn the one taken */
                const struct explain_avoid *e = &x->avoid;
                for (int c = 0; c < EXPLAIN_CANDS; c++)
                    if (e->tried[c] && e->cost[c] < e->cost[e->chosen])
                        agree = 0;
                if (e->cand_turn[e->chosen] != x->want.turn)
                    agree = 0;
                if (w.vehicles.p[i].avoid.threat != 1 - i)
                    agree = 0;
            }
        }
    }
    check(agree);
    check_int(planned, >, 0);
    world_free(&w);
}

int main(void)
{
    run(off_means_none, "without w->explain no decision gets a record and none is kept");
    run(same_run_either_way, "records on or off, the same run");
    run(threat_recorded, "a head-on pair: records agree with the decisions, the chosen candidate is the cheapest");
    return tap_done();
}
