#!/usr/bin/env bash
# Accuracy of one matcher on one dataset pair, through the CLI a user would run:
#   jetdepth match LEFT RIGHT -o OUT.pfm ...; jetdepth eval OUT.pfm PAIR_DIR --max-bad LIMIT
# usage: check_pair.sh JETDEPTH PAIR ALGO MAX_BAD1 [extra match options...]
# Data: $JETDEPTH_DATA (default ../shared/data beside the checkout); skipped when absent.
set -u
bin=$1 pair=$2 algo=$3 limit=$4
shift 4
. "$(dirname "$0")/pair_env.sh"
"$bin" match -q "$dir/left.pgm" "$dir/right.pgm" -o "$out/disp.pfm" --algo "$algo" \
	--ndisp "$ndisp" "$@" || exit 1
"$bin" eval "$out/disp.pfm" "$dir" --max-bad "$limit"
