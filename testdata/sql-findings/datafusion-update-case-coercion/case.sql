CREATE TABLE t0 (c0 TINYINT, c1 VARCHAR, c2 INT);
CREATE TABLE t1 (c0 TINYINT);
INSERT INTO t1 (c0) VALUES (19), (89), (-1);
INSERT INTO t1 (c0) VALUES (0), (255), (69);
INSERT INTO t1 (c0) VALUES (NULL);
INSERT INTO t0 (c0, c1, c2) VALUES (22, NULL, 100), (18, 'a ', 19);
UPDATE t1 SET c0 = 8;
INSERT INTO t0 (c0, c1, c2) VALUES (1, '1', -32768);
UPDATE t1 SET c0 = (- (CASE WHEN FALSE THEN t1.c0 WHEN FALSE THEN t1.c0 ELSE 80 END)) WHERE ((t1.c0 BETWEEN -1 AND t1.c0) OR (56 <> CAST(NULL AS BIGINT)));
INSERT INTO t0 (c0, c1, c2) VALUES (-9, 'a ', 56);
INSERT INTO t0 (c0, c1, c2) VALUES (2, 'b', 100);
INSERT INTO t0 (c0, c1, c2) VALUES (74, ' a', 92), (65, 'a ', 49);
INSERT INTO t1 (c0) VALUES (65);
INSERT INTO t1 (c0) VALUES (43), (1);
SET datafusion.optimizer.enable_unions_to_filter = true;
INSERT INTO t0 (c0, c1, c2) VALUES (75, NULL, 10);
INSERT INTO t0 (c0, c1, c2) VALUES (81, 'Abc', 32), (85, '_', 39), (-20, '%', 127);
INSERT INTO t1 (c0) VALUES (-18), (6);
INSERT INTO t0 (c0, c1, c2) VALUES (-2, 'b', -20);
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, '1', 42), (35, 'b', 25), (1000, '', -128);
INSERT INTO t1 (c0) VALUES (47), (96), (2);
-- norec.opt-count
SELECT COUNT(*) FROM t0 WHERE (md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%');
-- norec.unopt
SELECT SUM(count) FROM (SELECT CASE WHEN ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%')) THEN 1 ELSE 0 END AS count FROM t0) AS res;
-- tlp.orig
SELECT * FROM t0;
-- tlp.p
SELECT * FROM t0 WHERE (md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%');
-- tlp.notp
SELECT * FROM t0 WHERE NOT ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%'));
-- tlp.null
SELECT * FROM t0 WHERE ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%')) IS NULL;
-- having.orig
SELECT t0.c0, t0.c1, t0.c2 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2;
-- having.p
SELECT t0.c0, t0.c1, t0.c2 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2 HAVING (md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%');
-- having.notp
SELECT t0.c0, t0.c1, t0.c2 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2 HAVING NOT ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%'));
-- having.null
SELECT t0.c0, t0.c1, t0.c2 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2 HAVING ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%')) IS NULL;
-- distinct.orig
SELECT DISTINCT t0.c0, t0.c1, t0.c2 FROM t0;
-- distinct.p
SELECT DISTINCT t0.c0, t0.c1, t0.c2 FROM t0 WHERE (md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%');
-- distinct.notp
SELECT DISTINCT t0.c0, t0.c1, t0.c2 FROM t0 WHERE NOT ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%'));
-- distinct.null
SELECT DISTINCT t0.c0, t0.c1, t0.c2 FROM t0 WHERE ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%')) IS NULL;
-- groupby.orig
SELECT t0.c0, t0.c1, t0.c2 FROM t0 GROUP BY t0.c0, t0.c1, t0.c2;
-- groupby.p
SELECT t0.c0, t0.c1, t0.c2 FROM t0 WHERE (md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%') GROUP BY t0.c0, t0.c1, t0.c2;
-- groupby.notp
SELECT t0.c0, t0.c1, t0.c2 FROM t0 WHERE NOT ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%')) GROUP BY t0.c0, t0.c1, t0.c2;
-- groupby.null
SELECT t0.c0, t0.c1, t0.c2 FROM t0 WHERE ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%')) IS NULL GROUP BY t0.c0, t0.c1, t0.c2;
-- agg.orig
SELECT COUNT(t0.c1) FROM t0;
-- agg.p
SELECT COUNT(t0.c1) FROM t0 WHERE (md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%');
-- agg.notp
SELECT COUNT(t0.c1) FROM t0 WHERE NOT ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%'));
-- agg.null
SELECT COUNT(t0.c1) FROM t0 WHERE ((md5((CASE 76 WHEN t0.c2 THEN t0.c1 WHEN t0.c0 THEN t0.c1 ELSE ' a' END)) NOT ILIKE '%')) IS NULL;
