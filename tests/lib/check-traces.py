#!/usr/bin/env python3
"""check-traces.py [--exact-edges] TRACE.jsonl... -- what every trace must be.

For each trace: every line is JSON (no NaN, Infinity or other non-standard
constant), every number is finite, null stands only where the format allows
it (the summary's min_separation, best_lap values and winner), and the
summary agrees with a recount of the trace (tests/cli/recount.sh runs it on the
bundled maps: collisions, shots, hits, knockouts, laps, best laps from the
events; min_separation and edge_hits from the state lines).  Prints one line
per problem, "NAME: problem", and exits 1 when there was any.

edge_hits is checked as at most the recount (its tolerance can only add
touches: on the generated maps' extreme sizes it does); with --exact-edges
(the bundled maps, tests/cli/recount.sh) it must equal the recount.
"""
import json
import math
import os
import sys
from collections import defaultdict

NULLABLE = {("summary", "min_separation"), ("summary", "winner"),
            ("summary", "won_by"),
            # a match: a round drawn, the round line's winner and how
            ("summary", "rounds"), ("round", "winner"), ("round", "won_by"),
            # decide lines: no threat, no target, a speed any will do, no
            # bot error, an unpriced candidate
            ("decide", "avoid"), ("decide", "aim"), ("decide", "race"),
            ("decide", "bot"),
            # a bot's or player's shot aims at no one
            ("shot", "target")}


def bad_constant(name):
    raise ValueError("non-standard JSON constant " + name)


def walk(obj, kind, key, path, out):
    if isinstance(obj, bool) or isinstance(obj, str):
        return
    if obj is None:
        if (kind, key) not in NULLABLE and not (kind == "summary" and path.startswith("best_lap.")):
            out.append("null at %s.%s" % (kind, path))
        return
    if isinstance(obj, (int, float)):
        if isinstance(obj, float) and not math.isfinite(obj):
            out.append("non-finite number at %s.%s" % (kind, path))
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            walk(v, kind, key if key else k, (path + "." if path else "") + k, out)
        return
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            walk(v, kind, key, "%s[%d]" % (path, i), out)
        return
    out.append("unexpected value at %s.%s" % (kind, path))


