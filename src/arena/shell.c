/* shell.c — `botfield arena-shell ARENA NAME` (botfield-arena(7)): what
 * sshd runs for a person's key (command="...",restrict,pty).  The name
 * is the key's, never the command's; the command (SSH_ORIGINAL_COMMAND)
 * is split on blanks and nothing else: no quotes, no expansion, no shell,
 * no path from it.  The daemon does the work over ARENA/arena.sock. */
#include "arena.h"
#include "requests.h"
#include "settings.h"
#include "store.h"
#include "watch_client.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMMAND_MAX 4096
#define WORDS_MAX 4
#define SCRIPT_MAX (1024L * 1024L)      /* arena.ini's max_script is at most this */
#define ANSWER_MAX (256L * 1024L * 1024L)

static int refuse(const char *why)
{
    if (why)
        fprintf(stderr, "botfield arena-shell: %s\n", why);
    fputs(arena_help_text, stderr);
    return 2;
}

/* The command's words: printable ASCII only, none of what a shell acts on. */
static int split(char *cmd, char **w, int *n)
{
    for (const unsigned char *c = (const unsigned char *)cmd; *c; c++)
        if (*c != ' ' && *c != '\t' && (*c < 0x21 || *c > 0x7e || strchr(";`$()|&<>\\'\"*?[]{}~!#", *c)))
            return -1;
    *n = 0;
    char *save = NULL;
    for (char *t = strtok_r(cmd, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (*n == WORDS_MAX)
            return -1;
        w[(*n)++] = t;
    }
    return 0;
}

static int whole_number(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi || *s == '+' || *s == '-')
        return -1;
    *out = v;
    return 0;
}

/* Standard input, the script: at most SCRIPT_MAX bytes of UTF-8 text. */
static json_t *read_script(void)
{
    char *buf = malloc(SCRIPT_MAX + 1);
    size_t n = buf ? fread(buf, 1, SCRIPT_MAX + 1, stdin) : 0;
    json_t *s = NULL;
    if (!buf)
        fputs("botfield arena-shell: out of memory\n", stderr);
    else if (n > SCRIPT_MAX)
        fputs("submit: the script is larger than 1 MiB; an arena takes at most its max_script\n", stderr);
    else if (n == 0)
        fputs("submit: no script on standard input: ssh ARENA submit BOT < bot.lua\n", stderr);
    else if (!(s = json_stringn(buf, n)))
        fputs("submit: the script is not UTF-8 text\n", stderr);
    free(buf);
    return s;
}

/* The request for the command's words: NULL after saying why (*rc). */
static json_t *request(const char *person, char **w, int n, int *rc)
{
    long v = 0;
    json_t *o = json_pack("{s:s}", "person", person);
    const char *c = n ? w[0] : "watch";
    *rc = 2;
    if (!o)
        return NULL;
    if (((!strcmp(c, "watch") || !strcmp(c, "bots") || !strcmp(c, "help")) && n <= 1)
        || (!strcmp(c, "ladder") && (n == 1 || (n == 2 && !strcmp(w[1], "--json")))))
        json_object_set_new(o, "json", json_boolean(n == 2));
    else if ((!strcmp(c, "submit") || !strcmp(c, "log")) && n == 2 && arena_name_ok(w[1]))
        json_object_set_new(o, "bot", json_string(w[1]));
    else if (!strcmp(c, "matches") && (n == 1 || (n == 2 && !whole_number(w[1], 1, 1000, &v))))
        json_object_set_new(o, "n", json_integer(n == 2 ? v : 20));
    else if (!strcmp(c, "fetch") && n == 2 && !whole_number(w[1], 1, LONG_MAX, &v))
        json_object_set_new(o, "match", json_integer(v));
    else {
        json_decref(o);
        refuse((!strcmp(c, "submit") || !strcmp(c, "log")) && n == 2
               ? "a bot's name is a to z, 0 to 9, '_' and '-', 1 to 32 of them" : NULL);
        return NULL;
    }
    json_object_set_new(o, "cmd", json_string(c));
    json_t *script = !strcmp(c, "submit") ? read_script() : NULL;
    if (!strcmp(c, "submit") && !script) {
        json_decref(o);
        return NULL;
    }
    if (script)
        json_object_set_new(o, "script", script);
    return o;
}

