# scripts/bench.sh's report, section 9: famfs rm and the replay of DELETE,
# RENAME and SETATTR against a create (issue 29, first half), from the
# lines of the lifecycle part (tests/qemu/suites/bench/lifecycle.sh, "BENCH
# life-..."); awk runs it after report.awk, bench-pud.awk and
# bench-small.awk: report.awk's END calls life9().  Uses report.awk's kv(),
# fm(), median(), sortn() and src ("ic" for the icount boot, "rt" for the
# real-time one).  docs/bench-lifecycle.md says what each figure is.
$2 == "life-config" { kv(); lfn[src] = F["n"]; lfb[src] = F["batch"]; next }
$2 == "life-time" {
	kv(); r = F["rep"] + 0
	lft[src, F["what"], F["size"], r] = F["ns"]; lftn[src, F["what"], F["size"], r] = F["n"]
	if (r > lfreps[src]) lfreps[src] = r
	next
}
$2 == "life-play" {
	kv(); r = F["rep"] + 0
	lfp[src, F["what"], r] = F["ns"]; lfpn[src] = F["n"]
	if (r > lfpreps[src]) lfpreps[src] = r
	next
}
$2 == "churn-config" { kv(); chc["n"] = F["n"]; chc["cap"] = F["cap"]; chc["live"] = F["live"]; chc["iv"] = F["iv"]; chc["fsize"] = F["fsize"]; next }
$2 == "churn-phase" {
	kv(); f = F["followers"]
	chp[f, "ops"] = F["ops"]; chp[f, "creates"] = F["creates"]; chp[f, "removes"] = F["removes"]
	chp[f, "waits"] = F["waits"]; chp[f, "cs"] = F["cs"]; chp[f, "entries"] = F["entries"]; chph[f] = 1
	next
}
$2 == "churn-reuse" {
	kv(); f = F["followers"]; k = ++chr[f]
	chd[f, k] = F["create"] - F["del"]; chdt[f, k] = F["dt_cs"] * 10
	chrc[f, k] = F["reclaim"] == "-" ? "" : F["reclaim"] - F["del"]
	chmiss[f, k] = F["missed"]; chpc[f, k] = F["pass_cs"] == "-" || F["pass_cs"] == "" ? "" : F["pass_cs"] * 10
	next
}
$2 ~ /^life-/ || $2 ~ /^churn-/ { next }

