#!/bin/sh
# The front door's configuration alone, against a stand-in for botfield
# (a script that prints what sshd hands it): whatever botfield's own code
# does, the key fixes the name, SSH_ORIGINAL_COMMAND arrives byte for byte
# as typed (no shell acts on it on the way), `restrict` refuses a port
# forwarding that a key without it gets, -tt gives a terminal, and a
# client without an authorized key is refused.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/sshd-lib.sh"
if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
    skip "the front door's configuration" "Debian's openssh-server and openssh-client are not installed"
    done_testing; exit
fi
A="$TMPD/arena"
mkdir -p "$A"
# The stand-in: its arguments, whether it has a terminal, and the command
# as sshd handed it over (also kept whole in $TMPD/got for cmp).
cat >"$TMPD/standin" <<SH
#!/bin/sh
t=no; [ -t 0 ] && [ -t 1 ] && t=yes
printf '%s' "\$SSH_ORIGINAL_COMMAND" >"$TMPD/got"
printf '%s %s %s tty=%s %s\n' "\$1" "\$2" "\$3" "\$t" "\$SSH_ORIGINAL_COMMAND"
SH
chmod +x "$TMPD/standin"
trap 'sshd_stop; rm -rf "$TMPD"' EXIT
if ! SSHD_FORWARDING=yes sshd_start "$A" "$TMPD/standin"; then
    note "$(cat "$SSHD_DIR/log" 2>/dev/null)"
    ok 1 "sshd starts on a loopback port"
    done_testing; exit
fi
ok 0 "sshd starts on a loopback port ($SSHD_PORT)"

for who in alice bob carol; do
    out=$(sshd_as $who bob ladder 2>&1)
    expect_eq "$who's key: the stand-in runs as 'arena-shell ARENA $who', whatever is typed" \
        "$out" "arena-shell $A $who tty=no bob ladder"
done

# Typed as one argument: ssh sends it as it is, sshd puts it in
# SSH_ORIGINAL_COMMAND; the login shell runs only the key's command.
nl='
'
for cmd in "ladder; touch x" 'ladder `touch x`' 'ladder $(touch x)' "ladder 'x' \"y\"" \
    'ladder && touch x | tee y > z' 'ladder $HOME \* ~' "ladder${nl}touch x" '  spaced   out  '; do
    rm -f "$TMPD/got"
    (cd "$TMPD" && sshd_as alice "$cmd" >/dev/null 2>&1)
    printf '%s' "$cmd" >"$TMPD/want"
    cmp -s "$TMPD/want" "$TMPD/got" && [ ! -e "$TMPD/x" ] && [ ! -e "$A/x" ] && [ ! -e "$HOME/x" ]
    r=$?; [ $r -ne 0 ] && note "got: $(cat "$TMPD/got" 2>/dev/null)"
    ok $r "SSH_ORIGINAL_COMMAND arrives as typed and nothing ran: $(printf '%s' "$cmd" | tr '\n' '|')"
done

out=$(sshd_as carol 2>&1)
expect_eq "no command typed: SSH_ORIGINAL_COMMAND is empty, no terminal without -t" \
    "$out" "arena-shell $A carol tty=no "
out=$(SSH_EXTRA=-tt sshd_as carol watch 2>&1 | tr -d '\r')
expect_eq "ssh -tt: the key's pty gives the command a terminal" "$out" "arena-shell $A carol tty=yes watch"

# A control key without `restrict` (dave), to see the forwarding test
# able to fail: the server allows forwarding (SSHD_FORWARDING=yes).
ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/dave" >/dev/null
printf 'command="%s arena-shell %s dave" %s\n' "$TMPD/standin" "$A" "$(cat "$SSHD_DIR/dave.pub")" \
    >>"$SSHD_DIR/authorized_keys"
# forward WHO: the first bytes read through `ssh -N -L` with WHO's key
# to sshd's own port (its banner when the forwarding works).
forward() {
    p=$(sshd_free_port)
    SSH_EXTRA="-N -L 127.0.0.1:$p:127.0.0.1:$SSHD_PORT" sshd_as "$1" >/dev/null 2>&1 &
    fpid=$!
    python3 - "$p" <<'PY'
import socket, sys, time
for _ in range(100):
    try:
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
        break
    except OSError:
        time.sleep(0.05)
else:
    sys.exit("no listener")
try:
    d = s.recv(64)
except socket.timeout:
    d = b""
sys.stdout.write(d.decode("latin-1").strip())
PY
    # (fpid is the subshell running sshd_as: its ssh child goes first)
    pkill -P $fpid 2>/dev/null; kill $fpid 2>/dev/null; wait $fpid 2>/dev/null
}
out=$(forward dave)
case "$out" in SSH-2.0-*) r=0 ;; *) r=1; note "got: $out" ;; esac
ok $r "control: a key without restrict forwards a port (-L reaches sshd's banner)"
for who in alice bob; do
    out=$(forward $who)
    expect_eq "restrict: $who's -L forwarding is refused (nothing comes through)" "$out" ""
done

ssh -F /dev/null -o IdentitiesOnly=yes -o IdentityFile=none -o BatchMode=yes \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile="$SSHD_DIR/known_hosts" \
    -p "$SSHD_PORT" 127.0.0.1 help >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ $st -eq 255 ] && grep -q "Permission denied" "$TMPD/err" && [ ! -s "$TMPD/out" ]
r=$?; [ $r -ne 0 ] && note "exit $st: $(cat "$TMPD/err" "$TMPD/out")"
ok $r "no key: refused (255, Permission denied), nothing ran"
ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/stranger" >/dev/null
sshd_as stranger help >"$TMPD/out" 2>&1
st=$?
[ $st -eq 255 ] && ! grep -q arena-shell "$TMPD/out"
ok $? "a key not in authorized_keys: refused (255), nothing ran"
done_testing
