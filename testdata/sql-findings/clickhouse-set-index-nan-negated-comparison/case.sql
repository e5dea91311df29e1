CREATE TABLE t0 (c0 Nullable(Int64), c1 Nullable(Float32), c2 Nullable(Decimal(10,2)), c3 LowCardinality(Nullable(String)));
CREATE TABLE t1 (c0 LowCardinality(Nullable(String)), c1 Nullable(String), c2 Nullable(Bool)) ENGINE = Memory;
INSERT INTO t1 (c0, c1, c2) VALUES (NULL, 'abc', TRUE), ('ß', 'é', TRUE);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (53, CAST('-1.5' AS Nullable(Float64)), toDecimal64('-0.5', 4), 'b'), (22, CAST('-1.5' AS Nullable(Float64)), toDecimal64('99999.99', 4), NULL), (100, CAST('-inf' AS Nullable(Float64)), toDecimal64('1.50', 4), 'true');
INSERT INTO t0 (c0, c1, c2, c3) VALUES (1, CAST(901.1 AS Nullable(Float64)), toDecimal64('123.456', 4), 'ab'), (12, CAST('0.1' AS Nullable(Float64)), toDecimal64('-1.0', 4), '10'), (-10, CAST('0.1' AS Nullable(Float64)), toDecimal64('99999.99', 4), 'a ');
CREATE INDEX i0 ON t0 (c1) TYPE set(3);
CREATE VIEW v0 AS SELECT t0.c3 AS c0, t0.c1 AS c1, t0.c1 AS c2 FROM t0 WHERE (CAST('-inf' AS Nullable(Float64)) IS NOT DISTINCT FROM (CASE WHEN TRUE THEN t0.c1 WHEN FALSE THEN CAST(751.8 AS Nullable(Float64)) ELSE t0.c1 END));
INSERT INTO t0 (c0, c1, c2, c3) VALUES (-14, CAST(-26.3 AS Nullable(Float64)), toDecimal64('1.50', 4), '%'), (55, CAST('3.14' AS Nullable(Float64)), toDecimal64('99999.99', 4), 'ab'), (19, CAST(984.3 AS Nullable(Float64)), toDecimal64('-0.5', 4), '10');
ALTER TABLE t0 UPDATE c2 = (toDecimal64('-1.0', 4) - toDecimal64('123.456', 4)) WHERE TRUE;
CREATE INDEX i1 ON t0 (c1) TYPE set(0);
INSERT INTO t1 (c0, c1, c2) VALUES ('x y', ' a', FALSE);
INSERT INTO t1 (c0, c1, c2) VALUES ('Abc', '_', TRUE), ('abc', '1', TRUE);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (33, CAST('1e-10' AS Nullable(Float64)), toDecimal64('-1.0', 4), '1'), (-8, CAST(263.0 AS Nullable(Float64)), toDecimal64('602.90', 4), 'true');
INSERT INTO t0 (c0, c1, c2, c3) VALUES (0, CAST('inf' AS Nullable(Float64)), NULL, 'x y'), (0, CAST('nan' AS Nullable(Float64)), toDecimal64('478.77', 4), 'A');
INSERT INTO t1 (c0, c1, c2) VALUES (NULL, '-1', TRUE), ('NULL', 'x y', FALSE);
INSERT INTO t1 (c0, c1, c2) VALUES (NULL, NULL, FALSE), (' a', 'NULL', FALSE);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (23, CAST(438.1 AS Nullable(Float64)), toDecimal64('437.36', 4), NULL);
CREATE VIEW v1 AS SELECT lower(COALESCE('a', t1.c0, 'é')) AS c0, (CASE (79 + 26) WHEN -10 THEN replace(t1.c1, 'abc', 'a') ELSE (CASE WHEN t1.c2 THEN t1.c1 WHEN t1.c2 THEN 'A' END) END) AS c1 FROM t1;
INSERT INTO t0 (c0, c1, c2, c3) VALUES (58, CAST('-inf' AS Nullable(Float64)), toDecimal64('277.58', 4), '10');
INSERT INTO t1 (c0, c1, c2) VALUES (NULL, NULL, FALSE), ('é', 'ab', FALSE);
-- tlp.orig
SELECT * FROM t0;
-- tlp.p
SELECT * FROM t0 WHERE (t0.c1 < ((CAST('inf' AS Nullable(Float64)) - CAST('1.5' AS Nullable(Float64))) - GREATEST(t0.c1, t0.c1)));
-- tlp.notp
SELECT * FROM t0 WHERE NOT ((t0.c1 < ((CAST('inf' AS Nullable(Float64)) - CAST('1.5' AS Nullable(Float64))) - GREATEST(t0.c1, t0.c1))));
-- tlp.null
SELECT * FROM t0 WHERE ((t0.c1 < ((CAST('inf' AS Nullable(Float64)) - CAST('1.5' AS Nullable(Float64))) - GREATEST(t0.c1, t0.c1)))) IS NULL;
