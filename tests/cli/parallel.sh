#!/bin/sh
# botfield-parallel (botfield(6), TOURNAMENTS) over a fake ssh that runs
# each job on this machine, in a "remote home" that is the caller's own
# folder: a host sharing the caller's filesystem (localhost over ssh, an
# NFS home), where a transferred map used to be deleted.  The caller's
# files stay byte for byte, the Lua bots reach the "remote", seeds are
# read as botfield reads them, and no temporary folder stays behind.
. "$top_srcdir/tests/lib/lib.sh"
SCRIPT=$top_srcdir/scripts/botfield-parallel

if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    skip "botfield-parallel" "GNU parallel is not installed"
    done_testing
    exit
fi

HOMED=$TMPD/home        # the caller's folder, and the fake remote's home
RTMP=$TMPD/remote-tmp   # the fake remote's TMPDIR
LTMP=$TMPD/local-tmp    # the caller's TMPDIR
mkdir -p "$HOMED/bots" "$RTMP" "$LTMP"
cp "$top_srcdir/maps/bots-duel.ini" "$top_srcdir/maps/duel.ini" "$HOMED/"
cp "$top_srcdir/maps/bots/"*.lua "$HOMED/bots/"
# Names the script once used for its own files, and a folder of the user's.
echo "my notes" >"$HOMED/jobs"
echo "my runs" >"$HOMED/runs.1.jsonl"
mkdir "$HOMED/botfield-parallel.mine" && echo keep >"$HOMED/botfield-parallel.mine/x"

# ssh [OPTION...] HOST [--] COMMAND...: COMMAND run by a shell in the
# remote's home, as sshd does, with the remote's own TMPDIR.
cat >"$TMPD/fakessh" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
    case \$1 in
        -[bcDEeFIiJLlmOoPpQRSWw]) shift 2 ;;
        -*) shift ;;
        *) break ;;
    esac
done
shift
[ "\${1-}" = -- ] && shift
cd "$HOMED" && HOME="$HOMED" TMPDIR="$RTMP" exec sh -c "\$*"
EOF
chmod +x "$TMPD/fakessh"
REMOTE="$TMPD/fakessh fakehost"

snapshot() {    # every name under the caller's folder, and every file's hash
    (cd "$HOMED" && find . | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}
snapshot >"$TMPD/before"
untouched() {   # untouched WHAT: the caller's folder as it was, no temporary folder left
    snapshot | cmp -s - "$TMPD/before"
    ok $? "$1: every file of the caller's folder is still there, byte for byte"
    left=$(ls -A "$RTMP" "$LTMP" | grep -v ':$' | grep -v '^$')
    [ -z "$left" ]
    ok $? "$1: no temporary folder left on the remote or here${left:+ (left: $left)}"
}
par() {         # par DIR ARGS...: the script run in DIR, TMPDIR the local one,
    d=$1        # and no SHELL (a CI job, a cron job): parallel once left its
    shift       # job scripts behind and failed every remote job without one
    (cd "$d" && TMPDIR="$LTMP" env -u SHELL "$SCRIPT" "$@")
}

# ---- Lua bots over the fake remote, map by a relative path --------------
par "$HOMED" -S "$REMOTE" -j 2 --chunk 3 --botfield "$BOTFIELD" -- \
    --seeds 1-8 bots-duel.ini >"$TMPD/par" 2>"$TMPD/err"
expect_eq "Lua bots over ssh, relative map: exit 0" "$?" 0
(cd "$HOMED" && "$BOTFIELD" --headless --seeds 1-8 bots-duel.ini) >"$TMPD/one"
cmp -s "$TMPD/par" "$TMPD/one" && [ "$(grep -c '"type":"run"' "$TMPD/one")" -eq 8 ] \
    && ! grep -q '"failed":[1-9]' "$TMPD/one"
ok $? "Lua bots over ssh: the merge = botfield --headless --seeds 1-8, byte for byte"
note "$(cat "$TMPD/err")"
untouched "relative map over ssh"

# ---- the same by an absolute path, run from elsewhere, with --ssh ---------
par "$TMPD" --ssh "$TMPD/fakessh" -S fakehost,: --chunk 2 --botfield "$BOTFIELD" -- \
    --seeds 1-8 --csv "$TMPD/par.csv" "$HOMED/bots-duel.ini" >"$TMPD/par" 2>"$TMPD/err"
expect_eq "Lua bots over ssh and here, absolute map: exit 0" "$?" 0
"$BOTFIELD" --headless --seeds 1-8 --csv "$TMPD/one.csv" "$HOMED/bots-duel.ini" >"$TMPD/one"
cmp -s "$TMPD/par" "$TMPD/one" && cmp -s "$TMPD/par.csv" "$TMPD/one.csv"
ok $? "absolute map: the merge and --csv = the one-machine run's"
untouched "absolute map over ssh"

# ---- failed runs, and a failed job ---------------------------------------
par "$HOMED" -S "$REMOTE" --chunk 4 --botfield "$BOTFIELD" -- \
    --seeds 1-8 --set team.red.turn_rate=abc bots-duel.ini >"$TMPD/par" 2>/dev/null
st=$?
[ "$st" -eq 1 ] && grep -q '"runs":8,"failed":8,' "$TMPD/par"
ok $? "failing runs over ssh: merged, counted, exit 1 (got $st)"
untouched "failing runs over ssh"
# A botfield that fails the job of seeds 5-8 (as a crash or a missing
# library would) and works for the others and the merge.
cat >"$TMPD/flaky" <<EOF
#!/bin/sh
case " \$* " in *" --seeds 5-8 "*) echo "flaky: cannot run" >&2; exit 3 ;; esac
exec "$BOTFIELD" "\$@"
EOF
chmod +x "$TMPD/flaky"
par "$HOMED" -S "$REMOTE" --chunk 4 --botfield "$TMPD/flaky" -- \
    --seeds 1-12 bots-duel.ini >"$TMPD/par" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$TMPD/par" ] && grep -q 'flaky: cannot run' "$TMPD/err"
