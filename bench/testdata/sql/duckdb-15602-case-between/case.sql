CREATE TABLE t0 (c0 INTEGER);
INSERT INTO t0 (c0) VALUES (-1), (2), (NULL);
-- tlp.orig
SELECT * FROM t0;
-- tlp.p
SELECT * FROM t0 WHERE (((CASE t0.c0 WHEN t0.c0 THEN t0.c0 END) BETWEEN 1 AND t0.c0) AND (t0.c0 <= 0));
-- tlp.notp
SELECT * FROM t0 WHERE NOT ((((CASE t0.c0 WHEN t0.c0 THEN t0.c0 END) BETWEEN 1 AND t0.c0) AND (t0.c0 <= 0)));
-- tlp.null
SELECT * FROM t0 WHERE ((((CASE t0.c0 WHEN t0.c0 THEN t0.c0 END) BETWEEN 1 AND t0.c0) AND (t0.c0 <= 0))) IS NULL;
