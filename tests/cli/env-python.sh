#!/bin/sh
# `import botfield` (botfield-env(3)) over the built library: with NumPy
# (a Python that has it: Debian's python3-numpy) and with plain lists.
. "$top_srcdir/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/env-lib.sh"
env_unsanitized "import botfield"
with_numpy=$NUMPY_PY
plain=$(command -v python3 || echo /usr/bin/python3)
run() {     # run WHAT PYTHON [NO_NUMPY]
    if [ -n "$3" ]; then
        # a folder first on the path whose numpy cannot be imported
        mkdir -p "$TMPD/nonumpy/numpy"
        printf 'raise ImportError("hidden by the test")\n' > "$TMPD/nonumpy/numpy/__init__.py"
        PYTHONPATH="$TMPD/nonumpy:$PYTHONPATH" NO_NUMPY=1 "$2" "$top_srcdir/tests/cli/env_python_test.py" > "$TMPD/py.out" 2>&1
    else
        "$2" "$top_srcdir/tests/cli/env_python_test.py" > "$TMPD/py.out" 2>&1
    fi
    st=$?
    fails=$(grep -c '^not ok' "$TMPD/py.out")
    total=$(grep -c '^ok\|^not ok' "$TMPD/py.out")
    [ "$st" -ne 0 ] && note "$(grep -v '^ok' "$TMPD/py.out" | head -20)"
    [ "$st" -eq 0 ] && [ "$fails" -eq 0 ] && [ "$total" -gt 20 ]
    ok $? "$1: $total checks of the module, $fails failed"
}
if [ -n "$with_numpy" ]; then
    run "with NumPy ($with_numpy)" "$with_numpy"
else
    skip "with NumPy" "no python3 here has NumPy (apt-get install python3-numpy)"
fi
run "with plain lists ($plain, NumPy hidden)" "$plain" 1
echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
