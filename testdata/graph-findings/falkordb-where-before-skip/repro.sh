#!/usr/bin/env bash
# diff: falkordb: misses rows of ref
# kind: wrong-result, oracle: diff, seed: 14343847403835228193
# engines: falkordb 4.22.1; ref polyfuzz reference evaluator;
# expected: graph.q: the same rows from every engine; ref: 1 rows
# actual: falkordb: 0 rows, missing (({id: 86}))
# on the original case: expected graph.q: the same rows from every engine; ref: 1 rows; actual falkordb: 0 rows, missing ((:L3 {id: 127, k17: 'YbCU ', k…8621, k20: true, k21: false}), (:L1 {id: 42, k10: 'hMnWpF', k…-1814560056, k8: 1887624991}), null)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/falkordb-4.22.1/findings/ea1437cf35a3e804
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
cd "$tmp" || exit 2
pf=${POLYFUZZ:-polyfuzz}
command -v "$pf" >/dev/null || cannot "$pf not found: the case runs with 'polyfuzz graph run' (set POLYFUZZ)"
cat > case.cypher <<'POLYFUZZ_EOF'
// ---- setup
CREATE ({id: 12, k15: true});
CREATE ({id: 82});
CREATE ({id: 86});
CREATE ({id: 93});
CREATE ({id: 97});
CREATE ({id: 114});
MATCH (a {id: 12}), (b {id: 86}) CREATE (a)-[:T1 {id: 266}]->(b);
MATCH (a {id: 93}), (b {id: 97}) CREATE (a)-[:T1 {id: 269}]->(b);
MATCH (a {id: 82}), (b {id: 114}) CREATE (a)-[:T1 {id: 270}]->(b);
// ---- graph.q
MATCH (n0)-[r1]->(n2) WITH n0, n2 ORDER BY n0.id DESC, n2 DESC SKIP 2 WITH n2, n0 WHERE n0.k15 RETURN n2 AS c2;
POLYFUZZ_EOF
# rows ENGINE ROLE prints ENGINE's rows for the query of ROLE, sorted; nothing when it did not answer.
rows() { awk -v r="== $2" '$0 == r { on = 1; head = 1; next } /^== / { on = 0 } on && head { head = 0; next } on && /^\([0-9]+ rows\)$/ { on = 0 } on' "$tmp/$1.out" | LC_ALL=C sort; }
# answered ENGINE ROLE says whether ENGINE printed a row count for ROLE.
answered() { awk -v r="== $2" '$0 == r { on = 1; next } /^== / { on = 0 } on && /^\([0-9]+ rows\)$/ { ok = 1 } END { exit !ok }' "$tmp/$1.out"; }
[ -n "${POLYFUZZ_FALKORDB_URL:-}" ] || cannot 'set POLYFUZZ_FALKORDB_URL to falkordb'\''s URL'
echo '== falkordb'
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" graph run --engine falkordb="$POLYFUZZ_FALKORDB_URL" case.cypher >"$tmp/falkordb.out" 2>&1
echo $? >"$tmp/falkordb.status"
cat "$tmp/falkordb.out"
echo '== ref'
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" graph run --engine ref case.cypher >"$tmp/ref.out" 2>&1
echo $? >"$tmp/ref.status"
cat "$tmp/ref.out"

# diff: every engine that answers must return the same rows for graph.q.
first=
same=1
n=0
for e in falkordb ref; do
	answered "$e" 'graph.q' || { echo "repro.sh: $e did not answer" >&2; continue; }
	rows "$e" 'graph.q' >"$tmp/$e.rows"
	n=$((n + 1))
	if [ -z "$first" ]; then first=$e; continue; fi
	if ! cmp -s "$tmp/$first.rows" "$tmp/$e.rows"; then
		echo "repro.sh: $e returns other rows than $first (< $first only, > $e only):"
		diff "$tmp/$first.rows" "$tmp/$e.rows" | grep '^[<>]' | head -n 10
		same=0
	fi
done
[ "$n" -ge 2 ] || cannot "fewer than two engines answered"
if [ "$same" = 0 ]; then echo "repro.sh: the bug reproduces"; exit 0; fi
echo "repro.sh: the bug does not reproduce: the engines return the same rows"
exit 1
