/* proc_view.c — a process bot's lines (proc_view.h).
 *
 * Written by hand into a FILE, as the trace is (its exact numbers and
 * escaping: trace_number, trace_put_strn), in the order of bot_api.c's
 * tables; the answer is read with jansson, and out.say is encoded as
 * bot_mem.c encodes a Lua value (a table's keys in its sorted order:
 * 1..n for an array, the strings bytewise), so a Lua ally reads what a
 * process said as it reads another Lua bot's. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proc_view.h"
#include "io/trace.h"
#include "io/trace_put.h"

/* ---- writing ---------------------------------------------------------------- */

static void num(FILE *f, const char *key, double v)
{
    char b[40];
    trace_number(b, isfinite(v) ? v : 0);
    fprintf(f, "\"%s\":%s", key, b);
}

static void str(FILE *f, const char *key, const char *s)
{
    fprintf(f, "\"%s\":", key);
    trace_put_strn(f, s ? s : "", s ? strlen(s) : 0);
}

static void me(FILE *f, const struct bot_view *v)
{
    fputs("{", f);
    str(f, "id", v->id);
    fputc(',', f);
    str(f, "kind", v->kind);
    fputc(',', f);
    str(f, "team", v->team);
    const struct { const char *k; double x; } n1[] = {
        { "x", v->x }, { "y", v->y }, { "heading", v->heading }, { "speed", v->speed },
        { "turret", v->turret } };
    for (size_t i = 0; i < sizeof n1 / sizeof n1[0]; i++) {
        fputc(',', f);
        num(f, n1[i].k, n1[i].x);
    }
    fprintf(f, ",\"gun_ready\":%s", v->gun_ready ? "true" : "false");
    const struct { const char *k; double x; } n2[] = {
        { "reload_left", v->reload_left }, { "health", v->health }, { "radius", v->radius },
        { "max_speed", v->max_speed }, { "turn_rate", v->turn_rate },
        { "turret_rate", v->turret_rate }, { "shell_speed", v->shell_speed },
        { "range", v->range }, { "fov", v->fov }, { "view_range", v->view_range } };
    for (size_t i = 0; i < sizeof n2 / sizeof n2[0]; i++) {
        fputc(',', f);
        num(f, n2[i].k, n2[i].x);
    }
    if (v->is_car) {
        const struct { const char *k; double x; } n3[] = {
            { "accel", v->accel }, { "brake", v->brake }, { "min_speed", v->min_speed },
            { "back_angle", v->back_angle } };
        for (size_t i = 0; i < sizeof n3 / sizeof n3[0]; i++) {
            fputc(',', f);
            num(f, n3[i].k, n3[i].x);
        }
    } else {
        fputc(',', f);
        str(f, "sensor", v->sensor);
        fputc(',', f);
        num(f, "radar", v->radar);
        fputc(',', f);
        num(f, "radar_rate", v->radar_rate);
    }
    fputc('}', f);
}

