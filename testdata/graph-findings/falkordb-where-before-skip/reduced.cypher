// ---- setup
CREATE ({id: 12, k15: true});
CREATE ({id: 82});
CREATE ({id: 86});
CREATE ({id: 93});
CREATE ({id: 97});
CREATE ({id: 114});
MATCH (a {id: 12}), (b {id: 86}) CREATE (a)-[:T1 {id: 266}]->(b);
MATCH (a {id: 93}), (b {id: 97}) CREATE (a)-[:T1 {id: 269}]->(b);
MATCH (a {id: 82}), (b {id: 114}) CREATE (a)-[:T1 {id: 270}]->(b);
// ---- graph.q
MATCH (n0)-[r1]->(n2) WITH n0, n2 ORDER BY n0.id DESC, n2 DESC SKIP 2 WITH n2, n0 WHERE n0.k15 RETURN n2 AS c2;
