#!/bin/sh
# The floors of src/ (src/README.md): build-aux/check-floors.py finds no
# upward include in the tree, and finds each kind of breach planted in a
# copy of it (so the check can fail).
. "$top_srcdir/tests/lib/lib.sh"
CHECK=$top_srcdir/build-aux/check-floors.py

out=$(python3 "$CHECK" "$top_srcdir" 2>&1)
st=$?
[ "$st" -eq 0 ] && [ -z "$out" ]
ok $? "the tree: no include from a floor above (exit $st)"
[ -z "$out" ] || note "$out"

# plant FILE LINE WANT: LINE put at the top of FILE in a fresh copy of
# src/; the check must exit 1 and print WANT.
plant() {
    rm -rf "$TMPD/t"
    mkdir -p "$TMPD/t"
    cp -R "$top_srcdir/src" "$TMPD/t/"
    chmod -R u+w "$TMPD/t"
    { printf '%s\n' "$2"; cat "$TMPD/t/src/$1"; } >"$TMPD/t/x" && mv "$TMPD/t/x" "$TMPD/t/src/$1"
    got=$(python3 "$CHECK" "$TMPD/t" 2>&1)
    st=$?
    [ "$st" -eq 1 ] && printf '%s\n' "$got" | grep -qF "$3"
    ok $? "$1 with '$2': refused, naming it (exit $st)"
    [ "$st" -eq 1 ] || note "$got"
}
plant core/world.c '#include "io/map.h"' "src/core/world.c:1: includes src/io/map.h, a floor above (core includes from io)"
plant core/aim/aim_decide.c '#include "../../bot/bot.h"' "src/core/aim/aim_decide.c:1: includes src/bot/bot.h"
plant io/map.c '#include "bot/bot.h"' "src/io/map.c:1: includes src/bot/bot.h, a floor above (io includes from bot)"
plant bot/bot_world.c '#include "run/headless.h"' "src/bot/bot_world.c:1: includes src/run/headless.h, a floor above (bot includes from run)"
plant run/headless.c '#include "view/view.h"' "src/run/headless.c:1: includes src/view/view.h, a floor above (run includes from view/tour/arena/env)"
plant view/loop.c '#include "../cli/main.c"' "src/view/loop.c:1: includes src/cli/main.c, a floor above (view/tour/arena/env includes from the program (src/cli))"
plant core/grid.c '#include <stdio.h>' "src/core/grid.c:1: the core includes <stdio.h>"
plant core/grid.c '#include <lua.h>' "src/core/grid.c:1: the core includes <lua.h>"

plant view/seek.c 'static int f(struct world *w) { return tick_step(w); }' "src/view/seek.c:1: calls tick_step() (a tick outside a session"
plant run/headless.c 'static int f(struct world *w) { return tick_step(w); }' "src/run/headless.c:1: calls tick_step()"
# A folder of src/ that no floor names is itself a breach: a new floor is
# placed in the order before it holds code.
rm -rf "$TMPD/t" && mkdir -p "$TMPD/t" && cp -R "$top_srcdir/src" "$TMPD/t/" && chmod -R u+w "$TMPD/t"
mkdir "$TMPD/t/src/misc" && echo 'int x;' >"$TMPD/t/src/misc/x.c"
got=$(python3 "$CHECK" "$TMPD/t" 2>&1)
[ $? -eq 1 ] && printf '%s\n' "$got" | grep -qF "src/misc/x.c: in a folder of no floor"
ok $? "a folder of no floor: refused, naming the file"
# A file at src/'s top is in no floor (the program lives in src/cli/), but
# for the map make writes there: an in-tree build leaves it in the tree.
rm -rf "$TMPD/t" && mkdir -p "$TMPD/t" && cp -R "$top_srcdir/src" "$TMPD/t/" && chmod -R u+w "$TMPD/t"
echo 'int x;' >"$TMPD/t/src/x.c"
got=$(python3 "$CHECK" "$TMPD/t" 2>&1)
[ $? -eq 1 ] && printf '%s\n' "$got" | grep -qF "src/x.c: in a folder of no floor"
ok $? "a file at src/'s top: refused, naming it"
rm "$TMPD/t/src/x.c"
sh "$top_srcdir/build-aux/embed-map.sh" "$top_srcdir/maps/default.ini" >"$TMPD/t/src/default_map.c"
got=$(python3 "$CHECK" "$TMPD/t" 2>&1)
st=$?
[ "$st" -eq 0 ] && [ -z "$got" ]
ok $? "an in-tree build's src/default_map.c: let through (exit $st)"
[ -z "$got" ] || note "$got"

# No function over 80 lines but a solver that says so above it
# (build-aux/check-lengths.py): the tree, and a planted long one.
out=$(python3 "$top_srcdir/build-aux/check-lengths.py" "$top_srcdir" 2>&1)
st=$?
[ "$st" -eq 0 ] && [ -z "$out" ]
ok $? "the tree: no function over 80 lines but the solvers (exit $st)"
[ -z "$out" ] || note "$out"
rm -rf "$TMPD/t" && mkdir -p "$TMPD/t" && cp -R "$top_srcdir/src" "$TMPD/t/" && chmod -R u+w "$TMPD/t"
{ echo 'int long_one(void)'; echo '{'; i=0; while [ $i -lt 81 ]; do echo '    ;'; i=$((i + 1)); done
  echo '}'; } >>"$TMPD/t/src/core/grow.c"
got=$(python3 "$top_srcdir/build-aux/check-lengths.py" "$TMPD/t" 2>&1)
[ $? -eq 1 ] && printf '%s\n' "$got" | grep -q "src/core/grow.c:[0-9]*: long_one is 81 lines"
ok $? "a function of 81 lines: refused, naming it"
{ echo '/* solver: one piece, for the test */'; echo 'int long_two(void)'; echo '{'; i=0
  while [ $i -lt 90 ]; do echo '    ;'; i=$((i + 1)); done; echo '}'; } >>"$TMPD/t/src/core/grow.c"
got=$(python3 "$top_srcdir/build-aux/check-lengths.py" "$TMPD/t" 2>&1)
! printf '%s\n' "$got" | grep -q long_two
ok $? "a long function that says it is a solver: let through"
done_testing
