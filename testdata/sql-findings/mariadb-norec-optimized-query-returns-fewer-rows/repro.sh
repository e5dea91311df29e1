#!/usr/bin/env bash
# norec: mariadb: optimized query returns fewer rows
# kind: wrong-result, oracle: norec, seed: 6518437004245532765
# expected: 4 rows for which the predicate is true (unoptimized query)
# actual: 1 rows fetched by the optimized query
# replay: polyfuzz replay mariadb/findings/db6bbf0fd96f517d
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
INSERT IGNORE INTO t0 (c0, c1, c2, c3) VALUES (-0, NULL, NULL, NULL);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (1, NULL, NULL, 1);
SELECT '-- norec.opt-rows';
SELECT * FROM t0 WHERE (NOT (NOT (t0.c1 <=> abs(CAST(NULL AS DOUBLE)))));
SELECT '-- norec.unopt';
SELECT SUM(count) FROM (SELECT (((NOT (NOT (t0.c1 <=> abs(CAST(NULL AS DOUBLE)))))) IS TRUE) AS count FROM t0) AS res;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
