#!/bin/sh
# The arena under load (botfield-arena(7), budgets): an arena folder (a
# two-team map, three people's bots from maps/bots/), `botfield serve`,
# Debian's sshd on a loopback port (tests/lib/sshd-lib.sh) and
# ARENA_BENCH_WATCHERS (default 30) clients `ssh -tt ... watch` at 80x24
# for ARENA_BENCH_SECONDS (default 60), each on a pseudo-terminal of
# tests/lib/ptywatch.py.  Reports each watcher's bytes/s (mean, max), the
# CPU of the daemon and of the viewers (the botfield processes under
# sshd; /proc/PID/stat utime + stime over the measured seconds), the time
# from a key to its effect on one watcher's screen (20 presses of '?'
# until its help, "botfield keys", shows) and how far a watcher read at
# 1,200 B/s (a 9,600-baud line) falls behind (5 presses, the same way);
# then each against its budget.  Where watch cannot be used (it ends at
# once), it says so and exits 0 with no figures.  Run by `make bench` from the build directory; loopback only.
BOTFIELD=${BOTFIELD:-./botfield}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
N=${ARENA_BENCH_WATCHERS:-30}
SECS=${ARENA_BENCH_SECONDS:-60}
SETTLE=${ARENA_BENCH_SETTLE:-20}    # seconds for the clients to connect
KEY=${ARENA_BENCH_KEY:-?} EXPECT=${ARENA_BENCH_EXPECT:-botfield keys}
PTYW="$SRC/tests/lib/ptywatch.py"
[ "$N" -ge 3 ] || { echo "bench arena_load: ARENA_BENCH_WATCHERS must be 3 or more (one presses keys, one is slow)"; exit 1; }

if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
    echo "bench arena_load skipped: Debian's openssh-server and openssh-client are not installed"
    exit 0
