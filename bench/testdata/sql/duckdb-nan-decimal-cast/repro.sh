#!/usr/bin/env bash
# error: duckdb: invalid input type double with value nan can?
# kind: unexpected-error, oracle: error, seed: 12052681535550128194
# engines: duckdb 0.8.1;
# expected: an answer
# actual: Invalid Input: Type DOUBLE with value nan can't be cast because the value is out of range for the destination type INT64 (in the query)
# on the original case: expected an answer; actual Invalid Input: Type DOUBLE with value nan can't be cast because the value is out of range for the destination type INT64 (in the query)
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/sql/duckdb-nan-decimal-cast
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
version duckdb '0.8.1' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/duckdb.out" 2>"$tmp/duckdb.err" <<'POLYFUZZ_SQL'
.headers off
.mode list
.separator |
.nullvalue NULL
CREATE TABLE t0 (c0 TINYINT DEFAULT 0, c1 DOUBLE, c2 BOOLEAN, c3 DECIMAL(18,4) NOT NULL);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (0, CAST('NaN' AS DOUBLE), TRUE, 0);
.print '---- norec.opt-rows'
SELECT * FROM t0 WHERE (CAST(t0.c1 AS DECIMAL(18,4)) IS NOT NULL);
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/duckdb.status"
grep -Eo 'line [0-9]+' "$tmp/duckdb.err" | awk '$2 + 0 >= 7' >"$tmp/duckdb.qfail"
echo '== duckdb answers:'
cat "$tmp/duckdb.out"
cat "$tmp/duckdb.err" >&2

# error: the engine crashed (killed by a signal, or its server lost), hung, or printed the
# recorded error message.
judge() {
	local st; st=$(cat "$tmp/$1.status")
	if grep -qF -- 'Type DOUBLE with value nan can'\''t be cast because the value i' "$tmp/$1.out" "$tmp/$1.err"; then echo "$1: the error is back"; return 0; fi
	echo "$1: no error 'Type DOUBLE with value nan can'\''t be cast because the value i'"; return 1
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
