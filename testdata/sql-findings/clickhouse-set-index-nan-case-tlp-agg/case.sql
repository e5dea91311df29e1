CREATE TABLE t0 (c0 Nullable(Int64));
INSERT INTO t0 (c0) VALUES (-10), (32767);
INSERT INTO t0 (c0) VALUES (76), (90);
INSERT INTO t0 (c0) VALUES (44);
INSERT INTO t0 (c0) VALUES (NULL);
ALTER TABLE t0 DELETE WHERE ((CAST(NULL AS Nullable(Int32)) - -12) = COALESCE(t0.c0, t0.c0));
CREATE INDEX i0 ON t0 (c0) TYPE minmax;
INSERT INTO t0 (c0) VALUES (-18), (-16);
INSERT INTO t0 (c0) VALUES (76), (-9), (33);
INSERT INTO t0 (c0) VALUES (54);
INSERT INTO t0 (c0) VALUES (15), (62);
INSERT INTO t0 (c0) VALUES (92), (255);
INSERT INTO t0 (c0) VALUES (97), (4);
INSERT INTO t0 (c0) VALUES (42);
INSERT INTO t0 (c0) VALUES (NULL), (99);
OPTIMIZE TABLE t0;
INSERT INTO t0 (c0) VALUES (2), (-19);
INSERT INTO t0 (c0) VALUES (-1), (28);
INSERT INTO t0 (c0) VALUES (36), (64), (-10);
INSERT INTO t0 (c0) VALUES (2147483647);
ALTER TABLE t0 UPDATE c0 = (t0.c0 DIV t0.c0) WHERE TRUE;
CREATE INDEX i1 ON t0 (c0) TYPE set(0);
CREATE VIEW v0 AS SELECT t0.c0 AS c0 FROM t0 WHERE (abs(t0.c0) BETWEEN floor(CAST('-inf' AS Nullable(Float64))) AND COALESCE(CAST('100' AS Nullable(Float64)), CAST('1e-10' AS Nullable(Float64))));
INSERT INTO t0 (c0) VALUES (75), (38);
CREATE VIEW v1 AS SELECT ((88 + v0.c0) DIV ascii('b')) AS c0 FROM v0;
ALTER TABLE t0 UPDATE c0 = 80 WHERE (FALSE OR (2147483647 <= toDecimal64('181.95', 4)));
CREATE INDEX i2 ON t0 (c0) TYPE bloom_filter;
INSERT INTO t0 (c0) VALUES (34);
CREATE INDEX i3 ON t0 (c0) TYPE bloom_filter;
INSERT INTO t0 (c0) VALUES (98), (NULL);
INSERT INTO t0 (c0) VALUES (52), (-10);
-- agg.orig
SELECT AVG((- -10)) FROM t0;
-- agg.p
SELECT SUM((- -10)), COUNT((- -10)) FROM t0 WHERE ((- abs(CAST('1.5' AS Nullable(Float64)))) > (CASE t0.c0 WHEN t0.c0 THEN (CAST('nan' AS Nullable(Float64)) + CAST(962.4 AS Nullable(Float64))) WHEN (t0.c0 - 78) THEN (CAST('inf' AS Nullable(Float64)) + CAST(685.2 AS Nullable(Float64))) ELSE (CAST('-0' AS Nullable(Float64)) - CAST(-19.8 AS Nullable(Float64))) END));
-- agg.notp
SELECT SUM((- -10)), COUNT((- -10)) FROM t0 WHERE NOT (((- abs(CAST('1.5' AS Nullable(Float64)))) > (CASE t0.c0 WHEN t0.c0 THEN (CAST('nan' AS Nullable(Float64)) + CAST(962.4 AS Nullable(Float64))) WHEN (t0.c0 - 78) THEN (CAST('inf' AS Nullable(Float64)) + CAST(685.2 AS Nullable(Float64))) ELSE (CAST('-0' AS Nullable(Float64)) - CAST(-19.8 AS Nullable(Float64))) END)));
-- agg.null
SELECT SUM((- -10)), COUNT((- -10)) FROM t0 WHERE (((- abs(CAST('1.5' AS Nullable(Float64)))) > (CASE t0.c0 WHEN t0.c0 THEN (CAST('nan' AS Nullable(Float64)) + CAST(962.4 AS Nullable(Float64))) WHEN (t0.c0 - 78) THEN (CAST('inf' AS Nullable(Float64)) + CAST(685.2 AS Nullable(Float64))) ELSE (CAST('-0' AS Nullable(Float64)) - CAST(-19.8 AS Nullable(Float64))) END))) IS NULL;
