#!/bin/sh
# botfield-bots(7)'s racing additions, through the trace: race.line() is
# the built-in steer = line driver's decision, byte for byte; a lap is
# clean when it skipped no waypoint, and best_lap counts clean laps only;
# a bot reads its last lap's event before the run ends.
. "$top_srcdir/tests/lib/lib.sh"

# One car on bots-race.ini's track, steering by the racing line: built in,
# or a bot whose every tick is race.line()'s answer.
race_map() {    # race_map BOT-LINE
    cat <<END
[map]
name = racing bot
width = 1200
height = 800
seed = 3
duration = 60
[track]
laps = 2
waypoints = 200 150 25, 700 150 25, 1000 180 20, 1060 300 14, 980 420 14, 700 450 25, 500 650 25, 200 650 25, 120 400 25
[car.a]
x = 200
y = 120
max_speed = 220
accel = 120
brake = 240
turn_rate = 200
steer = $2
$1
[car.b]
x = 140
y = 180
max_speed = 220
accel = 120
brake = 240
turn_rate = 200
steer = line
END
}
# the car's positions, headings and speeds, tick by tick
states() { grep '"type":"state".*"id":"car.a"' "$1" | sed 's/,"bot[^}]*//'; }

cat >"$TMPD/line.lua" <<'END'
function tick(me, world, mem, out)
  out.turn, out.speed = race.line()
end
END
race_map "" line >"$TMPD/builtin.ini"
# (the bot's car steers the article's way itself: race.line() plans for it)
race_map "bot = line.lua" classic >"$TMPD/bot.ini"
"$BOTFIELD" --headless --trace "$TMPD/builtin.tr" "$TMPD/builtin.ini"
ok $? "the built-in steer = line car runs"
"$BOTFIELD" --headless --trace "$TMPD/bot.tr" "$TMPD/bot.ini"
ok $? "the race.line() bot runs"
states "$TMPD/builtin.tr" >"$TMPD/a"
states "$TMPD/bot.tr" >"$TMPD/b"
[ "$(wc -l <"$TMPD/a")" -gt 1000 ]
ok $? "the car drove more than 1000 ticks"
cmp -s "$TMPD/a" "$TMPD/b"
ok $? "race.line() drives byte for byte as steer = line (positions, headings, speeds)"
grep -q '"type":"bot_error"' "$TMPD/bot.tr"
ok $((!$?)) "no bot_error"
# the line is not race.exact(): a bot on it laps differently
sed 's/race.line()/race.exact()/' "$TMPD/line.lua" >"$TMPD/exact.lua"
sed 's/line.lua/exact.lua/' "$TMPD/bot.ini" >"$TMPD/exact.ini"
"$BOTFIELD" --headless --trace "$TMPD/exact.tr" "$TMPD/exact.ini"
states "$TMPD/exact.tr" >"$TMPD/c"
cmp -s "$TMPD/a" "$TMPD/c"
ok $((!$?)) "race.exact() drives another path (the comparison can tell)"

# Clean laps on race.ini: its heavy blue car on speed_rule = none cannot
# make the hairpin and skips waypoints every lap, yet laps faster than on
# exact; exact skips none.
RACE="$top_srcdir/maps/race.ini"
# field VALUE of blue's lap lines, one a line
blue_laps() { grep '"type":"lap".*"id":"car.blue"' "$1" | sed "s/.*\"$2\":\([^,}]*\).*/\1/"; }
summary_best() { grep '"type":"summary"' "$1" | sed 's/.*"best_lap":{[^}]*"car.blue":\([^,}]*\).*/\1/'; }
"$BOTFIELD" --headless --set car.blue.speed_rule=none --trace "$TMPD/none.tr" "$RACE"
ok $? "race.ini, blue on speed_rule = none, runs"
"$BOTFIELD" --headless --set car.blue.speed_rule=exact --trace "$TMPD/exact.tr" "$RACE"
ok $? "race.ini, blue on speed_rule = exact, runs"
expect_eq "none: three laps" "$(blue_laps "$TMPD/none.tr" lap | tr '\n' ' ')" "1 2 3 "
[ "$(grep -c '"type":"waypoint_skipped".*"id":"car.blue"' "$TMPD/none.tr")" -ge 3 ]
ok $? "none: blue skips waypoints"
expect_eq "none: no lap is clean" "$(blue_laps "$TMPD/none.tr" clean | tr '\n' ' ')" \
    "false false false "
