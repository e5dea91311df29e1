// ---- setup
CREATE ({id: 127});
// ---- graph.q
MATCH (n0) WITH n0 AS a6 ORDER BY (a6 IS NULL) DESC, a6 DESC RETURN false AS c2;
