#!/usr/bin/env python3
"""A botfield process bot in Python 3, standard library only.

Run it:  botfield --bot-process tank.red='python3 bot.py' map.ini

How the protocol works (botfield-bots(7), PROCESS BOTS): botfield writes
one JSON object a line to our standard input and waits for one line on
our standard output, in lockstep:
  {"type":"init", ...}   once, first: the map (its trees) and "me";
                         any one line answers it.
  {"type":"tick", "tick":T, "me":{...}, "world":{...}}
                         each tick; we answer {"turn":..,"speed":..,
                         "turret":..,"fire":..} (every field optional).
  {"type":"end"}         the run is over; no answer is read.
Each answer must be ONE line and flushed at once, or botfield waits for
it until its timeout.  Anything printed to standard error becomes this
bot's log lines: use sys.stderr for debugging, never print() to stdout.

Angles are degrees, 0 along +x, 90 along +y (down the screen), growing
clockwise; distances are map units, speeds units per second.

The strategy (change it in decide(), below):
  1. an enemy shell on a collision course: drive on at full speed,
     turning whichever way passes furthest from it;
  2. else an enemy in sight: face it, close in to 300 units;
  3. else wander, turning away from trees and walls ahead;
and always aim the turret where the enemy WILL be when the shell arrives
(a lead), firing once the turret points there.
"""
import json
import math
import sys

MARGIN = 8      # let shells pass at least this far outside our hull
HORIZON = 3.0   # seconds: a shell further off than that can wait
trees = []      # the map's trees, from the init line: {"x","y","r"}


def angdiff(a, b):
    """The smallest difference a - b between two directions, in [-180, 180)."""
    return (a - b + 180) % 360 - 180


def velocity(heading, speed):
    """A velocity (vx, vy) from a heading in degrees and a speed."""
    a = math.radians(heading)
    return speed * math.cos(a), speed * math.sin(a)


def closest(me, shell, heading, speed):
    """How close a shell passes if we drive at (heading, speed), and when.

    In our frame the shell moves in a straight line at (its velocity -
    ours); the closest point is at t = -(p.v)/(v.v), kept in [0, HORIZON].
    """
    sx, sy = velocity(shell["heading"], shell["speed"])
    mx, my = velocity(heading, speed)
    px, py = shell["x"] - me["x"], shell["y"] - me["y"]
    vx, vy = sx - mx, sy - my
    vv = vx * vx + vy * vy
    t = 0.0
    if vv > 0:
        t = max(0.0, min(HORIZON, -(px * vx + py * vy) / vv))
    return math.hypot(px + vx * t, py + vy * t), t


def threats(me, world):
    """The enemy shells that hit us if we keep driving as we do."""
    out = []
    for s in world["shells"]:
        if s["mine"] or s["team"] == me["team"]:
            continue                      # ours are not aimed at us
        d, t = closest(me, s, me["heading"], me["speed"])
        if d < me["radius"] + MARGIN and t > 0:
            out.append(s)
    return out


def escape(me, shells):
    """Full speed, turning left, right or not at all: the turn whose path
    passes furthest from every threat (a tank cannot strafe)."""
    best, best_gap = 0.0, -1.0
    for turn in (-me["turn_rate"], 0.0, me["turn_rate"]):
        heading = me["heading"] + turn * 0.5   # where we head in 0.5 s
        gap = min(closest(me, s, heading, me["max_speed"])[0] for s in shells)
        if gap > best_gap:
            best, best_gap = turn, gap
    return best


def lead(me, e):
    """The turret direction whose shell meets enemy e, given its speed:
    the smallest t > 0 with |p + v t| = shell_speed * t.  None if the
    shell cannot catch it."""
    px, py = e["x"] - me["x"], e["y"] - me["y"]
    vx, vy = velocity(e["heading"], e["speed"])
    s = me["shell_speed"]
    a = vx * vx + vy * vy - s * s
    b = 2 * (px * vx + py * vy)
    c = px * px + py * py
    if abs(a) < 1e-9:
        t = -c / b if b < 0 else -1.0
    else:
        disc = b * b - 4 * a * c
        if disc < 0:
            return None
        r = math.sqrt(disc)
        ts = [t for t in ((-b - r) / (2 * a), (-b + r) / (2 * a)) if t > 0]
        t = min(ts) if ts else -1.0
    if t <= 0:
        return None
    return math.degrees(math.atan2(py + vy * t, px + vx * t))


def steer_clear(me, world, heading):
    """Turn (degrees a second) toward heading, away from a tree or wall
    in the next 60 units ahead."""
    ax, ay = velocity(me["heading"], 1.0)
    look = me["radius"] + 60
    for t in trees:
        dx, dy = t["x"] - me["x"], t["y"] - me["y"]
        ahead = dx * ax + dy * ay                 # along our heading
        side = dx * ay - dy * ax                  # > 0: the tree is on our left
        if 0 < ahead < look and abs(side) < t["r"] + me["radius"] + 4:
            return me["turn_rate"] if side > 0 else -me["turn_rate"]
    nx, ny = me["x"] + ax * look, me["y"] + ay * look
    if not (0 < nx < world["width"] and 0 < ny < world["height"]):
        return me["turn_rate"]                     # a wall: turn right
    return max(-me["turn_rate"], min(me["turn_rate"], angdiff(heading, me["heading"]) * 2))


def decide(me, world):
    """One tick: our answer as a dict.  The strategy is here."""
    out = {}
    enemies = world["enemies"]
    e = min(enemies, key=lambda x: x["distance"]) if enemies else None

    # 1. Driving: dodge first, else face the enemy, else wander.
    danger = threats(me, world)
    if danger:
        out["turn"], out["speed"] = escape(me, danger), me["max_speed"]
    elif e:
        out["turn"] = steer_clear(me, world, e["bearing"])
        out["speed"] = me["max_speed"] if e["distance"] > 300 else 0
    else:
        out["turn"] = steer_clear(me, world, me["heading"] + 20)
        out["speed"] = me["max_speed"]

    # 2. Fighting: lead the shot; fire once the turret points there (the
    # shell leaves along the turret, so firing while it turns is a waste).
    if e:
        aim = lead(me, e)
        if aim is not None:
            out["turret"] = aim
            aligned = abs(angdiff(aim, me["turret"])) <= me["turret_rate"] * world["dt"]
            out["fire"] = bool(me["gun_ready"] and aligned)
    return out


def main():
    global trees
    for line in sys.stdin:                # one message a line; EOF: done
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "init":
            trees = msg["map"]["trees"]
            answer = {"ok": True}
        elif kind == "tick":
            answer = decide(msg["me"], msg["world"])
        else:                             # "end": nothing to answer
            continue
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()                # botfield waits for this line


if __name__ == "__main__":
    main()
