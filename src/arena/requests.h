/* requests.h — what the daemon answers to one request line from
 * arena-shell (botfield-arena(7), COMMANDS). */
#ifndef BOTFIELD_ARENA_REQUESTS_H
#define BOTFIELD_ARENA_REQUESTS_H

#include <stddef.h>
#include <time.h>

#include "settings.h"

struct arena_ladder;

/* One person's last submission, for submit_every. */
struct arena_submitter { char name[33]; time_t last; };

struct arena_daemon {
    const struct arena_settings *set;
    struct arena_ladder *ladder;
    struct arena_submitter *subs;
    size_t nsubs, capsubs;
};

/* The requests' size bound: a script of max_script bytes, each escaped
 * as at most six in JSON, and the rest. */
size_t arena_request_max(const struct arena_settings *s);

/* The reply to a request larger than arena_request_max: exit 2 naming
 * max_script (a script too big is the submitter's mistake, said). */
char *arena_answer_too_big(const struct arena_settings *s);

/* Answers the request line req[0..n): the reply, a JSON line
 * {"exit":N,"out":..,"err":..} (malloc'd; NULL: memory ran out), or NULL
 * with *watch the request's person (malloc'd) when it asks to watch: the
 * connection then goes to the watchers (watch_serve.h). */
char *arena_answer(struct arena_daemon *d, const char *req, size_t n, char **watch);

/* The help text (the commands), for the shell and the daemon. */
extern const char arena_help_text[];

#endif
