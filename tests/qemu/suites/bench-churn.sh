# timeout: 900
# Benchmark, four hosts (issue 29, second half of make bench's lifecycle
# part): no "profiles" header on purpose (never part of make check);
# scripts/bench.sh runs it on four-hosts-churn (part churn), or
#   tests/qemu/run.sh -p four-hosts-churn bench-churn
# The master, a, churns on a file system that holds CAP files of 2 MiB at
# once (a ballast file takes the rest, sized from famfs df): create c/f<i>,
# and once LIVE (CAP / 2) newer ones exist remove the oldest, so the
# memory of removed files must be reclaimed for the churn to go on.  Two
# phases of N creates each, side by side in one boot:
#   1  one follower: b (famfs mount, famfs logplay --follow -i IV); c and
#      d have not mounted (no slot in the host table: they hold nothing)
#   2  three followers: c and d mount and follow too
# Lines (to $FAMFS_OUT/bench.txt and stdout):
#   BENCH churn-config n=N cap=CAP live=LIVE iv=MS fsize=BYTES
#   BENCH churn-phase followers=F ops=OPS creates=C removes=R waits=W cs=CENTISECONDS entries=E
#       (ops: creates + removes; waits: creates that found the device full
#       and tried again; entries: log entries the phase appended)
#   BENCH churn-reuse followers=F create=IDX del=IDX reclaim=IDX dt_cs=CS missed=K pass_cs=CS
#       one per create that got memory a removed file had: its FILE entry,
#       the DELETE of the last file that had that memory, the RECLAIM that
#       freed it, and the centiseconds from the end of that famfs rm to the
#       start of the famfs mkfile that reused it; missed: the master's
#       passes (one in each famfs rm) after the DELETE's own that did not
#       free it, pass_cs: from the end of the DELETE's famfs rm to the
#       start of the famfs rm whose pass freed it (- when a create's pass,
#       for want of room, did)
# Environment (kernel command line): BENCH_CHURN_N (40), BENCH_CHURN_CAP
# (8), BENCH_CHURN_IV (follow interval, ms: 100).
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
N=${BENCH_CHURN_N:-40}
CAP=${BENCH_CHURN_CAP:-8}
LIVE=$((CAP / 2))
IV=${BENCH_CHURN_IV:-100}
FSIZE=2097152
WAIT=60
OUTF=${FAMFS_OUT:-/tmp}/bench.txt
mkdir -p $M
famfs_loaded || exit 0

