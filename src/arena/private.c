/* private.c — a recording filtered for one person (private.h). */
#include "config.h"

#include <string.h>

#include <jansson.h>

#include "private.h"

/* 1 when path is bots/PERSON/... (a name the arena checked: no "/"). */
static int under_person(const char *path, const char *person)
{
    size_t n = strlen(person);
    return n && !strchr(person, '/') && !strncmp(path, "bots/", 5)
        && !strncmp(path + 5, person, n) && path[5 + n] == '/' && path[6 + n]
        && !strstr(path, "/../") && !strstr(path, "/./");
}

/* A bot_reload line names a vehicle and a SHA-256, no path: a note of
 * the bot_source line before it, which does the reload (botfield(6),
 * RECORDINGS), so a replay loses nothing without it, and one of another
 * person's would name a script the filtered recording lacks.  Every
 * bot_reload line is dropped; the person's own reloads stay as their
 * bot_source lines with their ticks. */
int arena_private_keep(const char *line, size_t n, const char *person)
{
    json_error_t je;
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        n--;
    json_t *o = json_loadb(line, n, JSON_REJECT_DUPLICATES, &je);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        return 0;
    }
    const char *type = json_string_value(json_object_get(o, "type"));
    const char *path = json_string_value(json_object_get(o, "path"));
    int keep = !type || (strcmp(type, "bot_reload")
                         && (strcmp(type, "bot_source") || (path && under_person(path, person))));
    json_decref(o);
    return keep;
}
