#!/bin/sh
# No leaks, no invalid reads: a short headless run of every bundled map
# (with a trace, so the writer is covered too) and --check of every bad and
# good map fixture run clean under valgrind's memcheck.  Skipped only when
# valgrind is absent or the program is a sanitizer build (valgrind cannot
# run AddressSanitizer's shadow memory).
. "$top_srcdir/tests/lib/lib.sh"

vg_skip=
if [ -z "${VALGRIND_BIN:-}" ] || [ ! -x "$VALGRIND_BIN" ]; then
    vg_skip="valgrind not found (apt-get install valgrind)"
elif grep -q -a -e __asan_init -e __ubsan_handle -e __tsan_init "$BOTFIELD" 2>/dev/null; then
    vg_skip="sanitizer build: valgrind cannot run it"
fi

# Simulated seconds of each headless run: long enough for shots, hits,
# knockouts and laps to allocate and free, short enough that the test
# stays within a minute or so under valgrind.
SECONDS_EACH=2

vg() {      # vg LOGNAME ARGS...: botfield under memcheck; its status
    vg_name=$1; shift
    "$VALGRIND_BIN" -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
        --log-file="$TMPD/$vg_name.vg" "$BOTFIELD" "$@" >"$TMPD/$vg_name.out" 2>"$TMPD/$vg_name.err"
}

report() {  # report LOGNAME: the valgrind log as TAP comments
    [ -s "$TMPD/$1.vg" ] && note "$(head -n 60 "$TMPD/$1.vg")"
    [ -s "$TMPD/$1.err" ] && note "$(head -n 10 "$TMPD/$1.err")"
}

if [ -n "$vg_skip" ]; then
    skip "valgrind: headless runs and map checks" "$vg_skip"
    done_testing
    exit
fi

# The compiled-in default map, then every bundled map.
vg builtin --headless --seconds "$SECONDS_EACH" --summary
status=$?
[ "$status" -eq 0 ] || report builtin
expect_eq "built-in map: headless run clean under valgrind" "$status" 0

for map in "$top_srcdir"/maps/*.ini; do
    name=$(basename "$map" .ini)
    vg "map-$name" --headless --seconds "$SECONDS_EACH" --summary \
        --trace "$TMPD/map-$name.jsonl" "$map"
    status=$?
    [ "$status" -eq 0 ] || report "map-$name"
    expect_eq "maps/$name.ini: headless run with a trace clean under valgrind" "$status" 0
done

# A turret knocked out while its intent is all zeros, then ticks of
# wrecks that the watcher's sight records keep off the fused pass: a
# wreck's decision is compared before it is written, and the intent's
# padding was once read uninitialised there.
cat > "$TMPD/zero-wreck.ini" <<'MAP'
[map]
name = zero
width = 1500
height = 1000
seed = 1
duration = 30
[team.red]
[team.blue]
[turret.victim]
team = red
x = 500
y = 500
facing = 180
fov = 10
view_range = 50
range = 50
health = 1
[turret.gun]
team = blue
x = 800
y = 500
facing = 180
fov = 360
view_range = 400
range = 400
turret_rate = 90
shell_speed = 400
reload = 1.5
health = 10
[turret.far]
team = red
x = 1450
y = 950
fov = 10
view_range = 20
range = 20
[turret.watcher]
team = blue
x = 1400
y = 100
fov = 360
view_range = 2000
range = 1
reload = 1000
MAP
vg zero-wreck --headless --seconds 3 --trace "$TMPD/zero-wreck.jsonl" "$TMPD/zero-wreck.ini"
status=$?
[ "$status" -eq 0 ] || report zero-wreck
expect_eq "a turret knocked out with a zero intent, then its wreck's ticks: clean under valgrind" "$status" 0
grep -q '"type":"knockout".*"id":"turret.victim"' "$TMPD/zero-wreck.jsonl"
expect_eq "... (the turret was knocked out)" $? 0

# Bad maps exit 2 (the error path frees everything too); good fixtures 0.
for map in "$top_srcdir"/tests/maps/bad/*.ini; do
    name=$(basename "$map" .ini)
    vg "bad-$name" --check "$map"
    status=$?
    [ "$status" -eq 2 ] || report "bad-$name"
    expect_eq "bad/$name.ini: --check clean under valgrind (exit 2)" "$status" 2
done
for map in "$top_srcdir"/tests/maps/good/*.ini; do
    name=$(basename "$map" .ini)
    vg "good-$name" --check "$map"
    status=$?
    [ "$status" -eq 0 ] || report "good-$name"
    expect_eq "good/$name.ini: --check clean under valgrind" "$status" 0
done

done_testing
