#!/usr/bin/env bash
# The bad-input catalogue as docs/reliability.md's table: runs tests/bad-input/catalogue.sh
# with JETDEPTH and prints one row a case from its "ok:" lines ($T for its scratch folder).
# usage: tools/catalogue_table.sh JETDEPTH > rows.md
set -u
"$(dirname "$0")/../tests/bad-input/catalogue.sh" "$1" 2>&1 |
	sed -n 's/^ok: jetdepth \(.*\) -> \([0-9]*\): \(.*\)$/\1\t\2\t\3/p' |
	sed -E 's#/tmp/tmp\.[A-Za-z0-9]+#$T#g; s#[^ \t]*/tests/bad-input/\.\./#tests/#g' |
	awk -F'\t' '{ gsub(/\|/, "\\|"); printf "| %d | `%s` | %s | %s |\n", NR, $1, $2, $3 }'
