#!/usr/bin/env bash
# tlp-groupby: mariadb: partitions differ from the original rows
# kind: wrong-result, oracle: tlp-groupby, seed: 15349146582222176340
# expected: the 4 distinct rows of the original query
# actual: partitions miss (NULL, d:-91.6); add (NULL, NULL)
# replay: polyfuzz replay mariadb/findings/ad5624bffbee5f5c
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
CREATE TABLE t0 (c0 DECIMAL) ENGINE=MyISAM;
CREATE INDEX i1 ON t0 (c0 ASC);
CREATE VIEW v0 AS SELECT (-0 + CAST(-0 AS DECIMAL(20,5))) AS c0 FROM t0;
INSERT INTO t0 (c0) VALUES (NULL), (NULL);
SELECT '-- groupby.orig';
SELECT t0.c0, v0.c0 FROM t0 LEFT JOIN v0 ON 0 GROUP BY t0.c0, v0.c0;
SELECT '-- groupby.p';
SELECT t0.c0, v0.c0 FROM t0 LEFT JOIN v0 ON 0 WHERE t0.c0 GROUP BY t0.c0, v0.c0;
SELECT '-- groupby.notp';
SELECT t0.c0, v0.c0 FROM t0 LEFT JOIN v0 ON 0 WHERE NOT (t0.c0) GROUP BY t0.c0, v0.c0;
SELECT '-- groupby.null';
SELECT t0.c0, v0.c0 FROM t0 LEFT JOIN v0 ON 0 WHERE (t0.c0) IS NULL GROUP BY t0.c0, v0.c0;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
