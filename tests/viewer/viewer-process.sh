#!/bin/sh
# A process bot in the viewer (botfield-bots(7), PROCESS BOTS): what the
# program writes, escape sequences on its standard error and garbage on
# its output, never reaches the terminal; a program that never answers
# leaves the viewer responsive; q gives the terminal back, and what the
# program started is gone.
. "$top_srcdir/tests/lib/lib.sh"
MAP="$top_srcdir/maps/bots-duel.ini"
. "$top_srcdir/tests/lib/tmux-lib.sh"

cat >"$TMPD/noisy.sh" <<'SH'
#!/bin/sh
sleep 765432 &
while read l; do
    printf '\033[2J\033[31mJUNK-ERR\033]0;pwned\007\n' >&2
    printf '\033[2JJUNK-OUT garbage\n'
done
SH
cat >"$TMPD/mute.sh" <<'SH'
#!/bin/sh
exec sleep 765433
SH
chmod +x "$TMPD/noisy.sh" "$TMPD/mute.sh"

start_limited n - --speed 4 --bot-process tank.red="$TMPD/noisy.sh" "$MAP"
wait_for n '^ tick [0-9]+ ' 10
ok $? "the viewer runs with a noisy process bot"
sleep 1.5
wait_for n '^ tick [0-9]+ ' 5
ok $? "... its status line is still the first line"
screen n | grep -q 'JUNK'; r=$?
[ $r -ne 0 ]; ok $? "... nothing the program wrote is on the screen"
expect_eq "... the pane's title is not the program's" "$(tm display-message -p -t n '#{pane_title}' | grep -c pwned)" 0
tm send-keys -t n Tab
wait_for n 'tank of red' 5
ok $? "... its vehicle selected"
wait_for n 'not JSON' 5
ok $? "... the inspector says its answers are not JSON"
tm send-keys -t n q
wait_for n 'EXIT 0' 10
ok $? "q: exit 0"
screen n | grep -q RESTORED; ok $? "... the terminal modes are restored"

VIEW_H=30 start_limited m - --speed 4 --bot-timeout 50 --bot-process tank.red="$TMPD/mute.sh" "$MAP"
wait_for m '^ tick [1-9][0-9]* ' 10
ok $? "a program that never answers: the run goes on"
tm send-keys -t m '?'
wait_for m 'botfield keys' 5
ok $? "... and the viewer answers keys"
tm send-keys -t m q
wait_for m 'EXIT 0' 10
ok $? "q: exit 0"
sleep 0.3
pgrep -f 'sleep 76543[23]' >/dev/null; r=$?
[ $r -ne 0 ]; ok $? "what the programs started is gone"
done_testing
