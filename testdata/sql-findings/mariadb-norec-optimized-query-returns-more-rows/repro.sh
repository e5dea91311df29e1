#!/usr/bin/env bash
# norec: mariadb: optimized query returns more rows
# kind: wrong-result, oracle: norec, seed: 7158979782575325199
# expected: 0 rows for which the predicate is true (unoptimized query)
# actual: 4 rows fetched by the optimized query
# replay: polyfuzz replay mariadb/findings/62ad434c6a6ae93e
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
CREATE TABLE t1 (c0 DOUBLE, c1 BIGINT NOT NULL);
INSERT INTO t1 (c0, c1) VALUES (CAST(0 AS DOUBLE), 0);
CREATE VIEW v0 AS SELECT COALESCE(TRUE, CAST(NULL AS DOUBLE)) AS c0, LEAST(t1.c0, CAST(CAST(0 AS DOUBLE) AS DOUBLE), t1.c0) AS c1 FROM t1;
SELECT '-- norec.opt-rows';
SELECT * FROM v0 WHERE (v0.c1 BETWEEN (1 | -1) AND 0);
SELECT '-- norec.unopt';
SELECT SUM(count) FROM (SELECT (((v0.c1 BETWEEN (1 | -1) AND 0)) IS TRUE) AS count FROM v0) AS res;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
