#!/usr/bin/env bash
# state: kuzu: returns different rows than ref
# kind: wrong-result, oracle: state, seed: 2834716988604153856
# engines: kuzu 0.11.3; ref polyfuzz reference evaluator;
# expected: state.write: the same rows from every engine; ref: 2 rows
# actual: kuzu: 2 rows, missing ((:L1 {id: 113})), extra ((:L1 {id: 113, k9: 1395252658}))
# on the original case: expected state.write: the same rows from every engine; ref: 128 rows; actual kuzu: 128 rows, missing ((:L1 {id: 107, k10: 'hN5LpmAJ'… '', k7: false, k8: 'NCQYq'}), true), ((:L1 {id: 110, k10: 'sy', k22:…lse, k6: '', k8: 'wndZsZyb'}), true), ((:L1 {id: 112, k10: 'Rrv1T', k…: '', k7: false, k8: '6bAS'}), true) ... (24 in all), extra ((:L1 {id: 107, k10: 'hN5LpmAJ'…k8: 'NCQYq', k9: -947150408}), true), ((:L1 {id: 110, k10: 'sy', k22:… 'wndZsZyb', k9: 1293746291}), true), ((:L1 {id: 112, k10: 'Rrv1T', k… k8: '6bAS', k9: 1017720185}), true) ... (24 in all)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/kzc/findings/1f00d30f75a4c29f
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
CREATE (:L1 {id: 112});
CREATE (:L1 {id: 113, k9: 1395252658});
// ---- state.write
MATCH (n0) SET n0.k9 = null RETURN n0 AS c0;
POLYFUZZ_EOF
# rows ENGINE ROLE prints ENGINE's rows for the query of ROLE, sorted; nothing when it did not answer.
rows() { awk -v r="== $2" '$0 == r { on = 1; head = 1; next } /^== / { on = 0 } on && head { head = 0; next } on && /^\([0-9]+ rows\)$/ { on = 0 } on' "$tmp/$1.out" | LC_ALL=C sort; }
# answered ENGINE ROLE says whether ENGINE printed a row count for ROLE.
answered() { awk -v r="== $2" '$0 == r { on = 1; next } /^== / { on = 0 } on && /^\([0-9]+ rows\)$/ { ok = 1 } END { exit !ok }' "$tmp/$1.out"; }
echo '== kuzu'
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" graph run --engine kuzu case.cypher >"$tmp/kuzu.out" 2>&1
echo $? >"$tmp/kuzu.status"
cat "$tmp/kuzu.out"

echo 'repro.sh: cannot judge: no shell judge for the oracle state; run the replay line above' >&2
exit 2
