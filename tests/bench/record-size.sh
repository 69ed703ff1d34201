#!/bin/sh
# Recording size: bytes of a headless recording (--record) of the default
# map per simulated minute.  A recording holds the map's text and the
# bots' scripts once, then a checkpoint line every 600 ticks (10 s at 60
# ticks/s): the first figure is what a minute adds, the second a whole
# one-minute recording, map included; the same for maps/bots-duel.ini
# (two Lua bots, their script embedded once).
# Run by `make bench` from the build directory.
BOTFIELD=${BOTFIELD:-./botfield}
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/botfield-rec.XXXXXX") || exit 1
trap 'rm -rf "$TMPD"' EXIT

size() {    # size MAP TICKS: bytes of the recording
    "$BOTFIELD" --headless --ticks "$2" --record "$TMPD/r" "$1" >/dev/null || exit 1
    wc -c <"$TMPD/r" | tr -d ' '
}
for m in default bots-duel; do
    one=$(size "$srcdir/maps/$m.ini" 3600)
    ten=$(size "$srcdir/maps/$m.ini" 36000)
    echo "bench record_${m}_per_minute $(( (ten - one) / 9 )) bytes/min"
    echo "bench record_${m}_first_minute $one bytes"
done
