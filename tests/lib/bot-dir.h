/* bot-dir.h — a folder of bot scripts for the unit tests that load worlds
 * with Lua bots (test-bot-world, test-bot-shells, test-bot-agent): the
 * test makes `dir` (mkdtemp) and removes it; put() writes a script there;
 * load() builds a world from map text with its bots read from it. */
#ifndef BOTFIELD_TEST_BOT_DIR_H
#define BOTFIELD_TEST_BOT_DIR_H

struct world;
struct bot_world;

extern char dir[64];
/* Writes `text` to dir/name (exit 99 when it cannot). */
void put(const char *name, const char *text);
/* A world from map text, its bots found in dir.  0 or -1 (noted). */
int load(const char *map, struct world *w, struct bot_world **bw);

#endif
