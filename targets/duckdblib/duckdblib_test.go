package duckdblib

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/rowserver/rowservertest"
)

// open opens the test library (TestLib), skipping t (failing it in CI) when it is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	lib := TestLib()
	if _, err := os.Stat(lib); err != nil {
		testenv.Missing(t, lib+" is missing: run scripts/duckdblib.sh")
	}
	return sqltest.Open(t, func(context.Context) (*Target, error) { return Open(Options{Lib: lib, Timeout: timeout}) })
}

// TestValuesAsEmbedded runs values on the library and on the embedded DuckDB (targets/duckdb):
// the canonical forms must be the same, so that oracles and the differential see one engine
// whichever build runs.
func TestValuesAsEmbedded(t *testing.T) {
	tg := open(t, 10*time.Second)
	emb := sqltest.Open(t, func(context.Context) (*duckdb.Target, error) { return duckdb.Open(duckdb.Options{}) })
	if tg.Version() != "v"+TestLibVersion || tg.Version() == emb.Version() {
		t.Errorf("Version %q: want v%s (the embedded one is %s)", tg.Version(), TestLibVersion, emb.Version())
	}
	rowservertest.CheckValuesAs(t, tg, emb, []string{
		"NULL", "TRUE", "FALSE", "CAST(NULL AS INTEGER)",
		"CAST(-128 AS TINYINT)", "CAST(32767 AS SMALLINT)", "CAST(-2147483648 AS INTEGER)",
		"CAST(9223372036854775807 AS BIGINT)", "CAST(-9223372036854775808 AS BIGINT)",
		"CAST(170141183460469231731687303715884105727 AS HUGEINT)", "CAST(-170141183460469231731687303715884105727 AS HUGEINT)",
		"CAST(255 AS UTINYINT)", "CAST(65535 AS USMALLINT)", "CAST(4294967295 AS UINTEGER)", "CAST(18446744073709551615 AS UBIGINT)",
		"CAST(1.50 AS DECIMAL(10,2))", "CAST(-0.0001 AS DECIMAL(18,4))", "CAST(0 AS DECIMAL(18,4))",
		"CAST(12345678901234.5678 AS DECIMAL(18,4))", "CAST(1.5 AS NUMERIC)", "CAST(1 AS DECIMAL(38,10))",
		"CAST(-12345678901234567890.123 AS DECIMAL(38,3))",
		"CAST(0.1 AS REAL)", "CAST(1e30 AS REAL)", "CAST(16777217 AS REAL)", "CAST(-0.0 AS REAL)",
		"CAST(0.1 AS DOUBLE)", "CAST(1e6 AS DOUBLE)", "CAST(123456 AS DOUBLE)", "CAST(1e-5 AS DOUBLE)",
		"CAST(-0.0 AS DOUBLE)", "CAST('NaN' AS DOUBLE)", "CAST('Infinity' AS DOUBLE)", "CAST('-Infinity' AS REAL)",
		"CAST(5e-324 AS DOUBLE)", "1.7976931348623157e308", "1.5", "10 / 4", "7 // 2",
		"''", "'a'", "'tab\there'", "'line\nbreak\\'", "'é'", "CAST('ab' AS BLOB)", "CAST('\\x00\\xFF' AS BLOB)",
		"DATE '2020-01-31'", "TIMESTAMP '2020-01-01 10:00:00.12'", "TIMESTAMP '2020-01-01 10:00:00'",
		"TIME '23:59:59.5'", "INTERVAL 3 DAY", "INTERVAL '1 month 2 seconds'", "TIMESTAMP '1999-12-31 23:59:59.999999'",
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
		{"INSERT INTO t0(c0) VALUES (3); SELECT count(*) FROM t0", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:3"}}}},
		{"SELECT * FROM t0 WHERE FALSE", sqltest.OK(nil)},
		{"SELECT x FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Binder"}},
		{"SELECT CAST('a' AS INTEGER)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Conversion"}},
		{"SELECT CAST(2147483647 AS INTEGER) + 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Out of Range",
			Err: "Overflow in addition of INT32 (2147483647 + 1)!"}},
		{"SELECT CAST(c2 AS INTEGER) FROM t0 WHERE c2 IS NOT NULL", &fuzz.Result{Status: fuzz.StatusEngineError,
			Code: "Conversion"}}, // raised while the rows are read
		{"SELEC 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Parser", Err: `syntax error at or near "SELEC"`}},
		{"SELECT * FROM nosuch", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Catalog"}},
		{"SELECT 1 // 0", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"NULL"}}}},
		{"SELECT [1, 2]", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "driver",
			Err: "values of type LIST are not read through the C API's value functions"}},
		{"SELECT 'b5b7a2f4-61a4-4c3f-8a4e-1f2b3c4d5e6f'::UUID", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "driver",
			Err: "values of type UUID are not read through the C API's value functions"}},
	})
	rowservertest.CheckReset(t, tg, "SELECT * FROM t0", "Catalog")
	// A temporary table lives in the session, which swapping the database keeps: Reset opens a
	// new instance.
	sqltest.MustExec(t, tg, "CREATE TEMP TABLE tt(c0 INTEGER)")
	rowservertest.CheckReset(t, tg, "SELECT * FROM tt", "Catalog")
}

