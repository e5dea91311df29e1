CREATE TABLE t0 (c0 Nullable(Int32));
CREATE INDEX i0 ON t0 (c0) TYPE bloom_filter;
INSERT INTO t0 (c0) VALUES (0);
-- tlp.notp
SELECT * FROM t0 WHERE NOT ((t0.c0 <> abs(toDecimal64(0, 4))));
