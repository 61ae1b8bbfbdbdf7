#!/usr/bin/env bash
# Host test of tests/qemu/sched.sh (run.sh's guest scheduler): boots that
# only sleep, and the order in which they start.  PROTOCOL lines
# (tests/PROTOCOL.md); exits non-zero on a FAIL.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/qemu/sched.sh disable=SC2034 # SLOTS: sched.sh reads it
. "$here/sched.sh"
log=$(mktemp) fails=0
trap 'rm -f "$log"' EXIT
declare -A dur
sched_boot() { echo "$1" >> "$log"; sleep "${dur[$1]:-0.2}"; }
ok() { echo "PASS sched/$1"; }
no() { echo "FAIL sched/$1: $2"; fails=$((fails + 1)); }
# started_before A B: A's boot started before B's
started_before() {
	local a b
	a=$(grep -nx "$1" "$log" | cut -d: -f1) b=$(grep -nx "$2" "$log" | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}

# every profile boots once
SLOTS=3; : > "$log"
schedule pmem two-hosts four-hosts nvdimm
if [ "$(sort "$log" | tr '\n' ' ')" = "four-hosts nvdimm pmem two-hosts " ]; then
	ok each_once
else no each_once "booted: $(tr '\n' ' ' < "$log")"; fi

# a single-guest profile passes a two-hosts one that waits for two slots
SLOTS=3; : > "$log"; dur=([two-hosts]=0.6 [two-hosts-cxl]=0.2 [pmem]=0.2)
schedule two-hosts two-hosts-cxl pmem
if started_before pmem two-hosts-cxl; then ok single_passes_two_hosts
else no single_passes_two_hosts "order: $(tr '\n' ' ' < "$log")"; fi

# ...never a profile that needs every slot: singles behind four-hosts that
# keep starting as others end would hold it back until the very end
SLOTS=3; : > "$log"
dur=([pmem]=0.6 [nvdimm]=0.3 [four-hosts]=0.1 [cxl]=0.3 [cxl2]=0.3 [hmem]=0.3 [mixed]=0.3)
schedule pmem nvdimm four-hosts cxl cxl2 hmem mixed
late=""
for p in cxl cxl2 hmem mixed; do started_before "$p" four-hosts && late+=" $p"; done
if [ -z "$late" ]; then ok four_hosts_not_passed
else no four_hosts_not_passed "started before four-hosts, which was ahead of them:$late (order: $(tr '\n' ' ' < "$log"))"; fi

# one slot: one at a time, in order
SLOTS=1; : > "$log"; dur=()
schedule four-hosts pmem two-hosts
if [ "$(tr '\n' ' ' < "$log")" = "four-hosts pmem two-hosts " ]; then ok one_slot_in_order
else no one_slot_in_order "order: $(tr '\n' ' ' < "$log")"; fi

# the order: several guests first, then longest first in each group;
# a profile with no figure last in its group
got=$(sched_order hmem nvdimm-1g two-hosts-rev pmem new four-hosts two-hosts mixed | tr '\n' ' ')
if [ "$got" = "four-hosts two-hosts two-hosts-rev pmem nvdimm-1g mixed hmem new " ]; then ok order_longest_first
else no order_longest_first "order: $got"; fi

# suite timeouts grow with guests per core, never shrink
check_pct() {
	SLOTS=$1
	local got; got=$(timeout_pct "$2")
	if [ "$got" = "$3" ]; then ok "timeout_pct_${1}_on_$2"
	else no "timeout_pct_${1}_on_$2" "$1 guests on $2 cores: $got%, expected $3%"; fi
}
check_pct 3 2 150
check_pct 1 2 100
check_pct 4 2 200
check_pct 2 2 100
check_pct 3 1 300
[ $fails = 0 ]
