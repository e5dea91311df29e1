#!/usr/bin/env bash
# diff: sqlite vs turso: return different rows
# kind: wrong-result, oracle: diff, seed: 10386290072584519690
# engines: sqlite 3.54.1; turso 0.8.3;
# expected: tlp.orig: the same rows from every engine; sqlite: 1 rows
# actual: turso: 1 rows, missing (NULL, NULL, NULL, NULL, NULL, '0', NULL, NULL, NULL), extra (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '0')
# on the original case: expected tlp.orig: the same rows from every engine; sqlite: 4 rows; actual turso: 4 rows, missing (NULL, NULL, NULL, NULL, 7774.2, 'İ', NULL, 52720, NULL), (NULL, NULL, NULL, NULL, 7774.2, 'İ', -9.43, 91512, '9223372036854775808'), (NULL, NULL, NULL, NULL, 80039.6, 'a_c', NULL, 52720, NULL) ... (4 in all), extra (NULL, 52720, NULL, NULL, NULL, NULL, NULL, 7774.2, 'İ'), (NULL, 52720, NULL, NULL, NULL, NULL, NULL, 80039.6, 'a_c'), (-9.43, 91512, '9223372036854775808', NULL, NULL, NULL, NULL, 7774.2, 'İ') ... (4 in all)
# polyfuzz: 0.2.0
# replay: polyfuzz replay c10-diff/findings/f248334fea145d02
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

# SQLite's sqlite3 shell (generated SQL may use functions of 3.48 or later), in memory; set SQLITE3 to name it.
sh=${SQLITE3:-sqlite3}
command -v "$sh" >/dev/null || cannot "$sh not found: install it or set SQLITE3"
version sqlite '3.54.1' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/sqlite.out" 2>"$tmp/sqlite.err" <<'POLYFUZZ_SQL'
.headers off
.mode list
.separator |
.nullvalue NULL
CREATE TEMP TABLE t0 (c0 ANY, c1 INTEGER, c2 VARCHAR(0) CHECK (NULL));
CREATE TABLE t1 (c0 DOUBLE PRIMARY KEY DESC, c1 NVARCHAR(0) COLLATE RTRIM NOT NULL ON CONFLICT FAIL);
CREATE TABLE t2 (c0 DOUBLE, c1 NUMERIC NOT NULL ON CONFLICT ROLLBACK, c2 BLOB, c3 NVARCHAR(0));
REPLACE INTO t1 VALUES (NULL, 0);
.print '---- tlp.orig'
SELECT * FROM t2 RIGHT JOIN t1 LEFT JOIN t0;
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/sqlite.status"
grep -Eo 'line [0-9]+' "$tmp/sqlite.err" | awk '$2 + 0 >= 9' >"$tmp/sqlite.qfail"
echo '== sqlite answers:'
cat "$tmp/sqlite.out"
cat "$tmp/sqlite.err" >&2

cannot 'no client known for turso'

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
for e in sqlite turso; do
	ran "$e" || cannot "$e did not answer every query (see above)"
	sec "$e" 'tlp.orig' | norm "$e" | LC_ALL=C sort >"$tmp/$e.rows"
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
