#!/usr/bin/env bash
# tlp-agg: mariadb: min of partitions differs from the min
# kind: wrong-result, oracle: tlp-agg, seed: 9586249617255825478
# expected: min t:_ from the original query
# actual: min of the partitions: one of t:u13080 (p: t:u13080; not p: NULL; p is null: NULL)
# replay: polyfuzz replay mariadb/findings/7402c719361bb37c
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
CREATE TABLE t0 (c0 VARCHAR(1) PRIMARY KEY) ENGINE=InnoDB;
CREATE VIEW v0 AS SELECT t0.c0 AS c0 FROM t0;
INSERT INTO t0 (c0) VALUES ('');
SELECT '-- agg.orig';
SELECT MIN(v0.c0) FROM v0;
SELECT '-- agg.p';
SELECT MIN(v0.c0) FROM v0 WHERE v0.c0;
SELECT '-- agg.notp';
SELECT MIN(v0.c0) FROM v0 WHERE NOT (v0.c0);
SELECT '-- agg.null';
SELECT MIN(v0.c0) FROM v0 WHERE (v0.c0) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
