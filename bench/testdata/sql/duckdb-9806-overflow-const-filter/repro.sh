#!/usr/bin/env bash
# norec: duckdb: optimized query returns fewer rows
# kind: wrong-result, oracle: norec, seed: 9806
# engines: duckdb v0.9.2;
# expected: 1 rows for which the predicate is true (unoptimized query)
# actual: 0 rows count by the optimized query
# on the original case: expected 2 rows for which the predicate is true (unoptimized query); actual 0 rows count by the optimized query
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/sql/duckdb-9806-overflow-const-filter
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

# DuckDB's shell, in memory; set DUCKDB to name it.
sh=${DUCKDB:-duckdb}
command -v "$sh" >/dev/null || cannot "$sh not found: install it or set DUCKDB"
version duckdb 'v0.9.2' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/duckdb.out" 2>"$tmp/duckdb.err" <<'POLYFUZZ_SQL'
.headers off
.mode list
.separator |
.nullvalue NULL
CREATE TABLE t0 (c0 INTEGER);
INSERT INTO t0 (c0) VALUES (1);
.print '---- norec.opt-count'
SELECT COUNT(*) FROM t0 WHERE (t0.c0 >= ((2147483647 + 1) IS NOT NULL));
.print '---- norec.unopt'
SELECT SUM(count) FROM (SELECT CAST(((t0.c0 >= ((2147483647 + 1) IS NOT NULL))) IS TRUE AS INTEGER) AS count FROM t0) AS res;
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/duckdb.status"
grep -Eo 'line [0-9]+' "$tmp/duckdb.err" | awk '$2 + 0 >= 7' >"$tmp/duckdb.qfail"
echo '== duckdb answers:'
cat "$tmp/duckdb.out"
cat "$tmp/duckdb.err" >&2

# norec: the count of the optimized query must equal the sum of the unoptimized one.
judge() {
	local n opt unopt
	n=$(sec "$1" norec.opt-count | wc -l)
	[ "$n" = 1 ] || { echo "$1: the count query returned $n rows"; return 0; }
	opt=$(sec "$1" norec.opt-count)
	n=$(sec "$1" norec.unopt | wc -l)
	[ "$n" = 1 ] || { echo "$1: the sum query returned $n rows"; return 0; }
	unopt=$(sec "$1" norec.unopt)
	[ "$unopt" = NULL ] && unopt=0
	echo "$1: the optimized query counts $opt rows, the unoptimized query $unopt"
	awk -v a="$opt" -v b="$unopt" 'BEGIN { exit (a + 0 == b + 0) }'
}
res=1
for e in duckdb; do
	if ! ran "$e"; then echo "repro.sh: $e did not answer every query of the relation (see above)" >&2; res=2; continue; fi
	judge "$e"
	case $? in
	0) echo "repro.sh: the bug reproduces on $e"; exit 0 ;;
	2) res=2 ;;
	esac
done
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
