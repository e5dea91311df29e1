CREATE TABLE t0 (c0 INT UNIQUE DEFAULT 0, c1 SMALLINT UNIQUE, c2 DECIMAL(20,5), c3 SMALLINT PRIMARY KEY);
INSERT IGNORE INTO t0 (c0, c1, c2, c3) VALUES (-0, NULL, NULL, NULL);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (1, NULL, NULL, 1);
-- having.orig
SELECT t0.c0, t0.c1, t0.c2, t0.c3 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2, t0.c3;
-- having.p
SELECT t0.c0, t0.c1, t0.c2, t0.c3 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2, t0.c3 HAVING (t0.c1 <=> abs(CAST(NULL AS DOUBLE)));
-- having.notp
SELECT t0.c0, t0.c1, t0.c2, t0.c3 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2, t0.c3 HAVING NOT ((t0.c1 <=> abs(CAST(NULL AS DOUBLE))));
-- having.null
SELECT t0.c0, t0.c1, t0.c2, t0.c3 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2, t0.c3 HAVING ((t0.c1 <=> abs(CAST(NULL AS DOUBLE)))) IS NULL;
