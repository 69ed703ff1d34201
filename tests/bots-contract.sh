#!/bin/sh
# BOTS.md read literally, as a bot writer would: small bots that log what
# the contract promises, run headless, checked in the trace.
. "$top_srcdir/tests/lib.sh"

# run MAP BOT TICKS: the trace's log and bot_error lines in $TMPD/out
run() {
    cp "$2" "$TMPD/b.lua"
    "$BOTFIELD" --headless --ticks "$3" --trace "$TMPD/t" "$1"
    rc=$?
    expect_eq "$(basename "$2" .lua): the run exits 0" "$rc" 0
    grep '"type":"log"\|"type":"bot_error"' "$TMPD/t" > "$TMPD/out"
}
has() {     # has DESCRIPTION LINE: LINE is in $TMPD/out
    grep -qxF "$2" "$TMPD/out"
    ok $? "$1"
}

# one tank alone, and a field with every kind of vehicle
cat > "$TMPD/alone.ini" <<'MAP'
[map]
name = alone
width = 600
height = 400
seed = 7
[team.red]
color = red
[tank.a]
team = red
x = 100
y = 200
heading = 0
bot = b.lua
MAP

# log(...) writes a trace line, init's too (BOTS.md: "a line ... in the
# inspector and in the trace"); init's 8 lines come with the first tick's
cat > "$TMPD/init-log.lua" <<'LUA'
function init(me, mem) log("init", me.id) for i = 1, 10 do log(i) end end
function tick(me, world, mem, out) if world.tick == 1 then log("tick") end end
LUA
run "$TMPD/alone.ini" "$TMPD/init-log.lua" 2
has "init's log is in the trace" '{"type":"log","tick":1,"id":"tank.a","text":"init tank.a"}'
expect_eq "init keeps at most 8 lines" "$(grep -c '"tick":1,"id":"tank.a","text":"[0-9]*"' "$TMPD/out")" 7
has "the first tick's log follows" '{"type":"log","tick":1,"id":"tank.a","text":"tick"}'

done_testing
