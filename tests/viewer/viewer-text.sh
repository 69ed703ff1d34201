#!/bin/sh
# A stranger's text on the viewer's screen: a map's name, a bot's log
# lines, its error and its draw.text, with control characters (ESC, BEL,
# the C1 CSI, DEL), wide (CJK) and combining characters and malformed
# UTF-8.  Asserted: nothing of it reaches the terminal as a control (no
# "^[" echo, no cleared screen), and every cell stays where it belongs: the
# status line ends with the same timeline as for a plain name, the map
# below it is the same, the inspector's border is in one column on every
# row and no row is wider than the terminal (a wide character counted as
# one cell pushed the rest of its line past the edge and onto the next).
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
if ! command -v python3 >/dev/null; then
    echo "not ok 1 - python3 is needed to measure the screens"
    echo "1..1"
    exit 1
fi

# run NAME ARGS: a paused viewer at 80x24 (tmux-lib.sh).
run() { run_paused "$@"; }

# widths NAME: each row's width in cells and the cell column of every '│'
# ("W c1 c2 ..."), as the terminal lays them out: East Asian wide and
# fullwidth characters take two cells, combining marks none.
widths() {
    screen "$1" | python3 -c '
import sys, unicodedata
for line in sys.stdin.read().split("\n")[:-1]:
    col, bars = 0, []
    for ch in line:
        if ch == "\u2502":
            bars.append(col)
        if unicodedata.combining(ch):
            continue
        col += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    print(col, *bars)'
}

# The same map under five names.
mk() {
    printf '[map]\nname = %b\nwidth = 400\nheight = 300\nseed = 3\n[trees]\nrandom = 20\n' \
        "$2" >"$TMPD/$1.ini"
}
mk plain 'plain name'
mk cjk '漢字漢字漢字漢字 wide'
mk comb 'e\0314\0201e\0314\0201e\0314\0201 combining'
mk ctl 'a\033[2Jb\007c\0302\0233d\0177e\0302\0205 controls'
mk bad 'x\0355\0240\0200y\0300\0257z\0377 malformed'
for m in plain cjk comb ctl bad; do run "$m" "$TMPD/$m.ini"; done
for m in plain cjk comb ctl bad; do wait_for "$m" 'tick 0 '; settle "$m"; done

screen plain | sed -n 1p >"$TMPD/plain.top"
screen plain | sed -n '2,$p' >"$TMPD/plain.rest"
# The timeline: the top line from its first tick mark on.
tl=$(sed 's/^[^◆]*//' "$TMPD/plain.top")
for m in cjk comb ctl bad; do
    top=$(screen "$m" | sed -n 1p)
    case $top in
    *"$tl") ok 0 "$m name: the status line ends with the timeline, where it is for a plain name" ;;
    *) ok 1 "$m name: the status line ends with the timeline, where it is for a plain name"
       note "plain: $(cat "$TMPD/plain.top")" "$m:     $top" ;;
    esac
    screen "$m" | sed -n '2,$p' | cmp -s - "$TMPD/plain.rest"
    ok $? "$m name: the rows below the status line are those of the plain name"
    screen "$m" | sed -n '2,$p' | diff "$TMPD/plain.rest" - | head -n 6 | sed 's/^/# /'
    [ "$(widths "$m" | awk '$1 > 80' | wc -l)" -eq 0 ]
    ok $? "$m name: no row is wider than the terminal"
done
screen ctl | sed -n 1p | grep -q '\^\['
ok $((! $?)) "control characters in the name are not echoed as ^[ (or sent)"

# ---- a bot's log, error and drawing ------------------------------------------
cat >"$TMPD/evil.lua" <<'EOF'
function tick(me, world, mem, out)
  log("L\27[2J\7\194\155" .. "31m" .. string.rep("漢字", 12) .. "e\204\129\255 end")
  draw.text(me.x + 30, me.y, "D\27[2J漢字漢字\7\194\155x\204\129y")
  error("E\27[2J" .. string.rep("漢字", 14) .. "\7\194\155\204\129 end")
end
EOF
printf '[map]\nname = evil\nwidth = 600\nheight = 400\n[team.red]\ncolor = red\n[tank.evil]\nteam = red\nx = 300\ny = 200\nbot = evil.lua\n' >"$TMPD/evil.ini"
run evil "$TMPD/evil.ini"
wait_for evil 'tick 0 '
tm send-keys -t evil . . d Tab
wait_for evil 'bot error'
settle evil
# The inspector's border: its column on the first row (tank.evil's).
bar=$(widths evil | sed -n 2p | awk '{ print $NF }')
bad=$(widths evil | sed -n '2,22p' | awk -v b="$bar" '{
        f = 0; for (i = 2; i <= NF; i++) if ($i == b) f = 1
        if (!f || $1 > 80) n++ } END { print n + 0 }')
[ -n "$bar" ] && [ "$bad" -eq 0 ]
ok $? "a bot's log, error and draw.text: the inspector's border stays in column ${bar:-?} on every row ($bad rows off)"
[ "$bad" -eq 0 ] || screen evil | sed 's/^/# | /'
screen evil | grep -q '\^\['
ok $((! $?)) "a bot's control characters are not echoed as ^["
# Nothing of the panel's text wraps onto the map's left edge.
n=$(screen evil | sed -n '3,22p' | cut -c1-3 | grep -c '漢')
expect_eq "no wide character wraps onto the next row" "$n" 0

done_testing
