/* A botfield process bot in C11, standard library only, one file.
 *
 * Build:  cc -std=c11 -O2 bot.c -lm -o bot
 * Run:    botfield --bot-process tank.red=./bot map.ini
 *
 * The protocol (botfield-bots(7), PROCESS BOTS): botfield writes one JSON
 * object a line on our standard input and waits for one line on our
 * standard output: {"type":"init",...} once (any line answers it), then
 * {"type":"tick","tick":T,"me":{...},"world":{...}} each tick (we answer
 * {"turn":..,"speed":..,"turret":..,"fire":..}), then {"type":"end"}.
 * Answer each with ONE line and flush.  Standard error becomes the bot's
 * log lines.  Angles are degrees, 0 along +x, 90 along +y, clockwise.
 *
 * The strategy is the Python kit's (kits/python/bot.py), in decide():
 * dodge an enemy shell on a collision course, else face the enemy and
 * close to 300 units, else wander; aim with a lead, fire when aligned.
 * The JSON reader below is small and complete enough for these lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small JSON reader: a tree of values ---- */
enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
typedef struct jval {
    enum jtype type;
    double num;            /* J_NUM, J_BOOL (0 or 1) */
    char *str;             /* J_STR; a member's key for items of J_OBJ */
    char *key;
    struct jval *items;    /* J_ARR, J_OBJ */
    size_t n;
} jval;

static const char *jp; /* where the parser is */

static void jskip(void) { while (*jp == ' ' || *jp == '\t' || *jp == '\r' || *jp == '\n') jp++; }

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) { fputs("out of memory\n", stderr); exit(1); }
    return q;
}

/* Append code point c as UTF-8. */
static size_t put_utf8(char *o, unsigned long c)
{
    if (c < 0x80) { o[0] = (char)c; return 1; }
    if (c < 0x800) { o[0] = (char)(0xC0 | c >> 6); o[1] = (char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        o[0] = (char)(0xE0 | c >> 12); o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        o[2] = (char)(0x80 | (c & 0x3F)); return 3;
    }
    o[0] = (char)(0xF0 | c >> 18); o[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((c >> 6) & 0x3F)); o[3] = (char)(0x80 | (c & 0x3F)); return 4;
}

static unsigned long hex4(void)
{
    unsigned long v = 0;
    for (int i = 0; i < 4; i++, jp++) {
        char c = *jp;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return 0xFFFD;
        v = v * 16 + (unsigned long)d;
    }
    return v;
}

/* A string after its opening quote; the decoded text is never longer
 * than its escaped form, so one allocation of that size is enough. */
static char *jstring(void)
{
    const char *end = jp;
    while (*end && *end != '"') end += (*end == '\\' && end[1]) ? 2 : 1;
    char *s = xrealloc(NULL, (size_t)(end - jp) + 4), *o = s;
    while (*jp && *jp != '"') {
        if (*jp != '\\') { *o++ = *jp++; continue; }
        jp++;
        char c = *jp ? *jp++ : 0;
        switch (c) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u': {
            unsigned long cp = hex4();
            if (cp >= 0xD800 && cp < 0xDC00 && jp[0] == '\\' && jp[1] == 'u') {
                jp += 2;   /* a surrogate pair: one code point */
                cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4() - 0xDC00);
            }
            o += put_utf8(o, cp);
            break;
        }
        default: *o++ = c; break;  /* \" \\ \/ */
        }
    }
    if (*jp == '"') jp++;
    *o = '\0';
    return s;
}

static int jparse(jval *v);
static void jfree(jval *v);

/* The items of an array or object, after its opening bracket. */
static int jlist(jval *v, char close, int keyed)
{
    size_t cap = 0;
    jskip();
    if (*jp == close) { jp++; return 0; }
    for (;;) {
        if (v->n == cap) { cap = cap ? 2 * cap : 8; v->items = xrealloc(v->items, cap * sizeof *v->items); }
        jval *it = &v->items[v->n];
        char *key = NULL;
        if (keyed) {
            jskip();
            if (*jp != '"') return -1;
            jp++;
            key = jstring();
            jskip();
            if (*jp != ':') { free(key); return -1; }
            jp++;
        }
        if (jparse(it) != 0) { jfree(it); free(key); return -1; }
        it->key = key;
        v->n++;
        jskip();
        if (*jp == ',') { jp++; continue; }
        if (*jp == close) { jp++; return 0; }
        return -1;
    }
}

