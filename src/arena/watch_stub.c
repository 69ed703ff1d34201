/* watch_stub.c — placeholder for the daemon's side of watch
 * (watch_serve.c replaces it): a watcher is told it is not built. */
#include "watch_serve.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct arena_watchers { int unused; };

struct arena_watchers *arena_watchers_new(void) { return calloc(1, sizeof(struct arena_watchers)); }
void arena_watchers_free(struct arena_watchers *ws) { free(ws); }

void arena_watch_accept(struct arena_watchers *ws, int fd, const char *person,
                        const char *request)
{
    static const char msg[] = "{\"exit\":2,\"out\":\"\",\"err\":\"watch: not built yet\\n\"}\n";
    (void)ws, (void)person, (void)request;
    ssize_t w = write(fd, msg, sizeof msg - 1);
    (void)w;
    close(fd);
}

int arena_watch_poll(struct arena_watchers *ws, struct arena_ladder *l)
{
    (void)ws, (void)l;
    return 1000;
}
