#!/bin/sh
# botfield(6) MAP FORMAT, key by key: each key's range at both ends (the bounds themselves
# accepted, just outside refused with exit 2 and a message naming file,
# line, section and key), NaN and infinities refused, the enum words the
# contract names accepted, and the line-length rule at 1,024 bytes.
. "$top_srcdir/tests/lib/lib.sh"
python3 - "$BOTFIELD" "$TMPD" <<'PY'
import subprocess, sys
B, D = sys.argv[1], sys.argv[2]
BASE = {"map": {"width": "1000", "height": "1000"}, "team.red": {}, "team.blue": {},
        "tank.a": {"team": "red", "x": "200", "y": "200"},
        "turret.b": {"team": "blue", "x": "800", "y": "800"},
        "track": {"waypoints": "100 100 30, 900 100 30, 900 900 30"},
        "car.c": {"x": "500", "y": "500"}, "sight": {}, "trees": {}}
def check(sec, key, val):
    m = {s: dict(v) for s, v in BASE.items()}
    m[sec][key] = val
    text = "".join("[%s]\n" % s + "".join("%s = %s\n" % kv for kv in v.items())
                   for s, v in m.items())
    open(D + "/k.ini", "w").write(text)
    p = subprocess.run([B, "--check", D + "/k.ini"], capture_output=True, text=True)
    return p.returncode, p.stderr
POS = (["0.001", "1"], ["0", "-1", "nan", "inf", "x"])   # > 0
T = [
 ("map", "width", ["1000", "1000000"], ["0", "-1", "1000000.5", "nan", "-inf", "x"]),
 ("map", "cell", *POS), ("map", "duration", *POS),
 ("map", "tick_rate", ["1", "60"], ["0", "-1", "nan"]),
 ("map", "seed", ["0", "18446744073709551615"], ["-1", "1.5", "18446744073709551616"]),
 ("trees", "random", ["0", "3"], ["-1", "1.5"]), ("trees", "radius", *POS),
 ("team.red", "color", ["red", "green", "yellow", "blue", "magenta", "cyan", "white"], ["black"]),
 ("team.red", "random", ["0", "2"], ["-1", "1.5"]),
 ("tank.a", "heading", ["0", "-720", "1e9"], ["nan", "inf"]),
 ("tank.a", "behaviour", ["wander", "straight", "hold"], ["run"]),
 ("tank.a", "avoid", ["none", "classic", "predictive"], ["x"]),
 ("tank.a", "sight", ["classic", "exact"], ["x"]), ("tank.a", "aim", ["none", "classic", "exact"], ["x"]),
 ("tank.a", "fov", ["0.001", "45", "360"], ["0", "-1", "360.001", "nan"]),
 ("tank.a", "health", ["1", "5"], ["0", "-1", "1.5"]),
 ("tank.a", "player", ["true", "false"], ["maybe"]),
 ("tank.a", "x", ["0", "1000"], ["-0.001", "1000.001"]),
 ("tank.a", "team", ["red", "blue"], ["green"]),
 ("turret.b", "facing", ["0", "-90", "400"], ["nan"]),
 ("tank.a", "sensor", ["hull", "turret", "radar"], ["dish", ""]),
 ("team.red", "sensor", ["hull", "radar"], ["radars"]),
 ("turret.b", "sensor", ["hull", "turret", "radar"], ["x"]),
 ("tank.a", "radar_rate", ["1", "45", "3600"], ["0.999", "0", "-1", "3600.5", "nan"]),
 ("turret.b", "radar_rate", ["1", "3600"], ["0", "3601"]),
 ("tank.a", "dodge", ["yes", "no"], ["true", "1", "maybe", ""]),
 ("team.red", "dodge", ["no"], ["off"]),
 ("track", "laps", ["1", "3"], ["0", "-1", "1.5"]),
 ("car.c", "back_angle", ["0.1", "180"], ["0", "180.001"]),
 ("car.c", "speed_rule", ["none", "classic", "exact"], ["x"]),
 ("car.c", "steer", ["classic", "line"], ["x"]),
 ("sight", "threshold", ["0", "1"], ["-0.001", "1.001"]),
 ("sight", "edge", ["0", "1"], ["-0.001", "1.001"]),
 ("sight", "samples", ["1", "20"], ["0", "1.5"]),
 ("map", "widht", [], ["1"]),
]
for key in ("length", "width", "radius", "speed", "turn_rate", "collision_range",
            "view_range", "turret_rate", "shell_speed", "range", "reload"):
    T.append(("tank.a", key, *POS))
for key in ("radius", "accel", "brake", "turn_rate"):
    T.append(("car.c", key, *POS))
# (max_speed at least min_speed, 20 by default)
T.append(("car.c", "max_speed", ["20", "100000"], ["0", "-1", "nan", "100000.5"]))
bad = 0
for sec, key, good, wrong in T:
    for v in good:
        rc, e = check(sec, key, v)
        if rc != 0:
            print("# [%s] %s = %s refused: %s" % (sec, key, v, e.strip())); bad += 1
    for v in wrong:
        rc, e = check(sec, key, v)
        if rc != 2 or "k.ini:" not in e or "[%s]" % sec not in e or key not in e:
            print("# [%s] %s = %s: exit %d, %r" % (sec, key, v, rc, e.strip())); bad += 1
print("# %d keys checked" % len(T))
sys.exit(1 if bad else 0)
PY
ok $? "every key's range at both ends, as botfield(6) says"

# A line of up to 1,024 bytes is read; a longer one is refused, saying how
# to split it.
line() {    # line BYTES: an "at = ..." line of exactly BYTES bytes
    python3 -c '
import sys
n = int(sys.argv[1]); t = []
while len("at = " + ", ".join(t + ["10 10 1.5"])) <= n - 2: t.append("10 10 1.5")
s = "at = " + ", ".join(t); s = s[:-1] + "5" * (n - len(s) + 1)
assert len(s) == n
print("[map]\nwidth = 100\nheight = 100\n[trees]\n" + s)' "$1" >"$TMPD/l.ini"
}
line 1024
"$BOTFIELD" --check "$TMPD/l.ini" 2>"$TMPD/err"
ok $? "a 1,024-byte 'at = ...' line is read"
n=$("$BOTFIELD" --headless --ticks 0 --trace - "$TMPD/l.ini" | grep -c '"type":"tree"')
expect_eq "with every one of its trees" "$n" "$(( $(grep -o ', ' "$TMPD/l.ini" | wc -l) + 1 ))"
line 1025
"$BOTFIELD" --check "$TMPD/l.ini" 2>"$TMPD/err"
st=$?
grep -q 'l.ini:5: \[trees\]: line of 1025 bytes.*\[tree.N\]' "$TMPD/err"
ok $(( $? + (st != 2) )) "a 1,025-byte line: exit 2, says how to split it"
done_testing
