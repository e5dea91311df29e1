#!/usr/bin/env bash
# diff: falkordb: returns extra rows beyond ref
# kind: wrong-result, oracle: diff, seed: 14343847403835228169
# engines: falkordb 4.22.1; ref polyfuzz reference evaluator;
# expected: graph.q: the same rows from every engine; ref: 0 rows
# actual: falkordb: 1 rows, extra (null)
# on the original case: expected graph.q: the same rows from every engine; ref: 0 rows; actual falkordb: 1 rows, extra (false, null)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/falkordb-4.22.1/findings/1b2a4a4d52b7397a
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
// ---- graph.q
MATCH (n2) WITH max(n2) AS a10 WHERE false RETURN a10 AS c1;
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