// TestErrorsAsEmbedded runs failing statements on the library and on the embedded DuckDB: the
// codes must be the same, read from the messages as the Go binding reads them.
func TestErrorsAsEmbedded(t *testing.T) {
	tg := open(t, 10*time.Second)
	emb := sqltest.Open(t, func(context.Context) (*duckdb.Target, error) { return duckdb.Open(duckdb.Options{}) })
	ctx := context.Background()
	for _, q := range []string{"SELECT x", "SELECT CAST('a' AS INTEGER)", "SELECT CAST(2147483647 AS INTEGER) + 1",
		"SELEC 1", "SELECT * FROM nosuch", "SELECT abs('x')", "CREATE TABLE t0(c0 INT PRIMARY KEY); INSERT INTO t0 VALUES (1), (1)",
		"SELECT 'abc'[1:2]::INTEGER", "SELECT error('boom')"} {
		want, err := emb.Exec(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tg.Exec(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != fuzz.StatusEngineError || got.Status != want.Status || got.Code != want.Code {
			t.Errorf("%s: the library answered %s %q (%s); the embedded DuckDB %s %q (%s)", q, got.Status, got.Code, got.Err, want.Status, want.Code, want.Err)
		}
		emb.Reset(ctx)
		tg.Reset(ctx)
	}
}

// TestTimeout checks that a statement past the timeout is interrupted and the database kept.
func TestTimeout(t *testing.T) {
	tg := open(t, 200*time.Millisecond)
	sqltest.MustExec(t, tg, "CREATE TABLE kept(c0 INTEGER)")
	rowservertest.CheckTimeout(t, tg, "SELECT * FROM kept",
		sqltest.TimeoutCase{Name: "endless", Stmt: "SELECT count(*) FROM range(1000000000000) a", Max: 3 * time.Second}, false)
}

// TestCrashIsAResult kills the server in the middle of a statement, as a segmentation fault in
// the library would: the statement is a crash, and the target goes on after Reset.
func TestCrashIsAResult(t *testing.T) {
	rowservertest.CheckCrash(t, open(t, 20*time.Second), rowservertest.Crash{Signal: syscall.SIGSEGV,
		Setup: []string{"CREATE TABLE t0(c0 INTEGER)"}, Slow: "SELECT count(*) FROM range(1000000000000) a"})
}

// TestRefused checks the errors for a library that is missing or not DuckDB.
func TestRefused(t *testing.T) {
	text, libm := rowservertest.NotALibrary(t, "libduckdb.so"), rowservertest.OtherLib
	rowservertest.CheckRefused(t, func(lib string) (fuzz.Target, error) { return Open(Options{Lib: lib}) }, []rowservertest.RefusedCase{
		{"none", "", "duckdb lib: no library given: write --dbms duckdb=lib:/path/libduckdb.so"},
		{"missing", "/nonexistent/libduckdb.so", "no such file or directory: give the path of a DuckDB library (libduckdb.so)"},
		{"directory", t.TempDir(), "is a directory"},
		{"not a library", text, "duckdb lib: cannot load " + text},
		{"another library", libm, libm + " is not a DuckDB library"},
	})
}
