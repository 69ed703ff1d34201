/* replay_read.c — a recording read and checked line by line, with
 * jansson (replay_read.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/grow.h"
#include "io/bot_limits.h"
#include "map.h"
#include "record.h"
#include "replay_read.h"

/* A line holds at most one map (64 MiB), each byte written as at most
 * six ("\u001f"), plus its keys. */
/* --set settings a recording may carry (main.c takes any number; a
 * command line holds far fewer). */
#define REPLAY_SET_MAX 4096
#define LINE_MAX_BYTES ((size_t)MAP_MAX_FILE_BYTES * 6 + 65536)
/* A bot_source line holds one script (BOT_SCRIPT_MAX), escaped the same. */
#define SCRIPT_LINE_MAX ((size_t)BOT_SCRIPT_MAX * 6 + 65536)
/* Any other line holds at most three strings of 4,096 bytes (a tune),
 * escaped, and a few numbers. */
#define SMALL_LINE_MAX ((size_t)128 << 10)
/* The most keys a line has (an intent's). */
#define LINE_MAX_KEYS 10
/* The header's keys (type format version lua seed map_path map_text set). */
#define HEADER_MAX_KEYS 8
/* A tick beyond this is no tick a run reaches. */
#define TICK_MAX (LONG_MAX / 2)

#define REPLAY_NAME(id, name) name,
static const char *const type_names[] = { REPLAY_TYPE_LIST(REPLAY_NAME) NULL };

char *replay_msg(const char *file, long line, const char *fmt, ...)
{
    char body[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    /* The body quotes the recording (a key, a tune's value) and maybe a
     * map's messages, one a line. */
    char *safe = text_printable(body, 1);
    if (!safe)
        return NULL;
    size_t n = strlen(file) + strlen(safe) + 32;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s:%ld: %s\n", file, line, safe);
    free(safe);
    return s;
}

void replay_free(struct replay *r)
{
    for (size_t k = 0; k < r->n; k++) {
        struct replay_line *l = &r->lines[k];
        free(l->path);
        free(l->sha256);
        free(l->text);
        free(l->id);
        free(l->section);
        free(l->key);
        free(l->value);
        free(l->say);
    }
    free(r->lines);
    free(r->version);
    free(r->lua);
    free(r->map_path);
    free(r->map_text);
    for (int i = 0; i < r->nset; i++)
        free(r->set[i]);
    free(r->set);
    memset(r, 0, sizeof *r);
}

/* ---- one line, bounded ------------------------------------------------- */

enum text_line text_getline(FILE *f, char **buf, size_t *cap, size_t max, size_t *len)
{
    size_t n = 0;
    int c;
    *len = 0;
    while ((c = getc(f)) != EOF) {
        if (c == 0) {
            *len = n;
            return TEXT_NUL;
        }
        if (n == max) {
            *len = n;
            return TEXT_LONG;
        }
        if (n + 2 > *cap) {     /* room for c and the terminating NUL */
            size_t want = *cap ? *cap * 2 : 4096;
            if (want > max + 2)
                want = max + 2;
            char *p = realloc(*buf, want);
            if (!p)
                return TEXT_NOMEM;
            *buf = p;
            *cap = want;
        }
        (*buf)[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n)
        (*buf)[n] = 0;
    *len = n;
    if (c == EOF && ferror(f))
        return TEXT_ERROR;
    return n ? TEXT_LINE : TEXT_EOF;
}

/* ---- a line's shape --------------------------------------------------------- */

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The end of the string whose opening quote is at s[i - 1]: the index of
 * its closing quote, or n when it has none. */
static size_t string_end(const char *s, size_t n, size_t i)
{
    while (i < n && s[i] != '"')
        i += s[i] == '\\' ? 2 : 1;
    return i < n ? i : n;
}

void json_shape_scan(const char *s, size_t n, struct json_shape *sh)
{
    memset(sh, 0, sizeof *sh);
    size_t i = 0;
    while (i < n && blank(s[i]))
        i++;
    sh->object = i < n && s[i] == '{';
    /* key_next: a key of the outer object comes next; value_next: its
     * value; is_type: that key is "type". */
    int depth = 0, key_next = 0, value_next = 0, is_type = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '"') {
            size_t start = i + 1;
            i = string_end(s, n, start);
            if (depth == 2)
                sh->deep_strings++;
            if (depth == 1 && key_next) {
                sh->members++;
                is_type = i - start == 4 && !memcmp(s + start, "type", 4);
            } else if (depth == 1 && value_next && is_type && !sh->type) {
                sh->type = s + start;
                sh->type_len = i - start;
            }
            key_next = value_next = 0;
            continue;
        }
        if (c == '{' || c == '[') {
            if (c == '[' && !sh->array_at)
                sh->array_at = i + 1;
            if (++depth > sh->depth)
                sh->depth = depth;
            if (depth == 2) {
                sh->deep_opens++;
                if (c == '{' && !sh->deep_object_at)
                    sh->deep_object_at = i + 1;
            }
            if (depth == 2 && !sh->deep_at) {
                sh->deep_at = i + 1;
                sh->deep_char = c;
            }
            if (depth == 3 && !sh->deeper_at)
                sh->deeper_at = i + 1;
            key_next = depth == 1 && c == '{';
        } else if (c == '}' || c == ']') {
            depth--;
        } else if (c == ',') {
            key_next = depth == 1;
        } else if (c == ':') {
            value_next = depth == 1;
            continue;
        } else if (blank(c)) {
            continue;
        } else if (depth == 2 && !sh->deep_scalar_at) {
            sh->deep_scalar_at = i + 1;
        }
        value_next = 0;
    }
}

