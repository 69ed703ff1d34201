#!/bin/sh
# The viewer, driven for real: botfield runs in a detached tmux of a fixed
# size, keys go in with send-keys and the screen comes back with
# capture-pane (as tmux's own regress/ tests do).  Waits poll the screen
# with a timeout instead of sleeping a fixed time.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/default.ini"
. "$top_srcdir/tests/lib/tmux-lib.sh"

# start NAME ARGS...: a session running botfield (tmux-lib.sh's
# start_limited, no file size limit).
start() {
    name=$1; shift
    start_limited "$name" - "$@"
}


tick_of() { screen "$1" | sed -n 's/.*tick \([0-9][0-9]*\).*/\1/p' | head -n 1; }

# ---- drawing, stepping, stepping back -------------------------------------
start v --paused --seed 7 "$MAP"
wait_for v 'tick 0 '
ok $? "the viewer starts and shows 'tick 0'"
screen v | grep -q 'forest skirmish'
ok $? "the status line names the map"
# Trees (♣ or #) and tanks on the map rows.
n=$(screen v | sed -n '2,23p' | grep -c '[♣#]')
[ "${n:-0}" -ge 10 ]
ok $? "the map is drawn (trees on $n rows)"

tm send-keys -t v .
wait_for v 'tick 1 '
ok $? "'.' steps exactly one tick (0 -> 1)"
settle v
screen v >"$TMPD/tick1"
tm send-keys -t v .
wait_for v 'tick 2 '
ok $? "'.' again: tick 2"
tm send-keys -t v ,
wait_for v 'tick 1 '
ok $? "',' steps back to tick 1"
settle v
screen v >"$TMPD/back1"
cmp -s "$TMPD/tick1" "$TMPD/back1"
ok $? "and the screen is exactly as it was at tick 1"
diff "$TMPD/tick1" "$TMPD/back1" | sed 's/^/# /' | head -n 10

# Overlays and a selection, then step and step back again.
# (The bottom line is left out: it shows a message for a few seconds after
# each overlay key.)
tm send-keys -t v Tab r v a t w .
wait_for v 'tick 2 '
settle v
screen v | head -n 23 >"$TMPD/sel2"
tm send-keys -t v .
wait_for v 'tick 3 '
tm send-keys -t v ,
wait_for v 'tick 2 '
settle v
screen v | head -n 23 >"$TMPD/back2"
cmp -s "$TMPD/sel2" "$TMPD/back2"
ok $? "with overlays and the inspector on, stepping back shows the same screen"

# ---- running and pausing --------------------------------------------------
tm send-keys -t v Space
wait_for v 'running'
t0=$(tick_of v)
sleep 0.5
t1=$(tick_of v)
[ "${t1:-0}" -gt "${t0:-0}" ]
ok $? "space runs: the tick advances ($t0 -> $t1)"
tm send-keys -t v Space
wait_for v 'paused'
t0=$(tick_of v)
sleep 0.5
t1=$(tick_of v)
[ -n "$t0" ] && [ "$t0" = "$t1" ]
ok $? "space again pauses: the tick stays ($t0 = $t1)"

# ---- help, resize ---------------------------------------------------------
# (Tall enough for every key and the legend: at 80x24 the help scrolls.)
tm resize-window -t v -x 80 -y 60
tm send-keys -t v '?'
wait_for v 'botfield keys'
ok $? "'?' shows the help"
# The help lists the viewer's key table, the same rows the man page prints
# (botfield --man-viewer-keys): every name at the start of a line.
"$BOTFIELD" --man-viewer-keys | sed -n 's/^\.B //p' | sed 's/\\-/-/g' >"$TMPD/keynames"
screen v >"$TMPD/help"
# More keys than rows: the list scrolls, and its second page counts too.
tm send-keys -t v NPage
sleep 0.3
screen v >>"$TMPD/help"
missing=
while IFS= read -r name; do
    awk -v n="$name" 'substr($0, 2, length(n)) == n && substr($0, 2 + length(n), 1) == " " { f = 1 }
                      END { exit !f }' "$TMPD/help" || missing="$missing [$name]"
done <"$TMPD/keynames"
[ "$(wc -l <"$TMPD/keynames")" -ge 20 ] && [ -z "$missing" ]
ok $? "the help shows every key the man page lists (missing:${missing:- none})"
tm send-keys -t v Escape
wait_for v 'tick [0-9]+ ' 3
ok $? "Esc closes the help at once"
tm resize-window -t v -x 80 -y 24

tm resize-window -t v -x 30 -y 8
wait_for v 'too small'
ok $? "a 30x8 terminal shows a short message"
tm resize-window -t v -x 80 -y 24
wait_for v 'tick [0-9]+ '
ok $? "back at 80x24 the map returns"
n=$(screen v | sed -n '2,23p' | grep -c '[♣#]')
[ "${n:-0}" -ge 10 ]
ok $? "and is drawn again"

# ---- quitting ---------------------------------------------------------------
tm send-keys -t v q
wait_for v 'EXIT 0'
ok $? "'q' quits with status 0"
screen v | grep -q RESTORED
ok $? "the terminal modes are restored"
expect_eq "the alternate screen is left" "$(tm display-message -p -t v '#{alternate_on}')" 0

