# tools/gpu.sh's part sad (sourced; see tools/gpu.sh): SAD timed at four sizes for each
# ROWS value ("" = automatic; JD_SAD_ROWS), and with NCU=1 each kernel of a 1280x720/128 frame.
# (SAD's test: the part tests with GPU_TESTS=sad.)

part_sad() {
	for rows in ${ROWS:-""}; do
	  echo "== rows=${rows:-auto}"
	  for c in "640x480 64" "1280x720 128" "450x375 64" "1920x1080 256"; do set -- $c
	    JD_SAD_ROWS=$rows $b bench --algo sad --size $1 --ndisp $2 --runs 51 --backend cuda 2>&1 | grep "GPU kernels" | sed 's/  */ /g' | cut -c1-60 | sed "s/^/$1\/$2 /"
	  done
	done
	if [ -n "${NCU:-}" ]; then
	  ncu --kernel-name regex:jd_sad\|jd_fill\|jd_median --launch-count 5 --section SpeedOfLight $b bench --algo sad --size 1280x720 --ndisp 128 --runs 1 --backend cuda 2>&1 | grep -E "^  jd_|Duration" 
	fi
}