expect_eq "none: no clean lap, best_lap null" "$(summary_best "$TMPD/none.tr")" null
grep -q '"type":"waypoint_skipped".*"id":"car.blue"' "$TMPD/exact.tr"
ok $((!$?)) "exact: blue skips no waypoint"
expect_eq "exact: every lap is clean" "$(blue_laps "$TMPD/exact.tr" clean | tr '\n' ' ')" \
    "true true true "
best=$(blue_laps "$TMPD/exact.tr" time | sort -g | head -1)
expect_eq "exact: best_lap is the fastest clean lap" "$(summary_best "$TMPD/exact.tr")" "$best"
fastest_none=$(blue_laps "$TMPD/none.tr" time | sort -g | head -1)
awk -v a="$fastest_none" -v b="$best" 'BEGIN { exit !(a < b) }'
ok $? "none's skipping laps are faster ($fastest_none s < $best s): they would have won"
# the --seeds run lines and the aggregate: null, and left out of the mean
"$BOTFIELD" --headless --seeds 1-2 --set car.blue.speed_rule=none "$RACE" >"$TMPD/runs"
ok $? "--seeds runs"
expect_eq "run lines: blue's best_lap null" "$(grep '"type":"run"' "$TMPD/runs" | \
    sed 's/.*"car.blue":\([^,}]*\)}.*/\1/' | tr '\n' ' ')" "null null "
grep -q '"type":"aggregate".*"best_lap":{"n":4,' "$TMPD/runs"
ok $? "aggregate: best_lap over the 4 clean bests (red's and green's)"

# The last lap: a race ends when every car has finished, and a bot reads
# the events of a tick on the next one; when a bot's car finishes last the
# run lasts one tick more, so the bot gets its lap and finish events.
cat >"$TMPD/ev.lua" <<'END'
function tick(me, world, mem, out)
  out.turn, out.speed = race.exact()
  for _, ev in ipairs(world.events) do
    if ev.type == "lap" or ev.type == "finish" then
      log(ev.type, ev.tick, ev.lap, ev.clean)
    end
  end
end
END
last_map() {    # last_map BOT-LINE
    printf '%s\n' "[map]" "width = 800" "height = 600" "duration = 60" "[track]" "laps = 2" \
        "waypoints = 100 100 25, 700 100 25, 700 500 25, 100 500 25" \
        "[car.a]" "x = 100" "y = 60" "heading = 0" "steer = classic" "$1"
}
last_map "bot = ev.lua" >"$TMPD/last.ini"
"$BOTFIELD" --headless --trace "$TMPD/last.tr" "$TMPD/last.ini"
ok $? "a lone bot car races two laps"
fin=$(grep '"type":"finish"' "$TMPD/last.tr" | sed 's/.*"tick":\([0-9]*\).*/\1/')
[ -n "$fin" ]
ok $? "it finished (tick $fin)"
expect_eq "its bot logged the last lap's event on the next tick" \
    "$(grep '"type":"log"' "$TMPD/last.tr" | tail -2 | sed 's/.*"tick":\([0-9]*\).*"text":"\([^"]*\)".*/\1 \2/' | tr '\n' '|')" \
    "$((fin + 1)) lap $fin 2 true|$((fin + 1)) finish $fin nil nil|"
expect_eq "the run ended one tick after the finish" \
    "$(grep '"type":"summary"' "$TMPD/last.tr" | sed 's/.*"ticks":\([0-9]*\).*/\1/')" "$((fin + 1))"
expect_eq "the extra tick's states close the trace" \
    "$(grep '"type":"state"' "$TMPD/last.tr" | tail -1 | sed 's/.*"tick":\([0-9]*\).*/\1/')" "$((fin + 1))"
# without a bot, the race still ends on the tick the last car finishes
last_map "" >"$TMPD/nobot.ini"
"$BOTFIELD" --headless --trace "$TMPD/nobot.tr" "$TMPD/nobot.ini"
fin=$(grep '"type":"finish"' "$TMPD/nobot.tr" | sed 's/.*"tick":\([0-9]*\).*/\1/')
expect_eq "without a bot the run ends on the finish tick" \
    "$(grep '"type":"summary"' "$TMPD/nobot.tr" | sed 's/.*"ticks":\([0-9]*\).*/\1/')" "$fin"

done_testing
