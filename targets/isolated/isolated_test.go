package isolated

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/fault"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// TestMain makes the test binary its own isolated child: spec "sqlite" or "sqlite|FAULT".
func TestMain(m *testing.M) {
	if IsChild() {
		Serve(func(spec string) (fuzz.Target, error) {
			name, f, _ := strings.Cut(spec, "|")
			timeout := 200 * time.Millisecond
			if name == "sqlite-no-timeout" { // the parent's deadline must catch a hang
				name, timeout = "sqlite", 0
			}
			tg, err := sqlite.Open(sqlite.Options{Timeout: timeout})
			if err != nil || name != "sqlite" || f == "" {
				return tg, err
			}
			s, err := fault.Parse(f)
			if err != nil {
				return nil, err
			}
			return fault.Wrap(tg, s), nil
		})
	}
	os.Exit(m.Run())
}

func TestIsolated(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		spec   string
		stmt   string
		status fuzz.Status
		errHas string
	}{
		{"ok", "sqlite", "SELECT 1", fuzz.StatusOK, ""},
		{"engine error", "sqlite", "SELECT * FROM nope", fuzz.StatusEngineError, "no such table"},
		{"timeout inside", "sqlite",
			"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c",
			fuzz.StatusTimeout, "ran over"},
		{"timeout by the parent", "sqlite-no-timeout",
			"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT COUNT(*) FROM c",
			fuzz.StatusTimeout, "no answer within"},
		{"panic", "sqlite|panic:boom", "SELECT 'boom'", fuzz.StatusCrash, "panic: fault: planted panic"},
		{"exit", "sqlite|exit:boom", "SELECT 'boom'", fuzz.StatusCrash, "child exited with status 86"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tg, err := Open(ctx, Options{Spec: tc.spec, Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer tg.Close()
			if tg.Name() != "sqlite" || tg.Version() == "" {
				t.Fatalf("name/version = %q/%q", tg.Name(), tg.Version())
			}
			rs, err := tg.ExecBatch(ctx, []string{"CREATE TABLE t0(c0)", tc.stmt})
			if err != nil {
				t.Fatal(err)
			}
			r := rs[1]
			if r.Status != tc.status || !strings.Contains(r.Err, tc.errHas) {
				t.Fatalf("got %v %q, want %v containing %q", r.Status, r.Err, tc.status, tc.errHas)
			}
			// The target recovers: Reset starts a new child if needed and the schema is gone.
			if err := tg.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			r, err = tg.Exec(ctx, "SELECT COUNT(*) FROM sqlite_master")
			if err != nil || r.Status != fuzz.StatusOK || r.Rows[0][0] != "i:0" {
				t.Fatalf("after reset: %+v %v", r, err)
			}
		})
	}
}

func TestBadSpec(t *testing.T) {
	_, err := Open(context.Background(), Options{Spec: "sqlite|nope:x"})
	if err == nil || !strings.Contains(err.Error(), "bad fault") {
		t.Fatalf("Open with a bad spec: %v", err)
	}
}

func BenchmarkBatch(b *testing.B) {
	ctx := context.Background()
	tg, err := Open(ctx, Options{Spec: "sqlite"})
	if err != nil {
		b.Fatal(err)
	}
	defer tg.Close()
	tg.ExecBatch(ctx, []string{"CREATE TABLE t0(c0 INT, c1 TEXT)", "INSERT INTO t0 VALUES (1,'a'),(2,'b'),(3,NULL)"})
	q := []string{"SELECT COUNT(*) FROM t0 WHERE (t0.c0 > 1)",
		"SELECT SUM(count) FROM (SELECT ((t0.c0 > 1)) IS TRUE AS count FROM t0)"}
	b.ReportAllocs()
	for b.Loop() {
		tg.ExecBatch(ctx, q)
	}
}
