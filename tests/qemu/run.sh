#!/usr/bin/env bash
# Boot QEMU guests and run guest test suites; see usage() or run.sh --help.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
PROFILES=$here/profiles
KVER=${KVER:-$("$repo/scripts/kver.sh")}
KERNEL=${FAMFS_KERNEL:-/boot/vmlinuz-$KVER}
RESULTS=${FAMFS_RESULTS:-$repo/results}
# Guests at once (each one TCG vCPU): 3 on the 2 cores a machine has, so
# that a single-guest profile runs beside a two-hosts one, whose two guests
# wait on each other much of the time; four-hosts takes them all.
SLOTS=${FAMFS_QEMU_JOBS:-3}
[[ $SLOTS =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: FAMFS_QEMU_JOBS=$SLOTS: not a number of guests (1 or more)" >&2; exit 2; }
SUITE_TIMEOUT=${FAMFS_SUITE_TIMEOUT:-120}
# shellcheck source=tests/qemu/sched.sh
. "$here/sched.sh"
# every suite timeout, and the hard boot timeout made of them, in percent
TIMEOUT_PCT=$(timeout_pct "$(nproc 2>/dev/null || echo 1)")

usage() {
	cat <<EOF
usage: tests/qemu/run.sh [-p PROFILE]... [-k] [-b] [SUITE...]
       tests/qemu/run.sh -i -p PROFILE

Runs guest suites (tests/qemu/suites/SUITE.sh) in QEMU, one boot per profile
running all of that profile's suites.  A suite lists its profiles in a header
line "# profiles: pmem nvdimm ..." (and may set "# timeout: SECONDS", default
$SUITE_TIMEOUT).  No arguments: every suite on each of its profiles.
  -p PROFILE  only these profiles (repeatable); with SUITEs, run those suites
              on these profiles even if their header does not list them
  -k          keep the work dir (memory backing files) in tests/qemu/work/
  -b          build only: what the run needs (test programs, initramfs,
              kernel, selftest and test modules), then exit without booting
  -i          interactive: boot PROFILE, set up the device, load famfs.ko and
              give a shell on this terminal (exit the shell to power off)
Profiles: $(cd "$PROFILES" && ls | sed 's/\.sh$//' | tr '\n' ' ')
Prints PROTOCOL lines (tests/PROTOCOL.md) on stdout; exit status 1 if any FAIL.
Keeps console logs and results in $RESULTS/<profile>/.
Environment: KVER, FAMFS_BOOT_TIMEOUT (s, default 90 + sum of suite
timeouts), FAMFS_SUITE_TIMEOUT, FAMFS_QEMU_JOBS (guests at once, default 3:
two-hosts beside one single-guest profile; with more guests than cores every
suite timeout grows by FAMFS_QEMU_JOBS / cores),
FAMFS_QEMU_SMP (guest CPUs, default 1), FAMFS_RESULTS, FAMFS_REQUIRE_KO=1
(FAIL when fs/famfs/famfs.ko is not built), FAMFS_SELFTEST_BREAK (see
suites/selftest.sh), FAMFS_FUZZ_LONG / FAMFS_FUZZ_SEED / FAMFS_FUZZ_ITER
(see suites/hostile_fuzz.sh), FAMFS_LONG=1 (long modes: a suite's
"# timeout-long:" header, suites/scale.sh's 100k entries), FAMFS_SCALE_N,
FAMFS_CHURN_N / FAMFS_CHURN_WAIT (see suites/churn4.sh), FAMFS_STAGE (the staged install suites/demo.sh
uses, relative to the repo; default build/stage).
EOF
}

want_profiles=() keep=0 interactive=0 build_only=0 suites=()
while [ $# -gt 0 ]; do
	case $1 in
	-p) want_profiles+=("$2"); shift 2 ;;
	-k) keep=1; shift ;;
	-b) build_only=1; shift ;;
	-i) interactive=1; shift ;;
	-h|--help) usage; exit 0 ;;
	-*) usage >&2; exit 2 ;;
	*) s=${1##*/}; suites+=("${s%.sh}"); shift ;;
	esac
done
for p in "${want_profiles[@]}"; do
	[ -f "$PROFILES/$p.sh" ] || { echo "run.sh: unknown profile '$p'" >&2; exit 2; }
done
suite_profiles() { sed -n 's/^# profiles: *//p' "$here/suites/$1.sh" | head -n 1; }
suite_timeout() {
	local t=""
	# FAMFS_LONG: a suite's long mode has its own timeout
	[ "${FAMFS_LONG:-0}" != 0 ] && t=$(sed -n 's/^# timeout-long: *\([0-9]*\).*/\1/p' "$here/suites/$1.sh" | head -n 1)
	[ -n "$t" ] || t=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$here/suites/$1.sh" | head -n 1)
	echo $(( ${t:-$SUITE_TIMEOUT} * TIMEOUT_PCT / 100 ))
}
has() { local x=$1; shift; for y; do [ "$x" = "$y" ] && return 0; done; return 1; }

# plan[profile] = suites to run in that profile's boot.
declare -A plan
if [ ${#suites[@]} -eq 0 ]; then
	for f in "$here"/suites/*.sh; do
		[ -e "$f" ] || continue
		# deliberately broken suites run only on request
		[ -z "${FAMFS_SELFTEST_BREAK:-}" ] && grep -q "^# selftest:" "$f" && continue
		suites+=("$(basename "$f" .sh)")
	done
	explicit=0
else
	explicit=1
fi
for p in "${want_profiles[@]}"; do plan[$p]=""; done
for s in "${suites[@]}"; do
	[ -f "$here/suites/$s.sh" ] || { echo "run.sh: no suite $here/suites/$s.sh" >&2; exit 2; }
	for p in $(suite_profiles "$s"); do
		[ ${#want_profiles[@]} -eq 0 ] || has "$p" "${want_profiles[@]}" || continue
		plan[$p]+=" $s"
	done
	if [ $explicit = 1 ]; then	# -p given with explicit suites: run them there anyway
		for p in "${want_profiles[@]}"; do [[ " ${plan[$p]} " == *" $s "* ]] || plan[$p]+=" $s"; done
	fi
done

qarg() { QARGS+=("$@"); }
# Host environment passed on to the guest.
passenv() {
	printf 'export FAMFS_SELFTEST_BREAK="%s" FAMFS_REQUIRE_KO="%s"\n' \
		"${FAMFS_SELFTEST_BREAK:-}" "${FAMFS_REQUIRE_KO:-}"
	# suites/demo.sh: the staged "make install" tree, relative to the repo
	printf 'export FAMFS_STAGE="%s"\n' "${FAMFS_STAGE:-}"
	# hostile suites: long fuzzing, repeating a seed
	printf 'export FAMFS_FUZZ_LONG="%s" FAMFS_FUZZ_SEED="%s" FAMFS_FUZZ_ITER="%s"\n' \
		"${FAMFS_FUZZ_LONG:-}" "${FAMFS_FUZZ_SEED:-}" "${FAMFS_FUZZ_ITER:-}"
	# long modes (suites/scale.sh: 100k entries), and its N
	printf 'export FAMFS_LONG="%s" FAMFS_SCALE_N="%s"\n' \
		"${FAMFS_LONG:-}" "${FAMFS_SCALE_N:-}"
	# suites/churn4.sh: its count, and how long a create waits for memory
	printf 'export FAMFS_CHURN_N="%s" FAMFS_CHURN_WAIT="%s"\n' \
		"${FAMFS_CHURN_N:-}" "${FAMFS_CHURN_WAIT:-}"
	# suites/bench-churn.sh (make bench, part churn): its parameters
	printf 'export BENCH_CHURN_N="%s" BENCH_CHURN_CAP="%s" BENCH_CHURN_IV="%s"\n' \
		"${BENCH_CHURN_N:-}" "${BENCH_CHURN_CAP:-}" "${BENCH_CHURN_IV:-}"
}
# GUEST=HOST qemu_cmd GUESTDIR SYNCDIR: the QEMU command line for the sourced
# profile in QCMD (its host_args sees GUEST: a, or b (c, d) on two-hosts
# (four-hosts) profiles).
qemu_cmd() {
	QARGS=()
	host_args
	QCMD=(qemu-system-x86_64 -accel tcg -cpu max -smp "${FAMFS_QEMU_SMP:-1}" -nodefaults -nic none
		-display none -no-reboot -kernel "$KERNEL" -initrd "$here/build/initramfs.cpio"
		-append "console=ttyS0 panic=-1 oops=panic $KARGS"
		-device isa-debug-exit,iobase=0xf4,iosize=0x04
		-virtfs "local,path=$repo,mount_tag=src,security_model=none,readonly=on"
		-virtfs "local,path=$1,mount_tag=out,security_model=none"
		-virtfs "local,path=$2,mount_tag=sync,security_model=none"
		"${QARGS[@]}")
}

# Kernel log lines (timestamped, so not user output) that fail a boot, unless
# between the expect-trace markers of lib.sh.
bad_kernel_line() {
	awk '/famfs-test: expect-trace-begin/ { e = 1 } /famfs-test: expect-trace-end/ { e = 0 }
	!e && /\[ *[0-9]+\.[0-9]+\].*(WARNING:|BUG:|Oops|general protection|possible circular locking|lockdep|Call Trace|Kernel panic|blocked for more than|soft lockup|rcu.*stall|UBSAN|KASAN)/ {
		sub(/^.*\[ *[0-9]+\.[0-9]+\] */, ""); print substr($0, 1, 160); exit }' "$1"
}

