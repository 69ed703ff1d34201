/* private.h — what a person may see of an arena match's recording: the
 * full recording less the scripts of other people's bots (botfield-arena(7),
 * fetch).  Their vehicles replay from their intent lines. */
#ifndef BOTFIELD_ARENA_PRIVATE_H
#define BOTFIELD_ARENA_PRIVATE_H

#include <stddef.h>

/* One line of a recording (n bytes, with or without its newline): 1 keep
 * it for `person`, 0 drop it.  Dropped: a bot_source line whose path is
 * not under bots/PERSON/, every bot_reload line (it has no path; the
 * bot_source line before it does the reload), and a line that is not a
 * JSON object (nothing unread goes out). */
int arena_private_keep(const char *line, size_t n, const char *person);

#endif
