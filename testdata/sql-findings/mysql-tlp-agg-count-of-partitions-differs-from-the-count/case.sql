CREATE TABLE t0 (c0 VARCHAR(20), c1 VARCHAR(20), c2 VARCHAR(100) UNIQUE);
INSERT IGNORE INTO t0 (c0, c1, c2) VALUES ('-1', 'é', 'u9536');
INSERT INTO t0 (c0, c1, c2) VALUES ('1', 'Abc', 'u17978');
INSERT INTO t0 (c0, c1, c2) VALUES ('NULL', 'A', 'ab');
INSERT INTO t0 (c0, c1, c2) VALUES ('abc', 'ß', NULL), ('a ', NULL, 'a '), ('ab', 'ß', 'u27563'), ('NULL', 'true', 'u20075');
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, NULL, 'A');
INSERT INTO t0 (c0, c1, c2) VALUES ('a ', NULL, 'u12123');
INSERT INTO t0 (c0, c1, c2) VALUES ('a ', 'NULL', 'u3764');
INSERT INTO t0 (c0, c1, c2) VALUES ('', 'a', 'u9753'), ('x y', '-1', 'u2970');
INSERT IGNORE INTO t0 (c0, c1, c2) VALUES ('10', 'é', 'ab');
INSERT INTO t0 (c0, c1, c2) VALUES ('ß', 'ß', 'u18612'), ('é', NULL, 'u27594');
INSERT INTO t0 (c0, c1, c2) VALUES ('ß', NULL, 'u1907'), ('', '%', 'u17582');
INSERT IGNORE INTO t0 (c0, c1, c2) VALUES (NULL, 'abc', 'u25836');
INSERT IGNORE INTO t0 (c0, c1, c2) VALUES ('ß', 'b', NULL), ('abc', 'abc', 'u15184');
-- agg.orig
SELECT COUNT('ß') FROM t0;
-- agg.p
SELECT COUNT('ß') FROM t0 WHERE ((CASE WHEN (CAST('1.5' AS DOUBLE) = CAST('-1.5' AS DOUBLE)) THEN '_' END) <=> t0.c2);
-- agg.notp
SELECT COUNT('ß') FROM t0 WHERE NOT (((CASE WHEN (CAST('1.5' AS DOUBLE) = CAST('-1.5' AS DOUBLE)) THEN '_' END) <=> t0.c2));
-- agg.null
SELECT COUNT('ß') FROM t0 WHERE (((CASE WHEN (CAST('1.5' AS DOUBLE) = CAST('-1.5' AS DOUBLE)) THEN '_' END) <=> t0.c2)) IS NULL;
