// ---- setup
CREATE (:L1 {id: 82, k11: true});
CREATE (:L1 {id: 84, k10: -1996069461, k11: true});
// ---- graph.q
MATCH (n3) WITH n3, -1.5 AS a7 WHERE (-4.25 > CASE WHEN n3.k11 THEN a7 ELSE -5.0 END) RETURN n3 AS c2;