ok $? "a failed job over ssh: its error shown, nothing merged, exit 2 (got $st)"
untouched "a failed job over ssh"

# ---- seeds as botfield reads them ------------------------------------------
for seeds in 010-020 08-09 0-0 9223372036854775800-9223372036854775807; do
    par "$TMPD" -S "$REMOTE" --chunk 3 --botfield "$BOTFIELD" -- \
        --seeds $seeds --ticks 200 "$HOMED/duel.ini" >"$TMPD/par" 2>"$TMPD/err"
    st=$?
    "$BOTFIELD" --headless --seeds $seeds --ticks 200 "$HOMED/duel.ini" >"$TMPD/one"
    [ "$st" -eq 0 ] && cmp -s "$TMPD/par" "$TMPD/one"
    ok $? "--seeds $seeds: the same runs as botfield's (exit $st)"
done
untouched "seeds"

# ---- --ladder and --sprt over ssh ---------------------------------------------
# A ladder split into ranges of seeds, one of its bots outside the map's
# folder (carried in the job's bundle), merged by botfield --games: the
# one-machine run's bytes, CSV and exit status; --sprt the same.
mkdir -p "$TMPD/lad" "$TMPD/mybots"
cp "$top_srcdir/tests/maps/ladder/"* "$TMPD/lad/"
cp "$top_srcdir/tests/maps/ladder/shoot.lua" "$TMPD/mybots/idle.lua"
par "$TMPD/lad" -S "$REMOTE" -j 2 --chunk 3 --botfield "$BOTFIELD" -- --ladder shoot.lua \
    "$TMPD/mybots/idle.lua" lucky.lua idle.lua --map duel.ini --seeds 1-8 --csv "$TMPD/lpar.csv" \
    >"$TMPD/par" 2>"$TMPD/err"
expect_eq "--ladder over ssh: exit 0" "$?" 0
(cd "$TMPD/lad" && "$BOTFIELD" --ladder shoot.lua "$TMPD/mybots/idle.lua" lucky.lua idle.lua \
    --map duel.ini --seeds 1-8 --csv "$TMPD/lone.csv") >"$TMPD/one"
cmp -s "$TMPD/par" "$TMPD/one" && cmp -s "$TMPD/lpar.csv" "$TMPD/lone.csv" \
    && [ "$(grep -c '"type":"game"' "$TMPD/one")" -eq 96 ] && ! grep -q '"failed":[1-9]' "$TMPD/one"
ok $? "--ladder over ssh (a bot from another folder): the one-machine bytes and CSV"
note "$(cat "$TMPD/err")"
par "$TMPD/lad" -S "$REMOTE" --chunk 7 --botfield "$BOTFIELD" -- --sprt lucky.lua idle.lua \
    --map duel.ini --seeds 1-40 --elo1 200 >"$TMPD/par" 2>"$TMPD/err"
st=$?
(cd "$TMPD/lad" && "$BOTFIELD" --sprt lucky.lua idle.lua --map duel.ini --seeds 1-40 --elo1 200) \
    >"$TMPD/one"
expect_eq "--sprt over ssh: the one machine's exit status" "$st" "$?"
cmp -s "$TMPD/par" "$TMPD/one" && grep -q '^H1: lucky.lua is better' "$TMPD/one"
ok $? "--sprt over ssh: the one-machine bytes (progress lines and verdict)"
untouched "--ladder and --sprt over ssh"
par "$TMPD/lad" --chunk 3 --botfield "$BOTFIELD" -- --sprt lucky.lua idle.lua --map duel.ini \
    --seeds 1-4 --csv "$TMPD/made" >"$TMPD/par" 2>"$TMPD/err"
