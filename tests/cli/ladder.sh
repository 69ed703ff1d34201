#!/bin/sh
# --ladder and --sprt (botfield(6), LADDERS AND SEQUENTIAL TESTS) on a
# two-tank map where one hit decides: the sides-swapped pairing, the same
# bytes for --jobs 1 and 2, the ratings recounted from the game lines,
# the verdicts and exit statuses, and bad options refused.
. "$top_srcdir/tests/lib/lib.sh"
D="$top_srcdir/tests/maps/ladder"
cd "$D" || exit 1

# ---- --ladder ----------------------------------------------------------
"$BOTFIELD" --ladder shoot.lua idle.lua lucky.lua --map duel.ini --seeds 1-4 --jobs 1 \
    --csv "$TMPD/r.csv" >"$TMPD/j1" 2>"$TMPD/err"
expect_eq "--ladder, --jobs 1: exit 0" "$?" 0
"$BOTFIELD" --ladder shoot.lua idle.lua lucky.lua --map duel.ini --seeds 1-4 --jobs 2 >"$TMPD/j2"
expect_eq "--ladder, --jobs 2: exit 0" "$?" 0
cmp -s "$TMPD/j1" "$TMPD/j2"
ok $? "--jobs 1 and --jobs 2 print the same bytes"

python3 - "$TMPD/j1" "$TMPD/r.csv" >"$TMPD/py" 2>&1 <<'PY'
import collections, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
games = [l for l in lines if l["type"] == "game"]
ratings = [l for l in lines if l["type"] == "ratings"]
bad = []
if len(games) != 3 * 4 * 2 or len(ratings) != 1 or lines[-1] is not ratings[0]:
    bad.append("want 24 game lines then one ratings line")
# every seed of every pair twice, the second with the bots' teams swapped
seen = collections.Counter((g["seed"], g["bots"]["red"], g["bots"]["blue"]) for g in games)
for (seed, red, blue), n in seen.items():
    if n != 1 or seen.get((seed, blue, red)) != 1:
        bad.append("seed %d %s/%s not played once each way" % (seed, red, blue))
# points recounted from the winners
pts = collections.Counter()
for g in games:
    w = g["winner"]
    for team, bot in g["bots"].items():
        pts[bot] += 0.5 if w is None else (1 if w == team else 0)
r = {x["bot"]: x for x in ratings[0]["ratings"]}
for bot, p in pts.items():
    if r[bot]["points"] != p or r[bot]["games"] != 16:
        bad.append("%s: %r points in %r games, recount %r in 16" % (bot, r[bot]["points"], r[bot]["games"], p))
if ratings[0]["anchor"] != "shoot.lua" or r["shoot.lua"]["elo"] != 0:
    bad.append("the first bot is not the anchor at 0")
if not r["shoot.lua"]["elo"] > r["lucky.lua"]["elo"] > r["idle.lua"]["elo"]:
    bad.append("want shoot > lucky > idle")
for x in r.values():
    if not x["lo"] <= x["elo"] <= x["hi"]:
        bad.append("%s: interval does not hold its rating" % x["bot"])
csv = open(sys.argv[2]).read().splitlines()
if csv[0] != "bot,elo,lo,hi,games,points" or len(csv) != 4 or not csv[2].startswith('"idle.lua",'):
    bad.append("csv: %r" % csv)
if bad:
    print("\n".join(bad))
PY
[ -s "$TMPD/py" ] && note "$(cat "$TMPD/py")"
[ ! -s "$TMPD/py" ]
ok $? "pairs played both ways, points recounted, ratings ordered, the CSV"

"$BOTFIELD" --ladder shoot.lua idle.lua lucky.lua --map duel.ini --seeds 1-4 --anchor idle.lua \
    --chart >"$TMPD/chart"
expect_eq "--anchor, --chart: exit 0" "$?" 0
grep -q '"type"' "$TMPD/chart"
expect_eq "--chart prints the chart instead of the JSON" "$?" 1
expect_eq "--chart: a header and a row a bot" "$(wc -l <"$TMPD/chart" | tr -d ' ')" 4
"$BOTFIELD" --ladder shoot.lua idle.lua --map duel.ini --seeds 1-4 --anchor idle.lua | tail -1 >"$TMPD/anch"
grep -q '"anchor":"idle.lua".*"bot":"idle.lua","elo":0.0,' "$TMPD/anch"
ok $? "--anchor idle.lua: idle.lua is at 0"

