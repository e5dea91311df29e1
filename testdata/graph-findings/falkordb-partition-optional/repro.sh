#!/usr/bin/env bash
# tlp-where: falkordb: partitions add rows
# kind: wrong-result, oracle: tlp-where, seed: 7463515736668962829
# expected: the 8 rows of the original query
# actual: partitions add (NULL)
# replay: polyfuzz replay /tmp/final3/findings/a5ce6f39967b9054
set -u
cd "$(mktemp -d)"
cat > case.cypher <<'POLYFUZZ_EOF'
// ---- setup
CREATE ({id: 30});
CREATE ({id: 33});
MATCH (a {id: 33}), (b {id: 30}) CREATE (a)-[:T2 {id: 163}]->(b);
MATCH (a {id: 33}), (b {id: 30}) CREATE (a)-[:T2 {id: 166}]->(b);
// ---- tlp.orig
MATCH (n0)-[r1]->(n2) OPTIONAL MATCH (n0)-[r3]->(n4)<-[r5:T3]-(n6) RETURN n4 AS c0;
// ---- tlp.p
MATCH (n0)-[r1]->(n2) WHERE (r1.k49 >= r1.k49) OPTIONAL MATCH (n0)-[r3]->(n4)<-[r5:T3]-(n6) RETURN n4 AS c0;
// ---- tlp.notp
MATCH (n0)-[r1]->(n2) WHERE (NOT (r1.k49 >= r1.k49)) OPTIONAL MATCH (n0)-[r3]->(n4)<-[r5:T3]-(n6) RETURN n4 AS c0;
// ---- tlp.null
MATCH (n0)-[r1]->(n2) WHERE ((r1.k49 >= r1.k49) IS NULL) OPTIONAL MATCH (n0)-[r3]->(n4)<-[r5:T3]-(n6) RETURN n4 AS c0;
POLYFUZZ_EOF
echo '== neo4j'
polyfuzz graph run --engine neo4j="${POLYFUZZ_NEO4J_URL:?set POLYFUZZ_NEO4J_URL to the engine's URL}" case.cypher
echo '== falkordb'
polyfuzz graph run --engine falkordb="${POLYFUZZ_FALKORDB_URL:?set POLYFUZZ_FALKORDB_URL to the engine's URL}" case.cypher
echo '== ref'
polyfuzz graph run --engine ref case.cypher
