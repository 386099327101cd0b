#!/bin/sh
# On the GPU machine: build (sm_90 only), the SGM GPU tests, and the SGM benchmark beside
# libSGM on the same synthetic pairs (.gpupeers/libsgm_bench, see ../shared/peers/README.md).
# PARTS: any of "test bench peer ncu" (default "test bench peer"). Logs into $OUT.
set -u
. "$(dirname "$0")/gpu_env.sh"
parts=${PARTS:-test bench peer}
gpu_build -DJD_CUDA_ONLY_ARCH=90 || exit 1
b=build/gpu/jetdepth
cases=${CASES:-"450x375:64 640x480:64 1242x375:128 1280x720:128 1920x1080:128 1920x1080:256"}
case " $parts " in *" test "*)
	echo "== gpu tests"
	timeout 300 build/gpu/tests/test_cuda_sgm 2>&1 | tail -25 | tee "$out/test_sgm.log"
esac
case " $parts " in *" bench "*)
	echo "== jetdepth bench (cuda)"
	for c in $cases; do
		for paths in 8 4; do
			$b bench --algo sgm --size ${c%:*} --ndisp ${c#*:} --paths $paths --runs 21 --backend cuda 2>&1 | grep -v '^matcher' | sed "s/^/p$paths /"
		done
	done | tee "$out/bench.log"
esac
case " $parts " in *" peer "*)
	echo "== libSGM on the same sizes"
	mkdir -p /tmp/pairs && : >/tmp/pairs/cases.txt
	for c in $cases; do
		s=${c%:*}; nd=${c#*:}; w=${s%x*}; h=${s#*x}
		l=/tmp/pairs/$s-$nd-l.pgm r=/tmp/pairs/$s-$nd-r.pgm
		$b synth $l $r --size $s --ndisp $nd >/dev/null
		echo "c$s-$nd $w $h $nd $l $r" >>/tmp/pairs/cases.txt
	done
	cat /tmp/pairs/cases.txt
	.gpupeers/libsgm_bench bench /tmp/pairs/cases.txt 5 21 "$out/libsgm.csv" 2>&1 | tail -30 | tee "$out/peer.log"
esac
case " $parts " in *" ncu "*)
	# DRAM bytes of every kernel of the frames bench runs (warm-up, timed, pipelined),
	# divided by the frames: bytes a frame and per pixel-disparity.
	for c in ${NCU_CASES:-1280x720:128:8 1920x1080:256:8 1280x720:128:4 1920x1080:256:4}; do
		s=${c%%:*}; r=${c#*:}; nd=${r%:*}; paths=${r#*:}; w=${s%x*}; h=${s#*x}
		ncu --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum \
			$b bench --algo ${NCU_ALGO:-sgm} --size $s --ndisp $nd --paths $paths --runs 1 \
			--backend cuda >"$out/ncu-$s-$nd-$paths.csv" 2>&1
		awk -F'","' -v w=$w -v h=$h -v nd=$nd -v c=$c '
			/dram__bytes/ { v = $NF; gsub(/[",]/, "", v); t += v; k[$5] += v }
			/dram__bytes_read/ && $5 ~ /^jd_census_cuda|^jd_sad_strips|^jd_sad_rows/ { n++ }
			END { f = n / (c ~ /sad/ ? 1 : 2); if (f < 1) f = 1;
				printf "ncu %s: %d frames, %.1f MB a frame, %.2f B/pixel-disparity\n", c, f, t / f / 1e6, t / f / (w * h * nd);
				for (i in k) printf "    %-28s %8.1f MB a frame\n", i, k[i] / f / 1e6 }' "$out/ncu-$s-$nd-$paths.csv"
	done
esac
