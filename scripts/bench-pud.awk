# scripts/bench.sh's report, section 7: 1 GiB (PUD) mappings (issue 31), from
# the lines of suites/bench.sh's pud part ("BENCH pud-..."); awk runs it after
# report.awk (scripts/bench.sh writes that one): its rules see each line after
# report.awk's, and report.awk's END calls pud7().  Uses report.awk's kv(),
# hsize(), ratio(), mbps(), median(), fm(), or_dash() and its arrays pass[] and cfg[].
# the pud part (issue 31): its own arrays
$2 == "pud-config" { kv(); pudcfg = 1; pudsize = F["size"]; pudbig = F["big"]; pudprocs = F["procs"]; next }
$2 == "pud-counts" {
	kv(); k = F["target"] SUBSEP F["pass"]
	v = F["minflt"] " " or_dash(F["pud_nopage"]) " " or_dash(F["pud_fallback"]) " " or_dash(F["pmd_nopage"]) " " or_dash(F["pmd_fallback"]) " " or_dash(F["pte"])
	if (!(k in ucnt)) ucnt[k] = v
	else if (ucnt[k] != v) udiff[k] = v
	next
}
$2 == "pud-mmap" { kv(); n = ++umn[src, F["target"], F["pass"]]; umv[src, F["target"], F["pass"], n] = F["ns"]; if (F["rep"] == 0) uflt[src, F["target"], F["pass"]] = F["minflt"]; next }
$2 == "pud-mmap-min" { kv(); umin[src, F["target"], F["pass"]] = F["ns"]; ureps[src] = F["reps"]; next }
$2 == "pud-fault" { kv(); ufault[src, F["target"], F["op"]] = F["min_ns"] - F["again_min_ns"]; ufreps[src] = F["reps"]; next }
$2 == "pud-share" {
	kv(); k = src SUBSEP F["placement"]
	ush[k] = 1
	for (f in F) ushf[k, f] = F[f]
	next
}
$2 ~ /^pud-/ { next }
# Section 7: 1 GiB (PUD) mappings (issue 31), from the pud part's lines.
# ucount TARGET PASS [BRIEF]: "faults (PUD NOPAGE/FALLBACK, PMD NOPAGE/FALLBACK, PTE)"
function ucount(t, p, brief,    v, c) {
	if (!((t, p) in ucnt)) return "-"
	split(ucnt[t, p], c, " ")
	return c[1] (c[2] == "-" || brief ? "" : " (" c[2] "/" c[3] ", " c[4] "/" c[5] ", " c[6] ")")
}
function pud7(    i, j, t, p, c, d, f, m, r, w, q, med, line, gb, k, fl, u, nb, s, n, nd) {
	if (!pudcfg) return
	utg[1] = "devdax-1g"; utg[2] = "famfs-1g"; utg[3] = "famfs-2m"
	gb = pudsize / 1073741824
	print ""
	print "7. 1 GiB (PUD) mappings (issue 31), " hsize(pudsize) " files: famfs-1g = a famfs file on a GiB boundary (famfs mkfile"
	print "   --align 1g: 1 GiB faults); devdax-1g = device-dax with align=1G (the physical limit at that page size);"
	print "   famfs-2m = the same size placed --align none, at no GiB boundary (2 MiB faults); the same kind of memory"
	print "   (1 GiB-aligned NVDIMMs), the passes of all three in one bench_dax run"
	print "   Exact counts per pass: faults (PUD NOPAGE/FALLBACK, PMD NOPAGE/FALLBACK, PTE); device-dax: getrusage only"
	printf "   %-10s %-24s %-6s %-24s %-6s %10s\n", "target", "cold read", "warm", "cold write", "warm", "faults/GiB"
	for (j = 1; j <= 3; j++) {
		t = utg[j]
		if (!((t, "cold-read") in ucnt)) continue
		split(ucnt[t, "cold-read"], c, " ")
		printf "   %-10s %-24s %-6s %-24s %-6s %10s\n", t, ucount(t, "cold-read"), ucount(t, "warm-read", 1),
			ucount(t, "cold-write"), ucount(t, "warm-write", 1), sprintf("%.0f", c[1] / gb)
	}
	nd = 0; for (k in udiff) nd++
	if (("ic" in cfg) && ("rt" in cfg))
		print (nd ? "   WARNING: " nd " count(s) differ between the two boots" : "   (identical in the icount and the real-time boot)")
	print "   famfs-2m: each GiB's first fault asks famfs for 1 GiB (FALLBACK: the extent is not 1 GiB-aligned), then 512"
	print "   faults of 2 MiB.  Goal: 1 fault per GiB for famfs-1g (checked by the suite and by bench-smoke)."
	if (("ic", "famfs-1g", "cold-read") in umin) {
		print ""
		print "   Instructions per GiB (-icount), mmap passes, min per 2 MiB chunk over " ureps["ic"] " repetitions; speed = baseline / target"
		printf "   %-11s %13s %13s %13s   %-28s %-28s\n", "pass", "devdax-1g", "famfs-1g", "famfs-2m", "famfs-1g vs devdax-1g", "famfs-1g vs famfs-2m"
		for (i = 1; i <= 4; i++) {
			p = pass[i]; d = umin["ic", "devdax-1g", p]; f = umin["ic", "famfs-1g", p]; m = umin["ic", "famfs-2m", p]
			line = sprintf("   %-11s %13.0f %13.0f %13.0f   %-28s %-28s", p, d / gb, f / gb, m / gb,
				ratio(d, f) (p ~ /^cold/ && d > 0 && f > 0 ? (d / f >= 0.99 ? " (goal >= 0.99: met)" : " (goal >= 0.99: NOT met)") : ""),
				ratio(m, f) (p ~ /^cold/ && m > 0 && f > 0 ? (m / f > 1 ? " (goal > 1: met)" : " (goal > 1: NOT met)") : ""))
			print line
		}
		print "   Goals (issue 31): famfs-1g within 1 % of devdax-1g (speed >= 0.99) and ahead of famfs-2m (speed > 1),"
		print "   cold read and cold write.  icount counts instructions only: a TLB miss costs nothing here, so the"
		print "   gain of 1 GiB mappings shown is the fault work alone (511 faults per GiB fewer).  A pass's own noise"
		print "   (a timer tick in a chunk in every repetition) is a few thousand instructions: famfs-1g and devdax-1g"
		print "   are equal to within it."
		fl = uflt["ic", "famfs-2m", "cold-read"]; w = uflt["ic", "famfs-2m", "cold-write"]
		if (fl && w)
			printf "   famfs-2m, instructions per 2 MiB fault ((cold pass - warm pass) / faults): read %.0f (%d), write %.0f (%d)\n",
				(umin["ic", "famfs-2m", "cold-read"] - umin["ic", "famfs-2m", "warm-read"]) / fl, fl,
				(umin["ic", "famfs-2m", "cold-write"] - umin["ic", "famfs-2m", "warm-write"]) / w, w
	}
	if (("ic", "famfs-1g", "read") in ufault) {
		print ""
		print "   The first fault of a fresh mapping alone (bench_dax fault: one load or store at offset 0, minus the same"
		print "   access again; instructions, min of " ufreps["ic"] "):"
		printf "   %-7s %11s %11s %11s\n", "op", "devdax-1g", "famfs-1g", "famfs-2m"
		for (i = 0; i < 2; i++) {
			p = i ? "write" : "read"
			printf "   %-7s %11s %11s %11s\n", p, ufault["ic", "devdax-1g", p], ufault["ic", "famfs-1g", p], ufault["ic", "famfs-2m", p]
		}
		print "   devdax-1g and famfs-1g: one 1 GiB fault; famfs-2m: famfs declines the 1 GiB fault (its extent is not on a"
		print "   GiB boundary), then one 2 MiB fault (the fs/dax.c path), which also allocates and zeroes the PMD table"
		print "   page of its GiB; the other 511 faults of that GiB cost what the passes above say."
	}
	if (("rt", "famfs-1g", "cold-read") in umn) {
		print ""
		n = umn["rt", "famfs-1g", "cold-read"]
		print "   Real time (TCG), " n " repetitions, targets alternating every 8 MiB: MB/s median; speed median [min..max]"
		printf "   %-11s %9s %9s %9s   %-24s %-24s\n", "pass", "devdax-1g", "famfs-1g", "famfs-2m", "famfs-1g vs devdax-1g", "famfs-1g vs famfs-2m"
		for (i = 1; i <= 4; i++) {
			p = pass[i]; line = sprintf("   %-11s", p)
			for (j = 1; j <= 3; j++) {
				t = utg[j]; m = umn["rt", t, p]
				for (q = 1; q <= m; q++) a[q] = umv["rt", t, p, q]
				line = line sprintf(" %9s", m ? mbps(pudsize, median(a, m)) : "-")
			}
			line = line "  "
			for (j = 1; j <= 2; j++) {
				u = (j == 1) ? "devdax-1g" : "famfs-2m"; m = umn["rt", u, p]
				if (!m || umn["rt", "famfs-1g", p] != m) { line = line sprintf(" %-24s", "-"); continue }
				for (q = 1; q <= m; q++) a[q] = umv["rt", u, p, q] / umv["rt", "famfs-1g", p, q]
				med = median(a, m)
				line = line sprintf(" %-24s", sprintf("%.3f [%.3f..%.3f]", med, a[1], a[m]))
			}
			print line
		}
	}
	for (q = 1; q <= 2; q++) {
		s = (q == 1) ? "ic" : "rt"
		if (!((s, "auto") in ush)) continue
		nb = ushf[s, "auto", "size"] / 1073741824
		print ""
		print "   Mapping a " hsize(ushf[s, "auto", "size"]) " file in " ushf[s, "auto", "procs"] " processes (" (s == "ic" ? "icount boot" : "real-time boot") "): each maps it shared and reads one byte"
		print "   per 2 MiB, one process after the other; 1 GiB = where famfs maps it (one PUD fault per GiB);"
		print "   2 MiB = the same file mapped 2 MiB past a GiB boundary (so no GiB of it can be mapped whole, as a 2 MiB-aligned"
		print "   placement generally is: famfs before issue 31, thp_get_unmapped_area())"
		printf "   %-8s %9s %-22s %-22s %-26s %-24s\n", "mapping", "faults", "traced: PUD/PMD", "page tables added", "PageTables (meminfo)", (s == "ic" ? "instructions per process" : "ms per process")
		for (j = 1; j <= 2; j++) {
			w = (j == 1) ? "auto" : "offset"; k = s SUBSEP w
			if (!(k in ush)) continue
			r = ushf[k, "vmpte_kb_after"] - ushf[k, "vmpte_kb_before"]
			printf "   %-8s %9s %-22s %-22s %-26s %-24s\n", (j == 1 ? "1 GiB" : "2 MiB"), ushf[k, "minflt"],
				ushf[k, "pud_nopage"] " (" ushf[k, "pud_fallback"] " fb) / " ushf[k, "pmd_nopage"],
				sprintf("%d kB (%d pages)", r, r / 4),
				sprintf("%d -> %d kB (%+d)", ushf[k, "pagetables_kb_before"], ushf[k, "pagetables_kb_after"], ushf[k, "pagetables_kb_after"] - ushf[k, "pagetables_kb_before"]),
				(s == "ic" ? fm(ushf[k, "ns"] / ushf[k, "procs"]) : sprintf("%.1f", ushf[k, "ns"] / ushf[k, "procs"] / 1e6))
		}
		print "   faults: getrusage minor faults of all processes; page tables added: VmPTE (/proc/PID/status: the page-table"
		print "   pages of a process) summed over the processes, after the reads minus before: exact.  PageTables: the guest's"
		print "   /proc/meminfo, machine-wide (other processes move it by a few pages; 6.1 counts no PUD table page in it)."
	}
}
