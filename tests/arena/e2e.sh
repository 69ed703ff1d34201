#!/bin/sh
# The arena end to end through Debian's OpenSSH (botfield-arena(7)):
# three people submit bots over ssh, the daemon plays the ladder, and
# each sees the ladder and the matches, reads only their own bot's log,
# fetches a match that replays at home byte for byte without the others'
# scripts; kill -9 of the daemon mid-match loses no finished match.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/sshd-lib.sh"
L="$top_srcdir/tests/maps/ladder"
if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
    skip "the arena over ssh" "Debian's openssh-server and openssh-client are not installed"
    done_testing; exit
fi
A="$TMPD/arena"
mkdir -p "$A"
cp "$L/duel.ini" "$A/"
printf '[arena]\nname = e2e\nmaps = duel.ini\nsubmit_every = 0\nlive = 0\nworkers = 2\n' >"$A/arena.ini"
start_daemon() {
    : >"$TMPD/serve.err"
    "$BOTFIELD" serve "$A" 2>>"$TMPD/serve.err" & dpid=$!
    i=0; while ! grep -q serving "$TMPD/serve.err" && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
}
start_daemon
trap 'sshd_stop; kill $dpid 2>/dev/null; rm -rf "$TMPD"' EXIT
sshd_start "$A" || { note "$(cat "$SSHD_DIR/log" 2>/dev/null)"; ok 1 "sshd starts"; done_testing; exit; }

# alice's bot logs a secret; bob's and carol's are the test's own bots
{ printf 'local secret = "ALICE-SECRET-%s"\n' 42; cat "$L/shoot.lua";
  printf 'local t0 = tick\nfunction tick(me, w, mem, out) if w.tick == 5 then log(secret) end return t0(me, w, mem, out) end\n'; } >"$TMPD/alice.lua"
sshd_as alice submit shooter <"$TMPD/alice.lua" >/dev/null 2>"$TMPD/err"
expect_eq "alice submits over ssh" "$?" 0
sshd_as bob submit idler <"$L/idle.lua" >/dev/null 2>&1
expect_eq "bob submits" "$?" 0
sshd_as carol submit lucky <"$L/lucky.lua" >/dev/null 2>&1
expect_eq "carol submits" "$?" 0

# wait for 50 finished matches (at most 3 minutes)
want=50 i=0
while [ "$(wc -l <"$A/results.jsonl" 2>/dev/null || echo 0)" -lt $want ] && [ $i -lt 1800 ]; do
    sleep 0.1; i=$((i + 1))
done
n=$(wc -l <"$A/results.jsonl")
[ "$n" -ge $want ]; ok $? "the ladder played $want matches ($n)"

sshd_as carol ladder >"$TMPD/ladder" 2>&1
expect_eq "ladder: exit 0" "$?" 0
for b in alice/shooter bob/idler carol/lucky; do
    grep -q "$b" "$TMPD/ladder"; ok $? "ladder lists $b"
done
sshd_as carol ladder --json >"$TMPD/ladder.json" 2>&1
python3 - "$TMPD/ladder.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
rows = t["ladder"] if isinstance(t, dict) else t
elo = {r["bot"]: r["elo"] for r in rows}
# the shooter fires, the idler never does: the shooter is above
sys.exit(0 if elo["alice/shooter"] > elo["bob/idler"] else 1)
PY
ok $? "ladder --json: alice's shooter is rated above bob's idler"
sshd_as bob matches 5 >"$TMPD/matches" 2>&1
expect_eq "matches 5: exit 0" "$?" 0
expect_eq "matches 5: five lines" "$(grep -c . "$TMPD/matches")" 5

sshd_as alice log shooter >"$TMPD/alog" 2>&1
grep -q "ALICE-SECRET-42" "$TMPD/alog"; ok $? "alice reads her bot's log line"
sshd_as bob log shooter >"$TMPD/blog" 2>&1
grep -q "ALICE-SECRET" "$TMPD/blog" && r=1 || r=0
ok $r "bob cannot read alice's bot's log (log names his own bots only)"

# a match between alice and bob, fetched by bob: no trace of alice's script
id=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "failed" not in r and set(r["bots"]) == {"alice/shooter", "bob/idler"}:
        print(r["id"]); break' "$A/results.jsonl")
[ -n "$id" ]; ok $? "a match of alice against bob was played ($id)"
sshd_as bob fetch "$id" >"$TMPD/m.rec" 2>"$TMPD/err"
expect_eq "bob fetches it: exit 0" "$?" 0
grep -q "ALICE-SECRET" "$TMPD/m.rec" && r=1 || r=0
ok $r "bob's copy holds none of alice's script"
grep -q '"type":"intent"' "$TMPD/m.rec"; ok $? "... it holds her bot's intents"
mkdir -p "$TMPD/home"
(cd "$TMPD/home" && "$BOTFIELD" --headless --replay "$TMPD/m.rec" --trace "$TMPD/home.trace" >/dev/null 2>"$TMPD/err")
st=$?; [ $st -ne 0 ] && note "$(cat "$TMPD/err")"
expect_eq "bob's copy replays at home, every checkpoint verified (exit 0)" "$st" 0
sshd_as alice fetch "$id" >"$TMPD/a.rec" 2>/dev/null
(cd "$TMPD/home" && "$BOTFIELD" --headless --replay "$TMPD/a.rec" --trace "$TMPD/a.trace" >/dev/null 2>&1)
expect_eq "alice's copy (her script inside) replays too" "$?" 0
"$BOTFIELD" --headless --replay "$A/matches/$id.rec" --trace "$TMPD/full.trace" >/dev/null 2>&1
expect_eq "the arena's full recording replays" "$?" 0
# the same match at home: the state lines are the arena's, byte for byte
for t in full home a; do grep -v '"bot_sha256"\|"type":"log"\|"type":"bot_error"' "$TMPD/$t.trace" >"$TMPD/$t.pub"; done
cmp -s "$TMPD/full.pub" "$TMPD/home.pub" && cmp -s "$TMPD/full.pub" "$TMPD/a.pub"
ok $? "the replays at home give the arena's trace (less the private lines)"
sshd_as bob fetch 999999 >/dev/null 2>"$TMPD/err"
expect_eq "fetch of a match that does not exist: exit 2" "$?" 2

# kill -9 mid-match: every finished match and its recording is kept
before=$(wc -l <"$A/results.jsonl")
kill -9 $dpid; wait $dpid 2>/dev/null
start_daemon
grep -q serving "$TMPD/serve.err"; ok $? "after kill -9 the daemon starts again"
after=$(wc -l <"$A/results.jsonl")
[ "$after" -ge "$before" ]; ok $? "no finished match is lost ($before before, $after after)"
missing=0
for id in $(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "failed" not in r: print(r["id"])' "$A/results.jsonl"); do
    [ -s "$A/matches/$id.rec" ] || missing=$((missing + 1))
done
expect_eq "every finished match has its recording" "$missing" 0
sshd_as carol ladder >/dev/null 2>&1
expect_eq "the ladder answers after the restart" "$?" 0
done_testing
