#!/usr/bin/env bash
# The preview in a real browser: headless Chromium loads the page from `jetdepth run
# --preview`, and its screenshot shows the disparity colour map with the objects' green boxes;
# /status parses as the expected JSON; a malformed header gets 400, HTTP/9.9 505, a POST 405, a path
# outside the three 404; streams past the limit get 503 while /status answers and the frame
# loop goes on; forty slow clients and twelve stalled ones leave /status answering within
# 100 ms, and are answered 408 and 503 themselves;
# a camera wider than 640 is shown downscaled.
# usage: preview_browser.sh JETDEPTH PNG_PROBE
set -u
bin=$1
probe=$2
[ -z "${JETDEPTH_EMULATOR:-}" ] || { echo "SKIP: a cross build (the browser test runs in the native one)"; exit 77; }
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "SKIP: no chromium (apt-get install chromium)"; exit 77; }
tmp=$(mktemp -d)
port=$((20000 + $$ % 20000))
"$bin" run --size 320x240 --ndisp 32 --preview "$port" --preview-clients 3 >"$tmp/run.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# HTTP over bash's /dev/tcp: request "$1" (raw), response on stdout.
http() {
	exec 3<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null || return 1
	printf '%b' "$1" >&3
	timeout 5 cat <&3
	exec 3<&-
}
status() { http 'GET /status HTTP/1.0\r\nHost: x\r\n\r\n' | tr -d '\r' | sed -n '/^{/p'; }

for _ in $(seq 50); do
	status | grep -q '"frames"' && break
	sleep 0.2
done
s=$(status)
echo "status: $s"
echo "$s" | grep -q '^{"frames":[0-9]*,"state":"running","source":"synthetic","fps":[0-9.]*,.*"objects":3,"table":true,.*"suspect":null,"vertical_offset_px":[-0-9.]*,"recalibrate":false,.*"cameras":\[{"label":"left",.*}\],"frame":{"frame":[0-9]*,.*"objects":\[{"id":1,.*"track":{"id":[0-9]*,"age":[0-9]*,.*},"age_ms":[0-9]*}$' ||
	fail "/status is not the expected JSON (the loop's figures, the last frame's report, its age)"

timeout 90 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=700,330 --virtual-time-budget=3000 --screenshot="$tmp/shot.png" \
	"http://127.0.0.1:$port/" >"$tmp/browser.log" 2>&1
if [ -s "$tmp/shot.png" ]; then
	counts=$("$probe" "$tmp/shot.png")
	echo "screenshot: $counts"
	green=$(echo "$counts" | sed -n 's/.*green \([0-9]*\).*/\1/p')
	colour=$(echo "$counts" | sed -n 's/.*colour \([0-9]*\).*/\1/p')
	[ "${green:-0}" -ge 300 ] || fail "no boxes in the screenshot (green $green)"
	[ "${colour:-0}" -ge 20000 ] || fail "no disparity colour map in the screenshot ($colour)"
else
	fail "chromium wrote no screenshot: $(tail -3 "$tmp/browser.log")"
fi

http 'GET /status HTTP/1.0\r\nA header without a colon\r\n\r\n' | head -1 | grep -q ' 400 ' ||
	fail "a malformed header is not answered 400"
http 'GET / HTTP/9.9\r\nHost: x\r\n\r\n' | head -1 | grep -q ' 505 ' || fail "HTTP/9.9 is not 505"
# bad clients cannot flood the log: twenty bad requests, at most a line a 10 s
before=$(grep -c 'jetdepth: preview:' "$tmp/run.log")
for i in $(seq 20); do http 'GET / HTTP/9.9\r\nHost: x\r\n\r\n' >/dev/null; done
after=$(grep -c 'jetdepth: preview:' "$tmp/run.log")
[ $((after - before)) -le 1 ] || fail "twenty bad requests logged $((after - before)) lines"
http 'POST /status HTTP/1.0\r\nContent-Length: 0\r\n\r\n' | head -1 | grep -q ' 405 ' || fail "POST is not 405"
http 'GET /../etc/passwd HTTP/1.0\r\n\r\n' | head -1 | grep -q ' 404 ' || fail "a file path is not 404"

# Three streams take every stream allowed; a fourth stream is answered 503, and /status still
# answers at once on the connections kept for it; the loop goes on.
before=$(status | sed -n 's/^{"frames":\([0-9]*\).*/\1/p')
for fd in 4 5 6; do
	eval "exec $fd<>/dev/tcp/127.0.0.1/$port"
	eval "printf 'GET /stream.mjpg HTTP/1.0\r\n\r\n' >&$fd"
done
sleep 1
http 'GET /stream.mjpg HTTP/1.0\r\n\r\n' | head -1 | grep -q ' 503 ' || fail "a fourth stream was not answered 503"
t0=$(date +%s%N)
http 'GET /status HTTP/1.0\r\n\r\n' | grep -q '"frames"' || fail "/status did not answer with the streams taken"
ms=$((($(date +%s%N) - t0) / 1000000))
[ $ms -le 500 ] || fail "/status took $ms ms with the streams taken"
echo "/status in $ms ms with every stream taken"
for fd in 4 5 6; do eval "exec $fd<&-"; done
after=
for _ in $(seq 25); do # the server sees the streams close within about a second
	after=$(status | sed -n 's/^{"frames":\([0-9]*\).*/\1/p')
	[ -n "$after" ] && break
	sleep 0.2
done
[ "${after:-0}" -gt "${before:-0}" ] || fail "the frame loop stalled ($before -> $after)"
echo "frames $before -> $after while the clients came and went"

# Slow and stalled clients cannot keep /status out, and get an answer (tests/e2e/slow_clients.py).
python3 "$(dirname "$0")/slow_clients.py" "$port" || fail "slow clients (above)"

kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 0 ] || fail "run exited $rc on SIGTERM"
grep -q "preview: http://127.0.0.1:$port/" "$tmp/run.log" || fail "run did not say where the preview is"

# A wide camera: the stream shows each view at most 640 wide (1300 at step 3: 434, 96: 32).
port=$((port + 1))
"$bin" run --size 1300x96 --ndisp 16 --preview "$port" >"$tmp/wide.log" 2>&1 &
pid=$!
for _ in $(seq 50); do
	exec 3<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null && break
	sleep 0.2
done
printf 'GET /stream.mjpg HTTP/1.0\r\n\r\n' >&3
timeout 5 head -c 300000 <&3 >"$tmp/wide.mjpg"
exec 3<&-
off=$(LC_ALL=C grep -obUaP '\xff\xc0' "$tmp/wide.mjpg" | head -1 | cut -d: -f1)
size=none
[ -n "$off" ] && size=$(od -An -tu1 -j $((off + 5)) -N4 "$tmp/wide.mjpg" |
	awk '{print $3 * 256 + $4 "x" $1 * 256 + $2}')
echo "a 1300x96 camera's pictures: $size"
[ "$size" = "868x32" ] || fail "a 1300x96 camera's picture is $size, not 868x32 (two 434x32 views)"
[ $fails -eq 0 ]
