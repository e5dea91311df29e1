CREATE TABLE t0 (c0 DOUBLE PRIMARY KEY, c1 CHAR(8), mark INT DEFAULT 0);
INSERT IGNORE INTO t0 (c0, c1) VALUES (CAST(0 AS DOUBLE), 0);
-- dqe.select
SELECT t0.c1 FROM t0 WHERE (NOT ((t0.c0 + t0.c0) NOT BETWEEN (0 ^ -1) AND 0));
-- dqe.all
SELECT t0.c1 FROM t0;
-- dqe.ubegin
BEGIN;
-- dqe.update
UPDATE t0 SET mark = 1 WHERE (NOT ((t0.c0 + t0.c0) NOT BETWEEN (0 ^ -1) AND 0));
-- dqe.updated
SELECT t0.c1 FROM t0 WHERE mark = 1;
-- dqe.urollback
ROLLBACK;
-- dqe.dbegin
BEGIN;
-- dqe.delete
DELETE FROM t0 WHERE (NOT ((t0.c0 + t0.c0) NOT BETWEEN (0 ^ -1) AND 0));
-- dqe.remaining
SELECT t0.c1 FROM t0;
-- dqe.drollback
ROLLBACK;