# lfv(S, W, Z, R): timed figure W of size Z in repetition R per item, the
# clock's own floor (now; now) of that repetition taken off; "" if absent
function lfv(s, w, z, r,    f) {
	if (!((s, w, z, r) in lft)) return ""
	f = ((s, "floor", "-", r) in lft) ? lft[s, "floor", "-", r] : 0
	return (lft[s, w, z, r] - f) / lftn[s, w, z, r]
}
# lfper(S, W, Z): per item, min over the repetitions (icount) or median
function lfper(s, w, z,    r, n, v, a) {
	n = 0
	for (r = 1; r <= lfreps[s]; r++) if ((v = lfv(s, w, z, r)) != "") a[++n] = v
	if (!n) return ""
	if (s == "ic") { sortn(a, n); return a[1] }
	return median(a, n)
}
# lfrat(S, A, B, Z): per repetition A/B, "med [min..max]"; lfrmed the median
function lfrat(s, wa, wb, z,    r, n, a, x, y) {
	n = 0
	for (r = 1; r <= lfreps[s]; r++) {
		x = lfv(s, wa, z, r); y = lfv(s, wb, z, r)
		if (x == "" || y == "" || y <= 0) continue
		a[++n] = x / y
	}
	if (!n) { lfrmed = ""; return "-" }
	lfrmed = median(a, n)
	return sprintf("%.3f [%.3f..%.3f]", lfrmed, a[1], a[n])
}
# lfplay(S, K, B): per entry, (logplay K - logplay B) / N per repetition,
# min (icount) or median (real time)
function lfplay(s, k, b,    r, n, a) {
	n = 0
	for (r = 1; r <= lfpreps[s]; r++)
		if (((s, k, r) in lfp) && ((s, b, r) in lfp))
			a[++n] = (lfp[s, k, r] - lfp[s, b, r]) / lfpn[s]
	if (!n) return ""
	if (s == "ic") { sortn(a, n); return a[1] }
	return median(a, n)
}
function lfpmin(s, k,    r, n, a) {
	n = 0
	for (r = 1; r <= lfpreps[s]; r++) if ((s, k, r) in lfp) a[++n] = lfp[s, k, r]
	if (!n) return ""
	if (s == "ic") { sortn(a, n); return a[1] }
	return median(a, n)
}
function lfx(s, x) { return x == "" ? "-" : s == "ic" ? fm(x) : sprintf("%.2f ms", x / 1e6) }
# lfby(V, GOAL): "met" or "not met: V/GOAL x the goal (V-GOAL over)"
function lfby(v, goal, s) {
	if (v == "" || goal == "") return "not measured"
	if (v <= goal) return "met"
	return sprintf("not met: %.2fx the goal (%s over)", v / goal, lfx(s, v - goal))
}
function life9(    c, s, z, i, w, xa, x, cr, d, rn, sa, zs) {
	if (!lfreps["ic"] && !lfreps["rt"] && !lfpreps["ic"] && !lfpreps["rt"]) {
		if (chph[1] || chph[3])
			churn9()
		return
	}
	print ""
	print "9. File lifecycle (issue 29, first half): famfs rm against a create, and the replay of DELETE, RENAME"
	print "   and SETATTR against a create's, side by side in one boot (suites/bench/lifecycle.sh; docs/bench-lifecycle.md)"
	for (c = 1; c <= 2; c++) {
		s = c == 1 ? "ic" : "rt"
		if (!lfreps[s] && !lfpreps[s]) continue
		print ""
		if (s == "ic")
			print "   Instructions (icount boot, min over " lfreps[s] " repetitions; the clock's own exec, \"now; now\", taken off)"
		else
			print "   Real time (TCG, median over " lfreps[s] " repetitions; the clock's own exec taken off)"
		printf "   %-52s %22s %22s\n", "per file", "4 KiB", "2 MiB"
		split("mkfile:famfs mkfile -s SIZE, one file, one process|rm:famfs rm of that file, one process|cp:famfs cp of " lfb[s] " files, per file|rmb:famfs rm of those " lfb[s] " files, one command, per file", w, "|")
		for (i = 1; i in w; i++) {
			split(w[i], xa, ":")
			printf "   %-52s %22s %22s\n", xa[2], lfx(s, lfper(s, xa[1], "4K")), lfx(s, lfper(s, xa[1], "2M"))
		}
		printf "   %-52s %22s %22s\n", "rm / mkfile, per repetition: median [min..max]", lfrat(s, "rm", "mkfile", "4K"), lfrat(s, "rm", "mkfile", "2M")
		printf "   %-52s %22s %22s\n", "rm batch / cp batch, per file", lfrat(s, "rmb", "cp", "4K"), lfrat(s, "rmb", "cp", "2M")
		if (lfpreps[s]) {
			print ""
			printf "   famfs logplay of a log put back under the mounted tree (N = %d entries of each kind; %s):\n", lfpn[s], s == "ic" ? "instructions, min" : "median"
			split("empty:log empty, tree empty (nothing to do)|create:N creates, tree empty (makes N files)|base:N creates, tree has them (nothing to do)|delete:N creates + N DELETE, tree has the files|rename:N creates + N RENAME, tree has the files|setattr:N creates + N SETATTR, tree has the files", w, "|")
			for (i = 1; i in w; i++) {
				split(w[i], xa, ":")
				printf "     %-56s %14s\n", xa[2], lfx(s, lfpmin(s, xa[1]))
			}
			cr = lfplay(s, "create", "empty"); d = lfplay(s, "delete", "base")
			rn = lfplay(s, "rename", "base"); sa = lfplay(s, "setattr", "base")
			printf "   per entry: create %s = (create - empty) / N; DELETE %s, RENAME %s, SETATTR %s = (kind - base) / N\n", lfx(s, cr), lfx(s, d), lfx(s, rn), lfx(s, sa)
			if (cr > 0)
				printf "   against a create: DELETE %.2fx, RENAME %.2fx, SETATTR %.2fx\n", d / cr, rn / cr, sa / cr
			LFG[s, "create"] = cr; LFG[s, "delete"] = d; LFG[s, "rename"] = rn; LFG[s, "setattr"] = sa
		}
	}
	print ""
	print "   Goals (issue 29, first half; icount instructions):"
	if (lfreps["ic"]) {
		split("4K 2M", zs, " ")
		for (i = 1; i <= 2; i++) {
			z = zs[i]
			x = lfper("ic", "rm", z); cr = lfper("ic", "mkfile", z)
			printf "   - famfs rm of a %s file <= a create of it (famfs mkfile, one process each): %s vs %s (%s): %s\n",
				z == "4K" ? "4 KiB" : "2 MiB", fm(x), fm(cr), lfrat("ic", "rm", "mkfile", z), lfby(x, cr, "ic")
		}
		for (i = 1; i <= 2; i++) {
			z = zs[i]
			x = lfper("ic", "rmb", z); cr = lfper("ic", "cp", z)
			printf "     (%s files in a batch of %d, per file: famfs rm %s, famfs cp %s: %s)\n", z == "4K" ? "4 KiB" : "2 MiB", lfb["ic"], fm(x), fm(cr), lfby(x, cr, "ic")
		}
	}
	if (lfpreps["ic"]) {
		printf "   - replay of a DELETE <= 10 k instructions per entry: %s: %s (a create's replay: %s)\n",
			fm(LFG["ic", "delete"]), lfby(LFG["ic", "delete"], 10000, "ic"), fm(LFG["ic", "create"])
		printf "   - (information) replay of a RENAME %s, of a SETATTR %s per entry\n", fm(LFG["ic", "rename"]), fm(LFG["ic", "setattr"])
	}
	churn9()
}

