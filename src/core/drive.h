/* drive.h — the drive row: a car's racing, a turret's hold, a tank's
 * wander, patrol, straight or hold (see drive.c). */
#ifndef BOTFIELD_DRIVE_H
#define BOTFIELD_DRIVE_H

struct world;
struct tick_ctx;
struct decision;

void drive_decide(const struct world *w, int i, struct tick_ctx *c,
                  struct decision *d);

#endif
