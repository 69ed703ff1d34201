#!/bin/sh
# The Python module's speed (botfield-env(3)): VecEnv on maps/learn.ini,
# agent-steps a second with NumPy (actions of a fixed policy of sines,
# observations and rewards read), B = 1, 64, 1024, median of 3; compared in
# the same run with the C library's (bench-env) figures printed before it.
# Run from the build folder (make bench).
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
py=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
    echo "env-py: no python3 with NumPy here (apt-get install python3-numpy): not measured"
    exit 0
fi
BOTFIELD_LIBRARY=$PWD/.libs/libbotfield.so PYTHONPATH=$srcdir/src/env/python \
"$py" - "$srcdir/maps/learn.ini" <<'PY'
import sys, time
import numpy as np
import botfield
m = sys.argv[1]
steps = 200000
print(f"env-py: {m}, Python {sys.version.split()[0]}, NumPy {np.__version__}, {steps} agent-steps a run")
for B in (1, 64, 1024):
    runs = []
    for _ in range(3):
        v = botfield.VecEnv(m, worlds=B, auto_reset=True)
        obs = v.reset(1)
        k = np.arange(v.rows, dtype=np.float32)
        a = np.zeros((v.rows, 5), np.float32)
        ticks = steps // v.rows + 1
        t0 = time.perf_counter()
        total = 0.0
        for t in range(ticks):
            a[:, 0] = np.sin(0.05 * t + k)
            a[:, 1] = np.cos(0.02 * t)
            a[:, 2] = np.sin(0.11 * t)
            a[:, 3] = np.where((t + k) % 20 == 0, 1.0, -1.0)
            obs, r, te, tr, info = v.step(a)
            total += float(r.sum())
        runs.append(ticks * v.rows / (time.perf_counter() - t0))
        v.close()
    runs.sort()
    print(f"  Python + NumPy, B = {B:4d}: {runs[1]:10.0f} agent-steps/s ({runs[0]:.0f} .. {runs[2]:.0f})")
PY
