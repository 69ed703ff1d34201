#!/bin/sh
# The arena's front door (botfield-arena(7)): arena.ini checked as a map
# is, the daemon's socket (0600, one daemon an arena), arena-shell's
# command line (the key's name, blanks only, nothing a shell would act
# on), submit's checks (the sandbox, the size, the rate, the count), and
# a kill -9 that loses no submission.
. "$top_srcdir/tests/lib/lib.sh"
L="$top_srcdir/tests/maps/ladder"
A="$TMPD/arena"
mkdir -p "$A"
cp "$L/duel.ini" "$A/"
ini() { printf '[arena]\nname = test\nmaps = duel.ini\n%s\n' "$1" >"$A/arena.ini"; }
sh_as() { # sh_as NAME COMMAND [stdin file]: arena-shell as sshd starts it
    SSH_ORIGINAL_COMMAND="$2" "$BOTFIELD" arena-shell "$A" "$1" <"${3:-/dev/null}" \
        >"$TMPD/out" 2>"$TMPD/err"
}
stop_daemon() { [ -n "$dpid" ] && kill "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null; dpid=; }
start_daemon() {   # waits for "serving" (60 s at most), or for the daemon to exit
    # emptied first: the last daemon's "serving" must not end the wait
    # before this one has even opened the file (the race that failed CI)
    : >"$TMPD/serve.err"
    "$BOTFIELD" serve "$A" 2>>"$TMPD/serve.err" & dpid=$!
    i=0
    while ! grep -q serving "$TMPD/serve.err" && kill -0 "$dpid" 2>/dev/null && [ $i -lt 1200 ]; do
        sleep 0.05; i=$((i + 1))
    done
    grep -q serving "$TMPD/serve.err" || note "the daemon did not say it serves after $i waits ($(kill -0 "$dpid" 2>/dev/null && echo running || echo gone)); it said: $(cat "$TMPD/serve.err")"
}
trap 'stop_daemon; rm -rf "$TMPD"' EXIT

# ---- arena.ini ---------------------------------------------------------
bad_ini() { # bad_ini WHAT TEXT PATTERN
    printf '%s\n' "$2" >"$A/arena.ini"
    "$BOTFIELD" serve "$A" >/dev/null 2>"$TMPD/err"
    st=$?
    grep -q -- "$3" "$TMPD/err"; f=$?
    [ $st -eq 2 ] && [ $f -eq 0 ] && [ ! -e "$A/arena.sock" ] && [ ! -e "$A/bots" ]
    r=$?; [ $r -ne 0 ] && note "exit $st: $(cat "$TMPD/err")"
    ok $r "arena.ini, $1: exit 2, '$3', nothing created"
}
bad_ini "an unknown key" "$(printf '[arena]\nmaps = duel.ini\ncolour = red')" "arena.ini:3: \[arena\] colour: unknown key"
bad_ini "an unknown section" "$(printf '[arena]\nmaps = duel.ini\n[x]')" "arena.ini:3: \[x\]: unknown section"
bad_ini "a map in a folder" "$(printf '[arena]\nmaps = ../duel.ini')" "maps: '../duel.ini' is not a map's file name"
bad_ini "a missing map" "$(printf '[arena]\nmaps = duel.ini, nope.ini')" "'nope.ini' is not a file beside arena.ini"
bad_ini "no maps" "$(printf '[arena]\nname = x')" "maps is missing"
bad_ini "rounds 0" "$(printf '[arena]\nmaps = duel.ini\nrounds = 0')" "arena.ini:3: \[arena\] rounds: '0' is not a whole number from 1 to 1000"
bad_ini "live 9" "$(printf '[arena]\nmaps = duel.ini\nlive = 9')" "live: '9' is not a whole number from 0 to 8"
bad_ini "max_script text" "$(printf '[arena]\nmaps = duel.ini\nmax_script = lots')" "max_script: 'lots'"
bad_ini "a duplicate key" "$(printf '[arena]\nmaps = duel.ini\nmaps = duel.ini')" "arena.ini:3"
bad_ini "no [arena]" "" "no \[arena\] section"

# ---- the daemon ----------------------------------------------------------
ini "submit_every = 0
bots_per_person = 2
max_script = 4000"
sh_as alice ladder
expect_eq "no daemon: arena-shell exits 1" "$?" 1
grep -q "the arena is closed" "$TMPD/err"; ok $? "no daemon: it says the arena is closed"
start_daemon
expect_eq "the socket's mode is 0600" "$(stat -c %a "$A/arena.sock")" 600
"$BOTFIELD" serve "$A" 2>"$TMPD/err2"
expect_eq "a second daemon on the same arena: exit 1" "$?" 1
grep -q "another daemon serves this arena" "$TMPD/err2"; ok $? "... saying another daemon serves it"

# ---- arena-shell's command line ----------------------------------------------
touch "$TMPD/canary"
for cmd in 'ladder; touch x' 'ladder `touch x`' 'ladder $(touch x)' "ladder 'x'" 'ladder "x"' \
    'log ../x' 'ladder | cat' 'ladder && ls' "$(printf 'ladder\ntouch x')" 'fetch 1 > /tmp/x' \
    'submit ../../etc' 'frobnicate' 'fetch -1' 'matches 0' 'log A'; do
    sh_as alice "$cmd"
    st=$?
    [ $st -eq 2 ] && grep -q "submit BOT" "$TMPD/err" && [ ! -e "$A/x" ] && [ ! -e x ]
    ok $? "'$(printf '%s' "$cmd" | tr '\n' '~')' is refused with the list, exit 2 ($st)"
done
big=$(head -c 5000 /dev/zero | tr '\0' a)
sh_as alice "ladder $big"
expect_eq "a 5000-byte command is refused" "$?" 2
for name in ../x "$(head -c 300 /dev/zero | tr '\0' a)" "$(printf 'a\033b')" Alice ""; do
    SSH_ORIGINAL_COMMAND=ladder "$BOTFIELD" arena-shell "$A" "$name" >/dev/null 2>"$TMPD/err"
    st=$?
    expect_eq "a bad NAME ($(printf '%s' "$name" | head -c 12 | od -An -c | tr -s ' ')) is refused" "$st" 2
done
sh_as alice watch
expect_eq "watch without a terminal: exit 2" "$?" 2
grep -q "needs a terminal: ssh -t" "$TMPD/err"; ok $? "... it says to use ssh -t"
sh_as alice help
expect_eq "help exits 0" "$?" 0
grep -q "fetch MATCH" "$TMPD/out"; ok $? "help lists the commands on stdout"

# ---- submit ------------------------------------------------------------
sh_as alice "submit shoot" "$L/shoot.lua"
expect_eq "submit a good bot: exit 0" "$?" 0
grep -q "stored alice/shoot" "$TMPD/out"; ok $? "... it says so"
cmp -s "$L/shoot.lua" "$A/bots/alice/shoot.lua"; ok $? "... stored as bots/alice/shoot.lua"
expect_eq "... mode 0600" "$(stat -c %a "$A/bots/alice/shoot.lua")" 600
printf 'x = 1\n' >"$TMPD/notick.lua"
sh_as alice "submit notick" "$TMPD/notick.lua"
expect_eq "a script without tick: exit 2" "$?" 2
grep -q "bots/alice/notick.lua: .*tick" "$TMPD/err"; ok $? "... the error names the script and tick"
printf 'function tick(\n' >"$TMPD/syntax.lua"
sh_as alice "submit syntax" "$TMPD/syntax.lua"
expect_eq "a syntax error: exit 2" "$?" 2
grep -q "bots/alice/syntax.lua:2:" "$TMPD/err"; ok $? "... with its line"
printf 'while true do end\nfunction tick() end\n' >"$TMPD/loop.lua"
sh_as bob "submit loop" "$TMPD/loop.lua"
expect_eq "a top level that never ends: exit 2 (the budget)" "$?" 2
printf 'local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 1e6) end\nfunction tick() end\n' >"$TMPD/bomb.lua"
sh_as bob "submit bomb" "$TMPD/bomb.lua"
expect_eq "a memory bomb at the top level: exit 2" "$?" 2
printf 'os.execute("touch x")\nfunction tick() end\n' >"$TMPD/os.lua"
sh_as bob "submit os" "$TMPD/os.lua"
expect_eq "a script calling os.execute: exit 2" "$?" 2
[ ! -e "$A/x" ] && [ ! -e x ]; ok $? "... nothing ran"
head -c 4001 /dev/zero | tr '\0' ' ' >"$TMPD/big.lua"
sh_as bob "submit big" "$TMPD/big.lua"
expect_eq "a script over max_script: exit 2" "$?" 2
grep -q "max_script, 4000 bytes" "$TMPD/err"; ok $? "... naming the limit"
head -c 1048000 /dev/zero | tr '\0' a >"$TMPD/huge.lua"
sh_as bob "submit huge" "$TMPD/huge.lua"
expect_eq "a script of 1 MB, far over the daemon's request bound: exit 2" "$?" 2
grep -q "max_script, 4000 bytes" "$TMPD/err"; ok $? "... naming the limit (not 'no answer')"
ls "$A/bots/bob" 2>/dev/null | grep -q . && r=1 || r=0
ok $r "no refused script was stored"
sh_as bob "log nobot"
expect_eq "log of a bot one does not have: exit 2" "$?" 2
grep -q "you have no bot nobot" "$TMPD/err"; ok $? "... saying so"
sh_as alice "submit idle" "$L/idle.lua"
sh_as alice "submit lucky" "$L/lucky.lua"
expect_eq "a third bot over bots_per_person = 2: exit 2" "$?" 2
grep -q "bots_per_person" "$TMPD/err"; ok $? "... naming the key"
sh_as alice "submit idle" "$L/shoot.lua"
expect_eq "replacing a bot of the same name is allowed" "$?" 0
cmp -s "$L/shoot.lua" "$A/bots/alice/idle.lua"; ok $? "... and replaces it"
# a top level of some 300,000 instructions: within the default budget's
# ten times, not within a map's bot_budget = 1000's
printf 'for i = 1, 100000 do end\nfunction tick() end\n' >"$TMPD/slowtop.lua"
sh_as erin "submit slowtop" "$TMPD/slowtop.lua"
expect_eq "a slow top level, the map's default budget: stored" "$?" 0
stop_daemon
sed 's/^bot = idle.lua$/bot = idle.lua\nbot_budget = 1000/' "$L/duel.ini" >"$A/tight.ini"
printf '[arena]\nname = test\nmaps = duel.ini, tight.ini\nsubmit_every = 0\n' >"$A/arena.ini"
start_daemon
sh_as frank "submit slowtop" "$TMPD/slowtop.lua"
expect_eq "the same script where a map says bot_budget = 1000: exit 2" "$?" 2
grep -q "budget" "$TMPD/err"; ok $? "... the budget named ($(head -c 160 "$TMPD/err"))"
[ ! -e "$A/bots/frank/slowtop.lua" ]; ok $? "... not stored"
stop_daemon
rm -f "$A/tight.ini"
ini "submit_every = 3600"
start_daemon
sh_as carol "submit one" "$L/shoot.lua"
expect_eq "submit_every: the first submission is taken" "$?" 0
sh_as carol "submit two" "$L/idle.lua"
expect_eq "submit_every: the second, too soon, exit 2" "$?" 2
grep -q "try again in" "$TMPD/err"; ok $? "... it says when"

# ---- kill -9 -----------------------------------------------------------
kill -9 "$dpid"; wait "$dpid" 2>/dev/null; dpid=
# a recording renamed into place whose result line a kill cut off
printf '{"type":"header"}\n' >"$A/matches/999999.rec"
start_daemon
[ ! -e "$A/matches/999999.rec" ]; ok $? "a recording with no result is removed at start"
grep -q "999999.rec: a recording whose result was never written" "$TMPD/serve.err"
ok $? "... and the daemon says so"
grep -q "serving" "$TMPD/serve.err"; ok $? "after kill -9, the daemon starts again (the stale socket replaced)"
cmp -s "$L/shoot.lua" "$A/bots/carol/one.lua"; ok $? "... every submission kept"
sh_as carol "submit three" "$L/idle.lua"
expect_eq "... and submit_every still holds (from the files)" "$?" 2
ls -a "$A/bots/alice" "$A/bots/carol" | grep -q '^\.tmp' && r=1 || r=0
ok $r "no temporary file is left"
stop_daemon
[ ! -e "$A/arena.sock" ]; ok $? "SIGTERM: the daemon removes its socket"
# A match a daemon killed with -9 had just forked holds the socket and
# the lock for a moment: a daemon started then still starts (something
# that holds both for 0.4 s stands in for that child).
python3 -c 'import fcntl, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(16)
f = open(sys.argv[2], "w"); fcntl.flock(f, fcntl.LOCK_EX)
print("up", flush=True); time.sleep(0.4)' "$A/arena.sock" "$A/arena.lock" >"$TMPD/holder" 2>&1 & hpid=$!
i=0; while ! grep -q up "$TMPD/holder" && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
grep -q up "$TMPD/holder" || note "the stand-in did not start: $(cat "$TMPD/holder")"
start_daemon
wait "$hpid"
grep -q "serving" "$TMPD/serve.err"; ok $? "a socket held for a moment after a kill: the daemon starts"
stop_daemon

# ---- a client that keeps sending, never a whole line: dropped at 5 s -----
start_daemon
python3 - "$A/arena.sock" >"$TMPD/trickle" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
t0 = time.time()
try:
    while time.time() - t0 < 15:
        s.send(b"x" * 100)
        time.sleep(0.05)
    print("kept")
except OSError:
    print("dropped after %.1f s" % (time.time() - t0))
PY
note "a client sending 2 KB/s without a newline: $(cat "$TMPD/trickle")"
grep -q "dropped" "$TMPD/trickle"; ok $? "a client that keeps sending is dropped at its deadline"
stop_daemon

# ---- two daemons at once: the lock ---------------------------------------------
flock -o "$A/arena.lock" sleep 30 & lpid=$!   # -o: the lock is flock's alone
i=0; while flock -n "$A/arena.lock" true && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
timeout 20 "$BOTFIELD" serve "$A" 2>"$TMPD/err2"
expect_eq "the arena's lock held by another: the daemon refuses, exit 1" "$?" 1
grep -q "another daemon serves this arena" "$TMPD/err2"; ok $? "... saying another daemon serves it"
[ ! -e "$A/arena.sock" ]; ok $? "... and binds no socket"
pkill -P "$lpid" 2>/dev/null; kill "$lpid" 2>/dev/null; wait "$lpid" 2>/dev/null

# ---- out of descriptors: the daemon sheds new clients, never spins ------------
start_daemon
prlimit --pid "$dpid" --nofile=48:48
expect_eq "the daemon's descriptors limited to 48 (prlimit)" "$?" 0
cpu() { awk '{ print $14 + $15 }' "/proc/$dpid/stat"; }
python3 - "$A/arena.sock" "$TMPD/held" <<'PY' & hpid=$!
import socket, sys, time
conns = []
for _ in range(120):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(5)
    try:
        s.connect(sys.argv[1]); conns.append(s)
    except OSError:
        break
open(sys.argv[2], "w").write(str(len(conns)))
time.sleep(3)
PY
i=0; while [ ! -s "$TMPD/held" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
c0=$(cpu); sleep 2; c1=$(cpu)
note "$(cat "$TMPD/held") connections held; the daemon used $((c1 - c0)) ticks of CPU in 2 s"
[ "$(cat "$TMPD/held")" -ge 48 ]; ok $? "more connections held than the daemon has descriptors"
[ $((c1 - c0)) -lt 60 ]; ok $? "with 120 connections held and 48 descriptors, the daemon does not spin"
wait "$hpid"
sh_as alice ladder
expect_eq "... and answers once they are gone" "$?" 0
stop_daemon

# ---- a new bot plays within 10 s, however many matches were played -----------
ini "submit_every = 0
live = 0"
start_daemon
i=0; while [ "$(wc -l <"$A/results.jsonl")" -le 20 ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
before=$(wc -l <"$A/results.jsonl")
t0=$(date +%s%N)
sh_as dave "submit newbie" "$L/shoot.lua"
expect_eq "a newcomer's submission is taken" "$?" 0
i=0; while ! grep -q '"dave/newbie"' "$A/results.jsonl" && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
ms=$((($(date +%s%N) - t0) / 1000000))
note "$before matches before; the newcomer's first match finished $ms ms after its submission"
[ "$before" -gt 20 ] && grep -q '"dave/newbie"' "$A/results.jsonl" && [ $ms -lt 10000 ]
ok $? "with the ladder busy, a new bot's first match is played within 10 s"
stop_daemon
done_testing
