CREATE TABLE t0 (c0 VARCHAR NOT NULL, c1 INTEGER);
CREATE TABLE t1 (c0 BOOLEAN DEFAULT FALSE, c1 BOOLEAN);
SET datafusion.optimizer.enable_piecewise_merge_join = true;
-- norec.opt-rows
SELECT * FROM t0 RIGHT JOIN t1 ON (t1.c1 > t1.c1) WHERE t1.c0;
