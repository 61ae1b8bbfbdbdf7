#!/usr/bin/env bash
# make bench [QUICK=1]: famfs against raw device-dax (the physical limit) and
# ext4 -o dax (the fs-dax peer), side by side in one guest with six QEMU
# NVDIMMs (tests/qemu/profiles/bench.sh; the fourth is famfs's member device
# in the multidev part, the fifth and sixth are 1 GiB-aligned: device-dax
# with align=1G and famfs with 1 GiB mappings, the pud part), in two boots:
#   bench-icount  -icount shift=0,sleep=off -smp 1: guest time = instructions,
#                 so path lengths (faults, syscalls, metadata) repeat exactly
#   bench         ordinary TCG: real time, alternating targets every 8 MiB
# The guest side is tests/qemu/suites/bench.sh (bench_dax.c does the passes).
# Writes results/bench/: report.txt (tables and what they mean), chart.png,
# raw/{icount,realtime}.txt (the machine-readable BENCH lines).
#
#   scripts/bench.sh            full run: 1 GiB files, 5 real-time and 3 icount
#                               repetitions, metadata up to 100k log entries
#   QUICK=1 scripts/bench.sh    256 MiB, 3 and 2 repetitions, 1k and 10k entries
#   scripts/bench.sh --report   only rebuild the report from results/bench/boots
# Environment: FAMFS_BENCH_OUT (results/bench), FAMFS_BENCH_SIZE,
# FAMFS_BENCH_REPS, FAMFS_BENCH_ICOUNT_REPS, FAMFS_BENCH_PARTS (comma list of
# counts,mmap,rw,fsync,meta,stripe,multidev,nc,scale,pud,small,lifecycle,churn;
# churn is a boot of its own, four guests: tests/qemu/suites/bench-churn.sh
# on four-hosts-churn, BENCH_CHURN_N/_CAP/_IV from the environment),
# FAMFS_BENCH_PROFILES ("bench-icount bench": the churn part's boot is
# not one of them),
# FAMFS_BENCH_LOGFMT (the meta part's mkfs --log-format: compact or v1),
# FAMFS_BENCH_SCALE (the scale part's steps in log entries: 1000,10000,100000;
# QUICK: 1000,10000), FAMFS_BENCH_TOOL_BASE (the commit whose famfs-cli the
# scale part runs as "before", in the same boot; default 69a5698, main when
# issue 17's batch and speed work began; "none": skip),
# FAMFS_BENCH_PUD_SIZE (the pud part's files: 1G), FAMFS_BENCH_PUD_BIG (its
# file mapped in 8 processes: 16G; whole GiBs; the profile sizes its
# devices from them),
# FAMFS_BENCH_BASE (the commit whose famfs.ko the nc part measures as "before
# issue 18"; default: main's parent of the merge that added fs/famfs/cache.c;
# "none": skip), FAMFS_BUILD_ONLY=1 (build what the boots need, boot nothing:
# tests/fresh).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
out=${FAMFS_BENCH_OUT:-$repo/results/bench}
boots=$out/boots
t0=$SECONDS

if [ -n "${QUICK:-}" ] && [ "${QUICK:-0}" != 0 ]; then
	size=${FAMFS_BENCH_SIZE:-256M} reps=${FAMFS_BENCH_REPS:-3} ireps=${FAMFS_BENCH_ICOUNT_REPS:-2}
	meta="BENCH_META_MKFILE=20 BENCH_META_CP=50 BENCH_META_LOG=1000,10000 BENCH_SMALL_N=50 BENCH_LIFE_N=50 BENCH_LIFE_BATCH=10"
	scale=${FAMFS_BENCH_SCALE:-1000,10000}
	mode=quick
else
	size=${FAMFS_BENCH_SIZE:-1G} reps=${FAMFS_BENCH_REPS:-5} ireps=${FAMFS_BENCH_ICOUNT_REPS:-3}
	meta="BENCH_META_MKFILE=100 BENCH_META_CP=300 BENCH_META_LOG=1000,10000,100000 BENCH_SMALL_N=100 BENCH_LIFE_N=100 BENCH_LIFE_BATCH=20"
	scale=${FAMFS_BENCH_SCALE:-1000,10000,100000}
	mode=full
fi
parts=${FAMFS_BENCH_PARTS:-counts,mmap,rw,fsync,meta,stripe,multidev,nc,scale,pud,small,lifecycle,churn}
meta="$meta BENCH_SCALE=$scale BENCH_PUD_SIZE=${FAMFS_BENCH_PUD_SIZE:-1G} BENCH_PUD_BIG=${FAMFS_BENCH_PUD_BIG:-16G}"
profiles=${FAMFS_BENCH_PROFILES:-bench-icount bench}

info() { echo "bench: $*" >&2; }

# The famfs.ko of main before issue 18 (no cache code), for the nc part's
# "coherent costs nothing extra" column: build/bench-base/famfs.ko (+ .rev),
# built from git archive of that commit.  Failing to build it only leaves
# the column empty.
build_base() {
	local rev dir=$repo/build/bench-base
	rm -rf "$dir"
	case ,$parts, in *,nc,*) ;; *) return 0 ;; esac
	[ "${FAMFS_BENCH_BASE:-}" = none ] && return 0
	if [ -n "${FAMFS_BENCH_BASE:-}" ]; then
		rev=$(git -C "$repo" rev-parse --verify -q "$FAMFS_BENCH_BASE^{commit}")
	else
		rev=$(git -C "$repo" log --first-parent --diff-filter=A --format=%H -- fs/famfs/cache.c 2>/dev/null | tail -n 1)
		[ -n "$rev" ] && rev=$(git -C "$repo" rev-parse --verify -q "$rev^1")
	fi
	[ -n "$rev" ] || { info "no commit for the baseline famfs.ko (FAMFS_BENCH_BASE): its column stays empty"; return 0; }
	mkdir -p "$dir/src"
	if git -C "$repo" archive "$rev" | tar -x -C "$dir/src" &&
		make -s -C "$dir/src" module > "$out/build-base.log" 2>&1; then
		cp "$dir/src/fs/famfs/famfs.ko" "$dir/famfs.ko"
		echo "rev $(git -C "$repo" log -1 --format='%h %s' "$rev" | cut -c1-100)" > "$dir/famfs.rev"
		info "baseline famfs.ko: $(cat "$dir/famfs.rev")"
	else
		info "the baseline famfs.ko ($rev) did not build (see $out/build-base.log): its column stays empty"
	fi
	rm -rf "$dir/src"
}

