CREATE TABLE t0 (c0 DECIMAL UNIQUE, mark INT DEFAULT 0);
INSERT IGNORE INTO t0 (c0) VALUES (NULL);
INSERT INTO t0 (c0) VALUES (NULL);
-- dqe.select
SELECT t0.c0 FROM t0 WHERE (ceil(CAST(NULL AS DECIMAL(20,5))) <=> t0.c0);
-- dqe.all
SELECT t0.c0 FROM t0;
-- dqe.ubegin
BEGIN;
-- dqe.update
UPDATE t0 SET mark = 1 WHERE (ceil(CAST(NULL AS DECIMAL(20,5))) <=> t0.c0);
-- dqe.updated
SELECT t0.c0 FROM t0 WHERE mark = 1;
-- dqe.urollback
ROLLBACK;
-- dqe.dbegin
BEGIN;
-- dqe.delete
DELETE FROM t0 WHERE (ceil(CAST(NULL AS DECIMAL(20,5))) <=> t0.c0);
-- dqe.remaining
SELECT t0.c0 FROM t0;
-- dqe.drollback
ROLLBACK;
