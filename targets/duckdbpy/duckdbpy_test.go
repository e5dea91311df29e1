package duckdbpy

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
	"github.com/polyfuzz/polyfuzz/targets/rowserver/rowservertest"
)

// testWheel is the wheel the tests run: an old release whose Python binding differs from today's
// (MAPs as key/value lists, no DuckDBPyType).
const testWheel = "0.8.1"

// open opens the test wheel's target, skipping t (failing it in CI) when the wheel is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	if !pypi.Installed(Package, testWheel) {
		testenv.Missing(t, "duckdb=="+testWheel+" is not installed: run polyfuzz bench install duckdb=="+testWheel)
	}
	return sqltest.Open(t, func(context.Context) (*Target, error) { return Open(Options{Version: testWheel, Timeout: timeout}) })
}

// TestValuesAsGoTarget runs typed values on the wheel and on the Go target (package duckdb): the
// canonical values must be the same, so that the oracles and the differential see one engine.
func TestValuesAsGoTarget(t *testing.T) {
	tg := open(t, 10*time.Second)
	if tg.Version() != testWheel || tg.Wheel() != testWheel {
		t.Errorf("Version, Wheel = %q, %q; want %q", tg.Version(), tg.Wheel(), testWheel)
	}
	gt, err := duckdb.Open(duckdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer gt.Close()
	rowservertest.CheckValuesAs(t, tg, gt, []string{
		"NULL", "TRUE", "FALSE", "CAST(NULL AS INTEGER)",
		"CAST(-128 AS TINYINT)", "CAST(32767 AS SMALLINT)", "CAST(-2147483648 AS INTEGER)",
		"CAST(9223372036854775807 AS BIGINT)", "CAST(170141183460469231731687303715884105727 AS HUGEINT)",
		"CAST(255 AS UTINYINT)", "CAST(18446744073709551615 AS UBIGINT)",
		"CAST(1.50 AS DECIMAL(10,2))", "CAST(-0.0001 AS DECIMAL(18,4))", "CAST(0 AS DECIMAL(18,4))",
		"CAST(12345678901234.5678 AS DECIMAL(18,4))", "CAST(1.5 AS NUMERIC)", "CAST(1 AS DECIMAL(38,10))",
		"CAST(0.1 AS REAL)", "CAST(1e30 AS REAL)", "CAST(16777217 AS REAL)", "CAST(-0.0 AS REAL)",
		"CAST(0.1 AS DOUBLE)", "CAST(1e6 AS DOUBLE)", "CAST(123456 AS DOUBLE)", "CAST(1e-5 AS DOUBLE)",
		"CAST(-0.0 AS DOUBLE)", "CAST('NaN' AS DOUBLE)", "CAST('Infinity' AS DOUBLE)", "CAST('-Infinity' AS REAL)",
		"CAST(5e-324 AS DOUBLE)", "1.7976931348623157e308",
		"''", "'a'", "'tab\there'", "'line\nbreak\\'", "'é'", "CAST('ab' AS BLOB)", "CAST('\\x00\\xFF' AS BLOB)",
		"DATE '2020-01-31'", "TIMESTAMP '2020-01-01 10:00:00.12'", "TIMESTAMP '2020-01-01 10:00:00'",
		"TIME '23:59:59.5'", "[1, 2, NULL]", "['a', 'b']", "{'a': 1, 'b': 'x'}",
	})
}

func TestStatementsAndErrors(t *testing.T) {
	tg := open(t, 10*time.Second)
	rowservertest.CheckStatements(t, tg, []rowservertest.StmtCase{
		{"CREATE TABLE t0(c0 INTEGER, c1 REAL, c2 VARCHAR)", sqltest.OK(nil)},
		{"INSERT INTO t0 VALUES (1, 0.5, 'a'), (NULL, 0.1, NULL)", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:2"}}}},
		{"SELECT c0, c1, c2 FROM t0 ORDER BY c0 NULLS FIRST", &fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"NULL", "r:0.1", "NULL"}, {"i:1", "r:0.5", "t:a"}}}},
		{"SELECT 1; SELECT 2", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:2"}}}},
		{"SELECT x FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Binder"}},
		{"SELECT CAST('a' AS INTEGER)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Conversion",
			Err: "Could not convert string 'a' to INT32"}},
		{"SELECT CAST(2147483647 AS INTEGER) + 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Out of Range",
			Err: "Overflow in addition of INT32 (2147483647 + 1)!"}},
		{"SELECT CAST(c2 AS INTEGER) FROM t0 WHERE c2 IS NOT NULL", &fuzz.Result{Status: fuzz.StatusEngineError,
			Code: "Conversion", Err: "Could not convert string 'a' to INT32"}}, // raised while the rows are read
		{"SELEC 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Parser"}},
		{"SELECT * FROM nosuch", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Catalog"}},
	})
	rowservertest.CheckReset(t, tg, "SELECT * FROM t0", "Catalog")
}

// TestCrashIsAResult kills the Python process in the middle of a statement, as a segmentation
// fault in DuckDB would: the statement is a crash, and the target goes on after Reset.
func TestCrashIsAResult(t *testing.T) {
	rowservertest.CheckCrash(t, open(t, 20*time.Second), rowservertest.Crash{Signal: syscall.SIGSEGV,
		Setup: []string{"CREATE TABLE t0(c0 INTEGER)"}, Slow: "SELECT count(*) FROM range(1000000000) a, range(1000) b"})
}

func TestOpenErrors(t *testing.T) {
	tests := []struct{ version, want string }{
		{"0.6.1", "releases before 0.7.0 need numpy"},
		{"9.9.9", "is not installed: run polyfuzz bench install duckdb==9.9.9"},
	}
	for _, tc := range tests {
		_, err := Open(Options{Version: tc.version})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) = %v; want an error with %q", tc.version, err, tc.want)
		}
	}
}
