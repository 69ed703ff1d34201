/* record.c — the lines of a recording (record.h). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "record.h"
#include "trace.h"

/* The line's end, flushed: a line is whole on disk or absent. */
static int end_line(FILE *f)
{
    fputs("}\n", f);
    return fflush(f) || ferror(f) ? -1 : 0;
}

static void key_str(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    trace_string(f, s);
}

/* Past 2^63 a string of digits: JSON readers' integers stop there. */
static void put_seed(FILE *f, uint64_t seed)
{
    fprintf(f, seed > (uint64_t)INT64_MAX ? ",\"seed\":\"%" PRIu64 "\"" : ",\"seed\":%" PRIu64,
            seed);
}

/* ,"set":["K=V",...]: each setting as the option took it */
static int put_sets(FILE *f, const struct map_set *set, int nset)
{
    fputs(",\"set\":[", f);
    for (int i = 0; i < nset; i++) {
        size_t nk = strlen(set[i].key), nv = strlen(set[i].value);
        char *kv = malloc(nk + nv + 2);
        if (!kv)
            return -1;
        memcpy(kv, set[i].key, nk);
        kv[nk] = '=';
        memcpy(kv + nk + 1, set[i].value, nv + 1);
        if (i)
            fputc(',', f);
        trace_string(f, kv);
        free(kv);
    }
    fputc(']', f);
    return 0;
}

int record_header(FILE *f, const char *version, const char *lua, uint64_t seed,
                  const char *map_path, const char *map_text,
                  const struct map_set *set, int nset)
{
    fprintf(f, "{\"type\":\"recording\",\"format\":%d", RECORD_FORMAT);
    key_str(f, "version", version);
    key_str(f, "lua", lua);
    put_seed(f, seed);
    key_str(f, "map_path", map_path);
    key_str(f, "map_text", map_text);
    if (put_sets(f, set, nset))
        return -1;
    return end_line(f);
}

int record_bot_source(FILE *f, long tick, const char *path, const char *sha256,
                      const char *text)
{
    fputs("{\"type\":\"bot_source\"", f);
    if (tick >= 0)
        fprintf(f, ",\"tick\":%ld", tick);
    key_str(f, "path", path);
    key_str(f, "sha256", sha256);
    key_str(f, "text", text);
    return end_line(f);
}

int record_bot_reload(FILE *f, long tick, const char *id, const char *sha256)
{
    fprintf(f, "{\"type\":\"bot_reload\",\"tick\":%ld", tick);
    key_str(f, "id", id);
    key_str(f, "bot_sha256", sha256);
    return end_line(f);
}

int record_reload(FILE *f, long tick, uint64_t seed, const char *map_text)
{
    fprintf(f, "{\"type\":\"reload\",\"tick\":%ld", tick);
    put_seed(f, seed);
    key_str(f, "map_text", map_text);
    return end_line(f);
}

int record_input(FILE *f, long tick, const char *id, double turn, double speed,
                 double turret, int fire)
{
    char b[3][32];
    /* the values as the player's tank holds them: numbers that read back
     * to the same doubles (trace_number), so a replay sets the same */
    if (trace_number(b[0], turn) || trace_number(b[1], speed) || trace_number(b[2], turret))
        return -1;
    fprintf(f, "{\"type\":\"input\",\"tick\":%ld", tick);
    key_str(f, "id", id);
    fprintf(f, ",\"turn\":%s,\"speed\":%s,\"turret\":%s,\"fire\":%s", b[0], b[1], b[2],
            fire ? "true" : "false");
    return end_line(f);
}

int record_tune(FILE *f, long tick, const char *section, const char *key,
                const char *value)
{
    fprintf(f, "{\"type\":\"tune\",\"tick\":%ld", tick);
    key_str(f, "section", section);
    key_str(f, "key", key);
    key_str(f, "value", value);
    return end_line(f);
}

int record_hash_world(FILE *f, const char *type, long tick, uint64_t hash, uint64_t world)
{
    fputs("{\"type\":", f);
    trace_string(f, type);
    fprintf(f, ",\"tick\":%ld,\"hash\":\"%016" PRIx64 "\",\"world\":\"%016" PRIx64 "\"",
            tick, hash, world);
    return end_line(f);
}

int record_intent(FILE *f, long tick, const char *id, const struct record_intent *in)
{
    char b[5][32];
    /* numbers that read back to the same doubles, as an input's */
    if (trace_number(b[0], in->turn) || trace_number(b[1], in->speed)
        || trace_number(b[2], in->turret) || trace_number(b[3], in->radar)
        || trace_number(b[4], in->has_race ? in->race_turn : 0))
        return -1;
    fprintf(f, "{\"type\":\"intent\",\"tick\":%ld", tick);
    key_str(f, "id", id);
    fprintf(f, ",\"turn\":%s,\"speed\":%s,\"turret\":%s,\"fire\":%s,\"radar\":%s,"
            "\"say\":\"", b[0], b[1], b[2], in->fire ? "true" : "false", b[3]);
    for (size_t k = 0; k < in->say_len; k++)
        fprintf(f, "%02x", in->say[k]);
    fputc('"', f);
    if (in->has_race)
        fprintf(f, ",\"race_turn\":%s", b[4]);
    return end_line(f);
}

int record_hash(FILE *f, const char *type, long tick, uint64_t hash)
{
    fputs("{\"type\":", f);
    trace_string(f, type);
    fprintf(f, ",\"tick\":%ld,\"hash\":\"%016" PRIx64 "\"", tick, hash);
    return end_line(f);
}