# q from the help screen too.
start h --paused "$MAP"
wait_for h 'tick 0 '
tm send-keys -t h '?'
wait_for h 'botfield keys'
tm send-keys -t h q
wait_for h 'EXIT 0'
ok $? "'q' quits from the help screen"

# ---- live map editing ----------------------------------------------------------
cp "$MAP" "$TMPD/live.ini"
start live --paused "$TMPD/live.ini"
wait_for live 'tick 0 '
tm send-keys -t live . .
wait_for live 'tick 2 '
# Saved the way many editors do: a new file renamed over the old one.
sed 's/^random = 200/random = many/' "$TMPD/live.ini" >"$TMPD/live.new"
mv "$TMPD/live.new" "$TMPD/live.ini"
wait_for live 'not reloaded.*live.ini:16: '
ok $? "a broken edit shows the error in the status line"
screen live | grep -q 'tick 2 '
ok $? "and the old map keeps running"
# Written in place this time.
sed 's/^random = many/random = 20/' "$TMPD/live.ini" >"$TMPD/live.new"
cat "$TMPD/live.new" >"$TMPD/live.ini"
wait_for live 'on disk: reloaded.*live.ini'
ok $? "the fixed file is reloaded"
screen live | grep -q 'tick 0 '
ok $? "and runs from tick 0"
tm send-keys -t live q

# ---- signals restore the terminal ------------------------------------------
for sig in TERM HUP INT; do
    start "s$sig" --paused "$MAP"
    wait_for "s$sig" 'tick 0 '
    kill -"$sig" "$(cat "$TMPD/s$sig.pid")"
    wait_for "s$sig" 'EXIT [0-9]+'
    ok $? "SIG$sig ends the viewer"
    screen "s$sig" | grep -q RESTORED
    ok $? "SIG$sig: the terminal modes are restored"
    expect_eq "SIG$sig: the alternate screen is left" \
        "$(tm display-message -p -t "s$sig" '#{alternate_on}')" 0
done

# SIGQUIT (Ctrl-\) and the fatal signals die of the signal, as the parent
# expects, but only after giving the terminal back.
for sig in QUIT SEGV ABRT BUS FPE; do
    start "s$sig" --paused "$MAP"
    wait_for "s$sig" 'tick 0 '
    # (kill, not Ctrl-\ through tmux: that signals the whole foreground
    # group, the test's wrapper shell included.)
    kill -"$sig" "$(cat "$TMPD/s$sig.pid")"
    num=$(kill -l "$sig")
    wait_for "s$sig" "EXIT $((128 + num))"
    ok $? "SIG$sig: the viewer dies of it (exit $((128 + num)))"
    screen "s$sig" | grep -q RESTORED
    ok $? "SIG$sig: the terminal modes are restored"
    expect_eq "SIG$sig: the alternate screen is left" \
        "$(tm display-message -p -t "s$sig" '#{alternate_on}')" 0
    expect_eq "SIG$sig: the cursor is shown" \
        "$(tm display-message -p -t "s$sig" '#{cursor_flag}')" 1
    expect_eq "SIG$sig: no mouse reports" \
        "$(tm display-message -p -t "s$sig" '#{mouse_any_flag}#{mouse_standard_flag}#{mouse_sgr_flag}')" 000
done

# A terminal curses cannot drive: a clear error and exit 1, not a blank
# viewer.
VIEW_TERM=dumb start dumb --paused "$MAP"
wait_for dumb 'EXIT [0-9]+'
ok $? "TERM=dumb: the viewer ends at once"
screen dumb | grep -q "cannot use the terminal type 'dumb': it cannot move the cursor"
ok $? "TERM=dumb: says why"
screen dumb | grep -q "EXIT 1"
ok $? "TERM=dumb: exit status 1"

# The watched map replaced by a FIFO: the reload refuses it at once (no
# writer is awaited) and the viewer stays responsive.
cp "$MAP" "$TMPD/fifo-live.ini"
start fl --paused "$TMPD/fifo-live.ini"
wait_for fl 'tick 0 '
rm -f "$TMPD/fifo-live.ini"
mkfifo "$TMPD/fifo-live.ini"
wait_for fl 'map not reloaded.*fifo-live.ini: is not'
ok $? "a FIFO put in place of the map: the reload says it is not a regular file"
tm send-keys -t fl .
wait_for fl 'tick 1 '
ok $? "and the viewer still steps"
tm send-keys -t fl q
wait_for fl 'EXIT 0'
ok $? "and quits"

# ---- other terminals -----------------------------------------------------------
for term in xterm-256color screen linux vt100; do
    if ! infocmp "$term" >/dev/null 2>&1; then
        skip "TERM=$term" "no terminfo entry"
        continue
    fi
    VIEW_TERM=$term start "t$term" --paused "$MAP"
    wait_for "t$term" 'tick 0 '
    tm send-keys -t "t$term" . q
    wait_for "t$term" 'EXIT 0'
    ok $? "TERM=$term: draws, steps and quits"
done

done_testing
