#!/usr/bin/env bash
# Planted bugs the tests must catch (issue 27.16): each is a one-line change
# (a sed expression below) applied to a temporary copy of the tree (git
# worktree add --detach under /tmp, never this checkout), then the suite
# named with it runs there: a guest suite through tests/qemu/run.sh of the
# copy, or unit-test binaries.  A bug is CAUGHT if that run has a FAIL line
# (or fails to run), MISSED if it passes.  Run it when a suite or the code a
# plant touches changes; it is not part of make check (tests/qemu/README.md).
#
#   scripts/planted-bugs.sh [-r REF] [-k] [--no-baseline] [NAME...]
#
#   -r REF          plant into REF (default HEAD; e.g. main, to see what
#                   an older suite missed)
#   -k              keep the copy (its path is printed)
#   --no-baseline   skip the run of every target on the unplanted copy
#                   (by default a target that fails there makes its bugs'
#                   verdicts meaningless: BASELINE-FAIL)
#   NAME...         only these bugs (default: all; --list shows them)
#
# Guest suites boot QEMU: hold both QEMU slots, as /work/qrun would, e.g.
#   flock /tmp/famfs-qslot.0 flock /tmp/famfs-qslot.1 scripts/planted-bugs.sh
# FAMFS_QEMU_JOBS is passed on to run.sh (default 2).  Logs go to
# results/planted/ of this checkout.  Ends with one table line per bug
# (CAUGHT, MISSED, STALE: the line to change is not there any more, BROKEN:
# the plant does not build, BASELINE-FAIL) and exits non-zero unless every
# bug was CAUGHT.  About 2 minutes per guest bug (module build and a pmem
# boot), less for a unit bug; all of them with the baseline: ~30 minutes.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# NAME|FILE|SED EXPRESSION|TARGET|WHAT IT BREAKS
# TARGET: pmem:SUITE[,SUITE] (guest) or unit:TEST[,TEST] (tests/unit/TEST.c)
PLANTS=(
"nc-no-invalidate|fs/famfs/cache.c|s/if (op == FAMFS_CACHE_INVALIDATE)\$/if (op == FAMFS_CACHE_INVALIDATE \\&\\& !IS_ENABLED(CONFIG_X86))/|pmem:noncoherent|a non-coherent read, fsync or FAMFSIOC_CACHE invalidates nothing on x86 (the tracepoint still counts)"
"kill-ignored|fs/famfs/cache.c|s/if (fatal_signal_pending(current)) {/if (0 \\&\\& fatal_signal_pending(current)) {/|pmem:noncoherent|SIGKILL does not stop FAMFSIOC_CACHE or fsync over a whole file"
"overlap-check|fs/famfs/map.c|s/ext->dev_off + ext->len > start) {/ext->dev_off >= start) {/|pmem:module_ioctl|a mapped extent that starts before a new one and reaches into it is not an overlap"
"bounds-check|fs/famfs/ioctl.c|0,/if (end > dev_size) {/s//if (off >= dev_size) {/|pmem:module_ioctl|a simple extent that starts inside the device may end past it"
"pins-wait|fs/famfs/famfs.h|s/return page_ref_count(page) > 1;/return page_ref_count(page) > 2;/|pmem:hostile_pins|a page held once more than by its owner (a pipe) counts as idle: its memory is freed under the pipe"
"pmd-fault|fs/famfs/file.c|/\\.get_unmapped_area\\s*= thp_get_unmapped_area,/d|pmem:module_data|mappings are not 2 MiB aligned: no PMD faults"
"tool-zeroing|tools/famfs-cli/lib/ops/fill.c|s/cached += famfs_zero(a + size, len - size);/cached += 0;/|unit:test_ops|a new file's memory past its bytes keeps the old memory's bytes"
"master-check|tools/famfs-cli/lib/role/master.c|s/if (mine_still(fs) \\&\\& !fs->sb_other)/if ((mine_still(fs), 1) \\&\\& !fs->sb_other)/|unit:test_master|an opening that is not (or no longer) the master appends to the log"
"client-write-bits|tools/famfs-cli/lib/replay/logplay.c|s/? mode : mode \\& ~0222U;/? mode : mode;/|unit:test_logplay|a client (or read-only mount) replays files with their write bits"
"alloc-start|tools/famfs-cli/lib/space/alloc.c|s@uint64_t reserved = data_start / UNIT + (data_start % UNIT != 0);@uint64_t reserved = data_start / UNIT - 1;@|unit:test_alloc|the allocator hands out the last unit of the log"
"clog-crc|tools/famfs-cli/lib/media/clog.c|s/if (crc != le32toh(h->crc)) {/if (0 \\&\\& crc != le32toh(h->crc)) {/|pmem:hostile_meta|a compact log entry is taken without checking its CRC"
"pud-private|fs/famfs/pud.c|s/if (is_cow_mapping(vma->vm_flags)) {/if (write \\&\\& is_cow_mapping(vma->vm_flags)) {/|nvdimm-1g:pud|private mappings get 1 GiB entries for reads (as i31 had it): swapoff takes one for a bad table"
"pud-split|fs/famfs/file.c|/\\.may_split\\s*= famfs_pud_may_split,/d|nvdimm-1g:pud|a VMA split inside a PUD-mapped GiB leaves the entry: a partial mremap logs bad pud"
"pud-mremap|fs/famfs/pud.c|s/((ret - off) \& (PUD_SIZE - 1)) \&\& famfs_pud_tracked/0 \\&\\& famfs_pud_tracked/|nvdimm-1g:pud|a PUD mapping moved to a non-congruent address: bad pud"
"pud-sync|fs/famfs/super.c|s/rc = famfs_sync_inodes(sb);/rc = 0;/|nvdimm-1g:pud|sync(2) and syncfs(2) write back no GiB stored into through a 1 GiB mapping"
"pud-kill|fs/famfs/pud.c|s/!famfs_pud_mapped(vma, addr))\$/(famfs_pud_mapped(vma, addr) \\&\\& 0))/|nvdimm-1g:pud|a memory failure kills processes that map the file but not the failed page"
"pud-quiesce|fs/famfs/removal.c|/famfs_pud_quiesce(inode);/d|nvdimm-1g:pud|a device removal returns while a PUD fault in flight still maps the device"
"pud-vma-open|fs/famfs/file.c|/\\.open\\s*= famfs_pud_vma_open,/d|nvdimm-1g:pud|mremap() moves a 1 GiB mapping through 6.1's get_old_pud(): 'bad pud', and the old address still reads the memory"
"pud-mix|fs/famfs/file.c|s/ret = (write ? famfs_pud_exclude(vmf) : 0) ?:/ret = 0 ?:/|nvdimm-1g:pud|a GiB mapped whole and in pages at once: the writeback of its DAX entry walks the 1 GiB entry as a page table"
"pud-merge|fs/famfs/file.c|/\\.close\\s*= famfs_pud_vma_close,/d|nvdimm-1g:pud|famfs VMAs merge: mremap() next to a mapping of the GiB before it moves a 1 GiB entry unseen"
)

