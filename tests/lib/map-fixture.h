/* map-fixture.h — a world from a bundled map or from map text, for the
 * test programs: one loader, its error noted on the TAP stream. */
#ifndef BOTFIELD_MAP_FIXTURE_H
#define BOTFIELD_MAP_FIXTURE_H

#include "core/world.h"

/* $top_srcdir/maps/NAME (. when top_srcdir is unset); a static buffer,
 * overwritten by the next call. */
const char *fixture_map_path(const char *name);

/* A world from the bundled map maps/NAME; 0, or -1 with the map's error
 * noted (nothing to free then). */
int fixture_load_map(const char *name, struct world *w);

/* A world from map TEXT, called NAME in its errors; 0, or -1 with the
 * error noted (nothing to free then). */
int fixture_load_text(const char *name, const char *text, struct world *w);

#endif
