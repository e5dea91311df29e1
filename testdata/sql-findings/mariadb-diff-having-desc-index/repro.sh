#!/usr/bin/env bash
# diff: mariadb: returns different rows than duckdb,postgres,sqlite
# kind: wrong-result, oracle: diff, seed: 14262064132149608507
# expected: having.notp: the same rows from every engine; duckdb,postgres,sqlite: 4 rows
# actual: mariadb: 0 rows, missing (t:A, i:21, NULL, i:39), (t:A, i:21, NULL, i:95), (t:x y, i:10, i:-10, i:39) ... (4 in all)
# replay: polyfuzz replay diff/findings/2c7c5d06a1e5711f
# Runs the case on each engine it was found on, printing each query's role before its answer.
set -u

# SQLite: generated SQL may use functions of SQLite 3.48 or later (concat, unhex, if); set
# SQLITE3 to a recent sqlite3 shell.
"${SQLITE3:-sqlite3}" :memory: <<'POLYFUZZ_SQL'
.headers off
.mode list
.nullvalue NULL
CREATE TABLE t0 (c0 VARCHAR(1), c1 INT, c2 INT);
CREATE TABLE t1 (c0 INT);
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, 0, -0);
INSERT INTO t1 (c0) VALUES (0);
CREATE INDEX i0 ON t1 (c0 DESC);
.print '-- having.notp'
SELECT t0.c0, t0.c1, t0.c2, t1.c0 FROM t0, t1 GROUP BY t0.c0, t0.c1, t0.c2, t1.c0 HAVING NOT ((t0.c1 NOT BETWEEN abs(t0.c1) AND t1.c0));
POLYFUZZ_SQL

# DuckDB, in memory, with its command-line shell (DUCKDB to name it).
"${DUCKDB:-duckdb}" -noheader -list <<'POLYFUZZ_SQL'
CREATE TABLE t0 (c0 VARCHAR(1), c1 INT, c2 INT);
CREATE TABLE t1 (c0 INT);
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, 0, -0);
INSERT INTO t1 (c0) VALUES (0);
CREATE INDEX i0 ON t1 (c0 DESC);
.print '-- having.notp'
SELECT t0.c0, t0.c1, t0.c2, t1.c0 FROM t0, t1 GROUP BY t0.c0, t0.c1, t0.c2, t1.c0 HAVING NOT ((t0.c1 NOT BETWEEN abs(t0.c1) AND t1.c0));
POLYFUZZ_SQL

# PostgreSQL, in a scratch schema of the database POLYFUZZ_POSTGRES_DSN names.
psql "${POLYFUZZ_POSTGRES_DSN:?set POLYFUZZ_POSTGRES_DSN=postgres://USER:PASS@HOST:PORT/DB}" -X -q -A -t <<'POLYFUZZ_SQL'
DROP SCHEMA IF EXISTS polyfuzz_repro CASCADE;
CREATE SCHEMA polyfuzz_repro;
SET search_path = polyfuzz_repro;
CREATE TABLE t0 (c0 VARCHAR(1), c1 INT, c2 INT);
CREATE TABLE t1 (c0 INT);
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, 0, -0);
INSERT INTO t1 (c0) VALUES (0);
CREATE INDEX i0 ON t1 (c0 DESC);
\echo '-- having.notp'
SELECT t0.c0, t0.c1, t0.c2, t1.c0 FROM t0, t1 GROUP BY t0.c0, t0.c1, t0.c2, t1.c0 HAVING NOT ((t0.c1 NOT BETWEEN abs(t0.c1) AND t1.c0));
DROP SCHEMA polyfuzz_repro CASCADE;
POLYFUZZ_SQL

# mariadb, in a scratch database polyfuzz_repro on the server POLYFUZZ_MARIADB_DSN names.
dsn=${POLYFUZZ_MARIADB_DSN:?set POLYFUZZ_MARIADB_DSN=mariadb://USER:PASS@HOST:PORT/DB}
re='^[a-z]+://([^:@/]*)(:([^@/]*))?@([^:/]+)(:([0-9]+))?'
[[ $dsn =~ $re ]] || { echo "cannot read $dsn" >&2; exit 2; }
MYSQL_PWD=${BASH_REMATCH[3]} "${MYSQL:-mariadb}" -h "${BASH_REMATCH[4]}" -P "${BASH_REMATCH[6]:-3306}" -u "${BASH_REMATCH[1]}" -N -B --force <<'POLYFUZZ_SQL'
DROP DATABASE IF EXISTS polyfuzz_repro;
CREATE DATABASE polyfuzz_repro CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
USE polyfuzz_repro;
SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION';
CREATE TABLE t0 (c0 VARCHAR(1), c1 INT, c2 INT);
CREATE TABLE t1 (c0 INT);
INSERT INTO t0 (c0, c1, c2) VALUES (NULL, 0, -0);
INSERT INTO t1 (c0) VALUES (0);
CREATE INDEX i0 ON t1 (c0 DESC);
SELECT '-- having.notp';
SELECT t0.c0, t0.c1, t0.c2, t1.c0 FROM t0, t1 GROUP BY t0.c0, t0.c1, t0.c2, t1.c0 HAVING NOT ((t0.c1 NOT BETWEEN abs(t0.c1) AND t1.c0));
DROP DATABASE polyfuzz_repro;
POLYFUZZ_SQL
