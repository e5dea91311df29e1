#!/usr/bin/env bash
# error: duckdb: not implemented expr of type n not implemented
# kind: unexpected-error, oracle: error, seed: 11385487063155671040
# engines: duckdb 0.7.1;
# expected: an answer
# actual: Not Implemented: Expr of type 134 not implemented (in the query)
# on the original case: expected an answer; actual Not Implemented: Expr of type 134 not implemented (in the query)
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/sql/duckdb-6916-is-true
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
version duckdb '0.7.1' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/duckdb.out" 2>"$tmp/duckdb.err" <<'POLYFUZZ_SQL'
.headers off
.mode list
.separator |
.nullvalue NULL
.print '---- norec.unopt'
SELECT SUM(count) FROM (SELECT CAST((0) IS TRUE AS INTEGER) AS count FROM t0) AS res;
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/duckdb.status"
grep -Eo 'line [0-9]+' "$tmp/duckdb.err" | awk '$2 + 0 >= 5' >"$tmp/duckdb.qfail"
echo '== duckdb answers:'
cat "$tmp/duckdb.out"
cat "$tmp/duckdb.err" >&2

# error: the engine crashed (killed by a signal, or its server lost), hung, or printed the
# recorded error message.
judge() {
	local st; st=$(cat "$tmp/$1.status")
	if grep -qF -- 'Expr of type 134 not implemented' "$tmp/$1.out" "$tmp/$1.err"; then echo "$1: the error is back"; return 0; fi
	echo "$1: no error 'Expr of type 134 not implemented'"; return 1
}
res=1
for e in duckdb; do
	judge "$e"
	case $? in
	0) echo "repro.sh: the bug reproduces on $e"; exit 0 ;;
	2) res=2 ;;
	esac
done
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
