CREATE TABLE t0 (c0 DECIMAL(10,2) PRIMARY KEY);
CREATE TABLE t1 (c0 DECIMAL(20,5), c1 INT, c2 BIGINT, c3 VARCHAR(1) UNIQUE) ENGINE=Aria;
INSERT INTO t1 (c0, c1, c2, c3) VALUES (NULL, 0, 0, 0);
-- agg.orig
SELECT AVG((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0;
-- agg.p
SELECT SUM((t1.c2 - t1.c1)), COUNT((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0 WHERE (LEAST(CONCAT(t1.c3, t1.c3), NULLIF(1, t1.c3)) <> replace(LEAST(t1.c3, t1.c3, t1.c3), CONCAT(t1.c3, 0), CAST(t0.c0 AS CHAR)));
-- agg.notp
SELECT SUM((t1.c2 - t1.c1)), COUNT((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0 WHERE NOT ((LEAST(CONCAT(t1.c3, t1.c3), NULLIF(1, t1.c3)) <> replace(LEAST(t1.c3, t1.c3, t1.c3), CONCAT(t1.c3, 0), CAST(t0.c0 AS CHAR))));
-- agg.null
SELECT SUM((t1.c2 - t1.c1)), COUNT((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0 WHERE ((LEAST(CONCAT(t1.c3, t1.c3), NULLIF(1, t1.c3)) <> replace(LEAST(t1.c3, t1.c3, t1.c3), CONCAT(t1.c3, 0), CAST(t0.c0 AS CHAR)))) IS NULL;
