/* watch.h — the inotify watch on the files a run reads: the map file and
 * its bots' scripts.  Each file's folder is watched, not the file: editors
 * save by writing a new file and renaming it over the old one, which would
 * end a watch on the file itself. */
#ifndef BOTFIELD_WATCH_H
#define BOTFIELD_WATCH_H

struct world;
struct bot_world;

enum { WATCH_MAP = 1, WATCH_BOT = 2 };

struct watch_item { int wd; char *name; int what; };

struct watch {
    int fd;                         /* -1: nothing watched */
    struct watch_item *items;
    int n;
};

/* Watches map_path (NULL: the built-in map, not watched) and the script of
 * every bot of w (in the map's folder; for the built-in map, in
 * bundled_dir).  Never fails: what cannot be watched is not. */
void watch_start(struct watch *wt, const char *map_path, const struct world *w,
                 const char *bundled_dir);
/* WATCH_* bits of what changed since the last call. */
int watch_read(struct watch *wt);
void watch_stop(struct watch *wt);

#endif
