#!/bin/sh
# embed-map.sh FILE — writes C source holding FILE's bytes as
# map_default_text (NUL-terminated) and map_default_len.
set -e
file=$1
printf '/* Generated from %s by embed-map.sh: do not edit. */\n' "$(basename "$file")"
printf '#include <stddef.h>\n#include "io/map.h"\n'
printf 'const char map_default_text[] = {\n'
od -An -v -tu1 "$file" | awk '{ for (i = 1; i <= NF; i++) printf "%s,", $i; printf "\n" }'
printf '0 };\n'
printf 'const size_t map_default_len = sizeof map_default_text - 1;\n'
