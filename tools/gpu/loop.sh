# tools/gpu.sh's part loop (sourced; see tools/gpu.sh): where the GPU's time goes in `bench
# --pipeline` (which stage limits the loop). ncu times every kernel of RUNS frames (default 10;
# serialised, so the sum is the kernels' own time, not the loop's overlap) and this adds them up
# by stage, ms a frame. ALGO (sgm), SIZE (1280x720), NDISP (128); LOOP_BIN another binary.

part_loop() {
	local bin=${LOOP_BIN:-$b} algo=${ALGO:-sgm} size=${SIZE:-1280x720} nd=${NDISP:-128} runs=${RUNS:-10}
	csv="$out/ncu-$algo-$size.csv"
	ncu --csv --metrics gpu__time_duration.sum "$bin" bench --pipeline --algo "$algo" --backend cuda \
		--size "$size" --ndisp "$nd" --runs "$runs" >"$csv" 2>"$out/ncu-$algo-$size.err" || {
		tail -5 "$out/ncu-$algo-$size.err"; return 1; }
	# a frame: one confidence mask for sensing (queued as each frame finishes)
	awk -F'","' '
		/gpu__time_duration.sum/ {
			name = $5; v = $NF; gsub(/"/, "", v); gsub(/,/, "", v); unit = $(NF - 1)
			ms = v / (unit == "ns" ? 1e6 : unit == "us" ? 1e3 : unit == "ms" ? 1 : 1e9)
			stage = "matcher"
			if (name ~ /^jd_sense/) stage = "sense"
			if (name ~ /^jd_conf/) stage = "confidence"
			if (name ~ /^jd_remap/) stage = "rectify"
			t[stage] += ms; all += ms
			frames += name ~ /^jd_sense_mask_conf/
		}
		END {
			for (s in t) printf "%-10s %7.3f ms a frame\n", s, t[s] / frames
			printf "%-10s %7.3f ms a frame (%d frames)\n", "all", all / frames, frames
		}' "$csv"
}
