/* player_input.c — the player's intents as state: set by a front end
 * between ticks (world_player_set), a wanted shot cleared once fired.
 * Not decision code: it writes the world (see player.h). */
#include <math.h>

#include "player.h"
#include "world.h"

int world_player_set(struct world *w, int vehicle, const struct player_input *in)
{
    if (vehicle < 0 || vehicle != w->player.vehicle
        || !isfinite(in->turn) || !isfinite(in->speed) || !isfinite(in->turret))
        return -1;
    w->player.in = *in;
    w->player.in.fire = in->fire != 0;
    return 0;
}

void player_tick_done(struct world *w)
{
    if (w->player.vehicle < 0 || !w->player.in.fire)
        return;
    for (size_t k = 0; k < w->now.events.n; k++)
        if (w->now.events.p[k].kind == EV_SHOT && w->now.events.p[k].a == w->player.vehicle) {
            w->player.in.fire = 0;
            return;
        }
}
