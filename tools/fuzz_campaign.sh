#!/bin/sh
# The long fuzzing campaign behind docs/reliability.md: every target at once for SECONDS,
# each with its share of workers (libFuzzer -jobs/-workers), from the committed seeds.
# Prints per target the executions (summed over its workers), the crashes (inputs saved
# under $OUT/crashes) and the corpus size; then merges what grew into a minimal corpus
# under $OUT/corpus/TARGET (to commit into tests/fuzz/corpus when it adds coverage).
# usage: tools/fuzz_campaign.sh BIN_DIR SEED_DIR SECONDS "target:workers ..."
# BIN_DIR holds the fuzz_TARGET binaries of the fuzz preset (build/fuzz/tests).
set -u
bin=$(cd "$1" && pwd) seeds=$(cd "$2" && pwd) secs=$3 plan=$4
out=${OUT:-/tmp/fuzz-out}
work=$(mktemp -d)
mkdir -p "$out/crashes" "$out/corpus"
for tw in $plan; do
	t=${tw%%:*} w=${tw##*:}
	mkdir -p "$work/$t/new"
	(cd "$work/$t" && "$bin/fuzz_$t" -max_total_time="$secs" -jobs="$w" -workers="$w" \
		-timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$out/crashes/$t-" new "$seeds/$t" >/dev/null 2>&1) &
done
wait
printf '%-8s %8s %14s %8s %8s\n' target workers executions crashes corpus
for tw in $plan; do
	t=${tw%%:*} w=${tw##*:}
	runs=$(cat "$work/$t"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *//p' |
		awk '{s += $1} END {print s + 0}')
	crashes=$(ls "$out/crashes" | grep -c "^$t-")
	mkdir -p "$out/corpus/$t"
	"$bin/fuzz_$t" -merge=1 -close_fd_mask=3 "$out/corpus/$t" "$work/$t/new" "$seeds/$t" \
		>/dev/null 2>&1
	printf '%-8s %8s %14s %8s %8s\n' "$t" "$w" "$runs" "$crashes" "$(ls "$out/corpus/$t" | wc -l)"
	grep -h -m3 -E "ERROR|SUMMARY" "$work/$t"/fuzz-*.log 2>/dev/null | sed "s/^/  $t: /"
done
rm -rf "$work" /dev/shm/jd_fuzz_* /tmp/jd_fuzz_*
