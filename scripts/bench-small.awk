# scripts/bench.sh's report, section 8: small files (issue 30), from the lines
# of the small part (tests/qemu/suites/bench/small.sh, "BENCH small-...");
# awk runs it after report.awk and bench-pud.awk (scripts/bench.sh writes
# report.awk): its rules see each line after theirs, and report.awk's END
# calls small8().  Uses report.awk's kv(), fm(), median(), sortn(), yn() and
# src ("ic" for the icount boot, "rt" for the real-time one).
# docs/bench-small.md says what each figure is.
$2 == "small-config" { kv(); sfcfg[src] = 1; sfn = F["n"]; sfexec = F["exec"]; sflarge = F["large"]; next }
$2 == "small-exact" {
	kv(); k = F["what"]
	v = ""
	for (f in F) { sfx[src, k, f] = F[f]; v = v " " f "=" F[f] }
	sfxl[src, k] = 1
	next
}
$2 == "small-mkfile" { kv(); for (f in F) sfm[src, F["what"], f] = F[f]; next }
$2 == "small-time" {
	kv(); sfr = F["rep"] + 0
	sft[src, F["what"], sfr] = F["ns"]; sftn[src, F["what"], sfr] = F["n"]
	if (sfr > sfreps[src]) sfreps[src] = sfr
	next
}
$2 == "small-counts" {
	kv(); k = F["pass"]
	sfc[src, k] = F["minflt"] " " F["pmd_nopage"] " " F["pmd_fallback"] " " F["pte"]
	sfcsize = F["size"]
	next
}
$2 ~ /^small-/ { next }

