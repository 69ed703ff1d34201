/* requests.c — the daemon's answers (requests.h).  A request comes from
 * arena-shell, which checked it, but it is checked again here: the
 * socket is the only door, and nothing it says is used unchecked. */
#include "requests.h"
#include "ladder_run.h"
#include "store.h"
#include "bot/bot.h"
#include "io/bot_limits.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char arena_help_text[] =
    "commands (ssh ARENA COMMAND):\n"
    "  watch                  the live matches (needs a terminal: ssh -t)\n"
    "  submit BOT < bot.lua   store your bot BOT and enter it in the ladder\n"
    "  bots                   your bots: submitted, matches, rating, last error\n"
    "  log BOT                your bot's recent errors and log lines\n"
    "  ladder [--json]        the ratings\n"
    "  matches [N]            the last N matches (default 20)\n"
    "  fetch MATCH > m.rec    a match's recording, for botfield --replay m.rec\n"
    "  help                   this list\n"
    "names of bots: a to z, 0 to 9, '_' and '-', 1 to 32 of them\n";

size_t arena_request_max(const struct arena_settings *s)
{
    return (size_t)s->max_script * 6 + 4096;
}

/* The reply line: exit status, stdout's text, stderr's text. */
static char *reply(int status, const char *out, const char *err)
{
    json_t *o = json_object();
    json_t *jo = json_string(out ? out : "");
    json_t *je = json_string(err ? err : "");
    if (!jo) /* not UTF-8: said, not sent */
        jo = json_string(""), status = 1, je = json_string("botfield: the answer is not text\n");
    json_object_set_new(o, "exit", json_integer(status));
    json_object_set_new(o, "out", jo);
    json_object_set_new(o, "err", je ? je : json_string(""));
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *line = realloc(s, n + 2);
    if (!line) {
        free(s);
        return NULL;
    }
    line[n] = '\n', line[n + 1] = 0;
    return line;
}

static char *fail(int status, const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    return reply(status, NULL, msg);
}

/* The ladder's text answer (NULL from the ladder: memory ran out). */
static char *text(char *t)
{
    char *r = t ? reply(0, t, NULL) : reply(1, NULL, "botfield: out of memory\n");
    free(t);
    return r;
}

char *arena_answer_too_big(const struct arena_settings *s)
{
    char lim[32];
    snprintf(lim, sizeof lim, "%ld", s->max_script);
    return fail(2, "submit: the script is larger than this arena's max_script, %s bytes\n", lim);
}

static struct arena_submitter *submitter(struct arena_daemon *d, const char *person)
{
    for (size_t i = 0; i < d->nsubs; i++)
        if (strcmp(d->subs[i].name, person) == 0)
            return &d->subs[i];
    if (d->nsubs == d->capsubs) {
        size_t cap = d->capsubs ? 2 * d->capsubs : 16;
        struct arena_submitter *s = realloc(d->subs, cap * sizeof *s);
        if (!s)
            return NULL;
        d->subs = s, d->capsubs = cap;
    }
    struct arena_submitter *s = &d->subs[d->nsubs++];
    snprintf(s->name, sizeof s->name, "%s", person);
    s->last = 0;
    return s;
}

/* How many bots the person has, other than `bot`; and the newest
 * submission's time (a restarted daemon keeps submit_every). */
static int count_bots(const char *dir, const char *person, const char *bot, time_t *newest)
{
    char path[PATH_MAX], self[64];
    snprintf(path, sizeof path, "%s/bots/%s", dir, person);
    snprintf(self, sizeof self, "%s.lua", bot);
    DIR *dp = opendir(path);
    int n = 0;
    for (struct dirent *e; dp && (e = readdir(dp));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || e->d_name[0] == '.' || strcmp(e->d_name + len - 4, ".lua") != 0)
            continue;
        struct stat st;
        if (fstatat(dirfd(dp), e->d_name, &st, 0) == 0 && st.st_mtime > *newest)
            *newest = st.st_mtime;
        n += strcmp(e->d_name, self) != 0;
    }
    if (dp)
        closedir(dp);
    return n;
}

/* The script checked as a map's bot key is at load: its size and bytes
 * (bot_script_from_bytes), then run once in the sandbox with the
 * strictest budget and heap of the arena's maps (bot_new: syntax, the
 * top level, a function tick): a script refused by a map in a match
 * is refused here instead. */
static char *check_script(struct arena_daemon *d, const char *rel, const char *script, size_t len)
{
    char err[1024];
    struct bot_script bs;
    if (bot_script_from_bytes(rel, script, len, &bs, err, sizeof err))
        return strdup(err);
    long budget = 0, kib = 0;
    if (d->ladder)
        arena_ladder_bot_limits(d->ladder, &budget, &kib);
    struct bot_limits lim = { budget > 0 ? budget : BOT_BUDGET_DEFAULT,
                              (size_t)(kib > 0 ? kib : BOT_MEMORY_KIB_DEFAULT) * 1024 };
    struct bot *b = bot_new(&bs, lim, err, sizeof err);
    bot_script_free(&bs);
    if (!b)
        return strdup(err);
    bot_free(b);
    return NULL;
}

