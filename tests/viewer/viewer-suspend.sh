#!/bin/sh
# Ctrl-Z gives the terminal back and fg brings the viewer back.  curses
# draws on a pseudo-terminal of the viewer's own (src/view/term_out.h), so
# its own SIGTSTP handler restored that one: the process stopped with the
# real terminal still on the alternate screen, without echo nor line
# editing, and the shell could not be used until `reset`.  Checked from an
# interactive shell with job control, with and without --rate (the byte
# budget's path).
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/default.ini"
. "$top_srcdir/tests/lib/tmux-lib.sh"

# modes NAME: the shell's echo and icanon flags as stty -a shows them,
# written by the shell in the pane after MODES=.
modes() {
    tm send-keys -t "$1" "stty -a | tr ' ' '\\n' | grep -x -e '-*echo' -e '-*icanon' | sort | tr '\\n' ' ' | sed 's/^/MODES=/'; echo" Enter
}

# suspend_case NAME WHAT ARGS...: the viewer started from the shell in
# session NAME, suspended, used, brought back and quit.
suspend_case() {
    name=$1; what=$2; shift 2
    start_session "$name" 80 24 "PS1='PROMPT\$ ' sh -i"
    wait_for "$name" 'PROMPT'
    tm send-keys -t "$name" "$BOTFIELD --paused $* $MAP" Enter
    wait_for "$name" '\? help'
    settle "$name"
    before=$(screen "$name")

    tm send-keys -t "$name" C-z
    wait_for "$name" 'Stopped'
    ok $? "$what: Ctrl-Z stops the viewer"
    expect_eq "$what: stopped, the alternate screen is left" \
        "$(tm display-message -p -t "$name" '#{alternate_on}')" 0
    expect_eq "$what: stopped, the cursor is shown" \
        "$(tm display-message -p -t "$name" '#{cursor_flag}')" 1
    expect_eq "$what: stopped, no mouse reports" \
        "$(tm display-message -p -t "$name" '#{mouse_any_flag}#{mouse_standard_flag}#{mouse_sgr_flag}')" 000
    tm send-keys -t "$name" "echo typed-text" Enter
    wait_for "$name" 'PROMPT\$ echo typed-text' 5
    ok $? "$what: stopped, what the user types is echoed"
    modes "$name"
    wait_for "$name" 'MODES=echo icanon' 5
    ok $? "$what: stopped, stty shows echo and icanon"

    tm send-keys -t "$name" fg Enter
    wait_for "$name" '\? help'
    settle "$name"
    expect_eq "$what: after fg, the alternate screen again" \
        "$(tm display-message -p -t "$name" '#{alternate_on}')" 1
    after=$(screen "$name")
    if [ "$after" = "$before" ]; then r=0; else
        r=1
        note "before Ctrl-Z:" "$before" "after fg:" "$after"
    fi
    ok $r "$what: after fg, the whole screen is drawn again"
    tm send-keys -t "$name" .
    wait_for "$name" 'tick 1 ' 5
    ok $? "$what: after fg, keys work (. steps to tick 1)"

    tm send-keys -t "$name" q
    wait_for "$name" 'PROMPT\$ ?$'
    ok $? "$what: q quits to the shell"
    expect_eq "$what: quit, the alternate screen is left" \
        "$(tm display-message -p -t "$name" '#{alternate_on}')" 0
    tm send-keys -t "$name" clear Enter
    modes "$name"
    wait_for "$name" 'MODES=echo icanon' 5
    ok $? "$what: quit, stty shows echo and icanon"
}

suspend_case plain "plain"
suspend_case rate "--rate 20000" --rate 20000

done_testing
