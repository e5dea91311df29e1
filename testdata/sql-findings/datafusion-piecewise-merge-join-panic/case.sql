CREATE TABLE t0 (c0 VARCHAR DEFAULT 'Abc');
CREATE VIEW v0 AS SELECT COALESCE((CASE WHEN TRUE THEN t0.c0 WHEN FALSE THEN t0.c0 END), trim(''), t0.c0) AS c0, t0.c0 AS c1, (COALESCE(t0.c0, t0.c0) || lpad(t0.c0, 3, t0.c0)) AS c2 FROM t0;
INSERT INTO t0 (c0) VALUES ('-1'), ('NULL');
CREATE VIEW v1 AS SELECT replace((CASE t0.c0 WHEN 'ab' THEN 'A' ELSE v0.c2 END), CAST(NULL AS VARCHAR), translate(t0.c0, v0.c0, 'abc')) AS c0 FROM v0 JOIN t0 ON ((CASE WHEN TRUE THEN 'true' ELSE v0.c1 END) IS NOT NULL) WHERE (GREATEST('abc', '10', v0.c1) IS NULL);
SET datafusion.optimizer.enable_topk_aggregation = false;
INSERT INTO t0 (c0) VALUES ('Abc');
INSERT INTO t0 (c0) VALUES ('ß');
UPDATE t0 SET c0 = '%' WHERE ((FALSE OR FALSE) IS NOT UNKNOWN);
UPDATE t0 SET c0 = 'x y' WHERE (('-1' BETWEEN t0.c0 AND t0.c0) IS NOT TRUE);
INSERT INTO t0 (c0) VALUES ('a'), ('é');
SET datafusion.optimizer.enable_piecewise_merge_join = true;
INSERT INTO t0 (c0) VALUES ('ab'), ('x y');
INSERT INTO t0 (c0) VALUES ('é');
INSERT INTO t0 (c0) VALUES ('NULL'), ('Abc');
INSERT INTO t0 (c0) VALUES (' a'), (NULL), ('');
-- norec.opt-count
SELECT COUNT(*) FROM v1 WHERE (('10' > CAST(v1.c0 AS VARCHAR)) OR (' a' IS NULL));