[ "$?" -eq 2 ] && [ ! -s "$TMPD/par" ] && [ ! -e "$TMPD/made" ] && grep -q 'goes with --ladder' "$TMPD/err"
ok $? "--sprt --csv: refused before any job (exit 2)"
par "$TMPD/lad" --chunk 3 --botfield "$BOTFIELD" -- --ladder lucky.lua --map duel.ini \
    --seeds 1-4 >"$TMPD/par" 2>"$TMPD/err"
[ "$?" -eq 2 ] && [ ! -s "$TMPD/par" ] && grep -q 'needs two bots or more' "$TMPD/err"
ok $? "--ladder with one bot: refused before any job (exit 2)"

# ---- ranges and chunks refused at once -------------------------------------
for args in "-- --seeds 1-100000000000" "-- --seeds 0-1000000" \
            "-- --seeds 1-9223372036854775808" "-- --seeds 000000000000000000001-2" \
            "-- --seeds 5-3" "-- --seeds 1-" "-- --seeds 0x1-0x2" "-- --seeds +1-2" \
            "-- --seeds 1-500000 --set team.red.aim=classic,exact,none" \
            "--chunk 0 -- --seeds 1-3" "--chunk 1000001 -- --seeds 1-3" \
            "--chunk 99999999999999999999999 -- --seeds 9223372036854775000-9223372036854775807"; do
    # shellcheck disable=SC2086
    timeout 60 "$SCRIPT" --keep "$TMPD/kept" --botfield "$BOTFIELD" $args >"$TMPD/out" 2>"$TMPD/err"
    st=$?
    [ "$st" -eq 2 ] && [ ! -s "$TMPD/out" ] && [ ! -e "$TMPD/kept" ] \
        && grep -q "^botfield-parallel: " "$TMPD/err"
    ok $? "botfield-parallel $args: exit 2, a message, no jobs file (got $st)"
    rm -rf "$TMPD/kept"
done
# Botfield's own words for the same --seeds.
for seeds in 1-100000000000 08-x; do
    "$SCRIPT" --botfield "$BOTFIELD" -- --seeds $seeds 2>&1 >/dev/null | head -n 1 >"$TMPD/got"
    "$BOTFIELD" --headless --seeds $seeds 2>&1 >/dev/null | head -n 1 | sed 's/^botfield:/botfield-parallel:/' >"$TMPD/want"
    cmp -s "$TMPD/got" "$TMPD/want" && [ -s "$TMPD/want" ]
    ok $? "--seeds $seeds: botfield's message ($(cat "$TMPD/got"))"
done
"$SCRIPT" --botfield "$BOTFIELD" -- --seeds 1-500000 --set team.red.aim=classic,exact,none \
    2>&1 >/dev/null | grep -q "more than 1000000 runs in all"
ok $? "a sweep of more than 1000000 runs in all: botfield's message"

# ---- nothing of the caller's written over ----------------------------------
mkdir "$TMPD/kept"
par "$HOMED" --keep "$TMPD/kept" --botfield "$BOTFIELD" -- --seeds 1-2 --ticks 50 duel.ini \
    >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && [ -z "$(ls -A "$TMPD/kept")" ]
ok $? "--keep of a folder that exists: refused, exit 2 (got $st)"
par "$HOMED" --botfield "$BOTFIELD" -- --seeds 1-2 --ticks 50 --csv duel.ini duel.ini \
    >"$TMPD/out" 2>"$TMPD/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^botfield-parallel: --csv duel.ini: " "$TMPD/err"
ok $? "--csv over the map: refused, exit 2 (got $st)"
rmdir "$TMPD/kept"
par "$HOMED" -S "$REMOTE" --keep "$TMPD/kept" --chunk 2 --botfield "$BOTFIELD" -- \
    --seeds 1-3 --ticks 50 duel.ini >"$TMPD/par" 2>"$TMPD/err"
st=$?
"$BOTFIELD" --headless --seeds 1-3 --ticks 50 "$HOMED/duel.ini" 2>/dev/null | grep '"type":"run"' >"$TMPD/one"
[ "$st" -eq 0 ] && printf '1 2\n3 3\n' | cmp -s - "$TMPD/kept/jobs" \
    && grep '"type":"run"' "$TMPD/kept/runs.jsonl" | cmp -s - "$TMPD/one"
ok $? "--keep DIR: the jobs and the run lines kept there (exit $st)"
untouched "refusals and --keep"

done_testing
