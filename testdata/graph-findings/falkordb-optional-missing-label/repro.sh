#!/usr/bin/env bash
# diff: falkordb: returns different rows than neo4j,ref
# kind: wrong-result, oracle: diff, seed: 2544173551366176776
# expected: graph.q: the same rows from every engine; neo4j,ref: 60 rows
# actual: falkordb: 63 rows, missing (NULL, n:(:L0:L2:L3 {id: i:104, k0: t:xNsJ55j, k1: i:273220668, k12: B:true, k13: i:-668600828, k14: B:false, k15: t:, k16: t:U, k17: B:true, k18: i:-766840914, k19: i:-1508482677, k2: B:false, k20: i:-539528217, k21: B:false, k23: t:8, k3: t:pYvPN, k4: B:true, k5: B:false})), (NULL, n:(:L0:L2:L3 {id: i:104, k0: t:xNsJ55j, k1: i:273220668, k12: B:true, k13: i:-668600828, k14: B:false, k15: t:, k16: t:U, k17: B:true, k18: i:-766840914, k19: i:-1508482677, k2: B:false, k20: i:-539528217, k21: B:false, k23: t:8, k3: t:pYvPN, k4: B:true, k5: B:false})), (NULL, n:(:L0:L2:L3 {id: i:104, k0: t:xNsJ55j, k1: i:273220668, k12: B:true, k13: i:-668600828, k14: B:false, k15: t:, k16: t:U, k17: B:true, k18: i:-766840914, k19: i:-1508482677, k2: B:false, k20: i:-539528217, k21: B:false, k23: t:8, k3: t:pYvPN, k4: B:true, k5: B:false})) ... (12 in all), extra (n:(:L0:L2:L3 {id: i:44, k0: t:mFfzFR, k1: i:345065151, k13: i:1586896956, k14: B:true, k16: t:U, k17: B:true, k18: i:285077423, k19: i:648915259, k2: B:false, k20: i:-1757978796, k21: B:false, k22: B:true, k23: t:, k3: t:, k4: B:false, k5: B:true}), n:(:L3 {id: i:92, k18: i:-664815155, k19: i:-1508482677, k20: i:404232031, k21: B:false, k23: t:7})), (n:(:L0:L2:L3 {id: i:44, k0: t:mFfzFR, k1: i:345065151, k13: i:1586896956, k14: B:true, k16: t:U, k17: B:true, k18: i:285077423, k19: i:648915259, k2: B:false, k20: i:-1757978796, k21: B:false, k22: B:true, k23: t:, k3: t:, k4: B:false, k5: B:true}), n:(:L3 {id: i:92, k18: i:-664815155, k19: i:-1508482677, k20: i:404232031, k21: B:false, k23: t:7})), (n:(:L0:L2:L3 {id: i:44, k0: t:mFfzFR, k1: i:345065151, k13: i:1586896956, k14: B:true, k16: t:U, k17: B:true, k18: i:285077423, k19: i:648915259, k2: B:false, k20: i:-1757978796, k21: B:false, k22: B:true, k23: t:, k3: t:, k4: B:false, k5: B:true}), n:(:L3 {id: i:92, k18: i:-664815155, k19: i:-1508482677, k20: i:404232031, k21: B:false, k23: t:7})) ... (15 in all)
# replay: polyfuzz replay /tmp/final3/findings/a81420c206431ff4
set -u
cd "$(mktemp -d)"
cat > case.cypher <<'POLYFUZZ_EOF'
// ---- setup
CREATE ({id: 12});
CREATE ({id: 85});
MATCH (a {id: 85}), (b {id: 12}) CREATE (a)-[:T4 {id: 296}]->(b);
// ---- graph.q
MATCH (n0) OPTIONAL MATCH (n0)<-[]-(n4)-[r5]->(n6:L2) RETURN n4 AS c0;
POLYFUZZ_EOF
echo '== neo4j'
polyfuzz graph run --engine neo4j="${POLYFUZZ_NEO4J_URL:?set POLYFUZZ_NEO4J_URL to the engine's URL}" case.cypher
echo '== falkordb'
polyfuzz graph run --engine falkordb="${POLYFUZZ_FALKORDB_URL:?set POLYFUZZ_FALKORDB_URL to the engine's URL}" case.cypher
echo '== ref'
polyfuzz graph run --engine ref case.cypher
