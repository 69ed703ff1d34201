/* scan.h — our own pass over a map file before iniparser sees it.
 *
 * iniparser 4.1 gives no line numbers, fails a whole file on a line over
 * 1,024 bytes or a byte-order mark, merges duplicate sections and lets a
 * duplicate key win silently.  The scanner reads the file the way
 * iniparser's line parser does, records every section and key with its
 * line, reports what iniparser would reject or silently accept, and writes
 * a clean copy (no BOM, LF line ends, bare section headers) with the same
 * line numbers for iniparser to load.
 *
 * Sections are never reopened (a duplicate is refused), so the keys come
 * in section order: a section's keys are keys[first_key .. first_key +
 * nkeys).  In the clean copy every line that is not blank is either a
 * section header or, in the same order as keys[], one key line; the
 * loader cuts it into small pieces for iniparser from that.  Sections
 * are found through a hash table, keys in their section's few keys or,
 * in a section of many, through another (scan_find_section,
 * scan_find_key), so a map of a million sections is read in linear time. */
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
    int first_key, nkeys;   /* its keys in keys[] */
};

struct scan_result {
    struct scan_section *sections; int nsections;
    struct scan_key *keys; int nkeys;
    char *clean; size_t clean_len;
    /* Owned by the result: the names, and open-addressing tables of
     * indices (-1: empty) whose size is a power of two. */
    char *names;
    int *sec_hash; size_t sec_hash_cap;
    int *key_hash; size_t key_hash_cap, key_hashed;
};

/* Reports a problem: line (0: the whole file), section index (-1: none),
 * and a message. */
typedef void (*scan_error_fn)(void *ctx, int line, int section,
                              const char *message);

/* Returns the number of problems reported (0: the result is usable). */
int scan_text(const char *text, size_t len, struct scan_result *out,
              scan_error_fn report, void *ctx);
void scan_free(struct scan_result *r);

/* The section named `name` (compared exactly: stored names are
 * lowercase), or -1. */
int scan_find_section(const struct scan_result *r, const char *name);

/* The key `name` (exact) of section `section`, as an index in keys[], or -1. */
int scan_find_key(const struct scan_result *r, int section, const char *name);

#endif
