// ---- setup
CREATE ({id: 26});
CREATE ({id: 29});
CREATE ({id: 96});
CREATE ({id: 111});
CREATE ({id: 121});
MATCH (a {id: 26}), (b {id: 111}) CREATE (a)-[:T0 {id: 250}]->(b);
MATCH (a {id: 121}), (b {id: 29}) CREATE (a)-[:T0 {id: 261}]->(b);
MATCH (a {id: 26}), (b {id: 96}) CREATE (a)-[:T0 {id: 262}]->(b);
// ---- state.write
MATCH (n0)-[r3:T0]-(n2) DETACH DELETE n2 RETURN count(*) AS c0;