int json_shape_type_is(const struct json_shape *sh, const char *name)
{
    return sh->type && sh->type_len == strlen(name) && !memcmp(sh->type, name, sh->type_len);
}

/* ---- one line's fields ---------------------------------------------------- */

struct reader {
    const char *file;
    long line;
    char *err;                  /* the first problem, malloc'd */
};

static int bad(struct reader *rd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int bad(struct reader *rd, const char *fmt, ...)
{
    if (rd->err)
        return -1;
    char body[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    char *safe = text_printable(body, 0);     /* one line */
    rd->err = safe ? replay_msg(rd->file, rd->line, "%s", safe) : NULL;
    free(safe);
    if (!rd->err)
        rd->err = strdup("out of memory reading the recording\n");
    return -1;
}

/* Every key of o must be in `allowed` (a space-separated list). */
static int only_keys(struct reader *rd, json_t *o, const char *type, const char *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        size_t n = strlen(k);
        const char *p = allowed;
        int found = 0;
        while (*p && !found) {
            const char *e = strchr(p, ' ');
            size_t m = e ? (size_t)(e - p) : strlen(p);
            found = m == n && !strncmp(p, k, n);
            p += m + (e != NULL);
        }
        if (!found)
            return bad(rd, "a %s line has an unknown key \"%.64s\"; its keys are: %s",
                       type, k, allowed);
    }
    return 0;
}

static json_t *need(struct reader *rd, json_t *o, const char *type, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        bad(rd, "a %s line without \"%s\"; it is required", type, key);
    return v;
}

static int get_str(struct reader *rd, json_t *o, const char *type, const char *key,
                   size_t max, char **out)
{
    json_t *v = need(rd, o, type, key);
    if (!v)
        return -1;
    if (!json_is_string(v))
        return bad(rd, "%s \"%s\" is not a string; a JSON string is expected", type, key);
    size_t n = json_string_length(v);
    if (n > max)
        return bad(rd, "%s \"%s\" is %zu bytes; at most %zu are allowed", type, key, n, max);
    if (!(*out = strdup(json_string_value(v))))
        return bad(rd, "out of memory");
    return 0;
}

static int get_tick(struct reader *rd, json_t *o, const char *type, long *out)
{
    json_t *v = need(rd, o, type, "tick");
    if (!v)
        return -1;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > TICK_MAX)
        return bad(rd, "%s \"tick\" is not a tick; a whole number from 0 to %ld is expected",
                   type, (long)TICK_MAX);
    *out = (long)json_integer_value(v);
    return 0;
}

static int get_num(struct reader *rd, json_t *o, const char *type, const char *key,
                   double *out)
{
    json_t *v = need(rd, o, type, key);
    if (!v)
        return -1;
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return bad(rd, "%s \"%s\" is not a number; a finite JSON number is expected",
                   type, key);
    *out = json_number_value(v);
    return 0;
}