static char *stored(struct arena_daemon *d, const char *person, const char *bot,
                    const char *script, size_t len)
{
    char folder[PATH_MAX], rel[128];
    snprintf(folder, sizeof folder, "%s/bots/%s", d->set->dir, person);
    snprintf(rel, sizeof rel, "bots/%s/%s.lua", person, bot);
    if ((mkdir(folder, 0700) && errno != EEXIST)
        || arena_write_atomic(d->set->dir, rel, script, len))
        return fail(1, "botfield: cannot store the bot: %s\n", strerror(errno));
    if (arena_ladder_add_bot(d->ladder, person, bot))
        return fail(1, "%s", "botfield: out of memory\n");
    char msg[256];
    snprintf(msg, sizeof msg, "stored %s/%s (%zu bytes); it enters the ladder\n", person, bot, len);
    return reply(0, msg, NULL);
}

static char *submit(struct arena_daemon *d, const char *person, json_t *req)
{
    const char *bot = json_string_value(json_object_get(req, "bot"));
    json_t *js = json_object_get(req, "script");
    if (!bot || !arena_name_ok(bot))
        return fail(2, "%s", "submit: a bot's name is a to z, 0 to 9, '_' and '-', 1 to 32 of them\n");
    if (!json_is_string(js))
        return fail(2, "%s", "submit: the script comes on standard input: ssh ARENA submit BOT < bot.lua\n");
    size_t len = json_string_length(js);
    if ((long)len > d->set->max_script) {
        char lim[32];
        snprintf(lim, sizeof lim, "%ld", d->set->max_script);
        return fail(2, "submit: the script is larger than this arena's max_script, %s bytes\n", lim);
    }
    struct arena_submitter *s = submitter(d, person);
    time_t now = time(NULL), newest = s ? s->last : 0;
    int others = count_bots(d->set->dir, person, bot, &newest);
    if (!s)
        return fail(1, "%s", "botfield: out of memory\n");
    if (d->set->submit_every > 0 && newest && now < newest + d->set->submit_every) {
        char wait[32];
        snprintf(wait, sizeof wait, "%ld", (long)(newest + d->set->submit_every - now));
        return fail(2, "submit: one submission every submit_every seconds here; try again in %s s\n", wait);
    }
    if (others >= d->set->bots_per_person) {
        char max[32];
        snprintf(max, sizeof max, "%d", d->set->bots_per_person);
        return fail(2, "submit: you have this arena's bots_per_person, %s bots; submit under one of their names to replace it\n", max);
    }
    char rel[128];
    snprintf(rel, sizeof rel, "bots/%s/%s.lua", person, bot);
    /* a refused script counts too: its check runs in the daemon's loop */
    s->last = now;
    char *bad = check_script(d, rel, json_string_value(js), len);
    if (bad) {
        char *r = fail(2, "%s\n", bad);
        free(bad);
        return r;
    }
    return stored(d, person, bot, json_string_value(js), len);
}

/* The person's bot: its script or its log is there (a bot replaced by a
 * failed submission keeps its log). */
static int have_bot(const char *dir, const char *person, const char *bot)
{
    char path[PATH_MAX];
    struct stat st;
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/bots/%s/%s%s", dir, person, bot, i ? ".log.jsonl" : ".lua");
        if (stat(path, &st) == 0)
            return 1;
    }
    return 0;
}

static char *dispatch(struct arena_daemon *d, const char *person, const char *cmd, json_t *req)
{
    json_t *jb = json_object_get(req, "bot");
    const char *bot = json_string_value(jb);
    if (strcmp(cmd, "submit") == 0)
        return submit(d, person, req);
    if (strcmp(cmd, "bots") == 0)
        return text(arena_ladder_bots(d->ladder, person));
    if (strcmp(cmd, "log") == 0) {
        if (!bot || !arena_name_ok(bot))
            return fail(2, "%s", "log: which bot? ssh ARENA log BOT\n");
        if (!have_bot(d->set->dir, person, bot))
            return fail(2, "log: you have no bot %s (see `bots`)\n", bot);
        return text(arena_ladder_log(d->ladder, person, bot));
    }
    if (strcmp(cmd, "ladder") == 0)
        return text(arena_ladder_table(d->ladder, json_is_true(json_object_get(req, "json"))));
    if (strcmp(cmd, "matches") == 0) {
        json_int_t n = json_integer_value(json_object_get(req, "n"));
        return text(arena_ladder_matches(d->ladder, n >= 1 && n <= 1000 ? (long)n : 20));
    }
    if (strcmp(cmd, "fetch") == 0) {
        json_int_t id = json_integer_value(json_object_get(req, "match"));
        char *err = NULL, *rec = id > 0 ? arena_ladder_fetch(d->ladder, person, (long)id, &err) : NULL;
        char *r = rec ? reply(0, rec, NULL) : reply(2, NULL, err ? err : "fetch: no such match\n");
        free(rec), free(err);
        return r;
    }
    if (strcmp(cmd, "help") == 0)
        return reply(0, arena_help_text, NULL);
    return reply(2, NULL, arena_help_text);
}

char *arena_answer(struct arena_daemon *d, const char *req, size_t n, char **watch)
{
    *watch = NULL;
    json_error_t je;
    json_t *o = json_loadb(req, n, JSON_REJECT_DUPLICATES, &je);
    const char *person = json_string_value(json_object_get(o, "person"));
    const char *cmd = json_string_value(json_object_get(o, "cmd"));
    char *r = NULL;
    if (!json_is_object(o) || !person || !arena_name_ok(person) || !cmd)
        r = reply(2, NULL, "botfield: a request the arena does not understand\n");
    else if (strcmp(cmd, "watch") != 0)
        r = dispatch(d, person, cmd, o);
    else if (!(*watch = strdup(person)))
        r = reply(1, NULL, "botfield: out of memory\n");
    json_decref(o);
    return r;
}
