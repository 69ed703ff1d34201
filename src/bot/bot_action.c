/* bot_action.c — an agent's action, five numbers in [-1, 1], as a bot's
 * out (bot_world.h): libbotfield's agents and a Lua bot's agent.act() turn
 * the same numbers into the same intents. */
#include "config.h"

#include "bot_world.h"
#include "core/vec.h"
#include "core/world.h"

struct bot_out bot_out_of_action(const struct world *w, int i, const double a[5])
{
    const struct vehicle *v = world_vehicle(w, i);
    double ms = vehicle_top_speed(v);
    double dt = w->dt;
    return (struct bot_out){
        rad2deg(a[0] * v->p->turn_rate),
        (a[1] + 1.0) / 2.0 * ms,
        rad2deg(angle_norm(v->turret + a[2] * v->p->turret_rate * dt)),
        a[3] > 0,
        rad2deg(angle_norm(v->radar + a[4] * v->p->radar_rate * dt)),
    };
}
