CREATE TABLE t0 (c0 INTEGER, c1 BOOLEAN, c2 DECIMAL(10,2));
UPDATE t0 SET c2 = 1.50 WHERE (CASE WHEN (19 IS NOT DISTINCT FROM 72) THEN NULLIF(t0.c1, t0.c1) ELSE t0.c1 END);
INSERT INTO t0 (c0, c1, c2) VALUES (10, TRUE, 1.50);
INSERT INTO t0 (c0, c1, c2) VALUES (30, FALSE, 45.14), (3, FALSE, 99999.99), (54, FALSE, 0.001);
UPDATE t0 SET c1 = FALSE;
SET datafusion.optimizer.enable_topk_aggregation = false;
INSERT INTO t0 (c0, c1, c2) VALUES (-10, TRUE, -1.0), (0, TRUE, 10.10);
INSERT INTO t0 (c0, c1, c2) VALUES (24, FALSE, 175.91), (76, TRUE, 740.99);
INSERT INTO t0 (c0, c1, c2) VALUES (71, TRUE, 123.456), (56, FALSE, 942.30);
SET datafusion.execution.target_partitions = 1;
INSERT INTO t0 (c0, c1, c2) VALUES (8, TRUE, 71.53);
INSERT INTO t0 (c0, c1, c2) VALUES (49, TRUE, 186.27), (20, NULL, -1.0);
-- norec.opt-count
SELECT COUNT(*) FROM t0 WHERE (((t0.c2 + t0.c2) + 744.38) NOT BETWEEN (round(t0.c2, 0) - 734.6) AND round((CASE WHEN t0.c1 THEN t0.c2 ELSE 0.001 END), 4));