# chmed(ARR-prefix F, N, which): median and max of an array filled above
function chstat(f, which,    n, q, a, m, v) {
	n = chr[f]
	m = 0
	for (q = 1; q <= n; q++) {
		v = which == "d" ? chd[f, q] : which == "t" ? chdt[f, q] : which == "p" ? chpc[f, q] : chrc[f, q]
		if (v != "") a[++m] = v
	}
	n = m
	if (!n) return "-"
	sortn(a, n)
	return sprintf("median %s, max %s", median(a, n), a[n])
}
function churn9(    f, ops, ph, fl, n, q, within, own, a, r1, r3) {
	print ""
	if (!chph[1] && !chph[3]) {
		print "   Not measured in this run: churn throughput with one and with three followers, and reuse"
		print "   distance (part churn: four guests, tests/qemu/suites/bench-churn.sh)."
		return
	}
	printf "9b. Churn on four hosts (issue 29, second half; part churn, one boot, real time under TCG): a file system that\n"
	printf "   holds %d files of %s at once, each file removed once %d newer exist; phase 1: one follower (b), phase 2:\n", chc["cap"], hsize(chc["fsize"]), chc["live"]
	printf "   three (b, c, d), each famfs logplay --follow -i %d; %d creates per phase\n", chc["iv"], chc["n"]
	printf "   %-10s %6s %8s %8s %7s %10s %9s %12s %15s\n", "followers", "ops", "creates", "removes", "waits", "seconds", "ops/s", "entries/op", "MiB written/op"
	for (ph = 1; ph <= 3; ph += 2) {
		if (!chph[ph]) continue
		ops = chp[ph, "ops"]
		chops[ph] = chp[ph, "cs"] > 0 ? ops / (chp[ph, "cs"] / 100) : 0
		printf "   %-10d %6d %8d %8d %7d %10.2f %9.2f %12.2f %15.2f\n", ph, ops, chp[ph, "creates"], chp[ph, "removes"], chp[ph, "waits"],
			chp[ph, "cs"] / 100, chops[ph], chp[ph, "entries"] / ops, chp[ph, "creates"] * chc["fsize"] / 1048576 / ops
	}
	if (chops[1] > 0 && chops[3] > 0)
		printf "   throughput, three followers / one: %.3f (real time: one sample each, TCG on a shared host; four guests on two cores)\n", chops[3] / chops[1]
	print "   MiB written/op: file memory each create writes whole (its data, zeros after it), per op; the log entries"
	print "   are a few hundred bytes each.  waits: creates that found the device full and tried again (memory not yet reclaimed)."
	print ""
	print "   Reuse (every host live): creates that got memory a removed file had, per phase"
	for (ph = 1; ph <= 3; ph += 2) {
		if (!chph[ph]) continue
		n = chr[ph]; within = 0; own = 0
		for (q = 1; q <= n; q++) {
			if (chmiss[ph, q] == 0 && chrc[ph, q] != "") within++
			if (chrc[ph, q] == 1) own++
		}
		printf "   %d follower(s): %d reuses; log entries DELETE -> RECLAIM %s; DELETE -> the create that reused it %s\n", ph, n, chstat(ph, "r"), chstat(ph, "d")
		printf "     freed by the DELETE's own rm's pass (every follower had replayed it meanwhile): %d of %d; by the first pass\n", own, n
		printf "     that could (no pass after the followers' round missed it): %d of %d; ms from the end of that famfs rm to the\n", within, n
		printf "     start of the rm whose pass freed it %s (poll interval %d ms); to the start of the famfs mkfile that reused it %s\n", chstat(ph, "p"), chc["iv"], chstat(ph, "t")
	}
	print "   A removed file's memory is free once its RECLAIM is logged: the master's pass (each famfs rm, or a create that"
	print "   finds no room) appends it once every registered host has replayed past the DELETE and holds none of it; the"
	print "   DELETE's own rm's pass frees it only when every follower replayed it in the meantime (a poll came between the"
	print "   DELETE and the pass); else the next rm's pass can: reuse within one poll interval of the DELETE needs a pass of"
	print "   the master within it (here the churn's own pace, an op every few hundred ms under TCG, decides)."
}