static int get_hash(struct reader *rd, json_t *o, const char *type, const char *key,
                    uint64_t *out)
{
    char *s = NULL;
    if (get_str(rd, o, type, key, 64, &s))
        return -1;
    int ok = strlen(s) == 16;
    for (const char *p = s; ok && *p; p++)
        ok = (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F');
    if (ok)
        *out = strtoull(s, NULL, 16);
    free(s);
    return ok ? 0 : bad(rd, "%s \"%s\" is not 16 hex digits; a 64-bit hash in hex "
                        "(\"0123456789abcdef\") is expected", type, key);
}

/* A seed: a whole number, or past 2^63 a string of digits (a JSON
 * reader's integers stop there). */
static int get_seed(struct reader *rd, json_t *o, const char *type, uint64_t *out)
{
    json_t *s = need(rd, o, type, "seed");
    if (!s)
        return -1;
    const char *digits = json_is_string(s) ? json_string_value(s) : NULL;
    int ok = json_is_integer(s) ? json_integer_value(s) >= 0 : digits && *digits
             && strlen(digits) <= 20 && strspn(digits, "0123456789") == strlen(digits);
    if (ok && digits) {
        errno = 0;
        *out = strtoull(digits, NULL, 10);
        ok = errno == 0;
    } else if (ok) {
        *out = (uint64_t)json_integer_value(s);
    }
    return ok ? 0 : bad(rd, "%s \"seed\" is not a seed; a whole number from 0 to "
                        "18446744073709551615 is expected", type);
}

/* ---- the header ----------------------------------------------------------- */

/* "set": the run's --set settings, each "SECTION.KEY=VALUE" (a recording
 * made before they were kept has none: the map's text as it is).  Their
 * values are checked by the map loader when the replay applies them. */
static int get_sets(struct reader *rd, json_t *o, struct replay *r)
{
    json_t *a = json_object_get(o, "set");
    if (!a)
        return 0;
    if (!json_is_array(a) || json_array_size(a) > REPLAY_SET_MAX)
        return bad(rd, "recording \"set\" is not a list of settings; an array of at most "
                   "%d strings \"SECTION.KEY=VALUE\" is expected", REPLAY_SET_MAX);
    size_t n = json_array_size(a);
    if (!(r->set = calloc(n ? n : 1, sizeof *r->set)))
        return bad(rd, "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        const char *s = json_is_string(v) ? json_string_value(v) : NULL;
        const char *eq = s ? strchr(s, '=') : NULL;
        int control = 0;    /* a line break would write lines of its own into the map */
        for (const unsigned char *c = (const unsigned char *)s; s && *c; c++)
            control |= *c < 0x20 || *c == 0x7f;
        if (!eq || eq == s || !memchr(s, '.', (size_t)(eq - s)) || control
            || json_string_length(v) != strlen(s) || json_string_length(v) > MAP_MAX_FILE_BYTES)
            return bad(rd, "recording \"set\" item %zu is not a setting; each is a string "
                       "\"SECTION.KEY=VALUE\" as --set takes it, without control "
                       "characters", i + 1);
        if (!(r->set[i] = strdup(s)))
            return bad(rd, "out of memory");
        r->nset = (int)i + 1;
    }
    return 0;
}

static int read_header(struct reader *rd, json_t *o, struct replay *r)
{
    json_t *t = json_object_get(o, "type");
    if (!json_is_string(t) || strcmp(json_string_value(t), "recording"))
        return bad(rd, "the first line is not a recording's header; a recording starts "
                   "with {\"type\":\"recording\",\"format\":%d,...}", RECORD_FORMAT);
    json_t *f = need(rd, o, "recording", "format");
    if (!f)
        return -1;
    if (!json_is_integer(f))
        return bad(rd, "recording \"format\" is not a whole number; this botfield reads "
                   "format %d", RECORD_FORMAT);
    if (json_integer_value(f) != RECORD_FORMAT)
        return bad(rd, "format %" JSON_INTEGER_FORMAT ": this botfield reads format %d",
                   json_integer_value(f), RECORD_FORMAT);
    if (only_keys(rd, o, "recording", "type format version lua seed map_path map_text set"))
        return -1;
    if (get_str(rd, o, "recording", "version", 256, &r->version)
        || get_str(rd, o, "recording", "lua", 256, &r->lua)
        || get_str(rd, o, "recording", "map_path", 4096, &r->map_path)
        || get_str(rd, o, "recording", "map_text", MAP_MAX_FILE_BYTES, &r->map_text)
        || get_sets(rd, o, r))
        return -1;
    return get_seed(rd, o, "recording", &r->seed);
}

/* ---- the other lines ------------------------------------------------------ */

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* An intent's "say": out.say's encoded bytes in hex, "" for none, at
 * most REPLAY_SAY_MAX bytes (what the replay's bots decode is checked
 * before the run). */
static int get_say(struct reader *rd, json_t *o, struct replay_line *l)
{
    char *s = NULL;
    if (get_str(rd, o, "intent", "say", 2 * REPLAY_SAY_MAX, &s))
        return -1;
    size_t n = strlen(s);
    int ok = n % 2 == 0;
    for (size_t k = 0; ok && k < n; k++)
        ok = hex_digit(s[k]) >= 0;
    if (ok && n && !(l->say = malloc(n / 2))) {
        free(s);
        return bad(rd, "out of memory");
    }
    for (size_t k = 0; ok && k < n / 2; k++)
        l->say[k] = (unsigned char)(hex_digit(s[2 * k]) * 16 + hex_digit(s[2 * k + 1]));
    l->say_len = ok ? n / 2 : 0;
    free(s);
    return ok ? 0 : bad(rd, "intent \"say\" is not hex bytes; an even number of hex "
                        "digits (at most %d bytes), \"\" for nothing said", REPLAY_SAY_MAX);
}

/* {"type":"intent",...}: what a vehicle's bot decided on its tick. */
static int read_intent(struct reader *rd, json_t *o, struct replay_line *l)
{
    const char *name = "intent";
    if (only_keys(rd, o, name, "type tick id turn speed turret fire radar say race_turn")
        || get_tick(rd, o, name, &l->tick)
        || get_str(rd, o, name, "id", 4096, &l->id)
        || get_num(rd, o, name, "turn", &l->turn)
        || get_num(rd, o, name, "speed", &l->speed)
        || get_num(rd, o, name, "turret", &l->turret)
        || get_num(rd, o, name, "radar", &l->radar)
        || get_say(rd, o, l))
        return -1;
    l->has_race = json_object_get(o, "race_turn") != NULL;
    if (l->has_race && get_num(rd, o, name, "race_turn", &l->race_turn))
        return -1;
    json_t *f = need(rd, o, name, "fire");
    if (!f)
        return -1;
    if (!json_is_boolean(f))
        return bad(rd, "intent \"fire\" is not true or false; a JSON boolean is expected");
    l->fire = json_is_true(f);
    return 0;
}

static int read_line(struct reader *rd, json_t *o, struct replay_line *l)
{
    json_t *t = json_object_get(o, "type");
    if (!t)
        return bad(rd, "a line without \"type\"; every line has one");
    const char *name = json_is_string(t) ? json_string_value(t) : "";
    int k = 0;
    while (type_names[k] && strcmp(type_names[k], name))
        k++;
    if (!type_names[k])
        return bad(rd, "unknown type \"%.64s\"; the types are recording (first line), "
                   "bot_source, input, tune, reload, checkpoint, end, bot_reload, intent",
                   name);
    l->type = (enum replay_type)k;
    l->tick = -1;
    switch (l->type) {
    case RL_BOT_SOURCE:
        if (only_keys(rd, o, name, "type tick path sha256 text"))
            return -1;
        if (json_object_get(o, "tick") && get_tick(rd, o, name, &l->tick))
            return -1;
        return get_str(rd, o, name, "path", 4096, &l->path)
            || get_str(rd, o, name, "sha256", 64, &l->sha256)
            || get_str(rd, o, name, "text", MAP_MAX_FILE_BYTES, &l->text) ? -1 : 0;
    case RL_INPUT: {
        if (only_keys(rd, o, name, "type tick id turn speed turret fire")
            || get_tick(rd, o, name, &l->tick)
            || get_str(rd, o, name, "id", 4096, &l->id)
            || get_num(rd, o, name, "turn", &l->turn)
            || get_num(rd, o, name, "speed", &l->speed)
            || get_num(rd, o, name, "turret", &l->turret))
            return -1;
        json_t *f = need(rd, o, name, "fire");
        if (!f)
            return -1;
        if (!json_is_boolean(f))
            return bad(rd, "input \"fire\" is not true or false; a JSON boolean is expected");
        l->fire = json_is_true(f);
        return 0;
    }
    case RL_TUNE:
        return only_keys(rd, o, name, "type tick section key value")
            || get_tick(rd, o, name, &l->tick)
            || get_str(rd, o, name, "section", 4096, &l->section)
            || get_str(rd, o, name, "key", 4096, &l->key)
            || get_str(rd, o, name, "value", 4096, &l->value) ? -1 : 0;
    case RL_RELOAD:
        if (only_keys(rd, o, name, "type tick seed map_text"))
            return -1;
        l->has_seed = json_object_get(o, "seed") != NULL;
        if (l->has_seed && get_seed(rd, o, name, &l->seed))
            return -1;
        return get_tick(rd, o, name, &l->tick)
            || get_str(rd, o, name, "map_text", MAP_MAX_FILE_BYTES, &l->text) ? -1 : 0;
    case RL_BOT_RELOAD:
        /* botfield-bots(7): a live reload writes {"type":"bot_reload","tick":T,
         * "id":ID,"bot_sha256":...}; the script itself is the bot_source
         * line of its tick, so a replay only reads this one. */
        return only_keys(rd, o, name, "type tick id bot_sha256")
            || get_tick(rd, o, name, &l->tick)
            || get_str(rd, o, name, "id", 4096, &l->id)
            || get_str(rd, o, name, "bot_sha256", 64, &l->sha256) ? -1 : 0;
    case RL_CHECKPOINT:
    case RL_END:
        if (only_keys(rd, o, name, "type tick hash world")
            || get_tick(rd, o, name, &l->tick)
            || get_hash(rd, o, name, "hash", &l->hash))
            return -1;
        l->has_world = json_object_get(o, "world") != NULL;
        return l->has_world ? get_hash(rd, o, name, "world", &l->world) : 0;
    case RL_INTENT:
        return read_intent(rd, o, l);
    }
    return bad(rd, "unknown type");
}

/* The order: starting scripts right after the header, then the timed
 * lines with ticks that never go back (a map reload starts the count
 * again at 0), two checkpoints never on one tick, nothing after end.
 * A recorder writes a checkpoint every RECORD_CHECKPOINT_TICKS, so no
 * line is further than that from the last one (or from the start): a
 * line that is would make a replay compute ticks nothing checks, without
 * bound (an end line at tick 2^62), and is refused. */
struct order { long last_tick, last_check, since; int timed, ended; };

static int check_order(struct reader *rd, struct order *o, const struct replay_line *l)
{
    const char *name = type_names[l->type];
    if (o->ended)
        return bad(rd, "a %s line after the end line; end is the last line", name);
    if (l->type == RL_BOT_SOURCE && l->tick < 0) {
        if (o->timed)
            return bad(rd, "a bot_source without \"tick\" after timed lines; the scripts "
                       "of the start come right after the header, a later one has a tick");
        return 0;
    }
    if (l->tick < o->last_tick)
        return bad(rd, "%s at tick %ld after tick %ld; ticks never go back", name,
                   l->tick, o->last_tick);
    if (l->type == RL_CHECKPOINT && l->tick == o->last_check)
        return bad(rd, "a second checkpoint at tick %ld; one a tick", l->tick);
    if (l->tick - o->since > RECORD_CHECKPOINT_TICKS)
        return bad(rd, "%s at tick %ld with no checkpoint since tick %ld%s; a recording "
                   "has one every %d ticks", name, l->tick, o->since,
                   o->since == 0 && o->last_check < 0 ? " (the start)" : "",
                   RECORD_CHECKPOINT_TICKS);
    o->timed = 1;
    if (l->type == RL_CHECKPOINT)
        o->since = l->tick;
    o->last_tick = l->tick;
    if (l->type == RL_CHECKPOINT || l->type == RL_END)
        o->last_check = l->tick;
    if (l->type == RL_RELOAD)
        o->last_tick = 0, o->last_check = -1, o->since = 0;  /* the new map starts at 0 */
    o->ended = l->type == RL_END;
    return 0;
}

static int add_line(struct replay *r, struct replay_line **out)
{
    if (grow_reserve(&r->lines, &r->cap, r->n + 1, sizeof *r->lines))
        return -1;
    *out = &r->lines[r->n++];
    memset(*out, 0, sizeof **out);
    return 0;
}

/* The longest line of the type the shape names: a map's (the header, a
 * reload; an unknown or escaped type too, which parsing then refuses),
 * a script's, or a small one. */
static size_t line_limit(const struct json_shape *sh, int first)
{
    if (first || json_shape_type_is(sh, "bot_source"))
        return first ? LINE_MAX_BYTES : SCRIPT_LINE_MAX;
    for (int k = 0; type_names[k]; k++)
        if (json_shape_type_is(sh, type_names[k]))
            return k == RL_RELOAD ? LINE_MAX_BYTES : SMALL_LINE_MAX;
    return LINE_MAX_BYTES;
}

/* What the format never holds, refused from the line's shape before
 * jansson builds it (replay_read.h, json_shape). */
static int check_shape(struct reader *rd, const char *buf, size_t len, int first)
{
    struct json_shape sh;
    json_shape_scan(buf, len, &sh);
    if (!sh.object)
        return bad(rd, "not a JSON object; each line is one object {\"type\":...}");
    /* the header's "set" is the one list: one array of strings */
    int set_list = first && sh.depth == 2 && sh.deep_opens == 1 && !sh.deep_object_at
                   && !sh.deep_scalar_at && sh.deep_strings <= REPLAY_SET_MAX;
    if (first && sh.depth == 2 && sh.deep_opens == 1 && !sh.deep_object_at && !set_list)
        return bad(rd, "the header's list at byte %zu holds %s; \"set\" is a list of at most "
                   "%d strings \"SECTION.KEY=VALUE\"", sh.deep_at,
                   sh.deep_scalar_at ? "a value that is not a string" : "too many items",
                   REPLAY_SET_MAX);
    if (sh.depth > 1 && !set_list)
        return bad(rd, "a nested %s at byte %zu; a recording line is one flat JSON object "
                   "whose values are strings, numbers, true or false (the header's "
                   "\"set\" alone is a list of strings)",
                   sh.deep_object_at || sh.deep_char == '{' ? "object" : "array",
                   sh.deep_object_at ? sh.deep_object_at : sh.deep_at);
    int most = first ? HEADER_MAX_KEYS : LINE_MAX_KEYS;
    if (sh.members > most)
        return bad(rd, "a line of %ld keys; a recording line has at most %d (its type's "
                   "keys, each once)", sh.members, most);
    size_t max = line_limit(&sh, first);
    if (len > max)
        return bad(rd, "this %.*s line is %zu bytes; at most %zu are allowed (what "
                   "its fields can hold, escaped)", sh.type_len > 16 ? 16 : (int)sh.type_len,
                   sh.type ? sh.type : "", len, max);
    return 0;
}

static int parse(struct reader *rd, char *buf, size_t len, struct replay *r, int first,
                 struct order *ord)
{
    if (check_shape(rd, buf, len, first))
        return -1;
    json_error_t je;
    json_t *o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!o)
        return bad(rd, "not JSON (%.200s, column %d); each line is one JSON object",
                   je.text, je.column);
    int rc;
    if (!json_is_object(o)) {
        rc = bad(rd, "not a JSON object; each line is one object {\"type\":...}");
    } else if (first) {
        rc = read_header(rd, o, r);
    } else {
        struct replay_line *l = NULL;
        rc = add_line(r, &l) ? bad(rd, "out of memory") : 0;
        if (!rc) {
            l->line = rd->line;
            rc = read_line(rd, o, l) || check_order(rd, ord, l) ? -1 : 0;
        }
    }
    json_decref(o);
    return rc;
}

