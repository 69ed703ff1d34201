/* drive.h — the drive row: a car's racing, a turret's hold, a tank's
 * wander, patrol, straight or hold (see drive.c). */
#ifndef BOTFIELD_DRIVE_H
#define BOTFIELD_DRIVE_H

struct world;
struct decide_view;
struct decision;

void drive_decide(const struct decide_view *c, int i,
                  struct decision *d);

#endif
