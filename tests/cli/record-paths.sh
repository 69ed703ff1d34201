#!/bin/sh
# What a recording holds about paths (botfield(6), RECORDINGS): the map's
# file name only (map_path used to be the path as given: an absolute one
# told the user's home folder), and the bots' scripts by their paths
# relative to the map's folder; so no folder of the machine it was made on
# is in it, and it replays from any folder.
. "$top_srcdir/tests/lib/lib.sh"

home="$TMPD/home/someone/maps"
mkdir -p "$home" "$TMPD/elsewhere"
cp -R "$top_srcdir/maps/bots" "$home/bots"
cp "$top_srcdir/maps/bots-duel.ini" "$home/duel.ini"
chmod -R u+w "$home"

# An absolute path to the map.
"$BOTFIELD" --headless --seconds 5 --record "$TMPD/abs.rec" --trace "$TMPD/abs.trace" \
    "$home/duel.ini" 2>"$TMPD/err"
expect_eq "an absolute map path: the recorded run exits 0" "$?" 0
expect_eq "an absolute map path: map_path is the file name" \
    "$(head -n 1 "$TMPD/abs.rec" | grep -o '"map_path":"[^"]*"')" '"map_path":"duel.ini"'
grep -o '"type":"bot_source","path":"[^"]*"' "$TMPD/abs.rec" >"$TMPD/paths"
expect_eq "the bot_source paths are relative to the map's folder" \
    "$(cat "$TMPD/paths")" '"type":"bot_source","path":"bots/hunter.lua"'
grep -qF -e "$TMPD" -e someone "$TMPD/abs.rec"
ok $((! $?)) "no folder of the machine anywhere in the recording"

# A relative path with folders: the file name too.
(cd "$TMPD/home" && "$BOTFIELD" --headless --seconds 1 --record "$TMPD/rel.rec" \
    someone/maps/duel.ini >/dev/null 2>&1)
expect_eq "a relative map path: map_path is the file name" \
    "$(head -n 1 "$TMPD/rel.rec" | grep -o '"map_path":"[^"]*"')" '"map_path":"duel.ini"'

# Replayed from another folder, the map's folder gone: the same run.
rm -rf "$TMPD/home"
replays_elsewhere ../abs.rec "replayed from another folder, the map's gone" "$TMPD/abs.trace"

done_testing
