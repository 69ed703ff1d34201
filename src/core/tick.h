/* tick.h — one fixed step of the simulation.
 *
 * Every decision reads the world as it was at the start of the tick and
 * writes only the deciding vehicle's intent; the intents are then applied
 * together, so the order of the vehicles never changes the outcome:
 *   1 vehicle grid   2 sense (sight)   3 decide (behaviour, avoid, aim, race)
 *   4 act (turn, move, turrets, edge)  5 shells  6 detect (collisions,
 *   waypoints, laps, knockouts, the end).
 * The events of the step are in w->events until the next step. */
#ifndef BOTFIELD_TICK_H
#define BOTFIELD_TICK_H

struct world;

/* Advances one tick.  0, or -1 when memory ran out (the world is then
 * still consistent but the step's events may be incomplete). */
int tick_step(struct world *w);

/* Prepares tick 0's derived data (the vehicle grid); called once after
 * world_finish() and after a snapshot is restored. */
int tick_prepare(struct world *w);

/* Number of teams that started with a tank or turret. */
int tick_teams_started(const struct world *w);

#endif
