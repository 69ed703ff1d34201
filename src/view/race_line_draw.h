/* race_line_draw.h — the `w` overlay's racing line (race_line_draw.c). */
#ifndef BOTFIELD_RACE_LINE_DRAW_H
#define BOTFIELD_RACE_LINE_DRAW_H

struct app;
struct vehicle;

/* Draws the planned line of car v (steer = line), coloured by its planned
 * speed; nothing for any other vehicle. */
void race_line_draw(struct app *a, const struct vehicle *v);

#endif
