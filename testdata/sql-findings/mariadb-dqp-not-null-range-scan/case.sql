CREATE TABLE t0 (c0 VARCHAR(100), c1 INT NOT NULL, c2 DOUBLE PRIMARY KEY) ENGINE=InnoDB;
CREATE TABLE t1 (c0 CHAR(8) DEFAULT 'ß', c1 DECIMAL, c2 DOUBLE, c3 VARCHAR(20));
INSERT IGNORE INTO t0 (c0, c1, c2) VALUES ('NULL', 77, CAST(21881.5 AS DOUBLE));
INSERT INTO t1 (c0, c1, c2, c3) VALUES (NULL, 114.12, CAST('1e10' AS DOUBLE), NULL), ('1', 715.87, CAST(498.4 AS DOUBLE), NULL);
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, 38, CAST('1.5' AS DOUBLE)), (NULL, 1000, CAST('100' AS DOUBLE));
SET SESSION optimizer_switch = 'derived_merge=off';
CREATE VIEW v0 AS SELECT t1.c1 AS c0, t1.c3 AS c1, t1.c3 AS c2 FROM t1 WHERE (t1.c0 IS NOT NULL);
UPDATE t0 SET c0 = ((t0.c0 COLLATE utf8mb4_general_ci) COLLATE utf8mb4_general_ci) WHERE (COALESCE(t0.c0, t0.c0) > (CASE WHEN TRUE THEN t0.c0 END));
CHECK TABLE t1;
INSERT IGNORE INTO t0 (c0, c1, c2) VALUES (NULL, -5, CAST(19331.5 AS DOUBLE)), (' a', -11, CAST(26820.5 AS DOUBLE));
SET SESSION optimizer_switch = 'rowid_filter=off';
INSERT INTO t0 (c0, c1, c2) VALUES ('a ', -10, CAST(425.2 AS DOUBLE)), ('1', 1, CAST(6328.5 AS DOUBLE));
INSERT INTO t0 (c0, c1, c2) VALUES ('A', 42, CAST(7544.5 AS DOUBLE));
CREATE UNIQUE INDEX i0 ON t1 (c0);
INSERT INTO t0 (c0, c1, c2) VALUES ('a', 74, CAST('-1.5' AS DOUBLE));
INSERT INTO t0 (c0, c1, c2) VALUES ('a', 0, CAST(14512.5 AS DOUBLE)), ('a', 32767, CAST(28730.5 AS DOUBLE)), ('ab', -15, CAST('1e10' AS DOUBLE)), ('é', -9, CAST(23871.5 AS DOUBLE));
INSERT INTO t1 (c0, c1, c2, c3) VALUES ('ß', 463.23, CAST('-0' AS DOUBLE), NULL), ('a ', 25.58, NULL, '%'), (NULL, -0.5, CAST('1e-10' AS DOUBLE), '%');
CHECK TABLE t1;
-- dqp.base
SELECT * FROM t1 WHERE ((('abc' >= t1.c0) IS TRUE) IS NOT NULL);
-- dqp.set
SET SESSION optimizer_switch = 'not_null_range_scan=on';
-- dqp.plan
SELECT * FROM t1 WHERE ((('abc' >= t1.c0) IS TRUE) IS NOT NULL);
-- dqp.reset
SET SESSION optimizer_switch = 'not_null_range_scan=default';
