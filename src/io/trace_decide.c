/* trace_decide.c — `decide` lines (--trace-decisions): one per live
 * vehicle per tick, printing the records the tick made while deciding
 * (explain.h, and the avoidance, sight, aim and race records it points
 * to); nothing here decides or computes a decision again.  Angles in
 * degrees, signed (+: clockwise on screen, towards +y), as everywhere in
 * a trace.  A value that is infinite by nature (any speed will do, a
 * circle that cannot be turned) is written null. */
#include "config.h"

#include <math.h>

#include "trace.h"
#include "trace_put.h"
#include "../core/explain.h"
#include "../core/tick.h"
#include "../core/world.h"

static void put_bool(FILE *f, const char *key, int b)
{
    fprintf(f, ",\"%s\":%s", key, b ? "true" : "false");
}

/* A number that may be infinite by nature: null then. */
static void put_or_null(FILE *f, const char *key, double v)
{
    if (isfinite(v))
        trace_put_num(f, key, v);
    else
        fprintf(f, ",\"%s\":null", key);
}

static const char *vid(const struct world *w, int i)
{
    return i >= 0 && (size_t)i < w->vehicles.n ? w->vehicles.p[i].id : "";
}

/* `,"key":{"first":` -- an object whose first member has no comma. */
static void open_obj(FILE *f, const char *key, const char *first)
{
    fprintf(f, ",\"%s\":{\"%s\":", key, first);
}

static void put_wander(FILE *f, const struct explain_wander *x)
{
    open_obj(f, "wander", "rule");
    trace_put_str(f, wander_rule_names[x->rule]);
    trace_put_num(f, "drawn", rad2deg(x->drawn));
    trace_put_num(f, "turn", rad2deg(x->turn));
    trace_put_num(f, "left", rad2deg(x->left));
    trace_put_num(f, "margin", x->margin);
    if (x->rule == WANDER_EDGE && x->drawn != 0) {
        trace_put_num(f, "clear_right", x->clear_right);
        trace_put_num(f, "clear_left", x->clear_left);
        trace_put_key_str(f, "side", x->side_random ? "random" : "clearer");
    }
    fputc('}', f);
}

static void put_avoid(FILE *f, const struct world *w, const struct vehicle *v,
                      const struct explain_avoid *x)
{
    const struct avoid_info *a = &v->avoid;
    open_obj(f, "avoid", "method");
    trace_put_str(f, avoid_names[v->p->avoid]);
    if (a->threat >= 0 || a->shell > 0) {
        /* a shell threat: threat null, its id in shell */
        if (a->threat >= 0)
            trace_put_key_str(f, "threat", vid(w, a->threat));
        else
            fprintf(f, ",\"threat\":null,\"shell\":%ld", a->shell);
        trace_put_num(f, "distance", a->threat_dist);
        trace_put_num(f, "hit_x", a->hit_point.x);
        trace_put_num(f, "hit_y", a->hit_point.y);
        if (v->p->avoid == AVOID_PREDICTIVE) {
            trace_put_num(f, "tca", a->tca);
            trace_put_num(f, "dca", a->dca);
        }
    } else {
        fputs(",\"threat\":null", f);
    }
    put_bool(f, "steer", a->steer);
    trace_put_key_str(f, "side", a->turn < 0 ? "left" : a->turn > 0 ? "right" : "none");
    put_bool(f, "limited", a->limited);
    if (!x->ran) {
        /* a bot's call of avoid.*: its record, not the row's */
        fputc('}', f);
        return;
    }
    trace_put_num(f, "planned_turn", rad2deg(x->planned));
    trace_put_num(f, "turn", rad2deg(x->turn));
    trace_put_num(f, "speed", x->speed);
    put_bool(f, "postponed", x->postponed);
    if (x->planned_now) {
        fprintf(f, ",\"chosen\":%d,\"candidates\":[", x->chosen);
        for (int c = 0; c < EXPLAIN_CANDS; c++) {
            fprintf(f, "%s{\"turn\":", c ? "," : "");
            char b[40];
            trace_number(b, rad2deg(x->cand_turn[c]));
            fputs(b, f);
            trace_put_num(f, "speed", x->cand_speed[c]);
            put_or_null(f, "cost", x->cost[c]);
            put_bool(f, "tried", x->tried[c]);
            fputc('}', f);
        }
        fputc(']', f);
    }
    fputc('}', f);
}

