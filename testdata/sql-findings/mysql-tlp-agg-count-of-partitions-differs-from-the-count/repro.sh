#!/usr/bin/env bash
# tlp-agg: mysql: count of partitions differs from the count
# kind: wrong-result, oracle: tlp-agg, seed: 15158312789960425559
# expected: count i:19 from the original query
# actual: count of the partitions: 18 (p: i:1; not p: i:17; p is null: i:0)
# replay: polyfuzz replay mysql/findings/032e47d6cc232107
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
CREATE TABLE t0 (c0 VARCHAR(0), c1 VARCHAR(1), c2 VARCHAR(0) UNIQUE);
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, 0, NULL);
INSERT IGNORE INTO t0 (c0, c1, c2) VALUES (0, 0, NULL);
SELECT '-- agg.orig';
SELECT COUNT('ß') FROM t0;
SELECT '-- agg.p';
SELECT COUNT('ß') FROM t0 WHERE ((CASE WHEN NULL THEN '' END) <=> t0.c2);
SELECT '-- agg.notp';
SELECT COUNT('ß') FROM t0 WHERE NOT (((CASE WHEN NULL THEN '' END) <=> t0.c2));
SELECT '-- agg.null';
SELECT COUNT('ß') FROM t0 WHERE (((CASE WHEN NULL THEN '' END) <=> t0.c2)) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
