# shellcheck shell=bash
# The guest scheduler of run.sh, sourced (tests/qemu/sched-selftest.sh runs
# it with boots that only sleep).  SLOTS: guests at once (FAMFS_QEMU_JOBS).

# slots_of PROFILE: the guests it runs at once, at most SLOTS (with fewer
# slots than guests -- FAMFS_QEMU_JOBS=1 -- the profile runs alone, all its
# guests at once); the names as in run.sh's multi_guest
slots_of() {
	local n=1
	case $1 in two-hosts*) n=2 ;; four-hosts*) n=$SLOTS ;; esac
	[ "$n" -le "$SLOTS" ] || n=$SLOTS
	echo "$n"
}

# timeout_pct CORES: how much every suite timeout grows, in percent (never
# below 100), when more guests run at once than the host has cores
timeout_pct() {
	local pct=$((SLOTS * 100 / $1))
	[ $pct -ge 100 ] || pct=100
	echo $pct
}

# schedule PROFILE...: start, in that order, each profile that fits in the
# free slots (a single-guest one may pass a two-hosts one that must wait,
# never one that needs every slot: four-hosts would wait behind singles
# that keep starting as others end); when none fits, wait for a boot to end.  sched_boot PROFILE (the
# caller's) runs one boot; schedule returns when all have ended.
schedule() {
	local -A need
	local used=0 queue=("$@") rest started held p n done_pid
	while [ ${#queue[@]} -gt 0 ]; do
		rest=() started=0 held=0
		for p in "${queue[@]}"; do
			n=$(slots_of "$p")
			if [ $started = 0 ] && [ $held = 0 ] &&
			   [ $((used + n)) -le "$SLOTS" ]; then
				( sched_boot "$p" ) &
				need[$!]=$n; used=$((used + n)) started=1
			else
				rest+=("$p")
				[ "$n" -lt "$SLOTS" ] || held=1
			fi
		done
		queue=("${rest[@]}")
		if [ $started = 0 ]; then
			wait -n -p done_pid; used=$((used - ${need[$done_pid]}))
		fi
	done
	wait
}
