#!/bin/sh
# A map's bot paths stay inside the map's folder: an absolute path, a ".."
# that leaves it, a symbolic link leading out, a FIFO, a missing file, a
# directory and a file over the size cap are each a map error naming the
# map file and the line of the `bot` key, exit 2 from --check and from
# --headless, and the message never quotes the target file's contents;
# a file that is not a regular one is not even opened.
. "$top_srcdir/tests/lib/lib.sh"

# The secret lives outside the map's folder; its text must never show.
SECRET='TOPSECRET-line-of-a-private-file'
mkdir -p "$TMPD/maps/sub" "$TMPD/maps/adir.lua" "$TMPD/outside"
printf 'function tick() end\n-- %s\n' "$SECRET" > "$TMPD/outside/secret.lua"
printf 'function tick() end\n' > "$TMPD/maps/ok.lua"
ln -s ../outside/secret.lua "$TMPD/maps/link.lua"
mkfifo "$TMPD/maps/fifo.lua"
# one byte over the cap (1 MiB), the secret on its first line
{ printf -- '-- %s\n' "$SECRET"; head -c 1048576 /dev/zero | tr '\0' 'x'; } > "$TMPD/maps/big.lua"

map() {     # map BOTPATH: a map whose tank's bot key is on line 9
    cat > "$TMPD/maps/m.ini" <<MAP
[map]
width = 600
height = 600
[team.red]
[tank.a]
team = red
x = 100
y = 100
bot = $1
MAP
}

# try WHAT BOTPATH: both modes refuse it with file:9 and no secret
try() {
    map "$2"
    for mode in --check "--headless --ticks 5"; do
        # (a FIFO with no writer would block a reader: the timeout says so)
        out=$(timeout 10 "$BOTFIELD" $mode "$TMPD/maps/m.ini" 2>&1)
        rc=$?
        expect_eq "$1 ($mode): exit status" "$rc" 2
        case $out in
        *"m.ini:9:"*"bot"*) ok 0 "$1 ($mode): the error names the file and line of the bot key" ;;
        *) note "$out"; ok 1 "$1 ($mode): the error names the file and line of the bot key" ;;
        esac
        case $out in
        *"$SECRET"*) note "$out"; ok 1 "$1 ($mode): the target's contents are not quoted" ;;
        *) ok 0 "$1 ($mode): the target's contents are not quoted" ;;
        esac
    done
}

try "absolute path" "$TMPD/outside/secret.lua"
try "'..' leaving the folder" "../outside/secret.lua"
try "'..' leaving through a subfolder" "sub/../../outside/secret.lua"
try "symbolic link leading out" "link.lua"
try "FIFO" "fifo.lua"
try "missing file" "none.lua"
try "directory" "adir.lua"
try "file over the size cap" "big.lua"

# A file that is not a regular one is refused without being opened:
# opening a device can have effects (a terminal becomes the controlling
# one, a watchdog starts), and opening a FIFO wakes a writer waiting on
# it.  The writer below blocks in its open until a reader opens the FIFO:
# the loader must leave it blocked.
mkfifo "$TMPD/maps/wait.lua"
rm -f "$TMPD/opened"
( exec 3> "$TMPD/maps/wait.lua"; : > "$TMPD/opened" ) &
writer=$!
map wait.lua
timeout 10 "$BOTFIELD" --check "$TMPD/maps/m.ini" > /dev/null 2>&1
expect_eq "FIFO with a writer waiting: exit status" "$?" 2
sleep 0.5
[ ! -e "$TMPD/opened" ]
ok $? "the loader did not open the FIFO (its writer is still waiting)"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null

# the control: the same map with a good script loads and runs
map ok.lua
"$BOTFIELD" --check "$TMPD/maps/m.ini"
ok $? "a script inside the folder: --check accepts the map"
"$BOTFIELD" --headless --ticks 5 "$TMPD/maps/m.ini" > /dev/null
ok $? "a script inside the folder: --headless runs it"
# and '..' that stays inside is fine
printf 'function tick() end\n' > "$TMPD/maps/sub/in.lua"
map "sub/../sub/in.lua"
"$BOTFIELD" --check "$TMPD/maps/m.ini"
ok $? "a '..' that stays inside the folder is accepted"
done_testing
