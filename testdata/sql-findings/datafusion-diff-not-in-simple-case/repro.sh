#!/usr/bin/env bash
# diff: datafusion: returns different rows than duckdb,sqlite
# kind: wrong-result, oracle: diff, seed: 14309293053492002880
# engines: datafusion 55.2.0; duckdb v1.5.6; sqlite 3.54.1;
# expected: norec.opt-rows: the same rows from every engine; duckdb,sqlite: 1 rows
# actual: datafusion: 0 rows, missing ('0', 0, -6)
# on the original case: expected norec.opt-rows: the same rows from every engine; duckdb,sqlite: 0 rows; actual datafusion: 2 rows, extra ('10', 33, -6), ('b', 1000, NULL)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/rw-dfdiff/findings/f36432cf1b59e501
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

# DuckDB's shell, in memory; set DUCKDB to name it.
sh=${DUCKDB:-duckdb}
command -v "$sh" >/dev/null || cannot "$sh not found: install it or set DUCKDB"
version duckdb 'v1.5.6' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/duckdb.out" 2>"$tmp/duckdb.err" <<'POLYFUZZ_SQL'
.headers off
.mode list
.separator |
.nullvalue NULL
CREATE TABLE t1 (c0 VARCHAR(0), c1 INT, c2 INT);
INSERT INTO t1 (c0, c1, c2) VALUES (0, 0, -6);
.print '---- norec.opt-rows'
SELECT * FROM t1 WHERE (COALESCE('', NULLIF(t1.c0, t1.c0), '') NOT IN ((CASE lower(t1.c0) WHEN t1.c0 THEN 'a' ELSE '' END), upper('ab')));
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/duckdb.status"
grep -Eo 'line [0-9]+' "$tmp/duckdb.err" | awk '$2 + 0 >= 7' >"$tmp/duckdb.qfail"
echo '== duckdb answers:'
cat "$tmp/duckdb.out"
cat "$tmp/duckdb.err" >&2

# SQLite's sqlite3 shell (generated SQL may use functions of 3.48 or later), in memory; set SQLITE3 to name it.
sh=${SQLITE3:-sqlite3}
command -v "$sh" >/dev/null || cannot "$sh not found: install it or set SQLITE3"
version sqlite '3.54.1' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/sqlite.out" 2>"$tmp/sqlite.err" <<'POLYFUZZ_SQL'
.headers off
.mode list
.separator |
.nullvalue NULL
CREATE TABLE t1 (c0 VARCHAR(0), c1 INT, c2 INT);
INSERT INTO t1 (c0, c1, c2) VALUES (0, 0, -6);
.print '---- norec.opt-rows'
SELECT * FROM t1 WHERE (COALESCE('', NULLIF(t1.c0, t1.c0), '') NOT IN ((CASE lower(t1.c0) WHEN t1.c0 THEN 'a' ELSE '' END), upper('ab')));
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/sqlite.status"
grep -Eo 'line [0-9]+' "$tmp/sqlite.err" | awk '$2 + 0 >= 7' >"$tmp/sqlite.qfail"
echo '== sqlite answers:'
cat "$tmp/sqlite.out"
cat "$tmp/sqlite.err" >&2

# diff: every engine must return the same rows, compared as sorted lines with numbers
# printed alike and Booleans as 1 and 0 (the oracle compares typed values; text that reads as a
# number or a Boolean may compare equal here where the oracle saw a difference).
norm() {
	awk -F'|' -v OFS='|' -v e="$1" '{
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/) $i = sprintf("%.15g", $i)
			else if (e == "postgres" && ($i == "t" || $i == "f")) $i = ($i == "t") ? 1 : 0
			else if (e == "duckdb" && ($i == "true" || $i == "false")) $i = ($i == "true") ? 1 : 0
		}
		print
	}'
}
first=
same=1
for e in datafusion duckdb sqlite; do
	ran "$e" || cannot "$e did not answer every query (see above)"
	sec "$e" 'norec.opt-rows' | norm "$e" | LC_ALL=C sort >"$tmp/$e.rows"
	if [ -z "$first" ]; then first=$e; continue; fi
	if ! cmp -s "$tmp/$first.rows" "$tmp/$e.rows"; then
		echo "repro.sh: $e returns other rows than $first (< $first, > $e):"
		diff "$tmp/$first.rows" "$tmp/$e.rows" | grep '^[<>]' | head -n 10
		same=0
	fi
done
if [ "$same" = 0 ]; then echo "repro.sh: the bug reproduces"; exit 0; fi
echo "repro.sh: the bug does not reproduce: every engine returns the same rows"
exit 1
