#!/usr/bin/env bash
# tlp-agg: clickhouse: avg of partitions differs from the avg
# kind: wrong-result, oracle: tlp-agg, seed: 15127103940306862114
# engines: clickhouse 26.9.2.1;
# expected: avg 0.0 from the original query
# actual: avg of the partitions: NULL (p: NULL 0; not p: NULL 0; p is null: NULL 0)
# on the original case: expected avg 10.0 from the original query; actual avg of the partitions: NULL (p: NULL 0; not p: NULL 0; p is null: NULL 0)
# polyfuzz: 0.2.0
# replay: polyfuzz replay testdata/sql-findings/clickhouse-set-index-nan-case-tlp-agg
#
# Runs the case with each engine's own client and judges the answers as the oracle did.
# Exit status: 0 the bug reproduces, 1 it does not, 2 this script cannot tell (a client is
# missing, a server unreachable, a query failed, a planted fault, or an oracle a shell cannot judge).
set -u
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# cannot says why the bug cannot be judged here and exits 2.
cannot() { echo "repro.sh: cannot judge: $*" >&2; exit 2; }
# version NAME RECORDED RUNNING prints the version that runs and warns when the finding was recorded on another.
version() {
	echo "== $1: $3"
	case "$3" in *"$2"*) ;; *) echo "repro.sh: warning: the finding was recorded on $1 $2; this is $3" >&2 ;; esac
}
# limit SECONDS CMD... runs CMD, killed after SECONDS when timeout(1) is there (exit status 124).
limit() { if command -v timeout >/dev/null; then timeout "$@"; else shift; "$@"; fi; }
# sec ENGINE ROLE prints ENGINE's answer to the query of ROLE.
sec() { awk -v r="---- $2" '$0 == r { on = 1; next } /^---- / { on = 0 } on' "$tmp/$1.out"; }
# ran ENGINE says whether ENGINE answered every query (the end line was printed and no query failed).
ran() { grep -qx -- '---- end' "$tmp/$1.out" && [ ! -s "$tmp/$1.qfail" ]; }

cannot 'no client known for clickhouse'

# tlp-agg: the AVG of the original query must be composed from the partitions' as the oracle
# does; a sum that is not whole (float sums depend on the order of addition) is not judged here.
judge() {
	local r n
	for r in agg.orig agg.p agg.notp agg.null; do
		n=$(sec "$1" "$r" | wc -l)
		[ "$n" = 1 ] || { echo "$1: $r returned $n rows, not one"; return 0; }
	done
	{ sec "$1" agg.orig; sec "$1" agg.p; sec "$1" agg.notp; sec "$1" agg.null; } | awk -F'|' -v agg=AVG -v e="$1" 'function null(v) { return v == "NULL" }
function whole(v) { return v ~ /^-?[0-9]+$/ && length(v) <= 15 }
function num(v) { return v ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function loose(v) { gsub(/^x?\047|\047$/, "", v); sub(/ +$/, "", v); return tolower(v) }
function say(s) { print e ": " s }
{ v[NR] = $1; c[NR] = $2 }
END {
	o = v[1]
	parts = v[2] ", " v[3] ", " v[4]
	if (agg == "COUNT") {
		for (i = 1; i <= 4; i++) if (!whole(v[i])) { say("count " v[i] " is not a count"); exit 0 }
		got = v[2] + v[3] + v[4]
		say("count " o " from the original query; the partitions count " parts ", together " got)
		exit (o + 0 == got)
	}
	if (agg == "SUM") {
		for (i = 1; i <= 4; i++) if (null(v[i]) && c[i] + 0 > 0) { say("a NULL sum of " c[i] " values (a NaN): not judged"); exit 2 }
		alln = null(v[2]) && null(v[3]) && null(v[4])
		if (null(o) != alln) { say("sum " o " from the original query; the partitions sum " parts); exit 0 }
		if (alln) { say("every sum is NULL"); exit 1 }
		for (i = 1; i <= 4; i++) if (!null(v[i]) && !whole(v[i])) { say("sum " v[i] " is not whole: not judged"); exit 2 }
		got = 0
		for (i = 2; i <= 4; i++) if (!null(v[i])) got += v[i]
		say("sum " o " from the original query; the partitions sum " parts ", together " got)
		exit (o + 0 == got)
	}
	if (agg == "AVG") {
		n = 0; s = 0
		for (i = 2; i <= 4; i++) {
			if (!whole(c[i])) { say("count " c[i] " is not a count"); exit 0 }
			if (null(v[i]) && c[i] > 0) { say("a NULL sum of " c[i] " values (a NaN): not judged"); exit 2 }
			if (!null(v[i]) && !num(v[i])) { say("sum " v[i] " is not a number: not judged"); exit 2 }
			n += c[i]; if (!null(v[i])) s += v[i]
		}
		if (null(o) != (n == 0)) { say("avg " o " from the original query; the partitions count " n " values"); exit 0 }
		if (n == 0) { say("no values: every avg is NULL"); exit 1 }
		if (!num(o)) { say("avg " o " is not a number: not judged"); exit 2 }
		want = s / n; d = o - want; if (d < 0) d = -d
		m = want < 0 ? -want : want; if (m < 1) m = 1
		say("avg " o " from the original query; the partitions sum " s " over " n " values: " want)
		exit (d <= 0.001 * m)
	}
	k = 0
	for (i = 2; i <= 4; i++) if (!null(v[i])) w[++k] = v[i]
	if (null(o) != (k == 0)) { say(tolower(agg) " " o " from the original query; the partitions give " parts); exit 0 }
	if (k == 0) { say("every " tolower(agg) " is NULL"); exit 1 }
	allnum = num(o)
	for (i = 1; i <= k; i++) allnum = allnum && num(w[i])
	if (allnum) {
		best = w[1]
		for (i = 2; i <= k; i++) if (agg == "MIN" ? w[i] + 0 < best + 0 : w[i] + 0 > best + 0) best = w[i]
		say(tolower(agg) " " o " from the original query; the partitions give " parts ": " best)
		exit (o + 0 == best + 0)
	}
	for (i = 1; i <= k; i++) if (w[i] == o) { say(tolower(agg) " " o " is one of the partition values " parts); exit 1 }
	for (i = 1; i <= k; i++) if (loose(w[i]) == loose(o)) { say(tolower(agg) " " o " differs from " w[i] " in case or trailing spaces only: not judged"); exit 2 }
	say(tolower(agg) " " o " from the original query is none of the partition values " parts)
	exit 0
}'
}
res=1
for e in clickhouse; do
	if ! ran "$e"; then echo "repro.sh: $e did not answer every query of the relation (see above)" >&2; res=2; continue; fi
	judge "$e"
	case $? in
	0) echo "repro.sh: the bug reproduces on $e"; exit 0 ;;
	2) res=2 ;;
	esac
done
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