cs() { read -r _u _ < /proc/uptime; _i=${_u%.*}; _f=${_u#*.}; echo "$((_i * 100 + 1${_f} - 100))"; }
blog() { echo "$*" >> "$OUTF"; echo "$*"; }
lognext() { famfs-reclaim-test log $M | tail -n 1 | cut -d' ' -f1; }

# churn FOLLOWERS FIRST LAST: creates FIRST..LAST, each op's times in /tmp/ops
churn() {
	_f=$1 _i=$2 _made=0 _rm=0 _waits=0
	_e0=$(lognext); _t0=$(cs)
	while [ $_i -le $3 ]; do
		_w=0 _s=$(cs)
		until _o=$(famfs mkfile -s $FSIZE $M/c/f$_i 2>&1); do
			if ! echo "$_o" | grep -q 'full\|No space' || [ $((($(cs) - _s) / 100)) -ge $WAIT ]; then
				t_fail churn$_f-create-$_i "$(echo "$_o" | tail -n 2 | tr '\n' ' ')"
				return 1
			fi
			[ $_w = 0 ] && _waits=$((_waits + 1))
			_w=1; sleep 0.1
		done
		echo "create $_i $_s $(cs)" >> /tmp/ops
		_made=$((_made + 1))
		if [ $_i -gt $LIVE ]; then
			_s=$(cs)
			famfs rm $M/c/f$((_i - LIVE)) || { t_fail churn$_f-rm-$((_i - LIVE)) "famfs rm failed"; return 1; }
			echo "rm $((_i - LIVE)) $_s $(cs)" >> /tmp/ops
			_rm=$((_rm + 1))
		fi
		_i=$((_i + 1))
	done
	_t1=$(cs); _e1=$(lognext)
	blog "BENCH churn-phase followers=$_f ops=$((_made + _rm)) creates=$_made removes=$_rm waits=$_waits cs=$((_t1 - _t0)) entries=$((_e1 - _e0)) first=$2 last=$3"
}

if [ "$FAMFS_HOST" = a ]; then
	rm -f /tmp/ops
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_rc hosts-init 0 famfs hosts init $M
	t_rc mkdir 0 famfs mkdir $M/c
	free=$(famfs df -j $M | jget .free)
	ballast=$((free - CAP * FSIZE))
	[ "$ballast" -gt 0 ] && t_rc ballast 0 famfs mkfile -s $ballast $M/ballast
	t_eq holds-cap $((CAP * FSIZE)) "$(famfs df -j $M | jget .free)"
	blog "BENCH churn-config n=$N cap=$CAP live=$LIVE iv=$IV fsize=$FSIZE"
	sync_post churn-a-ready
	sync_wait churn-following-b 240 b || exit 0
	churn 1 1 $N || exit 0
	sync_post churn-phase2
	sync_wait churn-following-c 240 c || exit 0
	sync_wait churn-following-d 240 d || exit 0
	churn 3 $((N + 1)) $((2 * N)) || exit 0
	t_rc fsck 0 famfs fsck $M
	# reuse: each create whose memory a removed file had (its first
	# extent's offset), against that file's DELETE and the RECLAIM that
	# named it
	famfs-reclaim-test log $M > /tmp/log
	awk -v N=$N -v OPS=/tmp/ops '
		BEGIN {
			while ((getline l < OPS) > 0) {
				split(l, a, " ")
				if (a[1] == "create") cstart[a[2]] = a[3]
				else { rmend[a[2]] = a[4]; rmstart[a[2]] = a[3] }
			}
		}
		$2 == "RECLAIM" { for (i = 3; i <= NF; i++) recl[$i] = $1; next }
		$2 == 1 && $3 ~ /^c\/f/ {
			split($4, x, ":"); off = x[1] ":" x[2]; f = substr($3, 4)
			if ((off in owner) && (off in gone)) {
				d = gone[off]; o = owner[off]; r = (d in recl) ? recl[d] : ""
				# the rm whose pass appended r: the last DELETE before it
				miss = 0; by = ""
				for (k = 1; k <= nd; k++)
					if (dl[k] > d && r != "" && dl[k] < r) { miss++; by = df[k] }
				pc = "-"
				if (by != "" && r == dl[kof[by]] + 1) { miss--; pc = rmstart[by] - rmend[o] }
				printf "BENCH churn-reuse followers=%d create=%d del=%d reclaim=%s dt_cs=%d missed=%d pass_cs=%s\n",
					f + 0 <= N ? 1 : 3, $1, d, r == "" ? "-" : r, cstart[f] - rmend[o], miss, pc
			}
			owner[off] = f; delete gone[off]; at[f] = off
			next
		}
		$2 == 5 && $3 ~ /^c\/f/ {
			f = substr($3, 4); if (f in at) gone[at[f]] = $1
			dl[++nd] = $1; df[nd] = f; kof[f] = nd
		}
	' /tmp/log > /tmp/reuse
	cat /tmp/reuse >> "$OUTF"; cat /tmp/reuse
	t_ok reuse-seen [ -s /tmp/reuse ]
	sync_post churn-a-done
	t_peers client-checks churn-checked 300
	t_ok umount umount_retry
	exit 0
fi

# b, c, d: mount and follow (c and d only for phase 2)
sync_wait churn-a-ready 240 a || exit 0
[ "$FAMFS_HOST" = b ] || sync_wait churn-phase2 900 a || exit 0
t_rc client-mount 0 famfs mount $DEV $M
famfs logplay --follow -i $IV $M > /tmp/follow.out 2>&1 &
FP=$!
sync_post churn-following-$FAMFS_HOST
sync_wait churn-a-done 900 a || exit 0
t_ok client-umount umount_retry
_n=0
while kill -0 $FP 2>/dev/null && [ $_n -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
kill -0 $FP 2>/dev/null && kill -KILL $FP
sync_post_verdict churn-checked-$FAMFS_HOST
exit 0
