#!/bin/sh
# The command line and the headless output of botfield(6).
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/default.ini"

"$BOTFIELD" --help >"$TMPD/out"
expect_eq "--help exits 0" "$?" 0
grep -q '^Usage: botfield' "$TMPD/out"
ok $? "--help prints the usage on standard output"
"$BOTFIELD" --version | grep -q '^botfield [0-9]'
ok $? "--version prints the version"

for args in "--bogus" "--ticks" "--ticks -1 --headless" "--ticks x --headless" \
            "--seconds nan --headless" "--speed 100" "--trace-every 0 --headless" \
            "--seed -3" "--headless --ticks 1 --seconds 1" "--trace t.jsonl" "a.ini b.ini"; do
    # shellcheck disable=SC2086
    "$BOTFIELD" $args "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && [ -s "$TMPD/err" ] && [ ! -s "$TMPD/out" ]
    ok $? "bad command line '$args' exits 2 with a message (got $st)"
done

# --seed is digits only: strtoull alone read " -1" as 18446744073709551615.
for seed in " -1" "+5" " 5" "5 " "-0" "" "0x10" "18446744073709551616"; do
    "$BOTFIELD" --check --seed "$seed" "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && grep -q "^botfield: --seed $seed: expected a whole number" "$TMPD/err"
    ok $? "--seed '$seed' is refused with a message (got $st)"
done
"$BOTFIELD" --check --seed 18446744073709551615 "$MAP"
expect_eq "--seed 18446744073709551615 is accepted" "$?" 0

# --check takes MAP, --seed and --set; any option it would ignore is an error.
for args in "--headless" "--summary" "--ticks 5" "--seconds 1" "--trace-every 2" \
            "--trace $TMPD/c.jsonl" "--paused" "--ascii" "--speed 2"; do
    # shellcheck disable=SC2086
    "$BOTFIELD" --check $args "$MAP" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && grep -q -- "--check only loads the map" "$TMPD/err" && [ ! -e "$TMPD/c.jsonl" ]
    ok $? "--check $args: exit 2, says --check takes no such option (got $st)"
done
"$BOTFIELD" --check --seed 5 "$MAP"
expect_eq "--check --seed 5 is accepted" "$?" 0
# --set too (the man page and --help said --seed alone): checked with the map.
"$BOTFIELD" --check --set team.red.fov=30 "$MAP"
expect_eq "--check --set team.red.fov=30 is accepted" "$?" 0
"$BOTFIELD" --check --set team.red.fov=abc "$MAP" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q -- "--set team.red.fov=abc: not a number" "$TMPD/err"
ok $? "--check --set team.red.fov=abc: exit 2, the value's problem (got $st)"
"$BOTFIELD" --check --ticks 5 "$MAP" 2>"$TMPD/err"
grep -q -- "it takes MAP, --set and --seed, no other option" "$TMPD/err"
ok $? "--check's refusal names every option it takes: $(head -n 1 "$TMPD/err")"
"$BOTFIELD" --help | grep -q -- "(takes --seed and --set;"
ok $? "--help says --check takes --seed and --set"

# A trace written over the map itself is refused before anything is written.
cp "$MAP" "$TMPD/self.ini"
ln "$TMPD/self.ini" "$TMPD/hard.ini"
ln -s self.ini "$TMPD/soft.ini"
sum=$(cksum <"$TMPD/self.ini")
for t in "$TMPD/self.ini" "$TMPD/hard.ini" "$TMPD/soft.ini" "$TMPD/./self.ini"; do
    "$BOTFIELD" --headless --ticks 2 --trace "$t" "$TMPD/self.ini" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && grep -q "that is the map file itself" "$TMPD/err" \
        && [ "$(cksum <"$TMPD/self.ini")" = "$sum" ]
    ok $? "--trace $(basename "$t") of the map itself: exit 2, map untouched (got $st)"
done

"$BOTFIELD" --headless --ticks 10 --trace "$TMPD/no/such/dir/t.jsonl" "$MAP" 2>"$TMPD/err"
expect_eq "an unwritable trace exits 1" "$?" 1
grep -q "cannot write the trace" "$TMPD/err"
ok $? "and says why"

