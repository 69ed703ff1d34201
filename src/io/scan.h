/* scan.h — our own pass over a map file before iniparser sees it.
 *
 * iniparser 4.1 gives no line numbers, fails a whole file on a line over
 * 1,024 bytes or a byte-order mark, merges duplicate sections and lets a
 * duplicate key win silently.  The scanner reads the file the way
 * iniparser's line parser does, records every section and key with its
 * line, reports what iniparser would reject or silently accept, and writes
 * a clean copy (no BOM, LF line ends, bare section headers) with the same
 * line numbers for iniparser to load. */
#ifndef BOTFIELD_SCAN_H
#define BOTFIELD_SCAN_H

#include <stddef.h>

struct scan_key {
    char *name;             /* lowercased, as iniparser stores it */
    int line;
    int section;            /* index in sections */
};

struct scan_section {
    char *name;             /* lowercased */
    int line;
};

struct scan_result {
    struct scan_section *sections; int nsections;
    struct scan_key *keys; int nkeys;
    char *clean; size_t clean_len;
};

/* Reports a problem: line (0: the whole file), section index (-1: none),
 * and a message. */
typedef void (*scan_error_fn)(void *ctx, int line, int section,
                              const char *message);

/* Returns the number of problems reported (0: the result is usable). */
int scan_text(const char *text, size_t len, struct scan_result *out,
              scan_error_fn report, void *ctx);
void scan_free(struct scan_result *r);

#endif