# multi_guest PROFILE: 0 if PROFILE boots several guests (FAMFS_GUESTS):
# two-hosts* (a b) and four-hosts* (a b c d); they take both slots.
multi_guest() { case $1 in two-hosts*|four-hosts*) return 0 ;; esac; return 1; }

# boot PROFILE SUITES...: one boot (one guest, or FAMFS_GUESTS: two for
# two-hosts*, four for four-hosts*); writes verdict.txt.
boot() {
	local p=$1; shift
	local dir=$RESULTS/$p work=$here/work/$p.$$ t0=$SECONDS bt=90 s h g
	rm -rf "$dir" && mkdir -p "$dir/sync" "$work"
	WORK=$work
	# shellcheck source=/dev/null
	. "$PROFILES/$p.sh"
	host_prepare
	local guests=${FAMFS_GUESTS:-a}
	# The hard timeout: 90 s to boot and set up (45 s more for each guest
	# beyond two: four TCG guests share two cores) and the suites' own.
	local -a hl
	read -r -a hl <<< "$guests"
	[ ${#hl[@]} -le 2 ] || bt=$((bt + 45 * (${#hl[@]} - 2)))
	for s; do bt=$((bt + $(suite_timeout "$s"))); done
	bt=${FAMFS_BOOT_TIMEOUT:-$bt}
	local -A host_of
	for h in $guests; do
		g=$dir; [ "$guests" = a ] || g=$dir/$h
		mkdir -p "$g"
		printf 'PROFILE=%s\nHOST=%s\nSUITES="%s"\nSUITE_TIMEOUT=%s\nTIMEOUT_PCT=%s\nINTERACTIVE=0\n' \
			"$p" "$h" "$*" "$SUITE_TIMEOUT" "$TIMEOUT_PCT" > "$g/config"
		passenv >> "$g/config"
		GUEST=$h qemu_cmd "$g" "$dir/sync"
		echo "${QCMD[*]}" > "$g/qemu-cmd.txt"
		timeout -k 5 "$bt" "${QCMD[@]}" -serial "file:$g/console.log" </dev/null >"$g/qemu.log" 2>&1 &
		host_of[$!]=$h
	done
	# As each guest exits, tell the others (sync_wait then fails at once).
	local n=${#host_of[@]} pid rc
	while [ $n -gt 0 ]; do
		wait -n -p pid; rc=$?
		h=${host_of[$pid]} g=$dir; [ "$guests" = a ] || g=$dir/$h
		echo $rc > "$g/qemu.rc"; touch "$dir/sync/.exited-$h"; n=$((n - 1))
	done
	[ $keep = 1 ] || rm -rf "$work"
	for h in $guests; do
		g=$dir; local id=$p/guest/boot why=()
		[ "$guests" = a ] || { g=$dir/$h; id=$p/guest/$h/boot; }
		grep -E '^(PASS|FAIL|SKIP) ' "$g/results.txt" 2>/dev/null
		local rc; rc=$(cat "$g/qemu.rc")
		[ "$rc" = 124 ] || [ "$rc" = 137 ] && why+=("hard timeout after ${bt}s, QEMU killed")
		grep -q "^END $p $h" "$g/results.txt" 2>/dev/null || why+=("no end marker")
		local fatal; fatal=$(grep -a -m1 -o 'init: FATAL: .*' "$g/console.log" | tr -d '\r')
		[ -z "$fatal" ] || why+=("$fatal")
		[ ! -s "$g/qemu.log" ] || why+=("qemu: $(tail -n 1 "$g/qemu.log")")
		[ "$rc" = 1 ] || [ "$rc" = 124 ] || [ "$rc" = 137 ] || why+=("QEMU exit status $rc, expected 1")
		local bad; bad=$(bad_kernel_line "$g/console.log")
		[ -z "$bad" ] || why+=("kernel log: $bad")
		if [ ${#why[@]} -eq 0 ]; then echo "PASS $id"
		else local msg; msg=$(printf '%s; ' "${why[@]}"); echo "FAIL $id: ${msg%; } (console: $g/console.log)"; fi
	done > "$dir/verdict.txt"
	echo "run.sh: $p: done in $((SECONDS - t0)) s: $(grep -c ^PASS "$dir/verdict.txt") passed," \
		"$(grep -c ^FAIL "$dir/verdict.txt") failed" >&2
}

mkdir -p "$here/work" "$RESULTS"
if [ $interactive = 0 ] && [ $build_only = 0 ]; then	# one run at a time on this machine
	exec 9>"$here/work/.run.lock"
	flock -n 9 || { echo "run.sh: waiting for another run.sh to finish" >&2; flock 9; }
fi

# Build: test programs and the initramfs.  A failure is a FAIL line.
status=0
if ! out=$(make -s -C "$here" 2>&1); then
	echo "FAIL build/tests-qemu-progs: $(echo "$out" | grep -m1 -E 'error|Error' || echo "$out" | tail -n 1)"
	status=1
fi
if ! out=$("$here/mkinitramfs.sh" 2>&1); then
	echo "FAIL build/initramfs: $(echo "$out" | tail -n 1)"; exit 1
fi
[ -z "$out" ] || echo "$out" >&2
[ -r "$KERNEL" ] || { echo "FAIL build/kernel: no $KERNEL"; exit 1; }
if [[ " ${plan[*]} " == *" selftest "* ]] &&
	! out=$(make -s -C "${KDIR:-/usr/src/linux-headers-$KVER}" M="$here/selftest" modules 2>&1); then
	echo "FAIL build/selftest-module: $(echo "$out" | tail -n 1)"; status=1
fi
# Test modules (kmod/) for the suites that load one (a "# kmod:" header).
# shellcheck disable=SC2048 # each of plan's values is a list of suites
for s in ${plan[*]}; do
	grep -q '^# kmod:' "$here/suites/$s.sh" || continue
	if ! out=$(make -s -C "${KDIR:-/usr/src/linux-headers-$KVER}" M="$here/kmod" modules 2>&1); then
		echo "FAIL build/test-modules: $(echo "$out" | grep -m1 -E 'error|Error' || echo "$out" | tail -n 1)"; status=1
	fi
	break
done
if [ $build_only = 1 ]; then
	echo "run.sh: -b: built for profiles: ${!plan[*]}; kernel $KERNEL; nothing booted" >&2
	exit $status
fi

if [[ " ${plan[*]} " == *" legacy-abi "* ]] &&
	! out=$(make -s -C "$here" legacy KDIR="${KDIR:-/usr/src/linux-headers-$KVER}" 2>&1); then
	echo "FAIL build/legacy-module: $(echo "$out" | grep -m1 -E 'error|Error' || echo "$out" | tail -n 1)"; status=1
fi

if [ $interactive = 1 ]; then
	[ ${#want_profiles[@]} -eq 1 ] || { echo "run.sh: -i needs exactly one -p PROFILE" >&2; exit 2; }
	p=${want_profiles[0]} dir=$RESULTS/interactive-${want_profiles[0]}
	rm -rf "$dir" && mkdir -p "$dir/sync" "$here/work/$p.$$"
	WORK=$here/work/$p.$$
	. "$PROFILES/$p.sh"
	[ -z "${FAMFS_GUESTS:-}" ] || { echo "run.sh: -i is for single-guest profiles" >&2; exit 2; }
	host_prepare
	printf 'PROFILE=%s\nHOST=a\nSUITES=\nINTERACTIVE=1\n' "$p" > "$dir/config"
	passenv >> "$dir/config"
	GUEST=a qemu_cmd "$dir" "$dir/sync"
	"${QCMD[@]}" -serial mon:stdio
	[ $keep = 1 ] || rm -rf "$WORK"
	exit 0
fi

# Schedule: the profiles of several guests first, then the single-guest
# ones, each group longest first (sched_order, sched.sh).
order=$(sched_order "${!plan[@]}")
[ -n "$order" ] || { echo "run.sh: nothing to run" >&2; exit 2; }
sched_boot() {
	echo "run.sh: $1: booting (suites:${plan[$1]:- none})" >&2
	boot "$1" ${plan[$1]}
}
# shellcheck disable=SC2086 # order: one profile name per word
schedule $order

for p in $order; do
	cat "$RESULTS/$p/verdict.txt" 2>/dev/null || echo "FAIL $p/guest/boot: runner produced no verdict"
done | tee "$RESULTS/run-verdict.txt"
grep -q '^FAIL ' "$RESULTS/run-verdict.txt" && status=1
grep '^FAIL ' "$RESULTS/run-verdict.txt" | grep -o 'console: [^)]*' | sort -u | sed 's/^/run.sh: see /' >&2
exit $status