ref=HEAD keep=0 baseline=1 only=()
while [ $# -gt 0 ]; do
	case $1 in
	-r) ref=$2; shift 2 ;;
	-k) keep=1; shift ;;
	--no-baseline) baseline=0; shift ;;
	--list) for p in "${PLANTS[@]}"; do IFS='|' read -r n f _ t w <<< "$p"; printf '%-18s %-12s %-30s %s\n' "$n" "${t%%:*}" "${t#*:}" "$w"; done; exit 0 ;;
	-h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "planted-bugs: unknown option $1" >&2; exit 2 ;;
	*) only+=("$1"); shift ;;
	esac
done

sel=()
for p in "${PLANTS[@]}"; do
	n=${p%%|*}
	if [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $n "* ]]; then sel+=("$p"); fi
done
for o in "${only[@]}"; do
	printf '%s\n' "${PLANTS[@]}" | grep -q "^$o|" || { echo "planted-bugs: no bug '$o' (--list)" >&2; exit 2; }
done
[ ${#sel[@]} -gt 0 ] || { echo "planted-bugs: nothing to do" >&2; exit 2; }

logs=$repo/results/planted
mkdir -p "$logs"
T=$(mktemp -d /tmp/famfs-planted.XXXXXX)
rmdir "$T"
git -C "$repo" worktree add -q --detach "$T" "$ref" || exit 2
cleanup() {
	if [ $keep = 1 ]; then echo "planted-bugs: kept $T"; return; fi
	git -C "$repo" worktree remove --force "$T" 2>/dev/null || rm -rf "$T"
	git -C "$repo" worktree prune
}
trap cleanup EXIT
echo "planted-bugs: $(git -C "$T" log --oneline -1) in $T" >&2
export FAMFS_QEMU_JOBS=${FAMFS_QEMU_JOBS:-2}

# build LOG: module and tool of the copy (make -j2 all); 1 if it fails
build() { make -C "$T" -j2 all > "$1" 2>&1; }
# run_target TARGET LOG: 0 if every check passed, 1 if any FAILed (or the
# run could not finish), 2 if it did not build
run_target() {
	local kind=${1%%:*} what=${1#*:} rc=0 b
	case $kind in
	unit)
		local bins=()
		for b in ${what//,/ }; do
			make -C "$T/tools/famfs-cli" "build/unit/$b" >> "$2" 2>&1 || return 2
			bins+=("$T/tools/famfs-cli/build/unit/$b")
		done
		"$T/tests/unit/run.sh" "${bins[@]}" >> "$2" 2>&1 || rc=1
		;;
	*)
		build "$2.build" || return 2
		# shellcheck disable=SC2086
		"$T/tests/qemu/run.sh" -p "$kind" ${what//,/ } >> "$2" 2>&1 || rc=1
		;;
	esac
	grep -q '^FAIL ' "$2" && rc=1
	return $rc
}
fails() { grep '^FAIL ' "$1" | head -n "${2:-3}" | sed 's/: .*//; s/^FAIL //' | tr '\n' ' '; }

# Baseline: every target of the selection on the copy as it is.
declare -A base
if [ $baseline = 1 ]; then
	declare -A seen
	for p in "${sel[@]}"; do
		IFS='|' read -r _ _ _ t _ <<< "$p"
		[ -n "${seen[$t]:-}" ] && continue
		seen[$t]=1
		log=$logs/baseline-${t//[:,]/_}.log
		: > "$log"
		echo "planted-bugs: baseline $t" >&2
		run_target "$t" "$log"; base[$t]=$?
	done
fi

declare -a table
bad=0
for p in "${sel[@]}"; do
	IFS='|' read -r n f expr t what <<< "$p"
	log=$logs/$n.log
	: > "$log"
	echo "planted-bugs: $n: $f ($what) -> $t" >&2
	if [ "${base[$t]:-0}" != 0 ]; then
		v="BASELINE-FAIL ($t fails without the bug: $logs/baseline-${t//[:,]/_}.log)"
	else
		cp "$T/$f" "$T/$f.orig"
		sed -i "$expr" "$T/$f"
		if cmp -s "$T/$f" "$T/$f.orig"; then
			v="STALE (the sed expression changes nothing in $f: update the plant)"
		else
			diff -u "$T/$f.orig" "$T/$f" | sed 's/^/plant: /' >> "$log"
			run_target "$t" "$log"
			case $? in
			0) v="MISSED (every check of $t passed: $log)" ;;
			1) v="CAUGHT ($(fails "$log"))" ;;
			*) v="BROKEN (does not build: $log)" ;;
			esac
		fi
		mv "$T/$f.orig" "$T/$f"
		touch "$T/$f"	# rebuilt next time
	fi
	case $v in CAUGHT*) ;; *) bad=1 ;; esac
	table+=("$(printf '%-18s %-22s %s' "$n" "$t" "$v")")
	echo "planted-bugs: $n: ${v%% *}" >&2
done
# leave the copy's module and tool as the tree has them (-k)
[ $keep = 0 ] || build "$logs/final.build" || true

printf '%-18s %-22s %s\n' "planted bug" "caught by" "verdict"
printf '%s\n' "${table[@]}"
n_c=$(printf '%s\n' "${table[@]}" | grep -c ' CAUGHT ')
echo "$n_c of ${#table[@]} planted bugs caught"
exit $bad
