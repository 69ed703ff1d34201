/* observe.h — what an agent observes, fixed size: the observation of
 * libbotfield's agents (botfield-env(3), OBSERVATIONS) and of a Lua bot's
 * agent.observe() (botfield-bots(7)), one function for both, so a policy
 * trained through the library plays as a bot on the same numbers.
 *
 * Vehicle i's own state (OBSERVE_OWN floats), the K nearest enemies its
 * sight saw this tick (OBSERVE_ENEMY each), the K nearest shells within
 * its view range that are not its team's (OBSERVE_SHELL each), then R
 * rays: distances are fractions of its view range, positions in its
 * hull's frame (forward, right), so what is learnt at one place of a map
 * holds at another.  A wreck observes zeros.  Reads the world only. */
#ifndef BOTFIELD_OBSERVE_H
#define BOTFIELD_OBSERVE_H

struct world;

#define OBSERVE_OWN 12
#define OBSERVE_ENEMY 6
#define OBSERVE_SHELL 5
#define OBSERVE_MAX_NEAREST 16
#define OBSERVE_MAX_RAYS 64

/* The floats of one observation (K <= OBSERVE_MAX_NEAREST). */
int observe_size(int K, int R);
/* Vehicle i's observation into out[0 .. observe_size(K, R)). */
void observe_vehicle(const struct world *w, int i, int K, int R, float *out);

#endif