# The famfs-cli of an earlier main for the scale part's "before" column:
# build/bench-base/famfs-cli (+ famfs-cli.rev), built from git archive of
# FAMFS_BENCH_TOOL_BASE.  Failing to build it only leaves the column empty.
build_tool_base() {
	local rev dir=$repo/build/bench-base
	rm -f "$dir/famfs-cli" "$dir/famfs-cli.rev"
	case ,$parts, in *,scale,*) ;; *) return 0 ;; esac
	[ "${FAMFS_BENCH_TOOL_BASE:-}" = none ] && return 0
	rev=$(git -C "$repo" rev-parse --verify -q "${FAMFS_BENCH_TOOL_BASE:-69a5698}^{commit}")
	[ -n "$rev" ] || { info "no commit for the baseline famfs-cli (FAMFS_BENCH_TOOL_BASE): its column stays empty"; return 0; }
	rm -rf "$dir/tsrc"; mkdir -p "$dir/tsrc"
	if git -C "$repo" archive "$rev" | tar -x -C "$dir/tsrc" &&
		make -s -C "$dir/tsrc/tools/famfs-cli" build/famfs-cli > "$out/build-tool-base.log" 2>&1; then
		cp "$dir/tsrc/tools/famfs-cli/build/famfs-cli" "$dir/famfs-cli"
		git -C "$repo" log -1 --format='%h %s' "$rev" | cut -c1-80 > "$dir/famfs-cli.rev"
		info "baseline famfs-cli: $(cat "$dir/famfs-cli.rev")"
	else
		info "the baseline famfs-cli ($rev) did not build (see $out/build-tool-base.log): its column stays empty"
	fi
	rm -rf "$dir/tsrc"
}

run_boots() {
	info "building famfs.ko and famfs-cli"
	if ! make -s module tools > "$out/build.log" 2>&1; then
		info "build failed (see $out/build.log)"
		return 1
	fi
	build_base
	build_tool_base
	local p pargs=() rc
	for p in $profiles; do pargs+=(-p "$p"); done
	if [ "${FAMFS_BUILD_ONLY:-0}" != 0 ]; then
		info "FAMFS_BUILD_ONLY: preparing the guests' build, booting nothing"
		exec tests/qemu/run.sh -b "${pargs[@]}" bench
	fi
	info "$mode run: $size files, $reps real-time and $ireps icount repetitions; profiles: $profiles"
	info "guests run one at a time (each uses one host core); about 7 minutes (QUICK=1: 3) on an idle host"
	uptime > "$out/host-load.txt"
	# One guest at a time: a second guest would steal host CPU from the
	# real-time boot.  -smp 1 is what -icount needs.
	# the parts of the bench profiles' guest (churn is a boot of its own)
	local gparts
	gparts=$(echo ",$parts," | sed 's/,churn,/,/; s/^,//; s/,$//')
	: > "$out/protocol.txt"
	rc=0
	[ -z "$gparts" ] || FAMFS_QEMU_JOBS=1 FAMFS_QEMU_SMP=1 FAMFS_RESULTS=$boots \
		FAMFS_BENCH_ARGS="BENCH_SIZE=$size BENCH_REPS=$reps BENCH_REPS_ICOUNT=$ireps BENCH_PARTS=$gparts $meta${FAMFS_BENCH_LOGFMT:+ BENCH_META_LOGFMT=$FAMFS_BENCH_LOGFMT}" \
		tests/qemu/run.sh "${pargs[@]}" bench > "$out/protocol.txt" || rc=1
	# churn with one and with three followers (issue 29): four guests of
	# their own, after the others (they would share the host's cores)
	case ,$parts, in *,churn,*)
		info "churn part: four guests (four-hosts-churn, suite bench-churn)"
		FAMFS_QEMU_JOBS=1 FAMFS_RESULTS=$boots \
			tests/qemu/run.sh -p four-hosts-churn bench-churn >> "$out/protocol.txt" || rc=1 ;;
	esac
	uptime >> "$out/host-load.txt"
	grep -E '^FAIL ' "$out/protocol.txt" >&2
	info "guest checks: $(grep -c '^PASS ' "$out/protocol.txt") passed, $(grep -c '^FAIL ' "$out/protocol.txt") failed (protocol: $out/protocol.txt)"
	return $rc
}

# ---- the report ------------------------------------------------------------
report() {
	local ic=$boots/bench-icount/bench.txt rt=$boots/bench/bench.txt
	mkdir -p "$out/raw"
	[ -f "$ic" ] && cp "$ic" "$out/raw/icount.txt" || : > "$out/raw/icount.txt"
	[ -f "$rt" ] && cp "$rt" "$out/raw/realtime.txt" || : > "$out/raw/realtime.txt"
	[ -f "$boots/four-hosts-churn/a/bench.txt" ] && cp "$boots/four-hosts-churn/a/bench.txt" "$out/raw/churn.txt" || : > "$out/raw/churn.txt"
	{
		echo "famfs benchmarks: famfs vs raw device-dax vs ext4 -o dax, in QEMU (TCG)"
		echo "generated $(date -u '+%Y-%m-%d %H:%M UTC') by scripts/bench.sh ($mode_done);" \
			"famfs $(git -C "$repo" describe --always --dirty 2>/dev/null)," \
			"$(qemu-system-x86_64 --version | head -n 1)"
		echo "host: $(nproc) CPUs; load before/after: $(sed 's/.*load average: //' "$out/host-load.txt" 2>/dev/null | tr '\n' ';')"
		echo
		: > "$out/chart.dat"
		awk -v CHART="$out/chart.dat" -v ICF="$out/raw/icount.txt" -f "$out/report.awk" -f "$repo/scripts/bench-pud.awk" -f "$repo/scripts/bench-small.awk" -f "$repo/scripts/bench-lifecycle.awk" \
			"$out/raw/icount.txt" "$out/raw/realtime.txt" "$out/raw/churn.txt" ||
			{ echo "bench: report.awk failed: the report is incomplete" | tee /dev/stderr; rc=1; }
		cat <<'EOF'

What the figures mean under emulation
- Exact counts are the kernel's own: getrusage() minor faults, and the
  fs_dax:dax_pmd_fault_done tracepoint (NOPAGE = a 2 MiB mapping was
  installed, FALLBACK = it fell back to 4 KiB pages) plus
  fs_dax:dax_pte_fault_done (one per 4 KiB mapping).  They do not depend on
  the host and are the same in both boots; bench-smoke checks them in make
  check.  device-dax has no fs_dax tracepoint: its faults are getrusage only.
- icount figures: QEMU runs one guest instruction per nanosecond of guest
  time, so a CLOCK_MONOTONIC delta is an instruction count.  They measure
  software path length (fault handlers, syscalls, the famfs tool) and repeat
  to a few instructions; they say nothing about memory or TLB cost, so warm
  passes are 1.000 by construction and a cold pass differs from a warm one
  only by the fault handlers.  "Instructions per 2 MiB fault" is (cold pass -
  warm pass) / faults.  Each figure is the sum over 2 MiB chunks of the
  chunk's minimum over the repetitions, which drops timer ticks and the
  harness's own wake-ups.
- Real-time figures: TCG on a shared host; a guest memory access costs a
  software TLB lookup, so bandwidths are far below hardware and differences
  between 2 MiB and 4 KiB mappings show only in cold passes.  Targets
  alternate every 8 MiB inside each pass so host noise hits them alike; the
  median ratio over the repetitions is the figure to read, min..max its
  spread.  A ratio between about 0.9 and 1.1 means "no difference visible
  here", not a measured 5 % gain or loss.
- Speed ratios are (baseline time) / (target time): 1.000 = as fast as the
  baseline, below 1 = slower.  MB/s are 10^6 bytes per second of guest time.
- Metadata: real time in ms (each famfs command is a process started from
  tmpfs) and instructions under icount.  Every famfs file takes at least one
  2 MiB allocation unit, so the log-size figures use directory entries
  (famfs mkdir), which are log entries without data.
EOF
	} > "$out/report.txt"
	chart
	cat "$out/report.txt"
	info "report: $out/report.txt, chart: $out/chart.png, raw: $out/raw/"
}

