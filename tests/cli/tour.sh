#!/bin/sh
# Tournaments and sweeps (botfield(6), TOURNAMENTS): --seeds in any
# number of processes, the aggregate recounted from the run lines, the
# GNU parallel script's merge, failing runs counted and named, --set,
# --csv and --chart.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/default.ini"

# ---- the same output for any number of processes ------------------------
"$BOTFIELD" --headless --seeds 1-100 --jobs 1 "$MAP" >"$TMPD/j1" 2>"$TMPD/err"
expect_eq "100 seeds, --jobs 1: exit 0" "$?" 0
"$BOTFIELD" --headless --seeds 1-100 --jobs 4 "$MAP" >"$TMPD/j4"
expect_eq "100 seeds, --jobs 4: exit 0" "$?" 0
cmp -s "$TMPD/j1" "$TMPD/j4"
ok $? "--jobs 1 and --jobs 4 print the same bytes"
expect_eq "100 run lines and an aggregate" "$(grep -c '"type":"run"' "$TMPD/j1") $(grep -c '"type":"aggregate"' "$TMPD/j1")" "100 1"

# Each run line is the summary --seed S --summary prints, after its seed
# and settings.
"$BOTFIELD" --headless --seed 37 --summary "$MAP" | sed 's/^{"type":"summary",/{"type":"run","seed":37,"set":{},/' >"$TMPD/want37"
grep '"seed":37,' "$TMPD/j1" >"$TMPD/got37"
cmp -s "$TMPD/want37" "$TMPD/got37"
ok $? "run line of seed 37 = --seed 37 --summary with its seed and settings"

# ---- the aggregate recounted --------------------------------------------
recount() {     # recount FILE: every aggregate line against its run lines
    python3 - "$1" <<'PY'
import json, math, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
bad = []
runs = []
def close(what, got, want):
    if want is None or got is None:
        if got != want:
            bad.append("%s: %r != %r" % (what, got, want))
    elif abs(got - want) > 1e-12 * max(1, abs(want)):
        bad.append("%s: %r != %r" % (what, got, want))
def wilson(k, n):
    # Wilson (1927), written out again here.
    z = 1.959963984540054
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, c - h) if k else 0.0, min(1.0, c + h) if k < n else 1.0
def spread(xs):
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0
    return m, sd
def tq(df):
    # t such that P(|T| < t) = 0.95: the density integrated (Simpson)
    # from 0, the bound found by bisection
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    def cdf0(x, n=2000):
        h = x / n
        return h / 3 * (f(0) + f(x) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n)))
    lo, hi = 0.0, 20.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf0(mid) < 0.475 else (lo, mid)
    return lo
naggs = 0
for o in lines:
    if o["type"] == "run":
        runs.append(o)
        continue
    naggs += 1
    g = [r for r in runs if r["set"] == o["set"]]
    runs = []
    okr = [r for r in g if "failed" not in r]
    if o["runs"] != len(g) or o["failed"] != len(g) - len(okr):
        bad.append("runs/failed")
    if [f["seed"] for f in o["failures"]] != [r["seed"] for r in g if "failed" in r]:
        bad.append("failures' seeds")
    if [f["reason"] for f in o["failures"]] != [r["failed"] for r in g if "failed" in r]:
        bad.append("failures' reasons")
    n = len(okr)
    teams = []
    for r in okr:
        for t in r["knockouts"]:
            if t not in teams:
                teams.append(t)
    if list(o["wins"]) != teams:
        bad.append("teams %r" % list(o["wins"]))
    for t in teams:
        k = sum(1 for r in okr if r["winner"] == t)
        if o["wins"][t]["n"] != k:
            bad.append("wins of %s" % t)
        if n:
            for name, v in zip(("rate", "lo", "hi"), wilson(k, n)):
                close("%s %s" % (t, name), o["wins"][t][name], v)
    d = sum(1 for r in okr if r["winner"] is None)
    if o["draws"]["n"] != d:
        bad.append("draws")
    for name in ("collisions", "seconds"):
        m, sd = spread([r[name] for r in okr])
        close(name + " mean", o[name]["mean"], m)
        close(name + " sd", o[name]["sd"], sd)
    hr = [r["hits"] / r["shots"] for r in okr if r["shots"] > 0]
    m, sd = spread(hr)
    close("hit_rate mean", o["hit_rate"]["mean"], m)
    close("hit_rate sd", o["hit_rate"]["sd"], sd)
    shots = sum(r["shots"] for r in okr)
    close("hits_per_shot", o["hits_per_shot"],
          sum(r["hits"] for r in okr) / shots if shots else None)
    laps = [v for r in okr for v in r["best_lap"].values() if v is not None]
    m, sd = spread(laps)
    if o["best_lap"]["n"] != len(laps):
        bad.append("best_lap n")
    close("best_lap mean", o["best_lap"]["mean"], m)
    # each team's mean score, 95% Student's t interval (its quantile
    # found here by integrating the density, not from a table)
    if list(o["scores"]) != teams:
        bad.append("scores' teams %r" % list(o["scores"]))
    for t in teams:
        xs = [r["scores"][t] for r in okr if t in r.get("scores", {})]
        got = o["scores"][t]
        if got["n"] != len(xs):
            bad.append("scores n of %s" % t)
        m, sd = spread(xs)
        close("score mean " + t, got["mean"], m)
        if len(xs) < 2:
            close("score lo " + t, got["lo"], None)
            continue
        half = tq(len(xs) - 1) * sd / math.sqrt(len(xs))
        for name, v in (("lo", m - half), ("hi", m + half)):
            if abs(got[name] - v) > 1e-4 * max(1, half):
                bad.append("score %s %s: %r != %r" % (name, t, got[name], v))
