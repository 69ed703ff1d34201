#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "../core/world.h"
#include "../core/tick.h"

void trace_number(char *buf, double v)
{
    if (!isfinite(v)) {
        strcpy(buf, "null");
        return;
    }
    if (v == 0) {               /* -0 reads back as 0 in most tools anyway */
        strcpy(buf, "0");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Writes a JSON string; ids and names come from the map (lowercased keys,
 * but a `name` may hold anything), so everything is escaped. */
static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void put_num(FILE *f, const char *key, double v)
{
    char b[40];
    trace_number(b, v);
    fprintf(f, ",\"%s\":%s", key, b);
}

static void put_key_str(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    put_str(f, s);
}

static const char *vid(const struct world *w, int i)
{
    return i >= 0 && (size_t)i < w->vehicles.n ? w->vehicles.p[i].id : "";
}

int trace_begin(FILE *f, const struct world *w, const char *version)
{
    fprintf(f, "{\"type\":\"header\",\"format\":1");
    put_key_str(f, "version", version);
    put_key_str(f, "map", w->name ? w->name : "");
    fprintf(f, ",\"seed\":%llu", (unsigned long long)w->seed);
    put_num(f, "tick_rate", w->tick_rate);
    put_num(f, "width", w->width);
    put_num(f, "height", w->height);
    fputs("}\n", f);
    for (size_t i = 0; i < w->trees.n; i++) {
        fputs("{\"type\":\"tree\"", f);
        put_num(f, "x", w->trees.p[i].c.x);
        put_num(f, "y", w->trees.p[i].c.y);
        put_num(f, "r", w->trees.p[i].r);
        fputs("}\n", f);
    }
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        fputs("{\"type\":\"entity\"", f);
        put_key_str(f, "id", v->id);
        put_key_str(f, "kind", vehicle_kind_names[v->kind]);
        if (v->team >= 0)
            put_key_str(f, "team", w->teams.p[v->team].name);
        put_num(f, "radius", v->p->radius);
        if (v->kind == VK_TANK) {
            put_num(f, "length", v->p->length);
            put_num(f, "width", v->p->width);
        }
        fputs("}\n", f);
    }
    for (size_t i = 0; i < w->track.n; i++) {
        fprintf(f, "{\"type\":\"waypoint\",\"index\":%zu", i);
        put_num(f, "x", w->track.p[i].c.x);
        put_num(f, "y", w->track.p[i].c.y);
        put_num(f, "r", w->track.p[i].r);
        fputs("}\n", f);
    }
    return ferror(f) ? -1 : 0;
}

int trace_events(FILE *f, const struct world *w)
{
    for (size_t k = 0; k < w->events.n; k++) {
        const struct event *e = &w->events.p[k];
        fprintf(f, "{\"type\":\"%s\",\"tick\":%ld", event_kind_names[e->kind], w->tick);
        switch (e->kind) {
        case EV_COLLISION:
            put_key_str(f, "a", vid(w, e->a));
            put_key_str(f, "b", vid(w, e->b));
            put_num(f, "distance", e->u.collision.distance);
            break;
        case EV_SIGHT:
            put_key_str(f, "from", vid(w, e->a));
            put_key_str(f, "to", vid(w, e->b));
            put_num(f, "visible", e->u.sight.visible);
            fprintf(f, ",\"seen\":%s", e->u.sight.seen ? "true" : "false");
            put_key_str(f, "method", sight_names[e->u.sight.method]);
            break;
        case EV_AIM:
            put_key_str(f, "shooter", vid(w, e->a));
            put_key_str(f, "target", vid(w, e->b));
            fprintf(f, ",\"ok\":%s", e->u.aim.ok ? "true" : "false");
            if (e->u.aim.ok) {
                put_num(f, "aim_x", e->u.aim.x);
                put_num(f, "aim_y", e->u.aim.y);
                put_num(f, "t_impact", e->u.aim.t_impact);
            } else {
                put_key_str(f, "reason", aim_reason_names[e->u.aim.reason]);
            }
            fprintf(f, ",\"iterations\":%d", e->u.aim.iterations);
            put_key_str(f, "method", aim_names[e->u.aim.method]);
            break;
        case EV_SHOT:
            put_key_str(f, "shooter", vid(w, e->a));
            if (e->b >= 0)
                put_key_str(f, "target", vid(w, e->b));
            put_num(f, "x", e->u.shot.x);
            put_num(f, "y", e->u.shot.y);
            put_num(f, "heading", rad2deg(e->u.shot.heading));
            break;
        case EV_HIT:
            put_key_str(f, "shooter", vid(w, e->a));
            put_key_str(f, "target", vid(w, e->b));
            break;
        case EV_MISS:
            put_key_str(f, "shooter", vid(w, e->a));
            put_key_str(f, "reason", miss_reason_names[e->u.miss.reason]);
            break;
        case EV_KNOCKOUT:
            put_key_str(f, "id", vid(w, e->a));
            break;
        case EV_WAYPOINT_REACHED:
        case EV_WAYPOINT_SKIPPED:
            put_key_str(f, "id", vid(w, e->a));
            fprintf(f, ",\"index\":%d", e->u.waypoint.index);
            break;
        case EV_LAP:
            put_key_str(f, "id", vid(w, e->a));
            fprintf(f, ",\"lap\":%d", e->u.lap.lap);
            put_num(f, "time", e->u.lap.time);
            break;
        case EV_FINISH:
            put_key_str(f, "id", vid(w, e->a));
            put_num(f, "time", e->u.finish.time);
            break;
        }
        fputs("}\n", f);
    }
    return ferror(f) ? -1 : 0;
}

int trace_states(FILE *f, const struct world *w)
{
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        fprintf(f, "{\"type\":\"state\",\"tick\":%ld", w->tick);
        put_key_str(f, "id", v->id);
        put_num(f, "x", v->pos.x);
        put_num(f, "y", v->pos.y);
        put_num(f, "heading", rad2deg(v->heading));
        put_num(f, "speed", v->speed);
        if (v->kind != VK_CAR)
            put_num(f, "turret", rad2deg(v->turret));
        fprintf(f, ",\"alive\":%s}\n", v->alive ? "true" : "false");
    }
    return ferror(f) ? -1 : 0;
}

