package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
)

// open opens a target and closes it when t ends.
func open(t testing.TB, opts Options) *Target {
	t.Helper()
	return sqltest.Open(t, func(context.Context) (*Target, error) { return Open(opts) })
}

func TestExec(t *testing.T) {
	tg := open(t, Options{})
	ctx := context.Background()
	sqltest.MustExec(t, tg, "CREATE TABLE t0(c0 INT PRIMARY KEY, c1 TEXT, c2 REAL, c3 BLOB)",
		"INSERT INTO t0 VALUES (1, 'a', 1.5, x'00ff'), (2, NULL, -0.0, NULL)")
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{
		{"rows", "SELECT * FROM t0 ORDER BY c0", sqltest.OK([]string{"c0", "c1", "c2", "c3"},
			[]string{"i:1", "t:a", "r:1.5", "b:00ff"}, []string{"i:2", "NULL", "r:0", "NULL"})},
		{"count", "SELECT COUNT(*) FROM t0 WHERE c1 IS NULL", sqltest.OK([]string{"COUNT(*)"}, []string{"i:1"})},
		{"unique", "INSERT INTO t0(c0) VALUES (1)", sqltest.EngineErr("SQLITE_CONSTRAINT_PRIMARYKEY", "UNIQUE constraint failed: t0.c0")},
		{"syntax", "SELEC 1", sqltest.EngineErr("SQLITE_ERROR", `near "SELEC": syntax error`)},
	})
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if r, _ := tg.Exec(ctx, "SELECT * FROM t0"); r.Status != fuzz.StatusEngineError {
		t.Fatalf("table survived Reset: %+v", r)
	}
}

func TestTimeout(t *testing.T) {
	sqltest.CheckTimeouts(t, open(t, Options{Timeout: 50 * time.Millisecond}), "SELECT 1", []sqltest.TimeoutCase{
		{"endless", "", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c", 2 * time.Second},
	})
}

func BenchmarkNoRECPair(b *testing.B) {
	tg, _ := Open(Options{})
	defer tg.Close()
	ctx := context.Background()
	tg.Exec(ctx, "CREATE TABLE t0(c0 INT, c1 TEXT)")
	tg.Exec(ctx, "INSERT INTO t0 VALUES (1,'a'),(2,'b'),(3,NULL),(NULL,'c')")
	b.ReportAllocs()
	for b.Loop() {
		tg.Exec(ctx, "SELECT COUNT(*) FROM t0 WHERE (t0.c0 > 1)")
		tg.Exec(ctx, "SELECT SUM(count) FROM (SELECT ((t0.c0 > 1)) IS TRUE AS count FROM t0)")
	}
}
