#!/bin/sh
# botfield(6) RECORDINGS and botfield-bots(7) on a recording's lines: a live reload writes
# {"type":"bot_reload","tick":T,"id":ID,"bot_sha256":...} (botfield-bots(7)), so a
# replay reads such a line (the script is its tick's bot_source line)
# and refuses a malformed one with exit 2 and its line.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/bots-duel.ini"
"$BOTFIELD" --headless --ticks 300 --record "$TMPD/r.rec" --trace "$TMPD/a.jsonl" "$MAP"
ok $? "a recorded run"
sha=$(sed -n 's/.*"type":"bot_source".*"sha256":"\([0-9a-f]*\)".*/\1/p' "$TMPD/r.rec" | head -n 1)
id=$(sed -n 's/.*"type":"entity","id":"\([^"]*\)".*"bot_sha256".*/\1/p' "$TMPD/a.jsonl" | head -n 1)
# with_line FORMAT ARGS...: the recording with printf's line inserted as
# its third line.
with_line() {
    sed -n '1,2p' "$TMPD/r.rec"
    fmt=$1; shift
    # shellcheck disable=SC2059
    printf "$fmt\n" "$@"
    sed -n '3,$p' "$TMPD/r.rec"
}
with_line '{"type":"bot_reload","tick":5,"id":"%s","bot_sha256":"%s"}' "$id" "$sha" >"$TMPD/reload.rec"
"$BOTFIELD" --headless --replay "$TMPD/reload.rec" --trace "$TMPD/b.jsonl" 2>"$TMPD/err"
st=$?
[ $st -ne 0 ] && note "$(cat "$TMPD/err")"
ok $st "a recording with a bot_reload line replays (exit 0)"
cmp -s "$TMPD/a.jsonl" "$TMPD/b.jsonl"
ok $? "and gives the recorded run's trace"
with_line '{"type":"bot_reload","tick":5,"bot_sha256":"%s"}' "$sha" >"$TMPD/bad.rec"
"$BOTFIELD" --headless --replay "$TMPD/bad.rec" --summary >"$TMPD/out" 2>"$TMPD/err"
st=$?
grep -q 'bad.rec:3: .*bot_reload.*"id"' "$TMPD/err"
ok $(( $? + (st != 2) )) "a bot_reload without its id: exit 2, naming line 3 and the key"
expect_eq "and nothing on standard output" "$(cat "$TMPD/out")" ""
# The line is checked against the world it meets: a vehicle the map
# lacks is refused before anything runs.
with_line '{"type":"bot_reload","tick":5,"id":"tank.nobody","bot_sha256":"%s"}' "$sha" >"$TMPD/who.rec"
"$BOTFIELD" --headless --replay "$TMPD/who.rec" --summary >"$TMPD/out" 2>"$TMPD/err"
st=$?
grep -q 'who.rec:3: bot_reload for "tank.nobody": the map has no such vehicle' "$TMPD/err"
ok $(( $? + (st != 2) )) "a bot_reload for a vehicle the map lacks: exit 2, naming line 3"
expect_eq "and nothing on standard output" "$(cat "$TMPD/out")" ""
done_testing
