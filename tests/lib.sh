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

done_testing() {
    echo "1..$tap_n"
    [ "$tap_failed" -eq 0 ]
}
