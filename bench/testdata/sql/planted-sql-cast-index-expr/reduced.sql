CREATE TABLE t0 (c0 TEXT NOT NULL, c1 NUMERIC, c2);
CREATE INDEX i0 ON t0 (c0 DESC, c2 ASC) WHERE (CAST(c2 AS REAL));
INSERT OR IGNORE INTO t0(c2, c0) VALUES ('', 0);
-- norec.opt-rows
SELECT * FROM t0 WHERE (0 = ((t0.c1, 0) IS (t0.c1, (CAST(t0.c2 AS INTEGER)))));
-- norec.unopt
SELECT SUM(count) FROM (SELECT ((0 = ((t0.c1, 0) IS (t0.c1, (CAST(t0.c2 AS INTEGER)))))) IS TRUE AS count FROM t0);
