package datafusion

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
	"github.com/polyfuzz/polyfuzz/targets/rowserver/rowservertest"
)

// open opens a target, skipping t (failing it in CI) when the datafusion module is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "datafusion")
	return sqltest.Open(t, func(context.Context) (*Target, error) { return Open(Options{Timeout: timeout}) })
}

// TestValues checks the canonical form of each Arrow type the generator's SQL produces.
func TestValues(t *testing.T) {
	tg := open(t, 10*time.Second)
	if tg.Package() != "55.0.0" || !strings.HasPrefix(tg.Version(), "55.") {
		t.Errorf("Package, Version = %q, %q; want 55.0.0 and a 55.x engine", tg.Package(), tg.Version())
	}
	rowservertest.CheckValues(t, tg, []rowservertest.ValueCase{
		{"NULL", "NULL"}, {"TRUE", "B:true"}, {"FALSE", "B:false"}, {"CAST(NULL AS INT)", "NULL"},
		{"CAST(-128 AS TINYINT)", "i:-128"}, {"CAST(32767 AS SMALLINT)", "i:32767"},
		{"CAST(-2147483648 AS INT)", "i:-2147483648"}, {"9223372036854775807", "i:9223372036854775807"},
		{"CAST(18446744073709551615 AS BIGINT UNSIGNED)", "i:18446744073709551615"},
		{"CAST(1.50 AS DECIMAL(10,2))", "d:1.5"}, {"CAST(-0.0001 AS DECIMAL(18,4))", "d:-0.0001"},
		{"CAST(0 AS DECIMAL(18,4))", "d:0"}, {"CAST('12345678901234.5678' AS DECIMAL(18,4))", "d:12345678901234.5678"},
		{"CAST(0.1 AS REAL)", "r:0.1"}, {"CAST(16777217 AS REAL)", "r:1.6777216e+07"}, {"CAST(-0.0 AS REAL)", "r:-0"},
		{"CAST(0.1 AS DOUBLE)", "r:0.1"}, {"CAST(1e6 AS DOUBLE)", "r:1e+06"}, {"CAST(123456 AS DOUBLE)", "r:123456"},
		{"CAST('NaN' AS DOUBLE)", "r:NaN"}, {"CAST('Infinity' AS DOUBLE)", "r:+Inf"}, {"CAST('-Infinity' AS REAL)", "r:-Inf"},
		{"CAST(-0.0 AS DOUBLE)", "r:-0"}, {"5e-324", "r:5e-324"},
		{"CAST('-Infinity' AS DOUBLE) - CAST('-Infinity' AS DOUBLE)", NegNaN}, {"- CAST('NaN' AS REAL)", NegNaN},
		{"''", "t:"}, {"'a'", "t:a"}, {"'tab\there'", "t:tab\there"}, {"'line\nbreak\\'", "t:line\nbreak\\"},
		{"'é'", "t:é"}, {"arrow_cast('x', 'LargeUtf8')", "t:x"}, {"X'00ff'", "b:00ff"},
		{"DATE '2020-01-31'", "t:2020-01-31"},
	})
}

func TestStatementsAndErrors(t *testing.T) {
	tg := open(t, 10*time.Second)
	rowservertest.CheckStatements(t, tg, []rowservertest.StmtCase{
		{"CREATE TABLE t0(c0 INT, c1 REAL, c2 VARCHAR NOT NULL)", sqltest.OK(nil)},
		{"INSERT INTO t0 VALUES (1, 0.5, 'a'), (NULL, 0.1, 'b')", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:2"}}}},
		{"SELECT c0, c1, c2 FROM t0 ORDER BY c0 NULLS FIRST", &fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"NULL", "r:0.1", "t:b"}, {"i:1", "r:0.5", "t:a"}}}},
		{"UPDATE t0 SET c1 = 2 WHERE c0 IS NULL", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:1"}}}},
		{"DELETE FROM t0 WHERE c0 = 1", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:1"}}}},
		{"CREATE VIEW v0 AS SELECT c1 FROM t0", sqltest.OK(nil)},
		{"SELECT * FROM v0", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"r:2"}}}},
		{"SELECT x FROM t0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Schema"}},
		{"SELECT 1/0", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Arrow/DivideByZero", Err: "Arrow error: Divide by zero error"}},
		// Constant folding wraps the error in its optimizer rule's context, on a later line.
		{"SELECT CAST('a' AS INT)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Arrow/Cast",
			Err: "Arrow error: Cast error: Cannot cast string 'a' to value of Int32 type\n(in Optimizer rule 'simplify_expressions' failed)"}},
		{"INSERT INTO t0 VALUES (1, 1, NULL)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Arrow/InvalidArgument"}},
		{"CREATE INDEX i0 ON t0 (c0)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "NotImplemented",
			Err: "This feature is not implemented: Unsupported logical plan: CreateIndex"}},
		{"SELEC 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQL/ParserError"}},
		{"SELECT * FROM nosuch", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "Plan"}},
	})
	rowservertest.CheckReset(t, tg, "SELECT * FROM t0", "Plan")
}

// TestTimeout runs a statement longer than the timeout: it is a timeout, and the next statement
// runs in a new process.
func TestTimeout(t *testing.T) {
	tg := open(t, 300*time.Millisecond)
	rowservertest.CheckTimeout(t, tg, "SELECT 42", sqltest.TimeoutCase{Name: "cross join",
		Stmt: "SELECT count(*) FROM generate_series(1, 100000000) a, generate_series(1, 100000) b", Max: 5 * time.Second}, true)
}

// TestCrashIsAResult kills the Python process in the middle of a statement, as a segmentation
// fault in DataFusion would: the statement is a crash, and the target goes on after Reset.
func TestCrashIsAResult(t *testing.T) {
	rowservertest.CheckCrash(t, open(t, 20*time.Second), rowservertest.Crash{Signal: syscall.SIGSEGV,
		Slow: "SELECT count(*) FROM generate_series(1, 100000000) a, generate_series(1, 100000) b"})
}

// TestMissingModule opens the target on an interpreter without the datafusion module: the error
// names the fix.
func TestMissingModule(t *testing.T) {
	rowservertest.CheckMissingModule(t, func(python string) error {
		tg, err := Open(Options{Python: python})
		if err == nil {
			tg.Close()
		}
		return err
	}, "datafusion", Fix)
}
