package turso

import (
	"context"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// open opens a target, skipping t (failing it in CI) when the binding is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	py := rowserver.Python("")
	if err := exec.Command(py, "-c", "import turso").Run(); err != nil {
		testenv.Missing(t, "the Python module turso (pyturso) is missing for "+py+": "+Fix)
	}
	tg, err := Open(Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

// TestValuesAsSQLite runs values of every storage class on Turso and on the embedded SQLite
// target: the canonical values must be the same, so that the differential compares them.
func TestValuesAsSQLite(t *testing.T) {
	tg := open(t, 10*time.Second)
	if tg.Version() == "" || !strings.HasPrefix(tg.SQLiteVersion(), "3.") {
		t.Errorf("Version, SQLiteVersion = %q, %q", tg.Version(), tg.SQLiteVersion())
	}
	st, err := sqlite.Open(sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	values := []string{
		"NULL", "0", "-1", "9223372036854775807", "-9223372036854775808", "TRUE",
		"0.5", "-0.0", "0.1", "1e308", "1e-308", "4.9e-324", "1e100", "123456.0", "1e6", "1e21", "1e-5",
		"9e999", "-9e999", "1.0/3", "2.5e-5", "9223372036854775807.0",
		"''", "'a'", "'tab\there'", "'line\nbreak\\'", "'é'", "'İß'", "x''", "x'00ff'", "zeroblob(2)",
		"CAST(1 AS TEXT)", "CAST('1.5' AS NUMERIC)", "CAST('1e2' AS NUMERIC)", "typeof(1.5)",
		"abs(-3)", "round(2.5)", "hex(x'0a')", "quote('it''s')", "printf('%.3f', 1.5)",
	}
	for _, v := range values {
		q := "SELECT " + v + " AS c0"
		want, err := st.Exec(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tg.Exec(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got.Columns, want.Columns = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: turso answered %+v; sqlite answered %+v", q, got, want)
		}
	}
}

func TestStatementsAndErrors(t *testing.T) {
	tg := open(t, 10*time.Second)
	ctx := context.Background()
	ok := func(rows ...[]string) *fuzz.Result { return &fuzz.Result{Status: fuzz.StatusOK, Rows: rows} }
	tests := []struct {
		stmt string
		want *fuzz.Result
	}{
		{"CREATE TABLE t0(c0 INT PRIMARY KEY, c1 TEXT, c2 REAL, c3 BLOB)", ok()},
		{"INSERT INTO t0 VALUES (1, 'a', 1.5, x'00ff'), (2, NULL, 2.0, NULL)", ok()},
		{"SELECT * FROM t0 ORDER BY c0", ok([]string{"i:1", "t:a", "r:1.5", "b:00ff"}, []string{"i:2", "NULL", "r:2", "NULL"})},
		{"SELECT 1; SELECT 'é', 2", ok([]string{"t:é", "i:2"})},
		{"SELECT 'é'; SELECT 3", ok([]string{"i:3"})},
		{"INSERT INTO t0(c0) VALUES (1)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_CONSTRAINT",
			Err: "UNIQUE constraint failed: t0.c0"}},
		{"SELEC 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR", Err: `near "SELEC": syntax error`}},
		{"SELECT abs(-9223372036854775808)", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR", Err: "integer overflow"}},
		{"SELECT * FROM nosuch", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR"}},
	}
	for _, tc := range tests {
		got, err := tg.Exec(ctx, tc.stmt)
		if err != nil {
			t.Fatal(err)
		}
		if tc.want.Err == "" && got.Status == fuzz.StatusEngineError {
			got.Err = ""
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.stmt, got, tc.want)
		}
	}
	// Reset empties the database in the running process.
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if res, _ := tg.Exec(ctx, "SELECT * FROM t0"); res.Status != fuzz.StatusEngineError || res.Code != "SQLITE_ERROR" {
		t.Errorf("after Reset, t0 answered %+v; want an error", res)
	}
	if tg.Starts() != 1 {
		t.Errorf("Starts = %d after a Reset; want 1 (the process kept)", tg.Starts())
	}
}

// TestCrashAndTimeout kills the server in the middle of a statement, as a fatal signal in the
// engine would, then runs a statement past its timeout: each is a result, and the target goes on
// with a new process.
func TestCrashAndTimeout(t *testing.T) {
	tg := open(t, 2*time.Second)
	ctx := context.Background()
	slow := "SELECT count(*) FROM t0 a, t0 b, t0 c, t0 d"
	for _, s := range []string{"CREATE TABLE t0(c0)", "INSERT INTO t0 SELECT value FROM generate_series(1, 300)"} {
		if res, err := tg.Exec(ctx, s); err != nil || res.Status != fuzz.StatusOK {
			t.Fatalf("%s: %+v, %v", s, res, err)
		}
	}
	pid := serverPID(t)
	go func() {
		time.Sleep(200 * time.Millisecond)
		syscall.Kill(pid, syscall.SIGSEGV)
	}()
	res, err := tg.Exec(ctx, slow)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fuzz.StatusCrash || !strings.Contains(res.Err, "turso") {
		t.Fatalf("a killed server answered %+v; want a crash", res)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"CREATE TABLE t0(c0)", "INSERT INTO t0 SELECT value FROM generate_series(1, 300)"} {
		tg.Exec(ctx, s)
	}
	start := time.Now()
	res, err = tg.Exec(ctx, slow)
	if err != nil || res.Status != fuzz.StatusTimeout || time.Since(start) > 6*time.Second {
		t.Fatalf("%s answered %+v, %v after %s; want a timeout after 2s", slow, res, err, time.Since(start))
	}
	res, err = tg.Exec(ctx, "SELECT 42")
	if err != nil || res.Status != fuzz.StatusOK || res.Rows[0][0] != "i:42" {
		t.Fatalf("after the timeout: %+v, %v", res, err)
	}
	if tg.Starts() != 3 {
		t.Errorf("Starts = %d; want 3", tg.Starts())
	}
}

// TestPanicIsACrash runs a query on which Turso 0.8.3 panics (a bug polyfuzz found, docs/sql.md):
// the answer is a crash that quotes the panic, and the target goes on after Reset.
func TestPanicIsACrash(t *testing.T) {
	tg := open(t, 10*time.Second)
	ctx := context.Background()
	for _, s := range []string{
		"CREATE TABLE t0 (c0 NUMERIC UNIQUE ON CONFLICT FAIL COLLATE NOCASE, c1 BLOB, c2 INT PRIMARY KEY DESC)",
		"CREATE TABLE t1 (c0 INTEGER PRIMARY KEY ASC ON CONFLICT FAIL AUTOINCREMENT)",
		"INSERT INTO t0(c2, c1) VALUES (NULL, NULL)",
		"ANALYZE",
	} {
		if res, err := tg.Exec(ctx, s); err != nil || res.Status != fuzz.StatusOK {
			t.Fatalf("%s: %+v, %v", s, res, err)
		}
	}
	res, err := tg.Exec(ctx, "SELECT * FROM t1 LEFT JOIN t0 ON ((0 BETWEEN NULL AND NULL) IS t0.c0) WHERE 1")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fuzz.StatusCrash || !strings.Contains(res.Err, "panicked at core/translate/optimizer") {
		t.Fatalf("the panicking query answered %+v; want a crash that quotes the panic", res)
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if res, err := tg.Exec(ctx, "SELECT 42"); err != nil || res.Status != fuzz.StatusOK || res.Rows[0][0] != "i:42" {
		t.Fatalf("after the panic and Reset: %+v, %v", res, err)
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
		if len(f) > 1 && f[1] == strconv.Itoa(self) && strings.Contains(string(cmd), "polyfuzz-turso") {
			pid, _ := strconv.Atoi(e.Name())
			return pid
		}
	}
	t.Skip("cannot find the server process in /proc")
	return 0
}

// TestMissingModule opens the target with an interpreter that has no turso module: the error
// names the fix.
func TestMissingModule(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	if exec.Command(py, "-S", "-c", "import turso").Run() == nil {
		t.Skip(py + " has the turso module")
	}
	dir := t.TempDir()
	wrapper := dir + "/python"
	// -S: no site-packages, so that the module is missing even where a user installed it.
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+py+" -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Open(Options{Python: wrapper})
	if err == nil || !strings.Contains(err.Error(), "pyturso") || !strings.Contains(err.Error(), "python_env") {
		t.Fatalf("Open with a python without turso = %v; want an error that names the fix", err)
	}
	_, err = Open(Options{Python: dir + "/nosuch"})
	if err == nil || !strings.Contains(err.Error(), "python_env") {
		t.Fatalf("Open with no python = %v; want an error that names the fix", err)
	}
}