"$BOTFIELD" --headless --ticks 7 --trace "$TMPD/t.jsonl" "$MAP"
expect_eq "--ticks 7: state lines for ticks 0 to 7" \
    "$(grep '"type":"state"' "$TMPD/t.jsonl" | sed 's/.*"tick":\([0-9]*\).*/\1/' | sort -un | tr '\n' ' ')" \
    "0 1 2 3 4 5 6 7 "
expect_eq "the first line is the header" "$(head -n 1 "$TMPD/t.jsonl" | cut -c1-34)" '{"type":"header","format":1,"versi'
expect_eq "the trace ends with the summary" "$(tail -n 1 "$TMPD/t.jsonl" | cut -c1-32)" '{"type":"summary","ticks":7,"sec'
expect_eq "200 tree lines" "$(grep -c '"type":"tree"' "$TMPD/t.jsonl")" 200
expect_eq "10 entity lines" "$(grep -c '"type":"entity"' "$TMPD/t.jsonl")" 10

"$BOTFIELD" --headless --ticks 25 --trace-every 10 --trace "$TMPD/t.jsonl" "$MAP"
expect_eq "--trace-every 10: ticks 0, 10, 20 and the last" \
    "$(grep '"type":"state"' "$TMPD/t.jsonl" | sed 's/.*"tick":\([0-9]*\).*/\1/' | sort -un | tr '\n' ' ')" \
    "0 10 20 25 "

"$BOTFIELD" --headless --seconds 0.5 --summary "$MAP" >"$TMPD/s"
grep -q '^{"type":"summary","ticks":30,"seconds":0.5,' "$TMPD/s"
ok $? "--seconds 0.5 at 60 ticks/s is 30 ticks"

"$BOTFIELD" --headless --ticks 3 --trace - --summary "$MAP" >"$TMPD/both"
expect_eq "--trace - --summary: the summary twice on standard output" \
    "$(grep -c '"type":"summary"' "$TMPD/both")" 2

if command -v python3 >/dev/null; then
    "$BOTFIELD" --headless --seconds 2 --trace "$TMPD/t.jsonl" "$MAP"
    python3 - "$TMPD/t.jsonl" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    assert "type" in o, line
    n += 1
assert n > 0
PY
    ok $? "every trace line is JSON with a type, no NaN or Infinity"
else
    skip "every trace line is JSON" "python3 not installed"
fi

# The trace is JSON whatever a map's name holds: quotes, a backslash, a
# control character, bytes that are not UTF-8 (in the name, or in the file
# name that stands for a missing name) become escapes or U+FFFD.
if command -v python3 >/dev/null; then
    printf '[map]\nname = caf\303\251 \377\376 "q" \\ \001 \355\240\200 \342\202\nwidth = 100\nheight = 100\n[team.a]\nrandom = 1\n' >"$TMPD/named.ini"
    odd=$(printf '%s/n\377\001"me.ini' "$TMPD")
    printf '[map]\nwidth = 100\nheight = 100\n[team.a]\nrandom = 1\n' >"$odd"
    for m in "$TMPD/named.ini" "$odd"; do
        case $m in *named.ini) where="map name" ;; *) where="file name" ;; esac
        "$BOTFIELD" --headless --ticks 3 --trace "$TMPD/u.jsonl" "$m"
        python3 - "$TMPD/u.jsonl" <<'PY'
import json, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8')      # strict: fails on bad bytes
lines = [json.loads(l) for l in raw.splitlines()]
name = lines[0]["map"]
assert "\ufffd" in name, name
assert ('caf\u00e9' in name and '"q" \\ \u0001' in name) or name.startswith('n\ufffd\u0001"me'), name
PY
        ok $? "bad UTF-8 and control characters in the $where: the trace is valid JSON, with U+FFFD"
    done
else
    ok 1 "python3 is installed (the JSON checks need it)"
fi

# Without --ticks/--seconds a run lasts the map's duration.
printf '[map]\nwidth = 500\nheight = 500\nduration = 1.5\ntick_rate = 20\n[team.a]\nrandom = 1\n' >"$TMPD/short.ini"
"$BOTFIELD" --headless --summary "$TMPD/short.ini" | grep -q '"ticks":30,"seconds":1.5,'
ok $? "a run lasts the map's duration (1.5 s at 20 ticks/s = 30 ticks)"

"$BOTFIELD" --check "$MAP" >"$TMPD/out" 2>&1
expect_eq "--check on a good map exits 0" "$?" 0
expect_eq "--check on a good map prints nothing" "$(cat "$TMPD/out")" ""

done_testing
