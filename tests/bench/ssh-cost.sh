#!/bin/sh
# SSH cost of the viewer: bytes written to the terminal per second for the
# default map running at x1, measured through a pseudo-terminal (a private
# tmux server's pipe-pane sees exactly what the program writes).  The
# first paint is left out: it is paid once, not every second.
# Run by `make bench` from the build directory.  Goal: < 20 KB/s at 80x24.
BOTFIELD=${BOTFIELD:-./botfield}
SECONDS_MEASURED=${SSH_COST_SECONDS:-5}
TMUX_BIN=${TMUX_BIN:-$(command -v tmux)}
if [ -z "$TMUX_BIN" ]; then
    echo "bench ssh_80x24 skipped (tmux not installed)"
    exit 0
fi
case $BOTFIELD in /*) ;; *) BOTFIELD=$(pwd)/$BOTFIELD ;; esac
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/botfield-ssh.XXXXXX") || exit 1
SOCK="$TMPD/tmux.sock"
tm() { "$TMUX_BIN" -S "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT

if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then LOC=C.UTF-8; else LOC=C; fi

measure() {     # measure NAME COLS ROWS [ARGS]
    name=$1 cols=$2 rows=$3; shift 3
    tm new-session -d -s "$name" -x "$cols" -y "$rows" \
        "env LC_ALL=$LOC TERM=tmux-256color $BOTFIELD $*; sleep 600"
    tm set-option -t "$name" window-size manual >/dev/null 2>&1
    sleep 1
    : >"$TMPD/$name.out"
    tm pipe-pane -o -t "$name" "cat >>$TMPD/$name.out"
    sleep "$SECONDS_MEASURED"
    tm pipe-pane -t "$name"
    bytes=$(wc -c <"$TMPD/$name.out")
    echo "bench $name $((bytes / SECONDS_MEASURED)) bytes/s"
    tm kill-session -t "$name"
}

# --speed 1: without --speed the viewer opens paused, and a paused viewer
# writes nothing (0 bytes/s would measure nothing).
measure ssh_80x24 80 24 --speed 1
measure ssh_200x60 200 60 --speed 1
measure ssh_80x24_ascii 80 24 --ascii --speed 1
measure ssh_80x24_x8 80 24 --speed 8
