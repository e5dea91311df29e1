package fault

import (
	"context"
	"reflect"
	"strings"
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
			tg := wrapSQLite(t, spec)
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

// TestPlants runs statement sequences on SQLite with a planted bug and checks the answers and
// the canaries: a bug fires only when its conditions hold, context is forgotten at Reset.
func TestPlants(t *testing.T) {
	type step struct {
		stmt     string
		reset    bool     // Reset before the statement
		rows     []string // first column of the answer
		canaries []string
	}
	tests := []struct {
		name  string
		plant Plant
		steps []step
	}{
		{"partial index drops rows when the query repeats its WHERE",
			Plant{ID: "pidx", Kind: "drop-row", Match: `^SELECT .* WHERE c0 > 1`, Context: []string{`CREATE INDEX \w+ ON t0\(c0\) WHERE`}, Reach: `^SELECT .* WHERE`},
			[]step{
				{stmt: "SELECT c0 FROM t0 WHERE c0 > 1 ORDER BY c0", rows: []string{"i:2", "i:3"}, canaries: []string{"pidx"}},
				{stmt: "CREATE INDEX i0 ON t0(c0) WHERE c0 > 1"},
				{stmt: "SELECT c0 FROM t0 WHERE c0 > 1 ORDER BY c0", rows: []string{"i:3"}, canaries: []string{"pidx", "pidx!"}},
				{stmt: "SELECT c0 FROM t0 ORDER BY c0", rows: []string{"i:1", "i:2", "i:3"}},
				{stmt: "SELECT c0 FROM t0 WHERE c0 < 3 ORDER BY c0", rows: []string{"i:1", "i:2"}, canaries: []string{"pidx"}},
				{stmt: "SELECT c0 FROM t0 WHERE c0 > 1 ORDER BY c0", reset: true, canaries: []string{"pidx"}},
			}},
		{"NOT IN loses the NULL of its list",
			Plant{ID: "in-null", Kind: "rewrite", Match: `NOT IN`, Find: `NOT IN \(([^)]*), NULL\)`, With: `NOT IN ($1)`},
			[]step{
				{stmt: "SELECT COUNT(*) FROM t0 WHERE c0 NOT IN (1, NULL)", rows: []string{"i:2"}, canaries: []string{"in-null", "in-null!"}},
				{stmt: "SELECT COUNT(*) FROM t0 WHERE c0 IN (1, NULL)", rows: []string{"i:1"}},
			}},
		{"answer",
			Plant{ID: "ans", Kind: "answer", Match: `COUNT`, Find: `^i:3$`, With: "i:4"},
			[]step{
				{stmt: "SELECT COUNT(*) FROM t0", rows: []string{"i:4"}, canaries: []string{"ans", "ans!"}},
				{stmt: "SELECT c0 FROM t0 ORDER BY c0", rows: []string{"i:1", "i:2", "i:3"}},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := ParsePlants(EncodePlants([]Plant{tc.plant}))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := ps[0].Spec()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(spec.Plant(), tc.plant) {
				t.Fatalf("the plant does not round-trip: %+v", spec.Plant())
			}
			tg := wrapSQLite(t, spec)
			ctx := context.Background()
			setup := func() {
				tg.Exec(ctx, "CREATE TABLE t0(c0 INT)")
				tg.Exec(ctx, "INSERT INTO t0 VALUES (1), (2), (3)")
			}
			setup()
			for i, s := range tc.steps {
				if s.reset {
					if err := tg.Reset(ctx); err != nil {
						t.Fatal(err)
					}
					setup()
					s.rows = []string{"i:2", "i:3"}
				}
				r, err := tg.Exec(ctx, s.stmt)
				if err != nil || r.Failed() {
					t.Fatalf("step %d: %v %+v", i, err, r)
				}
				var col []string
				for _, row := range r.Rows {
					col = append(col, row[0])
				}
				if s.rows != nil && !reflect.DeepEqual(col, s.rows) {
					t.Errorf("step %d %s: rows %v, want %v", i, s.stmt, col, s.rows)
				}
				if !reflect.DeepEqual(r.Canaries, s.canaries) {
					t.Errorf("step %d %s: canaries %v, want %v", i, s.stmt, r.Canaries, s.canaries)
				}
			}
		})
	}
}

func TestPlantErrors(t *testing.T) {
	for _, tc := range []struct {
		spec, want string
	}{
		{`[{"id":"x","kind":"rewrite","match":"a"}]`, "needs find"},
		{`[{"id":"x","kind":"drop-row","match":"("}]`, "bad match pattern"},
		{`[]`, "empty"},
		{`[{"id":"x",`, "want a JSON array"},
	} {
		ps, err := ParsePlants(tc.spec)
		if err == nil {
			_, err = ps[0].Spec()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.spec, err, tc.want)
		}
	}
}

// wrapSQLite wraps an in-memory SQLite in the fault spec; it is closed when the test ends.
func wrapSQLite(t *testing.T, spec Spec) *Target {
	t.Helper()
	base, err := sqlite.Open(sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { base.Close() })
	return Wrap(base, spec)
}
