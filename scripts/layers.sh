#!/usr/bin/env bash
# layers.sh: which source files call each other in a circle, and which calls
# run upward between layers.  The graph is the compiler's own: for each object
# file, the global symbols it defines and the ones it leaves undefined (nm), so
# a call through a static inline in a header counts where it is expanded and a
# call made only through a function pointer does not count at all.
#
#   scripts/layers.sh            check every group of scripts/layers.conf
#   scripts/layers.sh --graph    print the edges too ("a.c -> b.c: sym")
#
# The layer order is written once, in scripts/layers.conf (read it for the
# format).  Objects must be built first (make module tools); a source file
# without its object is an error, not a pass.
# Output: one PROTOCOL line per group and rule (tests/PROTOCOL.md):
#   PASS layers/<group>/circles      FAIL layers/<group>/circles: ...
#   PASS layers/<group>/upward       FAIL layers/<group>/upward: ...
# with the circles and upward calls listed above the FAIL lines.
# Exit status: 0 if all passed, 1 if any failed, 2 on a usage or set-up error.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
conf=${FAMFS_LAYERS_CONF:-scripts/layers.conf}
graph=0
case "${1:-}" in
--graph) graph=1 ;;
"") ;;
-h|--help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
*) echo "layers.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac
[ -r "$conf" ] || { echo "layers.sh: cannot read $conf" >&2; exit 2; }