fi
case "$BOTFIELD" in /*) ;; *) BOTFIELD="$(pwd)/$BOTFIELD" ;; esac
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/arena-bench.XXXXXX") || exit 1
. "$SRC/tests/lib/sshd-lib.sh"
dpid= wpids=
cleanup() {
    for p in $wpids; do kill "$p" 2>/dev/null; done
    sshd_stop
    [ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
    rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# ---- the arena: bots-duel.ini with its bot beside it, three people's bots
A="$TMPD/arena"
mkdir -p "$A"
sed 's|bot = bots/|bot = |' "$SRC/maps/bots-duel.ini" >"$A/duel.ini"
cp "$SRC/maps/bots/hunter.lua" "$A/"
printf '[arena]\nname = load bench\nmaps = duel.ini\nsubmit_every = 0\nworkers = 1\n' >"$A/arena.ini"
"$BOTFIELD" serve "$A" 2>"$TMPD/serve.err" & dpid=$!
i=0; while ! grep -q serving "$TMPD/serve.err" && kill -0 $dpid 2>/dev/null && [ $i -lt 200 ]; do
    sleep 0.05; i=$((i + 1))
done
if ! grep -q serving "$TMPD/serve.err"; then
    echo "bench arena_load: botfield serve did not start: $(head -c 300 "$TMPD/serve.err")"
    exit 1
fi
if ! sshd_start "$A" "$BOTFIELD"; then
    echo "bench arena_load: sshd did not start: $(head -c 300 "$SSHD_DIR/log" 2>/dev/null)"
    exit 1
fi
for pb in alice:hunter bob:dodger carol:scanner; do
    who=${pb%%:*} bot=${pb#*:}
    sshd_as "$who" submit "$bot" <"$SRC/maps/bots/$bot.lua" >"$TMPD/submit" 2>&1 ||
        echo "# $who's $bot was not accepted: $(head -c 200 "$TMPD/submit" | tr '\n' ' ')"
done

# ---- one watcher: `ssh -tt ... watch` on ptywatch's terminal
people="alice bob carol"
watcher() {   # watcher N OUT [ptywatch options...]: the Nth watcher, one of three
              # people (it execs: run it in a subshell or with &)
    w=$(echo $people | cut -d' ' -f$(( ($1 - 1) % 3 + 1 )))
    out=$2; shift 2
    exec python3 "$PTYW" --cols 80 --rows 24 "$@" -- ssh -F /dev/null -i "$SSHD_DIR/$w" \
        -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no \
        -o UserKnownHostsFile="$SSHD_DIR/known_hosts" -o LogLevel=ERROR \
        -p "$SSHD_PORT" -tt 127.0.0.1 watch >"$out" 2>&1
}
field() { sed -n "s/^$1 //p" "$2"; }

# Does watch run at all?  A watch that ends within its first seconds is
# not available yet: say what it said, no figures.
(watcher 1 "$TMPD/probe" --seconds 15 --warmup 0)
if [ "$(field exit "$TMPD/probe")" != running ]; then
    echo "bench arena_load watch not available: it ended (exit $(field exit "$TMPD/probe")): $(field head "$TMPD/probe" | tr -s ' ' | head -c 200)"
    exit 0
fi

# ---- the load: N watchers, the first pressing keys, the second slow
total=$((SETTLE + SECS + 600))  # until ended after the second sample
every=$(awk -v s="$SECS" 'BEGIN { print (s - 2) / 20 }')
i=1
while [ $i -le "$N" ]; do
    case $i in
    1) watcher 1 "$TMPD/w1" --seconds $total --warmup "$SETTLE" --key "$KEY" --expect "$EXPECT" \
            --undo "$KEY" --presses 20 --every "$every" & ;;
    2) watcher 2 "$TMPD/w2" --seconds $total --warmup "$SETTLE" --rate 1200 --key "$KEY" \
            --expect "$EXPECT" --undo "$KEY" --presses 5 --every "$(awk -v e="$every" 'BEGIN { print e * 4 }')" & ;;
    *) watcher $i "$TMPD/w$i" --seconds $total --warmup "$SETTLE" & ;;
    esac
    wpids="$wpids $!"
    sleep 0.1; i=$((i + 1))
done

# CPU ticks (utime + stime) by process: "PID KIND TICKS", KIND daemon,
# viewer (a botfield process under sshd) or sshd (sshd's own, the
# transport).  A process new in the second sample spent all its ticks in
# between; one that ended is counted up to the first.
cpu() {
    python3 - "$dpid" "$(cat "$SSHD_DIR/pid")" <<'PY'
import os, sys
daemon, sshd = int(sys.argv[1]), int(sys.argv[2])
procs = {}
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            s = open("/proc/%s/stat" % p).read()
        except OSError:
            continue
        comm = s[s.index("(") + 1:s.rindex(")")]
        f = s[s.rindex(")") + 2:].split()
        procs[int(p)] = (comm, int(f[1]), int(f[11]) + int(f[12]))
def under(pid):
    while pid > 1:
        if pid == sshd:
            return True
        pid = procs[pid][1] if pid in procs else 0
    return False
for p, (comm, ppid, t) in procs.items():
    kind = "daemon" if p == daemon else None
    if kind is None and p != sshd and under(p):
        kind = {"botfield": "viewer", "sshd": "sshd"}.get(comm)
    if kind:
        print(p, kind, t)
PY
}
sleep "$SETTLE"
cpu >"$TMPD/cpu0"
t0=$(date +%s.%N)
sleep "$SECS"
cpu >"$TMPD/cpu1"
t1=$(date +%s.%N)
nview=$(grep -c ' viewer ' "$TMPD/cpu1")
for p in $wpids; do kill -TERM "$p" 2>/dev/null; done
wait $wpids 2>/dev/null
wpids=

# ---- the figures and the budgets (botfield-arena(7))
hz=$(getconf CLK_TCK)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
early=0 means= maxes=
i=1
while [ $i -le "$N" ]; do
    [ "$(field exit "$TMPD/w$i")" = running ] || early=$((early + 1))
    [ $i -gt 2 ] && means="$means $(field bps_mean "$TMPD/w$i")" maxes="$maxes $(field bps_max "$TMPD/w$i")"
    i=$((i + 1))
done
echo "bench arena_watchers $N watchers at 80x24, $SECS s measured after $SETTLE s to connect; $early ended early; $nview viewer processes at the end of the measure; load average $load"
[ $early -gt 0 ] && for f in "$TMPD"/w*; do
    [ "$(field exit "$f")" = running ] || echo "#   $(basename "$f"): exit $(field exit "$f"): $(field head "$f" | tr -s ' ' | head -c 160)"
done
echo "$means" | awk -v m="$maxes" '{ s = 0; x = 0; for (i = 1; i <= NF; i++) { s += $i; if ($i > x) x = $i }
    split(m, a, " "); y = 0; for (k in a) if (a[k] + 0 > y) y = a[k] + 0
    printf "bench arena_watcher_bytes_per_s mean %.0f (the most any watcher averaged %.0f), max in any second %d B/s (the %d watchers that only watch)\n", s / NF, x, y, NF
    printf "budget arena_watcher_bytes_per_s %s: %.0f B/s averaged by the busiest watcher, at most 3000\n", x <= 3000 ? "within" : "OVER", x }'
awk -v hz="$hz" -v a="$t0" -v b="$t1" 'NR == FNR { t0[$1] = $3; next }
    { d[$2] += $3 - ($1 in t0 ? t0[$1] : 0) }
    END { w = (b - a) * hz; c = (d["daemon"] + d["viewer"]) / w
    printf "bench arena_cpu_cores daemon %.2f, viewers %.2f, together %.2f cores (sshd itself %.2f)\n", d["daemon"] / w, d["viewer"] / w, c, d["sshd"] / w
    printf "budget arena_cpu_cores %s: %.2f cores for the daemon and the viewers, at most 1.5\n", c <= 1.5 ? "within" : "OVER", c }' \
    "$TMPD/cpu0" "$TMPD/cpu1"
field latency_ms "$TMPD/w1" | tr ' ' '\n' | grep . | sort -n | awk -v k="$KEY" -v e="$EXPECT" '
    /none/ { miss++; next } { v[++n] = $1 }
    END { if (n == 0) { printf "bench arena_key_latency_ms none of the presses of %s showed %s\n", k, e; exit }
          printf "bench arena_key_latency_ms median %.1f max %.1f ms (%d presses of %s until \"%s\" shows; %d never showed)\n", v[int((n + 1) / 2)], v[n], n, k, e, miss
          printf "budget arena_key_latency_ms %s: %.1f ms the slowest, at most 100\n", v[n] <= 100 && !miss ? "within" : "OVER", v[n] }'
# The slow watcher: its presses of KEY until EXPECT shows through its
# 1,200 B/s reading is how far behind the live match it is.
field latency_ms "$TMPD/w2" | tr ' ' '\n' | grep . | sort -n | awk -v b="$(field backlog_bytes "$TMPD/w2")" \
    -v l="$(field lag_s "$TMPD/w2")" -v r="$(field bps_mean "$TMPD/w2")" '
    /none/ { miss++; next } { v[++n] = $1 / 1000 }
    END { printf "bench arena_slow_watcher_lag_s median %s max %s s behind (%d of %d presses showed; read at 1,200 B/s, %s B/s taken; %s bytes still queued at the end, %s s)\n",
              n ? sprintf("%.2f", v[int((n + 1) / 2)]) : "-", n ? sprintf("%.2f", v[n]) : "-", n, n + miss, r, b, l
          printf "budget arena_slow_watcher_lag_s %s: %s, at most 1 s\n", n && !miss && v[n] <= 1 ? "within" : "OVER",
              miss ? miss " presses never showed" : sprintf("%.2f s behind the slowest", v[n]) }'
exit 0
