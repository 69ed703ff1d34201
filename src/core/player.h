/* player.h — a tank driven from the keyboard: `[tank.ID] player = true`
 * (at most one per map).
 *
 * The player's intents are state the front end sets between ticks, as a
 * map setting would be: the world holds them (w->player), a snapshot
 * saves them, so stepping back and seeking replay them.  Each tick the
 * player's decision (a check before the behaviour rows, tick.c) reads
 * them through the const world and clamps them to the tank's limits as a
 * bot's are: the hull's turn rate, [0, cruising speed], the turret rate,
 * and a shot only when loaded, along the turret (no target, no aim).
 *
 * The entry point for every front end -- the viewer's drive mode, a
 * recording's replay -- is world_player_set(): the inputs it is given on a
 * tick's start are what that tick decides with.  A front end that does
 * nothing leaves the player still: its intents start at zero (headless). */
#ifndef BOTFIELD_PLAYER_H
#define BOTFIELD_PLAYER_H

struct world;
struct decide_view;
struct decision;

/* What the player holds, in the map's units (the recording's `input`
 * line has these four fields):
 *   turn    degrees per second the hull turns, + clockwise (to the right
 *           on the screen, y down); clamped to +-turn_rate
 *   speed   map units per second; clamped to [0, speed] (cruising speed)
 *   turret  degrees per second the turret turns, + clockwise; clamped to
 *           +-turret_rate
 *   fire    1: a shot is wanted.  It stays wanted until the gun fires
 *           (at once when loaded, else on the tick it is loaded again),
 *           then the core clears it: one press, one shot. */
struct player_input {
    double turn, speed, turret;
    int fire;
};

/* The world's player: its vehicle and held intents. */
struct player_state {
    int vehicle;            /* index in w->vehicles, -1: no player */
    struct player_input in;
};

/* Sets the player's intents from the next tick on.  0; -1 when vehicle is
 * not the world's player tank (nothing changes).  Values out of range are
 * kept as given and clamped when a tick decides (a recording replays the
 * same numbers); NaN or infinities are refused (-1). */
int world_player_set(struct world *w, int vehicle, const struct player_input *in);

/* The player's decision for vehicle i (its own vehicle only: safe in the
 * fused decide+act pass). */
void player_decide(const struct decide_view *c, int i,
                   struct decision *d);

/* After the shells stage: a wanted shot that was fired is no longer
 * wanted. */
void player_tick_done(struct world *w);

#endif
