#!/bin/sh
# On the GPU machine, after tools/gpu_sgm_variants.sh built build/gpu-<variant>: ncu's
# instructions and time of each SGM kernel, a frame of PROBE_CASE (size:ndisp:paths).
set -u
c=${PROBE_CASE:-1280x720:128:8}
s=${c%%:*}; r=${c#*:}; nd=${r%:*}; paths=${r#*:}
for n in $PROBE; do
	ncu --csv --print-units base --metrics smsp__inst_executed.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
		-k regex:jd_sgm build/gpu-$n/jetdepth bench --algo sgm --size $s --ndisp $nd --paths $paths --runs 1 \
		--backend cuda >/tmp/probe-$n.csv 2>&1
	awk -F'","' -v n="$n $c" '/jd_sgm/ { v = $NF; gsub(/[",]/, "", v); k[$5 " " $(NF-2)] += v; m[$5 " " $(NF-2)]++ }
		END { for (i in k) printf "%s %-50s %14.1f\n", n, i, k[i] / m[i] }' /tmp/probe-$n.csv | sort
done
