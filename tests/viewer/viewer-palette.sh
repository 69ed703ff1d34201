#!/bin/sh
# The viewer never misleads, in any terminal: every bundled map, in colour
# (TERM=xterm-256color), without colour (NO_COLOR=1), on a VT100 (no
# colour, ASCII) and with --ascii, at 80x24 and 200x55.  Each run steps to
# a tick where the trace has seen (and, where the map has them, hidden)
# sight records, captures the screen with its attributes (capture-pane -e),
# turns the rays on and captures again; tests/lib/screen-cells.py reads both.
# Asserted: seen and hidden rays are drawn and look different without
# colour (glyph or attribute), the observer's end is marked, gun lines
# are glyphs no ray uses, the teams look different, waypoint numbers show
# on race maps, and race.ini's cars wear the colours they are named after;
# then the new keys: t (predicted impacts), i (ids), o (the sight walk), a
# (the threat marked), and the first look: paused, with a hint; colours
# that read on black and on white, at 256 colours and at 8.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/tmux-lib.sh"
CELLS="$top_srcdir/tests/lib/screen-cells.py"
if ! command -v python3 >/dev/null; then
    echo "not ok 1 - python3 is needed to read the screens"
    echo "1..1"
    exit 1
fi

# run NAME W H ENV ARGS: a paused viewer in a session of its own.
run() {
    start_session "$1" "$2" "$3" "$4 $BOTFIELD --paused $5"
}

screen_is() {   # screen_is NAME PATTERN: waits up to 10 s for the screen
    i=0
    while [ $i -lt 100 ]; do
        tm capture-pane -p -t "$1" | grep -Eq -- "$2" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    note "$1: timed out waiting for /$2/"
    tm capture-pane -p -t "$1" | sed 's/^/# | /'
    return 1
}

# The tick to look at: the one of the first 300 with the most of the
# rarer kind of sight record (then the most seen ones).
best_tick() {
    "$BOTFIELD" --headless --ticks 300 --trace-every 100000 --trace - "$1" 2>/dev/null |
    awk '/"type":"sight"/ {
            t = $0; sub(/.*"tick":/, "", t); sub(/,.*/, "", t)
            f = $0; sub(/.*"from":"/, "", f); sub(/".*/, "", f)
            o = $0; sub(/.*"to":"/, "", o); sub(/".*/, "", o)
            pair[t SUBSEP f SUBSEP o] = /"seen":true/
            any[t] = 1
         }
         END {
            # a hidden ray counts only when no ray runs back along it:
            # two tanks looking at each other draw one line, the last ray
            for (k in pair) {
                split(k, p, SUBSEP)
                if (pair[k]) { s[p[1]]++; ns++ }
                else if (!((p[1] SUBSEP p[3] SUBSEP p[2]) in pair)) { h[p[1]]++; nh++ }
            }
            best = -1; bt = 0
            for (t in any) {
                m = (s[t] < h[t] ? s[t] : h[t]) * 1000 + s[t]
                if (m > best || (m == best && t + 0 < bt + 0)) { best = m; bt = t }
            }
            print bt + 0, (ns > 0), (nh > 0)
         }'
}

MODES="colour nocolor vt100 ascii"
mode_env() {
    case $1 in
    colour)  echo "TERM=xterm-256color" ;;
    nocolor) echo "TERM=xterm-256color NO_COLOR=1" ;;
    vt100)   echo "TERM=vt100" ;;
    ascii)   echo "TERM=xterm-256color" ;;
    esac
}
mode_args() { [ "$1" = ascii ] && echo "--ascii"; }
mode_cells() {     # what screen-cells.py calls the mode
    case $1 in
    colour) echo colour ;; nocolor) echo mono ;;
    vt100) echo ascii-mono ;; ascii) echo ascii ;;
    esac
}