/* A recording with intents checks its replays by "world" (botfield(6)):
 * then every checkpoint and end line has one. */
static int check_worlds(struct reader *rd, const struct replay *r)
{
    int intents = 0;
    for (size_t k = 0; k < r->n && !intents; k++)
        intents = r->lines[k].type == RL_INTENT;
    for (size_t k = 0; intents && k < r->n; k++) {
        const struct replay_line *l = &r->lines[k];
        if ((l->type == RL_CHECKPOINT || l->type == RL_END) && !l->has_world) {
            rd->line = l->line;
            return bad(rd, "a %s line without \"world\" in a recording with intent "
                       "lines; each checkpoint and end of such a recording has one",
                       type_names[l->type]);
        }
    }
    return 0;
}

int replay_read(const char *path, struct replay *r, char **err, char **warn)
{
    memset(r, 0, sizeof *r);
    *err = *warn = NULL;
    int to_stdin = !strcmp(path, "-");
    FILE *f = to_stdin ? stdin : fopen(path, "r");
    if (!f) {
        size_t n = strlen(path) + 128;
        if ((*err = malloc(n)))
            snprintf(*err, n, "%s: cannot open the recording: %s\n", path, strerror(errno));
        return -1;
    }
    struct reader rd = { path, 0, NULL };
    struct order ord = { 0, -1, 0, 0, 0 };
    char *buf = NULL;
    size_t cap = 0, len = 0;
    enum text_line got = TEXT_LINE;
    int rc = 0;
    while (rc == 0 && (got = text_getline(f, &buf, &cap, LINE_MAX_BYTES, &len)) != TEXT_EOF) {
        rd.line++;
        if (got == TEXT_LONG) {
            rc = bad(&rd, "a line longer than %zu bytes; at most %zu are allowed (a line "
                     "holds at most one map or script, 64 MiB, escaped)", LINE_MAX_BYTES,
                     LINE_MAX_BYTES);
            break;
        }
        if (got == TEXT_NUL) {
            rc = bad(&rd, "a NUL byte at byte %zu; a recording is text (JSON Lines)",
                     len + 1);
            break;
        }
        if (got == TEXT_NOMEM) {
            rc = bad(&rd, "out of memory reading the recording");
            break;
        }
        if (got == TEXT_ERROR) {
            rc = bad(&rd, "cannot read the recording: %s", strerror(errno));
            break;
        }
        if (len == 0 || buf[len - 1] != '\n') {
            /* Cut short: the run was stopped while writing it. */
            if (rd.line == 1) {
                rc = bad(&rd, "the header line is cut short (no newline); nothing to replay");
                break;
            }
            *warn = replay_msg(path, rd.line, "warning: the last line is cut short (no "
                               "newline) and left out; the replay stops at the line before");
            r->cut = 1;
            break;
        }
        rc = parse(&rd, buf, len - 1, r, rd.line == 1, &ord);
    }
    if (rc == 0 && rd.line == 0)
        rc = bad(&rd, "an empty file; a recording starts with its header line");
    if (rc == 0)
        rc = check_worlds(&rd, r);
    free(buf);
    if (!to_stdin)
        fclose(f);
    if (rc) {
        *err = rd.err;
        replay_free(r);
        return -1;
    }
    return 0;
}

