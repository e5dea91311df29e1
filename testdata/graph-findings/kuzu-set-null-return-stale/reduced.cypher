// ---- setup
CREATE (:L1 {id: 112});
CREATE (:L1 {id: 113, k9: 1395252658});
// ---- state.write
MATCH (n0) SET n0.k9 = null RETURN n0 AS c0;