# ---- --sprt --------------------------------------------------------------
# (what a failed game said is kept, and shown when the status is not 0)
"$BOTFIELD" --sprt lucky.lua idle.lua --map duel.ini --jobs 1 >"$TMPD/s1" 2>"$TMPD/s1.err"
st=$?
[ "$st" -ne 0 ] && note "$(tail -n 5 "$TMPD/s1.err")"
expect_eq "--sprt better NEW: exit 0" "$st" 0
"$BOTFIELD" --sprt lucky.lua idle.lua --map duel.ini --jobs 2 >"$TMPD/s2" 2>"$TMPD/s2.err"
st=$?
[ "$st" -ne 0 ] && note "$(tail -n 5 "$TMPD/s2.err")"
cmp -s "$TMPD/s1" "$TMPD/s2"
ok $? "--sprt: --jobs 1 and --jobs 2 print the same bytes"
tail -1 "$TMPD/s1" | grep -q '^H1: lucky.lua is better than idle.lua'
ok $? "--sprt: the verdict names H1"
expect_eq "--sprt: a progress line a pair, then the verdict" \
    "$(grep -c '^games [0-9]*  LLR ' "$TMPD/s1") $(wc -l <"$TMPD/s1" | tr -d ' ')" \
    "$(( $(wc -l <"$TMPD/s1") - 1 )) $(wc -l <"$TMPD/s1" | tr -d ' ')"
"$BOTFIELD" --sprt idle.lua lucky.lua --map duel.ini >"$TMPD/s3"
expect_eq "--sprt worse NEW: exit 1" "$?" 1
tail -1 "$TMPD/s3" | grep -q '^H0: idle.lua is not better than lucky.lua'
ok $? "--sprt: the verdict names H0"
"$BOTFIELD" --sprt shoot.lua shoot2.lua --map duel.ini --max-games 6 >"$TMPD/s4"
expect_eq "--sprt equal bots, --max-games 6: exit 3" "$?" 3
expect_eq "--sprt --max-games 6: three pairs, then undecided" \
    "$(grep -c '^games' "$TMPD/s4") $(tail -1 "$TMPD/s4" | cut -c1-10)" "3 undecided:"

# ---- bad options ---------------------------------------------------------
refused() {     # refused WHAT MESSAGE-PART ARGS...
    what=$1 part=$2
    shift 2
    "$BOTFIELD" "$@" >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    expect_eq "$what: exit 2" "$st" 2
    grep -q -- "$part" "$TMPD/err"
    ok $? "$what: says '$part'"
    [ ! -s "$TMPD/out" ]
    ok $? "$what: prints nothing on standard output"
}
refused "one bot" "needs two bots or more" --ladder shoot.lua --map duel.ini
refused "--sprt one bot" "needs two bots: NEW.lua OLD.lua" --sprt shoot.lua --map duel.ini
refused "seeds over the cap" "at most 1000000 games" --ladder shoot.lua idle.lua lucky.lua \
    --map duel.ini --seeds 1-200000
refused "elo1 = elo0" "must be more than --elo0" --sprt shoot.lua idle.lua --map duel.ini \
    --elo0 5 --elo1 5
refused "elo1 < elo0" "must be more than --elo0" --sprt shoot.lua idle.lua --map duel.ini \
    --elo0 5 --elo1 -5
refused "alpha 0" "strictly between 0 and 0.5" --sprt shoot.lua idle.lua --map duel.ini --alpha 0
refused "alpha 0.5" "strictly between 0 and 0.5" --sprt shoot.lua idle.lua --map duel.ini --alpha 0.5
refused "beta 0.7" "strictly between 0 and 0.5" --sprt shoot.lua idle.lua --map duel.ini --beta 0.7
refused "no map" "needs --map MAP" --ladder shoot.lua idle.lua
refused "a bot that is not .lua" "must be a .lua file" --ladder shoot.lua duel.ini --map duel.ini
refused "a bot twice" "given twice" --ladder shoot.lua ./shoot.lua --map duel.ini
refused "a bad --anchor" "not one of the bots" --ladder shoot.lua idle.lua --map duel.ini \
    --anchor nobody.lua
refused "a map of one team" "exactly two teams" --ladder shoot.lua idle.lua \
    --map "$top_srcdir/maps/crowd.ini"

# ---- bots named on the command line may live anywhere ---------------------
# The user typed their paths: a bot in another folder plays (here a copy
# of shoot.lua named idle.lua, beside the map's own idle.lua: the two are
# kept apart).  A map's own bot key still may not leave the map's folder.
mkdir -p "$TMPD/mine" "$TMPD/m"
cp shoot.lua "$TMPD/mine/idle.lua"
"$BOTFIELD" --ladder "$TMPD/mine/idle.lua" idle.lua --map duel.ini --seeds 1-2 --jobs 1 \
    >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--ladder with a bot in another folder: exit 0" "$?" 0
