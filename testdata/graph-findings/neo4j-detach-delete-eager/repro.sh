#!/usr/bin/env bash
# state: neo4j: returns different rows than falkordb,ref
# kind: wrong-result, oracle: state, seed: 175177805898317833
# engines: neo4j 5.26.30; falkordb 4.16.3; ref polyfuzz reference evaluator;
# expected: state.write: the same rows from every engine; falkordb,ref: 1 rows
# actual: neo4j: 1 rows, missing (6), extra (4)
# on the original case: expected state.write: the same rows from every engine; falkordb,ref: 1 rows; actual neo4j: 1 rows, missing (60), extra (40)
# polyfuzz: 0.2.0
# replay: polyfuzz replay /tmp/wt-write-camp2/findings/a903e3fafadc6816
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
CREATE ({id: 26});
CREATE ({id: 29});
CREATE ({id: 96});
CREATE ({id: 111});
CREATE ({id: 121});
MATCH (a {id: 26}), (b {id: 111}) CREATE (a)-[:T0 {id: 250}]->(b);
MATCH (a {id: 121}), (b {id: 29}) CREATE (a)-[:T0 {id: 261}]->(b);
MATCH (a {id: 26}), (b {id: 96}) CREATE (a)-[:T0 {id: 262}]->(b);
// ---- state.write
MATCH (n0)-[r3:T0]-(n2) DETACH DELETE n2 RETURN count(*) AS c0;
POLYFUZZ_EOF
# rows ENGINE ROLE prints ENGINE's rows for the query of ROLE, sorted; nothing when it did not answer.
rows() { awk -v r="== $2" '$0 == r { on = 1; head = 1; next } /^== / { on = 0 } on && head { head = 0; next } on && /^\([0-9]+ rows\)$/ { on = 0 } on' "$tmp/$1.out" | LC_ALL=C sort; }
# answered ENGINE ROLE says whether ENGINE printed a row count for ROLE.
answered() { awk -v r="== $2" '$0 == r { on = 1; next } /^== / { on = 0 } on && /^\([0-9]+ rows\)$/ { ok = 1 } END { exit !ok }' "$tmp/$1.out"; }
[ -n "${POLYFUZZ_NEO4J_URL:-}" ] || cannot 'set POLYFUZZ_NEO4J_URL to neo4j'\''s URL'
printf '// ---- version\nCALL dbms.components() YIELD versions RETURN versions[0] AS v;\n' > version.cypher
version neo4j '5.26.30' "$("$pf" graph run --engine neo4j="$POLYFUZZ_NEO4J_URL" version.cypher 2>&1 | sed -n 3p)"
echo '== neo4j'
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "$pf" graph run --engine neo4j="$POLYFUZZ_NEO4J_URL" case.cypher >"$tmp/neo4j.out" 2>&1
echo $? >"$tmp/neo4j.status"
cat "$tmp/neo4j.out"

echo 'repro.sh: cannot judge: no shell judge for the oracle state; run the replay line above' >&2
exit 2
