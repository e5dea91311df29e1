package fault

import (
	"context"
	"reflect"
	"testing"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

func TestFaults(t *testing.T) {
	tests := []struct {
		spec string
		stmt string
		want *fuzz.Result
	}{
		{"drop-row:WHERE", "SELECT c0 FROM t0 WHERE c0 > 0 ORDER BY c0",
			&fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"c0"}, Rows: [][]string{{"i:2"}}}},
		{"drop-row:WHERE", "SELECT c0 FROM t0 ORDER BY c0",
			&fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"c0"}, Rows: [][]string{{"i:1"}, {"i:2"}}}},
		{"add-row:.", "SELECT c0 FROM t0 WHERE c0 = 2",
			&fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"c0"}, Rows: [][]string{{"i:2"}, {"i:2"}}}},
		{"new-row:.", "SELECT c0, 'x' FROM t0 WHERE c0 = 2",
			&fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"c0", "'x'"}, Rows: [][]string{{"i:2", "t:x"}, {"i:2", "t:x~"}}}},
		{"new-row:.", "SELECT 'x', c0 FROM t0 WHERE c0 = 2",
			&fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"'x'", "c0"}, Rows: [][]string{{"t:x", "i:2"}, {"t:x", "i:1000002"}}}},
		{"change-value:COUNT", "SELECT COUNT(*) FROM t0",
			&fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"COUNT(*)"}, Rows: [][]string{{"i:0"}}}},
		{"error:t0", "SELECT 1 FROM t0",
			&fuzz.Result{Status: fuzz.StatusEngineError, Code: "FAULT", Err: "fault: planted error"}},
		{"hang:t0", "SELECT 1 FROM t0",
			&fuzz.Result{Status: fuzz.StatusTimeout, Err: "fault: planted hang"}},
	}
	for _, tc := range tests {
		t.Run(tc.spec+" "+tc.stmt, func(t *testing.T) {
			spec, err := Parse(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			base, err := sqlite.Open(sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer base.Close()
			tg := Wrap(base, spec)
			ctx := context.Background()
			tg.Exec(ctx, "CREATE TABLE t0(c0 INT)")
			tg.Exec(ctx, "INSERT INTO t0 VALUES (1), (2)")
			got, err := tg.Exec(ctx, tc.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPanic(t *testing.T) {
	base, _ := sqlite.Open(sqlite.Options{})
	defer base.Close()
	spec, _ := Parse("panic:boom")
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	Wrap(base, spec).Exec(context.Background(), "SELECT 'boom'")
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "drop-row", "nope:x", "drop-row:("} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted a bad spec", s)
		}
	}
}
