#!/usr/bin/env python3
"""trace-schema.py TRACE.jsonl... -- every line against botfield(6) HEADLESS OUTPUT, field by field.

An independent reading of the contract (botfield(6), HEADLESS OUTPUT): each line
type's required fields and their JSON types, the order of the start lines
(header, trees, entities, waypoints), ticks that never go back, a tick's
events before its state lines, the summary last.  Prints "NAME: problem"
per problem and exits 1 when there was any.
"""
import json
import sys

NUM = (int, float)
STR = (str,)
BOOL = (bool,)
INT = (int,)
NULLSTR = (str, type(None))

# type -> {field: allowed JSON types}; the fields botfield(6) HEADLESS OUTPUT names.
REQUIRED = {
    "header": {"format": INT, "version": STR, "map": STR, "seed": INT,
               "tick_rate": NUM, "width": NUM, "height": NUM, "lua": STR},
    "tree": {"x": NUM, "y": NUM, "r": NUM},
    "waypoint": {"index": INT, "x": NUM, "y": NUM, "r": NUM},
    "state": {"tick": INT, "id": STR, "x": NUM, "y": NUM, "heading": NUM,
              "speed": NUM, "alive": BOOL},
    "collision": {"tick": INT, "a": STR, "b": STR, "distance": NUM},
    "sight": {"tick": INT, "from": STR, "to": STR, "visible": NUM,
              "seen": BOOL, "method": STR},
    "aim": {"tick": INT, "shooter": STR, "target": STR, "ok": BOOL,
            "iterations": INT, "method": STR},
    "shot": {"tick": INT, "shooter": STR, "target": NULLSTR, "x": NUM,
             "y": NUM, "heading": NUM, "shell": INT},
    "hit": {"tick": INT, "shooter": STR, "target": STR, "shell": INT,
            "x": NUM, "y": NUM},
    "miss": {"tick": INT, "shooter": STR, "reason": STR, "shell": INT,
             "x": NUM, "y": NUM},
    "knockout": {"tick": INT, "id": STR, "by": STR},
    "waypoint_reached": {"tick": INT, "id": STR, "index": INT},
    "waypoint_skipped": {"tick": INT, "id": STR, "index": INT},
    "lap": {"tick": INT, "id": STR, "lap": INT, "time": NUM, "clean": BOOL},
    "finish": {"tick": INT, "id": STR, "time": NUM},
    "bot_error": {"tick": INT, "id": STR, "error": STR},
    "log": {"tick": INT, "id": STR, "text": STR},
    # botfield-bots(7): a message to the team (out.say), its data any JSON
    "say": {"tick": INT, "id": STR, "data": (dict, list, str, int, float, bool)},
    # botfield-bots(7): a live reload (the viewer's) of a changed script
    "bot_reload": {"tick": INT, "id": STR, "bot_sha256": STR},
    # botfield(6), [match] rounds: a round's end, its winner and scores
    "round": {"tick": INT, "round": INT, "rounds": INT, "winner": NULLSTR,
              "won_by": NULLSTR, "scores": (dict,), "damage": (dict,),
              "kills": (dict,), "survival": (dict,), "last": (dict,)},
    "summary": {"ticks": INT, "seconds": NUM, "collisions": INT,
                "min_separation": (int, float, type(None)), "edge_hits": INT,
                "shots": INT, "hits": INT, "knockouts": (dict,),
                "laps": (dict,), "best_lap": (dict,),
                "winner": NULLSTR, "won_by": NULLSTR, "scores": (dict,),
                "damage": (dict,), "kills": (dict,), "survival": (dict,),
                "last": (dict,), "vehicle_scores": (dict,),
                "vehicle_damage": (dict,), "vehicle_kills": (dict,),
                "vehicle_survival": (dict,), "vehicle_last": (dict,)},
}
ENTITY = {
    "tank": {"id": STR, "team": STR, "radius": NUM, "length": NUM, "width": NUM,
             "behaviour": STR, "speed": NUM, "turn_rate": NUM, "avoid": STR,
             "collision_range": NUM, "fov": NUM, "view_range": NUM, "sight": STR,
             "turret_rate": NUM, "shell_speed": NUM, "range": NUM, "reload": NUM,
             "aim": STR, "health": INT},
    "turret": {"id": STR, "team": STR, "radius": NUM, "facing": NUM, "fov": NUM,
               "view_range": NUM, "sight": STR, "turret_rate": NUM,
               "shell_speed": NUM, "range": NUM, "reload": NUM, "aim": STR,
               "health": INT},
    "car": {"id": STR, "radius": NUM, "max_speed": NUM, "min_speed": NUM,
            "accel": NUM, "brake": NUM, "turn_rate": NUM, "back_angle": NUM,
            "speed_rule": STR, "steer": STR},
}
ENUMS = {("aim", "reason"): {"out_of_range", "too_fast", "no_convergence"},
         ("miss", "reason"): {"tree", "range", "edge"},
         ("sight", "method"): {"classic", "exact"},
         ("aim", "method"): {"none", "classic", "exact"}}
