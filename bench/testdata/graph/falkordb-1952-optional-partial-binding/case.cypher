// ---- setup
CREATE ({id: 12});
CREATE ({id: 85});
MATCH (a {id: 85}), (b {id: 12}) CREATE (a)-[:T4 {id: 296}]->(b);
// ---- graph.q
MATCH (n0) OPTIONAL MATCH (n0)<-[]-(n4)-[r5]->(n6:L2) RETURN n4 AS c0;
