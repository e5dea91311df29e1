#!/usr/bin/env bash
# diff: neo4j: returns different rows than falkordb,ref
# kind: wrong-result, oracle: diff, seed: 7057081073568907307
# expected: tlp.orig: the same rows from every engine; falkordb,ref: 128 rows
# actual: neo4j: 128 rows, missing (n:(:L0 {id: i:106, k0: B:true, k1: i:1550084551, k2: i:1549770538, k3: B:false, k4: i:-883830733, k5: t:g, k6: i:-741034405}), NULL, NULL), (n:(:L0 {id: i:110, k0: B:true, k1: i:-1760807969, k2: i:-167486623, k5: t:g, k6: i:1699941693}), NULL, NULL), (n:(:L0 {id: i:122, k0: B:false, k1: i:-713853170, k2: i:927370071, k3: B:true, k4: i:1288267216, k5: t:QNaKqQEz, k6: i:-33028892}), NULL, NULL) ... (128 in all), extra (n:(:L0 {id: i:106, k0: B:true, k1: i:1550084551, k2: i:1549770538, k3: B:false, k4: i:-883830733, k5: t:g, k6: i:-741034405}), i:2, NULL), (n:(:L0 {id: i:110, k0: B:true, k1: i:-1760807969, k2: i:-167486623, k5: t:g, k6: i:1699941693}), i:2, NULL), (n:(:L0 {id: i:122, k0: B:false, k1: i:-713853170, k2: i:927370071, k3: B:true, k4: i:1288267216, k5: t:QNaKqQEz, k6: i:-33028892}), i:2, NULL) ... (128 in all)
# replay: polyfuzz replay /tmp/final10/findings/5156df279023cb83
set -u
cd "$(mktemp -d)"
cat > case.cypher <<'POLYFUZZ_EOF'
// ---- setup
CREATE ({id: 127});
// ---- tlp.orig
RETURN range(2, 1, 2) AS c1;
POLYFUZZ_EOF
echo '== neo4j'
polyfuzz graph run --engine neo4j="${POLYFUZZ_NEO4J_URL:?set POLYFUZZ_NEO4J_URL to the engine's URL}" case.cypher
echo '== falkordb'
polyfuzz graph run --engine falkordb="${POLYFUZZ_FALKORDB_URL:?set POLYFUZZ_FALKORDB_URL to the engine's URL}" case.cypher
echo '== ref'
polyfuzz graph run --engine ref case.cypher