int trace_summary(FILE *f, const struct world *w)
{
    fprintf(f, "{\"type\":\"summary\",\"ticks\":%ld", w->tick);
    put_num(f, "seconds", (double)w->tick / w->tick_rate);
    fprintf(f, ",\"collisions\":%ld", w->stats.collisions);
    put_num(f, "min_separation", w->stats.min_separation);
    fprintf(f, ",\"edge_hits\":%ld,\"shots\":%ld,\"hits\":%ld",
            w->stats.edge_hits, w->stats.shots, w->stats.hits);
    fputs(",\"knockouts\":{", f);
    for (size_t t = 0; t < w->teams.n; t++) {
        if (t)
            fputc(',', f);
        put_str(f, w->teams.p[t].name);
        fprintf(f, ":%d", w->teams.p[t].knockouts);
    }
    fputs("},\"laps\":{", f);
    int first = 1;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (v->kind != VK_CAR)
            continue;
        if (!first)
            fputc(',', f);
        first = 0;
        put_str(f, v->id);
        fprintf(f, ":%d", world_race_state(w, v).laps);
    }
    fputs("},\"best_lap\":{", f);
    first = 1;
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        if (v->kind != VK_CAR)
            continue;
        char b[40];
        if (world_race_state(w, v).laps > 0)
            trace_number(b, world_race_state(w, v).best_lap);
        else
            strcpy(b, "null");
        fprintf(f, "%s", first ? "" : ",");
        first = 0;
        put_str(f, v->id);
        fprintf(f, ":%s", b);
    }
    fputs("},\"winner\":", f);
    int winner = -1, left = 0;
    if (tick_teams_started(w) >= 2)
        for (size_t t = 0; t < w->teams.n; t++)
            if (w->teams.p[t].alive > 0) {
                left++;
                winner = (int)t;
            }
    if (left == 1)
        put_str(f, w->teams.p[winner].name);
    else
        fputs("null", f);
    fputs("}\n", f);
    return ferror(f) ? -1 : 0;
}
