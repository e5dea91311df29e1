// ---- setup
// ---- graph.q
MATCH (n1)-[r2]->() WITH collect(r2) AS a6 RETURN a6 AS c0, a6 AS c1;
