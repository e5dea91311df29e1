#!/usr/bin/env bash
# tlp-agg: mysql: avg of partitions differs from the avg
# kind: wrong-result, oracle: tlp-agg, seed: 3129772231591985155
# expected: avg d:-18.1429 from the original query
# actual: avg of the partitions: -85 (p: NULL i:0; not p: NULL i:0; p is null: d:-85 i:1)
# replay: polyfuzz replay mysql/findings/b76cf4dfafb9f3d7
# Runs the case on each engine it was found on, printing each query's role before its answer.
set -u

# mysql, in a scratch database polyfuzz_repro on the server POLYFUZZ_MYSQL_DSN names.
dsn=${POLYFUZZ_MYSQL_DSN:?set POLYFUZZ_MYSQL_DSN=mysql://USER:PASS@HOST:PORT/DB}
re='^[a-z]+://([^:@/]*)(:([^@/]*))?@([^:/]+)(:([0-9]+))?'
[[ $dsn =~ $re ]] || { echo "cannot read $dsn" >&2; exit 2; }
MYSQL_PWD=${BASH_REMATCH[3]} "${MYSQL:-mariadb}" -h "${BASH_REMATCH[4]}" -P "${BASH_REMATCH[6]:-3306}" -u "${BASH_REMATCH[1]}" -N -B --force <<'POLYFUZZ_SQL'
DROP DATABASE IF EXISTS polyfuzz_repro;
CREATE DATABASE polyfuzz_repro CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
USE polyfuzz_repro;
SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION';
CREATE TABLE t0 (c0 DECIMAL(10,2) PRIMARY KEY);
CREATE TABLE t1 (c0 DECIMAL(20,5), c1 INT, c2 BIGINT, c3 VARCHAR(1) UNIQUE) ENGINE=Aria;
INSERT INTO t1 (c0, c1, c2, c3) VALUES (NULL, 0, 0, 0);
SELECT '-- agg.orig';
SELECT AVG((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0;
SELECT '-- agg.p';
SELECT SUM((t1.c2 - t1.c1)), COUNT((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0 WHERE (LEAST(CONCAT(t1.c3, t1.c3), NULLIF(1, t1.c3)) <> replace(LEAST(t1.c3, t1.c3, t1.c3), CONCAT(t1.c3, 0), CAST(t0.c0 AS CHAR)));
SELECT '-- agg.notp';
SELECT SUM((t1.c2 - t1.c1)), COUNT((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0 WHERE NOT ((LEAST(CONCAT(t1.c3, t1.c3), NULLIF(1, t1.c3)) <> replace(LEAST(t1.c3, t1.c3, t1.c3), CONCAT(t1.c3, 0), CAST(t0.c0 AS CHAR))));
SELECT '-- agg.null';
SELECT SUM((t1.c2 - t1.c1)), COUNT((t1.c2 - t1.c1)) FROM t0 RIGHT JOIN t1 ON 0 WHERE ((LEAST(CONCAT(t1.c3, t1.c3), NULLIF(1, t1.c3)) <> replace(LEAST(t1.c3, t1.c3, t1.c3), CONCAT(t1.c3, 0), CAST(t0.c0 AS CHAR)))) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
