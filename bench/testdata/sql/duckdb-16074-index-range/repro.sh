#!/usr/bin/env bash
# tlp-where: duckdb: partitions add rows
# kind: wrong-result, oracle: tlp-where, seed: 8122078369917763593
# engines: duckdb v1.2.0;
# expected: the 3 rows of the original query
# actual: partitions add (TRUE), (TRUE)
# on the original case: expected the 29 rows of the original query; actual partitions add (TRUE), (TRUE), (TRUE) ... (26 in all)
# polyfuzz: 0.2.0
# replay: polyfuzz replay bench/testdata/sql/duckdb-16074-index-range
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
version duckdb 'v1.2.0' "$("$sh" --version 2>&1 | head -n 1)"
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$sh" :memory: >"$tmp/duckdb.out" 2>"$tmp/duckdb.err" <<'POLYFUZZ_SQL'
.headers off
.mode list
.separator |
.nullvalue NULL
CREATE TABLE t0 (c0 BOOLEAN);
INSERT INTO t0 (c0) VALUES (FALSE), (TRUE), (TRUE);
CREATE INDEX i0 ON t0 (c0 ASC);
.print '---- tlp.orig'
SELECT * FROM t0;
.print '---- tlp.p'
SELECT * FROM t0 WHERE (t0.c0 BETWEEN t0.c0 AND FALSE);
.print '---- tlp.notp'
SELECT * FROM t0 WHERE NOT ((t0.c0 BETWEEN t0.c0 AND FALSE));
.print '---- tlp.null'
SELECT * FROM t0 WHERE ((t0.c0 BETWEEN t0.c0 AND FALSE)) IS NULL;
.print '---- end'
POLYFUZZ_SQL
echo $? >"$tmp/duckdb.status"
grep -Eo 'line [0-9]+' "$tmp/duckdb.err" | awk '$2 + 0 >= 8' >"$tmp/duckdb.qfail"
echo '== duckdb answers:'
cat "$tmp/duckdb.out"
cat "$tmp/duckdb.err" >&2

# tlp-where: the original query's rows must be, as a multiset, the partitions' rows.
judge() {
	sec "$1" 'tlp.orig' | LC_ALL=C sort >"$tmp/orig"
	{ sec "$1" 'tlp.p'; sec "$1" 'tlp.notp'; sec "$1" 'tlp.null'; } | LC_ALL=C sort >"$tmp/parts"
	if cmp -s "$tmp/orig" "$tmp/parts"; then echo "$1: the partitions give the $(wc -l <"$tmp/orig") rows of the original query"; return 1; fi
	echo "$1: the partitions' rows differ from the original rows (< missing from the partitions, > added by them):"
	diff "$tmp/orig" "$tmp/parts" | grep '^[<>]' | head -n 10
	return 0
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