static int connect_to(const char *dir)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if ((size_t)snprintf(a.sun_path, sizeof a.sun_path, "%s/arena.sock", dir) >= sizeof a.sun_path)
        return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

/* The daemon's answer line, parsed (NULL: none came). */
static json_t *read_answer(int fd)
{
    size_t n = 0, cap = 65536;
    char *buf = malloc(cap);
    for (ssize_t got; buf;) {
        if (n + 1 == cap) {
            char *b = cap < ANSWER_MAX ? realloc(buf, cap * 2) : NULL;
            if (!b)
                break;
            buf = b, cap *= 2;
        }
        got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    json_t *o = buf ? json_loadb(buf, n, 0, NULL) : NULL;
    free(buf);
    if (!json_is_string(json_object_get(o, "out")) || !json_is_string(json_object_get(o, "err"))
        || !json_is_integer(json_object_get(o, "exit"))) {
        json_decref(o);
        fputs("botfield arena-shell: the arena's daemon gave no answer (it may have stopped)\n", stderr);
        return NULL;
    }
    return o;
}

/* The answer said: its stdout and stderr, its status returned. */
static int answer(json_t *o)
{
    json_t *out = json_object_get(o, "out");
    fwrite(json_string_value(out), 1, json_string_length(out), stdout);
    fputs(json_string_value(json_object_get(o, "err")), stderr);
    return (int)json_integer_value(json_object_get(o, "exit"));
}

int arena_shell_main(int argc, char **argv, const char *maps_dir)
{
    if (argc != 3 || !arena_name_ok(argv[2])) {
        fputs("usage: botfield arena-shell ARENA NAME   (from an authorized_keys command=; "
              "NAME: a to z, 0 to 9, '_' and '-', 1 to 32 of them; botfield-arena(7))\n", stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);   /* a daemon that hung up: said, not a silent death */
    const char *orig = getenv("SSH_ORIGINAL_COMMAND");
    char cmd[COMMAND_MAX + 1], *w[WORDS_MAX];
    int n = 0, rc;
    if (orig && strlen(orig) > COMMAND_MAX)
        return refuse("the command is longer than 4096 bytes");
    snprintf(cmd, sizeof cmd, "%s", orig ? orig : "");
    if (split(cmd, w, &n))
        return refuse("a command is words of letters, digits, '-' and '_' (no quotes, no ;, $, `, |, &, <, >)");
    if ((!n || !strcmp(w[0], "watch")) && (!isatty(0) || !isatty(1))) {
        fputs("watch: needs a terminal: ssh -t ARENA\n", stderr);
        return 2;
    }
    json_t *req = request(argv[2], w, n, &rc);
    if (!req)
        return rc;
    if (n && !strcmp(w[0], "help")) {
        json_decref(req);
        fputs(arena_help_text, stdout);
        return 0;
    }
    char *line = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    int fd = line ? connect_to(argv[1]) : -1;
    if (fd < 0) {
        free(line);
        fputs("botfield arena-shell: the arena is closed (its daemon is not running)\n", stderr);
        return 1;
    }
    int bad = arena_write_all(fd, line, strlen(line)) || arena_write_all(fd, "\n", 1);
    free(line);
    if (!bad && (!n || !strcmp(w[0], "watch")))
        return arena_watch_client(fd, argv[2], maps_dir);     /* it closes fd */
    json_t *o = bad ? NULL : read_answer(fd);
    close(fd);
    rc = o ? answer(o) : 1;
    json_decref(o);
    return rc;
}
