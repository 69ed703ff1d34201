#!/bin/sh
# --aggregate of many teams and of many groups: the time of 20 run lines
# of 10,000 teams each and of 40,000 run lines in 20,000 groups (teams and
# groups are found through a hash table: the time grows with the files).
# With AGG_BENCH_OLD set to an older botfield, its times too and the
# ratio, and whether the outputs are the same bytes.  Run by `make bench`.
BOTFIELD=${BOTFIELD:-./botfield}
T=$(mktemp -d "${TMPDIR:-/tmp}/agg-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
awk 'BEGIN { for (r = 0; r < 20; r++) {
        printf "{\"type\":\"run\",\"seed\":%d,\"set\":{},\"ticks\":1,\"seconds\":1,\"collisions\":0,\"shots\":0,\"hits\":0,\"knockouts\":{", r
        for (t = 0; t < 10000; t++) printf "%s\"t%d\":%d", t ? "," : "", (t * 7 + r * 13) % 10000, t % 3
        printf "},\"best_lap\":{},\"winner\":\"t%d\"}\n", (r * 37) % 10000 } }' >"$T/teams.jsonl"
awk 'BEGIN { for (r = 0; r < 40000; r++)
        printf "{\"type\":\"run\",\"seed\":%d,\"set\":{\"g\":\"%d\"},\"ticks\":1,\"seconds\":1,\"collisions\":0,\"shots\":0,\"hits\":0,\"knockouts\":{\"a\":1},\"best_lap\":{},\"winner\":null}\n", int(r / 20000), r % 20000 }' \
    >"$T/groups.jsonl"

# secs BINARY OUT ARGS...: the CPU time of one run, its output in OUT.
secs() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
with open(sys.argv[2], "wb") as out:
    r = subprocess.run([sys.argv[1]] + sys.argv[3:], stdout=out, stderr=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f" % (u.ru_utime + u.ru_stime))
PY
}
for c in "teams --aggregate $T/teams.jsonl" "teams_csv --aggregate --csv $T/c.csv $T/teams.jsonl" \
         "groups --aggregate $T/groups.jsonl"; do
    name=${c%% *} args=${c#* }
    new=$(secs "$BOTFIELD" "$T/new.out" $args) || exit 1
    if [ -n "$AGG_BENCH_OLD" ]; then
        old=$(secs "$AGG_BENCH_OLD" "$T/old.out" $args) || exit 1
        same=$(cmp -s "$T/old.out" "$T/new.out" && echo same || echo DIFFERENT)
        echo "$name $new $old $same" | awk '{ printf "aggregate_%-10s %6.2f s CPU (old %6.2f s, %5.1fx), output %s\n", $1, $2, $3, ($2 > 0 ? $3 / $2 : 0), $4 }'
    else
        printf 'aggregate_%-10s %6.2f s CPU\n' "$name" "$new"
    fi
done