# Every view of every map at once, each step for all of them before the
# next: the waits overlap instead of adding up.
for map in "$top_srcdir"/maps/*.ini; do
    m=$(basename "$map" .ini)
    set -- $(best_tick "$map")
    echo "$m $map $1 $2 $3 $(grep -c '^\[team\.' "$map") $(grep -c '^\[track\]' "$map")" \
         "$(grep -Ec '^\[(team|tank|turret)\.' "$map")" >>"$TMPD/maps"
    for mode in $MODES; do
        for size in 80x24 200x55; do
            run "$m-$mode-$size" "${size%x*}" "${size#*x}" "$(mode_env $mode)" \
                "$(mode_args $mode) $map"
        done
    done
done
# each_view CMD: CMD runs with m map tick has_seen has_hidden teams race
# guns mode size s (the session) set, for every view.
each_view() {
    while read -r m map tick has_seen has_hidden teams race guns; do
        for mode in $MODES; do
            for size in 80x24 200x55; do
                s="$m-$mode-$size"
                "$@"
            done
        done
    done <"$TMPD/maps"
}
go_to_tick() {
    screen_is "$s" 'tick 0 ' >/dev/null && [ "$tick" -gt 0 ] &&
        tm send-keys -t "$s" -N "$tick" .
}
before() {
    if screen_is "$s" "tick $tick "; then
        tm capture-pane -p -e -t "$s" \; send-keys -t "$s" r >"$TMPD/$s.before"
    else
        ok 1 "$m $mode $size: the viewer reaches tick $tick"
    fi
}
after() {
    [ -f "$TMPD/$s.before" ] || return 0
    screen_is "$s" 'on: rays' >/dev/null
    settle "$s"
    tm capture-pane -p -e -t "$s" \; kill-session -t "$s" >"$TMPD/$s.after"
    echo "$TMPD/$s.before $TMPD/$s.after $(mode_cells $mode) $TMPD/$s.facts" >>"$TMPD/jobs"
    echo "$m $mode $size $tick $has_seen $has_hidden $teams $race $guns" >>"$TMPD/runs"
}
each_view go_to_tick
each_view before
# (one frame's output may reach tmux in pieces: give the last one time)
sleep 0.3
each_view after

# One python for every screen (its start costs more than the reading).
python3 "$CELLS" $(cat "$TMPD/jobs")
ok $? "screen-cells.py read every screen"

while read -r m mode size tick has_seen has_hidden teams race guns; do
    s="$m-$mode-$size"
    what="$m $mode $size tick $tick"
    . "$TMPD/$s.facts"
    if [ "$has_seen" = 1 ]; then
        [ "$seen" -ge 1 ] && [ "$eye" -ge 1 ]
        ok $? "$what: seen rays drawn ($seen cells), observer's end marked ($eye)"
    fi
    if [ "$has_hidden" = 1 ]; then
        [ "$hidden" -ge 1 ] && [ "$seen_hidden_same" = 0 ]
        ok $? "$what: hidden rays drawn ($hidden cells), unlike seen ones without colour"
    fi
    if [ "$has_seen" = 1 ]; then
        [ "$unknown" = 0 ] && [ "$gun_in_rays" = 0 ]
        ok $? "$what: every cell the rays changed is a ray's ($unknown others), none a gun's glyph"
    fi
    if [ "$guns" -gt 0 ]; then
        [ "$gun" -ge 1 ] && [ "$vehicles" -ge 1 ]
        ok $? "$what: guns drawn as gun glyphs ($gun) beside $vehicles vehicles"
    fi
    if [ "$teams" -ge 2 ]; then
        [ "$teams_seen" -ge 2 ]
        ok $? "$what: the teams look different ($teams_seen looks)"
    fi
    if [ "$race" -gt 0 ]; then
        missing=
        for n in 0 1 2 3 4 5; do
            case " $numbers " in *" $n "*) ;; *) missing="$missing $n" ;; esac
        done
        [ -z "$missing" ]
        ok $? "$what: waypoint numbers show (missing:${missing:- none})"
    fi
    if [ "$m" = race ] && [ "$mode" = colour ]; then
        r=0
        for c in 31 32 34; do
            case " $car_colors " in *" $c "*) ;; *) r=1 ;; esac
        done
        ok $r "$what: car.red, car.green and car.blue are red, green and blue (colours: $car_colors)"
    fi
done <"$TMPD/runs"

# at_tick NAME MAP TICK KEYS STATUS: a 120x40 colour view of MAP stepped
# to TICK, KEYS pressed, STATUS waited for on the screen.
at_tick() {
    run "$1" 120 40 "TERM=xterm-256color" "$2"
    screen_is "$1" 'tick 0 ' >/dev/null && tm send-keys -t "$1" -N "$3" .
    screen_is "$1" "tick $3 " >/dev/null
    tm send-keys -t "$1" $4
    screen_is "$1" "$5" >/dev/null
    settle "$1"
}
map_marks() {   # map_marks NAME GLYPH: how many the map rows hold
    tm capture-pane -p -t "$1" | sed -n '2,39p' | grep -o "$2" | wc -l
}

# The marks of the new keys, on forest.ini at tick 10 (two shells in
# flight): t draws each shell's predicted impact and the seconds left, i
# the ids, o with a tank selected the cells its sight walked.
# t's marks are read before i: an id is a label, drawn over a mark, and
# tank.red.2 (dodging shell 1) drives just left of that shell's impact.
at_tick keys "$top_srcdir/maps/forest.ini" 10 t 'on: .*aim'
tm capture-pane -p -t keys >"$TMPD/keys"
n=$(map_marks keys '⊗')
grep -Eq '⊗.?[0-9]+\.[0-9]s' "$TMPD/keys"
ok $? "t: shells end at their predicted impact, with the seconds left ($n shown)"
tm send-keys -t keys i
screen_is keys 'on: .*ids' >/dev/null
settle keys
tm capture-pane -p -t keys >"$TMPD/keys"
grep -q 'red\.1' "$TMPD/keys" && grep -q 'blue\.1' "$TMPD/keys"
ok $? "i: the vehicles' ids are on the map"
tm send-keys -t keys Tab o
screen_is keys 'walk' >/dev/null
settle keys
n=$(map_marks keys '·')
[ "$n" -ge 5 ]
ok $? "o: the selected tank's sight walk is shaded ($n cells)"
tm kill-session -t keys

# a marks the threat each tank avoids (a '!' over it) on the crowd.
at_tick threat "$top_srcdir/maps/crowd.ini" 30 a 'on: avoid'
n=$(map_marks threat '!')
[ "$n" -ge 1 ]
ok $? "a: threats are marked with ! ($n)"
tm kill-session -t threat

# Pacing: without --paused or --speed the viewer opens paused on tick 0
# with a one-line hint; --speed starts it running.
start_session pace 80 24 "TERM=xterm-256color $BOTFIELD"
screen_is pace 'tick 0 ' >/dev/null
sleep 1
tm capture-pane -p -t pace >"$TMPD/pace"
grep -q 'tick 0 .*paused' "$TMPD/pace" && grep -q 'space runs.*? keys' "$TMPD/pace"
ok $? "the viewer opens paused on tick 0 with a hint"
tm kill-session -t pace
start_session run 80 24 "TERM=xterm-256color $BOTFIELD --speed 1"
screen_is run 'tick [1-9][0-9]* ' >/dev/null
ok $? "with --speed it runs at once"
tm kill-session -t run

# Colours that read on a black and on a white background: at 256 colours
# no plain blue, yellow or cyan (SGR 34, 33, 36: blue guns were invisible
# on a black xterm, yellow and cyan text faint on white) but mid tones;
# the blue team (38;5;33) drawn bold, guns included.
start_session bw 80 24 "TERM=xterm-256color $BOTFIELD --paused"
screen_is bw 'tick 0 ' >/dev/null
sleep 0.5
tm capture-pane -e -p -t bw | python3 "$top_srcdir/tests/lib/sgr-cells.py" >"$TMPD/cells"
! grep -Eq '^(33|34|36) ' "$TMPD/cells"
ok $? "256 colours: no plain blue, yellow or cyan"
{ grep -q '^5;33 ' "$TMPD/cells" && ! grep -q '^5;33 0' "$TMPD/cells"; }
ok $? "the blue team in a light blue, every cell of it bold (its guns too)"
tm send-keys -t bw '?'
screen_is bw 'botfield keys' >/dev/null
tm capture-pane -e -p -t bw | python3 "$top_srcdir/tests/lib/sgr-cells.py" >"$TMPD/cells-help"
grep -q '^5;178 1' "$TMPD/cells-help" && grep -q '^5;37 1' "$TMPD/cells-help"
ok $? "256 colours: the keys (gold) and the title (teal) of ? stay bold"
tm kill-session -t bw

# With 8 colours (xterm's own TERM=xterm) bold shows as the bright colour
# in most terminals: bright yellow and cyan all but vanished on white (the
# ? screen's keys, the inspector's headings), so those two are never bold
# there; the blue team stays bold (bright blue is what reads on black).
start_session b8 80 24 "TERM=xterm $BOTFIELD --paused"
screen_is b8 'tick 0 ' >/dev/null
sleep 0.5
tm capture-pane -e -p -t b8 | python3 "$top_srcdir/tests/lib/sgr-cells.py" >"$TMPD/cells8"
{ grep -q '^34 1' "$TMPD/cells8" && ! grep -q '^34 0' "$TMPD/cells8"; }
ok $? "8 colours: the blue team bold, every cell of it"
tm send-keys -t b8 '?'
screen_is b8 'botfield keys' >/dev/null
tm capture-pane -e -p -t b8 | python3 "$top_srcdir/tests/lib/sgr-cells.py" >"$TMPD/cells8-help"
n=$(grep -Ec '^(33|36) ' "$TMPD/cells8-help")
note "8 colours, ? screen: $n yellow or cyan cells, $(grep -Ec '^(33|36) 1' "$TMPD/cells8-help") bold"
[ "$n" -gt 0 ] && ! grep -Eq '^(33|36) 1' "$TMPD/cells8-help"
ok $? "8 colours: yellow and cyan text is never bold (bright on white is unreadable)"
tm kill-session -t b8
done_testing
