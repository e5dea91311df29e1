#!/usr/bin/env bash
# error: duckdb: binder cannot compare values of type blob and type varchar - an explicit cast is required
# kind: unexpected-error, oracle: error, seed: 15004922668413878348
# expected: an answer
# actual: Binder: Cannot compare values of type BLOB and type VARCHAR - an explicit cast is required
# 
# LINE 1: ....c0) >= 91) WHERE (repeat((CAST(NULL AS VARCHAR) || t1.c3), 2) < t1.c3)
#                                                                           ^ (in the query)
# replay: polyfuzz replay duckdb/findings/df441b1127d0c55a
# Runs the case on each engine it was found on, printing each query's role before its answer.
set -u

# DuckDB, in memory, with its command-line shell (DUCKDB to name it).
"${DUCKDB:-duckdb}" -noheader -list <<'POLYFUZZ_SQL'
CREATE TABLE t1 (c0 NUMERIC PRIMARY KEY, c1 TEXT NOT NULL, c2 TINYINT, c3 VARCHAR NOT NULL);
.print '-- norec.opt-rows'
SELECT * FROM t1 WHERE (repeat(NULL, 2) < t1.c3);
POLYFUZZ_SQL
