package sqlitelib

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver/rowservertest"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// DebianLib is Debian's SQLite library (package libsqlite3-0, SQLite 3.40.1 on bookworm), which
// the tests run: a release older than the one polyfuzz embeds.
const DebianLib = "/lib/x86_64-linux-gnu/libsqlite3.so.0"

// open opens Debian's library, skipping t (failing it in CI) when it is missing.
func open(t *testing.T, timeout time.Duration) *Target {
	t.Helper()
	if _, err := os.Stat(DebianLib); err != nil {
		testenv.Missing(t, DebianLib+" is missing: install the Debian package libsqlite3-0")
	}
	return sqltest.Open(t, func(context.Context) (*Target, error) { return Open(Options{Lib: DebianLib, Timeout: timeout}) })
}

// TestValuesAsEmbedded runs values on the library and on the embedded SQLite (targets/sqlite):
// the canonical forms must be the same, so that oracles see one engine whichever build runs.
func TestValuesAsEmbedded(t *testing.T) {
	tg := open(t, 10*time.Second)
	if !strings.HasPrefix(tg.Version(), "3.") || tg.SourceID() == "" || tg.Version() == sqlite.Version() {
		t.Errorf("Version %q, SourceID %q: want the library's own (the embedded one is %s)", tg.Version(), tg.SourceID(), sqlite.Version())
	}
	emb, err := sqlite.Open(sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	rowservertest.CheckValuesAs(t, tg, emb, []string{
		"NULL", "0", "-1", "9223372036854775807", "-9223372036854775808", "1.5", "-0.0", "0.1",
		"1e308 * 10", "-1e308 * 10", "4.9e-324", "1.7976931348623157e308", "123456789.125", "1e21", "1e-7",
		"''", "'a'", "'é'", "'it''s'", "'a\tb'", "char(10, 13, 92)", "CAST(x'ff00fe' AS TEXT)", "CAST(x'c3' AS TEXT)",
		"x''", "x'00ff'", "zeroblob(3)", "CAST(1 AS BLOB)", "TRUE", "typeof(1.0)", "hex(x'0102')",
	})
}

func TestExec(t *testing.T) {
	tg := open(t, 10*time.Second)
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT PRIMARY KEY, c1 TEXT, c2 REAL, c3 BLOB)",
		"INSERT INTO t0 VALUES (1, 'a', 1.5, x'00ff'), (2, NULL, -0.0, NULL)")
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"rows", "SELECT * FROM t0 ORDER BY c0", sqltest.OK(nil,
			[]string{"i:1", "t:a", "r:1.5", "b:00ff"}, []string{"i:2", "NULL", "r:0", "NULL"})},
		{"count", "SELECT COUNT(*) FROM t0 WHERE c1 IS NULL", sqltest.OK(nil, []string{"i:1"})},
		{"no rows", "SELECT * FROM t0 WHERE 0", sqltest.OK(nil)},
		{"several statements", "INSERT INTO t0(c0) VALUES (3); SELECT COUNT(*) FROM t0", sqltest.OK(nil, []string{"i:3"})},
		{"trailing comment", "SELECT 1; -- done", sqltest.OK(nil)},
		{"unique", "INSERT INTO t0(c0) VALUES (1)", sqltest.EngineErr("SQLITE_CONSTRAINT_PRIMARYKEY", "UNIQUE constraint failed: t0.c0")},
		{"syntax", "SELEC 1", sqltest.EngineErr("SQLITE_ERROR", `near "SELEC": syntax error`)},
		{"missing function", "SELECT concat('a')", sqltest.EngineErr("SQLITE_ERROR", "no such function: concat")},
		{"overflow", "SELECT abs(-9223372036854775808)", sqltest.EngineErr("SQLITE_ERROR", "integer overflow")},
	})
	if err := tg.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r, _ := tg.Exec(context.Background(), "SELECT * FROM t0"); r.Status != fuzz.StatusEngineError {
		t.Fatalf("table survived Reset: %+v", r)
	}
}

// TestTimeout checks that a statement past the timeout is interrupted and the database kept.
func TestTimeout(t *testing.T) {
	tg := open(t, 100*time.Millisecond)
	sqltest.MustExec(t, tg, "CREATE TABLE kept(c0)")
	rowservertest.CheckTimeout(t, tg, "SELECT * FROM kept", sqltest.TimeoutCase{Name: "endless",
		Stmt: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c", Max: 2 * time.Second}, false)
}

// TestCrashIsAResult kills the server in the middle of a statement, as a segmentation fault in
// the library would: the statement is a crash, and the target goes on after Reset.
func TestCrashIsAResult(t *testing.T) {
	rowservertest.CheckCrash(t, open(t, 20*time.Second), rowservertest.Crash{Signal: syscall.SIGSEGV,
		Slow: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c"})
}

// TestRefused checks the errors for a library that is missing or not SQLite.
func TestRefused(t *testing.T) {
	text, libm := rowservertest.NotALibrary(t, "libsqlite3.so"), rowservertest.OtherLib
	rowservertest.CheckRefused(t, func(lib string) (fuzz.Target, error) { return Open(Options{Lib: lib}) }, []rowservertest.RefusedCase{
		{"none", "", "no library given"},
		{"missing", "/nonexistent/libsqlite3.so", "no such file or directory: give the path of a SQLite library"},
		{"directory", t.TempDir(), "is a directory"},
		{"not a library", text, "cannot load " + text},
		{"another library", libm, libm + " is not a SQLite library: it has no sqlite3_libversion"},
	})
}
