#!/bin/sh
# compare.sh OLD_BUILD NEW_BUILD [SRCDIR] [ROUNDS]: runs each C benchmark of
# two build folders (say, main before and after a change) alternately,
# ROUNDS times each (default 2), and prints every figure both gave with the
# ratio new/old of their medians.  For "ticks/s" and "/s" figures a ratio
# above 1 is faster; for bytes, below 1 is smaller.  Both builds run on this
# machine in the same run, so the ratio is what the change did, not what
# the machine did that day.  BENCHES="bench-core bench-avoid" limits the run.
old=${1:?usage: compare.sh OLD_BUILD NEW_BUILD [SRCDIR] [ROUNDS]}
new=${2:?usage: compare.sh OLD_BUILD NEW_BUILD [SRCDIR] [ROUNDS]}
src=${3:-$new}
rounds=${4:-2}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for b in ${BENCHES:-bench-core bench-avoid bench-sight bench-aim bench-race}; do
    [ -x "$old/tests/bench/$b" ] && [ -x "$new/tests/bench/$b" ] || continue
    r=1
    while [ "$r" -le "$rounds" ]; do
        "$old/tests/bench/$b" "$src" | grep '^bench ' | sed 's/^/old /' >> "$tmp/all"
        "$new/tests/bench/$b" "$src" | grep '^bench ' | sed 's/^/new /' >> "$tmp/all"
        r=$((r + 1))
    done
done
awk '
function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ key = $3; unit[key] = $5 " " $6; v[$1 SUBSEP key] = v[$1 SUBSEP key] " " $4; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
END {
    printf "%-48s %14s %14s %8s  %s\n", "figure", "old", "new", "new/old", "unit"
    for (i = 1; i <= n; i++) {
        k = order[i]; o = median(v["old" SUBSEP k]); w = median(v["new" SUBSEP k])
        printf "%-48s %14.4g %14.4g %8.3f  %s\n", k, o, w, (o != 0 ? w / o : 0), unit[k]
    }
}' "$tmp/all"
