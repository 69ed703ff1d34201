/* csv.c — --csv FILE: one row a run (RFC 4180).
 *
 * The columns: seed, each setting by its key, every field of the summary
 * (an object's members as FIELD.NAME, e.g. knockouts.red, best_lap.car1)
 * in the order they first appear, and failed (why a run failed; empty
 * when it ran).  A value a run lacks is an empty cell. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tour_impl.h"
#include "core/grow.h"
#include "io/trace.h"
#include "io/whole_file.h"

struct column { const char *top, *sub; };     /* sub NULL: a plain field */

/* The columns in the order they first appear, found through an index
 * (a run line may have thousands: a team's knockouts, a car's laps). */
struct columns { struct column *c; int n; size_t cap; struct name_index at; };

static int add_column(struct columns *cs, const char *top, const char *sub)
{
    if (name_find(&cs->at, top, sub) >= 0)
        return 0;
    if (cs->n == INT_MAX
        || grow_reserve(&cs->c, &cs->cap, (size_t)cs->n + 1, sizeof *cs->c))
        return -1;
    if (name_add(&cs->at, top, sub, cs->n))
        return -1;
    cs->c[cs->n++] = (struct column){ top, sub };
    return 0;
}

static void columns_free(struct columns *cs)
{
    free(cs->c);
    name_index_free(&cs->at);
}

static int is_fixed(const char *k)
{
    return !strcmp(k, "type") || !strcmp(k, "seed") || !strcmp(k, "set") || !strcmp(k, "failed");
}

static void put_cell(FILE *f, json_t *v)
{
    char buf[40];
    if (json_is_integer(v))
        fprintf(f, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v) && trace_number(buf, json_real_value(v)) == 0)
        fputs(buf, f);
    else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strpbrk(s, ",\"\r\n")) {
            fputc('"', f);
            for (; *s; s++) {
                if (*s == '"')
                    fputc('"', f);
                fputc(*s, f);
            }
            fputc('"', f);
        } else {
            fputs(s, f);
        }
    }
}

static void put_name(FILE *f, const char *top, const char *sub)
{
    size_t n = strlen(top) + (sub ? strlen(sub) + 1 : 0) + 1;
    char *s = malloc(n);
    if (!s)
        return;
    snprintf(s, n, "%s%s%s", top, sub ? "." : "", sub ? sub : "");
    json_t *j = json_string(s);
    put_cell(f, j);
    json_decref(j);
    free(s);
}

int csv_write(const char *path, json_t *const *runs, long n)
{
    struct columns set = { NULL, 0, 0, { NULL, 0, 0 } }, fields = set;
    int rc = 0;
    for (long r = 0; rc == 0 && r < n; r++) {
        const char *k, *k2;
        json_t *v, *v2;
        json_object_foreach(json_object_get(runs[r], "set"), k, v)
            rc |= add_column(&set, k, NULL);
        json_object_foreach(runs[r], k, v) {
            if (is_fixed(k))
                continue;
            if (json_is_object(v))
                json_object_foreach(v, k2, v2)
                    rc |= add_column(&fields, k, k2);
            else
                rc |= add_column(&fields, k, NULL);
        }
    }
    /* Written whole: a full disk or a Ctrl-C midway leaves the old file,
     * never half a table. */
    struct whole_file wf;
    FILE *f = rc ? NULL : whole_open(&wf, path);
    if (!f) {
        fprintf(stderr, "botfield: --csv %s: cannot write: %s\n", path,
                rc ? "out of memory" : strerror(errno));
        columns_free(&set);
        columns_free(&fields);
        return -1;
    }
    fputs("seed", f);
    for (int i = 0; i < set.n; i++) {
        fputc(',', f);
        put_name(f, set.c[i].top, NULL);
    }
    for (int i = 0; i < fields.n; i++) {
        fputc(',', f);
        put_name(f, fields.c[i].top, fields.c[i].sub);
    }
    fputs(",failed\r\n", f);
    for (long r = 0; r < n; r++) {
        put_cell(f, json_object_get(runs[r], "seed"));
        json_t *s = json_object_get(runs[r], "set");
        for (int i = 0; i < set.n; i++) {
            fputc(',', f);
            put_cell(f, json_object_get(s, set.c[i].top));
        }
        for (int i = 0; i < fields.n; i++) {
            json_t *v = json_object_get(runs[r], fields.c[i].top);
            fputc(',', f);
            put_cell(f, fields.c[i].sub ? json_object_get(v, fields.c[i].sub) : v);
        }
        fputc(',', f);
        put_cell(f, json_object_get(runs[r], "failed"));
        fputs("\r\n", f);
    }
    columns_free(&set);
    columns_free(&fields);
    if (whole_close(&wf, ferror(f))) {
        fprintf(stderr, "botfield: --csv %s: cannot write: %s\n", path, trace_strerror(errno));
        return -1;
    }
    return 0;
}