print("%d aggregates" % naggs)
for b in bad:
    print(b)
sys.exit(1 if bad or not naggs else 0)
PY
}
recount "$TMPD/j1" >"$TMPD/rc" 2>&1
ok $? "the aggregate of 100 seeds matches a recount of its run lines"
note "$(cat "$TMPD/rc")"

# A race: the best laps are counted too.
"$BOTFIELD" --headless --seeds 1-6 --jobs 2 "$top_srcdir/maps/race.ini" >"$TMPD/race"
recount "$TMPD/race" >"$TMPD/rc" 2>&1 && grep -q '"best_lap":{"n":[1-9]' "$TMPD/race"
ok $? "race map: the aggregate (best laps included) matches a recount"
note "$(cat "$TMPD/rc")"

# Runs stopped at the duration with both teams alive are won on score:
# the aggregate counts those wins (and the draws of equal scores).
"$BOTFIELD" --headless --seeds 1-8 --jobs 2 --set map.duration=15 "$MAP" >"$TMPD/short"
recount "$TMPD/short" >"$TMPD/rc" 2>&1
ok $? "runs won on score: the aggregate (wins, mean scores) matches a recount"
note "$(cat "$TMPD/rc")"
expect_eq "all 8 runs won on score" "$(grep -c '"won_by":"score"' "$TMPD/short")" 8
grep '"type":"aggregate"' "$TMPD/short" | grep -q '"wins":{"red":{"n":[1-9]\|"blue":{"n":[1-9]'
ok $? "a win on score is counted as a win"

# ---- --aggregate: the same path from files ------------------------------
head -n 40 "$TMPD/j1" >"$TMPD/a"
tail -n +41 "$TMPD/j1" | grep '"type":"run"' | tac >"$TMPD/b"
"$BOTFIELD" --aggregate "$TMPD/b" "$TMPD/a" >"$TMPD/agg"
expect_eq "--aggregate of two files: exit 0" "$?" 0
cmp -s "$TMPD/agg" "$TMPD/j1"
ok $? "--aggregate of the runs split in two files, out of order, prints the tournament's output"
"$BOTFIELD" --aggregate - <"$TMPD/j1" | cmp -s - "$TMPD/j1"
ok $? "--aggregate of a tournament's own output (standard input) gives it back"
cat "$TMPD/a" "$TMPD/a" >"$TMPD/twice"
"$BOTFIELD" --aggregate "$TMPD/twice" >/dev/null 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "seed 1 with the settings {} comes twice" "$TMPD/err"
ok $? "--aggregate: a seed given twice is refused, exit 2 (got $st)"
printf '%s\n' '{"type":"run","seed":1,"set":{},"ticks":3}' >"$TMPD/short"
"$BOTFIELD" --aggregate "$TMPD/short" >/dev/null 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^botfield: $TMPD/short:1: a run line without a valid field seconds" "$TMPD/err"
ok $? "--aggregate: a run line lacking a field: file, line and field named, exit 2 (got $st)"
printf 'not json\n' >"$TMPD/junk"
"$BOTFIELD" --aggregate "$TMPD/a" "$TMPD/junk" >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && grep -q "^botfield: $TMPD/junk:1: not a JSON object" "$TMPD/err"
ok $? "--aggregate: a line that is not JSON: named, nothing printed, exit 2 (got $st)"

