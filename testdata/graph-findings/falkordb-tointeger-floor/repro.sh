#!/usr/bin/env bash
# diff: falkordb: returns different rows than neo4j,ref
# kind: wrong-result, oracle: diff, seed: 1435769255127416872
# expected: tlp.orig: the same rows from every engine; neo4j,ref: 9 rows
# actual: falkordb: 18 rows, missing (i:-1), (i:-1), (i:-1) ... (9 in all), extra (i:-2), (i:-2), (i:-2) ... (18 in all)
# replay: polyfuzz replay /tmp/final10/findings/a81420c206431ff4
set -u
cd "$(mktemp -d)"
cat > case.cypher <<'POLYFUZZ_EOF'
// ---- setup
// ---- tlp.orig
RETURN toInteger(-2.25) AS c0;
POLYFUZZ_EOF
echo '== neo4j'
polyfuzz graph run --engine neo4j="${POLYFUZZ_NEO4J_URL:?set POLYFUZZ_NEO4J_URL to the engine's URL}" case.cypher
echo '== falkordb'
polyfuzz graph run --engine falkordb="${POLYFUZZ_FALKORDB_URL:?set POLYFUZZ_FALKORDB_URL to the engine's URL}" case.cypher
echo '== ref'
polyfuzz graph run --engine ref case.cypher
