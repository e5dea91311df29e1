#!/usr/bin/env bash
# tlp-having: mysql: partitions add rows
# kind: wrong-result, oracle: tlp-having, seed: 5863541820093825029
# expected: the 16 rows of the original query
# actual: partitions add (d:100000)
# replay: polyfuzz replay mysql/findings/2ff9f372a50dd613
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
CREATE TABLE t0 (c0 DECIMAL DEFAULT -0);
CREATE INDEX i0 ON t0 (c0 ASC);
INSERT IGNORE INTO t0 (c0) VALUES (99999.99);
SELECT '-- having.orig';
SELECT t0.c0 FROM t0 GROUP BY t0.c0;
SELECT '-- having.p';
SELECT t0.c0 FROM t0 GROUP BY t0.c0 HAVING (99999.99 = t0.c0);
SELECT '-- having.notp';
SELECT t0.c0 FROM t0 GROUP BY t0.c0 HAVING NOT ((99999.99 = t0.c0));
SELECT '-- having.null';
SELECT t0.c0 FROM t0 GROUP BY t0.c0 HAVING ((99999.99 = t0.c0)) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
