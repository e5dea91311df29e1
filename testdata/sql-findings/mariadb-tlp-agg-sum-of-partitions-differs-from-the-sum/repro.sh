#!/usr/bin/env bash
# tlp-agg: mariadb: sum of partitions differs from the sum
# kind: wrong-result, oracle: tlp-agg, seed: 14329465973894873130
# expected: sum d:2372.54 from the original query
# actual: sum of the partitions: 3137.8 (p: d:1460.68; not p: d:765.26; p is null: d:911.86)
# replay: polyfuzz replay mariadb/findings/9c166adb215850b3
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
CREATE TABLE t0 (c0 DECIMAL(10,2), c1 DECIMAL(10,2), c2 BIGINT, c3 DECIMAL) ENGINE=MyISAM;
CREATE INDEX i0 ON t0 (c1 DESC);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (1, 0, 0, -0);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (NULL, NULL, 0, NULL);
SELECT '-- agg.orig';
SELECT SUM(t0.c0) FROM t0;
SELECT '-- agg.p';
SELECT SUM(t0.c0) FROM t0 WHERE (t0.c1 <> 0.001);
SELECT '-- agg.notp';
SELECT SUM(t0.c0) FROM t0 WHERE NOT ((t0.c1 <> 0.001));
SELECT '-- agg.null';
SELECT SUM(t0.c0) FROM t0 WHERE ((t0.c1 <> 0.001)) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
