CREATE TABLE t1 (c0 BOOLEAN, c1 STRING, c2 BOOLEAN, c3 INT);
-- norec.opt-rows
SELECT * FROM t1 WHERE (left(upper(t1.c1), 2) IS DISTINCT FROM concat('', (CAST(NULL AS VARCHAR) || t1.c1)));
