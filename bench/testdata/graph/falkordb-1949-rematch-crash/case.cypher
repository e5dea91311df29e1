// ---- setup
CREATE ({id: 1});
CREATE ({id: 2});
// ---- graph.q
MATCH (n0), (n4) WITH n0, n4 MATCH (n0) MATCH (n4) RETURN 1 AS c0;