# ---- sweeps and failing runs --------------------------------------------
"$BOTFIELD" --headless --seeds 1-12 --jobs 3 --set team.red.turn_rate=20,abc,60 \
    --csv "$TMPD/sweep.csv" "$MAP" >"$TMPD/sweep" 2>"$TMPD/err"
st=$?
expect_eq "a sweep with a bad value: exit 1 (a run failed)" "$st" 1
expect_eq "three groups of 12 runs" "$(grep -c '"type":"run"' "$TMPD/sweep") $(grep -c '"type":"aggregate"' "$TMPD/sweep")" "36 3"
grep '"type":"aggregate","set":{"team.red.turn_rate":"abc"},"runs":12,"failed":12,' "$TMPD/sweep" \
    | grep -q '"failures":\[{"seed":1,"reason":"botfield: --set team.red.turn_rate=abc: not a number (expected more than 0, up to 36000)"}'
ok $? "the bad value's runs are counted as failed and named with seed and reason"
grep -q '"set":{"team.red.turn_rate":"60"},"runs":12,"failed":0,' "$TMPD/sweep"
ok $? "the good values' runs ran"
recount "$TMPD/sweep" >"$TMPD/rc" 2>&1
ok $? "the sweep's three aggregates match a recount"
note "$(cat "$TMPD/rc")"
[ "$(grep -n '"type":"aggregate"' "$TMPD/sweep" | cut -d, -f1-2)" = "$(printf '%s\n' \
    '13:{"type":"aggregate","set":{"team.red.turn_rate":"20"}' \
    '26:{"type":"aggregate","set":{"team.red.turn_rate":"abc"}' \
    '39:{"type":"aggregate","set":{"team.red.turn_rate":"60"}')" ]
ok $? "each group's runs come before its aggregate, in the order of the values"
# A run that dies (here of its CPU time limit) is counted and named too.
(ulimit -t 1; exec "$BOTFIELD" --headless --seeds 1-2 --jobs 2 --ticks 1000000000 "$MAP") >"$TMPD/killed" 2>"$TMPD/err"
st=$?
[ "$st" -eq 1 ] && grep -q '"runs":2,"failed":2,' "$TMPD/killed" \
    && grep -q '"failures":\[{"seed":1,"reason":"killed by signal [0-9]* ([A-Za-z ]*)"},{"seed":2,' "$TMPD/killed"
ok $? "runs killed by a signal: counted as failed, named with the signal, exit 1 (got $st)"
# Two lists: every combination, the first --set varying slowest; --ticks
# reaches every run.
"$BOTFIELD" --headless --seeds 3-4 --ticks 60 --set team.red.fov=30,60 --set team.blue.aim=none,exact "$MAP" \
    | python3 -c '
import json, sys
ls = [json.loads(l) for l in sys.stdin]
got = [(o["type"], o.get("seed"), o["set"]["team.red.fov"], o["set"]["team.blue.aim"]) for o in ls]
want = []
for fov in ("30", "60"):
    for aim in ("none", "exact"):
        want += [("run", 3, fov, aim), ("run", 4, fov, aim), ("aggregate", None, fov, aim)]
assert got == want, got
assert all(o["ticks"] == 60 for o in ls if o["type"] == "run")
'
ok $? "two lists: four combinations in order, each over the seeds; --ticks 60 in every run"
# A value in effect: fov 1 for red against the default changes the outcome.
"$BOTFIELD" --headless --seeds 1-6 --jobs 2 --set team.red.fov=1 "$MAP" | tail -n 1 >"$TMPD/blind"
grep -q '"wins":{"red":{"n":0,' "$TMPD/blind"
ok $? "--set team.red.fov=1 is applied: red, almost blind, wins nothing"