static void put_sight(FILE *f, const struct world *w, const struct vehicle *v)
{
    fputs(",\"sight\":[", f);
    for (int k = 0; k < v->sight_count; k++) {
        size_t r = (size_t)(v->sight_first + k);
        if (v->sight_first < 0 || r >= w->now.sights.n)
            break;
        const struct sight_record *s = &w->now.sights.p[r];
        fprintf(f, "%s{\"to\":", k ? "," : "");
        trace_put_str(f, vid(w, s->target));
        trace_put_key_str(f, "method", sight_names[v->p->sight]);
        trace_put_num(f, "distance", sight_record_distance(s));
        trace_put_num(f, "visible", s->visible);
        trace_put_num(f, "threshold", s->threshold);
        trace_put_key_str(f, "rule", sight_rule_names[s->rule]);
        put_bool(f, "seen", s->seen);
        fputc('}', f);
    }
    fputc(']', f);
}

static void put_aim(FILE *f, const struct world *w, const struct vehicle *v)
{
    const struct aim_info *ai = world_aim(w, v);
    if (!ai || ai->target < 0) {
        fputs(",\"aim\":null", f);
        return;
    }
    open_obj(f, "aim", "target");
    trace_put_str(f, vid(w, ai->target));
    trace_put_key_str(f, "method", aim_names[v->p->aim]);
    put_bool(f, "ok", ai->ok);
    trace_put_key_str(f, "reason", aim_reason_names[ai->reason]);
    if (ai->ok) {
        trace_put_num(f, "aim_x", ai->aim_point.x);
        trace_put_num(f, "aim_y", ai->aim_point.y);
        trace_put_num(f, "t_impact", ai->t_impact);
        trace_put_num(f, "t_rotate", ai->t_rotate);
        trace_put_num(f, "t_fire", ai->t_fire);
    }
    fprintf(f, ",\"iterations\":%d", ai->iterations);
    put_or_null(f, "bracket_lo", ai->bracket_lo);
    put_or_null(f, "bracket_hi", ai->bracket_hi);
    fputc('}', f);
}

static void put_race(FILE *f, const struct world *w, const struct vehicle *v,
                     const struct explain_race *x)
{
    const struct racer *rc = world_racer(w, v);
    if (!rc)
        return;
    const struct race_info *ri = &rc->info;
    fprintf(f, ",\"race\":{\"next\":%d", ri->next);
    if (ri->circle_r > 0)
        put_or_null(f, "turning_radius", ri->circle_r);
    trace_put_num(f, "target_speed", ri->target_speed);
    trace_put_key_str(f, "brake", brake_reason_names[ri->reason]);
    if (x->ran && v->p->speed_rule == SPEED_RULE_EXACT && v->kind == VK_CAR)
        put_or_null(f, "reach_speed", x->reach_speed);
    if (x->corner >= 0) {
        fprintf(f, ",\"corner\":%d", x->corner);
        trace_put_num(f, "corner_speed", x->corner_speed);
        trace_put_num(f, "corner_distance", x->corner_dist);
        trace_put_num(f, "allowed", x->allowed);
    }
    fputc('}', f);
}

static void put_bot(FILE *f, const struct explain_bot *x)
{
    fprintf(f, ",\"bot\":{\"instructions\":%ld,\"budget\":%ld", x->instructions, x->budget);
    /* Not the heap in use (the inspector shows it): Lua lays tables out
     * by a string-hash seed it draws afresh for every state, so when a
     * table grows, and the heap's byte count with it, differs a little
     * from run to run; the trace is the same bytes every run. */
    fprintf(f, ",\"memory\":%zu", x->memory);
    put_bool(f, "abandoned", x->abandoned);
    put_bool(f, "disabled", x->disabled);
    if (x->error && x->error[0])
        trace_put_key_str(f, "error", x->error);
    else
        fputs(",\"error\":null", f);
    fputc('}', f);
}

int trace_decisions(FILE *f, const struct world *w)
{
    for (size_t i = 0; i < w->vehicles.n; i++) {
        const struct vehicle *v = &w->vehicles.p[i];
        const struct explain *x = world_explain(w, (int)i);
        if (!x)
            continue;
        const struct intent *d = &x->want;
        fprintf(f, "{\"type\":\"decide\",\"tick\":%ld", w->tick);
        trace_put_key_str(f, "id", v->id);
        trace_put_num(f, "turn", rad2deg(d->turn));
        trace_put_num(f, "speed", d->speed);
        if (v->kind != VK_CAR) {
            trace_put_num(f, "turret_turn", rad2deg(d->turret));
            put_bool(f, "fire", d->fire);
        }
        if (x->bot.ran)
            put_bot(f, &x->bot);
        if (x->wander.ran)
            put_wander(f, &x->wander);
        if ((x->avoid.ran && v->p->avoid != AVOID_NONE)
            || (x->bot.ran && v->kind == VK_TANK && (v->avoid.threat >= 0 || v->avoid.steer)))
            put_avoid(f, w, v, &x->avoid);
        if (v->kind != VK_CAR) {
            put_sight(f, w, v);
            put_aim(f, w, v);
        }
        put_race(f, w, v, &x->race);
        fputs("}\n", f);
    }
    return trace_status(f);
}
