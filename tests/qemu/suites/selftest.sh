# profiles: pmem
# timeout: 20
# selftest: deliberately broken, to prove the harness turns red.  run.sh runs
# it only when it is named (run.sh selftest) or FAMFS_SELFTEST_BREAK is set:
#   FAMFS_SELFTEST_BREAK="fail warn oops hang exit" (any subset; 1 = "fail warn")
# fail: a FAIL line; warn/oops: famfs_selftest.ko WARNs or oopses (panic: no
# end marker); hang: the suite overruns its timeout; exit: it exits non-zero.
# MODE-a / MODE-b (-c, -d): only on that host of a two-hosts (four-hosts)
# profile (run.sh -p two-hosts selftest harness with oops-a shows b's
# sync_wait failing at once).
. "$FAMFS_SRC/tests/qemu/lib.sh"

t_pass started
modes=${FAMFS_SELFTEST_BREAK:-1}
[ "$modes" = 1 ] && modes="fail warn"
ko=$FAMFS_SRC/tests/qemu/selftest/famfs_selftest.ko
for m in $modes; do
	case $m in *-[abcd]) [ "${m##*-}" = "$FAMFS_HOST" ] || continue; m=${m%-?} ;; esac
	case $m in
	fail) t_fail deliberate "FAMFS_SELFTEST_BREAK: this check always fails" ;;
	warn|oops)
		t_ok $m-module-built test -f "$ko"
		insmod "$ko" mode=$m || :	# fails with EAGAIN by design
		;;
	hang) sleep 100000 ;;
	exit) exit 3 ;;
	*) t_fail mode "unknown FAMFS_SELFTEST_BREAK mode '$m'" ;;
	esac
done
