#!/usr/bin/env bash
# codd: mariadb: folded query returns other rows
# kind: wrong-result, oracle: codd, seed: 7328182772484145210
# engines: mariadb 10.11.19-MariaDB;
# expected: the 0 rows of the original query (codd.map reproduces φ on every row)
# actual: 1 rows; adds (1, NULL, NULL)
# on the original case: expected the 0 rows of the original query (codd.map reproduces φ on every row); actual 7 rows; adds (1, NULL, NULL), (1, NULL, NULL), (1, NULL, NULL) ... (7 in all)
# polyfuzz: 0.2.0
# replay: polyfuzz replay testdata/sql-findings/mariadb-codd-replace-outer-join-null
#
# Runs the case with each engine's own client and judges the answers as the oracle did.
# Exit status: 0 the bug reproduces, 1 it does not, 2 this script cannot tell (a client is
# missing, a server unreachable, a query failed, a planted fault, or an oracle a shell cannot judge).
set -u
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# cannot says why the bug cannot be judged here and exits 2.
cannot() { echo "repro.sh: cannot judge: $*" >&2; exit 2; }
# version NAME RECORDED RUNNING prints the version that runs and warns when the finding was recorded on another.
version() {
	echo "== $1: $3"
	case "$3" in *"$2"*) ;; *) echo "repro.sh: warning: the finding was recorded on $1 $2; this is $3" >&2 ;; esac
}
# limit SECONDS CMD... runs CMD, killed after SECONDS when timeout(1) is there (exit status 124).
limit() { if command -v timeout >/dev/null; then timeout "$@"; else shift; "$@"; fi; }
# sec ENGINE ROLE prints ENGINE's answer to the query of ROLE.
sec() { awk -v r="---- $2" '$0 == r { on = 1; next } /^---- / { on = 0 } on' "$tmp/$1.out"; }
# ran ENGINE says whether ENGINE answered every query (the end line was printed and no query failed).
ran() { grep -qx -- '---- end' "$tmp/$1.out" && [ ! -s "$tmp/$1.qfail" ]; }

# mariadb, in a scratch database polyfuzz_repro on the server POLYFUZZ_MARIADB_DSN names; set MYSQL to name the client.
dsn=${POLYFUZZ_MARIADB_DSN:-}
[ -n "$dsn" ] || cannot "set POLYFUZZ_MARIADB_DSN=mariadb://USER:PASS@HOST:PORT/DB"
re='^[a-z]+://([^:@/]*)(:([^@/]*))?@([^:/]+)(:([0-9]+))?'
[[ $dsn =~ $re ]] || cannot "cannot read POLYFUZZ_MARIADB_DSN"
cli=("${MYSQL:-mariadb}" -h "${BASH_REMATCH[4]}" -P "${BASH_REMATCH[6]:-3306}" -u "${BASH_REMATCH[1]}" -N -B)
export MYSQL_PWD=${BASH_REMATCH[3]}
command -v "${cli[0]}" >/dev/null || cannot "${cli[0]} not found: install the client or set MYSQL"
v=$("${cli[@]}" -e 'SELECT VERSION()' 2>"$tmp/mariadb.err") || cannot "mariadb is unreachable: $(head -n 1 "$tmp/mariadb.err")"
version mariadb '10.11.19-MariaDB' "$v"
# The setup goes on after errors (--force); the queries stop at the first.
limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "${cli[@]}" --force >"$tmp/mariadb.out" 2>"$tmp/mariadb.err" <<'POLYFUZZ_SQL'
DROP DATABASE IF EXISTS polyfuzz_repro;
CREATE DATABASE polyfuzz_repro CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
USE polyfuzz_repro;
SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION';
CREATE TABLE t0 (c0 SMALLINT DEFAULT 0, c1 BIGINT PRIMARY KEY) ENGINE=Aria;
CREATE TABLE t1 (c0 DOUBLE NOT NULL, c1 VARCHAR(1) PRIMARY KEY DEFAULT 0, c2 VARCHAR(0) DEFAULT '', c3 DECIMAL(20,5) DEFAULT NULL, CHECK (TRUE));
CREATE VIEW v1 AS SELECT round(t1.c0) AS c0, t1.c2 AS c1 FROM t0 LEFT OUTER JOIN t1 ON 0;
INSERT INTO t0 (c0, c1) VALUES (5, 0);
POLYFUZZ_SQL
st=$?
if [ "$st" = 0 ]; then
	limit ${POLYFUZZ_REPRO_TIMEOUT:-300} "${cli[@]}" polyfuzz_repro >>"$tmp/mariadb.out" 2>>"$tmp/mariadb.err" <<'POLYFUZZ_SQL'
SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION';
SELECT '---- codd.fetch';
SELECT v1.c0, v1.c1, (replace(0, 1, CONCAT(v1.c1, v1.c1)) NOT BETWEEN 1 AND NULL) AS phi FROM v1;
SELECT '---- codd.map';
SELECT v1.c0, v1.c1, CASE WHEN v1.c0 IS NULL AND v1.c1 IS NULL THEN 1 END AS phi FROM v1;
SELECT '---- codd.orig';
SELECT ((replace(0, 1, CONCAT(v1.c1, v1.c1)) NOT BETWEEN 1 AND NULL)) AS phi, v1.c0, v1.c1 FROM v1 WHERE ((replace(0, 1, CONCAT(v1.c1, v1.c1)) NOT BETWEEN 1 AND NULL));
SELECT '---- codd.fold';
SELECT CASE WHEN v1.c0 IS NULL AND v1.c1 IS NULL THEN 1 END AS phi, v1.c0, v1.c1 FROM v1 WHERE CASE WHEN v1.c0 IS NULL AND v1.c1 IS NULL THEN 1 END;
SELECT '---- end';
POLYFUZZ_SQL
	st=$?
fi
echo "$st" >"$tmp/mariadb.status"
: >"$tmp/mariadb.qfail"
tr '\t' '|' <"$tmp/mariadb.out" >"$tmp/mariadb.tab" && mv "$tmp/mariadb.tab" "$tmp/mariadb.out"
"${cli[@]}" -e 'DROP DATABASE IF EXISTS polyfuzz_repro' 2>/dev/null
echo '== mariadb answers:'
cat "$tmp/mariadb.out"
cat "$tmp/mariadb.err" >&2

echo 'repro.sh: cannot judge: no shell judge for the oracle codd; compare the answers above by hand, or run the replay line' >&2
exit 2