/* ---- a recording as it grows (--follow) ----------------------------------- */

struct replay_stream {
    struct reader rd;
    struct order ord;
    char *buf;                  /* bytes put, from off on not yet taken */
    size_t off, n, cap;
    long seen;                  /* the last tick whole: a now line's, or the
                                   one before a line's */
    long last_reload;           /* the index of the last reload line, -1 */
    int header, done;
};

struct replay_stream *replay_stream_new(const char *name)
{
    struct replay_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->rd.file = name;
    replay_stream_next(s);
    return s;
}

void replay_stream_free(struct replay_stream *s)
{
    if (!s)
        return;
    free(s->rd.err);
    free(s->buf);
    free(s);
}

void replay_stream_next(struct replay_stream *s)
{
    free(s->rd.err);
    s->rd.err = NULL;
    s->rd.line = 0;
    s->ord = (struct order){ 0, -1, 0, 0, 0 };
    s->seen = -1;
    s->last_reload = -1;
    s->header = s->done = 0;
}

int replay_stream_put(struct replay_stream *s, const char *p, size_t n)
{
    if (s->off > 0 && s->off == s->n)
        s->off = s->n = 0;
    if (s->off > (1u << 20) && s->off > s->n / 2) {    /* taken bytes given back */
        memmove(s->buf, s->buf + s->off, s->n - s->off);
        s->n -= s->off;
        s->off = 0;
    }
    if (grow_reserve(&s->buf, &s->cap, s->n + n + 1, 1))
        return -1;
    memcpy(s->buf + s->n, p, n);
    s->n += n;
    return 0;
}

