-- norec.unopt
SELECT SUM(count) FROM (SELECT CAST((0) IS TRUE AS INTEGER) AS count FROM t0) AS res;
