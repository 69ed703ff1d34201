/* replay_read.h — reading a recording (botfield(6), RECORDINGS), every
 * line checked before anything runs.
 *
 * A recording is input like a map: a malformed line, an unknown type or
 * key, another format, a field missing or of the wrong type, ticks that
 * go back, a hash that is not 16 hex digits, an embedded map larger than
 * a map may be: replay_read() refuses the whole file with one message
 * "FILE:LINE: problem; what is allowed".  A last line without its newline
 * (a recording cut short) is left out, with a warning for stderr: the rest
 * replays.  What needs the world (a vehicle's id, a bot's path and
 * script) is checked by the replay before its first tick. */
#ifndef BOTFIELD_REPLAY_READ_H
#define BOTFIELD_REPLAY_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REPLAY_TYPE_LIST(X)                                             \
    X(RL_BOT_SOURCE, "bot_source") X(RL_INPUT, "input") X(RL_TUNE, "tune") \
    X(RL_RELOAD, "reload") X(RL_CHECKPOINT, "checkpoint") X(RL_END, "end") \
    X(RL_BOT_RELOAD, "bot_reload") X(RL_INTENT, "intent")
#define REPLAY_ENUM(id, name) id,
enum replay_type { REPLAY_TYPE_LIST(REPLAY_ENUM) };

struct replay_line {
    enum replay_type type;
    long line;                  /* in the file, for messages */
    long tick;                  /* -1: a bot_source of the start */
    char *path, *sha256, *text; /* bot_source (text: the script); reload
                                   (text: the map); bot_reload (sha256) */
    uint64_t hash;              /* checkpoint, end */
    int has_world;              /* checkpoint, end: "world" given */
    uint64_t world;             /* its core-only hash (recordings with intents) */
    int has_seed;               /* reload: the new world's seed given */
    uint64_t seed;
    char *id;                   /* input, bot_reload, intent: the vehicle */
    double turn, speed, turret; /* input, intent */
    int fire;                   /* input, intent */
    double radar, race_turn;    /* intent */
    int has_race;               /* intent: race_turn given */
    unsigned char *say;         /* intent: out.say's encoded bytes (say_len) */
    size_t say_len;
    char *section, *key, *value;/* tune */
};

/* An intent's say: at most this many bytes once encoded (out.say's bound,
 * the bot layer's BOT_SAY_ENCODED), written as twice as many hex digits. */
#define REPLAY_SAY_MAX 260

struct replay {
    char *version, *lua;
    uint64_t seed;
    char *map_path;             /* "": the built-in map */
    char *map_text;
    char **set;                 /* the run's --set, "SECTION.KEY=VALUE" each */
    int nset;
    struct replay_line *lines;  /* after the header, in file order */
    size_t n, cap;
    int cut;                    /* a cut-short last line was left out */
};

/* Reads `path` ("-": standard input).  0 with *r filled (replay_free()
 * it); -1 with *err the message, malloc'd, ending in a newline.  *warn
 * (malloc'd, or NULL) is said on stderr even on success. */
int replay_read(const char *path, struct replay *r, char **err, char **warn);
void replay_free(struct replay *r);

/* One line of a JSON Lines file (a recording, run lines), read with a
 * bound: getline() would take an endless line (/dev/zero, a stream
 * without newlines) until memory ran out.  Reads up to and including
 * '\n' into *buf (grown as needed, NUL-terminated), *len its bytes.
 * Returns TEXT_LINE (a line, the last maybe without '\n'), TEXT_EOF
 * (nothing left), TEXT_ERROR (a read error: errno), TEXT_LONG (more than
 * `max` bytes without a newline: the rest is not read), TEXT_NOMEM, or
 * TEXT_NUL (a NUL byte, not text: *len its 0-based offset in the line). */
enum text_line { TEXT_LINE, TEXT_EOF, TEXT_ERROR, TEXT_LONG, TEXT_NOMEM, TEXT_NUL };
enum text_line text_getline(FILE *f, char **buf, size_t *cap, size_t max, size_t *len);

/* A JSON line's shape, found by one pass over its bytes that allocates
 * nothing, before a parser builds it: jansson's tree costs some 50 to 100
 * bytes a value however short the value's text ("0," is two), so a line
 * of 100 MB of [0,0,...] took 2 GB before its keys could be checked.  A
 * reader refuses what its format never holds (nesting, arrays, more keys
 * than a line has) from the shape, and parses only what is left, whose
 * tree is then a small multiple of the line.  Only what the shape says
 * is trusted: the syntax is still the parser's to check. */
struct json_shape {
    int object;             /* the first byte after blanks is '{' */
    int depth;              /* the deepest nesting: 1 for a flat object */
    size_t deep_at;         /* byte (1-based) of the first '{' or '[' past depth 1 */
    char deep_char;         /* that byte */
    size_t deeper_at;       /* byte of the first '{' or '[' past depth 2 */
    long deep_opens;        /* '{' and '[' at depth 2 */
    size_t deep_object_at;  /* byte of the first '{' at depth 2 (0: none) */
    long deep_strings;      /* strings at depth 2 */
    size_t deep_scalar_at;  /* byte of the first number, true, false or null
                               at depth 2 (0: none) */
    size_t array_at;        /* byte of the first '[' (0: none) */
    long members;           /* keys of the outer object */
    const char *type;       /* the outer "type" string's raw text (no quotes), or NULL */
    size_t type_len;
};
void json_shape_scan(const char *s, size_t n, struct json_shape *sh);
/* 1 when sh's type is exactly `name` (as written, no escapes). */
int json_shape_type_is(const struct json_shape *sh, const char *name);

/* "FILE:LINE: " + the formatted rest + "\n", malloc'd (for the checks
 * that need the world). */
char *replay_msg(const char *file, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;


/* A recording read as it grows (--follow, the arena's watch): bytes put
 * as they arrive, whole lines taken into a replay (checked as
 * replay_read() checks a file), plus the stream's own
 * {"type":"now","tick":T} lines, which say ticks before T are known
 * and are never a file's.  The recording is done after its end line or
 * before a second header (left buffered for the next one:
 * replay_stream_next()). */
struct replay_stream;
struct replay_stream *replay_stream_new(const char *name);
void replay_stream_free(struct replay_stream *s);
/* Starts on the next recording of the stream (bytes kept). */
void replay_stream_next(struct replay_stream *s);
/* 0, or -1 out of memory. */
int replay_stream_put(struct replay_stream *s, const char *p, size_t n);
/* The whole lines put so far into r (the first: its header).  0, or -1
 * with *err the message (malloc'd): the stream is not a recording. */
int replay_stream_take(struct replay_stream *s, struct replay *r, char **err);
/* The highest tick a line gave since the last map reload (-1: none). */
long replay_stream_seen(const struct replay_stream *s);
/* The index in r->lines of the last reload line, -1: none. */
long replay_stream_last_reload(const struct replay_stream *s);
int replay_stream_done(const struct replay_stream *s);
int replay_stream_has_header(const struct replay_stream *s);
/* Bytes put and not taken yet. */
size_t replay_stream_pending(const struct replay_stream *s);

#endif
