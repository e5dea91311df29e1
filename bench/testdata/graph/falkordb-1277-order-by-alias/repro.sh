#!/usr/bin/env bash
# error: falkordb: error _ar_exp_updateentityidx: unable to locate a value with alias x within the record
# kind: unexpected-error, oracle: error, seed: 8909800802761768981
# engines: falkordb 4.14.2; ref polyfuzz reference evaluator;
# expected: an answer
# actual: error: _AR_EXP_UpdateEntityIdx: Unable to locate a value with alias a6 within the record (in the query)
# on the original case: expected an answer; actual error: _AR_EXP_UpdateEntityIdx: Unable to locate a value with alias a6 within the record (in the query)
# polyfuzz: 0.2.0
# replay: polyfuzz replay c1/findings/63d2d394825590ad
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
CREATE ({id: 127});
// ---- graph.q
MATCH (n0) WITH n0 AS a6 ORDER BY (a6 IS NULL) DESC, a6 DESC RETURN false AS c2;
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

for e in falkordb; do
	if grep -qF -- 'error: _AR_EXP_UpdateEntityIdx: Unable to locate a value wit' "$tmp/$e.out"; then echo "repro.sh: $e fails as recorded: the bug reproduces"; exit 0; fi
done
echo "repro.sh: the bug does not reproduce"
exit 1
