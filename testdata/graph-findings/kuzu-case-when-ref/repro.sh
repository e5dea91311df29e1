#!/usr/bin/env bash
# diff: kuzu: returns extra rows beyond ref
# kind: wrong-result, oracle: diff, seed: 4455725808831234048
# engines: kuzu 0.11.3; ref polyfuzz reference evaluator;
# expected: graph.q: the same rows from every engine; ref: 0 rows
# actual: kuzu: 1 rows, extra ((:L1 {id: 84, k10: -1996069461, k11: true}))
# on the original case: expected graph.q: the same rows from every engine; ref: 4 rows; actual kuzu: 9 rows, extra ((:L1 {id: 100, k10: -544982121…2933907, k8: true, k9: true}), (:L1 {id: 41, k10: -544982121,…112027, k8: false, k9: true}), [-544982121]), ((:L1 {id: 124, k10: -199606946…71040, k8: false, k9: false}), (:L1 {id: 101, k10: -123947553…98500, k8: false, k9: false}), [-1239475531]), ((:L2 {id: 116, k12: -951566511…17: false, k18: -1554857837}), (:L1 {id: 101, k10: -123947553…98500, k8: false, k9: false}), [-1239475531]) ... (5 in all)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/kz2/findings/14159a92e007ebe2
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
CREATE (:L1 {id: 82, k11: true});
CREATE (:L1 {id: 84, k10: -1996069461, k11: true});
// ---- graph.q
MATCH (n3) WITH n3, -1.5 AS a7 WHERE (-4.25 > CASE WHEN n3.k11 THEN a7 ELSE -5.0 END) RETURN n3 AS c2;
POLYFUZZ_EOF
# rows ENGINE ROLE prints ENGINE's rows for the query of ROLE, sorted; nothing when it did not answer.
rows() { awk -v r="== $2" '$0 == r { on = 1; head = 1; next } /^== / { on = 0 } on && head { head = 0; next } on && /^\([0-9]+ rows\)$/ { on = 0 } on' "$tmp/$1.out" | LC_ALL=C sort; }
# answered ENGINE ROLE says whether ENGINE printed a row count for ROLE.
answered() { awk -v r="== $2" '$0 == r { on = 1; next } /^== / { on = 0 } on && /^\([0-9]+ rows\)$/ { ok = 1 } END { exit !ok }' "$tmp/$1.out"; }
echo '== kuzu'
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" graph run --engine kuzu case.cypher >"$tmp/kuzu.out" 2>&1
echo $? >"$tmp/kuzu.status"
cat "$tmp/kuzu.out"
echo '== ref'
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" graph run --engine ref case.cypher >"$tmp/ref.out" 2>&1
echo $? >"$tmp/ref.status"
cat "$tmp/ref.out"

# diff: every engine that answers must return the same rows for graph.q.
first=
same=1
n=0
for e in kuzu ref; do
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
