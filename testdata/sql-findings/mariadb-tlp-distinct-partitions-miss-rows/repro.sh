#!/usr/bin/env bash
# tlp-distinct: mariadb: partitions miss rows
# kind: wrong-result, oracle: tlp-distinct, seed: 6518437004245532765
# expected: the 23 distinct rows of the original query
# actual: partitions miss (i:21945, NULL, d:0.5), (i:25595, NULL, d:0.001), (i:28399, NULL, d:99999.99)
# replay: polyfuzz replay mariadb/findings/4e8143da8e6a766a
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
SELECT '-- distinct.orig';
SELECT DISTINCT t0.c3, t0.c1, t0.c2 FROM t0;
SELECT '-- distinct.p';
SELECT DISTINCT t0.c3, t0.c1, t0.c2 FROM t0 WHERE (t0.c1 <=> abs(CAST(NULL AS DOUBLE)));
SELECT '-- distinct.notp';
SELECT DISTINCT t0.c3, t0.c1, t0.c2 FROM t0 WHERE NOT ((t0.c1 <=> abs(CAST(NULL AS DOUBLE))));
SELECT '-- distinct.null';
SELECT DISTINCT t0.c3, t0.c1, t0.c2 FROM t0 WHERE ((t0.c1 <=> abs(CAST(NULL AS DOUBLE)))) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
