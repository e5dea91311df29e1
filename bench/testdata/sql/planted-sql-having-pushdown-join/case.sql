PRAGMA analysis_limit = 100;
CREATE TEMP TABLE t0 (c0 VARCHAR(10) UNIQUE, c1 NUMERIC PRIMARY KEY ASC CHECK ((((TRUE || c1), c0) BETWEEN ((iif(' ', 20, c2)), -9) AND ((c1 == c2), 9223372036854775807))), c2 UNSIGNED BIG INT);
CREATE TEMP TABLE t1 (c0 CLOB COLLATE BINARY, c1 CHAR(3));
INSERT OR FAIL INTO t1(c0, c1) VALUES (NULL, 'a');
CREATE TEMP VIEW v0 (c0) AS SELECT (((82, t1.c1) BETWEEN (33, t1.c0) AND (t1.c0, t1.c0)) % (FALSE / 'a ')) FROM t1;
INSERT OR IGNORE INTO t0 VALUES ('52145', 41082, -10), ('56098', 49825, 61);
INSERT INTO t1(c0, c1) VALUES ('?', 'ABC');
CREATE INDEX i0 ON t0 (c1 DESC, ((replace((x'61' OR c1), (unhex(c2)), (c2 AND 0)))) COLLATE BINARY DESC);
UPDATE OR REPLACE t0 SET c2 = 9223372036854775806 WHERE (NOT (substr(t0.c2, 9.84)));
INSERT OR FAIL INTO t1(c0, c1) VALUES ('x', NULL), ('a', TRUE);
INSERT OR IGNORE INTO t0(c0, c1, c2) VALUES ('73816', 3, 1000);
DELETE FROM t1 WHERE ((like(t1.c1, t1.c1)) AND (t1.c1 OR 'İ'));
PRAGMA mmap_size = 0;
UPDATE t0 SET c2 = ((abs(t0.c1)) AND t0.c0) WHERE (('a' || t0.c1) != (FALSE * 100));
INSERT INTO t1(c0) VALUES ('é');
INSERT INTO t1(c0, c1) VALUES ('[a-c]', (CASE WHEN ('1e2' COLLATE NOCASE) THEN (NULL IS FALSE) ELSE (+ 57) END)), ('0', x'ff');
INSERT OR IGNORE INTO t0(c2, c1) VALUES (19, 21242), (29, 35387);
INSERT OR IGNORE INTO t0(c0, c1, c2) VALUES (NULL, -1, 92);
UPDATE t1 SET c1 = ((~ t1.c0) OR (t1.c1 & t1.c0));
-- having.orig
SELECT t0.c0, t0.c1, t0.c2, t1.c0, t1.c1 FROM t0 FULL OUTER JOIN t1 ON ((unlikely(t1.c1)) NOT BETWEEN 'ABC' AND (t1.c1 OR t1.c0)) GROUP BY t0.c0, t0.c1, t0.c2, t1.c0, t1.c1;
-- having.p
SELECT t0.c0, t0.c1, t0.c2, t1.c0, t1.c1 FROM t0 FULL OUTER JOIN t1 ON ((unlikely(t1.c1)) NOT BETWEEN 'ABC' AND (t1.c1 OR t1.c0)) GROUP BY t0.c0, t0.c1, t0.c2, t1.c0, t1.c1 HAVING ((CASE (t0.c2 OR t0.c1) WHEN (format('%i', t0.c0)) THEN 'İ' ELSE (t1.c0 BETWEEN t0.c1 AND 4.9e-324) END) < ((t0.c1 >= x'5f4c') IN ((CASE WHEN 41 THEN t1.c1 WHEN t1.c1 THEN t1.c1 ELSE '0x10' END), 100.0)));
-- having.notp
SELECT t0.c0, t0.c1, t0.c2, t1.c0, t1.c1 FROM t0 FULL OUTER JOIN t1 ON ((unlikely(t1.c1)) NOT BETWEEN 'ABC' AND (t1.c1 OR t1.c0)) GROUP BY t0.c0, t0.c1, t0.c2, t1.c0, t1.c1 HAVING NOT (((CASE (t0.c2 OR t0.c1) WHEN (format('%i', t0.c0)) THEN 'İ' ELSE (t1.c0 BETWEEN t0.c1 AND 4.9e-324) END) < ((t0.c1 >= x'5f4c') IN ((CASE WHEN 41 THEN t1.c1 WHEN t1.c1 THEN t1.c1 ELSE '0x10' END), 100.0))));
-- having.null
SELECT t0.c0, t0.c1, t0.c2, t1.c0, t1.c1 FROM t0 FULL OUTER JOIN t1 ON ((unlikely(t1.c1)) NOT BETWEEN 'ABC' AND (t1.c1 OR t1.c0)) GROUP BY t0.c0, t0.c1, t0.c2, t1.c0, t1.c1 HAVING (((CASE (t0.c2 OR t0.c1) WHEN (format('%i', t0.c0)) THEN 'İ' ELSE (t1.c0 BETWEEN t0.c1 AND 4.9e-324) END) < ((t0.c1 >= x'5f4c') IN ((CASE WHEN 41 THEN t1.c1 WHEN t1.c1 THEN t1.c1 ELSE '0x10' END), 100.0)))) IS NULL;
