# The small part of suites/bench.sh (issue 30), sourced by it: small files
# (below 2 MiB: 4 KiB pages in shared 2 MiB units) against the same files in
# 2 MiB units (famfs cp/mkfile -T 0, what every file took before issue 30)
# and against busybox cp to ext4 -o dax ($E, slot 2), side by side in one
# boot.  docs/bench-small.md says what each figure is; the report is
# scripts/bench-small.awk (section 8).  Parameters (kernel command line):
#   BENCH_SMALL_N (100)      4 KiB files per timed famfs cp / busybox cp
#   BENCH_SMALL_EXACT (512)  small files of the exact pass (512: one shared
#                            unit exactly, so df's whole-unit "used" is exact too)
#   BENCH_SMALL_UNITS (20)   files of the exact pass in 2 MiB units (-T 0)
#   BENCH_SMALL_LARGE (64M)  the large file whose faults are checked
#   BENCH_SMALL_EXEC (20)    processes per timed process-start loop
# Lines (to $OUT):
#   BENCH small-exact what=small|units n=N total= data= zeroed= filled= log=
#     commit= meta= (FAMFS_DEBUG_STORES of the one famfs cp) used0= used1=
#     pages0= pages1= page_size= (famfs df -j before/after) pmdw= ptew=
#     (fs_dax write faults traced during the cp) slots0= slots1= (log slots)
#   BENCH small-mkfile what=small|units total= data= log= commit= meta=
#   BENCH small-time what=W n=N rep=R ns=NS   (timed; W below)
#   BENCH small-counts ...                   (bench_dax counts, the large file)
# Timed, per repetition, in this order: cp-small (famfs cp of N files),
# cp-ext4 (busybox cp of the same N to ext4 -o dax), cp1-small, cp1-ext4 (one
# file each: the command's fixed cost), cp-units (famfs cp -T 0 of N),
# start-famfs (BENCH_SMALL_EXEC x famfs --version), start-true (the same x
# /bin/true, busybox, static), floor (now; now: the clock's own exec),
# mkfile-small, mkfile-units (one famfs mkfile -s 4K each, -T 0 for units).
SN=${BENCH_SMALL_N:-100}
SX=${BENCH_SMALL_EXACT:-512}
SU=${BENCH_SMALL_UNITS:-20}
SL=$(bytes "${BENCH_SMALL_LARGE:-64M}")
SE=${BENCH_SMALL_EXEC:-20}
SRC=/tmp/smsrc

