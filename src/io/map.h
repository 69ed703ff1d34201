/* map.h — INI map files into worlds (the format of botfield(6)), through iniparser.
 *
 * map_load() reads and validates a whole file and builds the world only
 * when everything is right: on error the world is left untouched and
 * `err` holds every problem found (file:line: [section] key = value:
 * problem (what is allowed)), one per line.  Nothing is printed here. */
#ifndef BOTFIELD_MAP_H
#define BOTFIELD_MAP_H

#include <stddef.h>
#include <stdint.h>

struct world;

/* The largest map file read (the hardening issue's limit). */
#define MAP_MAX_FILE_BYTES (64u << 20)
/* iniparser 4.1 cannot read longer lines. */
#define MAP_MAX_LINE_BYTES 1024

struct map_error {
    char *text;             /* all messages, '\n'-separated; NULL: none */
    int count;
};

/* One `--set SECTION.KEY=VALUE`: written into the map's text before it
 * is read (overrides.c), so it is checked as the map's own line; its
 * problems name the option, not a line. */
struct map_set {
    const char *key;        /* "team.red.turn_rate": the last dot splits */
    const char *value;
};

/* Options that override the file. */
struct map_options {
    int has_seed;
    uint64_t seed;
    /* Refuse a path that is not a regular file (a FIFO, device or
     * socket) instead of reading it: the viewer, which must never wait
     * for a writer, sets it; --check and --headless read a pipe. */
    int regular_only;
    const struct map_set *set;  /* --set, in the order given; NULL: none */
    int nset;
};

/* Loads `path`.  Returns 0 with *out initialised (world_free() it), or -1
 * with err->text set (map_error_free() it). */
int map_load(const char *path, const struct map_options *opt,
             struct world *out, struct map_error *err);

/* The same, handing back the text read (*kept, malloc'd, NUL-ended) when
 * it loaded: what a recording embeds. */
int map_load_kept(const char *path, const struct map_options *opt,
                  struct world *out, struct map_error *err, char **kept);

/* The same for map text in memory; `name` stands for the file in
 * messages and as the map's default name. */
int map_load_text(const char *name, const char *text, size_t len,
                  const struct map_options *opt, struct world *out,
                  struct map_error *err);

/* A map read and checked once, to be built again and again (a world a
 * seed: libbotfield's resets), as map_load_text would build it each time
 * from the same text and settings, without reading the text again.
 * map_keep_text: 0 with *out, or -1 with err (as map_load_text's, but for
 * the problems only a build finds).  map_kept_build: opt's seed (its
 * settings were the text's); 0 with *out, or -1 with err. */
struct map_kept;
int map_keep_text(const char *name, const char *text, size_t len,
                  const struct map_options *opt, struct map_kept **out,
                  struct map_error *err);
int map_kept_build(struct map_kept *k, const struct map_options *opt, struct world *out,
                   struct map_error *err);
void map_kept_free(struct map_kept *k);

void map_error_free(struct map_error *err);

/* s for a terminal: a message quotes a stranger's bytes (a value, a
 * section, a script's token), and a control byte there (ESC starts an
 * escape sequence: clear the screen, set the title) must not reach the
 * terminal as it is.  Each control byte (and '\n' unless keep_newlines),
 * each byte that is not UTF-8 and each C1 control (U+0080 to U+009F) is
 * written as \xHH; the rest is copied.  malloc'd; NULL out of memory. */
char *text_printable(const char *s, int keep_newlines);

/* Writes the key table as man-page (roff) text: nothing about a key is
 * written twice.  Returns a malloc'd string. */
char *map_keys_man(void);

/* The embedded default map (maps/default.ini compiled in). */
extern const char map_default_text[];
extern const size_t map_default_len;

#endif