static int jparse(jval *v)
{
    memset(v, 0, sizeof *v);
    jskip();
    if (*jp == '{') { jp++; v->type = J_OBJ; return jlist(v, '}', 1); }
    if (*jp == '[') { jp++; v->type = J_ARR; return jlist(v, ']', 0); }
    if (*jp == '"') { jp++; v->type = J_STR; v->str = jstring(); return 0; }
    if (!strncmp(jp, "true", 4)) { jp += 4; v->type = J_BOOL; v->num = 1; return 0; }
    if (!strncmp(jp, "false", 5)) { jp += 5; v->type = J_BOOL; return 0; }
    if (!strncmp(jp, "null", 4)) { jp += 4; return 0; }
    char *end;
    v->num = strtod(jp, &end);
    if (end == jp) return -1;
    jp = end;
    v->type = J_NUM;
    return 0;
}

static void jfree(jval *v)
{
    for (size_t i = 0; i < v->n; i++) { jfree(&v->items[i]); free(v->items[i].key); }
    free(v->items);
    free(v->str);
}

/* obj[key], or NULL */
static const jval *jget(const jval *o, const char *key)
{
    if (!o || o->type != J_OBJ) return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->items[i].key, key)) return &o->items[i];
    return NULL;
}
static double num(const jval *o, const char *key)
{
    const jval *v = jget(o, key);
    return v && (v->type == J_NUM || v->type == J_BOOL) ? v->num : 0;
}
static const char *str(const jval *o, const char *key)
{
    const jval *v = jget(o, key);
    return v && v->type == J_STR ? v->str : "";
}

/* ---- the strategy ---- */
#define MARGIN 8.0  /* let shells pass at least this far outside our hull */
#define HORIZON 3.0 /* seconds: a shell further off than that can wait */
#define DEG (3.14159265358979323846 / 180)

static jval init_msg; /* the init line, kept for its trees */

static double angdiff(double a, double b) { double d = fmod(a - b + 180, 360); return (d < 0 ? d + 360 : d) - 180; }
static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* How close a shell passes if we drive at (heading, speed); *when: the time. */
static double closest(const jval *me, const jval *s, double heading, double speed, double *when)
{
    double px = num(s, "x") - num(me, "x"), py = num(s, "y") - num(me, "y");
    double vx = num(s, "speed") * cos(num(s, "heading") * DEG) - speed * cos(heading * DEG);
    double vy = num(s, "speed") * sin(num(s, "heading") * DEG) - speed * sin(heading * DEG);
    double vv = vx * vx + vy * vy, t = 0;
    if (vv > 0) t = clampd(-(px * vx + py * vy) / vv, 0, HORIZON);
    if (when) *when = t;
    return hypot(px + vx * t, py + vy * t);
}

static int is_threat(const jval *me, const jval *s)
{
    double t;
    if (num(s, "mine") != 0 || !strcmp(str(s, "team"), str(me, "team"))) return 0;
    return closest(me, s, num(me, "heading"), num(me, "speed"), &t) < num(me, "radius") + MARGIN && t > 0;
}

/* Full speed, turning left, right or not: the turn that passes furthest
 * from every threat; returns 0 and leaves *turn when there is none. */
static int escape(const jval *me, const jval *shells, double *turn)
{
    double rate = num(me, "turn_rate"), best_gap = -1;
    int any = 0;
    for (size_t i = 0; i < shells->n; i++) any |= is_threat(me, &shells->items[i]);
    if (!any) return 0;
    for (int k = -1; k <= 1; k++) {
        double heading = num(me, "heading") + k * rate * 0.5, gap = INFINITY;
        for (size_t i = 0; i < shells->n; i++)
            if (is_threat(me, &shells->items[i]))
                gap = fmin(gap, closest(me, &shells->items[i], heading, num(me, "max_speed"), NULL));
        if (gap > best_gap) { best_gap = gap; *turn = k * rate; }
    }
    return 1;
}

/* The turret direction whose shell meets e: the smallest t > 0 with
 * |p + v t| = shell_speed t; 0 if the shell cannot catch it. */
