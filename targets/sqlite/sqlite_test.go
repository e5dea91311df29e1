package sqlite

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestExec(t *testing.T) {
	tg, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	ctx := context.Background()
	setup := []string{
		"CREATE TABLE t0(c0 INT PRIMARY KEY, c1 TEXT, c2 REAL, c3 BLOB)",
		"INSERT INTO t0 VALUES (1, 'a', 1.5, x'00ff'), (2, NULL, -0.0, NULL)",
	}
	for _, s := range setup {
		r, err := tg.Exec(ctx, s)
		if err != nil || r.Status != fuzz.StatusOK {
			t.Fatalf("%s: %v %+v", s, err, r)
		}
	}
	tests := []struct {
		name string
		stmt string
		want *fuzz.Result
	}{
		{"rows", "SELECT * FROM t0 ORDER BY c0", &fuzz.Result{Status: fuzz.StatusOK,
			Columns: []string{"c0", "c1", "c2", "c3"},
			Rows:    [][]string{{"i:1", "t:a", "r:1.5", "b:00ff"}, {"i:2", "NULL", "r:0", "NULL"}}}},
		{"count", "SELECT COUNT(*) FROM t0 WHERE c1 IS NULL", &fuzz.Result{Status: fuzz.StatusOK,
			Columns: []string{"COUNT(*)"}, Rows: [][]string{{"i:1"}}}},
		{"unique", "INSERT INTO t0(c0) VALUES (1)", &fuzz.Result{Status: fuzz.StatusEngineError,
			Code: "SQLITE_CONSTRAINT_PRIMARYKEY", Err: "UNIQUE constraint failed: t0.c0"}},
		{"syntax", "SELEC 1", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "SQLITE_ERROR",
			Err: `near "SELEC": syntax error`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tg.Exec(ctx, tc.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Exec(%q) = %+v, want %+v", tc.stmt, got, tc.want)
			}
		})
	}
	if err := tg.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if r, _ := tg.Exec(ctx, "SELECT * FROM t0"); r.Status != fuzz.StatusEngineError {
		t.Fatalf("table survived Reset: %+v", r)
	}
}

func TestTimeout(t *testing.T) {
	tg, err := Open(Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	r, err := tg.Exec(context.Background(),
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != fuzz.StatusTimeout {
		t.Fatalf("endless query gave %+v, want a timeout", r)
	}
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