# --csv: a header and a row a run, the same numbers as the run lines.
python3 - "$TMPD/sweep.csv" "$TMPD/sweep" >"$TMPD/out" 2>&1 <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
runs = [json.loads(l) for l in open(sys.argv[2]) if '"type":"run"' in l]
assert len(rows) == len(runs) == 36, (len(rows), len(runs))
for row, r in zip(rows, runs):
    assert int(row["seed"]) == r["seed"]
    assert row["team.red.turn_rate"] == r["set"]["team.red.turn_rate"]
    assert row["failed"] == r.get("failed", ""), row["failed"]
    if "failed" in r:
        assert row["ticks"] == "", row
        continue
    for k in ("ticks", "collisions", "shots", "hits"):
        assert int(row[k]) == r[k], k
    assert float(row["seconds"]) == r["seconds"]
    for t, v in r["knockouts"].items():
        assert int(row["knockouts." + t]) == v
    assert row["winner"] == (r["winner"] or "")
print("ok")
PY
ok $? "--csv: one row a run, every field as in the run lines"
note "$(cat "$TMPD/out")"

# ---- GNU parallel --------------------------------------------------------
if command -v parallel >/dev/null && parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    (cd "$TMPD" && "$top_srcdir/scripts/botfield-parallel" -S : -j 2 --chunk 7 --botfield "$BOTFIELD" -- \
        --seeds 1-30 --set team.red.aim=classic,exact --csv par.csv "$MAP" >par 2>parerr)
    expect_eq "botfield-parallel -S : exits 0" "$?" 0
    "$BOTFIELD" --headless --seeds 1-30 --set team.red.aim=classic,exact --csv "$TMPD/one.csv" "$MAP" >"$TMPD/one"
    cmp -s "$TMPD/par" "$TMPD/one" && [ -s "$TMPD/one" ]
    ok $? "botfield-parallel's merged output = the one-machine output, byte for byte"
    cmp -s "$TMPD/par.csv" "$TMPD/one.csv"
    ok $? "botfield-parallel's --csv = the one-machine --csv"
    note "$(cat "$TMPD/parerr")"
    (cd "$TMPD" && "$top_srcdir/scripts/botfield-parallel" -S : --chunk 4 --botfield "$BOTFIELD" -- \
        --seeds 1-8 --set team.red.turn_rate=abc "$MAP" >par2 2>/dev/null)
    st=$?
    [ "$st" -eq 1 ] && grep -q '"runs":8,"failed":8,' "$TMPD/par2"
    ok $? "botfield-parallel: failing runs are merged, counted, exit 1 (got $st)"
    for args in "-- $MAP" "--chunk 0 -- --seeds 1-3 $MAP" "--bogus -- --seeds 1-3" \
                "-- --seeds 3-1 $MAP" "-- --seeds 1-3 --jobs 2 $MAP" "-- --seeds 1-3 a.ini b.ini"; do
        # shellcheck disable=SC2086
        "$top_srcdir/scripts/botfield-parallel" --botfield "$BOTFIELD" $args >"$TMPD/out" 2>"$TMPD/err"
        st=$?
        [ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && grep -q "^botfield-parallel: " "$TMPD/err"
        ok $? "botfield-parallel $args: exit 2 with a message (got $st)"
    done
else
    ok 1 "GNU parallel is installed (apt-get install parallel)"
fi

# ---- --chart -------------------------------------------------------------
width() {       # the widest line, in characters of the locale's encoding
    python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$1"
}
LC_ALL=C.UTF-8 "$BOTFIELD" --headless --seeds 1-12 --set team.red.turn_rate=20,40,60 --chart "$MAP" >"$TMPD/cu" 2>"$TMPD/cerr"
st=$?
expect_eq "--chart (UTF-8): exit 0" "$st" 0
[ "$st" -eq 0 ] || { note "its standard error:"; note "$(cat "$TMPD/cerr")"; }
w=$(width "$TMPD/cu")
[ "$w" -le 80 ] && [ "$w" -ge 60 ]
ok $? "--chart in UTF-8 fits 80 columns (widest line: $w)"
grep -q '⣿' "$TMPD/cu" && grep -q 'win rate against team.red.turn_rate' "$TMPD/cu" \
    && grep -q '^red  ' "$TMPD/cu" && ! grep -q '"type"' "$TMPD/cu"
ok $? "--chart in UTF-8: braille bars, the sweep's plot, no JSON lines"
LC_ALL=C "$BOTFIELD" --headless --seeds 1-12 --set team.red.turn_rate=20,40,60 --chart "$MAP" >"$TMPD/ca"
w=$(width "$TMPD/ca")
! LC_ALL=C grep -q '[^ -~]' "$TMPD/ca" && [ "$w" -le 80 ] && grep -q '#\+' "$TMPD/ca"
ok $? "--chart with LANG=C: ASCII only, within 80 columns (widest line: $w)"
LC_ALL=C.UTF-8 "$BOTFIELD" --headless --seeds 1-12 --set team.red.turn_rate=20,40,60 --chart --ascii "$MAP" | cmp -s - "$TMPD/ca"
ok $? "--chart --ascii in UTF-8 = the LANG=C chart"
note "$(cat "$TMPD/ca")"
# A chart draws the runs, not their lines: a failed run's line, which says
# why, goes to standard error.
LC_ALL=C "$BOTFIELD" --headless --seeds 1-2 --set team.red.turn_rate=20,abc --chart "$MAP" >"$TMPD/cf" 2>"$TMPD/cfe"
st=$?
[ "$st" -eq 1 ] && [ "$(grep -c '^botfield: a run failed: {"type":"run","seed":[12],"set":{"team.red.turn_rate":"abc"},"failed":"botfield: --set team.red.turn_rate=abc: not a number' "$TMPD/cfe")" -eq 2 ] \
    && [ "$(wc -l <"$TMPD/cfe")" -eq 2 ] && grep -q 'failed 2' "$TMPD/cf"
ok $? "--chart: each failed run's line on standard error, the chart on standard output, exit 1 (got $st)"
LC_ALL=C "$BOTFIELD" --aggregate --chart "$TMPD/sweep" >"$TMPD/cf" 2>"$TMPD/cfe"
st=$?
[ "$st" -eq 1 ] && [ "$(grep -c '^botfield: a run failed: {"type":"run","seed":[0-9]*,"set":{"team.red.turn_rate":"abc"},"failed":' "$TMPD/cfe")" -eq 12 ] \
    && [ "$(wc -l <"$TMPD/cfe")" -eq 12 ] && grep -q 'failed 12' "$TMPD/cf"
ok $? "--aggregate --chart: the file's 12 failed runs named on standard error, exit 1 (got $st)"
# Its numbers are the aggregate's.
"$BOTFIELD" --headless --seeds 1-12 --set team.red.turn_rate=20 "$MAP" | tail -n 1 \
    | python3 -c 'import json,sys; o=json.load(sys.stdin); w=o["wins"]["red"]; print("%d %3.0f%% [%.0f-%.0f%%]" % (w["n"], 100*w["rate"], 100*w["lo"], 100*w["hi"]))' >"$TMPD/want"
grep -q -F "$(cat "$TMPD/want")" "$TMPD/ca"
ok $? "--chart shows the aggregate's wins and interval ($(cat "$TMPD/want"))"

# ---- --set on a single run and bad options ------------------------------
"$BOTFIELD" --headless --summary --set map.seed=5 "$MAP" >"$TMPD/s1"
"$BOTFIELD" --headless --summary --seed 5 "$MAP" >"$TMPD/s2"
cmp -s "$TMPD/s1" "$TMPD/s2"
ok $? "--set map.seed=5 runs as --seed 5"
"$BOTFIELD" --headless --summary --set sight.threshold=0.5 --set team.blue.fov=10 "$MAP" >"$TMPD/s3"
! cmp -s "$TMPD/s3" "$("$BOTFIELD" --headless --summary "$MAP" >"$TMPD/s4"; echo "$TMPD/s4")"
ok $? "--set of a section the map lacks ([sight]) and of a key it lacks runs, and changes the battle"
"$BOTFIELD" --headless --summary --set team.red.turn_rate=abc "$MAP" >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] \
    && [ "$(cat "$TMPD/err")" = "botfield: --set team.red.turn_rate=abc: not a number (expected more than 0, up to 36000)" ]
ok $? "--set with a bad value: the map's message, naming the option, exit 2 (got $st)"
"$BOTFIELD" --check --set team.gren.fov=3 "$MAP" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^botfield: --set team.gren.fov=3: the map has no such section" "$TMPD/err"
ok $? "--set of a team the map lacks: named, exit 2 (got $st)"
for args in "--seeds 5-3" "--seeds 1-x" "--seeds 1" "--seeds -1-3" "--seeds 1-2000000" "--seeds 9223372036854775807-9223372036854775808" \
            "--seeds 1-3 --jobs 0" "--seeds 1-3 --jobs x" "--seeds 1-3 --set noequals" \
            "--seeds 1-3 --set .x=1" "--seeds 1-3 --set a.b=1,,2" "--seeds 1-3 --set a.b=1,2,1" \
            "--seeds 1-3 --set a.b=1 --set a.b=2" "--seeds 1-3 --seed 4" \
            "--seeds 1-3 --summary" "--seeds 1-3 --trace x" "--set a.b=1,2" "--jobs 2" \
            "--aggregate" "--seeds 1-3 --aggregate"; do
    # shellcheck disable=SC2086
    "$BOTFIELD" --headless $args "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && [ -s "$TMPD/err" ] && [ ! -s "$TMPD/out" ]
    ok $? "bad command line '$args' exits 2 with a message (got $st: $(head -c 120 "$TMPD/err"))"
done
cat "$MAP" | "$BOTFIELD" --headless --seeds 1-3 /dev/stdin >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && grep -q "^botfield: /dev/stdin: not a regular file" "$TMPD/err"
ok $? "--seeds with a map that is not a regular file: refused, exit 2 (got $st)"
"$BOTFIELD" --headless --seeds 1-3 "$TMPD/missing.ini" >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && [ "$(cat "$TMPD/err")" = "$TMPD/missing.ini: cannot open the map: No such file or directory" ]
ok $? "--seeds with a missing map: the loader's message once, no runs, exit 2 (got $st)"
"$BOTFIELD" --seeds 1-3 "$MAP" >/dev/null 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "needs --headless" "$TMPD/err"
ok $? "--seeds without --headless: exit 2, says why (got $st)"
# Each refusal names the option at fault, not every rule at once (a user
# who gave --headless was told it needed --headless).
"$BOTFIELD" --headless --seeds 1-3 --seed 4 "$MAP" >/dev/null 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^botfield: --seeds 1-3 --seed 4: --seeds runs a battle per seed, each with its own seed" "$TMPD/err" && ! grep -q "needs --headless" "$TMPD/err"
ok $? "--seeds with --seed: exit 2, names --seed alone (got $st: $(head -n 1 "$TMPD/err"))"
"$BOTFIELD" --headless --seeds 1-3 --summary "$MAP" >/dev/null 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^botfield: --seeds 1-3 --summary: .* it takes MAP, .*--ticks" "$TMPD/err" \
    && ! grep -q "needs --headless" "$TMPD/err"
ok $? "--seeds with --summary: exit 2, names the output options (got $st)"
# A sweep without --seeds quotes the list given, not its first value.
"$BOTFIELD" --headless --set team.red.turn_rate=20,30,40 "$MAP" >/dev/null 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^botfield: --set team.red.turn_rate=20,30,40: a list of values is a sweep: it needs --seeds" "$TMPD/err"
ok $? "a sweep without --seeds: exit 2, quotes the whole list (got $st: $(head -n 1 "$TMPD/err"))"

# ---- under valgrind (the forked runs too) -------------------------------
if [ -n "${VALGRIND_BIN:-}" ] && [ -x "$VALGRIND_BIN" ] \
   && ! grep -q -a -e __asan_init -e __ubsan_handle -e __tsan_init "$BOTFIELD" 2>/dev/null; then
    for args in "--headless --seeds 1-3 --jobs 2 --ticks 300 --set team.red.fov=30,abc --set team.gren.fov=3,4 --csv $TMPD/vg.csv --chart $MAP" \
                "--headless --ticks 300 --summary --set team.red.fov=30 --set sight.threshold=0.4 --set track.laps=2 $MAP" \
                "--check --set team.x.fov=30 --set sight.threshold=0.4 $MAP" \
                "--aggregate --csv $TMPD/vg2.csv $TMPD/sweep"; do
        # shellcheck disable=SC2086
        "$VALGRIND_BIN" -q --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect --log-file="$TMPD/vg.log" \
            "$BOTFIELD" $args >/dev/null 2>&1
        st=$?
        [ "$st" -ne 99 ] && [ "$st" -le 2 ] && [ ! -s "$TMPD/vg.log" ]
        ok $? "valgrind: no error and no leak in '$(echo "$args" | cut -c1-70)...' (status $st)"
        note "$(head -n 20 "$TMPD/vg.log")"
    done
elif [ -z "${VALGRIND_BIN:-}" ]; then
    ok 1 "valgrind is installed (apt-get install valgrind)"
else
    skip "tournaments under valgrind" "sanitizer build: valgrind cannot run it"
fi

done_testing
