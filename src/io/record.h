/* record.h — writing a recording: JSON Lines (botfield(6), RECORDINGS).
 *
 * Each function writes one whole line and flushes it, so a recording cut
 * short by a crash or a dropped link ends with whole lines, but perhaps
 * the last.  Strings are escaped as the trace's (trace_string).  Every
 * function returns 0, or -1 when the stream reported an error. */
#ifndef BOTFIELD_RECORD_H
#define BOTFIELD_RECORD_H

#include <stdint.h>
#include <stdio.h>

/* The version of the file format written and read. */
#define RECORD_FORMAT 1
/* Ticks between checkpoints. */
#define RECORD_CHECKPOINT_TICKS 600

struct map_set;

/* {"type":"recording",...}: the first line.  map_path "" is the built-in
 * map; set: the run's --set settings in the order given ("set":["K=V",..],
 * applied to map_text as the run applied them; the array is written
 * always, empty when there are none). */
int record_header(FILE *f, const char *version, const char *lua, uint64_t seed,
                  const char *map_path, const char *map_text,
                  const struct map_set *set, int nset);
/* {"type":"bot_source",...}; tick < 0: a script of the start (no tick). */
int record_bot_source(FILE *f, long tick, const char *path, const char *sha256,
                      const char *text);
/* {"type":"bot_reload","tick":T,"id":ID,"bot_sha256":...}: vehicle ID
 * runs, from tick T's step on, the script of that SHA-256 (whose text is
 * the bot_source line just before: botfield-bots(7)). */
int record_bot_reload(FILE *f, long tick, const char *id, const char *sha256);
/* {"type":"reload","tick":T,"seed":S,"map_text":...}: the map reloaded at
 * T, its world drawn from seed S. */
int record_reload(FILE *f, long tick, uint64_t seed, const char *map_text);
/* {"type":TYPE,"tick":T,"hash":"16 hex digits"}: checkpoint or end. */
int record_hash(FILE *f, const char *type, long tick, uint64_t hash);
/* The player's held input as it is from tick `tick` on (turn and turret
 * in degrees a second, speed in map units a second). */
int record_input(FILE *f, long tick, const char *id, double turn, double speed,
                 double turret, int fire);
/* {"type":TYPE,"tick":T,"hash":...,"world":...}: a checkpoint or end of
 * a recording with intents: `world` the core's state alone (no bot's
 * mem), which a replay without some scripts can still check. */
int record_hash_world(FILE *f, const char *type, long tick, uint64_t hash, uint64_t world);
/* {"type":"intent","tick":T,"id":ID,"turn":..,"speed":..,"turret":..,
 * "fire":..,"radar":..,"say":"HEX"[,"race_turn":..]}: what vehicle ID's
 * bot decided on tick T (its out.* as the script gave them; say: the
 * encoded out.say in hex, "" for none; race_turn: race.*()'s turn kept
 * as it was, radians this tick, when has_race). */
struct record_intent {
    double turn, speed, turret, radar;
    int fire;
    int has_race;
    double race_turn;
    const unsigned char *say;
    size_t say_len;
};
int record_intent(FILE *f, long tick, const char *id, const struct record_intent *in);
/* {"type":"tune","tick":T,"section":...,"key":...,"value":...}: a live
 * tuning, in effect from tick T's step on. */
int record_tune(FILE *f, long tick, const char *section, const char *key,
                const char *value);

#endif
