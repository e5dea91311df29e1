CREATE TABLE t1 (c0 CHAR(8) DEFAULT 0, c1 DECIMAL, c2 DOUBLE, c3 VARCHAR(0));
INSERT INTO t1 (c0, c1, c2, c3) VALUES (NULL, NULL, CAST(NULL AS DOUBLE), NULL);
CREATE UNIQUE INDEX i0 ON t1 (c0);
-- dqp.base
SELECT * FROM t1 WHERE ((t1.c0 IS TRUE) IS NOT NULL);
-- dqp.set
SET SESSION optimizer_switch = 'not_null_range_scan=on';
-- dqp.plan
SELECT * FROM t1 WHERE ((t1.c0 IS TRUE) IS NOT NULL);
-- dqp.reset
SET SESSION optimizer_switch = 'not_null_range_scan=default';
