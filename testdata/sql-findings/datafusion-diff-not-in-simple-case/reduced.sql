CREATE TABLE t1 (c0 VARCHAR(0), c1 INT, c2 INT);
INSERT INTO t1 (c0, c1, c2) VALUES (0, 0, -6);
-- norec.opt-rows
SELECT * FROM t1 WHERE (COALESCE('', NULLIF(t1.c0, t1.c0), '') NOT IN ((CASE lower(t1.c0) WHEN t1.c0 THEN 'a' ELSE '' END), upper('ab')));
