#!/usr/bin/env bash
# tlp-agg: mariadb: max of partitions differs from the max
# kind: wrong-result, oracle: tlp-agg, seed: 15529440045909540886
# expected: max i:226 from the original query
# actual: max of the partitions: NULL (p: NULL; not p: NULL; p is null: NULL)
# replay: polyfuzz replay mariadb/findings/10f468ef984e1d6a
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
CREATE TABLE t0 (c0 INT UNIQUE DEFAULT 0, CHECK (c0)) ENGINE=Aria;
CREATE VIEW v0 AS SELECT t0.c0 AS c0, t0.c0 AS c1, LEAST(t0.c0, 0) AS c2 FROM t0 WHERE t0.c0;
CREATE VIEW v1 AS SELECT t0.c0 AS c0, CAST(ceil(0) AS SIGNED) AS c1, v0.c0 AS c2 FROM v0 RIGHT JOIN t0 ON NULL WHERE 1;
SELECT '-- agg.orig';
SELECT MAX(v1.c1) FROM v1;
SELECT '-- agg.p';
SELECT MAX(v1.c1) FROM v1 WHERE v1.c0;
SELECT '-- agg.notp';
SELECT MAX(v1.c1) FROM v1 WHERE NOT (v1.c0);
SELECT '-- agg.null';
SELECT MAX(v1.c1) FROM v1 WHERE (v1.c0) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
