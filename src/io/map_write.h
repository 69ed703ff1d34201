/* map_write.h — saving tuned values into the map file (the viewer's
 * write-back, botfield(6), TUNING).
 *
 * The file keeps every byte it had but the values changed: a key the
 * file has keeps its line, indentation, spacing and comment, and only its
 * value's text changes; a key the section lacks is a new line right
 * after the section's header; a section the file lacks ([sight]) comes
 * at the end.  The edit is the one `--set` makes before loading
 * (overrides.c), so the file written loads as the run was tuned.  The
 * new text goes to a temporary file in the same folder, renamed over the
 * map: a crash leaves the old file or the new one, never half of one. */
#ifndef BOTFIELD_MAP_WRITE_H
#define BOTFIELD_MAP_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "map.h"

/* The hash that tells a file changed on disk (XXH64 of its bytes). */
uint64_t map_write_hash(const char *text, size_t len);

/* Reads path whole (at most MAP_MAX_FILE_BYTES): 0 with *text (malloc'd,
 * NUL-ended) and *len, or -1 with the message in msg. */
int map_write_read(const char *path, char **text, size_t *len, char *msg, size_t n);

/* Writes the nset settings into the file at path.  Unless force, a file
 * whose bytes no longer hash to `loaded` is left alone: 1.  0 written
 * (*new_hash: the hash of what was written), -1 with the message in msg
 * (nothing written). */
int map_write_back(const char *path, const struct map_set *set, int nset, uint64_t loaded,
                   int force, uint64_t *new_hash, char *msg, size_t n);

/* 0 when a file could be written at path, else the errno that says why
 * not (EISDIR, ENOENT, EACCES...), found without creating or truncating
 * anything: an output is checked before another is truncated or before a
 * long run.  A FIFO or a device is left to the real open. */
int file_cannot_write(const char *path);

#endif
