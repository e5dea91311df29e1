#!/usr/bin/env bash
# tlp-having: sqlite: partitions differ from the original rows
# kind: wrong-result, oracle: tlp-having, seed: 10354253459520290876
# engines: sqlite 3.40.1;
# expected: the 1 rows of the original query
# actual: partitions miss (NULL, NULL, 0); add (NULL, NULL, NULL)
# on the original case: expected the 12 rows of the original query; actual partitions miss (NULL, NULL, NULL, NULL, 1, 19), (NULL, NULL, NULL, 4697.5, 1, 65.44), (NULL, NULL, NULL, 78692.0, 1, 57) ... (6 in all); add (NULL, NULL, NULL, NULL, NULL, 19), (NULL, NULL, NULL, 4697.5, NULL, 65.44), (NULL, NULL, NULL, 78692.0, NULL, 57) ... (6 in all)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/sqlver-accept/findings/132da38cd72fe10f
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
version sqlite '3.40.1' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/sqlite.out" 2>"$tmp/sqlite.err" <<'POLYFUZZ_SQL'
.headers off
.mode quote
.separator |
.nullvalue NULL
CREATE TEMP TABLE t1 (c0 REAL UNIQUE, c1 NUMERIC GENERATED ALWAYS AS (CAST(c2 AS CHARINT)), c2 ANY);
CREATE TABLE t2 (c0 NVARCHAR(0) NOT NULL UNIQUE, c1 NUMERIC DEFAULT NULL UNIQUE, c2);
CREATE INDEX i0 ON t1 (c0, c1 COLLATE RTRIM DESC);
INSERT INTO t1(c0, c2) VALUES (NULL, 0);
.print '---- having.orig'
SELECT t2.c0, t1.c0, t1.c1 FROM t2 FULL JOIN t1 ON 0 GROUP BY t2.c0, t1.c0, t1.c1;
.print '---- having.p'
SELECT t2.c0, t1.c0, t1.c1 FROM t2 FULL JOIN t1 ON 0 GROUP BY t2.c0, t1.c0, t1.c1 HAVING t1.c1;
.print '---- having.notp'
SELECT t2.c0, t1.c0, t1.c1 FROM t2 FULL JOIN t1 ON 0 GROUP BY t2.c0, t1.c0, t1.c1 HAVING NOT (t1.c1);
.print '---- having.null'
SELECT t2.c0, t1.c0, t1.c1 FROM t2 FULL JOIN t1 ON 0 GROUP BY t2.c0, t1.c0, t1.c1 HAVING (t1.c1) IS NULL;
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/sqlite.status"
grep -Eo 'line [0-9]+' "$tmp/sqlite.err" | awk '$2 + 0 >= 9' >"$tmp/sqlite.qfail"
echo '== sqlite answers:'
cat "$tmp/sqlite.out"
cat "$tmp/sqlite.err" >&2

# tlp-having: the original query's rows must be, as a multiset, the partitions' rows.
judge() {
	sec "$1" 'having.orig' | LC_ALL=C sort >"$tmp/orig"
	{ sec "$1" 'having.p'; sec "$1" 'having.notp'; sec "$1" 'having.null'; } | LC_ALL=C sort >"$tmp/parts"
	if cmp -s "$tmp/orig" "$tmp/parts"; then echo "$1: the partitions give the $(wc -l <"$tmp/orig") rows of the original query"; return 1; fi
	echo "$1: the partitions' rows differ from the original rows (< missing from the partitions, > added by them):"
	diff "$tmp/orig" "$tmp/parts" | grep '^[<>]' | head -n 10
	return 0
}
res=1
for e in sqlite; do
	if ! ran "$e"; then echo "repro.sh: $e did not answer every query of the relation (see above)" >&2; res=2; continue; fi
	judge "$e"
	case $? in
	0) echo "repro.sh: the bug reproduces on $e"; exit 0 ;;
	2) res=2 ;;
	esac
done
[ "$res" = 1 ] && echo "repro.sh: the bug does not reproduce"
exit "$res"
