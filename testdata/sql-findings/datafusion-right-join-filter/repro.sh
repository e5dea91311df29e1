#!/usr/bin/env bash
# norec: datafusion: optimized query returns more rows
# kind: wrong-result, oracle: norec, seed: 14401271744201097283
# engines: datafusion 55.2.0;
# expected: 0 rows for which the predicate is true (unoptimized query)
# actual: 1 rows fetched by the optimized query
# on the original case: expected 0 rows for which the predicate is true (unoptimized query); actual 2 rows fetched by the optimized query
# polyfuzz: 0.2.0
# replay: polyfuzz replay testdata/sql-findings/datafusion-right-join-filter
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

cannot 'no client known for datafusion'

# norec: the count of the optimized query must equal the sum of the unoptimized one.
judge() {
	local n opt unopt
	opt=$(sec "$1" norec.opt-rows | wc -l)
	n=$(sec "$1" norec.unopt | wc -l)
	[ "$n" = 1 ] || { echo "$1: the sum query returned $n rows"; return 0; }
	unopt=$(sec "$1" norec.unopt)
	[ "$unopt" = NULL ] && unopt=0
	echo "$1: the optimized query counts $opt rows, the unoptimized query $unopt"
	awk -v a="$opt" -v b="$unopt" 'BEGIN { exit (a + 0 == b + 0) }'
}
res=1
for e in datafusion; do
	if ! ran "$e"; then echo "repro.sh: $e did not answer every query of the relation (see above)" >&2; res=2; continue; fi
	judge "$e"
	case $? in
	0) echo "repro.sh: the bug reproduces on $e"; exit 0 ;;
	2) res=2 ;;
	esac
done
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
