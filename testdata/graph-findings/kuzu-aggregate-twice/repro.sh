#!/usr/bin/env bash
# error: kuzu: error cannot evaluate expression with type property.
# kind: unexpected-error, oracle: error, seed: 7267534899053658114
# engines: kuzu 0.11.3; ref polyfuzz reference evaluator;
# expected: an answer
# actual: error: Cannot evaluate expression with type PROPERTY. (in the query)
# on the original case: expected an answer; actual error: Cannot evaluate expression with type PROPERTY. (in the query)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/kz6/findings/e44255e212543ae2
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
MATCH (n1)-[r2]->() WITH collect(r2) AS a6 RETURN a6 AS c0, a6 AS c1;
POLYFUZZ_EOF
# rows ENGINE ROLE prints ENGINE's rows for the query of ROLE, sorted; nothing when it did not answer.
rows() { awk -v r="== $2" '$0 == r { on = 1; head = 1; next } /^== / { on = 0 } on && head { head = 0; next } on && /^\([0-9]+ rows\)$/ { on = 0 } on' "$tmp/$1.out" | LC_ALL=C sort; }
# answered ENGINE ROLE says whether ENGINE printed a row count for ROLE.
answered() { awk -v r="== $2" '$0 == r { on = 1; next } /^== / { on = 0 } on && /^\([0-9]+ rows\)$/ { ok = 1 } END { exit !ok }' "$tmp/$1.out"; }
echo '== kuzu'
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" graph run --engine kuzu case.cypher >"$tmp/kuzu.out" 2>&1
echo $? >"$tmp/kuzu.status"
cat "$tmp/kuzu.out"

for e in kuzu; do
	if grep -qF -- 'error: Cannot evaluate expression with type PROPERTY.' "$tmp/$e.out"; then echo "repro.sh: $e fails as recorded: the bug reproduces"; exit 0; fi
done
echo "repro.sh: the bug does not reproduce"
exit 1
