/* tick.h — one fixed step of the simulation, as named stages (stages.h):
 *   1 grid   2 sense (sight)   3 decide (the behaviour table, decide.h)
 *   4 act (turn, move, turrets, edge)  5 shells  6 detect (collisions,
 *   waypoints, laps, knockouts, the end).
 * Every decision reads the world as it was at the start of the tick and
 * writes only the deciding vehicle's decision; act applies them together,
 * so the order of the vehicles never changes the outcome.  A world is
 * ready to step as soon as it is built (world_finish) or restored from a
 * snapshot.  The events of the step are in w->now.events until the next. */
#ifndef BOTFIELD_TICK_H
#define BOTFIELD_TICK_H

#include <stddef.h>

struct world;
struct tick_ctx;
struct decider;
struct decision;

/* Advances one tick.  0, or -1 when memory ran out (the world is then
 * still consistent but the step's events may be incomplete). */
int tick_step(struct world *w);

/* Number of teams that started with a tank or turret. */
int tick_teams_started(const struct world *w);

/* The built-in behaviour table (its rows, in order). */
const struct decider *tick_deciders(size_t *n);

/* Says that vehicles were moved or changed by hand between ticks (tests,
 * benchmarks): the next step rebuilds its indexes first. */
void world_moved(struct world *w);

/* What vehicle i decided in the last step (its intent and records), for
 * the tests; NULL before the first step and after a step that decided
 * and acted in one pass (tick.c: no sight records, no bots), which keeps
 * no decisions. */
const struct decision *tick_decision(const struct world *w, int i);

/* For callers that run single decisions outside a step (tests,
 * benchmarks, the bot API's built-ins): the tick context with the world's
 * indexes brought up to date, as the first stage of a step does; NULL
 * when memory ran out.  decision_start() sets d to vehicle i's starting
 * point (no turn, its speed, its lasting state), as the decide stage
 * does before the rows run. */
struct tick_ctx *tick_ready(struct world *w);
/* The next tick's sense stage run now, on the world as it is: its sight
 * records (what each vehicle will see when it next decides), which that
 * tick then keeps instead of computing them again (libbotfield observes
 * them).  This tick's events are gone: read them first.  Anything that
 * changes the world before that tick calls world_moved().  0, or -1 out
 * of memory (the tick then senses as ever). */
int tick_sense_ahead(struct world *w);
void decision_start(const struct world *w, int i, struct decision *d);
/* What vehicle i's decision sees of w and c (decide.h): the rows' only
 * argument besides i and its decision. */
struct decide_view tick_view(const struct world *w, struct tick_ctx *c, int i);
/* The tests' and benchmarks' switches (decide.h: struct tick_options),
 * kept in w's tick context, not in its state, for every step after; 0, or
 * -1 when memory ran out. */
struct tick_options;
int tick_set_options(struct world *w, const struct tick_options *o);

/* The all-pairs avoidance's maxima into c's per-tick products: tick_ready
 * makes them when the avoid_brute option is on; a test that calls avoid_decide_brute
 * without it asks here. */
void decide_tick_brute(const struct world *w, struct tick_ctx *c);

void tick_ctx_free(struct tick_ctx *c);

#endif
