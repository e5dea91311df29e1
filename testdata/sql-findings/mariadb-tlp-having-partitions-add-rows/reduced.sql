CREATE TABLE t0 (c0 DECIMAL(10,2), c1 DECIMAL(10,2), c2 BIGINT, c3 DECIMAL) ENGINE=MyISAM;
CREATE TABLE t1 (c0 CHAR(8) NOT NULL, c1 DECIMAL(10,2) UNIQUE, c2 DECIMAL(10,2) PRIMARY KEY) ENGINE=Aria;
CREATE INDEX i0 ON t0 (c1 DESC);
INSERT INTO t1 (c0, c1, c2) VALUES (0, NULL, 0);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (NULL, 0, 0, -0);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (NULL, NULL, 0, NULL);
-- having.orig
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3;
-- having.p
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 HAVING (t0.c1 <> 0.001);
-- having.notp
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 HAVING NOT ((t0.c1 <> 0.001));
-- having.null
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 HAVING ((t0.c1 <> 0.001)) IS NULL;