long replay_stream_seen(const struct replay_stream *s) { return s->seen; }
long replay_stream_last_reload(const struct replay_stream *s) { return s->last_reload; }
int replay_stream_done(const struct replay_stream *s) { return s->done; }
int replay_stream_has_header(const struct replay_stream *s) { return s->header; }
size_t replay_stream_pending(const struct replay_stream *s) { return s->n - s->off; }

/* A {"type":"now","tick":T} line: the sender's recording has reached T,
 * so every tick before T is known (a stream's line only, never a file's). */
static int stream_now(struct replay_stream *s, const char *line, size_t len)
{
    struct reader *rd = &s->rd;
    json_error_t je;
    json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
    int rc = 0;
    json_t *t = o ? json_object_get(o, "tick") : NULL;
    if (!o)
        rc = bad(rd, "not JSON (%.200s, column %d); each line is one JSON object",
                 je.text, je.column);
    else if (only_keys(rd, o, "now", "type tick"))
        rc = -1;
    else if (!json_is_integer(t) || json_integer_value(t) < 0
             || json_integer_value(t) > TICK_MAX)
        rc = bad(rd, "now \"tick\" is not a tick (a whole number from 0)");
    else if (json_integer_value(t) > s->seen)
        s->seen = (long)json_integer_value(t);
    json_decref(o);
    return rc;
}

