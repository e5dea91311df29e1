CREATE TABLE t0 (c0 Nullable(Int64), c1 Nullable(Float32), c2 Nullable(Decimal(10,2)), c3 LowCardinality(Nullable(String)));
CREATE INDEX i1 ON t0 (c1) TYPE set(0);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (0, CAST('nan' AS Nullable(Float64)), toDecimal64(NULL, 4), 0);
-- tlp.orig
SELECT * FROM t0;
-- tlp.p
SELECT * FROM t0 WHERE (t0.c1 < 0);
-- tlp.notp
SELECT * FROM t0 WHERE NOT ((t0.c1 < 0));
-- tlp.null
SELECT * FROM t0 WHERE ((t0.c1 < 0)) IS NULL;