chart() {
	command -v gnuplot > /dev/null || { info "no gnuplot: no chart"; return 0; }
	[ -s "$out/chart.dat" ] || { info "no mmap data: no chart"; return 0; }
	local term="png size 1000,900 font ',10'" rtplot= sz
	sz=$(sed -n 's/^BENCH config .* size=\([0-9]*\) .*/\1/p' "$out"/raw/*.txt | head -n 1)
	sz=$(( ${sz:-0} >> 20 )) && sz="$sz MiB" && [ "$sz" != "1024 MiB" ] || sz="1 GiB"
	# the real-time panel only when there are real-time figures
	awk '$5 != "NaN" { f = 1 } END { exit !f }' "$out/chart.dat" && rtplot="set title 'Real time (TCG): median of the repetitions, bars = min..max'
set style histogram errorbars gap 1 lw 1
plot '$out/chart.dat' using 5:6:7:xtic(1) title 'famfs', '' using 8:9:10 title 'ext4-dax', '' using 11:12:13 title 'famfs, 4 KiB pages', 1 notitle lc rgb 'gray' dt 2"
	gnuplot -e 'set terminal' 2>/dev/null | grep -q pngcairo && term="pngcairo size 1000,900 font ',10'"
	gnuplot > "$out/gnuplot.log" 2>&1 <<EOF || info "gnuplot failed (see $out/gnuplot.log)"
set terminal $term
set output '$out/chart.png'
set multiplot layout 2,1 title "mmap passes over a $sz file: famfs and ext4 -o dax relative to raw device-dax (1.0 = as fast as devdax)"
set style data histogram
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key outside right top vertical
set yrange [0:1.15]
set ylabel 'devdax time / target time'
set title "Instruction counts (-icount): software path length, exact"
set style histogram clustered gap 1
plot '$out/chart.dat' using 2:xtic(1) title 'famfs', '' using 3 title 'ext4-dax', '' using 4 title 'famfs, 4 KiB pages', 1 notitle lc rgb 'gray' dt 2
$rtplot
unset multiplot
EOF
}

write_awk() {
	cat > "$out/report.awk" <<'EOF'
# Turns the BENCH lines of the icount boot (first file) and the real-time boot
# (second file) into the tables of report.txt, and chart.dat.
function g17(what, n, before, after, goal, met) {
	printf "  %-38s %9s %16s %-34s %-26s %s\n", what, n, before, after, goal, met
}
function fm(x) { return x == "" ? "-" : (x >= 1e6 ? sprintf("%.2f M", x / 1e6) : sprintf("%.1f k", x / 1e3)) }
function yn(ok) { return ok ? "met" : "NOT met" }
# Issue 17: the cost of metadata operations against the log size, from the
# icount boot; "main" is what docs/benchmarks.md recorded before issue 17.
function goals17(    i, L, e0, a, m, per, emp, lp, ls, bm, bl, cpf, ext) {
	if (!(("ic", "famfs-mkfile-at", 0) in G)) return
	print ""
	print "4b. Issue 17 goals (icount: guest instructions, kernel included; main = 2b32b32 in the same setup, * = an older main, docs/benchmarks.md)"
	printf "  %-38s %9s %16s %-34s %-26s %s\n", "figure", "entries", "main", "now", "goal", "met"
	e0 = G["ic", "famfs-mkfile-at", 0]
	g17("mkfile, new process, empty log", 0, "7.14 M", fm(e0), "-", "")
	bm[1000] = "18.9 M"; bm[10000] = "109 M *"; bm[100000] = "~1.2 G (extrap.)"
	bl[1000] = "25.4 k"; bl[10000] = "20.0 k *"
	mm[1000] = "112.9 k"; mm[10000] = "54.3 k *"
	split("1000 10000 100000", L, " ")
	for (i = 1; i <= 3; i++) {
		n = L[i] + 0
		if ((("ic", "famfs-mkfile-at", n - 1) in G)) {
			a = G["ic", "famfs-mkfile-at", n - 1]
			g17("mkfile, new process, at N", n - 1, bm[n], fm(a) sprintf(" (%.2fx)", a / e0), "<= 2x empty (" fm(2 * e0) ")", yn(a <= 2 * e0))
		}
	}
	for (i = 1; i <= 3; i++) {
		n = L[i] + 0
		if (!(("ic", "famfs-mount", n) in G)) continue
		m = G["ic", "famfs-mount", n]; per = m / n
		emp = G["ic", "empty", LL["ic", "famfs-mount", n]]
		g17("mount per entry (" LL["ic", "famfs-mount", n] " log)", n, (n in mm ? mm[n] : "-"), fm(per) (emp != "" ? " (" fm((m - emp) / n) " over empty)" : ""), "<= 30 k", yn(per <= 30000))
	}
	for (i = 1; i <= 3; i++) {
		n = L[i] + 0
		if (!(("ic", "famfs-logplay-noop", n) in G)) continue
		per = G["ic", "famfs-logplay-noop", n] / n
		g17("logplay nothing to do, per entry", n, (n in bl ? bl[n] : "-"), fm(per), "<= 10 k", yn(per <= 10000))
	}
	if ((("ic", "famfs-mount", 100000) in G) && (("ic", "famfs-mount", 10000) in G)) {
		lp = G["ic", "famfs-mount", 100000] / G["ic", "famfs-mount", 10000]
		g17("mount time 100k / 10k", "-", "-", sprintf("%.2fx", lp), "<= 11x (linear)", yn(lp <= 11))
	}
	if ((("ic", "famfs-logplay", 100000) in G) && (("ic", "famfs-logplay", 10000) in G)) {
		ls = G["ic", "famfs-logplay", 100000] / G["ic", "famfs-logplay", 10000]
		g17("logplay (re-create) 100k / 10k", "-", "-", sprintf("%.2fx", ls), "<= 11x (linear)", "(info)")
	}
	if (("ic", "famfs-cp") in CP) {
		cpf = CP["ic", "famfs-cp"] / CPN["ic", "famfs-cp"]
		ext = (("ic", "ext4-cp") in CP) ? CP["ic", "ext4-cp"] / CPN["ic", "ext4-cp"] : ""
		g17("famfs cp, per 4 KiB file", CPN["ic", "famfs-cp"] " files", "2.94 M", fm(cpf), "<= 0.2 M", yn(cpf <= 200000))
		if (ext != "") g17("(busybox cp to ext4 -o dax, per file)", CPN["ic", "ext4-cp"] " files", "0.152 M", fm(ext), "reference", "")
	}
	print "  mount per entry: the whole mount divided by the entries (in brackets: above an empty mount of the same"
	print "  log size). mkfile at N: N-1 directories made by famfs mkdir, then one file."
}
# Issue 17 at scale (the scale part): before -> after, from the icount boot.
# SC[what, tool, step] = ns, SE[...] = entries in the log then, SN[...] = items
function sc17(what, tool, step) { return ((what, tool, step) in SC) ? SC[what, tool, step] : "" }
function ba(b, a) { return sprintf("%s -> %s", fm(b), fm(a)) }
function per17(what, tool, step, by,    v) {
	v = sc17(what, tool, step)
	if (v == "") return ""
	return v / (by == "n" ? SN[what, tool, step] : SE[what, tool, step])
}
function scale17(    i, st, w, t, c0, cs, r, m10, m100) {
	if (!nsteps) return
	print ""
	print "4c. Issue 17 at scale: before -> after (icount: guest instructions, kernel included; one famfs with a"
	print "    32 MiB log, entries = directories made by famfs mkdir batches + the files below; before = " (SCB != "" ? SCB : "not built")
	printf "  %9s  %-26s %-26s %-26s %-26s\n", "entries", "create, new process", "mount, per entry", "logplay no-op, per entry", "cp, per 4 KiB file"
	for (i = 0; i <= nsteps; i++) {
		st = (i == 0) ? 0 : STEP[i]
		if (i == 0) {
			printf "  %9s  %-26s\n", "empty", ba(sc17("create", "before", 0), sc17("create", "after", 0))
			continue
		}
		printf "  %9s  %-26s %-26s %-26s %-26s\n", st,
			ba(sc17("create", "before", st), sc17("create", "after", st)),
			ba(per17("mount", "before", st, "e"), per17("mount", "after", st, "e")),
			ba(per17("logplay-noop", "before", st, "e"), per17("logplay-noop", "after", st, "e")),
			ba(per17("cp", "before", st, "n"), per17("cp", "after", st, "n"))
	}
	print "  ratios (before -> after; goal):"
	for (i = 1; i <= nsteps; i++) {
		st = STEP[i]; r = ""
		for (t = 1; t <= 2; t++) {
			w = t == 1 ? "before" : "after"
			c0 = sc17("create", w, 0); cs = sc17("create", w, st)
			r = r (t == 2 ? " -> " : "") (c0 != "" && cs != "" ? sprintf("%.2fx", cs / c0) : "-")
		}
		printf "    create at %s entries / create at an empty log: %s (goal <= 2x)\n", st, r
	}
	for (t = 1; t <= 2; t++) {
		w = t == 1 ? "before" : "after"
		m10 = sc17("mount", w, 10000); m100 = sc17("mount", w, 100000)
		r = (m10 != "" && m100 != "") ? sprintf("%.2fx", m100 / m10) : "-"
		printf "    mount (whole replay) at 100k / at 10k entries, %s: %s (goal <= 11x, linear)\n", w, r
	}
	if (sc17("mkdir-xargs", "after", 0) != "")
		printf "  famfs mkdir of 200 directories through xargs, per directory: %s; famfs mkfile of 20 files in one command, per file: %s (one process per file: the create above)\n", ba(per17("mkdir-xargs", "before", 0, "n"), per17("mkdir-xargs", "after", 0, "n")), fm(per17("mkfile-batch", "after", 0, "n"))
	if (sc17("mkdir-batch", "after", STEP[nsteps]) != "")
		printf "  famfs mkdir through xargs (2000 per command), per directory, last step: %s\n", fm(per17("mkdir-batch", "after", STEP[nsteps], "n"))
	print "  mount: umount, then famfs mount (a whole replay) divided by the entries; cp: one famfs cp of the files."
	loglen17()
}
# A large log on a small file system (two files): each figure at every log
# size, and the worst of each over the smallest log (goal: no slower, 1.1x)
function loglen17(    i, j, w, line, r, worst, W, WN) {
	if (!nll) return
	print ""
	print "4d. A large log on a small file system (icount, minimum of 3 runs; two 4 KiB files; famfs mkfs --loglen L):"
	line = sprintf("  %-34s", "")
	for (j = 1; j <= nll; j++) line = line sprintf(" %12s", LLS[j])
	print line sprintf(" %10s", "max / " LLS[1])
	split("mount-empty create-first create logplay-noop mount", W, " ")
	split("mount, empty log|first create (summary built)|create|logplay, nothing to do|mount, two files", WN, "|")
	worst = 0
	for (i = 1; i <= 5; i++) {
		w = W[i]; line = sprintf("  %-34s", WN[i])
		r = 0
		for (j = 1; j <= nll; j++) {
			line = line sprintf(" %12s", fm(LLN[w, LLS[j]]))
			if (LLN[w, LLS[1]] && LLN[w, LLS[j]] / LLN[w, LLS[1]] > r)
				r = LLN[w, LLS[j]] / LLN[w, LLS[1]]
		}
		if (r > worst) worst = r
		print line sprintf(" %9.2fx", r)
	}
	printf "  goal: a much larger log (1M entries: 256M) does not slow a small file system down (<= 1.1x): %s (worst %.2fx)\n", yn(worst > 0 && worst <= 1.1), worst
}
function kv(    i, k, v) {
	delete F
	for (i = 3; i <= NF; i++) {
		k = index($i, "=")
		if (!k) continue
		v = substr($i, k + 1)
		F[substr($i, 1, k - 1)] = (v ~ /^[0-9]+$/) ? v + 0 : v
	}
}
function sortn(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
}
function median(a, n) {
	sortn(a, n)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function hsize(b) {
	if (b % 1073741824 == 0) return (b / 1073741824) " GiB"
	if (b % 1048576 == 0) return (b / 1048576) " MiB"
	if (b % 1048576 == 4096) return int(b / 1048576) " MiB+4 KiB"
	if (b % 1048576 == 1048576 - 4096) return int(b / 1048576 + 1) " MiB-4 KiB"
	if (b % 1024 == 0) return (b / 1024) " KiB"
	return b " B"
}
function hbs(b) { b += 0; return (b >= 1048576) ? (b / 1048576) " MiB" : (b / 1024) " KiB" }
function or_dash(v) { return v == "" ? "-" : v }
# The stripe and multidev parts: targets t1 and t2 side by side (speed = t1 / t2)
function pair_have(t1) { return (("ic", t1, "cold-read") in smin) || (("rt", t1, "cold-read") in smn) }
function pair(t1, t2,    i, p, s1, s2, m, q, med, rtl, b, o, bs, op, k1, k2, r1, r2) {
	printf "   %-11s %14s %14s %8s   %-26s\n", "mmap pass", "icount " t1, t2, "speed", "real time: speed median [min..max]"
	for (i = 1; i <= 4; i++) {
		p = pass[i]; s1 = smin["ic", t1, p]; s2 = smin["ic", t2, p]; rtl = "-"
		m = smn["rt", t1, p]
		if (m && smn["rt", t2, p] == m) {
			for (q = 1; q <= m; q++) a[q] = smv["rt", t1, p, q] / smv["rt", t2, p, q]
			med = median(a, m); rtl = sprintf("%.3f [%.3f..%.3f]", med, a[1], a[m])
		}
		printf "   %-11s %14s %14s %8s   %s\n", p, or_dash(s1), or_dash(s2), ratio(s1, s2), rtl
	}
	if (!snbs["ic"]) return
	printf "   %-7s %-6s %18s %14s %8s\n", "request", "op", "instr/req " t1, t2, "speed"
	for (b = 1; b <= snbs["ic"]; b++) for (o = 0; o < 2; o++) {
		bs = sbsl["ic", b]; op = o ? "write" : "read"
		k1 = "ic" SUBSEP t1 SUBSEP bs SUBSEP op; k2 = "ic" SUBSEP t2 SUBSEP bs SUBSEP op
		if (!srops[k1] || !srops[k2]) continue
		r1 = srmin[k1] / srops[k1]; r2 = srmin[k2] / srops[k2]
		printf "   %-7s %-6s %18.0f %14.0f %8s\n", hbs(bs), op, r1, r2, ratio(r1, r2)
	}
}
function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.3f", a / b) : "-" }
function mbps(bytes, ns) { return ns > 0 ? sprintf("%.0f", bytes / ns * 1000) : "-" }
FNR == 1 { src = (FILENAME == ICF) ? "ic" : "rt" }
$1 != "BENCH" { next }
$2 == "config" { kv(); cfg[src] = $0; reps[src] = F["reps"]; size = F["size"]; next }
$2 == "setup" { l = substr($0, 13); if (!(l in seen)) { seen[l] = 1; setup[++nsetup] = l }; next }
$2 == "counts" {
	kv(); k = F["target"] SUBSEP F["size"] SUBSEP F["pass"]
	v = F["minflt"] " " or_dash(F["pmd_nopage"]) " " or_dash(F["pmd_fallback"]) " " or_dash(F["pte"])
	if (!(k in cnt)) { cnt[k] = v; corder[++ncnt] = k }
	else if (cnt[k] != v) cdiff[k] = v
	next
}
$2 == "mmap" {
	kv(); t = F["target"]; p = F["pass"]
	if (F["rep"] == 0) flt[src, t, p] = F["minflt"]
	n = ++mn[src, t, p]; mv[src, t, p, n] = F["ns"]
	next
}
$2 == "mmap-min" { kv(); mmin[src, F["target"], F["pass"]] = F["ns"]; next }
$2 == "rw" {
	kv(); k = src SUBSEP F["target"] SUBSEP F["bs"] SUBSEP F["op"]
	n = ++rn[k]; rv[k, n] = F["ns"]; rops[k] = F["ops"]; rsize[src] = F["size"]
	if (!((src, F["bs"]) in bseen)) { bseen[src, F["bs"]] = 1; bsl[src, ++nbs[src]] = F["bs"] }
	next
}
$2 == "rw-min" { kv(); rmin[src, F["target"], F["bs"], F["op"]] = F["ns"]; next }
$2 ~ /^nc-(coherent|noncoherent|base)-rw-min$/ {
	kv(); m = $2; sub(/^nc-/, "", m); sub(/-rw-min$/, "", m)
	if (F["op"] != "read" || !F["ops"]) next
	ncm[src, m, F["bs"]] = F["ns"] / F["ops"]; ncsz[src] = F["size"]; ncrep[src] = F["reps"]
	if (!((src, F["bs"]) in ncbseen)) { ncbseen[src, F["bs"]] = 1; ncbs[src, ++nncbs[src]] = F["bs"] }
	next
}
# the stripe and multidev parts: their own target names, the same arrays
$2 ~ /^(stripe|multidev)-mmap$/ { kv(); n = ++smn[src, F["target"], F["pass"]]; smv[src, F["target"], F["pass"], n] = F["ns"]; next }
$2 ~ /^(stripe|multidev)-mmap-min$/ { kv(); smin[src, F["target"], F["pass"]] = F["ns"]; psize[F["target"]] = F["size"]; next }
$2 ~ /^(stripe|multidev)-rw-min$/ {
	kv(); k = src SUBSEP F["target"] SUBSEP F["bs"] SUBSEP F["op"]; srmin[k] = F["ns"]; srops[k] = F["ops"]
	if (!((src, F["bs"]) in sbseen)) { sbseen[src, F["bs"]] = 1; sbsl[src, ++snbs[src]] = F["bs"] }
	next
}
$2 ~ /^(stripe|multidev)-/ { next }
$2 == "fsync" {
	kv(); k = src SUBSEP F["target"]; n = ++fn[k]
	fs[k, n] = F["fsync_ns"]; fs2[k, n] = F["fsync2_ns"]; fcl[k, n] = F["fsync_clean_ns"]
	frf[k] = F["rewrite_minflt"]; fdf[k] = F["dirty_minflt"]; fsz = F["size"]
	next
}
$2 == "scale-setup" && src == "ic" { SCB = $0; sub(/.* before="/, "", SCB); sub(/"$/, "", SCB); next }
$2 == "scale" && src == "ic" {
	kv(); k = F["what"] SUBSEP F["tool"] SUBSEP F["step"]
	SC[k] = F["ns"]; SE[k] = F["entries"]; SN[k] = F["n"]
	if (F["step"] > 0 && !(F["step"] in stepseen)) { stepseen[F["step"]] = 1; STEP[++nsteps] = F["step"] }
	next
}
$2 == "scale-loglen" && src == "ic" {
	kv(); k = F["what"] SUBSEP F["loglen"]
	if (!(k in LLN) || F["ns"] < LLN[k]) LLN[k] = F["ns"]
	if (!(F["loglen"] in llseen)) { llseen[F["loglen"]] = 1; LLS[++nll] = F["loglen"] }
	next
}
$2 == "scale" || $2 == "scale-setup" || $2 == "scale-loglen" { next }
$2 == "open" { kv(); k = src SUBSEP F["target"]; n = ++on[k]; ov[k, n] = F["ns"] / F["ops"]; next }
$2 == "meta" {
	kv(); extra = $0; sub(/.* ns=[0-9]+ ?/, "", extra)
	# issue 17's figures: by operation and log entries; cp per file
	if ("entries" in F) G[src, F["what"], F["entries"] + 0] = F["ns"]
	if ("entries" in F && F["what"] == "famfs-mount-empty") G[src, "empty", F["loglen"]] = F["ns"]
	if ("loglen" in F) LL[src, F["what"], F["entries"] + 0] = F["loglen"]
	if (F["what"] ~ /^(famfs|ext4)-cp$/) { CP[src, F["what"]] = F["ns"]; CPN[src, F["what"]] = F["n"] }
	k = F["what"] SUBSEP F["n"] SUBSEP extra
	if (!(k in mseen)) { mseen[k] = 1; morder[++nmeta] = k }
	mns[src, k] = F["ns"]
	next
}
END {
	pass[1] = "cold-read"; pass[2] = "warm-read"; pass[3] = "cold-write"; pass[4] = "warm-write"
	tg[1] = "devdax"; tg[2] = "famfs"; tg[3] = "ext4"; tg[4] = "famfs-4k"
	print "Setup (QEMU NVDIMMs in one guest: four memfd-backed, share=on, prealloc=on, and for the pud part two"
	print "1 GiB-aligned ones, sparse files on tmpfs, share=on; guest 1 CPU, 2 GiB RAM;"
	print "vm.dirty_writeback_centisecs=0; the benchmark pinned to CPU 0; the same file size on every target):"
	for (i = 1; i <= nsetup; i++) print "  " setup[i]
	if ("ic" in cfg) { c = cfg["ic"]; sub(/^BENCH config /, "", c); print "  icount boot:    " c }
	if ("rt" in cfg) { c = cfg["rt"]; sub(/^BENCH config /, "", c); print "  real-time boot: " c }

	# ---- 1. exact counts
	if (ncnt) {
		print ""
		print "1. Exact fault counts per pass (cold = first touch of a fresh shared mapping; warm = the same mapping again)"
		print "   faults = getrusage minor faults; (2M/fb/4K) = fs_dax tracepoints: PMD NOPAGE / PMD FALLBACK / PTE faults"
		printf "%-10s %-13s %-21s %-7s %-21s %-7s %10s\n", "target", "file size", "cold read", "warm", "cold write", "warm", "cold"
		printf "%-10s %-13s %-21s %-7s %-21s %-7s %10s\n", "", "", "faults (2M/fb/4K)", "read", "faults (2M/fb/4K)", "write", "faults/GiB"
		for (i = 1; i <= ncnt; i++) {
			split(corder[i], a, SUBSEP)
			if (a[3] != "cold-read") continue
			k = a[1] SUBSEP a[2] SUBSEP
			line = sprintf("%-10s %-13s", a[1], hsize(a[2]))
			split("cold-read warm-read cold-write warm-write", pp, " ")
			for (j = 1; j <= 4; j++) {
				split(cnt[k pp[j]], cv, " ")
				if (j % 2) line = line sprintf(" %-21s", cv[1] (cv[2] == "-" ? "" : " (" cv[2] "/" cv[3] "/" cv[4] ")"))
				else line = line sprintf(" %-7s", cv[1])
			}
			split(cnt[k "cold-read"], cv, " ")
			print line sprintf(" %10s", (a[1] ~ /-odd$/) ? "-" : sprintf("%.0f", cv[1] * 1073741824 / a[2]))
		}
		nd = 0; for (k in cdiff) nd++
		if (("ic" in cfg) && ("rt" in cfg))
			print (nd ? "  WARNING: " nd " count(s) differ between the two boots" : "  (identical in the icount and the real-time boot)")
		print "  -odd: the file ends inside a 2 MiB unit: that unit's PMD fault falls back (the PMD would reach past"
		print "  EOF) and each of its 4 KiB pages below EOF then faults alone (64 MiB-4 KiB: 511 pages; +4 KiB: 1)."
		print "  -4k: the same file with madvise(MADV_NOHUGEPAGE), for scale.  ext4 -odd files are preallocated in"
		print "  whole 2 MiB units, then truncated (allocated at their own size, ext4 started them unaligned and every"
		print "  fault fell back to 4 KiB)."
	}

	# ---- 2. icount
	if (("ic", "devdax", "cold-read") in mmin) {
		print ""
		print "2. Instruction counts (-icount shift=0,sleep=off -smp 1), mmap passes over " hsize(size) ", " reps["ic"] " repetitions"
		printf "%-11s %13s %13s %13s %13s   %-26s %10s\n", "", "instructions", "", "", "", "speed vs devdax", "speed"
		printf "%-11s %13s %13s %13s %13s   %6s %8s %8s   %10s\n", "pass", "devdax", "famfs", "ext4-dax", "famfs-4k", "famfs", "ext4-dax", "famfs-4k", "famfs/ext4"
		for (i = 1; i <= 4; i++) {
			p = pass[i]; d = mmin["ic", "devdax", p]; f = mmin["ic", "famfs", p]; e = mmin["ic", "ext4", p]; k4 = mmin["ic", "famfs-4k", p]
			printf "%-11s %13d %13d %13d %13s   %6s %8s %8s   %10s\n", p, d, f, e, or_dash(k4), ratio(d, f), ratio(d, e), ratio(d, k4), ratio(e, f)
			icr[p, "famfs"] = ratio(d, f); icr[p, "ext4"] = ratio(d, e); icr[p, "famfs-4k"] = ratio(d, k4)
		}
		print "  (instructions per pass; speed = baseline instructions / target instructions; famfs-4k = the famfs"
		print "  file mapped with MADV_NOHUGEPAGE, 4 KiB faults, for scale)"
		print "  instructions per fault, (cold pass - warm pass) / faults:"
		for (j = 1; j <= 4; j++) {
			t = tg[j]
			if (!flt["ic", t, "cold-read"]) continue
			r = mmin["ic", t, "cold-read"] - mmin["ic", t, "warm-read"]
			w = mmin["ic", t, "cold-write"] - mmin["ic", t, "warm-write"]
			printf "    %-9s read %6.0f (%d faults), write %6.0f (%d faults)\n", t, r / flt["ic", t, "cold-read"], flt["ic", t, "cold-read"], w / flt["ic", t, "cold-write"], flt["ic", t, "cold-write"]
		}
	}
	if (nbs["ic"]) {
		print ""
		print "   read()/write(), " hsize(rsize["ic"]) " per pass, famfs vs ext4-dax (instructions per request)"
		printf "   %-7s %-6s %14s %14s %12s\n", "request", "op", "famfs", "ext4-dax", "famfs/ext4"
		for (b = 1; b <= nbs["ic"]; b++) for (o = 0; o < 2; o++) {
			bs = bsl["ic", b]; op = o ? "write" : "read"
			f = rmin["ic", "famfs", bs, op] / rops["ic", "famfs", bs, op]; e = rmin["ic", "ext4", bs, op] / rops["ic", "ext4", bs, op]
			printf "   %-7s %-6s %14.0f %14.0f %12s\n", hbs(bs), op, f, e, ratio(e, f)
		}
	}
	if (fn["ic", "famfs"]) {
		print ""
		print "   fsync() after dirtying all of a " hsize(fsz) " shared mapping (instructions, min of " fn["ic", "famfs"] ")"
		printf "   %-9s %14s %14s %16s %16s\n", "target", "fsync", "fsync (clean)", "faults to dirty", "faults to rewrite"
		for (j = 2; j <= 3; j++) {
			t = tg[j]; k = "ic" SUBSEP t; n = fn[k]
			for (q = 1; q <= n; q++) a[q] = fs[k, q]; sortn(a, n); m1 = a[1]
			for (q = 1; q <= n; q++) a[q] = fcl[k, q]; sortn(a, n); m2 = a[1]
			printf "   %-9s %14d %14d %16d %16d\n", t, m1, m2, fdf[k], frf[k]
			fsm[t] = m1
		}
		print "   famfs/ext4 fsync speed: " ratio(fsm["ext4"], fsm["famfs"]) "; fsync write-protects every 2 MiB entry, so the next write pass faults again."
	}

	# ---- 3. real time
	if (("rt", "devdax", "cold-read") in mn) {
		n = mn["rt", "devdax", "cold-read"]
		print ""
		print "3. Real time (TCG), mmap passes over " hsize(size) ", " n " repetitions, targets alternating every 8 MiB"
		printf "%-11s %7s %7s %7s %7s   %-21s %-21s %-21s\n", "pass", "devdax", "famfs", "ext4", "famfs4k", "famfs/devdax", "ext4/devdax", "famfs-4k/devdax"
		printf "%-11s %7s %7s %7s %7s   %-21s %-21s %-21s\n", "", "MB/s", "MB/s", "MB/s", "MB/s", "median [min..max]", "median [min..max]", "median [min..max]"
		for (i = 1; i <= 4; i++) {
			p = pass[i]; line = sprintf("%-11s", p)
			for (j = 1; j <= 4; j++) {
				t = tg[j]; m = mn["rt", t, p]
				for (q = 1; q <= m; q++) a[q] = mv["rt", t, p, q]
				line = line sprintf(" %7s", m ? mbps(size, median(a, m)) : "-")
			}
			line = line "  "
			for (j = 2; j <= 4; j++) {
				t = tg[j]; m = mn["rt", t, p]
				if (!m) { line = line sprintf(" %-21s", "-"); continue }
				for (q = 1; q <= m; q++) a[q] = mv["rt", "devdax", p, q] / mv["rt", t, p, q]
				med = median(a, m)
				line = line sprintf(" %-21s", sprintf("%.3f [%.3f..%.3f]", med, a[1], a[m]))
				rtr[p, t] = sprintf("%.4f %.4f %.4f", med, a[1], a[m])
			}
			print line
		}
	}
	# chart.dat: pass; icount famfs ext4 famfs-4k; real time (median min max) famfs, ext4, famfs-4k
	for (i = 1; i <= 4; i++) {
		p = pass[i]; l = p
		for (j = 2; j <= 4; j++) l = l " " (((p, tg[j]) in icr && icr[p, tg[j]] != "-") ? icr[p, tg[j]] : "NaN")
		for (j = 2; j <= 4; j++) l = l " " (((p, tg[j]) in rtr) ? rtr[p, tg[j]] : "NaN NaN NaN")
		if ((("ic", "devdax", p) in mmin) || (("rt", "devdax", p) in mn)) print l > CHART
	}
	if (nbs["rt"]) {
		print ""
		print "   read()/write(), " hsize(rsize["rt"]) " per pass (median MB/s; famfs/ext4 speed median [min..max])"
		printf "   %-7s %-6s %9s %9s   %s\n", "request", "op", "famfs", "ext4-dax", "famfs/ext4"
		for (b = 1; b <= nbs["rt"]; b++) for (o = 0; o < 2; o++) {
			bs = bsl["rt", b]; op = o ? "write" : "read"; kf = "rt" SUBSEP "famfs" SUBSEP bs SUBSEP op; ke = "rt" SUBSEP "ext4" SUBSEP bs SUBSEP op
			n = rn[kf]
			for (q = 1; q <= n; q++) a[q] = rv[kf, q]; mf = median(a, n)
			for (q = 1; q <= n; q++) a[q] = rv[ke, q]; me = median(a, n)
			for (q = 1; q <= n; q++) a[q] = rv[ke, q] / rv[kf, q]; med = median(a, n)
			printf "   %-7s %-6s %9s %9s   %.3f [%.3f..%.3f]\n", hbs(bs), op, mbps(rsize["rt"], mf), mbps(rsize["rt"], me), med, a[1], a[n]
		}
	}
	if (fn["rt", "famfs"]) {
		print ""
		printf "   fsync() after dirtying " hsize(fsz) ", ms median [min..max]:"
		for (j = 2; j <= 3; j++) {
			t = tg[j]; k = "rt" SUBSEP t; n = fn[k]
			for (q = 1; q <= n; q++) a[q] = fs[k, q] / 1e6
			printf "  %s %.2f [%.2f..%.2f];", t, median(a, n), a[1], a[n]
		}
		print ""
	}

	# ---- 4. metadata
	if (nmeta || on["rt", "famfs"] || on["ic", "famfs"]) {
		print ""
		print "4. Metadata (famfs tool started from tmpfs for each command; ext4 lines use busybox for reference)"
		printf "%-19s %6s %-24s %11s %11s %9s %13s %12s\n", "operation", "items", "detail", "real ms", "real us/it", "items/s", "instructions", "instr/item"
		for (i = 1; i <= nmeta; i++) {
			split(morder[i], a, SUBSEP); n = a[2] + 0
			r = mns["rt", morder[i]]; c = mns["ic", morder[i]]
			printf "%-19s %6d %-24s %11s %11s %9s %13s %12s\n", a[1], n, a[3], (r != "" ? sprintf("%.1f", r / 1e6) : "-"), (r != "" ? sprintf("%.1f", r / n / 1e3) : "-"), (r > 0 ? sprintf("%.0f", n / (r / 1e9)) : "-"), (c != "" ? c : "-"), (c != "" ? sprintf("%.0f", c / n) : "-")
		}
		for (j = 2; j <= 3; j++) {
			t = tg[j]; kr = "rt" SUBSEP t; kc = "ic" SUBSEP t; r = c = ""
			if (on[kr]) { for (q = 1; q <= on[kr]; q++) a[q] = ov[kr, q]; r = median(a, on[kr]) }
			if (on[kc]) { for (q = 1; q <= on[kc]; q++) a[q] = ov[kc, q]; sortn(a, on[kc]); c = a[1] }
			printf "%-19s %6s %-24s %11s %11s %9s %13s %12s\n", t "-open+close", "20000", "median of reps", "-", (r != "" ? sprintf("%.1f", r / 1e3) : "-"), (r != "" ? sprintf("%.0f", 1e9 / r) : "-"), "-", (c != "" ? sprintf("%.0f", c) : "-")
		}
		print "  items: files, directories or log entries handled by the one command (mount/logplay: log entries)."
		print "  famfs-mkfile: one famfs process per file; famfs-mkfile-32M zeroed=yes|no: 32 MiB files, zeroed before"
		print "  they are logged (the default) or not (-Z): the difference is the cost of zeroing;"
		print "  famfs-cp: one process for all files; famfs-mkdir-xargs:"
		print "  directories via xargs famfs mkdir; famfs-mkfile-at: one more file created when the log holds that many"
		print "  entries; famfs-logplay: the directories were removed locally, then famfs logplay re-created them all;"
		print "  famfs-logplay-noop: everything present; famfs-mount includes the replay (every mount replays the log)."
	}

	goals17()
	scale17()

	# ---- 5. interleaved files
	if (pair_have("simple")) {
		print ""
		print "5. Interleaved against simple famfs files, " hsize(psize["simple"]) " each: simple = one extent (famfs mkfile),"
		print "   striped16 = 16 strips of 2 MiB chunks (famfs creat -N 16 -C 2M); speed = simple / striped16"
		pair("simple", "striped16")
		print "  Both files fault 2 MiB at a time (section 1: simple, striped16).  A striped offset costs a binary"
		print "  search over the file's extents and one division by the chunk and strip count (O(1) per fault/request)."
	}

	# ---- 5b. striped over two devices
	if (pair_have("1dev")) {
		print ""
		print "5b. A file striped over two devices against the same layout on one (issue 16), " hsize(psize["1dev"]) " each:"
		print "   two strips of 2 MiB chunks; 2dev: famfs mkfile -N 2 (strip 1 on member 1), 1dev: the same with"
		print "   --device 0 (both strips on the primary); speed = 1dev / 2dev"
		pair("1dev", "2dev")
		print "  Both fault 2 MiB at a time (section 1: 1dev, 2dev; 512 per GiB, checked).  Under TCG both devices are"
		print "  host memory: this is the path length of an offset on a member, not what a second device buys."
	}

	# ---- 6. noncoherent read()
	for (q = 1; q <= 2; q++) {
		s = q == 1 ? "ic" : "rt"
		if (!nncbs[s]) continue
		print ""
		if (s == "ic") {
			print "6. read() on a noncoherent famfs mount against a coherent one (issue 18): instructions per read()"
			print "   (-icount), one famfs file of " hsize(ncsz[s]) " read with pread(), min over " ncrep[s] " repetitions per 2 MiB chunk"
		} else {
			print "   The same in real time (TCG, noisy: ns per read(), min over " ncrep[s] " repetitions per 8 MiB chunk)"
		}
		printf "   %-7s %12s %12s %9s %11s   %16s %12s %9s\n", "request", "coherent", "noncoherent", "nc/coh", "nc extra", "before issue 18", "coherent", "coh/base"
		for (b = 1; b <= nncbs[s]; b++) {
			bs = ncbs[s, b]; c = ncm[s, "coherent", bs]; n = ncm[s, "noncoherent", bs]; bb = ncm[s, "base", bs]
			printf "   %-7s %12.0f %12.0f %9s %+11.0f   %16s %12.0f %9s\n", hbs(bs), c, n,
				(c > 0 ? sprintf("%.3f", n / c) : "-"), n - c,
				(bb > 0 ? sprintf("%.0f", bb) : "-"), c, (bb > 0 ? sprintf("%.4f", c / bb) : "-")
		}
		if (s == "ic") {
			print "   nc/coh: instructions of a noncoherent read() / a coherent one (1.000 = no cost); nc extra: the"
			print "   difference per read(): the invalidation of the bytes about to be copied (one clflush per 64-byte line"
			print "   and its loop; icount counts a clflush as one instruction, so on hardware, where a flushed line must"
			print "   come from memory, the real cost is larger).  before issue 18: the same reads of the same file under the"
			print "   famfs.ko of main before issue 18 (no cache code), loaded in the same boot; coh/base = 1.000 means the"
			print "   coherent mode costs nothing measurable (\"-\": that module was not built).  The famfs:famfs_cache"
			print "   tracepoint counts the whole file in noncoherent mode and nothing in coherent mode (PASS nc-*-traced)."
		}
	}

	pud7()	# scripts/bench-pud.awk
	small8()	# scripts/bench-small.awk
	life9()	# scripts/bench-lifecycle.awk
}
EOF
}

mkdir -p "$out"
rc=0
if [ "${1:-}" = --report ]; then
	mode_done=$(cat "$out/mode" 2>/dev/null || echo "?")
else
	case ${1:-} in
	'') ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	rm -rf "$boots"
	run_boots || rc=1
	mode_done="$mode, $((SECONDS - t0)) s"
	echo "$mode_done" > "$out/mode"
fi
write_awk
report
info "took $((SECONDS - t0)) s"
exit $rc