/* One whole line of the stream (len without its newline). */
static int stream_line(struct replay_stream *s, struct replay *r, char *line, size_t len)
{
    struct json_shape sh;
    json_shape_scan(line, len, &sh);
    if (s->header && json_shape_type_is(&sh, "now"))
        return stream_now(s, line, len);
    size_t n0 = r->n;
    if (parse(&s->rd, line, len, r, !s->header, &s->ord))
        return -1;
    s->header = 1;
    if (r->n > n0) {
        const struct replay_line *l = &r->lines[r->n - 1];
        if (l->type == RL_RELOAD) {
            s->last_reload = (long)(r->n - 1);
            s->seen = 0;
        } else if (l->tick - 1 > s->seen)
            s->seen = l->tick - 1;  /* tick's own lines (one vehicle's
                                       intent after another's) may still come */
        s->done = l->type == RL_END;
    }
    return 0;
}

int replay_stream_take(struct replay_stream *s, struct replay *r, char **err)
{
    *err = NULL;
    /* (nothing read yet: no buffer, and memchr takes no NULL) */
    while (!s->done && !s->rd.err && s->off < s->n) {
        char *p = s->buf + s->off, *nl = memchr(p, '\n', s->n - s->off);
        if (!nl) {
            if (s->n - s->off > LINE_MAX_BYTES)
                bad(&s->rd, "a line longer than %zu bytes; at most %zu are allowed",
                    LINE_MAX_BYTES, LINE_MAX_BYTES);
            break;
        }
        size_t len = (size_t)(nl - p);
        if (memchr(p, 0, len)) {
            s->rd.line++;
            bad(&s->rd, "a NUL byte; a recording is text (JSON Lines)");
            break;
        }
        /* A new header: this recording is whole, the next one waits. */
        struct json_shape sh;
        json_shape_scan(p, len, &sh);
        if (s->header && json_shape_type_is(&sh, "recording")) {
            s->done = 1;
            break;
        }
        s->rd.line++;
        s->off += len + 1;
        if (stream_line(s, r, p, len))
            break;
    }
    if (s->rd.err) {
        *err = strdup(s->rd.err);
        return -1;
    }
    return 0;
}
