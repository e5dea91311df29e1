CREATE TABLE t0 (c0 VARCHAR DEFAULT NULL);
CREATE VIEW v0 AS SELECT COALESCE(t0.c0, trim(''), t0.c0) AS c0, t0.c0 AS c1, t0.c0 AS c2 FROM t0;
CREATE VIEW v1 AS SELECT replace(t0.c0, CAST(NULL AS VARCHAR), translate(t0.c0, v0.c0, NULL)) AS c0 FROM v0 JOIN t0 ON NULL WHERE (GREATEST(NULL, 0, v0.c1) IS NULL);
SET datafusion.optimizer.enable_piecewise_merge_join = true;
-- norec.opt-count
SELECT COUNT(*) FROM v1 WHERE (0 > CAST(v1.c0 AS VARCHAR));
