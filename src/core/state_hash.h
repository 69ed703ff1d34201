/* state_hash.h — one 64-bit number for the whole state a tick reads.
 *
 * Two worlds with the same hash step alike (up to a 2^-64 accident): the
 * tick, every vehicle's lasting state (position, heading and direction,
 * speed, turret, radar, health, its generator, wander, gun and avoidance state,
 * its settings by value, its id), the racers' progress, the shells in
 * flight, the overlapping pairs, the teams' counts, the summary's
 * counters and whether (and by whom) the run was won.  What a tick only
 * produces (events, sight and aim records) and the scratch are not
 * state: a snapshot neither keeps nor needs them.
 *
 * XXH3 over the fields one by one, never over whole structs (padding
 * bytes are not state).  Recordings carry it in their checkpoints
 * (botfield(6), RECORDINGS); the viewer compares recomputed ticks with it.
 * The bots' mem is outside the core: bot_world_hash() (src/bot) goes on
 * from this hash. */
#ifndef BOTFIELD_STATE_HASH_H
#define BOTFIELD_STATE_HASH_H

#include <stdint.h>

struct world;

uint64_t state_hash(const struct world *w);
/* The same without each vehicle's own decision state (its generator,
 * wander and avoidance plan), which only its own next decision reads: what
 * a replay that drives a bot's vehicle by its recorded intents, not its
 * script, still computes exactly (botfield(6), RECORDINGS). */
uint64_t state_hash_public(const struct world *w);

#endif
