package datafusion

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// open opens a target, skipping t (failing it in CI) when the datafusion module is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "datafusion")
	tg, err := Open(Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

// TestValues checks the canonical form of each Arrow type the generator's SQL produces.
func TestValues(t *testing.T) {
	tg := open(t, 10*time.Second)
	if tg.Package() != "55.0.0" || !strings.HasPrefix(tg.Version(), "55.") {
		t.Errorf("Package, Version = %q, %q; want 55.0.0 and a 55.x engine", tg.Package(), tg.Version())
	}
	ctx := context.Background()
	tests := []struct{ expr, want string }{
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
	}
	for _, tc := range tests {
		q := "SELECT " + tc.expr + " AS c0"
		got, err := tg.Exec(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		want := &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{tc.want}}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", q, got, want)
		}
	}
}

func TestStatementsAndErrors(t *testing.T) {
	tg := open(t, 10*time.Second)
	ctx := context.Background()
	tests := []struct {
		stmt string
		want *fuzz.Result
	}{
		{"CREATE TABLE t0(c0 INT, c1 REAL, c2 VARCHAR NOT NULL)", &fuzz.Result{Status: fuzz.StatusOK}},
		{"INSERT INTO t0 VALUES (1, 0.5, 'a'), (NULL, 0.1, 'b')", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:2"}}}},
		{"SELECT c0, c1, c2 FROM t0 ORDER BY c0 NULLS FIRST", &fuzz.Result{Status: fuzz.StatusOK,
			Rows: [][]string{{"NULL", "r:0.1", "t:b"}, {"i:1", "r:0.5", "t:a"}}}},
		{"UPDATE t0 SET c1 = 2 WHERE c0 IS NULL", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:1"}}}},
		{"DELETE FROM t0 WHERE c0 = 1", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"i:1"}}}},
		{"CREATE VIEW v0 AS SELECT c1 FROM t0", &fuzz.Result{Status: fuzz.StatusOK}},
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
	}
	for _, tc := range tests {
		got, err := tg.Exec(ctx, tc.stmt)
		if err != nil {
			t.Fatal(err)
		}
		if tc.want.Err == "" && got.Status == fuzz.StatusEngineError {
			got.Err = "" // the code is what matters
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.stmt, got, tc.want)
		}
	}
	// Reset drops every table in the running process.
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if res, _ := tg.Exec(ctx, "SELECT * FROM t0"); res.Status != fuzz.StatusEngineError || res.Code != "Plan" {
		t.Errorf("after Reset, t0 answered %+v; want a Plan error", res)
	}
	if tg.Starts() != 1 {
		t.Errorf("Starts = %d after a Reset; want 1 (the process kept)", tg.Starts())
	}
}

// TestTimeout runs a statement longer than the timeout: it is a timeout, and the next statement
// runs in a new process.
func TestTimeout(t *testing.T) {
	tg := open(t, 300*time.Millisecond)
	ctx := context.Background()
	res, err := tg.Exec(ctx, "SELECT count(*) FROM generate_series(1, 100000000) a, generate_series(1, 100000) b")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fuzz.StatusTimeout {
		t.Fatalf("a long statement answered %+v; want a timeout", res)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	res, err = tg.Exec(ctx, "SELECT 42")
	if err != nil || res.Status != fuzz.StatusOK || res.Rows[0][0] != "i:42" {
		t.Fatalf("after the timeout: %+v, %v", res, err)
	}
	if tg.Starts() != 2 {
		t.Errorf("Starts = %d; want 2", tg.Starts())
	}
}

// TestCrashIsAResult kills the Python process in the middle of a statement, as a segmentation
// fault in DataFusion would: the statement is a crash, and the target goes on after Reset.
func TestCrashIsAResult(t *testing.T) {
	tg := open(t, 20*time.Second)
	ctx := context.Background()
	pid := serverPID(t)
	go func() {
		time.Sleep(200 * time.Millisecond)
		syscall.Kill(pid, syscall.SIGSEGV)
	}()
	res, err := tg.Exec(ctx, "SELECT count(*) FROM generate_series(1, 100000000) a, generate_series(1, 100000) b")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fuzz.StatusCrash || !strings.Contains(res.Err, "datafusion") {
		t.Fatalf("a killed server answered %+v; want a crash", res)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	res, err = tg.Exec(ctx, "SELECT 42")
	if err != nil || res.Status != fuzz.StatusOK || res.Rows[0][0] != "i:42" {
		t.Fatalf("after the crash and Reset: %+v, %v", res, err)
	}
	if tg.Starts() != 2 {
		t.Errorf("Starts = %d; want 2", tg.Starts())
	}
}

// serverPID finds the one Python server of this test process among its children.
func serverPID(t *testing.T) int {
	t.Helper()
	self := os.Getpid()
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if len(f) > 1 && f[1] == strconv.Itoa(self) && strings.Contains(string(cmd), "polyfuzz-datafusion") {
			pid, _ := strconv.Atoi(e.Name())
			return pid
		}
	}
	t.Skip("cannot find the server process in /proc")
	return 0
}

// TestMissingModule opens the target on an interpreter without the datafusion module: the error
// names the fix.
func TestMissingModule(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		testenv.Missing(t, "python3 is not on PATH")
	}
	// A fresh, empty virtual environment would take seconds; -I (isolated mode) with no site
	// packages hides the module from the system interpreter as well.
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "python3")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+python+" -I -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Open(Options{Python: wrapper})
	if err == nil || !strings.Contains(err.Error(), "the Python module datafusion is missing") ||
		!strings.Contains(err.Error(), "python_env") {
		t.Fatalf("Open without the module = %v; want an error naming the module and python_env", err)
	}
}