static int lead(const jval *me, const jval *e, double *dir)
{
    double px = num(e, "x") - num(me, "x"), py = num(e, "y") - num(me, "y");
    double vx = num(e, "speed") * cos(num(e, "heading") * DEG), vy = num(e, "speed") * sin(num(e, "heading") * DEG);
    double s = num(me, "shell_speed"), a = vx * vx + vy * vy - s * s;
    double b = 2 * (px * vx + py * vy), c = px * px + py * py, t = -1;
    if (fabs(a) < 1e-9) {
        if (b < 0) t = -c / b;
    } else {
        double disc = b * b - 4 * a * c;
        if (disc < 0) return 0;
        double r = sqrt(disc), t1 = (-b - r) / (2 * a), t2 = (-b + r) / (2 * a);
        if (t1 > 0 && (t2 <= 0 || t1 < t2)) t = t1; else if (t2 > 0) t = t2;
    }
    if (t <= 0) return 0;
    *dir = atan2(py + vy * t, px + vx * t) / DEG;
    return 1;
}

/* A turn toward heading, away from a tree or wall within 60 units ahead. */
static double steer_clear(const jval *me, const jval *world, double heading)
{
    const jval *trees = jget(jget(&init_msg, "map"), "trees");
    double ax = cos(num(me, "heading") * DEG), ay = sin(num(me, "heading") * DEG);
    double rate = num(me, "turn_rate"), rad = num(me, "radius"), look = rad + 60;
    for (size_t i = 0; trees && i < trees->n; i++) {
        const jval *t = &trees->items[i];
        double dx = num(t, "x") - num(me, "x"), dy = num(t, "y") - num(me, "y");
        double ahead = dx * ax + dy * ay, side = dx * ay - dy * ax;
        if (ahead > 0 && ahead < look && fabs(side) < num(t, "r") + rad + 4) return side > 0 ? rate : -rate;
    }
    double nx = num(me, "x") + ax * look, ny = num(me, "y") + ay * look;
    if (!(nx > 0 && nx < num(world, "width") && ny > 0 && ny < num(world, "height"))) return rate;
    return clampd(angdiff(heading, num(me, "heading")) * 2, -rate, rate);
}

/* One tick: writes the answer line. */
static void decide(const jval *me, const jval *world)
{
    const jval *enemies = jget(world, "enemies"), *shells = jget(world, "shells"), *e = NULL;
    for (size_t i = 0; enemies && i < enemies->n; i++)
        if (!e || num(&enemies->items[i], "distance") < num(e, "distance")) e = &enemies->items[i];
    double turn = 0, speed = num(me, "max_speed"), aim;
    if (shells && escape(me, shells, &turn)) {
        /* dodging: full speed, the best turn */
    } else if (e) {
        turn = steer_clear(me, world, num(e, "bearing"));
        if (num(e, "distance") <= 300) speed = 0;
    } else {
        turn = steer_clear(me, world, num(me, "heading") + 20);
    }
    printf("{\"turn\":%.17g,\"speed\":%.17g", turn, speed);
    if (e && lead(me, e, &aim)) {
        int aligned = fabs(angdiff(aim, num(me, "turret"))) <= num(me, "turret_rate") * num(world, "dt");
        printf(",\"turret\":%.17g,\"fire\":%s", aim, num(me, "gun_ready") != 0 && aligned ? "true" : "false");
    }
    printf("}\n");
}

/* One line of any length, without its newline; NULL at EOF. */
static char *read_line(char **buf, size_t *cap)
{
    size_t n = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 2 > *cap) { *cap = *cap ? 2 * *cap : 4096; *buf = xrealloc(*buf, *cap); }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0) return NULL;
    if (!*buf) *buf = xrealloc(NULL, *cap = 1);
    (*buf)[n] = '\0';
    return *buf;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    while (read_line(&line, &cap)) {
        jval msg;
        jp = line;
        if (jparse(&msg) != 0) { fprintf(stderr, "bad line\n"); jfree(&msg); puts("{}"); fflush(stdout); continue; }
        const char *type = str(&msg, "type");
        if (!strcmp(type, "init")) {
            init_msg = msg;
            puts("{\"ok\":true}");
        } else if (!strcmp(type, "tick")) {
            decide(jget(&msg, "me"), jget(&msg, "world"));
            jfree(&msg);
        } else {
            jfree(&msg);  /* "end": nothing to answer */
            continue;
        }
        fflush(stdout);  /* botfield waits for this line */
    }
    free(line);
    jfree(&init_msg);
    return 0;
}
