// ---- setup
CREATE (:L1 {id: 124});
CREATE (:L3 {id: 126, k21: false, k22: 'pf'});
CREATE (:L1 {id: 127});
// ---- graph.q
MATCH (n0) WITH n0 UNWIND [11, 364617048] AS u1 MATCH (n0)<-[r2:T1|T0]-(n3:L1) WHERE ((0.5 > coalesce(-1.0, 4.0)) AND ((r2.k36 < 'dr9H') AND (-4.25 <= -1.5))) UNWIND ['OOiaf0uw'] AS u4 WITH DISTINCT n0, trim(trim(toUpper(n0.k14))) AS a5, ['nY', ''] AS a6, n3, coalesce(-1.5, -5.0) AS a7, n0.k15 AS a8 WHERE (CASE WHEN (n0.k13 OR n3.k11) THEN (-4.25 - a7) ELSE 3.75 END > CASE WHEN n3.k11 THEN abs(a7) ELSE -5.0 END) RETURN n0 AS c0, n3 AS c1, [n3.k10] AS c2;
// ---- tlp.orig
MATCH (n0) UNWIND ['By', '', 'yEP5Z2'] AS u1 UNWIND ['lE', 'gjoS', '8XS7AkCq'] AS u2 UNWIND range(-3, 3, 1) AS u3 UNWIND range(1, 5, 2) AS u4 WITH n0 RETURN n0 AS c0;
// ---- tlp.p
MATCH (n0) WHERE CASE WHEN n0.k21 THEN n0.k21 WHEN n0.k21 THEN ((-5.0 <> -2.25) OR (n0.k22 ENDS WITH 'NET')) ELSE false END UNWIND ['By', '', 'yEP5Z2'] AS u1 UNWIND ['lE', 'gjoS', '8XS7AkCq'] AS u2 UNWIND range(-3, 3, 1) AS u3 UNWIND range(1, 5, 2) AS u4 WITH n0 RETURN n0 AS c0;
// ---- tlp.notp
MATCH (n0) WHERE (NOT CASE WHEN n0.k21 THEN n0.k21 WHEN n0.k21 THEN ((-5.0 <> -2.25) OR (n0.k22 ENDS WITH 'NET')) ELSE false END) UNWIND ['By', '', 'yEP5Z2'] AS u1 UNWIND ['lE', 'gjoS', '8XS7AkCq'] AS u2 UNWIND range(-3, 3, 1) AS u3 UNWIND range(1, 5, 2) AS u4 WITH n0 RETURN n0 AS c0;
// ---- tlp.null
MATCH (n0) WHERE (CASE WHEN n0.k21 THEN n0.k21 WHEN n0.k21 THEN ((-5.0 <> -2.25) OR (n0.k22 ENDS WITH 'NET')) ELSE false END IS NULL) UNWIND ['By', '', 'yEP5Z2'] AS u1 UNWIND ['lE', 'gjoS', '8XS7AkCq'] AS u2 UNWIND range(-3, 3, 1) AS u3 UNWIND range(1, 5, 2) AS u4 WITH n0 RETURN n0 AS c0;
