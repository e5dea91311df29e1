#!/usr/bin/env bash
# tlp-agg: mariadb: sum of partitions differs from the sum
# kind: wrong-result, oracle: tlp-agg, seed: 6518437004245532765
# expected: sum d:188450 from the original query
# actual: sum of the partitions: 165606 (p: d:18427 i:1; not p: d:147179 i:16; p is null: NULL i:0)
# replay: polyfuzz replay osum/findings/9c166adb215850b3
# Runs the case on each engine it was found on, printing each query's role before its answer.
set -u

# mariadb, in a scratch database polyfuzz_repro on the server POLYFUZZ_MARIADB_DSN names.
dsn=${POLYFUZZ_MARIADB_DSN:?set POLYFUZZ_MARIADB_DSN=mariadb://USER:PASS@HOST:PORT/DB}
re='^[a-z]+://([^:@/]*)(:([^@/]*))?@([^:/]+)(:([0-9]+))?'
[[ $dsn =~ $re ]] || { echo "cannot read $dsn" >&2; exit 2; }
MYSQL_PWD=${BASH_REMATCH[3]} "${MYSQL:-mariadb}" -h "${BASH_REMATCH[4]}" -P "${BASH_REMATCH[6]:-3306}" -u "${BASH_REMATCH[1]}" -N -B --force <<'POLYFUZZ_SQL'
DROP DATABASE IF EXISTS polyfuzz_repro;
CREATE DATABASE polyfuzz_repro CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
USE polyfuzz_repro;
SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION';
CREATE TABLE t0 (c0 INT UNIQUE DEFAULT 0, c1 SMALLINT UNIQUE, c2 DECIMAL(20,5), c3 SMALLINT PRIMARY KEY);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (0, NULL, NULL, 0);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (1, NULL, 0, 1);
SELECT '-- agg.orig';
SELECT SUM(1), COUNT(1) FROM t0;
SELECT '-- agg.p';
SELECT SUM(1), COUNT(1) FROM t0 WHERE (t0.c1 <=> length(CAST(NULL AS CHAR)));
SELECT '-- agg.notp';
SELECT SUM(1), COUNT(1) FROM t0 WHERE NOT ((t0.c1 <=> length(CAST(NULL AS CHAR))));
SELECT '-- agg.null';
SELECT SUM(1), COUNT(1) FROM t0 WHERE ((t0.c1 <=> length(CAST(NULL AS CHAR)))) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
