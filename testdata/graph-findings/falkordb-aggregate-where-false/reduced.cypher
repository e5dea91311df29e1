// ---- setup
// ---- graph.q
MATCH (n2) WITH max(n2) AS a10 WHERE false RETURN a10 AS c1;
