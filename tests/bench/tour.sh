#!/bin/sh
# Tournament throughput: battles a second of the default map to their
# winner (botfield --headless --seeds), with --jobs 1 and with every core,
# and the speed-up.  Run by `make bench` from the build directory;
# TOUR_BENCH_SEEDS sets how many battles (default 200).
BOTFIELD=${BOTFIELD:-./botfield}
N=${TOUR_BENCH_SEEDS:-200}
CORES=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# The wall time of a tournament in seconds (the runs are child processes:
# only the wall clock counts them all).
wall() {
    python3 - "$BOTFIELD" "$@" <<'PY'
import subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print("%.3f" % (time.monotonic() - t))
sys.exit(r.returncode)
PY
}
t1=$(wall --headless --seeds "1-$N" --jobs 1) || exit 1
tn=$(wall --headless --seeds "1-$N" --jobs "$CORES") || exit 1
awk -v n="$N" -v c="$CORES" -v t1="$t1" -v tn="$tn" 'BEGIN {
    printf "tour_default jobs=1      %4d battles %7.2f s %8.1f battles/s\n", n, t1, n / t1
    printf "tour_default jobs=%-2d     %4d battles %7.2f s %8.1f battles/s\n", c, n, tn, n / tn
    printf "tour_default speed-up    %.2fx on %d cores\n", t1 / tn, c
}'
