#!/usr/bin/env bash
# tlp-having: mariadb: partitions add rows
# kind: wrong-result, oracle: tlp-having, seed: 14329465973894873130
# expected: the 6 rows of the original query
# actual: partitions add (NULL, NULL, NULL, d:765.26, d:0, i:38, d:-1)
# replay: polyfuzz replay mariadb/findings/b428c438fb1c2c70
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
CREATE TABLE t1 (c0 CHAR(8) NOT NULL, c1 DECIMAL(10,2) UNIQUE, c2 DECIMAL(10,2) PRIMARY KEY) ENGINE=Aria;
CREATE INDEX i0 ON t0 (c1 DESC);
INSERT INTO t1 (c0, c1, c2) VALUES (0, NULL, 0);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (NULL, 0, 0, -0);
INSERT INTO t0 (c0, c1, c2, c3) VALUES (NULL, NULL, 0, NULL);
SELECT '-- having.orig';
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3;
SELECT '-- having.p';
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 HAVING (t0.c1 <> 0.001);
SELECT '-- having.notp';
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 HAVING NOT ((t0.c1 <> 0.001));
SELECT '-- having.null';
SELECT t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 FROM t1 RIGHT JOIN t0 ON 0 GROUP BY t1.c0, t1.c1, t1.c2, t0.c0, t0.c1, t0.c2, t0.c3 HAVING ((t0.c1 <> 0.001)) IS NULL;
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
