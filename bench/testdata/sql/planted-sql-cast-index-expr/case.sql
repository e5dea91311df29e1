CREATE TABLE t0 (c0 TEXT NOT NULL, c1 NUMERIC, c2);
CREATE INDEX i0 ON t0 (c0 DESC, c2 ASC) WHERE ((CAST(c2 AS REAL)) IN ((c2 > c0), (c2 <> TRUE)));
UPDATE OR REPLACE t0 SET c2 = '-0', c1 = (('a*' / -9) > (t0.c1 AND t0.c1));
UPDATE t0 SET c0 = '[a-c]' WHERE ((19.59 < t0.c0) OR (97 NOT IN (t0.c0, t0.c2)));
INSERT OR REPLACE INTO t0(c0, c1, c2) VALUES (' ', 75.19, 72);
CREATE UNIQUE INDEX i1 ON t0 (((NOT (-9223372036854775808 BETWEEN 50 AND c2))), c1 DESC);
INSERT OR ABORT INTO t0(c2, c0, c1) VALUES (74, x'41', NULL), (NULL, '?', 0), (-0.0, 'a', NULL), (x'd089f631', '.5', -0.5), (-1e308, '-1', NULL);
INSERT INTO t0(c0, c1, c2) VALUES ('a*', -0.5, 1), ('	', 52, 1000);
CREATE INDEX i2 ON t0 (c0 COLLATE NOCASE ASC) WHERE (23 IS NOT DISTINCT FROM (instr(x'f5cd4c', c1)));
INSERT OR ABORT INTO t0(c2, c0) VALUES (((trim(NULL, FALSE)) >> NULL), '_'), (TRUE, 'A');
CREATE INDEX i3 ON t0 (c0 ASC, c2, c1 DESC);
INSERT INTO t0(c0, c1, c2) VALUES ('+1', '1', '%'), (x'01', 1.0, -10.1);
INSERT OR ABORT INTO t0(c0, c1, c2) VALUES ('%', 73, 20.64), (FALSE, x'4142', 65);
ANALYZE;
UPDATE OR REPLACE t0 SET c2 = ((t0.c0 <> t0.c1) / (t0.c1 || '1e2')), c1 = (upper((length(t0.c2)))) WHERE ((91.93 NOT GLOB t0.c2) AND (t0.c0 >> t0.c1));
VACUUM;
INSERT OR IGNORE INTO t0(c2, c0) VALUES ('-0', '1');
-- norec.opt-rows
SELECT * FROM t0 WHERE ((('a%' % '?') AND (t0.c1 NOT NULL)) = ((t0.c1, (59.53 <= t0.c0)) IS ((CASE WHEN t0.c2 THEN TRUE WHEN t0.c1 THEN t0.c2 END), (CAST(t0.c2 AS INTEGER))))) ORDER BY t0.c1 DESC, (if((0 BETWEEN x'c0b6' AND 'Abc'), ((t0.c2, 'A') IS (x'44f4b7', 1e-308)))) DESC;
-- norec.unopt
SELECT SUM(count) FROM (SELECT (((('a%' % '?') AND (t0.c1 NOT NULL)) = ((t0.c1, (59.53 <= t0.c0)) IS ((CASE WHEN t0.c2 THEN TRUE WHEN t0.c1 THEN t0.c2 END), (CAST(t0.c2 AS INTEGER)))))) IS TRUE AS count FROM t0);
