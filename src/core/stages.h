/* stages.h — the stages of one tick (tick.c runs them in this order):
 *   grid     the vehicle grid of the start of the tick (grid_stage.c)
 *   sense    sight for every observer (sight/sight_stage.c: sight_update)
 *   decide   the behaviour table, one decision per vehicle (tick.c),
 *   act      the decisions applied together: both over blocks of
 *            vehicles, one a thread (act.c)
 *   shells   firing, swept flight, hits, misses (shell.c)
 * Each stage is written once over a block of vehicles (or shells) [lo,
 * hi): one block on one thread, par_chunks() blocks on threads (par.h).
 *   detect   the grid of the tick's end, collisions (collide.c),
 *            waypoints and laps (race/race_detect.c), the end (end.c)
 * Only decide is decision code (a const world); the others write the
 * world.  The stages' scratch is the tick context (decide.h). */
#ifndef BOTFIELD_STAGES_H
#define BOTFIELD_STAGES_H

#include <stddef.h>

struct world;
struct tick_ctx;
struct decision;

/* The stages as a benchmark times them (tick_ctx's times): seconds
 * added to times[TICK_T_*] by each tick_step when times is not NULL.
 * Decide and act are one stage (act.c), timed as TICK_T_DECIDE. */
enum tick_timer { TICK_T_GRID, TICK_T_SENSE, TICK_T_DECIDE, TICK_T_ACT,
                  TICK_T_SHELLS, TICK_T_DETECT, TICK_T_COUNT };

/* The racers as the tick began into c->race: what their decisions read
 * while act moves them on (every way of deciding takes it first). */
void race_snapshot(const struct world *w, struct tick_ctx *c);
/* One vehicle's decision (tick.c: the brain's, or the behaviour rows). */
void decide_vehicle(const struct world *w, int i, struct tick_ctx *c,
                    struct decision *d);
/* Vehicle i's decision into c->d[i] (a wreck's without a call). */
void decide_one(const struct world *w, size_t i, struct tick_ctx *c);
/* The decide and act stages (act.c), over blocks of vehicles: one block
 * on the calling thread (decided and acted in one sweep where no decision
 * can tell the difference), or par_chunks() blocks on `threads` threads
 * where the decisions share nothing but their slots.  0, or -1 when
 * memory ran out. */
int decide_act_stage(struct world *w, struct tick_ctx *c, int threads);
/* The vehicle grid of w's live vehicles, in blocks on par_threads(w)
 * threads (grid_stage.c): the same grid, entry for entry, for any number.
 * 0, or -1 when memory ran out. */
int grid_stage(struct world *w);
/* Vehicle v (index i), which fires along aim record ai this tick, into
 * shell s: all but its id, which the shells stage gives as the shell
 * joins the world's list (shell.c); its gun reloads.  The threads' act
 * pass fires its own vehicles with it (act.c). */
struct vehicle;
struct aim_info;
struct shell;
void shell_fire(const struct world *w, struct vehicle *v, int i,
                const struct aim_info *ai, struct shell *s);
/* 0, or -1 when memory ran out. */
int collide_stage(struct world *w);
int collide_measure_start(struct world *w);   /* min_separation at tick 0 */
void end_stage(struct world *w);

#endif