tail -n 1 "$TMPD/out" | grep -q '"bot":"'"$TMPD"'/mine/idle.lua","elo":0.0,"lo":0.0,"hi":0.0,"games":4,"points":4.0}'
ok $? "the bot from another folder plays as itself (4 wins of 4, as shoot.lua)"
"$BOTFIELD" --sprt "$TMPD/mine/idle.lua" lucky.lua --map duel.ini --max-games 4 >"$TMPD/out" 2>&1
expect_eq "--sprt with a bot in another folder runs (exit 3, undecided)" "$?" 3
sed 's/bot = idle.lua/bot = ..\/mine\/idle.lua/' duel.ini >"$TMPD/m/duel.ini"
"$BOTFIELD" --check "$TMPD/m/duel.ini" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a map's bot key leaving its folder: refused (exit 2)" "$?" 2
grep -q "leaves the map's folder" "$TMPD/err"
ok $? "a map's bot key leaving its folder: says so"
ln -s "$TMPD/mine/idle.lua" "$TMPD/m/link.lua"
sed 's/bot = idle.lua/bot = link.lua/' duel.ini >"$TMPD/m/duel.ini"
"$BOTFIELD" --headless --ticks 1 "$TMPD/m/duel.ini" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "a map's bot key through a link out of its folder: refused (exit 2)" "$?" 2
grep -q "symbolic link that leads out of it" "$TMPD/err"
ok $? "a map's bot key through a link out of its folder: says so"
sed 's/bot = idle.lua/bot = ..\/mine\/idle.lua/' duel.ini >"$TMPD/m/duel.ini"
"$BOTFIELD" --ladder "$TMPD/m/link.lua" idle.lua --map "$TMPD/m/duel.ini" --seeds 1-1 \
    >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--ladder on a map whose bot key leaves its folder: refused (exit 2)" "$?" 2
grep -q "leaves the map's folder" "$TMPD/err" && [ ! -s "$TMPD/out" ]
ok $? "--ladder on that map: says so, no game line"

# ---- --games: the results of games played elsewhere -------------------
# The games of ranges of seeds, put end to end, are the games of the whole
# range: read back, the same bytes as playing them (botfield-parallel's
# merge); a line out of place or missing games are refused.
for r in 1-1 2-3 4-4; do
    "$BOTFIELD" --ladder shoot.lua idle.lua lucky.lua --map duel.ini --seeds $r --jobs 1
done >"$TMPD/parts"
"$BOTFIELD" --ladder shoot.lua idle.lua lucky.lua --map duel.ini --seeds 1-4 --csv "$TMPD/g.csv" \
    --games "$TMPD/parts" >"$TMPD/merged"
expect_eq "--games: exit 0" "$?" 0
cmp -s "$TMPD/merged" "$TMPD/j1" && cmp -s "$TMPD/g.csv" "$TMPD/r.csv"
ok $? "--games: the played run's bytes and CSV"
"$BOTFIELD" --ladder lucky.lua idle.lua --map duel.ini --seeds 1-30 --jobs 1 \
    | "$BOTFIELD" --sprt lucky.lua idle.lua --map duel.ini --seeds 1-30 --games - >"$TMPD/gs"
st=$?
"$BOTFIELD" --sprt lucky.lua idle.lua --map duel.ini --seeds 1-30 >"$TMPD/ps"
expect_eq "--sprt --games -: the played test's exit status" "$st" "$?"
cmp -s "$TMPD/gs" "$TMPD/ps"
ok $? "--sprt --games -: the played test's bytes"
sed 1d "$TMPD/parts" >"$TMPD/bad"
refused "--games with a game out of place" "bad:1: a game of seed 1, shoot.lua on red and idle.lua on blue, was expected" \
    --ladder shoot.lua idle.lua lucky.lua --map duel.ini --seeds 1-4 --games "$TMPD/bad"
head -n 3 "$TMPD/parts" >"$TMPD/short"
refused "--games with games missing" "3 games where 24 were expected" \
    --ladder shoot.lua idle.lua lucky.lua --map duel.ini --seeds 1-4 --games "$TMPD/short"
refused "--games with --jobs" "jobs plays none" \
    --ladder shoot.lua idle.lua --map duel.ini --games "$TMPD/parts" --jobs 2

done_testing
