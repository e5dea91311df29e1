package turso

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
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// open opens a target, skipping t (failing it in CI) when the binding is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "turso")
	return sqltest.Open(t, func(context.Context) (*Target, error) { return Open(Options{Timeout: timeout}) })
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
	rowservertest.CheckValuesAs(t, tg, st, []string{
		"NULL", "0", "-1", "9223372036854775807", "-9223372036854775808", "TRUE",
		"0.5", "-0.0", "0.1", "1e308", "1e-308", "4.9e-324", "1e100", "123456.0", "1e6", "1e21", "1e-5",
		"9e999", "-9e999", "1.0/3", "2.5e-5", "9223372036854775807.0",
		"''", "'a'", "'tab\there'", "'line\nbreak\\'", "'é'", "'İß'", "x''", "x'00ff'", "zeroblob(2)",
		"CAST(1 AS TEXT)", "CAST('1.5' AS NUMERIC)", "CAST('1e2' AS NUMERIC)", "typeof(1.5)",
		"abs(-3)", "round(2.5)", "hex(x'0a')", "quote('it''s')", "printf('%.3f', 1.5)",
	})
}

func TestStatementsAndErrors(t *testing.T) {
	tg := open(t, 10*time.Second)
	ok := sqltest.OK
	rowservertest.CheckStatements(t, tg, []rowservertest.StmtCase{
		{"CREATE TABLE t0(c0 INT PRIMARY KEY, c1 TEXT, c2 REAL, c3 BLOB)", ok(nil)},
		{"INSERT INTO t0 VALUES (1, 'a', 1.5, x'00ff'), (2, NULL, 2.0, NULL)", ok(nil)},
		{"SELECT * FROM t0 ORDER BY c0", ok(nil, []string{"i:1", "t:a", "r:1.5", "b:00ff"}, []string{"i:2", "NULL", "r:2", "NULL"})},
		{"SELECT 1; SELECT 'é', 2", ok(nil, []string{"t:é", "i:2"})},
		{"SELECT 'é'; SELECT 3", ok(nil, []string{"i:3"})},
		{"INSERT INTO t0(c0) VALUES (1)", sqltest.EngineErr("SQLITE_CONSTRAINT", "UNIQUE constraint failed: t0.c0")},
		{"SELEC 1", sqltest.EngineErr("SQLITE_ERROR", `near "SELEC": syntax error`)},
		{"SELECT abs(-9223372036854775808)", sqltest.EngineErr("SQLITE_ERROR", "integer overflow")},
		{"SELECT * FROM nosuch", sqltest.EngineErr("SQLITE_ERROR", "")},
	})
	rowservertest.CheckReset(t, tg, "SELECT * FROM t0", "SQLITE_ERROR")
}

// setup makes a table t0 on which slow runs for seconds.
var (
	setup = []string{"CREATE TABLE t0(c0)", "INSERT INTO t0 SELECT value FROM generate_series(1, 300)"}
	slow  = "SELECT count(*) FROM t0 a, t0 b, t0 c, t0 d"
)

// TestCrashIsAResult kills the server in the middle of a statement, as a fatal signal in the
// engine would: the statement is a crash, and the target goes on after Reset.
func TestCrashIsAResult(t *testing.T) {
	rowservertest.CheckCrash(t, open(t, 20*time.Second), rowservertest.Crash{Signal: syscall.SIGSEGV, Setup: setup, Slow: slow})
}

// TestTimeout runs a statement past its timeout: it is a timeout, and the target goes on with a
// new process.
func TestTimeout(t *testing.T) {
	tg := open(t, 2*time.Second)
	sqltest.MustExec(t, tg, setup...)
	rowservertest.CheckTimeout(t, tg, "SELECT 42", sqltest.TimeoutCase{Name: "cross join", Stmt: slow, Max: 6 * time.Second}, true)
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

// TestMissingModule opens the target with an interpreter that has no turso module: the error
// names the fix.
func TestMissingModule(t *testing.T) {
	rowservertest.CheckMissingModule(t, func(python string) error {
		tg, err := Open(Options{Python: python})
		if err == nil {
			tg.Close()
		}
		return err
	}, "turso (PyPI pyturso)", Fix)
}
