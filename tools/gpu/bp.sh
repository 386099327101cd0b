# tools/gpu.sh's part bp (sourced; see tools/gpu.sh): BP_PARTS (default "bench") of
#   bench  jetdepth bench, fp16 and float, seed parameters (5 levels, 7 iterations) at CASES
#          (size:ndisp, default "384x288:16 450x375:64 900x750:128"); with OLD="ND:VARIANT ..."
#          also that message-kernel variant for that ndisp (e.g. the previous default) in the
#          same call; with PREFILTERS="auto none rank" each of those costs
#   ncu    DRAM bytes and time of every kernel of a 900x750/128 frame (NCU_FP, default
#          --fp16), and each level-0 message update's bandwidth
#   prof   ncu's speed-of-light, memory, occupancy and warp-stall sections for one level-0
#          message update (t = 1) of each message-kernel variant in PROF (default the default)
# (BP's test and sanitizers: the parts tests and sanitize with GPU_TESTS=bp.)

part_bp() {
	local parts=" ${BP_PARTS:-bench} " cases=${CASES:-"384x288:16 450x375:64 900x750:128"}
	case $parts in *" bench "*)
	echo "== jetdepth bench --algo bp (cuda)"
	for fp in --fp16 ""; do
		for c in $cases; do
			old=$(for o in ${OLD:-}; do [ "${o%%:*}" = "${c#*:}" ] && echo "${o#*:}"; done)
			for v in "" $old; do
				for pf in ${PREFILTERS:-auto}; do
					JD_BP_VARIANT=$v $b bench --algo bp $fp --size ${c%:*} \
						--ndisp ${c#*:} --prefilter $pf --runs 21 --backend cuda 2>&1 |
						grep -v '^matcher' | sed "s/^/${v:-default} $pf /"
				done
			done
		done
	done | tee "$out/bench.log"
	esac
	case $parts in *" ncu "*)
	for fp in ${NCU_FP:---fp16}; do
		f="$out/ncu-bp$fp.csv"
		ncu --csv --print-units base --metrics \
			dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__registers_per_thread \
			$b bench --algo bp $fp --size 900x750 --ndisp 128 --runs 1 --backend cuda >"$f" 2>&1
		awk -F'","' -v fp="$fp" '
			/dram__bytes|gpu__time/ { v = $NF; gsub(/[",]/, "", v); id = $1; name[id] = $5; grid[id] = $9 }
			/dram__bytes/ { by[id] += v; t += v; k[$5] += v }
			/gpu__time_duration/ { tm[id] = v; kt[$5] += v; tt += v }
			/jd_bp_select/ && /gpu__time/ { n++ }
			END { f = n; if (f < 1) f = 1;
				printf "ncu bp%s 900x750/128: %d frames, %.1f MB and %.3f ms of kernels a frame\n", fp, f, t / f / 1e6, tt / f / 1e6;
				for (i in k) printf "    %-34s %8.1f MB %7.3f ms a frame\n", i, k[i] / f / 1e6, kt[i] / f / 1e6;
				for (i in by) if (name[i] ~ /iter/ && by[i] > 2e8)
					printf "    launch %s %s grid %s: %.1f MB in %.1f us = %.2f TB/s\n", i, name[i], grid[i], by[i] / 1e6, tm[i] / 1e3, by[i] / tm[i] / 1e3 }' "$f" | head -40
	done
	esac
	case $parts in *" prof "*)
	for v in ${PROF:-default}; do
		[ "$v" = default ] && v=
		JD_BP_VARIANT=$v ncu --kernel-name regex:jd_bp_iter --launch-skip 29 --launch-count 1 \
			--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
			--section WarpStateStats --section SchedulerStats --section LaunchStats \
			$b bench --algo bp --fp16 --size 900x750 --ndisp 128 --runs 1 --backend cuda \
			>"$out/prof-${v:-default}.txt" 2>&1
		echo "== prof ${v:-default}"
		stalls=$(for r in long_scoreboard short_scoreboard wait mio_throttle lg_throttle barrier \
			math_pipe_throttle not_selected selected dispatch_stall drain membar no_instruction \
			branch_resolving tex_throttle imc_miss sleeping; do
			printf "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio," $r; done)
		JD_BP_VARIANT=$v ncu --kernel-name regex:jd_bp_iter --launch-skip 29 --launch-count 1 \
			--metrics "${stalls}smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum" \
			$b bench --algo bp --fp16 --size 900x750 --ndisp 128 --runs 1 --backend cuda \
			>"$out/stalls-${v:-default}.txt" 2>&1
		grep -E "stalled|inst_executed|wavefronts|lts__" "$out/stalls-${v:-default}.txt" | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//'
		grep -E "jd_bp_iter|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Issued Warp Per|No Eligible|L2 Hit|L1/TEX Hit|Mem Busy|Max Bandwidth|Compute \(SM\)|Block Limit" "$out/prof-${v:-default}.txt" | head -30
	done
	esac
}
