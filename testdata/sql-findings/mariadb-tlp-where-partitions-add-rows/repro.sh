#!/usr/bin/env bash
# tlp-where: mariadb: partitions add rows
# kind: wrong-result, oracle: tlp-where, seed: 9587736600006688819
# expected: the 29 rows of the original query
# actual: partitions add (i:1, r:10868.5)
# replay: polyfuzz replay mariadb/findings/c862d8664f593763
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
CREATE TABLE t0 (c0 INT, c1 DOUBLE PRIMARY KEY) ENGINE=MyISAM;
INSERT INTO t0 (c0, c1) VALUES (0, CAST(0 AS DOUBLE)), (1, CAST(1 AS DOUBLE));
CREATE INDEX i1 ON t0 (c0 DESC);
SELECT '-- tlp.orig';
SELECT * FROM t0;
SELECT '-- tlp.p';
SELECT * FROM t0 WHERE (t0.c0 = 0.5);
SELECT '-- tlp.notp';
SELECT * FROM t0 WHERE NOT ((t0.c0 = 0.5));
SELECT '-- tlp.null';
SELECT * FROM t0 WHERE ((t0.c0 = 0.5)) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