def recount(lines, out, exact_edges=False):
    head, summary = lines[0], lines[-1]
    if head.get("type") != "header" or summary.get("type") != "summary":
        out.append("no header first or no summary last")
        return
    W, H = head["width"], head["height"]
    ent = {o["id"]: o for o in lines if o["type"] == "entity"}
    ev = defaultdict(list)
    states = defaultdict(dict)
    for o in lines:
        if o["type"] == "state":
            states[o["tick"]][o["id"]] = o
        else:
            ev[o["type"]].append(o)

    def same(what, got, want, tol=0.0):
        if got is None or want is None:
            if got != want:
                out.append("%s: summary %s, recount %s" % (what, got, want))
        elif abs(got - want) > tol:
            out.append("%s: summary %s, recount %s" % (what, got, want))

    same("collisions", summary["collisions"], len(ev["collision"]))
    same("shots", summary["shots"], len(ev["shot"]))
    same("hits", summary["hits"], len(ev["hit"]))
    ko = defaultdict(int)
    # a match's knockouts are its last round's (the teams start anew)
    start = max([r["tick"] for r in ev["round"] if r["tick"] < summary["ticks"]], default=-1)
    for o in ev["knockout"]:
        if o["tick"] > start:
            ko[ent[o["id"]]["team"]] += 1
    for team, n in summary["knockouts"].items():
        same("knockouts " + team, n, ko[team])
    # A knockout names its shooter (by): one whose shell hit it that tick.
    hitters = defaultdict(set)
    for o in ev["hit"]:
        hitters[(o["tick"], o["target"])].add(o["shooter"])
    for o in ev["knockout"]:
        if o.get("by") not in hitters[(o["tick"], o["id"])]:
            out.append("knockout of %s on tick %d: by %r, hit by %s" % (
                o["id"], o["tick"], o.get("by"), sorted(hitters[(o["tick"], o["id"])])))
    laps = defaultdict(int)
    best = {}
    for o in ev["lap"]:
        laps[o["id"]] += 1
        if o["clean"]:      # best_lap counts clean laps only
            best[o["id"]] = min(best.get(o["id"], math.inf), o["time"])
    for car, n in summary["laps"].items():
        same("laps " + car, n, laps[car])
        same("best lap " + car, summary["best_lap"][car], best.get(car), 1e-9)
    if "rounds" in summary:
        recount_match(ev["round"], summary, out)
    recount_scores(lines, ent, summary, same, out)
    # Separation over ticks 0..N (botfield(6) HEADLESS OUTPUT: over the run, the vehicles as
    # loaded included), edge touches after every update (ticks 1..N); the
    # tolerance is relative: on a 1e6 map 1e-9 is below one ulp.
    # A vehicle knocked out on a tick has still moved on it (and may have
    # touched the edge): edges count what was alive before the tick.
    # An exact count takes 1e-9 whatever the size: the relative one (2e-6
    # on crowd.ini's 2000 x 1800) counts its tanks standing 1e-6 off the
    # edge, which the program rightly does not count as touches.
    minsep, edge = math.inf, 0
    eps = 1e-9 if exact_edges else 1e-9 * max(1.0, W, H)
    for t, st in states.items():
        before = states.get(t - 1, {})
        for i, s in st.items():
            if t == 0:
                break           # edge touches come from updates only
            x, y, r = s["x"], s["y"], ent[i]["radius"]
            if ent[i]["kind"] != "turret" and before.get(i, s)["alive"] and \
               (x - r <= eps or x + r >= W - eps or y - r <= eps or y + r >= H - eps):
                edge += 1
        alive = [(s["x"], s["y"], ent[i]["radius"], ent[i]["kind"])
                 for i, s in st.items() if s["alive"]]
        for k, (x, y, r, kind) in enumerate(alive):
            for (x2, y2, r2, _) in alive[k + 1:]:
                minsep = min(minsep, math.hypot(x - x2, y - y2) - r - r2)
    if ent and len(states) != summary["ticks"] + 1:
        out.append("not every tick has state lines")
        return
    want = minsep if minsep < math.inf else None
    tol = 1e-9 * max(1.0, abs(want) if want is not None else 0.0, W, H)
    same("min_separation", summary["min_separation"], want, tol)
    # edge_hits is counted by the program with its own exact test; the
    # recount's tolerance can only add touches, never lose one.
    if exact_edges:
        same("edge_hits", summary["edge_hits"], edge)
    elif summary["edge_hits"] > edge:
        out.append("edge_hits: summary %s, recount at most %s" % (summary["edge_hits"], edge))


SCORE = {"damage": 10, "kills": 20, "survival": 5, "last": 10}


def recount_match(rounds, summary, out):
    """A match of several rounds (botfield(6) Summary): its rounds are the
    round lines' winners by round number, round_wins counts them, and the
    winner is the team of the higher total score (null on a tie)."""
    got = {str(o["round"]): o["winner"] for o in rounds}
    if summary["rounds"] != got:
        out.append("rounds: summary %s, round lines %s" % (summary["rounds"], got))
    wins = {t: 0 for t in summary["round_wins"]}
    for o in rounds:
        if o["winner"] is not None:
            wins[o["winner"]] = wins.get(o["winner"], 0) + 1
    if summary["round_wins"] != wins:
        out.append("round_wins: summary %s, recount %s" % (summary["round_wins"], wins))
    if not rounds or rounds[-1]["round"] < rounds[-1]["rounds"]:
        return                  # stopped in a round: no match winner to judge
    total = summary["scores"]
    best = max(total.values(), default=0)
    top = [t for t, n in total.items() if n == best]
    winner = top[0] if len(top) == 1 else None
    if summary["winner"] != winner:
        out.append("winner: summary %s, recount %s" % (summary["winner"], winner))


