#!/bin/sh
# Tournament throughput: battles a second of the default map to their
# winner (botfield --headless --seeds), with --jobs 1 and with every core,
# and the speed-up.  Run by `make bench` from the build directory;
# TOUR_BENCH_SEEDS sets how many battles (default 200).
BOTFIELD=${BOTFIELD:-./botfield}
N=${TOUR_BENCH_SEEDS:-200}
CORES=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# The wall time of a tournament in seconds and the CPU time of its runs
# (the runs are child processes: the wall clock counts them all, and
# their CPU time, which other load on the machine hardly changes, says
# what one battle costs).
measure() {
    python3 - "$BOTFIELD" "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %.3f" % (time.monotonic() - t, u.ru_utime + u.ru_stime))
sys.exit(r.returncode)
PY
}
m1=$(measure --headless --seeds "1-$N" --jobs 1) || exit 1
mn=$(measure --headless --seeds "1-$N" --jobs "$CORES") || exit 1
echo "$m1 $mn" | awk -v n="$N" -v c="$CORES" '{
    printf "tour_default jobs=1      %4d battles %7.2f s %8.1f battles/s  %5.1f ms CPU/battle\n", n, $1, n / $1, 1000 * $2 / n
    printf "tour_default jobs=%-2d     %4d battles %7.2f s %8.1f battles/s  %5.1f ms CPU/battle\n", c, n, $3, n / $3, 1000 * $4 / n
    printf "tour_default speed-up    %.2fx on %d cores\n", $1 / $3, c
}'
