/* canvas_string.h — a canvas as lines of text, for output that is not a
 * curses screen (botfield --chart). */
#ifndef BOTFIELD_CANVAS_STRING_H
#define BOTFIELD_CANVAS_STRING_H

#include "canvas.h"

/* The grid as UTF-8 lines ('\n' after each, trailing blanks dropped):
 * braille dots where no glyph covers a cell on a braille canvas; on an
 * ASCII one anything past '~' is '?'.  malloc'd, or NULL. */
char *canvas_string(const struct canvas *cv);

#endif
