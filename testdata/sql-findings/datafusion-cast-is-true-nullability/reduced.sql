CREATE TABLE t0 (c0 BOOLEAN, c1 VARCHAR);
CREATE VIEW v0 AS SELECT t0.c1 AS c0, t0.c0 AS c1 FROM t0;
-- norec.unopt
SELECT SUM(count) FROM (SELECT CAST(((right(v0.c0, 3) <= upper(to_hex(0)))) IS TRUE AS BIGINT) AS count FROM v0) AS res;
