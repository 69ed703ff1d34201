# env-lib.sh — what the tests of `import botfield` share (sourced after
# lib.sh): the built library and the module's folder for Python, a test
# said skipped in a sanitizer build (a Python interpreter does not load
# the sanitizer's runtime a library built with -fsanitize needs), and
# $NUMPY_PY, a python3 that has NumPy ("" none).
export BOTFIELD_LIBRARY="$top_builddir/.libs/libbotfield.so" \
    PYTHONPATH="$top_srcdir/src/env/python" TMPD top_srcdir
# env_unsanitized WHAT: in a sanitizer build, WHAT is said skipped and the
# test ends.
env_unsanitized() {
    if grep -q '^BOTFIELD_CFLAGS = .*-fsanitize' "$top_builddir/Makefile"; then
        skip "$1" "a sanitizer build: Python cannot load a library built with -fsanitize (the C tests of the library run under it)"
        echo "1..$tap_n"
        exit 0
    fi
}
NUMPY_PY=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then
        NUMPY_PY=$p
        break
    fi
done
