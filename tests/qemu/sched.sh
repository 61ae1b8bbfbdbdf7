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

# sched_order PROFILE...: the order schedule is given them: the profiles of
# several guests first (four-hosts*, which take every slot, then the
# two-hosts ones), then the single-guest ones, each group longest first,
# so that the longest start early and short ones fill the end (longest
# processing time first).  The seconds are those of a full make check on
# a 2-core machine, three guests at once; a profile not listed counts 0.
# Ordered so, that check's guest phase takes 1,496 s by the same figures
# where the order before (single-guest profiles by kind: nvdimm-1g last)
# took 1,563 s; the slots' work alone needs 1,490 s.
sched_order() {
	local p g s
	for p in "$@"; do
		case $p in four-hosts*) g=0 ;; two-hosts*) g=1 ;; *) g=2 ;; esac
		case $p in
		pmem) s=784 ;; two-hosts) s=502 ;; nvdimm-devdax) s=492 ;;
		nvdimm-1g) s=209 ;; two-hosts-devdax) s=176 ;; mixed) s=155 ;;
		four-hosts-churn) s=136 ;; nvdimm2) s=131 ;; cxl2) s=130 ;;
		nvdimm) s=120 ;; two-hosts-cxl) s=89 ;; nvdimm-devdax-1g) s=54 ;;
		four-hosts) s=47 ;; two-hosts-cxl-devdax) s=45 ;;
		two-hosts-1g) s=41 ;; two-hosts-rev) s=39 ;; cxl) s=34 ;;
		hmem) s=28 ;; *) s=0 ;;
		esac
		echo "$g $((100000 - s)) $p"
	done | sort -n -k1,1 -k2,2 -k3,3 | cut -d' ' -f3
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