# sfv(S, W, R): the timed figure W of repetition R, the clock's own floor
# (now; now) of that repetition taken off
function sfv(s, w, r,    v, f) {
	if (!((s, w, r) in sft)) return ""
	v = sft[s, w, r]; f = ((s, "floor", r) in sft) ? sft[s, "floor", r] : 0
	return v - f
}
# sfper(S, W, PER): W per item (PER "n": divided by its n; "exec": by
# BENCH_SMALL_EXEC; "1": whole), min over the repetitions (icount) or
# median (real time); "" if not measured
function sfper(s, w, per,    r, n, v, a) {
	n = 0
	for (r = 1; r <= sfreps[s]; r++) {
		v = sfv(s, w, r)
		if (v == "") continue
		a[++n] = v / (per == "n" ? sftn[s, w, r] : per == "exec" ? sfexec : 1)
	}
	if (!n) return ""
	if (s == "ic") { sortn(a, n); return a[1] }
	return median(a, n)
}
# sfmarg(S, W, W1): per file beyond the first: (W(N) - W1(1)) / (N - 1),
# per repetition, min (icount) or median (real time)
function sfmarg(s, w, w1,    r, n, a, v, v1) {
	n = 0
	for (r = 1; r <= sfreps[s]; r++) {
		v = sfv(s, w, r); v1 = sfv(s, w1, r)
		if (v == "" || v1 == "" || sftn[s, w, r] < 2) continue
		a[++n] = (v - v1) / (sftn[s, w, r] - 1)
	}
	if (!n) return ""
	if (s == "ic") { sortn(a, n); return a[1] }
	return median(a, n)
}
# sfrat(S, A, B, PA, PB): per repetition A/B (each per PA/PB), "med [min..max]"
# and sfrmed the median
function sfrat(s, wa, wb, pa, pb,    r, n, a, x, y) {
	n = 0
	for (r = 1; r <= sfreps[s]; r++) {
		x = sfv(s, wa, r); y = sfv(s, wb, r)
		if (x == "" || y == "" || y <= 0) continue
		x /= (pa == "n" ? sftn[s, wa, r] : pa == "exec" ? sfexec : 1)
		y /= (pb == "n" ? sftn[s, wb, r] : pb == "exec" ? sfexec : 1)
		a[++n] = x / y
	}
	if (!n) { sfrmed = ""; return "-" }
	sfrmed = median(a, n)
	return sprintf("%.2f [%.2f..%.2f]", sfrmed, a[1], a[n])
}
function sfb(x) { return x == "" ? "-" : sprintf("%.0f", x) }
function sfk(x) { return x == "" ? "-" : sprintf("%.2f KiB", x / 1024) }
function sfms(x) { return x == "" ? "-" : sprintf("%.2f ms", x / 1e6) }
# sfby(V, GOAL): "met" or "NOT met (V/GOAL x, +V-GOAL)"
function sfby(v, goal, unit) {
	if (v == "" || goal == "") return "not measured"
	if (v <= goal) return "met"
	return sprintf("NOT met: %.2fx the goal (%s over)", v / goal, unit == "k" ? sfk(v - goal) : unit == "M" ? fm(v - goal) : sprintf("%.2f", v - goal))
}
function small8(    s, x, n, w, d, sl, pg, sp, us, wf, cpi, exi, st, tr, p, c, i, nb, good, xa, ka, nd, k) {
	s = (("ic", "small") in sfxl) ? "ic" : (("rt", "small") in sfxl) ? "rt" : ""
	if (s == "" && !sfreps["ic"] && !sfreps["rt"]) return
	print ""
	print "8. Small files (issue 30): famfs cp of 4 KiB files as small files (4 KiB pages in shared 2 MiB units)"
	print "   against the same files in 2 MiB units (famfs cp -T 0: what every file took before issue 30) and"
	print "   busybox cp to ext4 -o dax, side by side in one boot (suites/bench/small.sh; docs/bench-small.md)"
	if (s != "") {
		print ""
		print "   Exact, per new 4 KiB file (" (s == "ic" ? "icount boot" : "real-time boot") "; counts, not times): one famfs cp of N files, FAMFS_DEBUG_STORES=1"
		printf "   %-48s %16s %16s\n", "", "small", "2 MiB units"
		printf "   %-48s %16s %16s\n", "files in the one famfs cp (N)", sfx[s, "small", "n"], sfx[s, "units", "n"]
		for (i = 1; i <= 2; i++) {
			w = i == 1 ? "small" : "units"; n = sfx[s, w, "n"]
			if (!n) continue
			d[w] = (sfx[s, w, "data"] + sfx[s, w, "meta"]) / n
			sl[w] = (sfx[s, w, "log"] + sfx[s, w, "commit"]) / n
			pg[w] = (sfx[s, w, "pages1"] - sfx[s, w, "pages0"]) * sfx[s, w, "page_size"] / n
			us[w] = (sfx[s, w, "used1"] - sfx[s, w, "used0"]) / n
			sp[w] = (sfx[s, w, "slots1"] - sfx[s, w, "slots0"]) / n
			wf[w] = (sfx[s, w, "pmdw"] * 2097152 + sfx[s, w, "ptew"] * 4096) / n
		}
		printf "   %-48s %16s %16s\n", "bytes stored into shared memory: data + meta", sfb(d["small"]), sfb(d["units"])
		printf "   %-48s %16s %16s\n", "  data zeroed / filled (per file)", sfb(sfx[s, "small", "zeroed"] / sfx[s, "small", "n"]) " / " sfb(sfx[s, "small", "filled"] / sfx[s, "small", "n"]),
			sfb(sfx[s, "units", "zeroed"] / sfx[s, "units", "n"]) " / " sfb(sfx[s, "units", "filled"] / sfx[s, "units", "n"])
		printf "   %-48s %16s %16s\n", "  meta: superblock, master beat (whole command)", sfb(sfx[s, "small", "meta"]), sfb(sfx[s, "units", "meta"])
		printf "   %-48s %16s %16s\n", "log: entry slots + 8-byte commit", sfb(sl["small"]), sfb(sl["units"])
		printf "   %-48s %16s %16s\n", "  log slots taken (famfs df .log.used)", sprintf("%.2f", sp["small"]), sprintf("%.2f", sp["units"])
		printf "   %-48s %16s %16s\n", "space: small-file pages used x page size (df)", sfb(pg["small"]), "-"
		printf "   %-48s %16s %16s\n", "space: df used (a shared unit counted whole)", sfb(us["small"]), sfb(us["units"])
		printf "   %-48s %16s %16s\n", "traced: memory write-faulted in (fs_dax, B/file)", sfb(wf["small"]), sfb(wf["units"])
		printf "   %-48s %16s %16s\n", "  PMD / PTE write faults (whole command)", sfx[s, "small", "pmdw"] " / " sfx[s, "small", "ptew"], sfx[s, "units", "pmdw"] " / " sfx[s, "units", "ptew"]
		if ((s, "small", "total") in sfm)
			printf "   %-48s %16s %16s\n", "famfs mkfile -s 4K, one process: bytes stored", sfb(sfm[s, "small", "total"]), sfb(sfm[s, "units", "total"])
		print "   data + meta: FAMFS_DEBUG_STORES's data (zeroed + filled) and meta bytes, divided by N; log: its log and"
		print "   commit bytes.  traced: the fs_dax PMD (2 MiB) and PTE (4 KiB) write faults during the cp, the tool's"
		print "   log mapping included: an independent upper bound of the memory the data stores went to."
		if (("ic", "small") in sfxl && ("rt", "small") in sfxl) {
			nd = 0
			for (k in sfx) { split(k, xa, SUBSEP); if (xa[1] == "ic" && sfx[k] != sfx["rt", xa[2], xa[3]]) nd++ }
			print (nd ? "   WARNING: " nd " exact figure(s) differ between the two boots" : "   (identical in the icount and the real-time boot)")
		}
	}

	# timed
	for (c = 1; c <= 2; c++) {
		st = c == 1 ? "ic" : "rt"
		if (!sfreps[st]) continue
		print ""
		if (st == "ic")
			print "   Instructions (icount boot, min over " sfreps[st] " repetitions; the clock's own exec, \"now; now\", taken off each figure)"
		else
			print "   Real time (TCG, median over " sfreps[st] " repetitions, the clock's own exec taken off each figure)"
		printf "   %-56s %14s\n", "figure", st == "ic" ? "instructions" : "time"
		split("cp-small:n:famfs cp of " sfn " small files, per file|cp-ext4:n:busybox cp of the same to ext4 -o dax, per file|cp-units:n:famfs cp -T 0 of the same (2 MiB units), per file|cp1-small:1:famfs cp of 1 small file (a command's fixed cost)|cp1-ext4:1:busybox cp of 1 file|start-famfs:exec:famfs --version, per process|start-true:exec:/bin/true (busybox, static), per process|mkfile-small:1:famfs mkfile -s 4K (small), one process|mkfile-units:1:famfs mkfile -T 0 -s 4K (2 MiB unit), one process", tr, "|")
		for (i = 1; i in tr; i++) {
			split(tr[i], p, ":")
			x = sfper(st, p[1], p[2])
			printf "   %-56s %14s\n", p[3], st == "ic" ? fm(x) : sfms(x)
			sfT[st, p[1]] = x
		}
		x = sfmarg(st, "cp-small", "cp1-small"); sfT[st, "marg-small"] = x
		printf "   %-56s %14s\n", "famfs cp, per file beyond the first ((N files - 1) / (N-1))", st == "ic" ? fm(x) : sfms(x)
		x = sfmarg(st, "cp-ext4", "cp1-ext4"); sfT[st, "marg-ext4"] = x
		printf "   %-56s %14s\n", "busybox cp, per file beyond the first", st == "ic" ? fm(x) : sfms(x)
		printf "   ratios, per repetition (median [min..max]): famfs cp / busybox cp per file %s; small / 2 MiB units %s;\n",
			sfrat(st, "cp-small", "cp-ext4", "n", "n"), sfrat(st, "cp-small", "cp-units", "n", "n")
		sfR[st, "cp"] = sfrat(st, "cp-small", "cp-ext4", "n", "n"); sfRM[st, "cp"] = sfrmed
		sfR[st, "start"] = sfrat(st, "start-famfs", "start-true", "exec", "exec"); sfRM[st, "start"] = sfrmed
		sfR[st, "mkfile"] = sfrat(st, "mkfile-small", "mkfile-units", "1", "1"); sfRM[st, "mkfile"] = sfrmed
		printf "   famfs --version / /bin/true %s; mkfile small / 2 MiB unit %s\n", sfR[st, "start"], sfR[st, "mkfile"]
	}

	# the large file
	if (("ic", "cold-read") in sfc || ("rt", "cold-read") in sfc) {
		c = (("ic", "cold-read") in sfc) ? "ic" : "rt"
		print ""
		printf "   A large file among the small ones (famfs mkfile -s %s, after them): faults per pass, minflt (2M/fb/4K)\n", hsize(sfcsize)
		for (i = 1; i <= 4; i++) {
			split(sfc[c, pass[i]], xa, " ")
			printf "     %-11s %s (%s/%s/%s)\n", pass[i], xa[1], xa[2], xa[3], xa[4]
		}
		split(sfc[c, "cold-read"], xa, " ")
		nb = xa[1] * 1073741824 / sfcsize
		split(sfc[c, "cold-write"], ka, " ")
		good = nb == 512 && ka[1] * 1073741824 / sfcsize == 512 && xa[3] == 0 && xa[4] == 0 && ka[3] == 0 && ka[4] == 0
	}

	# goals
	print ""
	print "   Goals (issue 30):"
	if (s != "") {
		printf "   - bytes stored per new 4 KiB file <= 8 KiB plus its log slot: %s + %s (log): %s\n", sfb(d["small"]), sfb(sl["small"]), sfby(d["small"], 8192, "k")
		printf "     (in 2 MiB units: %s, %.0fx; the data of a small file is its own pages, nothing else of the unit)\n", sfb(d["units"]), (d["small"] > 0 ? d["units"] / d["small"] : 0)
		printf "   - space per 4 KiB file <= 4.1 KiB plus its log slot: %s (pages) + %.2f slots: %s;\n", sfk(pg["small"]), sp["small"], sfby(pg["small"], 4.1 * 1024, "k")
		printf "     df's used, a shared unit counted whole, %s per file over %d files\n", sfk(us["small"]), sfx[s, "small", "n"]
	}
	cpi = sfT["ic", "cp-small"]; exi = sfT["ic", "cp-ext4"]
	if (cpi != "") {
		printf "   - famfs cp instructions per 4 KiB file <= 0.15 M: %s: %s\n", fm(cpi), sfby(cpi, 150000, "M")
		printf "     and <= busybox cp to ext4 -o dax (%s): %s\n", fm(exi), sfby(cpi, exi, "M")
		printf "     (per file beyond the first: famfs %s, busybox %s; a command's fixed cost: famfs %s, busybox %s;\n", fm(sfT["ic", "marg-small"]), fm(sfT["ic", "marg-ext4"]), fm(sfT["ic", "cp1-small"]), fm(sfT["ic", "cp1-ext4"])
		printf "     a famfs process's start alone, --version: %s)\n", fm(sfT["ic", "start-famfs"])
	}
	if (sfRM["rt", "cp"] != "") {
		printf "   - famfs cp wall time per 4 KiB file <= 1.5x busybox cp (median of per-repetition ratios): %s: %s\n", sfR["rt", "cp"], sfby(sfRM["rt", "cp"], 1.5, "")
		printf "     (per file beyond the first: famfs %s, busybox %s, %s; a command's fixed cost: famfs %s, busybox %s)\n",
			sfms(sfT["rt", "marg-small"]), sfms(sfT["rt", "marg-ext4"]),
			(sfT["rt", "marg-ext4"] > 0 ? sprintf("%.2fx", sfT["rt", "marg-small"] / sfT["rt", "marg-ext4"]) : "-"),
			sfms(sfT["rt", "cp1-small"]), sfms(sfT["rt", "cp1-ext4"])
	}
	for (c = 1; c <= 2; c++) {
		st = c == 1 ? "ic" : "rt"
		if (sfRM[st, "start"] == "") continue
		printf "   - process start (%s): famfs --version / /bin/true (busybox, static) = %s\n", st == "ic" ? "instructions" : "real time", sfR[st, "start"]
	}
	if (sfRM["ic", "start"] != "" || sfRM["rt", "start"] != "") {
		print "     The issue's goal compares with the 2024 famfs tool (1.7x it in one boot): the bench does not build that tool,"
		print "     so the baseline here is busybox's true, a static binary: the floor of any process start; not judged."
	}
	if (sfRM["ic", "mkfile"] != "")
		printf "   - famfs mkfile -s 4K: small %s, in a 2 MiB unit %s instructions (%s)\n", fm(sfT["ic", "mkfile-small"]), fm(sfT["ic", "mkfile-units"]), sfR["ic", "mkfile"]
	if (nb != "")
		printf "   - a large file's faults unchanged, 512 per GiB (2 MiB faults only): %d per GiB: %s\n", nb, good ? "met" : "NOT met"
}