status=0
# check_group NAME OBJMAP LAYERS EXCEPTIONS: one group (see layers.conf)
check_group() {
	local name=$1 src_dir=$2 obj_dir=$3 layers=$4 except=$5
	local tmp; tmp=$(mktemp -d) || exit 2
	local f o rel missing=0
	# every .c of the group's folders, as the layers name them
	: > "$tmp/files"
	while read -r layer globs; do
		for g in $globs; do
			for f in $g; do
				[ -f "$f" ] || continue
				case "$f" in *.mod.c) continue ;; esac
				echo "$f $layer" >> "$tmp/files"
			done
		done
	done <<< "$layers"
	# sources nobody placed
	while read -r f; do
		grep -q "^$f " "$tmp/files" || echo "$f -" >> "$tmp/files"
	done < <(find "$src_dir" -name '*.c' -not -name '*.mod.c' | sort)
	while read -r f layer; do
		rel=${f#"$src_dir"/}
		o=$obj_dir/${rel%.c}.o
		if [ ! -f "$o" ]; then
			echo "layers.sh: $name: no object $o for $f (build first)" >&2
			missing=1; continue
		fi
		nm --defined-only -g "$o" | awk -v f="$f" 'NF == 3 { print "D", $3, f }'
		nm -u "$o" | awk -v f="$f" '{ print "U", $NF, f }'
	done < "$tmp/files" > "$tmp/syms"
	if [ $missing = 1 ]; then
		echo "FAIL layers/$name/circles: objects missing (make module tools first)"
		echo "FAIL layers/$name/upward: objects missing (make module tools first)"
		rm -rf "$tmp"; status=1; return
	fi
	awk -v name="$name" -v graph="$graph" -v except="$except" '
	FILENAME == ARGV[1] { layer[$1] = $2; if ($2 != "-") { if (!($2 in rank)) rank[$2] = ++nl }; next }
	$1 == "D" { def[$2] = $3; next }
	$1 == "U" { use[++nu] = $2 " " $3; next }
	function strongconnect(v,    i, w) {
		idx[v] = lowl[v] = ++counter; stack[++sp] = v; onst[v] = 1
		for (i = 1; i <= nadj[v]; i++) {
			w = adj[v, i]
			if (!(w in idx)) { strongconnect(w); if (lowl[w] < lowl[v]) lowl[v] = lowl[w] }
			else if (onst[w] && idx[w] < lowl[v]) lowl[v] = idx[w]
		}
		if (lowl[v] == idx[v]) {
			nscc++; sz = 0
			do { w = stack[sp--]; onst[w] = 0; comp[w] = nscc; sz++ } while (w != v)
			size[nscc] = sz
		}
	}
	# one shortest way from a back to a inside its circle: "a -(sym)-> b -(sym)-> a"
	function cycle_of(a,    q, h, t, prev, v, i, w, path, n, seq) {
		split("", prev); h = 1; t = 0
		for (i = 1; i <= nadj[a]; i++) { w = adj[a, i]
			if (comp[w] == comp[a] && !(w in prev)) { prev[w] = a; q[++t] = w } }
		while (h <= t && !(a in prev)) { v = q[h++]
			for (i = 1; i <= nadj[v]; i++) { w = adj[v, i]
				if (comp[w] == comp[a] && !(w in prev)) { prev[w] = v; q[++t] = w } } }
		n = 0; v = a
		do { seq[++n] = v; v = prev[v] } while (v != a && n < 100)
		# seq: a, then back along prev; forward, a -> seq[n] -> ... -> seq[1] = a
		path = a; v = a
		for (i = n; i >= 1; i--) { path = path " -(" why[v, seq[i]] ")-> " seq[i]; v = seq[i] }
		return path
	}
	END {
		split(except, ex, " ")
		for (i in ex) allowed[ex[i]] = 1
		for (i = 1; i <= nu; i++) {
			split(use[i], p, " "); s = p[1]; from = p[2]
			if (!(s in def)) continue            # libc, kernel, libraries
			# tracepoints are defined where CREATE_TRACE_POINTS is: not a call
			if (s ~ /^__(SCK__tp_func|SCT__tp_func|tracepoint|traceiter)_/) continue
			to = def[s]
			if (to == from || ((from, to) in edge)) continue
			edge[from, to] = 1; why[from, to] = s
			adj[from, ++nadj[from]] = to; nodes[from] = 1; nodes[to] = 1
			if (graph) print name ": " from " -> " to ": " s
		}
		for (v in nodes) if (!(v in idx)) strongconnect(v)
		nbad = 0
		for (c = 1; c <= nscc; c++) {
			if (size[c] < 2) continue
			list = ""; first = ""
			for (v in comp) if (comp[v] == c) { list = list " " v; if (first == "" || v < first) first = v }
			n = split(list, arr, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (arr[j] < arr[i]) { x = arr[i]; arr[i] = arr[j]; arr[j] = x }
			list = ""; for (i = 1; i <= n; i++) list = list " " arr[i]
			key = substr(list, 2); gsub(/ /, ",", key)
			if (key in allowed) { print name ": circle allowed by layers.conf:" list; continue }
			nbad++
			print name ": circle of " n " files:" list
			print name ":   e.g. " cycle_of(first)
		}
		if (nbad) printf "FAIL layers/%s/circles: %d circle(s) of files calling each other (listed above)\n", name, nbad
		else printf "PASS layers/%s/circles\n", name
		nup = 0
		for (k in edge) {
			split(k, p, SUBSEP); from = p[1]; to = p[2]
			if (layer[from] == "-" || layer[to] == "-") continue
			if (rank[layer[to]] > rank[layer[from]]) {
				nup++
				print name ": upward: " from " (" layer[from] ") calls " why[from, to] " in " to " (" layer[to] ")"
			}
		}
		nfree = 0
		for (f in layer) if (layer[f] == "-") { nfree++; print name ": no layer for " f " (add it to layers.conf)" }
		if (nup + nfree) printf "FAIL layers/%s/upward: %d upward call(s), %d file(s) in no layer (listed above)\n", name, nup, nfree
		else printf "PASS layers/%s/upward\n", name
	}' "$tmp/files" "$tmp/syms" > "$tmp/out"
	# the findings first, sorted; the verdicts last
	grep -v -E '^(PASS|FAIL) ' "$tmp/out"
	grep -E '^(PASS|FAIL) ' "$tmp/out"
	grep -q '^FAIL ' "$tmp/out" && status=1
	rm -rf "$tmp"
}

# layers.conf: groups of "group NAME SRC_DIR OBJ_DIR", then "layer NAME GLOB..."
# lines (lowest first) and "allow FILE,FILE,... REASON" lines, until the next group.
group="" layers="" except=""
flush() {
	[ -n "$group" ] || return 0
	# shellcheck disable=SC2086
	check_group $group "$layers" "$except"
}
while read -r kw rest; do
	case "$kw" in
	""|"#"*) ;;
	group) flush; group=$rest; layers=""; except="" ;;
	layer) layers+="$rest"$'\n' ;;
	allow) except+="${rest%% *} " ;;
	*) echo "layers.sh: $conf: unknown line '$kw $rest'" >&2; exit 2 ;;
	esac
done < "$conf"
flush
exit $status
