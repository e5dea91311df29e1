#!/usr/bin/env bash
# crash: mariadb: lost the connection to the server: invalid connection
# kind: crash, oracle: error, seed: 6480866302467768327
# expected: an answer
# actual: lost the connection to the server: invalid connection
# replay: polyfuzz replay om2/findings/6c302e53099985b8
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
CREATE TABLE t0 (c0 DECIMAL, c1 VARCHAR(0), c2 DECIMAL(20,5), c3 VARCHAR(0) UNIQUE);
CREATE VIEW v0 AS SELECT t0.c2 AS c0, 0 AS c1, t0.c0 AS c2 FROM t0;
SELECT '-- having.p';
SELECT v0.c0, v0.c1, v0.c2 FROM v0 GROUP BY v0.c0, v0.c1, v0.c2 HAVING ((v0.c1 - NULL) >= v0.c2);
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