# small_src DIR N: N files of 4 KiB of random bytes in $SRC/DIR
small_src() {
	mkdir -p $SRC/$1
	_i=0
	while [ $_i -lt "$2" ]; do head -c 4096 /dev/urandom > $SRC/$1/s$_i; _i=$((_i + 1)); done
}
# small_df KEY: a number of famfs df -j (0 when absent: no small files yet)
small_df() { famfs df -j $M | jget "$1" 2>/dev/null || echo 0; }
# small_stores FILE KEY: KEY=value of the FAMFS_DEBUG_STORES line in FILE
small_stores() { sed -n 's/^famfs: stores: //p' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# small_cmp DIR DEST: every source of $SRC/DIR equals its copy in DEST
small_cmp() {
	for _f in $SRC/$1/*; do cmp -s "$_f" "$2/${_f##*/}" || { echo "differs: $2/${_f##*/}"; return 1; }; done
}

# small_exact WHAT OPT N: one famfs cp (OPT: "" or "-T 0") of N files, with
# FAMFS_DEBUG_STORES=1, famfs df before and after, and the fs_dax write
# faults traced
small_exact() {
	_w=$1 _o=$2 _n=$3 _d=$M/x-$1
	famfs mkdir $_d
	_u0=$(small_df .used) _p0=$(small_df .small_files.pages_used) _s0=$(small_df .log.used)
	if trace_have fs_dax/dax_pmd_fault_done fs_dax/dax_pte_fault_done; then
		trace_on fs_dax/dax_pmd_fault_done fs_dax/dax_pte_fault_done
	fi
	FAMFS_DEBUG_STORES=1 famfs cp $_o $SRC/$_w/* $_d/ 2> /tmp/small-stores
	_rc=$?
	trace_off fs_dax/dax_pmd_fault_done fs_dax/dax_pte_fault_done 2>/dev/null
	_pmdw=$(grep 'dax_pmd_fault_done:' $TRACE/trace | grep -c 'WRITE.*NOPAGE')
	_ptew=$(grep 'dax_pte_fault_done:' $TRACE/trace | grep -c 'WRITE')
	: > $TRACE/trace
	cat /tmp/small-stores
	t_eq small-exact-$_w-cp "0 $_n" "$_rc $(ls $_d | wc -l)"
	t_ok small-exact-$_w-bytes small_cmp $_w $_d
	_ps=$(small_df .small_files.page_size)
	log "BENCH small-exact what=$_w n=$_n" \
		"total=$(small_stores /tmp/small-stores total) data=$(small_stores /tmp/small-stores data)" \
		"zeroed=$(small_stores /tmp/small-stores zeroed) filled=$(small_stores /tmp/small-stores filled)" \
		"log=$(small_stores /tmp/small-stores log) commit=$(small_stores /tmp/small-stores commit)" \
		"meta=$(small_stores /tmp/small-stores meta)" \
		"used0=$_u0 used1=$(small_df .used) pages0=$_p0 pages1=$(small_df .small_files.pages_used)" \
		"page_size=${_ps:-4096} pmdw=$_pmdw ptew=$_ptew slots0=$_s0 slots1=$(small_df .log.used)"
}

# st WHAT N T0 T1: one timed figure of repetition $r
st() { log "BENCH small-time what=$1 n=$2 rep=$r ns=$(($4 - $3))"; }

if echo " $PARTS " | grep -q ' small '; then
	t_ok small-mkfs famfs_fresh
	rm -rf $E/*
	rm -rf $SRC
	small_src x $SX; mv $SRC/x $SRC/small
	small_src units $SU
	small_src n $SN
	small_src one 1
	log "BENCH setup small=\"famfs mkfs --loglen 16M ($FAMFS_DEV); small: famfs cp of 4 KiB files (4 KiB pages in shared 2 MiB units); units: famfs cp -T 0 (a 2 MiB unit each); ext4: busybox cp to ext4 -o dax ($BENCH_EXT4_DEV)\""
	log "BENCH small-config n=$SN exact=$SX units=$SU large=$SL exec=$SE reps=$REPS"

	# exact: bytes stored, space, traced write faults
	small_exact small "" "$SX"
	t_eq small-exact-small-data $((SX * 4096)) "$(small_stores /tmp/small-stores data)"
	small_exact units "-T 0" "$SU"
	t_eq small-exact-units-data $((SU * 2 * MiB)) "$(small_stores /tmp/small-stores data)"
	famfs mkdir $M/mk
	for w in small units; do
		o=; [ $w = units ] && o="-T 0"
		FAMFS_DEBUG_STORES=1 famfs mkfile $o -s 4K $M/mk/exact-$w 2> /tmp/small-stores
		t_eq small-mkfile-$w-rc 0 $?
		log "BENCH small-mkfile what=$w total=$(small_stores /tmp/small-stores total)" \
			"data=$(small_stores /tmp/small-stores data) log=$(small_stores /tmp/small-stores log)" \
			"commit=$(small_stores /tmp/small-stores commit) meta=$(small_stores /tmp/small-stores meta)"
	done

	# timed, side by side, every repetition
	r=1
	while [ $r -le "$REPS" ]; do
		famfs mkdir $M/r$r-s $M/r$r-s1 $M/r$r-u
		mkdir -p $E/r$r-n $E/r$r-1
		t0=$(now); famfs cp $SRC/n/* $M/r$r-s/; rc=$?; t1=$(now)
		t_eq small-r$r-cp-small "0 $SN" "$rc $(ls $M/r$r-s | wc -l)"; st cp-small "$SN" "$t0" "$t1"
		t0=$(now); cp $SRC/n/* $E/r$r-n/; rc=$?; t1=$(now)
		t_eq small-r$r-cp-ext4 "0 $SN" "$rc $(ls $E/r$r-n | wc -l)"; st cp-ext4 "$SN" "$t0" "$t1"
		t0=$(now); famfs cp $SRC/one/s0 $M/r$r-s1/; t1=$(now); st cp1-small 1 "$t0" "$t1"
		t0=$(now); cp $SRC/one/s0 $E/r$r-1/; t1=$(now); st cp1-ext4 1 "$t0" "$t1"
		t0=$(now); famfs cp -T 0 $SRC/n/* $M/r$r-u/; rc=$?; t1=$(now)
		t_eq small-r$r-cp-units "0 $SN" "$rc $(ls $M/r$r-u | wc -l)"; st cp-units "$SN" "$t0" "$t1"
		t0=$(now)
		i=0; while [ $i -lt "$SE" ]; do famfs --version > /dev/null; i=$((i + 1)); done
		t1=$(now); st start-famfs "$SE" "$t0" "$t1"
		t0=$(now)
		i=0; while [ $i -lt "$SE" ]; do /bin/true; i=$((i + 1)); done
		t1=$(now); st start-true "$SE" "$t0" "$t1"
		t0=$(now); t1=$(now); st floor 1 "$t0" "$t1"
		t0=$(now); famfs mkfile -s 4K $M/mk/r$r-small; t1=$(now); st mkfile-small 1 "$t0" "$t1"
		t0=$(now); famfs mkfile -T 0 -s 4K $M/mk/r$r-units; t1=$(now); st mkfile-units 1 "$t0" "$t1"
		r=$((r + 1))
	done
	t_ok small-cp-bytes small_cmp n $M/r1-s

	# a large file among the small ones: 2 MiB faults, 512 per GiB
	t_ok small-large-file famfs mkfile -s "$SL" $M/large
	t_eq small-large-aligned 0 $(($(famfs getmap -j $M/large | jget .extents[0].offset) % (2 * MiB)))
	TAG=small- run small-counts-large bench_dax counts -s "$SL" large=$M/large
	grep '^BENCH counts' /tmp/bench.out > /tmp/counts-large
	n=$((SL / (2 * MiB)))
	check_counts small-count-large /tmp/counts-large large "$SL" \
		cold-read:minflt=$n cold-read:pmd_nopage=$n cold-read:pmd_fallback=0 cold-read:pte=0 \
		cold-write:minflt=$n cold-write:pmd_nopage=$n cold-write:pmd_fallback=0 cold-write:pte=0 \
		warm-read:minflt=0 warm-write:minflt=0
	t_ok small-fsck famfs fsck $M
	umount $M
	rm -rf $SRC
fi