static void enemies(FILE *f, const struct bot_view *v)
{
    fputs("\"enemies\":[", f);
    for (size_t i = 0; i < v->n_enemies; i++) {
        const struct bot_enemy *e = &v->enemies[i];
        fputs(i ? ",{" : "{", f);
        str(f, "id", e->id);
        fputc(',', f);
        str(f, "kind", e->kind);
        const struct { const char *k; double x; } n[] = {
            { "health", e->health }, { "x", e->x }, { "y", e->y }, { "heading", e->heading },
            { "speed", e->speed }, { "visible", e->visible }, { "distance", e->distance },
            { "bearing", e->bearing } };
        for (size_t k = 0; k < sizeof n / sizeof n[0]; k++) {
            fputc(',', f);
            num(f, n[k].k, n[k].x);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

static void put_ally(void *arg, size_t k, const struct bot_ally *a)
{
    FILE *f = arg;
    fputs(k ? ",{" : "{", f);
    str(f, "id", a->id);
    fputc(',', f);
    num(f, "x", a->x);
    fputc(',', f);
    num(f, "y", a->y);
    fputc(',', f);
    num(f, "heading", a->heading);
    fputc(',', f);
    num(f, "speed", a->speed);
    fputc('}', f);
}

static void put_waypoint(void *arg, size_t k, const struct bot_waypoint *w)
{
    FILE *f = arg;
    fputs(k ? ",{" : "{", f);
    num(f, "x", w->x);
    fputc(',', f);
    num(f, "y", w->y);
    fputc(',', f);
    num(f, "r", w->r);
    fputc('}', f);
}

static void allies(FILE *f, const struct bot_view *v)
{
    fputs("\"allies\":[", f);
    if (v->allies_of)
        v->allies_of(v->ctx, put_ally, f);
    else
        for (size_t i = 0; i < v->n_allies; i++)
            put_ally(f, i, &v->allies[i]);
    fputc(']', f);
}

static void waypoints(FILE *f, const struct bot_view *v)
{
    fputs("\"waypoints\":[", f);
    if (v->waypoints_of)
        v->waypoints_of(v->ctx, put_waypoint, f);
    else
        for (size_t i = 0; i < v->n_waypoints; i++)
            put_waypoint(f, i, &v->waypoints[i]);
    fputc(']', f);
}

static void events(FILE *f, const struct bot_view *v)
{
    fputs("\"events\":[", f);
    for (size_t i = 0; i < v->n_events; i++) {
        const struct bot_event *e = &v->events[i];
        fputs(i ? ",{" : "{", f);
        str(f, "type", e->type);
        for (int k = 0; k < e->n_fields && k < BOT_EVENT_FIELDS; k++) {
            const struct bot_field *x = &e->fields[k];
            if (!x->name)
                continue;
            fputc(',', f);
            if (x->str)
                str(f, x->name, x->str);
            else if (e->kind[k] == BOT_FIELD_BOOL)
                fprintf(f, "\"%s\":%s", x->name, x->num != 0 ? "true" : "false");
            else if (e->kind[k] == BOT_FIELD_INT)
                fprintf(f, "\"%s\":%lld", x->name, (long long)x->num);
            else
                num(f, x->name, x->num);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

static void shells(FILE *f, const struct bot_view *v)
{
    const struct bot_shell *sh = NULL;
    size_t n = v->shells_of ? v->shells_of(v->ctx, &sh) : 0;
    fputs("\"shells\":[", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"id\":%ld,", i ? "," : "", sh[i].id);
        num(f, "x", sh[i].x);
        fputc(',', f);
        num(f, "y", sh[i].y);
        fputc(',', f);
        num(f, "heading", sh[i].heading);
        fputc(',', f);
        num(f, "speed", sh[i].speed);
        fputc(',', f);
        str(f, "team", sh[i].team);
        fprintf(f, ",\"mine\":%s}", sh[i].mine ? "true" : "false");
    }
    fputc(']', f);
}

static void put_message(void *arg, size_t k, const struct bot_message *m)
{
    FILE *f = arg;
    fputs(k ? ",{" : "{", f);
    str(f, "from", m->from);
    /* (bytes that do not decode: no data, as a Lua bot gets none) */
    char *buf = NULL;
    size_t len = 0;
    FILE *t = open_memstream(&buf, &len);
    int bad = !t || bot_value_json(t, m->data, m->len);
    if (t)
        fclose(t);
    if (!bad)
        fprintf(f, ",\"data\":%.*s", (int)len, buf);
    free(buf);
    fputc('}', f);
}

static void messages(FILE *f, const struct bot_view *v)
{
    fputs("\"messages\":[", f);
    if (v->messages_of)
        v->messages_of(v->ctx, put_message, f);
    fputc(']', f);
}

int proc_tick_line(FILE *f, const struct bot_view *v)
{
    fprintf(f, "{\"type\":\"tick\",\"tick\":%ld,\"me\":", v->tick);
    me(f, v);
    fprintf(f, ",\"world\":{\"tick\":%ld,\"round\":%d,\"rounds\":%d,", v->tick, v->round,
            v->rounds);
    num(f, "time", v->time);
    fputc(',', f);
    num(f, "dt", v->dt);
    fputc(',', f);
    num(f, "width", v->width);
    fputc(',', f);
    num(f, "height", v->height);
    fprintf(f, ",\"next_waypoint\":%d,", v->next_waypoint);
    enemies(f, v);
    fputc(',', f);
    allies(f, v);
    fputc(',', f);
    waypoints(f, v);
    fputc(',', f);
    events(f, v);
    fputc(',', f);
    shells(f, v);
    fputc(',', f);
    messages(f, v);
    fputs("}}", f);
    return ferror(f) ? -1 : 0;
}

int proc_init_line(FILE *f, const struct bot_view *v, const struct bot_tree *trees,
                   size_t ntrees)
{
    fputs("{\"type\":\"init\",", f);
    str(f, "id", v->id);
    fputs(",\"map\":{", f);
    num(f, "width", v->width);
    fputc(',', f);
    num(f, "height", v->height);
    fputs(",\"trees\":[", f);
    for (size_t i = 0; i < ntrees; i++)
        put_waypoint(f, i, &(struct bot_waypoint){ trees[i].x, trees[i].y, trees[i].r });
    fputs("],", f);
    waypoints(f, v);
    fputs("},\"me\":", f);
    me(f, v);
    fputc('}', f);
    return ferror(f) ? -1 : 0;
}

/* ---- reading ---------------------------------------------------------------- */

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: case JSON_REAL: return "a number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static int read_num(json_t *o, const char *k, double *dst, char *err, size_t n)
{
    json_t *j = json_object_get(o, k);
    if (!j)
        return 0;
    if (!json_is_number(j)) {
        snprintf(err, n, "out.%s is not a finite number (%s)", k, type_name(j));
        return -1;
    }
    *dst = json_number_value(j);
    return 0;
}

/* out.say's bytes, as bot_mem.c writes a Lua value. */
struct say_enc { unsigned char *p; size_t n, cap; int over; };

static void say_put(struct say_enc *e, const void *b, size_t n)
{
    if (e->n + n > e->cap) {
        e->over = 1;
        return;
    }
    memcpy(e->p + e->n, b, n);
    e->n += n;
}

static void say_u32(struct say_enc *e, uint32_t v)
{
    unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    say_put(e, b, 4);
}

static void say_u64(struct say_enc *e, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    say_put(e, b, 8);
}

static void say_str(struct say_enc *e, const char *s, size_t n)
{
    say_put(e, "s", 1);
    say_u32(e, (uint32_t)n);
    say_put(e, s, n);
}

static int key_cmp(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    size_t lx = strlen(x), ly = strlen(y);
    int c = memcmp(x, y, lx < ly ? lx : ly);
    return c ? c : lx < ly ? -1 : lx > ly;
}

static int say_value(struct say_enc *e, json_t *j, int depth, char *err, size_t n)
{
    if (depth > BOT_MEM_DEPTH) {
        snprintf(err, n, "out.say is nested more than %d deep", BOT_MEM_DEPTH);
        return -1;
    }
    if (json_is_true(j) || json_is_false(j)) {
        say_put(e, json_is_true(j) ? "t" : "f", 1);
    } else if (json_is_integer(j)) {
        say_put(e, "i", 1);
        say_u64(e, (uint64_t)json_integer_value(j));
    } else if (json_is_real(j)) {
        double d = json_real_value(j);
        uint64_t u;
        memcpy(&u, &d, sizeof u);
        say_put(e, "d", 1);
        say_u64(e, u);
    } else if (json_is_string(j)) {
        say_str(e, json_string_value(j), json_string_length(j));
    } else if (json_is_array(j)) {
        size_t len = json_array_size(j), i;
        json_t *x;
        say_put(e, "T", 1);
        say_u32(e, (uint32_t)len);
        json_array_foreach(j, i, x) {
            say_put(e, "i", 1);
            say_u64(e, (uint64_t)(i + 1));
            if (say_value(e, x, depth + 1, err, n))
                return -1;
        }
    } else if (json_is_object(j)) {
        size_t len = json_object_size(j), k = 0;
        const char **keys = malloc((len ? len : 1) * sizeof *keys);
        const char *key;
        json_t *x;
        if (!keys) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        json_object_foreach(j, key, x)
            keys[k++] = key;
        qsort(keys, len, sizeof *keys, key_cmp);
        say_put(e, "T", 1);
        say_u32(e, (uint32_t)len);
        int rc = 0;
        for (k = 0; k < len && !rc; k++) {
            say_str(e, keys[k], strlen(keys[k]));
            rc = say_value(e, json_object_get(j, keys[k]), depth + 1, err, n);
        }
        free(keys);
        return rc;
    } else {
        snprintf(err, n, "out.say holds a null (a value out.say can hold is a boolean, a "
                 "number, a string, an array or an object)");
        return -1;
    }
    return 0;
}

static int read_say(json_t *o, struct proc_reply *r, char *err, size_t n)
{
    json_t *j = json_object_get(o, "say");
    if (!j)
        return 0;
    struct say_enc e = { r->say, 0, BOT_SAY_BYTES + 4, 0 };
    say_put(&e, "BFM1", 4);
    if (say_value(&e, j, 0, err, n))
        return -1;
    if (e.over) {
        snprintf(err, n, "out.say is more than %d bytes once encoded", BOT_SAY_BYTES);
        return -1;
    }
    r->say_len = e.n;
    return 0;
}

/* A string cut at BOT_LOG_BYTES (or max) bytes, never inside a UTF-8
 * character; a NUL byte ends it (jansson keeps them: \u0000). */
static void cut_copy(char *dst, size_t max, const char *s, size_t len)
{
    size_t k = len < max ? len : max;
    if (k < len)
        while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
            k--;
    memcpy(dst, s, k);
    dst[k] = 0;
}

static int read_log(json_t *o, struct proc_reply *r, char *err, size_t n)
{
    json_t *j = json_object_get(o, "log"), *x;
    size_t i;
    if (!j)
        return 0;
    if (!json_is_array(j)) {
        snprintf(err, n, "log is not an array of strings (%s)", type_name(j));
        return -1;
    }
    json_array_foreach(j, i, x) {
        if (!json_is_string(x)) {
            snprintf(err, n, "log[%zu] is not a string (%s)", i + 1, type_name(x));
            return -1;
        }
        if (r->n_log < BOT_LOG_LINES)
            cut_copy(r->log[r->n_log++], BOT_LOG_BYTES, json_string_value(x),
                     json_string_length(x));
    }
    return 0;
}

/* One of draw: ["line",x1,y1,x2,y2,COLOR?] and the others. */
static int read_shape(json_t *a, size_t i, struct proc_reply *r, char *err, size_t n)
{
    static const struct { const char *name; enum bot_shape_kind kind; size_t nums; int color; }
    kinds[] = { { "line", BOT_LINE, 4, 1 }, { "circle", BOT_CIRCLE, 3, 1 },
                { "text", BOT_TEXT, 2, 0 }, { "mark", BOT_MARK, 2, 1 } };
    const char *name = json_string_value(json_array_get(a, 0));
    size_t k = 0;
    while (k < 4 && (!name || strcmp(name, kinds[k].name)))
        k++;
    if (!json_is_array(a) || k == 4) {
        snprintf(err, n, "draw[%zu] is not [\"line\"|\"circle\"|\"text\"|\"mark\", ...]", i + 1);
        return -1;
    }
    size_t len = json_array_size(a), want = 1 + kinds[k].nums;
    int text = kinds[k].kind == BOT_TEXT;
    if (len < want + (size_t)text || len > want + 1) {
        snprintf(err, n, "draw[%zu]: %s takes %zu numbers%s", i + 1, name, kinds[k].nums,
                 text ? " and a text" : ", then a colour if you like");
        return -1;
    }
    double v[4] = { 0 };
    for (size_t m = 0; m < kinds[k].nums; m++) {
        json_t *x = json_array_get(a, 1 + m);
        if (!json_is_number(x)) {
            snprintf(err, n, "draw[%zu]: %s's number %zu is not a finite number (%s)", i + 1,
                     name, m + 1, type_name(x));
            return -1;
        }
        v[m] = json_number_value(x);
    }
    json_t *last = len > want ? json_array_get(a, want) : NULL;
    if (last && !json_is_string(last)) {
        snprintf(err, n, "draw[%zu]: %s's %s is not a string (%s)", i + 1, name,
                 text ? "text" : "colour", type_name(last));
        return -1;
    }
    if (r->n_shapes >= BOT_SHAPES_MAX)
        return 0;
    struct bot_shape *s = &r->shapes[r->n_shapes++];
    memset(s, 0, sizeof *s);
    s->kind = kinds[k].kind;
    s->x1 = v[0];
    s->y1 = v[1];
    s->x2 = v[2];
    s->y2 = v[3];
    if (last && text)
        cut_copy(s->text, sizeof s->text - 1, json_string_value(last), json_string_length(last));
    else if (last)
        cut_copy(s->color, sizeof s->color - 1, json_string_value(last),
                 json_string_length(last));
    return 0;
}

static int read_draw(json_t *o, struct proc_reply *r, char *err, size_t n)
{
    json_t *j = json_object_get(o, "draw"), *x;
    size_t i;
    if (!j)
        return 0;
    if (!json_is_array(j)) {
        snprintf(err, n, "draw is not an array of shapes (%s)", type_name(j));
        return -1;
    }
    json_array_foreach(j, i, x)
        if (read_shape(x, i, r, err, n))
            return -1;
    return 0;
}

static const char *const fields[] = { "turn", "speed", "turret", "fire", "radar", "say", "draw",
                                      "log", NULL };

static int read_fields(json_t *o, const struct bot_view *v, struct proc_reply *r, char *err,
                       size_t n)
{
    const char *key;
    json_t *x;
    json_object_foreach(o, key, x) {
        int k = 0;
        while (fields[k] && strcmp(fields[k], key))
            k++;
        if (!fields[k]) {
            snprintf(err, n, "the answer has a field '%.40s' (its fields: turn, speed, turret, "
                     "fire, radar, say, draw, log)", key);
            return -1;
        }
    }
    struct bot_out out = { 0, v->speed, v->turret, 0, v->radar };
    if (read_num(o, "turn", &out.turn, err, n) || read_num(o, "speed", &out.speed, err, n)
        || read_num(o, "turret", &out.turret, err, n) || read_num(o, "radar", &out.radar, err, n))
        return -1;
    json_t *fire = json_object_get(o, "fire");
    if (fire && !json_is_boolean(fire)) {
        snprintf(err, n, "out.fire is not a boolean (%s)", type_name(fire));
        return -1;
    }
    out.fire = json_is_true(fire);
    r->out = out;
    return read_say(o, r, err, n) || read_draw(o, r, err, n) || read_log(o, r, err, n) ? -1 : 0;
}

int proc_read_reply(const char *s, size_t n, const struct bot_view *v, struct proc_reply *r,
                    char *err, size_t errn)
{
    memset(r, 0, offsetof(struct proc_reply, log));
    r->n_log = r->n_shapes = 0;
    r->out = (struct bot_out){ 0, v->speed, v->turret, 0, v->radar };
    json_error_t je;
    json_t *o = json_loadb(s, n, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
    int rc = 0;
    if (!o) {
        snprintf(err, errn, "the answer is not JSON (%.120s, column %d)", je.text, je.column);
        rc = -1;
    } else if (!json_is_object(o)) {
        snprintf(err, errn, "the answer is not a JSON object (%s)", type_name(o));
        rc = -1;
    } else
        rc = read_fields(o, v, r, err, errn);
    json_decref(o);
    if (rc) {
        r->out = (struct bot_out){ 0, v->speed, v->turret, 0, v->radar };
        r->say_len = 0;
        r->n_log = r->n_shapes = 0;
    }
    return rc;
}
