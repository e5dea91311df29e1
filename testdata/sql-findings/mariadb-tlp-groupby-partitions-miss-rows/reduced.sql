CREATE TABLE t0 (c0 INT UNIQUE DEFAULT 0, c1 SMALLINT UNIQUE, c2 DECIMAL(20,5), c3 SMALLINT PRIMARY KEY);
INSERT IGNORE INTO t0 (c0, c1, c2, c3) VALUES (-0, NULL, NULL, NULL);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (1, NULL, NULL, 1);
-- groupby.orig
SELECT t0.c3, t0.c1, t0.c2 FROM t0 GROUP BY t0.c3, t0.c1, t0.c2;
-- groupby.p
SELECT t0.c3, t0.c1, t0.c2 FROM t0 WHERE (t0.c1 <=> abs(CAST(NULL AS DOUBLE))) GROUP BY t0.c3, t0.c1, t0.c2;
-- groupby.notp
SELECT t0.c3, t0.c1, t0.c2 FROM t0 WHERE NOT ((t0.c1 <=> abs(CAST(NULL AS DOUBLE)))) GROUP BY t0.c3, t0.c1, t0.c2;
-- groupby.null
SELECT t0.c3, t0.c1, t0.c2 FROM t0 WHERE ((t0.c1 <=> abs(CAST(NULL AS DOUBLE)))) IS NULL GROUP BY t0.c3, t0.c1, t0.c2;