def recount_scores(lines, ent, summary, same, out):
    """The scores (botfield(6) SCORES) from the hit and knockout lines: a
    knockout's shooter is the shooter of the last hit on it that tick.
    A match's: the sums of its round lines' (each round starts anew)."""
    rounds = [o for o in lines if o["type"] == "round"]
    if rounds:
        if rounds[-1]["round"] < rounds[-1]["rounds"]:
            return              # stopped in a round: its scores so far count too
        for k in ("damage", "kills", "survival", "last", "scores"):
            for t in summary[k]:
                same("%s %s (rounds' sum)" % (k, t), summary[k][t],
                     sum(r[k][t] for r in rounds))
        return
    team = {i: e["team"] for i, e in ent.items() if e["kind"] in ("tank", "turret")}
    sc = {i: dict.fromkeys(SCORE, 0) for i in team}
    last_hit, out_at, kos = {}, {}, []
    for o in lines:
        if o["type"] == "hit":
            s, t = o["shooter"], o["target"]
            sc[s]["damage"] += 1 if team[s] != team[t] else -1
            last_hit[t] = (o["tick"], s)
        elif o["type"] == "knockout":
            t = o["id"]
            tick, s = last_hit.get(t, (None, None))
            if tick != o["tick"]:
                out.append("knockout of %s at tick %s without a hit that tick" % (t, o["tick"]))
            elif team[s] != team[t]:
                sc[s]["kills"] += 1
            out_at[t] = o["tick"]
            kos.append(o)
    # alive when it fell: not knocked out on an earlier tick
    for o in kos:
        for v in team:
            if team[v] != team[o["id"]] and out_at.get(v, math.inf) >= o["tick"]:
                sc[v]["survival"] += 1
    started = set(team.values())
    left = {team[v] for v in team if v not in out_at}
    if len(started) >= 2 and len(left) == 1:
        won = next(iter(left))
        for v in team:
            if team[v] == won:
                sc[v]["last"] = sum(1 for u in team if team[u] != won)
    key = {"damage": "damage", "kills": "kills", "survival": "survival",
           "last": "last", "score": "scores"}
    teams = {k: dict.fromkeys(key, 0) for k in summary["scores"]}
    for v, s in sc.items():
        s["score"] = sum(SCORE[k] * s[k] for k in SCORE)
        for k, n in s.items():
            teams[team[v]][k] += n
            same("vehicle_%s %s" % (key[k], v), summary["vehicle_" + key[k]][v], n)
    for t, s in teams.items():
        for k, n in s.items():
            same("%s %s" % (key[k], t), summary[key[k]][t], n)
    winner, won_by = None, None
    if len(started) >= 2 and len(left) == 1:
        winner, won_by = next(iter(left)), "last_standing"
    elif len(started) >= 2 and len(left) >= 2:
        best = max(teams[t]["score"] for t in started)
        top = [t for t in started if teams[t]["score"] == best]
        winner, won_by = (top[0] if len(top) == 1 else None), "score"
    if summary["winner"] != winner or summary["won_by"] != won_by:
        out.append("winner: summary %s by %s, recount %s by %s"
                   % (summary["winner"], summary["won_by"], winner, won_by))


def check(path, exact_edges=False):
    out = []
    lines = []
    with open(path, encoding="utf-8", errors="strict") as f:
        for n, text in enumerate(f, 1):
            try:
                o = json.loads(text, parse_constant=bad_constant)
            except ValueError as e:
                out.append("line %d: not JSON: %s" % (n, e))
                continue
            if not isinstance(o, dict) or "type" not in o:
                out.append("line %d: not an object with a type" % n)
                continue
            walk(o, o["type"], None, "", out)
            lines.append(o)
    if not out:
        try:
            recount(lines, out, exact_edges)
        except (KeyError, IndexError, TypeError) as e:
            out.append("recount failed: %r" % (e,))
    return out


def main():
    failed = 0
    args = sys.argv[1:]
    exact_edges = bool(args) and args[0] == "--exact-edges"
    for p in args[exact_edges:]:
        probs = check(p, exact_edges)
        name = os.path.basename(p)
        for q in probs[:5]:
            print("%s: %s" % (name, q))
        failed += bool(probs)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