START = ["header", "tree", "entity", "waypoint"]
# A match's summary has these too (its score fields are the match's
# totals): each round's winner by round number, and the rounds each team won.
MATCH_SUMMARY = {"rounds": (dict,), "round_wins": (dict,)}


def check(name, out):
    lines = []
    with open(name) as f:
        for n, text in enumerate(f, 1):
            try:
                lines.append(json.loads(text, parse_constant=lambda c: 1 / 0))
            except Exception as e:  # noqa: BLE001
                out.append("line %d: not JSON (%s)" % (n, e))
                return
    if not lines or lines[0].get("type") != "header" or lines[-1].get("type") != "summary":
        out.append("not header first and summary last")
        return
    phase, tick, states_seen, ids = 0, -1, False, {}
    for n, o in enumerate(lines, 1):
        t = o.get("type")
        want = ENTITY.get(o.get("kind")) if t == "entity" else REQUIRED.get(t)
        if t == "decide":
            continue
        if t == "summary" and "rounds" in o:
            want = dict(want, **MATCH_SUMMARY)
        if want is None:
            out.append("line %d: unknown type or kind %r" % (n, t))
            continue
        for k, ty in want.items():
            if k not in o:
                out.append("line %d: %s without %s" % (n, t, k))
            elif not isinstance(o[k], ty) or (ty != BOOL and isinstance(o[k], bool)):
                out.append("line %d: %s.%s is %r" % (n, t, k, o[k]))
        for (lt, k), allowed in ENUMS.items():
            if t == lt and k in o and o[k] not in allowed:
                out.append("line %d: %s.%s = %r" % (n, t, k, o[k]))
        if t == "aim":
            fields = ("aim_x", "aim_y", "t_impact") if o.get("ok") else ("reason",)
            for k in fields:
                if k not in o:
                    out.append("line %d: aim ok=%s without %s" % (n, o.get("ok"), k))
        if t == "entity":
            ids[o["id"]] = o["kind"]
        if t == "state" and ids.get(o.get("id")) in ("tank", "turret"):
            for k in ("turret", "team"):
                if k not in o:
                    out.append("line %d: a %s's state without %s" % (n, ids[o["id"]], k))
        prev = lines[n - 2].get("type") if n >= 2 else None
        if t == "tree" and tick >= 0:
            # a match of random trees: a round's trees follow the round
            # line of the round before
            if prev not in ("round", "tree"):
                out.append("line %d: tree after the first state, not at a round's start" % n)
            continue
        if t in START:
            if START.index(t) < phase or (t == "header" and n != 1):
                out.append("line %d: %s after a later kind of start line" % (n, t))
            phase = START.index(t)
            if tick >= 0:
                out.append("line %d: %s after the first state" % (n, t))
            continue
        if t == "summary":
            if n != len(lines):
                out.append("line %d: summary before the end" % n)
            continue
        if o["tick"] < tick:
            out.append("line %d: tick %d after tick %d" % (n, o["tick"], tick))
        if o["tick"] > tick:
            tick, states_seen = o["tick"], False
        if t == "state":
            states_seen = True
        elif states_seen and t != "round":     # a round's end: after its states
            out.append("line %d: %s event after tick %d's state lines" % (n, t, tick))
        if t != "state" and o["tick"] == 0:
            out.append("line %d: an event on tick 0" % n)


def main():
    bad = 0
    for name in sys.argv[1:]:
        out = []
        check(name, out)
        for p in out[:20]:
            print("%s: %s" % (name, p))
        bad |= bool(out)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
