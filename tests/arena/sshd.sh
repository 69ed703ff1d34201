#!/bin/sh
# The arena through its front door, Debian's OpenSSH (botfield-arena(7)):
# a real sshd on a loopback port with three people's keys, each
# command="botfield arena-shell ARENA NAME",restrict,pty.  The key fixes
# the name, the command arrives as typed and no shell acts on it, the
# keys allow no forwarding, a stranger's key is refused.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/sshd-lib.sh"
L="$top_srcdir/tests/maps/ladder"
if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
    skip "the arena over ssh" "Debian's openssh-server and openssh-client are not installed"
    done_testing; exit
fi
A="$TMPD/arena"
mkdir -p "$A"
cp "$L/duel.ini" "$A/"
printf '[arena]\nname = ssh test\nmaps = duel.ini\nsubmit_every = 0\n' >"$A/arena.ini"
"$BOTFIELD" serve "$A" 2>"$TMPD/serve.err" & dpid=$!
trap 'sshd_stop; kill $dpid 2>/dev/null; rm -rf "$TMPD"' EXIT
i=0; while ! grep -q serving "$TMPD/serve.err" && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
if ! sshd_start "$A"; then
    note "$(cat "$SSHD_DIR/log" 2>/dev/null)"
    ok 1 "sshd starts on a loopback port"
    done_testing; exit
fi
ok 0 "sshd starts on a loopback port ($SSHD_PORT)"

sshd_as alice submit shoot <"$L/shoot.lua" >"$TMPD/out" 2>"$TMPD/err"
expect_eq "alice submits over ssh: exit 0" "$?" 0
cmp -s "$L/shoot.lua" "$A/bots/alice/shoot.lua"; ok $? "... stored as alice's"
sshd_as bob submit shoot <"$L/idle.lua" >/dev/null 2>&1
cmp -s "$L/idle.lua" "$A/bots/bob/shoot.lua" && cmp -s "$L/shoot.lua" "$A/bots/alice/shoot.lua"
ok $? "bob's bot of the same name is bob's; alice's is untouched"
sshd_as carol submit '../alice/shoot' <"$L/idle.lua" >/dev/null 2>"$TMPD/err"
expect_eq "carol cannot name alice's folder: exit 2" "$?" 2
cmp -s "$L/shoot.lua" "$A/bots/alice/shoot.lua"; ok $? "... alice's bot is untouched"

for cmd in 'ladder; touch x' 'ladder `touch x`' 'ladder $(touch x)' 'ladder && touch x' \
    'ladder | tee x' "ladder 'x'"; do
    (cd "$TMPD" && sshd_as carol "$cmd" >/dev/null 2>"$TMPD/err")
    st=$?
    [ $st -eq 2 ] && [ ! -e "$TMPD/x" ] && [ ! -e "$A/x" ] && [ ! -e "$HOME/x" ]
    ok $? "over ssh, '$cmd' is refused (exit $st) and nothing ran"
done
sshd_as carol "$(printf 'ladder\ntouch x')" >/dev/null 2>&1
expect_eq "a newline in the command is refused" "$?" 2

SSH_EXTRA=-tt sshd_as alice help >"$TMPD/tty" 2>&1
grep -q "$(printf 'fetch MATCH.*\r')" "$TMPD/tty"; ok $? "ssh -tt: the command runs on a terminal (CR LF)"

p=$(sshd_free_port)
SSH_EXTRA="-N -o ExitOnForwardFailure=yes -R 127.0.0.1:$p:127.0.0.1:$SSHD_PORT" \
    sshd_as alice >/dev/null 2>&1 &
fpid=$!
i=0; while kill -0 $fpid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $fpid 2>/dev/null && { pkill -P $fpid; kill $fpid; r=1; } || r=0
wait $fpid 2>/dev/null
ok $r "restrict: a (remote) port forwarding is refused: ssh ends at once"

ssh-keygen -q -t ed25519 -N '' -f "$TMPD/stranger" >/dev/null
cp "$TMPD/stranger" "$SSHD_DIR/stranger"
sshd_as stranger help >/dev/null 2>&1
expect_eq "a key not in authorized_keys is refused (255)" "$?" 255
done_testing
