# sshd-lib.sh — Debian's OpenSSH server on a loopback port, for the
# arena's tests (sourced after lib.sh).  Three people, alice, bob and
# carol, each with a key whose authorized_keys line is
#     command="BOTFIELD arena-shell ARENA NAME",restrict,pty KEY
# as botfield-arena(7) tells a teacher to write it.
#
# sshd_start ARENA [COMMAND]: COMMAND (default $BOTFIELD) is the program
#   the keys name; sets SSHD_PORT.  Returns 1 when sshd cannot start.
# sshd_as NAME [COMMAND...]: ssh as NAME ($SSH_EXTRA: more ssh options,
#   e.g. -tt for a terminal).
# sshd_stop.
# SSHD_FORWARDING=yes before sshd_start lets the server forward ports, so
# that a test sees the keys' `restrict` refuse it (the default: no).
SSHD=/usr/sbin/sshd
SSHD_DIR="$TMPD/sshd"

sshd_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

sshd_start() {
    arena=$1 cmd=${2:-$BOTFIELD}
    # the login shell runs command="..." as written: plain paths only
    case "$cmd $arena" in *[!A-Za-z0-9/._+\ -]*)
        echo "sshd_start: '$cmd' or '$arena' has characters a command= line cannot hold" >&2
        return 1 ;;
    esac
    mkdir -p "$SSHD_DIR" && chmod 700 "$SSHD_DIR"
    ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/host" >/dev/null || return 1
    : >"$SSHD_DIR/authorized_keys"
    for who in alice bob carol; do
        ssh-keygen -q -t ed25519 -N '' -C "$who@test" -f "$SSHD_DIR/$who" >/dev/null || return 1
        printf 'command="%s arena-shell %s %s",restrict,pty %s\n' "$cmd" "$arena" "$who" \
            "$(cat "$SSHD_DIR/$who.pub")" >>"$SSHD_DIR/authorized_keys"
    done
    chmod 600 "$SSHD_DIR/authorized_keys"
    SSHD_PORT=$(sshd_free_port)
    cat >"$SSHD_DIR/config" <<CONF
Port $SSHD_PORT
ListenAddress 127.0.0.1
HostKey $SSHD_DIR/host
PidFile $SSHD_DIR/pid
AuthorizedKeysFile $SSHD_DIR/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
PermitUserEnvironment no
AllowTcpForwarding ${SSHD_FORWARDING:-no}
X11Forwarding no
PrintMotd no
MaxStartups 200
LogLevel ERROR
CONF
    # sshd as root needs its privilege separation folder
    [ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd 2>/dev/null
    "$SSHD" -f "$SSHD_DIR/config" -E "$SSHD_DIR/log" || return 1
    i=0
    while [ $i -lt 100 ]; do
        sshd_as alice help >/dev/null 2>&1 && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}

sshd_as() {
    who=$1; shift
    ssh -F /dev/null -i "$SSHD_DIR/$who" -o IdentitiesOnly=yes -o BatchMode=yes \
        -o StrictHostKeyChecking=no -o UserKnownHostsFile="$SSHD_DIR/known_hosts" \
        -o LogLevel=ERROR -p "$SSHD_PORT" $SSH_EXTRA 127.0.0.1 "$@"
}

sshd_stop() {
    [ -f "$SSHD_DIR/pid" ] && kill "$(cat "$SSHD_DIR/pid")" 2>/dev/null
    rm -f "$SSHD_DIR/pid"
}
