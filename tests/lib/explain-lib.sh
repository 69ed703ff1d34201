# explain-lib.sh — what the explain-*.sh tests share (sourced after lib.sh
# and tmux-lib.sh): a headless run with decide lines, a field of one of
# them (Python's json), and the viewer stepped to a tick with a vehicle
# selected, its inspector's text captured.

# decisions MAP TICKS: the trace with decide lines in $TMPD/trace.
decisions() {
    "$BOTFIELD" --headless --ticks "$2" --trace "$TMPD/trace" --trace-decisions "$1"
}

# pyq EXPR: EXPR evaluated in Python with `lines` (the trace's objects),
# `decide(tick, id)` and `state(tick, id)`; prints its value (str()).
pyq() {
    python3 - "$TMPD/trace" "$1" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
def pick(kind, tick, vid):
    for o in lines:
        if o["type"] == kind and o.get("tick") == tick and o.get("id") == vid:
            return o
    raise SystemExit("no %s line for %s at tick %d" % (kind, vid, tick))
decide = lambda t, v: pick("decide", t, v)
state = lambda t, v: pick("state", t, v)
print(eval(sys.argv[2]))
PY
}

# inspect MAP TICK TABS: the viewer paused on MAP, TABS presses of Tab
# (the selection), then TICK steps; the inspector's lines (the text right
# of its bar) in $TMPD/panel.  1 when the tick was not reached.
inspect() {
    tm kill-session -t x 2>/dev/null
    start_session x 120 60 "$BOTFIELD --paused $1"
    wait_screen 'tick 0 ' || return 1
    k=0
    while [ "$k" -lt "$3" ]; do tm send-keys -t x Tab; k=$((k + 1)); done
    k=0
    while [ "$k" -lt "$2" ]; do tm send-keys -t x .; k=$((k + 1)); done
    wait_screen "tick $2 " || return 1
    settle x
    tm capture-pane -p -t x | sed -n 's/.*│//p' | sed 's/ *$//' >"$TMPD/panel"
}

# wait_screen PATTERN: up to 60 s (a viewer starting beside a sanitizer
# build under make -j can take more than 20).
wait_screen() {
    i=0
    while [ $i -lt 600 ]; do
        tm capture-pane -p -t x | grep -Eq -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    note "timed out waiting for /$1/; the screen:"
    tm capture-pane -p -t x | sed 's/^/# | /'
    return 1
}

# has LINE: the inspector shows exactly this line (leading blanks kept).
# The panel is read again for up to
# 10 s: on a loaded machine (a sanitizer build beside make -j) the frame
# can still be reaching tmux when the screen first looked settled.
has() {
    i=0
    while [ $i -lt 50 ]; do
        grep -Fxq -- "$1" "$TMPD/panel" && return 0
        sleep 0.2
        tm capture-pane -p -t x | sed -n 's/.*│//p' | sed 's/ *$//' >"$TMPD/panel"
        i=$((i + 1))
    done
    note "the inspector has no line '$1'; it shows:"
    sed 's/^/# | /' "$TMPD/panel"
    return 1
}
