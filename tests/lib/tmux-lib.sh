# tmux-lib.sh — what the viewer tests share (sourced after lib.sh): a
# private tmux server (tm), the locale, the sanitizers' options for the
# program inside the pane.  Without tmux the test says so and skips.
TMUX_BIN=${TMUX_BIN:-$(command -v tmux)}
if [ -z "$TMUX_BIN" ] || [ ! -x "$TMUX_BIN" ]; then
    echo "ok 1 # SKIP tmux not installed"
    echo "1..1"
    exit 0
fi

# A private server, so the test never touches the user's tmux.
SOCK="$TMPD/tmux.sock"
tm() { "$TMUX_BIN" -S "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
# The server stays up when its last session ends.  A test that kills its
# only session and starts the next one otherwise races the server's exit:
# under CI's load the new session reached a server on its way out and the
# test then waited a minute on a screen that no longer existed.
tm start-server \; set-option -g exit-empty off

# UTF-8 when the system has it (braille), else whatever the locale is.
if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
    LOC=C.UTF-8
else
    LOC=${LC_ALL:-C}
fi

# In a sanitizer build: ncurses leaks a few bytes when mousemask() loads
# GPM for TERM=linux; that one is not ours to fix.
printf 'leak:mousemask_sp\n' >"$TMPD/lsan.supp"
# (Full stacks, or the library's frames are lost and the rule cannot match.)
LSAN="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$TMPD/lsan.supp"
ASAN="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"

# The viewer's screen and waits for it, in session NAME (v when not given):
# screen [NAME]: its text.
screen() { tm capture-pane -p -t "${1:-v}"; }
# screen_read NAME: the screen, then its last three lines joined in one:
# a message wider than the terminal wraps onto the lines above the bottom
# one (a continuation starts with a blank), and a pattern for the message
# matches it whole there.
screen_read() {
    _s=$(screen "$1")
    printf '%s\n' "$_s"
    printf '%s\n' "$_s" | tail -3 | tr -d '\n'
    echo
}
# wait_for NAME PATTERN [SECONDS]: 0 once the screen matches (grep -E;
# see screen_read); else it says so with the screen.  The default wait is
# WAIT_S, 10 s.
wait_for() {
    i=0
    limit=$(( ${3:-${WAIT_S:-10}} * 10 ))
    while [ $i -lt $limit ]; do
        screen_read "$1" | grep -Eq -- "$2" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    note "timed out waiting for /$2/; the screen:"
    screen "$1" | sed 's/^/# | /'
    return 1
}
# settle [NAME]: waits (up to 10 s) until two captures 0.3 s apart are the
# same.  A frame can reach tmux in pieces, the status line first, and a
# loaded machine (a sanitizer build, make -j) can pause the viewer between
# them: a status seen is not yet a whole frame seen.
settle() {
    prev=$(screen "${1:-v}")
    i=0
    while [ $i -lt 33 ]; do
        sleep 0.3
        cur=$(screen "${1:-v}")
        [ "$cur" = "$prev" ] && return 0
        prev=$cur
        i=$((i + 1))
    done
    note "${1:-v}: the screen never settled"
    return 1
}
# seen PATTERN [SECONDS]: wait_for in session v.
seen() { wait_for v "$1" "${2:-10}"; }
# steps N: N presses of the step key in session v, one at a time (the
# viewer reads them all); steps NAME KEY N: N presses of KEY in one go.
steps() {
    if [ $# -eq 1 ]; then
        k=0
        while [ $k -lt "$1" ]; do tm send-keys -t v .; k=$((k + 1)); done
        return
    fi
    keys=
    k=0
    while [ $k -lt "$3" ]; do keys="$keys $2"; k=$((k + 1)); done
    # shellcheck disable=SC2086
    tm send-keys -t "$1" $keys
}

# start_session NAME COLS ROWS COMMAND: a session NAME, COLS x ROWS and
# kept so (window-size manual), running the shell command COMMAND with the
# locale, TERM=tmux-256color and the sanitizers' options; COMMAND may start
# with more VAR=value words (a TERM of its own wins).  The pane stays after
# COMMAND exits (sleep 600) so that its last screen can be read.
start_session() {
    tm new-session -d -s "$1" -x "$2" -y "$3" \
        "env LC_ALL=$LOC TERM=tmux-256color LSAN_OPTIONS=$LSAN ASAN_OPTIONS=$ASAN $4; sleep 600"
    tm set-option -t "$1" window-size manual >/dev/null 2>&1
}
# start_limited NAME LIMIT ARGS...: a session NAME (VIEW_W x VIEW_H, else
# 80x24) running botfield with ARGS under `ulimit -f LIMIT` (- for none;
# TERM is VIEW_TERM, else tmux-256color); after botfield exits the pane
# says how (EXIT n) and whether the terminal modes came back (RESTORED);
# its pid is in $TMPD/NAME.pid.
start_limited() {
    name=$1; lim=$2; shift 2
    cat >"$TMPD/$name.sh" <<EOF
ulimit -c 0 2>/dev/null
[ "$lim" = - ] || ulimit -f $lim
s=\$(stty -g)
sh -c 'echo \$\$ >"$TMPD/$name.pid"; exec "\$0" "\$@"' "$BOTFIELD" $*
st=\$?
[ "\$s" = "\$(stty -g)" ] && echo RESTORED
echo "EXIT \$st"
sleep 600
EOF
    start_session "$name" "${VIEW_W:-80}" "${VIEW_H:-24}" \
        "TERM=${VIEW_TERM:-tmux-256color} sh $TMPD/$name.sh"
}
# run_paused NAME ARGS...: a paused viewer at 80x24 in a session of its own.
run_paused() {
    name=$1; shift
    start_session "$name" 80 24 "$BOTFIELD --paused $*"
}
