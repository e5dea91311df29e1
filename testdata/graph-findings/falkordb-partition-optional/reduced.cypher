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
