/* settings.h — an arena's folder and its arena.ini, read and checked as
 * a map is (file:line, section, key, the problem, what is allowed). */
#ifndef BOTFIELD_ARENA_SETTINGS_H
#define BOTFIELD_ARENA_SETTINGS_H

struct arena_settings {
    char *dir;                  /* the arena's folder, as given */
    char *name;                 /* [arena] name */
    char **maps;                /* file names beside arena.ini, played in turn */
    int nmaps;
    int rounds;                 /* rounds per match */
    int bots_per_person;
    long max_script;            /* bytes */
    int submit_every;           /* seconds between one person's submissions */
    int live;                   /* matches shown live at tick_rate */
    int workers;                /* ladder workers; 0: all cores */
};

/* 0 with *s filled (arena_settings_free), or -1 with *err (malloc'd, one
 * or more lines ending in '\n'). */
int arena_settings_read(const char *dir, struct arena_settings *s, char **err);
void arena_settings_free(struct arena_settings *s);

/* A person's or a bot's name: [a-z0-9_-]{1,32}. */
int arena_name_ok(const char *name);

#endif
