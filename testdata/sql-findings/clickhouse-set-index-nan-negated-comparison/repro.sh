#!/usr/bin/env bash
# tlp-where: clickhouse: partitions miss rows
# kind: wrong-result, oracle: tlp-where, seed: 4732838278805717044
# engines: clickhouse 26.9.2.1;
# expected: the 1 rows of the original query
# actual: partitions miss (0, NaN, NULL, '0')
# on the original case: expected the 15 rows of the original query; actual partitions miss (0, Inf, NULL, 'x y'), (0, NaN, 478.77, 'A')
# polyfuzz: 0.2.0
# replay: polyfuzz replay testdata/sql-findings/clickhouse-set-index-nan-negated-comparison
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
