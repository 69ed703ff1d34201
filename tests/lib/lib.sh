# lib.sh — TAP helpers for botfield's shell tests (sourced).
# Tests get $BOTFIELD, $top_srcdir and $top_builddir from the harness.
: "${BOTFIELD:?run through make check}"
: "${top_srcdir:?run through make check}"
tap_n=0
tap_failed=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/botfield-test.XXXXXX") || exit 1
trap 'rm -rf "$TMPD"' EXIT

ok() {      # ok CONDITION-STATUS DESCRIPTION
    tap_n=$((tap_n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $tap_n - $2"
    else
        echo "not ok $tap_n - $2"
        tap_failed=$((tap_failed + 1))
    fi
}

skip() {    # skip DESCRIPTION REASON
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $1 # SKIP $2"
}

note() { printf '%s\n' "$@" | sed 's/^/# /'; }

# expect_eq WHAT GOT WANT
expect_eq() {
    if [ "$2" = "$3" ]; then ok 0 "$1"; else note "got:  $2" "want: $3"; ok 1 "$1"; fi
}

# replays_elsewhere REC WHAT TRACE: the recording REC (a path from
# $TMPD/elsewhere) replays headless from that folder, where nothing of the
# map is, exits 0 and gives TRACE byte for byte (two TAP lines).
replays_elsewhere() {
    mkdir -p "$TMPD/elsewhere"
    ( cd "$TMPD/elsewhere" && "$BOTFIELD" --headless --replay "$1" --trace "$TMPD/replayed" \
        >/dev/null 2>"$TMPD/err" )
    st=$?
    [ "$st" -ne 0 ] && note "$(cat "$TMPD/err")"
    expect_eq "$2: the replay exits 0" "$st" 0
    cmp -s "$3" "$TMPD/replayed"
    ok $? "$2: the replay's trace is the run's, byte for byte"
}

done_testing() {
    echo "1..$tap_n"
    [ "$tap_failed" -eq 0 ]
}
