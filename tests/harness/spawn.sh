# Sourced by the test scripts after emulator.sh: start a program in the background and get
# its exit status without bash's job table. bash 5.2 once lost such a child under load
# ("wait_for: No record of process"): its `wait` answered 127 at once while the child ran
# on, and the test failed on a run that had been right. A plain sh in between records the
# status in a file instead.
#   jd_spawn OUT ERR CMD...   CMD in the background, stdout to OUT, stderr to ERR; its pid
#                             (the one to signal) in $pid
#   jd_reap PID               waits up to 300 s for it to end; returns its exit status
#                             (124 if it did not end)
declare -A jd_spawned jd_spawned_sh
jd_spawn() {
	local out=$1 err=$2 f
	shift 2
	jd_spawn_n=$((${jd_spawn_n:-0} + 1))
	f=$jd_emu_dir/spawn.$jd_spawn_n
	rm -f "$f.pid" "$f.rc"
	# (as any background command of a script, CMD starts with SIGINT and SIGQUIT ignored)
	sh -c 'f=$1; shift; "$@" & echo $! >"$f.pid.tmp"; mv "$f.pid.tmp" "$f.pid"
		wait $!; echo $? >"$f.rc.tmp"; mv "$f.rc.tmp" "$f.rc"' sh "$f" "$@" >"$out" 2>"$err" &
	jd_spawned_sh[$jd_spawn_n]=$!
	while [ ! -s "$f.pid" ]; do sleep 0.01; done
	pid=$(cat "$f.pid")
	jd_spawned[$pid]=$jd_spawn_n
}
jd_reap() {
	local n=${jd_spawned[$1]} waited=0
	local f=$jd_emu_dir/spawn.$n
	while [ ! -f "$f.rc" ] && [ $waited -lt 6000 ]; do sleep 0.05; waited=$((waited + 1)); done
	wait "${jd_spawned_sh[$n]}" 2>/dev/null # the sh in between, whatever bash recorded of it
	[ -f "$f.rc" ] || return 124
	return "$(cat "$f.rc")"
}
